// The Doubles board as it lies on a table: the spinner (the opening double,
// upright in the middle) and its arms, each domino touching the end it was set
// on with the matching half, doubles crosswise, drawn from the server's layout
// (`table.layout`, docs/interfaces/web.md). The open ends carry their number; a
// locked number (its double not yet down: only the double may go there) is
// marked. The drawing scales down to fit a phone.

import { escapeHtml } from "./dom.js";
import { dominoShapes, plural } from "./dominoes.js";
import { seatNames } from "./seats.js";

const UNIT = 34; // pixels per layout unit (a domino is 2 × 1), shrunk to fit
const STEP = { east: [1, 0], west: [-1, 0], north: [0, -1], south: [0, 1] };

// The board of `table` with its first `count` dominoes (all by default), and the legend.
export function boardHtml(st, table, count) {
  const layout = table && table.layout;
  const tiles = layout ? layout.tiles.slice(0, count ?? layout.tiles.length) : [];
  if (!tiles.length) return `<p class="board-empty">The board is empty: the highest double opens.</p>${legend(table, [], [])}`;
  const k = tiles.length;
  const down = new Set(tiles.map((t) => t.domino));
  const ends = layout.ends.filter((e) => e.opened_by < k && (e.closed_by == null || e.closed_by >= k)).map((e) => {
    const [dx, dy] = STEP[e.dir];
    return { ...e, cx: e.x + dx * 0.45, cy: e.y + dy * 0.45, locked: !down.has(`${e.number}-${e.number}`) };
  });
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const t of tiles) [x0, y0, x1, y1] = [Math.min(x0, t.x), Math.min(y0, t.y), Math.max(x1, t.x + t.w), Math.max(y1, t.y + t.h)];
  for (const e of ends) [x0, y0, x1, y1] = [Math.min(x0, e.cx - 0.4), Math.min(y0, e.cy - 0.4), Math.max(x1, e.cx + 0.4), Math.max(y1, e.cy + 0.4)];
  const pad = 0.15, w = (x1 - x0 + 2 * pad) * UNIT, h = (y1 - y0 + 2 * pad) * UNIT;
  const names = seatNames(st), board = (table && table.board) || [];
  let svg = `<svg class="layout" viewBox="${(x0 - pad) * UNIT} ${(y0 - pad) * UNIT} ${w} ${h}" width="${w}" role="img"`
    + ` aria-label="The board: ${escapeHtml(tiles.map((t) => t.domino).join(", "))}">`;
  tiles.forEach((t, i) => {
    const horizontal = t.w > t.h;
    const by = board[i] ? `${names[board[i].seat]}: ` : "";
    const on = board[i] && board[i].on != null ? ` on ${board[i].on}` : i === 0 ? " (the spinner)" : "";
    svg += `<g class="placed${i === k - 1 ? " last" : ""}" data-domino="${escapeHtml(t.domino)}" transform="translate(${t.x * UNIT} ${t.y * UNIT}) scale(${(2 * UNIT) / 80})">`
      + `<title>${escapeHtml(by + t.domino + on)}</title>${dominoShapes(t.first, t.second, horizontal)}</g>`;
  });
  for (const e of ends) {
    const note = e.locked ? `open end ${e.number}, locked: only ${e.number}-${e.number} can go here` : `open end ${e.number}`;
    svg += `<g class="end${e.locked ? " locked" : ""}" data-number="${e.number}"><title>${note}</title>`
      + `<circle cx="${e.cx * UNIT}" cy="${e.cy * UNIT}" r="${0.36 * UNIT}"/>`
      + `<text x="${e.cx * UNIT}" y="${e.cy * UNIT}" dy="0.35em">${e.number}</text></g>`;
  }
  return `<div class="board-wrap">${svg}</svg></div>${legend(table, ends, tiles)}`;
}

// "Open ends: 6 6 3 · locked: 3 (only 3-3 goes there) · Boneyard: 7".
function legend(table, ends, tiles) {
  if (!table) return "";
  const open = ends.map((e) => e.number).sort((a, b) => b - a);
  const locked = [...new Set(ends.filter((e) => e.locked).map((e) => e.number))].sort((a, b) => b - a);
  let text = tiles.length ? `Open ends: ${open.join(" ") || "none"}` : "";
  if (locked.length) text += ` · locked: ${locked.join(", ")} (only ${locked.map((n) => `${n}-${n}`).join(" or ")} goes there)`;
  const parts = [text, `Boneyard: ${plural("domino", table.boneyard_size).replace("dominos", "dominoes")}`].filter((p) => p);
  return `<div class="ends">${escapeHtml(parts.join(" · "))}</div>`;
}
