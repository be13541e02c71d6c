// The history under the table, grouped by hand (Texas 42: one row a trick:
// who led, the plays in order, who won, the points) or by round (Doubles:
// every move in order). Rows wrap instead of scrolling sideways.

import { $, escapeHtml } from "./dom.js";
import { pretty, trumpText } from "./dominoes.js";
import { seatNames } from "./seats.js";

// Redraws the history of `st` up to the end of its last finished deal, with
// the deal in progress too where `st` is the game as it is now (`live`).
export function drawHistory(st, live) {
  const box = $("log");
  if (!box) return;
  const word = st.game === "texas42" ? "Hand" : "Round";
  let html = "";
  let start = 0;
  st.deals.forEach((deal, i) => {
    html += dealHtml(st, `${word} ${i + 1}`, deal.table, st.history.slice(start, deal.end), deal);
    start = deal.end;
  });
  if (live && st.table && !st.done && st.history.length > start) {
    html += dealHtml(st, `${word} ${st.deals.length + 1} (in progress)`, st.table, st.history.slice(start), null);
  }
  box.innerHTML = html || '<p class="note">Nothing played yet.</p>';
  $("log-title").textContent = st.game === "texas42" ? "Tricks" : "Moves";
}

// How a deal ended, in a word or two.
const ENDED = { made: "made", set: "set", "thrown-in": "thrown in", domino: "went out", blocked: "blocked" };

// One hand (round): a heading, then its tricks (Texas 42) or its moves (Doubles).
function dealHtml(st, title, table, moves, deal) {
  const names = seatNames(st);
  let head = title;
  if (st.game === "texas42" && table && table.bidder != null) {
    head += ` · ${names[table.bidder]} bid ${table.high_bid}${table.trump ? `, ${trumpText(table.trump)}` : ""}`;
  }
  if (deal && deal.how && deal.how.ended) head += ` · ${ENDED[deal.how.ended] || deal.how.ended}`;
  let html = `<section class="deal-log"><h4>${escapeHtml(head)}</h4>`;
  if (st.game === "texas42") html += tricksHtml(st, table, names);
  else {
    html += '<ol class="moves-list">';
    for (const m of moves) html += `<li>${escapeHtml(names[m.seat])}: ${escapeHtml(pretty(m.action))}</li>`;
    html += "</ol>";
  }
  return html + "</section>";
}

// The tricks of a hand as rows (the trick in progress last, without a winner).
function tricksHtml(st, table, names) {
  const tricks = (table && table.tricks) || [];
  const rows = tricks.slice();
  if (table && table.trick && table.trick.plays.length) rows.push(table.trick);
  if (!rows.length) {
    const bids = table && table.bids ? table.bids.map((b, s) => (b ? `${names[s]} ${b}` : null)).filter((b) => b) : [];
    return `<p class="note">${bids.length ? `Bids: ${escapeHtml(bids.join(", "))}` : "No trick played."}</p>`;
  }
  let html = '<ol class="trick-rows"><li class="trick-row head" aria-hidden="true"><span>#</span><span>Led</span>'
    + "<span>Plays</span><span>Won</span><span>Pts</span></li>";
  rows.forEach((t, i) => {
    const plays = t.plays.map((p) => `<span class="${p.seat === t.winner ? "win" : ""}" title="${escapeHtml(names[p.seat])}">`
      + `${escapeHtml(p.domino)}</span>`).join(" ");
    const won = t.winner != null;
    html += `<li class="trick-row" data-trick="${i + 1}"><span class="n">${i + 1}</span><span>${escapeHtml(names[t.leader])}</span>`
      + `<span class="plays">${plays}</span><span>${won ? escapeHtml(names[t.winner]) : "…"}</span>`
      + `<span class="pts">${won ? escapeHtml(t.points) : ""}</span></li>`;
  });
  return html + "</ol>";
}
