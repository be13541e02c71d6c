// Past games: the finished games the server stores (GET /api/history), each
// with its levels, result, hints, points given up, a replay in the page and
// its record to download.

import { getHistory, getRecord } from "./api.js";
import { $, escapeHtml, saveFile, showError } from "./dom.js";
import { agentLabel, levelLabel, levelsOf } from "./levels.js";
import { openReplay } from "./replay.js";
import { showScreen } from "./screens.js";

export async function showHistory() {
  showError("");
  showScreen("history");
  $("history-status").textContent = "Loading…";
  const body = $("history-table").tBodies[0];
  body.innerHTML = "";
  try {
    const h = await getHistory();
    const games = h.games || [];
    if (!h.enabled) $("history-status").textContent = "This server does not store games.";
    else if (!games.length) $("history-status").textContent = "No finished games yet.";
    else if (h.total > games.length) $("history-status").textContent = `The newest ${games.length} of ${h.total} finished games.`;
    else $("history-status").textContent = `${games.length} finished game${games.length === 1 ? "" : "s"}, newest first.`;
    for (const g of games) body.appendChild(historyRow(g));
  } catch (e) {
    $("history-status").textContent = "";
    showError(e.message);
  }
  $("history-back").focus();
}

export function hideHistory() {
  showScreen("setup");
  showError("");
}

const GAME_NAMES = { texas42: "Texas 42", doubles: "Doubles" };

function dateText(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

// "Opponents Normal", "Partner Easy" (a custom bot shows its spec).
function levelsText(g) {
  const n = g.players, seat = g.seat ?? 0, agents = g.agents || [], lv = g.levels || {};
  const known = (name) => levelsOf(g.game).some((l) => l.name === name);
  const who = (level, s) => (level && known(level) ? levelLabel(g.game, level)
    : level ? agentLabel(String(level)) : agents[s] ? agentLabel(agents[s]) : "default");
  const lines = [`Opponents ${who(lv.opponents, (seat + 1) % n)}`];
  if (g.game === "texas42") lines.push(`Partner ${who(lv.partner, (seat + 2) % n)}`);
  return lines;
}

// "Won 7–3" (the person's side first); Doubles: the person's score, then the others'.
function resultText(g) {
  const r = String(g.result || "");
  const scores = g.scores || [];
  const seat = g.seat ?? 0;
  const mine = g.game === "texas42" ? seat % 2 : seat;
  const order = [mine, ...scores.map((_, i) => i).filter((i) => i !== mine)];
  const text = scores.length ? ` ${order.map((i) => scores[i]).join("–")}` : "";
  return r.charAt(0).toUpperCase() + r.slice(1) + text;
}

function historyRow(g) {
  const tr = document.createElement("tr");
  tr.dataset.id = g.id;
  tr.dataset.result = g.result;
  tr.dataset.hints = g.hints ?? "";
  const game = (GAME_NAMES[g.game] || g.game) + (g.game === "doubles" ? ` (${g.players})` : "");
  const cells = [
    ["Date", `<time datetime="${escapeHtml(g.finished)}">${escapeHtml(dateText(g.finished))}</time>`],
    ["Game", escapeHtml(game)],
    ["Levels", levelsText(g).map((l) => `<span class="line">${escapeHtml(l)}</span>`).join('<span class="sep">, </span>')],
    ["Result", `<span class="result ${escapeHtml(g.result)}">${escapeHtml(resultText(g))}</span>`],
    ["Hints", escapeHtml(g.hints ?? "—")],
    ["Given up", escapeHtml(g.points_lost ?? "—")],
  ];
  tr.innerHTML = cells.map(([label, c]) => `<td data-label="${label}">${c}</td>`).join("");
  const td = document.createElement("td");
  td.className = "record";
  const what = `game ${g.id} (${game}, ${dateText(g.finished)})`;
  td.append(button("replay", "Replay", `Replay ${what}`, (b) => replayPast(g, b)),
    button("download", "Download", `Download the record of ${what}`, (b) => downloadPast(g, b)));
  tr.appendChild(td);
  return tr;
}

function button(cls, text, label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", () => onClick(b));
  return b;
}

// GET /api/history/{id}, then the game in the replay.
async function replayPast(g, button) {
  showError("");
  button.disabled = true;
  try {
    await openReplay(await getRecord(g.id), "history");
  } catch (e) {
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

// GET /api/history/{id}: the game's record, saved as one JSON line that `bones replay` reads.
async function downloadPast(g, button) {
  showError("");
  button.disabled = true;
  try {
    const record = await getRecord(g.id);
    saveFile(`bones-${g.game}-${g.id}.json`, JSON.stringify(record) + "\n");
  } catch (e) {
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}
