// Replays: a finished game (from Past games, or a record file the person
// opens) stepped through hand by hand and move by move, every hand face up,
// with how each hand ended and its review beside the table. The server
// answers every position (POST /api/replay); the page only draws them.

import { postReplay } from "./api.js";
import { $, showError } from "./dom.js";
import { dominoOf, isDomino, pretty } from "./dominoes.js";
import { drawCenter, drawHand, drawInfo, drawScores, drawSeats, tableFromState } from "./render.js";
import { showScreen } from "./screens.js";
import { seatNames } from "./seats.js";
import { ui } from "./state.js";
import { dealText, hideSummary } from "./summary.js";
import { drawHistory } from "./tricks.js";

// The annotations a replay needs (the reviews stored with a record are made again).
const KEEP = ["seat", "levels", "agents"];

// Opens `record` (a game record object) in the replay; `from`: the screen Close returns to.
export async function openReplay(record, from) {
  showError("");
  const notes = (record && record.annotations) || {};
  const body = { ...record, annotations: Object.fromEntries(KEEP.filter((k) => k in notes).map((k) => [k, notes[k]])) };
  const data = await postReplay(body);
  ui.replay = { data, step: 0, from: from || "setup" };
  hideSummary();
  showScreen("play");
  document.body.classList.add("replaying");
  $("replay-bar").hidden = false;
  drawReplay();
  $("replay-next").focus();
}

// Leaves the replay (back to the screen it was opened from, `back`).
export function closeReplay(back) {
  if (!ui.replay) return;
  const from = ui.replay.from;
  ui.replay = null;
  document.body.classList.remove("replaying");
  $("replay-bar").hidden = true;
  $("replay-side").innerHTML = "";
  if (back) showScreen(from);
}

// Reads a record file (one JSON line, as the page and `bones replay` save them) and replays it.
export async function openRecordFile(file) {
  try {
    const text = (await file.text()).trim().split("\n")[0];
    let record;
    try { record = JSON.parse(text); } catch (e) { throw new Error(`${file.name} is not a game record (a JSON line): ${e.message}`); }
    await openReplay(record, "setup");
  } catch (e) {
    showError(e.message);
  }
}

// The positions a "hand" step stops at: the start and the end of every deal.
function handStops() {
  const d = ui.replay.data;
  return [...new Set([0, ...d.deals.map((x) => x.end), d.history.length])].sort((a, b) => a - b);
}

// Moves `delta` positions (±1), or to the previous/next end of a hand (`hand`).
export function replayMove(delta, hand) {
  if (!ui.replay) return;
  const n = ui.replay.data.history.length, i = ui.replay.step;
  let to = i + delta;
  if (hand) {
    const stops = handStops();
    to = delta > 0 ? stops.find((s) => s > i) ?? n : [...stops].reverse().find((s) => s < i) ?? 0;
  }
  replayTo(to);
}

export function replayTo(i) {
  if (!ui.replay) return;
  ui.replay.step = Math.max(0, Math.min(ui.replay.data.history.length, i));
  drawReplay();
}

// The finished deal position `i` belongs to (the one that ends at or after it), and its index.
function dealAt(d, i) {
  const k = d.deals.findIndex((x) => x.end >= Math.max(i, 1));
  return k < 0 ? [null, d.deals.length] : [d.deals[k], k];
}

// The level (or spec) of each seat's bot, from the record's `{opponents, partner}`.
function seatLevels(d) {
  const picked = d.levels || {};
  return d.sides.map((side, s) => (s === d.seat ? null : side === d.sides[d.seat] ? picked.partner : picked.opponents) ?? null);
}

// Position `i` as a state the table is drawn from (a deal's last position: the deal as it ended).
function stateAt(i) {
  const d = ui.replay.data, step = d.steps[i];
  const [deal, k] = dealAt(d, i);
  const ended = deal && deal.end === i;
  let hands = step.hands;
  if (ended) {
    // The hands just before the last move, less the domino it played.
    const last = d.history[i - 1];
    hands = d.steps[i - 1].hands.map((h, s) => (s === last.seat && isDomino(last.action) ? h.filter((x) => x !== dominoOf(last.action)) : h));
  }
  return {
    game: d.game, players: d.players, seat: d.seat, rules: d.rules, episode: d.episode, sides: d.sides,
    agents: d.agents || [], levels: seatLevels(d), replay: true, dealNumber: k + 1,
    table: ended ? deal.table : step.table, hands, hand: hands[d.seat], history: d.history.slice(0, i),
    deals: d.deals.filter((x) => x.end <= i), scores: step.scores, to_move: ended ? null : step.to_move,
    legal: [], done: false, hints: null,
  };
}

// Draws the position the replay is at, with the deal's facts and review beside it.
function drawReplay() {
  const r = ui.replay, d = r.data, i = r.step, n = d.history.length;
  const st = stateAt(i);
  ui.choosing = null;
  tableFromState(st);
  drawScores(st);
  drawSeats(st, true);
  drawCenter(st);
  drawInfo(st);
  drawHand(st, false);
  $("prompt").textContent = "";
  $("actions").innerHTML = "";
  drawHistory(st, true);
  const names = seatNames(st);
  const [deal, k] = dealAt(d, i);
  const word = d.game === "texas42" ? "Hand" : "Round";
  const last = i > 0 ? d.history[i - 1] : null;
  const total = d.deals.length + (d.deals.length && d.deals[d.deals.length - 1].end === n ? 0 : 1);
  $("replay-where").textContent = `${word} ${Math.min(k + 1, total)} of ${total} · move ${i} of ${n}`
    + (last ? ` · ${names[last.seat]}: ${pretty(last.action)}` : " · the deal");
  $("replay-prev").disabled = $("replay-first").disabled = i === 0;
  $("replay-next").disabled = $("replay-last").disabled = i === n;
  const side = $("replay-side");
  side.innerHTML = deal ? dealText(st, deal, k) : `<p class="note">This ${word.toLowerCase()} was not finished.</p>`;
  if (deal && deal.end !== i) side.querySelector("h3").textContent += " (its end, ahead)";
  for (const row of side.querySelectorAll("#review tbody tr")) row.classList.toggle("current", Number(row.dataset.ply) === i - 1);
}

// The keyboard in a replay: ← → a move, ↑ ↓ (Page Up, Page Down) a hand, Home End, Escape closes.
export function replayKey(ev) {
  const moves = { ArrowLeft: [-1, false], ArrowRight: [1, false], ArrowUp: [-1, true], ArrowDown: [1, true], PageUp: [-1, true], PageDown: [1, true] };
  if (moves[ev.key]) {
    ev.preventDefault();
    replayMove(...moves[ev.key]);
  } else if (ev.key === "Home" || ev.key === "End") {
    ev.preventDefault();
    replayTo(ev.key === "Home" ? 0 : ui.replay.data.history.length);
  } else if (ev.key === "Escape") {
    ev.preventDefault();
    closeReplay(true);
  }
}
