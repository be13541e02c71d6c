// A Texas 42 trick drawn as it lies on the table: each domino at full size in
// front of the seat that played it (upright at the top and bottom, crosswise at
// the sides), the lead and the winner marked, and a line saying who led, who
// won and the points in it.

import { escapeHtml } from "./dom.js";
import { dominoSvg, plural } from "./dominoes.js";
import { position, seatNames } from "./seats.js";

// The trick `trick` ({leader, plays: [{seat, domino}], winner?, points?}) of `st`'s game;
// `label` names it for screen readers ("Trick in progress", "Last trick").
export function trickHtml(st, trick, label) {
  const names = seatNames(st);
  const done = trick.winner != null;
  let html = `<div class="trick${done ? " complete" : ""}" role="group" aria-label="${escapeHtml(label)}">`;
  for (const p of trick.plays) {
    const pos = position(st, p.seat);
    const lead = p.seat === trick.leader, won = done && p.seat === trick.winner;
    const cls = `play at-${pos}${lead ? " leader" : ""}${won ? " winner" : ""}`;
    const tags = (lead ? '<span class="tag led">led</span>' : "") + (won ? '<span class="tag won">won</span>' : "");
    html += `<div class="${cls}" data-seat="${p.seat}" data-domino="${escapeHtml(p.domino)}" title="${escapeHtml(`${names[p.seat]}: ${p.domino}`)}">`
      + `${dominoSvg(p.domino, pos === "left" || pos === "right")}${tags}</div>`;
  }
  return `${html}</div><p class="trick-note">${escapeHtml(trickNote(st, trick))}</p>`;
}

// "Left led · Partner won 11 points" (a trick in progress: "Left led").
export function trickNote(st, trick) {
  const names = seatNames(st);
  const led = trick.leader != null ? `${names[trick.leader]} led` : "";
  if (trick.winner == null) return led;
  return `${led} · ${names[trick.winner]} won ${plural("point", trick.points)}`;
}
