// The review of a finished deal, as the server answers it with the deal.
// Texas 42: the person's side, with all hands open: every play of the person
// and of the partner against the open-hand solver's best, their bids and trump
// against the network's, and where the side lost most. Doubles: each of the
// person's choices against pimc asked from the person's own view.

import { escapeHtml } from "./dom.js";
import { pretty } from "./dominoes.js";

const trumpName = (a) => (a === "follow-me" ? "follow me" : a === "nel-o" ? "Nel-O" : a);
const bidWords = (a) => (a === "pass" ? "pass" : `bid ${a}`);

// Who the bids are compared with: "the network" (a model), else the spec (e.g. heuristic).
const bidderName = (spec) => (!spec || String(spec).startsWith("model:") ? "the network" : String(spec));

// "You bid 30; the network would bid pass" (or "…, same as the network"); `who`: "You" or "Partner".
function bidLine(b, by, who) {
  const did = b.action === "pass" ? `${by} passed` : `${by} bid ${b.action}`;
  if (b.network == null) return `${did}.`;
  if (b.network === b.action) return `${did}, same as ${who}.`;
  return `${did}; ${who} would ${bidWords(b.network)}.`;
}

function declarationLine(d, by, who) {
  const did = `${by} named ${trumpName(d.action)}`;
  if (d.network == null) return `${did}.`;
  if (d.network === d.action) return `${did}, same as ${who}.`;
  return `${did}; ${who} would name ${trumpName(d.network)}.`;
}

// A play's other moves and the points each keeps, for the row's tooltip.
const movesTitle = (p) => (p.moves || []).map((m) => `${pretty(m.action)}: ${m.points}`).join(", ");

// One row of the table: a play of `who` ("You", "Partner"); `largest`: the largest loss of that seat.
function rowHtml(p, who, largest, doubles) {
  const cls = [largest ? "largest" : "", p.lost > 0 ? "lost" : ""].filter((c) => c).join(" ");
  const when = doubles ? p.turn : p.trick;
  return `<tr class="${cls}" data-who="${who === "You" ? "you" : "partner"}" data-ply="${escapeHtml(p.ply)}" data-action="${escapeHtml(p.action)}"`
    + ` data-best="${escapeHtml(p.best)}" data-lost="${escapeHtml(p.lost)}" title="${escapeHtml(movesTitle(p))}">`
    + `<td>${escapeHtml(when)}</td>${doubles ? "" : `<td>${who}</td>`}<td>${escapeHtml(pretty(p.action))}</td>`
    + `<td>${p.best === p.action ? `<span class="same">${escapeHtml(pretty(p.best))}</span>` : escapeHtml(pretty(p.best))}</td>`
    + `<td>${escapeHtml(p.lost)}${largest ? ' <span class="marker">◀ largest</span>' : ""}</td></tr>`;
}

// Where a Doubles review lost most, in words.
function doublesWhere(review) {
  const p = review.largest != null ? review.plays[review.largest] : null;
  if (!p) return "nowhere: every choice was pimc's best";
  return `your move ${p.turn}: ${pretty(p.action)} gave up ${p.lost} against ${pretty(p.best)}`;
}

// The review as HTML for the deal's summary ("" where the deal has none).
export function reviewHtml(review) {
  if (!review) return "";
  const doubles = review.open_hands === false;
  const partner = !doubles && review.partner ? review.partner : null;
  let html = '<section class="review" aria-labelledby="review-title">';
  if (doubles) {
    const worlds = /worlds=(\d+)/.exec(review.reviewer || "");
    html += `<h4 id="review-title">Review from your view, against pimc${worlds ? ` (${worlds[1]} sampled worlds)` : ""}</h4>`;
    html += `<p class="note">Each of your choices against the best of pimc's, which deals the hidden dominoes again in sampled worlds`
      + ` consistent with what you saw and plays each move out. Values: ${escapeHtml(review.unit || "the move's mean value")}.`
      + " Given up: the best value less yours.</p>";
  } else {
    html += `<h4 id="review-title">Review of your side, with all hands open</h4>`;
    html += '<p class="note">As in bridge\'s double-dummy analysis: every hand face up, everyone playing best after each play. '
      + "Given up: the points your side could have taken from that play to the end of the hand, less those it takes after the play made.</p>";
  }
  const where = doubles ? doublesWhere(review) : review.side && review.side.lost_most && review.side.lost_most.text;
  if (where) html += `<p class="where"><strong>Where ${doubles ? "you" : "your side"} lost most:</strong> ${escapeHtml(where)}.</p>`;
  const who = bidderName(review.bidder);
  for (const b of review.bids || []) html += `<p class="review-bid">${escapeHtml(bidLine(b, "You", who))}</p>`;
  if (review.declaration) html += `<p class="review-bid">${escapeHtml(declarationLine(review.declaration, "You", who))}</p>`;
  for (const b of (partner && partner.bids) || []) html += `<p class="review-bid partner">${escapeHtml(bidLine(b, "Partner", who))}</p>`;
  if (partner && partner.declaration) html += `<p class="review-bid partner">${escapeHtml(declarationLine(partner.declaration, "Partner", who))}</p>`;
  const plays = review.plays || [], theirs = (partner && partner.plays) || [];
  if (!plays.length && !theirs.length) return `${html}<p>${doubles ? "You had no choice to make this round." : "Your side played no domino this hand."}</p></section>`;
  html += `<table id="review"><thead><tr><th scope="col">${doubles ? "Move" : "Trick"}</th>${doubles ? "" : '<th scope="col">Who</th>'}`
    + '<th scope="col">Played</th><th scope="col">Best</th><th scope="col">Given up</th></tr></thead><tbody>';
  plays.forEach((p, i) => { html += rowHtml(p, "You", i === review.largest, doubles); });
  theirs.forEach((p, i) => { html += rowHtml(p, "Partner", i === partner.largest, doubles); });
  const span = doubles ? 3 : 4;
  html += `</tbody><tfoot><tr><th scope="row" colspan="${span}">${partner ? "You gave up" : "Total given up"}</th>`
    + `<td id="review-total" data-lost="${escapeHtml(review.lost)}">${escapeHtml(review.lost)}</td></tr>`;
  if (partner) {
    html += `<tr><th scope="row" colspan="${span}">Partner gave up</th>`
      + `<td id="review-partner-total" data-lost="${escapeHtml(partner.lost)}">${escapeHtml(partner.lost)}</td></tr>`;
  }
  return `${html}</tfoot></table></section>`;
}
