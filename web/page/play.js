// Playing a game: starting it, the person's moves, and the bots' moves shown
// one by one (with a deal's summary between deals) until the person's turn.

import { createGame, deleteGame, postAction } from "./api.js";
import { $, showError } from "./dom.js";
import { countOf, isDomino } from "./dominoes.js";
import { drawHint, fillHintLevels } from "./hints.js";
import { drawAll, drawCenter, drawHand, drawHintBar, drawSeats } from "./render.js";
import { closeReplay } from "./replay.js";
import { showScreen } from "./screens.js";
import { gameRequest } from "./setup.js";
import { DELAY, sleep, ui } from "./state.js";
import { gameOver, hideSummary, summary } from "./summary.js";
import { drawHistory } from "./tricks.js";

// The setup form's Start: POST /api/games, then the table.
export async function startGame(ev) {
  ev.preventDefault();
  showError("");
  const req = gameRequest();
  $("start").disabled = true;
  try {
    const r = await createGame(req);
    closeReplay();
    ui.gameId = r.id;
    ui.state = r.state;
    Object.assign(ui, { shown: 0, trick: null, lastTrick: null, board: null, bubbles: {}, choosing: null, hint: null });
    fillHintLevels(req.game, $("opponents").value);
    showScreen("play");
    hideSummary();
    drawHint();
    drawAll(ui.state, false);
    drawHistory(ui.state, false);
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
  closeReplay();
  hideSummary();
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

// The finished deal that move `i` of `st` belongs to (`null`: the deal in progress).
const dealOf = (st, i) => st.deals.find((d) => d.end > i) || null;

// Shows the moves of `st.history` not yet shown, one by one, then the state.
async function animate(st) {
  ui.busy = true;
  drawHintBar();
  for (let i = ui.shown; i < st.history.length; i++) {
    const h = st.history[i];
    const mine = h.seat === st.seat;
    showMove(st, h, i);
    ui.shown = i + 1;
    const deal = st.deals.find((d) => d.end === i + 1);
    if (deal) {
      // The deal's end as it lies: the last trick (the board) stays on the table.
      showDealEnd(st, deal);
      drawHistory({ ...st, deals: st.deals.slice(0, st.deals.indexOf(deal) + 1) }, false);
      await sleep(DELAY);
      await summary(st, deal, st.deals.indexOf(deal));
      Object.assign(ui, { trick: null, lastTrick: null, board: null, bubbles: {} });
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

// The table at the end of `deal`: its last trick, or its whole board.
export function showDealEnd(st, deal) {
  const t = deal.table;
  if (!t) return;
  if (st.game === "texas42") {
    const tricks = t.tricks || [];
    ui.trick = t.last_trick || null;
    ui.lastTrick = tricks.length > 1 ? tricks[tricks.length - 2] : null;
  } else if (st.game === "doubles") {
    ui.board = { table: t, count: t.board.length };
  }
  drawCenter(st);
}

// One move of the history (its index `i`): the trick, the board or the seat's bubble.
function showMove(st, h, i) {
  const deal = dealOf(st, i);
  const table = deal ? deal.table : st.table;
  if (st.game === "texas42" && isDomino(h.action)) {
    const size = table && table.sitting_out != null ? 3 : 4;
    if (ui.trick && ui.trick.plays.length >= size) {
      // The trick is over: its winner leads the next one.
      const won = ui.trick.winner ?? h.seat;
      const points = ui.trick.points ?? 1 + ui.trick.plays.reduce((n, p) => n + countOf(p.domino), 0);
      ui.lastTrick = { ...ui.trick, winner: won, points };
      ui.trick = null;
    }
    if (!ui.trick) ui.trick = { leader: h.seat, plays: [] };
    ui.trick = { ...ui.trick, plays: [...ui.trick.plays, { seat: h.seat, domino: h.action }] };
    delete ui.bubbles[h.seat];
  } else if (st.game === "doubles" && isDomino(h.action)) {
    const start = st.deals.filter((d) => d.end <= i).reduce((e, d) => Math.max(e, d.end), 0);
    const count = st.history.slice(start, i + 1).filter((m) => isDomino(m.action)).length;
    ui.board = { table, count };
    ui.bubbles[h.seat] = h.action;
  } else {
    ui.bubbles[h.seat] = h.action;
  }
  drawCenter(st);
  drawSeats(st, false, h.seat);
}

