// Drawing the table from a state the server answered: the scores, the seats,
// the trick (Texas 42) or the board (Doubles), the deal's facts, the prompt
// with its action buttons, and the person's hand. The controls carry their
// moves (`data-action`, `data-moves`); play.js answers their clicks.

import { keepFocus, markSuggested, numberControls } from "./controls.js";
import { $, escapeHtml } from "./dom.js";
import { dominoOf, dominoSvg, isDomino, pretty, trumpText } from "./dominoes.js";
import { botLabel, position, seatNames, sideName } from "./seats.js";
import { myTurn, ui } from "./state.js";

// Draws everything; `live`: `st` is the game as it is now (not a step of an animation).
export function drawAll(st, live) {
  if (live) {
    // the table as the server says it is now
    if (st.table && st.game === "texas42") {
      // A trick just completed stays on the table (faded) until the next lead.
      const t = st.table;
      ui.trick = t.trick && t.trick.plays.length ? t.trick.plays.slice()
        : t.last_trick && t.phase === "playing" ? t.last_trick.plays.map((p) => ({ ...p, done: true })) : [];
    }
    if (st.table && st.game === "doubles") ui.board = st.table.board.slice();
    ui.bubbles = currentBubbles(st);
  }
  drawScores(st);
  drawSeats(st, live);
  drawCenter(st);
  drawInfo(st);
  drawPrompt(st, live);
  drawHand(st, live && !ui.busy);
  drawHintBar();
  if (live) keepFocus();
}

// Each seat's last action of the current deal (Texas 42: bids and trump only).
function currentBubbles(st) {
  const start = st.deals.length ? st.deals[st.deals.length - 1].end : 0;
  const b = {};
  for (const h of st.history.slice(start)) {
    if (st.game === "texas42" && isDomino(h.action)) delete b[h.seat];
    else b[h.seat] = h.action;
  }
  if (st.game === "texas42" && st.table && st.table.phase === "playing") return {};
  return b;
}

export function drawScores(st) {
  const t = st.rules && st.rules.target;
  const unit = st.game === "texas42" ? (st.rules.scoring === "points" ? "points" : "marks") : "points";
  const parts = st.scores.map((v, side) => `${sideName(st, side)} ${v}`);
  $("scoreboard").textContent = `${parts.join(" · ")} ${unit}${t ? ` (to ${t})` : ""}`;
}

// The seats: name, level, dominoes held, last action; `acting`: the seat that just moved.
export function drawSeats(st, live, acting) {
  const names = seatNames(st);
  for (const pos of ["top", "left", "right", "bottom"]) $(`pos-${pos}`).innerHTML = "";
  const sizes = st.table ? st.table.hand_sizes : null;
  for (let s = 0; s < st.players; s++) {
    const el = $(`pos-${position(st, s)}`);
    const bot = botLabel(st, s);
    const who = names[s] + (bot ? ` <small title="${escapeHtml(st.agents[s] || "")}">${escapeHtml(bot)}</small>` : "");
    const toMove = live ? st.to_move === s : acting === s;
    let html = `<div class="name${toMove ? " active" : ""}">${who}</div>`;
    if (s !== st.seat && sizes) html += `<div class="backs" title="dominoes held">${"▮".repeat(sizes[s] || 0)}</div>`;
    if (ui.bubbles[s] !== undefined) html += `<div class="bubble">${escapeHtml(pretty(ui.bubbles[s]))}</div>`;
    el.innerHTML = html;
    el.dataset.seat = s;
  }
}

// The middle of the table: the trick (Texas 42) or the board and its open ends (Doubles).
export function drawCenter(st) {
  const c = $("center");
  if (st.game === "texas42") {
    let html = '<div class="trick">';
    for (const p of ui.trick) {
      html += `<div class="play at-${position(st, p.seat)}${p.done ? " done" : ""}">${dominoSvg(p.domino)}</div>`;
    }
    c.innerHTML = html + "</div>";
  } else if (st.game === "doubles") {
    const names = seatNames(st);
    let html = '<div class="board">';
    for (const p of ui.board) {
      html += `<div class="placed" title="${names[p.seat]}${p.on != null ? ` on ${p.on}` : " opened"}">${dominoSvg(p.domino, !p.domino.split("-").every((x, _, a) => x === a[0]))}</div>`;
    }
    html += "</div>";
    if (st.table) {
      html += `<div class="ends">Open ends: ${st.table.ends.join(" ") || "none"} · Boneyard: ${st.table.boneyard_size}</div>`;
    }
    c.innerHTML = html;
  } else {
    c.innerHTML = "";
  }
}

// The deal's facts beside the table: who shook or opened, the contract, the last trick, hints used.
export function drawInfo(st) {
  const t = st.table;
  const names = seatNames(st);
  let html = "";
  if (st.game === "texas42" && t) {
    const deal = st.deals.length + 1;
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
    if (t.last_trick) {
      html += `<div class="last">Last trick, won by ${names[t.last_trick.winner]} (${t.last_trick.points} points):`;
      for (const p of t.last_trick.plays) html += dominoSvg(p.domino);
      html += "</div>";
    }
  } else if (st.game === "doubles" && t) {
    html += `<div>${st.episode === "game" ? `Round ${st.deals.length + 1} · ` : ""}${names[t.opener]} opened</div>`;
    html += `<div>Dominoes held: ${t.hand_sizes.map((n, s) => `${names[s]} ${n}`).join(", ")}</div>`;
  }
  html += `<div class="hints-used">Hints used: ${Number(st.hints ?? 0)}</div>`;
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

// The prompt and, on the person's turn, the buttons of the moves that are not a domino
// (bids, trump, draw, pass), or the ends of the domino being placed (Doubles).
function drawPrompt(st, live) {
  const names = seatNames(st);
  let text = "";
  if (st.done) text = "The game is over.";
  else if (!live || ui.busy) text = "";
  else if (st.legal.length === 0) text = `${names[st.to_move]} to move…`;
  else if (st.game === "texas42") {
    const phase = st.table && st.table.phase;
    text = phase === "bidding" ? "Your bid:" : phase === "declaring" ? "Name trump:" : "Your play: click a domino.";
  } else text = ui.choosing ? `Play ${ui.choosing} on which end?` : "Your move: click a domino, or draw or pass.";
  $("prompt").textContent = text;
  const box = $("actions");
  box.innerHTML = "";
  if (!live || ui.busy || st.done) return;
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
