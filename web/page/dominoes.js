// Dominoes as the page draws and names them.

const PIPS = {
  0: [], 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

// The shapes of a domino with `a` on top (or on the left, `horizontal`) and `b`
// below (on the right), in a 40×80 (80×40) box.
export function dominoShapes(a, b, horizontal = false) {
  const w = horizontal ? 80 : 40, h = horizontal ? 40 : 80;
  let s = `<rect x="1" y="1" width="${w - 2}" height="${h - 2}" rx="6" class="tile"/>`;
  s += horizontal ? `<line x1="40" y1="6" x2="40" y2="34" class="bar"/>` : `<line x1="6" y1="40" x2="34" y2="40" class="bar"/>`;
  [a, b].forEach((n, half) => {
    for (const [x, y] of PIPS[n] || []) {
      const cx = x * 10 + (horizontal ? half * 40 : 0), cy = y * 10 + (horizontal ? 0 : half * 40);
      s += `<circle cx="${cx}" cy="${cy}" r="3.6" class="pip"/>`;
    }
  });
  return s;
}

// An SVG domino "a-b": vertical (a on top) or horizontal (a on the left).
export function dominoSvg(name, horizontal = false) {
  const [a, b] = name.split("@")[0].split("-").map(Number);
  const w = horizontal ? 80 : 40, h = horizontal ? 40 : 80;
  return `<svg class="domino" viewBox="0 0 ${w} ${h}" role="img" aria-label="${a}-${b}">${dominoShapes(a, b, horizontal)}</svg>`;
}

// An action as the page shows it: `6-3@6` reads "6-3 on 6".
export const pretty = (action) => String(action).replace("@", " on ");
export const isDomino = (action) => /^\d-\d(@\d)?$/.test(action);
export const dominoOf = (action) => action.split("@")[0];

// The count a Texas 42 domino carries: 10 for 5-5 and 6-4, 5 for 5-0, 4-1 and 3-2.
export function countOf(domino) {
  const [a, b] = dominoOf(domino).split("-").map(Number);
  if (a + b === 10 && Math.max(a, b) >= 5) return 10;
  return a + b === 5 ? 5 : 0;
}

// "1 point", "11 points" (any word: plural("trick", 7)).
export const plural = (word, n) => `${n} ${word}${Number(n) === 1 ? "" : "s"}`;

// Texas 42's trump as the table shows it.
export function trumpText(trump) {
  if (trump === "follow-me") return "follow me (no trump)";
  if (trump === "nel-o") return "Nel-O";
  if (trump === "sevens") return "sevens";
  return `${trump} are trump`;
}
