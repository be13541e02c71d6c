// The summary dialog: a finished hand's or round's result (with the review of
// a Texas 42 hand), and the game's end with the record to download.

import { keepFocus } from "./controls.js";
import { $, escapeHtml } from "./dom.js";
import { trumpText } from "./dominoes.js";
import { drawScores } from "./render.js";
import { reviewHtml } from "./review.js";
import { seatNames, sideName } from "./seats.js";

function dealText(st, deal, index) {
  const names = seatNames(st);
  const t = deal.table;
  const word = st.game === "texas42" ? "Hand" : "Round";
  let html = `<h3 id="summary-title">${word} ${index + 1} is over</h3>`;
  if (st.game === "texas42") {
    const c = deal.contract;
    const us = st.sides[st.seat];
    if (!c) html += "<p>Everyone passed: the hand is thrown in.</p>";
    else {
      const bidder = t && t.bidder != null ? names[t.bidder] : sideName(st, c.side);
      const trump = t && t.trump ? ` (${escapeHtml(trumpText(t.trump))})` : "";
      html += `<p class="verdict">${bidder} bid ${escapeHtml(t ? t.high_bid : c.bid_points)}${trump}: ${c.made ? "made it" : "set!"}</p>`;
    }
    if (deal.points) html += `<p>Points: Us ${deal.points[us]}, Them ${deal.points[1 - us]}</p>`;
    const unit = st.rules.scoring === "points" ? "points" : "marks";
    html += `<p>This hand: Us +${deal.scores[us]}, Them +${deal.scores[1 - us]} ${unit}</p>`;
    html += `<p class="totals">${unit[0].toUpperCase() + unit.slice(1)}: Us ${deal.totals[us]}, Them ${deal.totals[1 - us]}</p>`;
    html += reviewHtml(deal.review);
  } else {
    html += `<p class="verdict">${deal.winner != null ? `${names[deal.winner]} won the round` : "Blocked: no one won the round"}</p>`;
    html += `<p>This round: ${deal.scores.map((v, s) => `${names[s]} +${v}`).join(", ")}</p>`;
    html += `<p class="totals">Scores: ${deal.totals.map((v, s) => `${names[s]} ${v}`).join(", ")}</p>`;
  }
  return html;
}

// Shows a finished deal's summary and waits for Continue (unless the game ended with it).
export function summary(st, deal, index) {
  const last = st.done && index === st.deals.length - 1;
  if (last) return Promise.resolve();
  drawScores({ ...st, scores: deal.totals });
  $("summary-text").innerHTML = dealText(st, deal, index);
  $("continue").hidden = false;
  $("download").hidden = true;
  $("again").hidden = true;
  openSummary();
  $("continue").focus();
  return new Promise((ok) => {
    $("continue").onclick = () => { closeSummary(); ok(); };
  });
}

function openSummary() {
  $("overlay").hidden = false;
  $("summary").scrollTop = 0;
}

function closeSummary() {
  $("overlay").hidden = true;
  keepFocus();
}

// "You and your partner won the game" (the hand, for a one-hand game).
function winnerText(st) {
  const names = seatNames(st);
  const last = st.deals[st.deals.length - 1];
  const w = st.episode === "game" ? st.winner : last ? last.winner : null;
  const what = st.episode === "game" ? "the game" : st.game === "texas42" ? "the hand" : "the round";
  if (w == null) return `No one won ${what}`;
  if (st.game === "texas42") return `${w === st.sides[st.seat] ? "You and your partner" : "Your opponents"} won ${what}`;
  return `${names[w]} won ${what}`;
}

// The game's end: the last deal, the winner, the hints used, and the record to download.
export function gameOver(st) {
  let html = "";
  if (st.deals.length) html += dealText(st, st.deals[st.deals.length - 1], st.deals.length - 1);
  else html += '<h3 id="summary-title">The game is over</h3>';
  html += `<h3 class="winner">${escapeHtml(winnerText(st))}</h3>`;
  html += `<p class="hints-used">Hints used: ${Number(st.hints ?? 0)}</p>`;
  $("summary-text").innerHTML = html;
  const a = $("download");
  if (a.href.startsWith("blob:")) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([JSON.stringify(st.record) + "\n"], { type: "application/json" }));
  a.download = `bones-${st.game}-${st.record.seed}.json`;
  a.hidden = false;
  $("continue").hidden = false;
  $("continue").textContent = "Close";
  $("continue").onclick = () => { closeSummary(); $("continue").textContent = "Continue"; };
  $("again").hidden = false;
  openSummary();
  $("continue").focus();
}
