// The review of a finished Texas 42 hand, as the server answers it with the
// deal: every play of the person against the best play with all hands open,
// and their bids and trump against the network's.

import { escapeHtml } from "./dom.js";

const trumpName = (a) => (a === "follow-me" ? "follow me" : a === "nel-o" ? "Nel-O" : a);
const bidWords = (a) => (a === "pass" ? "pass" : `bid ${a}`);

// Who the person's bids are compared with: "the network" (a model), else the spec (e.g. heuristic).
const bidderName = (spec) => (!spec || String(spec).startsWith("model:") ? "the network" : String(spec));

// "You bid 30; the network would bid pass" (or "…, same as the network").
function bidLine(b, who) {
  const you = b.action === "pass" ? "You passed" : `You bid ${b.action}`;
  if (b.network == null) return `${you}.`;
  if (b.network === b.action) return `${you}, same as ${who}.`;
  return `${you}; ${who} would ${bidWords(b.network)}.`;
}

function declarationLine(d, who) {
  const you = `You named ${trumpName(d.action)}`;
  if (d.network == null) return `${you}.`;
  if (d.network === d.action) return `${you}, same as ${who}.`;
  return `${you}; ${who} would name ${trumpName(d.network)}.`;
}

// A play's other moves and the points each keeps, for the row's tooltip.
const movesTitle = (p) => (p.moves || []).map((m) => `${m.action}: ${m.points}`).join(", ");

// The review as HTML for the deal's summary ("" where the deal has none).
export function reviewHtml(review) {
  if (!review) return "";
  const open = review.open_hands !== false;
  let html = '<section class="review" aria-labelledby="review-title">';
  html += `<h4 id="review-title">Review${open ? ", with all hands open" : ""}</h4>`;
  html += `<p class="note">${open ? "As in bridge's double-dummy analysis: every hand face up, everyone playing best after each play. " : ""}`
    + "Given up: the points your side could have taken from that play to the end of the hand, less those it takes after the play made.</p>";
  const who = bidderName(review.bidder);
  for (const b of review.bids || []) html += `<p class="review-bid">${escapeHtml(bidLine(b, who))}</p>`;
  if (review.declaration) html += `<p class="review-bid">${escapeHtml(declarationLine(review.declaration, who))}</p>`;
  const plays = review.plays || [];
  if (!plays.length) return `${html}<p>You played no domino this hand.</p></section>`;
  html += '<div class="scroll-x review-scroll"><table id="review"><thead><tr><th scope="col">Trick</th>'
    + '<th scope="col">You played</th><th scope="col">Best</th><th scope="col">Given up</th></tr></thead><tbody>';
  plays.forEach((p, i) => {
    const largest = i === review.largest;
    const cls = [largest ? "largest" : "", p.lost > 0 ? "lost" : ""].filter((c) => c).join(" ");
    html += `<tr class="${cls}" data-ply="${escapeHtml(p.ply)}" data-action="${escapeHtml(p.action)}"`
      + ` data-best="${escapeHtml(p.best)}" data-lost="${escapeHtml(p.lost)}" title="${escapeHtml(movesTitle(p))}">`
      + `<td>${escapeHtml(p.trick)}</td><td>${escapeHtml(p.action)}</td>`
      + `<td>${p.best === p.action ? `<span class="same">${escapeHtml(p.best)}</span>` : escapeHtml(p.best)}</td>`
      + `<td>${escapeHtml(p.lost)}${largest ? ' <span class="marker">◀ largest</span>' : ""}</td></tr>`;
  });
  html += `</tbody><tfoot><tr><th scope="row" colspan="3">Total given up</th>`
    + `<td id="review-total" data-lost="${escapeHtml(review.lost)}">${escapeHtml(review.lost)}</td></tr></tfoot></table></div>`;
  return html + "</section>";
}
