// Hints: what a level's bot would play on the person's turn (the game is
// unchanged), shown as the bot's move and every legal move's probability or value.

import { getHint } from "./api.js";
import { markSuggested } from "./controls.js";
import { $, escapeHtml, showError } from "./dom.js";
import { pretty } from "./dominoes.js";
import { levelsOf } from "./levels.js";
import { drawHintBar, drawInfo } from "./render.js";
import { myTurn, ui } from "./state.js";

// Fills the hint's level choice for a game: the opponents' level first.
export function fillHintLevels(game, opponents) {
  const sel = $("hint-level"), levels = levelsOf(game);
  sel.innerHTML = "";
  if (!levels.some((l) => l.name === opponents)) sel.add(new Option("Default level", ""));
  for (const l of levels) {
    const off = l.available === false;
    const o = new Option(`${l.label}${l.name === opponents ? " (opponents)" : ""}${off ? " (unavailable)" : ""}`, l.name);
    o.title = off ? l.unavailable || "" : l.about || "";
    o.disabled = off;
    sel.add(o);
  }
  sel.value = levels.some((l) => l.name === opponents) ? opponents : "";
  sel.hidden = levels.length === 0;
}

// Asks the server for the chosen level's hint and shows it (unless the person moved meanwhile).
export async function askHint() {
  if (!myTurn() || ui.hintBusy) return;
  const id = ui.gameId, ply = ui.state.history.length, level = $("hint-level").value;
  ui.hintBusy = true;
  drawHintBar();
  try {
    const h = await getHint(id, level);
    if (id !== ui.gameId || !ui.state || ui.busy || ui.state.history.length !== ply) return; // the person moved meanwhile
    ui.hint = { ...h, forPly: ply };
    if (typeof h.hints === "number") ui.state.hints = h.hints;
    showError("");
    drawInfo(ui.state);
    drawHint();
    markSuggested();
  } catch (e) {
    showError(e.message);
  } finally {
    ui.hintBusy = false;
    drawHintBar();
  }
}

const percent = (p) => (p > 0 && p < 0.005 ? "<1%" : `${Math.round(p * 100)}%`);

// A move's value in the hint's unit: a share as a percentage, points with one decimal.
function valueText(v, unit) {
  if (/share|fraction|probability|chance/i.test(unit || "")) return `${Math.round(Number(v) * 100)}%`;
  return Number(v).toFixed(1);
}

// The hint's moves, best first: by the level's value where it gives one (Hard), else by
// probability; the move the level would play first among equals, so the first listed is the one named.
export function hintMoves(h) {
  const moves = (h.moves || []).slice();
  const values = moves.some((m) => m.value != null);
  const key = (m) => { const k = values ? m.value : m.prob; return k == null ? -Infinity : Number(k); };
  const named = (m) => (m.action === h.action ? 1 : 0);
  return moves.sort((a, b) => key(b) - key(a) || named(b) - named(a));
}

// The hint box: "Normal would play 6-4" and every legal move with its probability (and value).
export function drawHint() {
  const box = $("hint-box"), hint = ui.hint;
  if (!hint) {
    box.hidden = true;
    box.innerHTML = "";
    delete box.dataset.action;
    delete box.dataset.ply;
    return;
  }
  const who = hint.label || hint.level || "The bot";
  const moves = hintMoves(hint);
  const probs = moves.some((m) => m.prob != null), values = moves.some((m) => m.value != null);
  let html = `<p class="hint-head" title="${escapeHtml(hint.spec || "")}"><strong>${escapeHtml(who)} would play `
    + `<span class="hint-action">${escapeHtml(pretty(hint.action))}</span></strong></p>`;
  html += '<ul class="hint-moves">';
  for (const m of moves) {
    const parts = [];
    if (m.value != null) {
      parts.push(`<span class="value" title="${escapeHtml(hint.value_unit || "")}">value ${escapeHtml(valueText(m.value, hint.value_unit))}</span>`);
    }
    if (m.prob != null) parts.push(`<span class="prob">${values ? "network " : ""}${escapeHtml(percent(m.prob))}</span>`);
    html += `<li class="${m.action === hint.action ? "suggested" : ""}" data-action="${escapeHtml(m.action)}">`
      + `<b>${escapeHtml(pretty(m.action))}</b> ${parts.join(" · ")}</li>`;
  }
  html += "</ul>";
  const notes = [];
  if (values) notes.push(`value: ${escapeHtml(hint.value_unit || "the level's estimate")}`);
  if (probs) notes.push(values ? "network: the network's probability of each move" : "%: how likely the network is to play each move");
  if (notes.length) html += `<p class="note">${notes.join("; ")}.</p>`;
  box.innerHTML = html;
  box.dataset.action = hint.action;
  box.dataset.ply = hint.ply ?? hint.forPly;
  box.hidden = false;
}
