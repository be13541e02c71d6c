// Drawing the table from a state the server answered: the scores, the seats,
// the trick and the last trick (Texas 42) or the board (Doubles), the deal's
// facts, the prompt with its action buttons, the person's hand and the
// history. The controls carry their moves (`data-action`, `data-moves`);
// play.js answers their clicks.

import { boardHtml } from "./board.js";
import { keepFocus, markSuggested, numberControls } from "./controls.js";
import { $, escapeHtml } from "./dom.js";
import { dominoOf, dominoSvg, isDomino, plural, pretty, trumpText } from "./dominoes.js";
import { botLabel, position, seatNames, sideName } from "./seats.js";
import { myTurn, ui } from "./state.js";
import { trickHtml } from "./trick.js";
import { drawHistory } from "./tricks.js";

// Draws everything; `live`: `st` is the game as it is now (not a step of an animation).
export function drawAll(st, live) {
  if (live) tableFromState(st);
  drawScores(st);
  drawSeats(st, live);
  drawCenter(st);
  drawInfo(st);
  drawPrompt(st, live);
  drawHand(st, live && !ui.busy && !st.replay);
  drawHintBar();
  if (live) {
    drawHistory(st, true);
    keepFocus();
  }
}

// What lies on the table in `st` as the server says it is now: the trick on
// the table and the last one before it (Texas 42), the board (Doubles).
export function tableFromState(st) {
  const t = st.table;
  if (t && st.game === "texas42") {
    const tricks = t.tricks || [];
    if (t.trick && t.trick.plays.length) {
      ui.trick = t.trick;
      ui.lastTrick = t.last_trick || null;
    } else {
      // Between tricks, and at the end of the hand, the trick just won stays on the table.
      ui.trick = t.last_trick || null;
      ui.lastTrick = tricks.length > 1 ? tricks[tricks.length - 2] : null;
    }
  }
  if (t && st.game === "doubles") ui.board = { table: t, count: t.board.length };
  ui.bubbles = currentBubbles(st);
}

// Each seat's last action of the current deal (Texas 42: bids and trump only).
function currentBubbles(st) {
  const start = st.deals.length ? st.deals[st.deals.length - 1].end : 0;
  const b = {};
  if (st.history.length === start && st.deals.length) return b;
  for (const h of st.history.slice(start)) {
    if (st.game === "texas42" && isDomino(h.action)) delete b[h.seat];
    else b[h.seat] = h.action;
  }
  if (st.game === "texas42" && st.table && st.table.phase === "playing") return {};
  return b;
}

// "Us 3 · Them 5 marks (to 7)"; a one-hand game has no target to name.
export function drawScores(st) {
  const t = st.episode === "game" && st.rules && st.rules.target;
  const unit = st.game === "texas42" ? (st.rules.scoring === "points" ? "points" : "marks") : "points";
  const parts = st.scores.map((v, side) => `${sideName(st, side)} ${v}`);
  $("scoreboard").textContent = `${parts.join(" · ")} ${unit}${t ? ` (to ${t})` : ""}`;
}

// The seats: name, level, dominoes held (face up in a replay), last action; `acting`: the seat that just moved.
export function drawSeats(st, live, acting) {
  const names = seatNames(st);
  for (const pos of ["top", "left", "right", "bottom"]) $(`pos-${pos}`).innerHTML = "";
  const sizes = st.table ? st.table.hand_sizes : null;
  for (let s = 0; s < st.players; s++) {
    const el = $(`pos-${position(st, s)}`);
    const bot = botLabel(st, s);
    const who = names[s] + (bot ? ` <small title="${escapeHtml(st.agents && st.agents[s] || "")}">${escapeHtml(bot)}</small>` : "");
    const toMove = live ? st.to_move === s : acting === s;
    let html = `<div class="name${toMove ? " active" : ""}">${who}</div>`;
    if (s !== st.seat && st.hands) {
      html += `<div class="open-hand" aria-label="${escapeHtml(names[s])} holds ${escapeHtml(st.hands[s].join(", ") || "nothing")}">`
        + st.hands[s].map((d) => dominoSvg(d)).join("") + "</div>";
    } else if (s !== st.seat && sizes) {
      html += `<div class="backs" title="dominoes held">${"▮".repeat(sizes[s] || 0)}</div>`;
    }
    if (ui.bubbles[s] !== undefined) html += `<div class="bubble">${escapeHtml(pretty(ui.bubbles[s]))}</div>`;
    el.innerHTML = html;
    el.dataset.seat = s;
  }
}

// The middle of the table: the trick (Texas 42, and the last trick beside it)
// or the board and its open ends (Doubles).
export function drawCenter(st) {
  const c = $("center"), last = $("last-trick");
  last.hidden = true;
  if (st.game === "texas42") {
    c.innerHTML = ui.trick && ui.trick.plays.length ? trickHtml(st, ui.trick, ui.trick.winner != null ? "The trick just won" : "The trick in progress") : "";
    if (ui.lastTrick && ui.lastTrick.plays.length) {
      last.innerHTML = `<h3>Last trick</h3>${trickHtml(st, ui.lastTrick, "Last trick")}`;
      last.hidden = false;
    }
  } else if (st.game === "doubles") {
    c.innerHTML = ui.board ? boardHtml(st, ui.board.table, ui.board.count) : "";
  } else {
    c.innerHTML = "";
  }
}

