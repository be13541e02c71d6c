// Playing a game: starting it, the person's moves, and the bots' moves shown
// one by one (with a deal's summary between deals) until the person's turn.

import { createGame, deleteGame, postAction } from "./api.js";
import { $, showError } from "./dom.js";
import { dominoOf, isDomino, pretty } from "./dominoes.js";
import { drawHint, fillHintLevels } from "./hints.js";
import { drawAll, drawCenter, drawHand, drawHintBar, drawSeats } from "./render.js";
import { showScreen } from "./screens.js";
import { seatNames } from "./seats.js";
import { gameRequest } from "./setup.js";
import { DELAY, sleep, ui } from "./state.js";
import { gameOver, summary } from "./summary.js";

// The setup form's Start: POST /api/games, then the table.
export async function startGame(ev) {
  ev.preventDefault();
  showError("");
  const req = gameRequest();
  $("start").disabled = true;
  try {
    const r = await createGame(req);
    ui.gameId = r.id;
    ui.state = r.state;
    Object.assign(ui, { shown: 0, trick: [], board: [], bubbles: {}, choosing: null, hint: null });
    fillHintLevels(req.game, $("opponents").value);
    showScreen("play");
    $("log").innerHTML = "";
    drawHint();
    drawAll(ui.state, false);
    await animate(r.state);
  } catch (e) {
    showError(e.message);
  } finally {
    $("start").disabled = false;
  }
}

// Back to the setup form; the server drops the game.
export function newGame() {
  if (ui.gameId) deleteGame(ui.gameId).catch(() => {});
  Object.assign(ui, { gameId: null, state: null, hint: null });
  $("overlay").hidden = true;
  showScreen("setup");
  $("scoreboard").textContent = "";
  showError("");
}

// The person plays `action` (one of the legal moves).
async function act(action) {
  const state = ui.state;
  if (ui.busy || !state || !state.legal.includes(action)) return;
  ui.busy = true;
  ui.choosing = null;
  ui.hint = null;
  showError("");
  drawHint();
  drawHintBar();
  drawHand(state, false);
  $("actions").innerHTML = "";
  try {
    const st = await postAction(ui.gameId, action, state.history.length);
    drawHand(st, false);
    await animate(st);
  } catch (e) {
    showError(e.message);
    ui.busy = false;
    drawAll(ui.state, true);
  }
}

// A click in the action buttons or the hand: a button plays its action; a domino plays
// its one move, or with several (Doubles: on which end?) is chosen and its ends shown.
export function clickMove(ev) {
  const b = ev.target.closest("button");
  if (!b) return;
  if (b.dataset.action) {
    act(b.dataset.action);
    return;
  }
  const moves = b.dataset.moves ? b.dataset.moves.split(" ") : [];
  if (moves.length === 1) act(moves[0]);
  else if (moves.length > 1) {
    ui.choosing = b.dataset.domino;
    drawAll(ui.state, true);
  }
}

// Shows the moves of `st.history` not yet shown, one by one, then the state.
async function animate(st) {
  ui.busy = true;
  drawHintBar();
  const names = seatNames(st);
  for (let i = ui.shown; i < st.history.length; i++) {
    const h = st.history[i];
    const mine = h.seat === st.seat;
    showMove(st, h, names);
    ui.shown = i + 1;
    const deal = st.deals.find((d) => d.end === i + 1);
    if (deal) {
      await sleep(DELAY);
      await summary(st, deal, st.deals.indexOf(deal));
      Object.assign(ui, { trick: [], board: [], bubbles: {} });
      drawCenter(st); drawSeats(st, false);
    } else if (!mine || i + 1 < st.history.length) {
      await sleep(mine ? DELAY / 3 : DELAY);
    }
  }
  ui.state = st;
  ui.busy = false;
  drawAll(st, true);
  if (st.done) await gameOver(st);
}

// One move of the history: the log, then the trick, the board or the seat's bubble.
function showMove(st, h, names) {
  const li = document.createElement("li");
  li.textContent = `${names[h.seat]}: ${pretty(h.action)}`;
  $("log").appendChild(li);
  if (st.game === "texas42" && isDomino(h.action)) {
    const size = st.table && st.table.sitting_out != null ? 3 : 4;
    if (ui.trick.length >= size) ui.trick = [];
    ui.trick.push({ seat: h.seat, domino: h.action });
    delete ui.bubbles[h.seat];
  } else if (st.game === "doubles" && isDomino(h.action)) {
    const on = h.action.includes("@") ? Number(h.action.split("@")[1]) : null;
    ui.board.push({ domino: dominoOf(h.action), seat: h.seat, on });
    ui.bubbles[h.seat] = h.action;
  } else {
    ui.bubbles[h.seat] = h.action;
  }
  drawCenter(st);
  drawSeats(st, false, h.seat);
}
