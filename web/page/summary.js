// The summary beside the table (below it on a phone, never over the last
// trick): a finished hand's or round's result, how and why it ended, with the
// side's review; and the game's end with the record to download.

import { keepFocus } from "./controls.js";
import { $, escapeHtml } from "./dom.js";
import { countOf, plural, trumpText } from "./dominoes.js";
import { drawScores } from "./render.js";
import { reviewHtml } from "./review.js";
import { seatNames, sideName } from "./seats.js";

// "Us 5-5, 3-2 (15) · Them none": the counting dominoes each side took.
function countText(st, count) {
  const us = st.sides[st.seat];
  return [us, 1 - us].map((side) => {
    const list = count[side] || [];
    const total = list.reduce((n, d) => n + countOf(d), 0);
    return `${sideName(st, side)} ${list.length ? `${list.join(", ")} (${total})` : "none"}`;
  }).join(" · ");
}

// How a Texas 42 hand ended: the verdict, why, at which trick, the count each side took.
function texas42Text(st, deal) {
  const names = seatNames(st);
  const t = deal.table, how = deal.how || {}, c = deal.contract;
  let html = "";
  if (!c || how.ended === "thrown-in") html += "<p class=\"verdict\">Everyone passed: the hand is thrown in.</p>";
  else {
    const bidder = t && t.bidder != null ? names[t.bidder] : sideName(st, c.side);
    const trump = t && t.trump ? ` (${escapeHtml(trumpText(t.trump))})` : "";
    html += `<p class="verdict">${bidder} bid ${escapeHtml(t ? t.high_bid : c.bid_points)}${trump}: ${c.made ? "made it" : "set!"}</p>`;
  }
  if (how.reason) {
    const when = how.ended === "thrown-in" ? "" : how.early ? ` The hand stopped after trick ${how.tricks} of 7.` : " All 7 tricks were played.";
    html += `<p class="why">${escapeHtml(how.reason.charAt(0).toUpperCase() + how.reason.slice(1))}.${escapeHtml(when)}</p>`;
  }
  const us = st.sides[st.seat];
  if (deal.points) html += `<p>Points: Us ${deal.points[us]}, Them ${deal.points[1 - us]}</p>`;
  if (deal.count) html += `<p class="count">Count taken: ${escapeHtml(countText(st, deal.count))}</p>`;
  const unit = st.rules.scoring === "points" ? "points" : "marks";
  html += `<p>This hand: Us +${deal.scores[us]}, Them +${deal.scores[1 - us]} ${unit}</p>`;
  if (st.episode === "game") html += `<p class="totals">${unit[0].toUpperCase() + unit.slice(1)}: Us ${deal.totals[us]}, Them ${deal.totals[1 - us]}</p>`;
  return html;
}

// How a Doubles round ended: who went out or that it was blocked, and the pips left in each hand.
function doublesText(st, deal) {
  const names = seatNames(st);
  const how = deal.how || {};
  const pips = how.pips || [];
  let verdict;
  if (how.ended === "domino" && how.went_out != null) {
    verdict = `${names[how.went_out]} went out (played their last domino): +${deal.scores[how.went_out]}, the pips left in the other hands`;
  } else if (deal.winner != null) {
    verdict = `Blocked: no one could play and the boneyard was down to 2. ${names[deal.winner]} held the fewest pips: +${deal.scores[deal.winner]}`;
  } else {
    verdict = "Blocked: no one could play and the boneyard was down to 2. The fewest pips were tied: no one scores";
  }
  let html = `<p class="verdict">${escapeHtml(verdict)}.</p>`;
  if (pips.length) {
    const held = how.held || [];
    html += `<p class="pips">Pips left: ${escapeHtml(pips.map((p, s) => `${names[s]} ${p}${held[s] != null ? ` (${plural("domino", held[s]).replace("dominos", "dominoes")})` : ""}`).join(", "))}</p>`;
  }
  html += `<p>This round: ${deal.scores.map((v, s) => `${names[s]} +${v}`).join(", ")}</p>`;
  if (st.episode === "game") html += `<p class="totals">Scores: ${deal.totals.map((v, s) => `${names[s]} ${v}`).join(", ")}</p>`;
  return html;
}

// A finished deal's summary as HTML (`index`: its number from 0).
export function dealText(st, deal, index) {
  const word = st.game === "texas42" ? "Hand" : "Round";
  let html = `<h3 id="summary-title">${word} ${index + 1} is over</h3>`;
  html += st.game === "texas42" ? texas42Text(st, deal) : doublesText(st, deal);
  return html + reviewHtml(deal.review, st);
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
  return new Promise((ok) => {
    $("continue").onclick = () => { hideSummary(); keepFocus(); ok(); };
  });
}

// Whether a summary is shown and waits for Continue.
export const summaryOpen = () => !$("summary").hidden;

function openSummary() {
  const box = $("summary");
  box.hidden = false;
  box.scrollTop = 0;
  if (window.matchMedia("(max-width: 900px)").matches) box.scrollIntoView({ block: "start" });
  $("continue").focus({ preventScroll: true });
}

export function hideSummary() {
  $("summary").hidden = true;
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
  $("continue").onclick = () => { hideSummary(); $("continue").textContent = "Continue"; };
  $("again").hidden = false;
  openSummary();
}