// The deal's facts beside the table: who shook or opened, the contract, points this hand, hints used.
export function drawInfo(st) {
  const t = st.table;
  const names = seatNames(st);
  const word = st.game === "texas42" ? "hand" : "round";
  let html = "";
  if (st.done && !st.replay) {
    html += `<div>Game over after ${plural(word, st.deals.length)}</div>`;
  } else if (st.game === "texas42" && t) {
    const deal = st.dealNumber ?? st.deals.length + 1;
    html += `<div>${st.episode === "game" ? `Hand ${deal} · ` : ""}${names[t.shaker]} shook</div>`;
    if (t.bidder != null && t.phase !== "bidding") {
      html += `<div class="contract">Contract: ${names[t.bidder]} ${escapeHtml(t.high_bid)}${t.trump ? ` · ${escapeHtml(trumpText(t.trump))}` : ""}</div>`;
    } else if (t.bidder != null) {
      html += `<div>High bid: ${names[t.bidder]} ${escapeHtml(t.high_bid)}</div>`;
    }
    if (t.trump) {
      const us = st.sides[st.seat];
      html += `<div>Points this hand: Us ${t.points[us]}, Them ${t.points[1 - us]}</div>`;
    }
  } else if (st.game === "doubles" && t) {
    const round = st.dealNumber ?? st.deals.length + 1;
    html += `<div>${st.episode === "game" ? `Round ${round} · ` : ""}${names[t.opener]} opened</div>`;
    html += `<div>Dominoes held: ${t.hand_sizes.map((n, s) => `${names[s]} ${n}`).join(", ")}</div>`;
  }
  if (!st.replay) html += `<div class="hints-used">Hints used: ${Number(st.hints ?? 0)}</div>`;
  $("info").innerHTML = html;
}

// The accessible name of an action button.
function actionName(st, action) {
  if (isDomino(action)) return `Play ${dominoOf(action)}${action.includes("@") ? ` on ${action.split("@")[1]}` : ""}`;
  if (action === "pass") return "Pass";
  if (action === "draw") return "Draw";
  if (st.game === "texas42" && st.table && st.table.phase === "bidding") return `Bid ${action}`;
  if (st.game === "texas42" && st.table && st.table.phase === "declaring") return `Trump: ${action === "follow-me" ? "follow me" : action}`;
  return action;
}

// Whether the person is the shaker who must bid because everyone else passed.
function forcedBid(st) {
  const t = st.table;
  if (st.game !== "texas42" || !t || t.phase !== "bidding" || st.legal.includes("pass") || !st.legal.length) return false;
  return t.shaker === st.seat && t.bids.every((b, s) => s === st.seat || b === "pass");
}

// The prompt and, on the person's turn, the buttons of the moves that are not a domino
// (bids, trump, draw, pass), or the ends of the domino being placed (Doubles).
function drawPrompt(st, live) {
  const names = seatNames(st);
  let text = "", note = "";
  if (st.replay) text = "";
  else if (st.done) text = "The game is over.";
  else if (!live || ui.busy) text = "";
  else if (st.legal.length === 0) text = `${names[st.to_move]} to move…`;
  else if (st.game === "texas42") {
    const phase = st.table && st.table.phase;
    text = phase === "bidding" ? "Your bid:" : phase === "declaring" ? "Name trump:" : "Your play: click a domino.";
    if (forcedBid(st)) note = "Everyone else passed, so you, the shaker, must bid: these rules (all_pass: forced) let no hand be thrown in.";
  } else text = ui.choosing ? `Play ${ui.choosing} on which end?` : "Your move: click a domino, or draw or pass.";
  $("prompt").textContent = text;
  $("prompt-note").textContent = note;
  $("prompt-note").hidden = !note;
  const box = $("actions");
  box.innerHTML = "";
  if (!live || ui.busy || st.done || st.replay) return;
  let buttons = st.legal.filter((a) => !isDomino(a)).map((a) => [a, a === "follow-me" ? "follow me" : a]);
  if (ui.choosing) {
    buttons = st.legal.filter((a) => dominoOf(a) === ui.choosing).map((a) => [a, a.includes("@") ? `on ${a.split("@")[1]}` : a]);
  }
  for (const [action, label] of buttons) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action legal";
    b.dataset.action = action;
    b.dataset.label = actionName(st, action);
    b.setAttribute("aria-label", b.dataset.label);
    b.textContent = label;
    box.appendChild(b);
  }
  numberControls();
  markSuggested();
}

// The person's hand; with `live`, each domino that can be played carries its moves.
export function drawHand(st, live) {
  const h = $("hand");
  h.innerHTML = "";
  for (const d of st.hand) {
    const moves = live ? st.legal.filter((a) => isDomino(a) && dominoOf(a) === d) : [];
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile-button" + (moves.length ? " legal" : "") + (ui.choosing === d ? " chosen" : "")
      + (st.table && st.table.drawn === d ? " drawn" : "");
    b.disabled = moves.length === 0;
    b.dataset.domino = d;
    if (moves.length) b.dataset.moves = moves.join(" ");
    b.innerHTML = dominoSvg(d);
    b.dataset.label = moves.length ? `${d}, legal` : d;
    b.setAttribute("aria-label", b.dataset.label);
    h.appendChild(b);
  }
  numberControls();
  markSuggested();
}

export function drawHintBar() {
  $("hint").disabled = !myTurn() || ui.hintBusy;
  $("hint").textContent = ui.hintBusy ? "Hint…" : "Hint";
}
