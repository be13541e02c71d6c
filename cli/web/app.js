// Bones in the browser: the page plays through the JSON API of `bones web`
// (GET /api/info, POST /api/games, GET /api/games/{id},
// POST /api/games/{id}/actions, GET /api/games/{id}/hint, GET /api/history,
// GET /api/history/{id}). Everything drawn comes from what the server
// answers: the person's hand, the public history and the table of their
// seat's view; hints and reviews are the server's too.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// Milliseconds between the bots' moves (?delay=N to change it).
const DELAY = Math.max(0, Number(params.get("delay") ?? 700) || 0);

let info = null; // GET /api/info: the games, their strength levels, whether games are stored
let gameId = null;
let state = null; // the last state answered
let shown = 0; // history entries drawn so far
let busy = false; // animating or waiting for the server
let trick = []; // Texas 42: plays of the trick on the table [{seat, domino}]
let board = []; // Doubles: dominoes on the board [{domino, seat, on}]
let bubbles = {}; // seat -> last action shown next to it
let choosing = null; // Doubles: the domino whose end is being chosen
let hint = null; // the hint shown for the person's current turn (with `forPly`)
let hintBusy = false; // a hint request is on its way
let keyboardUser = false; // the last input was a key: keep the focus on the legal moves

// ---------------------------------------------------------------- dominoes

const PIPS = {
  0: [], 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

// An SVG domino "a-b": vertical (a on top) or horizontal (a on the left).
function dominoSvg(name, horizontal = false) {
  const [a, b] = name.split("@")[0].split("-").map(Number);
  const w = horizontal ? 80 : 40, h = horizontal ? 40 : 80;
  let s = `<svg class="domino" viewBox="0 0 ${w} ${h}" role="img" aria-label="${a}-${b}">`;
  s += `<rect x="1" y="1" width="${w - 2}" height="${h - 2}" rx="6" class="tile"/>`;
  s += horizontal ? `<line x1="40" y1="6" x2="40" y2="34" class="bar"/>` : `<line x1="6" y1="40" x2="34" y2="40" class="bar"/>`;
  [a, b].forEach((n, half) => {
    for (const [x, y] of PIPS[n] || []) {
      const cx = x * 10 + (horizontal ? half * 40 : 0), cy = y * 10 + (horizontal ? 0 : half * 40);
      s += `<circle cx="${cx}" cy="${cy}" r="3.6" class="pip"/>`;
    }
  });
  return s + "</svg>";
}

// An action as the page shows it: `6-3@6` reads "6-3 on 6".
const pretty = (action) => String(action).replace("@", " on ");
const isDomino = (action) => /^\d-\d(@\d)?$/.test(action);
const dominoOf = (action) => action.split("@")[0];

// ---------------------------------------------------------------- seats

function seatNames(st) {
  const n = st.players;
  const byPos = st.game === "texas42" ? ["You", "Left", "Partner", "Right"]
    : n === 2 ? ["You", "Opponent"] : n === 3 ? ["You", "Left", "Right"] : ["You", "Left", "Across", "Right"];
  const names = [];
  for (let s = 0; s < n; s++) names[s] = byPos[(s - st.seat + n) % n];
  return names;
}

function position(st, seat) {
  const n = st.players, rel = (seat - st.seat + n) % n;
  if (rel === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return rel === 1 ? "left" : "right";
  return ["bottom", "left", "top", "right"][rel];
}

const sideName = (st, side) => st.game === "texas42"
  ? (side === st.sides[st.seat] ? "Us" : "Them") : seatNames(st)[side];

// ---------------------------------------------------------------- the server

async function api(method, path, body) {
  const r = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `the server answered ${r.status}` }; }
  if (!r.ok) throw new Error((data && data.error) || `the server answered ${r.status}`);
  return data;
}

function showError(msg) {
  const e = $("error");
  e.textContent = msg || "";
  e.hidden = !msg;
}

// ---------------------------------------------------------------- levels

// The strength levels of a game, as GET /api/info lists them (`[]` if none).
function levelsOf(game) {
  return (info && info.levels && info.levels[game]) || [];
}

// A level's label ("hard" -> "Hard"), the name itself if the server lists no such level.
function levelLabel(game, name) {
  const level = levelsOf(game).find((l) => l.name === name);
  return level ? level.label : String(name);
}

// A role's starting choice: the server's default for it (`--opponents`/`--partner`:
// a level, or a spec shown under "Custom…"), else `default_level`.
function defaultLevel(game, role) {
  const levels = levelsOf(game), has = (name) => levels.some((l) => l.name === name);
  const server = info && info.defaults && info.defaults[role];
  if (has(server)) return server;
  if (server && server !== info.default_level && !$(`${role}-spec`).value) {
    $(`${role}-spec`).value = server;
    return "custom";
  }
  const want = info && info.default_level;
  if (has(want)) return want;
  return levels.length ? levels[0].name : "custom";
}

// Fills the level choice of a role ("opponents" or "partner") for `game`,
// keeping the person's choice if the game has it (else the default level).
function fillRole(role, game) {
  const sel = $(role), keep = sel.dataset.chosen ? sel.value : "";
  const levels = levelsOf(game);
  sel.innerHTML = "";
  for (const l of levels) {
    const o = new Option(l.label, l.name);
    o.title = l.about || "";
    sel.add(o);
  }
  sel.add(new Option("Custom…", "custom"));
  sel.value = keep === "custom" || levels.some((l) => l.name === keep) ? keep : defaultLevel(game, role);
  roleChanged(role);
}

// Shows the spec input of a role when "Custom…" is chosen, else the level's description.
function roleChanged(role) {
  const custom = $(role).value === "custom";
  $(`${role}-spec`).hidden = !custom;
  const level = levelsOf($("game").value).find((l) => l.name === $(role).value);
  $(`${role}-about`).textContent = custom ? "An agent spec (empty: the server's default)."
    : level ? level.about || "" : "";
}

// Suggestions for the custom spec inputs: the levels' specs and the simple agents.
function fillSpecs(game) {
  const specs = levelsOf(game).map((l) => l.spec).filter((s) => s);
  for (const s of ["heuristic", "random", "pimc:worlds=16", game === "doubles" ? "highest" : "search"]) {
    if (!specs.includes(s)) specs.push(s);
  }
  $("specs").innerHTML = specs.map((s) => `<option value="${escapeHtml(s)}"></option>`).join("");
}

// The value a new game's request takes for a role: a level's name or a typed spec.
function roleRequest(role) {
  if ($(role).value !== "custom") return $(role).value || undefined;
  return $(`${role}-spec`).value.trim() || undefined;
}

// Fills the hint's level choice for a game: the opponents' level first.
function fillHintLevels(game, opponents) {
  const sel = $("hint-level"), levels = levelsOf(game);
  sel.innerHTML = "";
  if (!levels.some((l) => l.name === opponents)) sel.add(new Option("Default level", ""));
  for (const l of levels) {
    const o = new Option(`${l.label}${l.name === opponents ? " (opponents)" : ""}`, l.name);
    o.title = l.about || "";
    sel.add(o);
  }
  sel.value = levels.some((l) => l.name === opponents) ? opponents : "";
  sel.hidden = levels.length === 0;
}

// ---------------------------------------------------------------- setup

async function loadInfo() {
  try {
    info = await api("GET", "/api/info");
  } catch (e) {
    info = null;
    showError(`Cannot read the server's levels: ${e.message}`);
  }
  showSetupButtons();
  setupChanged();
}

function showSetupButtons() {
  $("history-button").hidden = !(info && info.history) || $("setup").hidden;
}

function setupChanged() {
  const game = $("game").value, doubles = game === "doubles";
  $("players-label").hidden = !doubles;
  $("partner-role").hidden = doubles;
  fillRole("opponents", game);
  fillRole("partner", game);
  fillSpecs(game);
}

async function startGame(ev) {
  ev.preventDefault();
  showError("");
  const game = $("game").value;
  const req = { game, episode: $("episode").value };
  if (game === "doubles") req.players = Number($("players").value);
  const opp = roleRequest("opponents"), partner = roleRequest("partner"), seed = $("seed").value.trim();
  if (opp) req.opponents = opp;
  if (partner && game === "texas42") req.partner = partner;
  if (seed) req.seed = Number(seed);
  $("start").disabled = true;
  try {
    const r = await api("POST", "/api/games", req);
    gameId = r.id;
    state = r.state;
    shown = 0; trick = []; board = []; bubbles = {}; choosing = null; hint = null;
    fillHintLevels(game, $("opponents").value);
    $("setup").hidden = true;
    $("history-button").hidden = true;
    $("play").hidden = false;
    $("new-game").hidden = false;
    $("log").innerHTML = "";
    drawHint();
    drawAll(state, false);
    await animate(r.state);
  } catch (e) {
    showError(e.message);
  } finally {
    $("start").disabled = false;
  }
}

function newGame() {
  if (gameId) api("DELETE", `/api/games/${gameId}`).catch(() => {});
  gameId = null; state = null; hint = null;
  $("overlay").hidden = true;
  $("play").hidden = true;
  $("new-game").hidden = true;
  $("history").hidden = true;
  $("setup").hidden = false;
  $("scoreboard").textContent = "";
  showSetupButtons();
  showError("");
}

// ---------------------------------------------------------------- playing

// Whether the person may move now (and ask for a hint).
function myTurn() {
  return !!state && !busy && !state.done && state.legal.length > 0;
}

async function act(action) {
  if (busy || !state || !state.legal.includes(action)) return;
  busy = true;
  choosing = null;
  hint = null;
  showError("");
  drawHint();
  drawHintBar();
  drawHand(state, false);
  $("actions").innerHTML = "";
  try {
    const st = await api("POST", `/api/games/${gameId}/actions`, { action, ply: state.history.length });
    drawHand(st, false);
    await animate(st);
  } catch (e) {
    showError(e.message);
    busy = false;
    drawAll(state, true);
  }
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// Shows the moves of `st.history` not yet shown, one by one, then the state.
async function animate(st) {
  busy = true;
  drawHintBar();
  const names = seatNames(st);
  for (let i = shown; i < st.history.length; i++) {
    const h = st.history[i];
    const mine = h.seat === st.seat;
    showMove(st, h, names);
    shown = i + 1;
    const deal = st.deals.find((d) => d.end === i + 1);
    if (deal) {
      await sleep(DELAY);
      await summary(st, deal, st.deals.indexOf(deal));
      trick = []; board = []; bubbles = {};
      drawCenter(st); drawSeats(st, false);
    } else if (!mine || i + 1 < st.history.length) {
      await sleep(mine ? DELAY / 3 : DELAY);
    }
  }
  state = st;
  busy = false;
  drawAll(st, true);
  if (st.done) await gameOver(st);
}

function showMove(st, h, names) {
  const li = document.createElement("li");
  li.textContent = `${names[h.seat]}: ${pretty(h.action)}`;
  $("log").appendChild(li);
  if (st.game === "texas42" && isDomino(h.action)) {
    const size = st.table && st.table.sitting_out != null ? 3 : 4;
    if (trick.length >= size) trick = [];
    trick.push({ seat: h.seat, domino: h.action });
    delete bubbles[h.seat];
  } else if (st.game === "doubles" && isDomino(h.action)) {
    const on = h.action.includes("@") ? Number(h.action.split("@")[1]) : null;
    board.push({ domino: dominoOf(h.action), seat: h.seat, on });
    bubbles[h.seat] = h.action;
  } else {
    bubbles[h.seat] = h.action;
  }
  drawCenter(st);
  drawSeats(st, false, h.seat);
}

// ---------------------------------------------------------------- hints

// GET /api/games/{id}/hint: what a level's bot would play here; the game is unchanged.
async function askHint() {
  if (!myTurn() || hintBusy) return;
  const id = gameId, ply = state.history.length, level = $("hint-level").value;
  hintBusy = true;
  drawHintBar();
  try {
    const q = level ? `?level=${encodeURIComponent(level)}` : "";
    const h = await api("GET", `/api/games/${id}/hint${q}`);
    if (id !== gameId || !state || busy || state.history.length !== ply) return; // the person moved meanwhile
    hint = { ...h, forPly: ply };
    if (typeof h.hints === "number") state.hints = h.hints;
    showError("");
    drawInfo(state);
    drawHint();
    markSuggested();
  } catch (e) {
    showError(e.message);
  } finally {
    hintBusy = false;
    drawHintBar();
  }
}

function drawHintBar() {
  $("hint").disabled = !myTurn() || hintBusy;
  $("hint").textContent = hintBusy ? "Hint…" : "Hint";
}

const percent = (p) => (p > 0 && p < 0.005 ? "<1%" : `${Math.round(p * 100)}%`);

// A move's value in the hint's unit: a share as a percentage, points with one decimal.
function valueText(v, unit) {
  if (/share|fraction|probability|chance/i.test(unit || "")) return `${Math.round(Number(v) * 100)}%`;
  return Number(v).toFixed(1);
}

// The hint's moves, best first: by the level's value where it gives one (Hard), else by probability.
function hintMoves(h) {
  const moves = (h.moves || []).slice();
  const values = moves.some((m) => m.value != null);
  const key = (m) => { const k = values ? m.value : m.prob; return k == null ? -Infinity : Number(k); };
  return moves.sort((a, b) => key(b) - key(a));
}

// The hint box: "Normal would play 6-4" and every legal move with its probability (and value).
function drawHint() {
  const box = $("hint-box");
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

// Whether a control (an action button or a tile) is the hint's move.
function suggests(el) {
  if (!hint || !state || hint.forPly !== state.history.length || busy) return false;
  if (el.dataset.action) return el.dataset.action === hint.action;
  return el.dataset.domino === dominoOf(hint.action);
}

// Marks the hint's move in the hand and the action buttons.
function markSuggested() {
  for (const el of document.querySelectorAll("#actions button, #hand button")) {
    const on = suggests(el);
    el.classList.toggle("suggested", on);
    if (el.dataset.label) el.setAttribute("aria-label", el.dataset.label + (on ? ", suggested by the hint" : ""));
  }
}

// ---------------------------------------------------------------- keys

// The legal moves as shown: the action buttons first, then the legal dominoes of the hand.
function legalControls() {
  return [...document.querySelectorAll("#actions button.legal, #hand button.legal:not([disabled])")];
}

// Numbers the first nine legal moves (the digit keys play them).
function numberControls() {
  for (const k of document.querySelectorAll("#actions .key, #hand .key")) k.remove();
  legalControls().slice(0, 9).forEach((el, i) => {
    const k = document.createElement("span");
    k.className = "key";
    k.setAttribute("aria-hidden", "true");
    k.textContent = String(i + 1);
    el.appendChild(k);
    el.setAttribute("aria-keyshortcuts", String(i + 1));
  });
}

function moveFocus(step) {
  const cs = legalControls();
  if (!cs.length) return;
  const i = cs.indexOf(document.activeElement);
  const next = i < 0 ? (step > 0 ? 0 : cs.length - 1) : (i + step + cs.length) % cs.length;
  cs[next].focus();
}

// After a redraw on the person's turn, a keyboard player keeps the focus on the legal moves.
function keepFocus() {
  const a = document.activeElement;
  if (!keyboardUser || !myTurn() || !$("overlay").hidden) return;
  if (a && a !== document.body && document.body.contains(a)) return;
  const cs = legalControls();
  if (cs.length) cs[0].focus();
}

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  keyboardUser = true;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (!$("overlay").hidden) {
    if (ev.key === "Escape") { ev.preventDefault(); $("continue").click(); }
    return;
  }
  if ($("play").hidden) return;
  if (/^[1-9]$/.test(ev.key)) {
    const c = legalControls()[Number(ev.key) - 1];
    if (c) { ev.preventDefault(); c.click(); }
  } else if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    ev.preventDefault();
    moveFocus(ev.key === "ArrowRight" ? 1 : -1);
  } else if (ev.key === "h" || ev.key === "H") {
    ev.preventDefault();
    askHint();
  } else if (ev.key === "Escape") {
    if (choosing) { choosing = null; drawAll(state, true); } else if (hint) { hint = null; drawHint(); markSuggested(); }
  }
}

// ---------------------------------------------------------------- drawing

function drawAll(st, live) {
  if (live) {
    // the table as the server says it is now
    if (st.table && st.game === "texas42") {
      // A trick just completed stays on the table (faded) until the next lead.
      const t = st.table;
      trick = t.trick && t.trick.plays.length ? t.trick.plays.slice()
        : t.last_trick && t.phase === "playing" ? t.last_trick.plays.map((p) => ({ ...p, done: true })) : [];
    }
    if (st.table && st.game === "doubles") board = st.table.board.slice();
    bubbles = currentBubbles(st);
  }
  drawScores(st);
  drawSeats(st, live);
  drawCenter(st);
  drawInfo(st);
  drawPrompt(st, live);
  drawHand(st, live && !busy);
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

function drawScores(st) {
  const t = st.rules && st.rules.target;
  const unit = st.game === "texas42" ? (st.rules.scoring === "points" ? "points" : "marks") : "points";
  const parts = st.scores.map((v, side) => `${sideName(st, side)} ${v}`);
  $("scoreboard").textContent = `${parts.join(" · ")} ${unit}${t ? ` (to ${t})` : ""}`;
}

// What a bot seat shows under its name: its level ("Hard"), else its short spec.
function botLabel(st, seat) {
  const level = st.levels && st.levels[seat];
  if (level) return levelLabel(st.game, level);
  return st.agents[seat] ? agentLabel(st.agents[seat]) : "";
}

function drawSeats(st, live, acting) {
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
    if (bubbles[s] !== undefined) html += `<div class="bubble">${escapeHtml(pretty(bubbles[s]))}</div>`;
    el.innerHTML = html;
    el.dataset.seat = s;
  }
}

// A bot's spec, short: `model:/long/path/models/texas42` shows as `model:…/models/texas42`.
function agentLabel(spec) {
  const parts = spec.startsWith("model:") ? spec.slice(6).split("/").filter((p) => p) : [];
  return parts.length > 2 ? `model:…/${parts.slice(-2).join("/")}` : spec;
}

function drawCenter(st) {
  const c = $("center");
  if (st.game === "texas42") {
    let html = '<div class="trick">';
    for (const p of trick) {
      html += `<div class="play at-${position(st, p.seat)}${p.done ? " done" : ""}">${dominoSvg(p.domino)}</div>`;
    }
    c.innerHTML = html + "</div>";
  } else if (st.game === "doubles") {
    const names = seatNames(st);
    let html = '<div class="board">';
    for (const p of board) {
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

function drawInfo(st) {
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

function trumpText(trump) {
  if (trump === "follow-me") return "follow me (no trump)";
  if (trump === "nel-o") return "Nel-O";
  if (trump === "sevens") return "sevens";
  return `${trump} are trump`;
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

function drawPrompt(st, live) {
  const names = seatNames(st);
  let text = "";
  if (st.done) text = "The game is over.";
  else if (!live || busy) text = "";
  else if (st.legal.length === 0) text = `${names[st.to_move]} to move…`;
  else if (st.game === "texas42") {
    const phase = st.table && st.table.phase;
    text = phase === "bidding" ? "Your bid:" : phase === "declaring" ? "Name trump:" : "Your play: click a domino.";
  } else text = choosing ? `Play ${choosing} on which end?` : "Your move: click a domino, or draw or pass.";
  $("prompt").textContent = text;
  const box = $("actions");
  box.innerHTML = "";
  if (!live || busy || st.done) return;
  let buttons = st.legal.filter((a) => !isDomino(a)).map((a) => [a, a === "follow-me" ? "follow me" : a]);
  if (choosing) {
    buttons = st.legal.filter((a) => dominoOf(a) === choosing).map((a) => [a, a.includes("@") ? `on ${a.split("@")[1]}` : a]);
  }
  for (const [action, label] of buttons) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action legal";
    b.dataset.action = action;
    b.dataset.label = actionName(st, action);
    b.setAttribute("aria-label", b.dataset.label);
    b.textContent = label;
    b.addEventListener("click", () => act(action));
    box.appendChild(b);
  }
  numberControls();
  markSuggested();
}

function drawHand(st, live) {
  const h = $("hand");
  h.innerHTML = "";
  for (const d of st.hand) {
    const moves = live ? st.legal.filter((a) => isDomino(a) && dominoOf(a) === d) : [];
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile-button" + (moves.length ? " legal" : "") + (choosing === d ? " chosen" : "")
      + (st.table && st.table.drawn === d ? " drawn" : "");
    b.disabled = moves.length === 0;
    b.dataset.domino = d;
    b.innerHTML = dominoSvg(d);
    b.dataset.label = moves.length ? `${d}, legal` : d;
    b.setAttribute("aria-label", b.dataset.label);
    if (moves.length === 1) b.addEventListener("click", () => act(moves[0]));
    else if (moves.length > 1) b.addEventListener("click", () => { choosing = d; drawAll(state, true); });
    h.appendChild(b);
  }
  numberControls();
  markSuggested();
}

// ---------------------------------------------------------------- summaries

function dealText(st, deal, index) {
  const names = seatNames(st);
  const t = deal.table;
  const word = st.game === "texas42" ? "Hand" : "Round";
  let html = `<h3 id="summary-title">${word} ${index + 1} is over</h3>`;
  if (st.game === "texas42") {
    const c = deal.contract;
    const us = st.sides[st.seat];
    if (!c) html += "<p>Everyone passed: the hand is thrown in.</p>";
    else {
      const bidder = t && t.bidder != null ? names[t.bidder] : sideName(st, c.side);
      const trump = t && t.trump ? ` (${escapeHtml(trumpText(t.trump))})` : "";
      html += `<p class="verdict">${bidder} bid ${escapeHtml(t ? t.high_bid : c.bid_points)}${trump}: ${c.made ? "made it" : "set!"}</p>`;
    }
    if (deal.points) html += `<p>Points: Us ${deal.points[us]}, Them ${deal.points[1 - us]}</p>`;
    const unit = st.rules.scoring === "points" ? "points" : "marks";
    html += `<p>This hand: Us +${deal.scores[us]}, Them +${deal.scores[1 - us]} ${unit}</p>`;
    html += `<p class="totals">${unit[0].toUpperCase() + unit.slice(1)}: Us ${deal.totals[us]}, Them ${deal.totals[1 - us]}</p>`;
    html += reviewHtml(deal.review);
  } else {
    html += `<p class="verdict">${deal.winner != null ? `${names[deal.winner]} won the round` : "Blocked: no one won the round"}</p>`;
    html += `<p>This round: ${deal.scores.map((v, s) => `${names[s]} +${v}`).join(", ")}</p>`;
    html += `<p class="totals">Scores: ${deal.totals.map((v, s) => `${names[s]} ${v}`).join(", ")}</p>`;
  }
  return html;
}

const trumpName = (a) => (a === "follow-me" ? "follow me" : a === "nel-o" ? "Nel-O" : a);
const bidWords = (a) => (a === "pass" ? "pass" : `bid ${a}`);

// Who the person's bids are compared with: "the network" (a model), else the spec (e.g. heuristic).
const bidderName = (spec) => (!spec || String(spec).startsWith("model:") ? "the network" : String(spec));

// "You bid 30; the network would bid pass" (or "…, same as the network").
function bidLine(b, who) {
  const you = b.action === "pass" ? "You passed" : `You bid ${b.action}`;
  if (b.network == null) return `${you}.`;
  if (b.network === b.action) return `${you}, same as ${who}.`;
  return `${you}; ${who} would ${bidWords(b.network)}.`;
}

function declarationLine(d, who) {
  const you = `You named ${trumpName(d.action)}`;
  if (d.network == null) return `${you}.`;
  if (d.network === d.action) return `${you}, same as ${who}.`;
  return `${you}; ${who} would name ${trumpName(d.network)}.`;
}

// A play's other moves and the points each keeps, for the row's tooltip.
const movesTitle = (p) => (p.moves || []).map((m) => `${m.action}: ${m.points}`).join(", ");

// The review of a finished Texas 42 hand: every play of the person against the
// best play with all hands open, and their bids against the network's.
function reviewHtml(review) {
  if (!review) return "";
  const open = review.open_hands !== false;
  let html = '<section class="review" aria-labelledby="review-title">';
  html += `<h4 id="review-title">Review${open ? ", with all hands open" : ""}</h4>`;
  html += `<p class="note">${open ? "As in bridge's double-dummy analysis: every hand face up, everyone playing best after each play. " : ""}`
    + "Given up: the points your side could have taken from that play to the end of the hand, less those it takes after the play made.</p>";
  const who = bidderName(review.bidder);
  for (const b of review.bids || []) html += `<p class="review-bid">${escapeHtml(bidLine(b, who))}</p>`;
  if (review.declaration) html += `<p class="review-bid">${escapeHtml(declarationLine(review.declaration, who))}</p>`;
  const plays = review.plays || [];
  if (!plays.length) return `${html}<p>You played no domino this hand.</p></section>`;
  html += '<div class="scroll-x review-scroll"><table id="review"><thead><tr><th scope="col">Trick</th>'
    + '<th scope="col">You played</th><th scope="col">Best</th><th scope="col">Given up</th></tr></thead><tbody>';
  plays.forEach((p, i) => {
    const largest = i === review.largest;
    const cls = [largest ? "largest" : "", p.lost > 0 ? "lost" : ""].filter((c) => c).join(" ");
    html += `<tr class="${cls}" data-ply="${escapeHtml(p.ply)}" data-action="${escapeHtml(p.action)}"`
      + ` data-best="${escapeHtml(p.best)}" data-lost="${escapeHtml(p.lost)}" title="${escapeHtml(movesTitle(p))}">`
      + `<td>${escapeHtml(p.trick)}</td><td>${escapeHtml(p.action)}</td>`
      + `<td>${p.best === p.action ? `<span class="same">${escapeHtml(p.best)}</span>` : escapeHtml(p.best)}</td>`
      + `<td>${escapeHtml(p.lost)}${largest ? ' <span class="marker">◀ largest</span>' : ""}</td></tr>`;
  });
  html += `</tbody><tfoot><tr><th scope="row" colspan="3">Total given up</th>`
    + `<td id="review-total" data-lost="${escapeHtml(review.lost)}">${escapeHtml(review.lost)}</td></tr></tfoot></table></div>`;
  return html + "</section>";
}

// Shows a finished deal's summary and waits for Continue (unless the game ended with it).
function summary(st, deal, index) {
  const last = st.done && index === st.deals.length - 1;
  if (last) return Promise.resolve();
  drawScoresAt(st, deal.totals);
  $("summary-text").innerHTML = dealText(st, deal, index);
  $("continue").hidden = false;
  $("download").hidden = true;
  $("again").hidden = true;
  openSummary();
  $("continue").focus();
  return new Promise((ok) => {
    $("continue").onclick = () => { closeSummary(); ok(); };
  });
}

function openSummary() {
  $("overlay").hidden = false;
  $("summary").scrollTop = 0;
}

function closeSummary() {
  $("overlay").hidden = true;
  keepFocus();
}

function drawScoresAt(st, totals) {
  drawScores({ ...st, scores: totals });
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

function gameOver(st) {
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
  $("continue").onclick = () => { closeSummary(); $("continue").textContent = "Continue"; };
  $("again").hidden = false;
  openSummary();
  $("continue").focus();
}

// ---------------------------------------------------------------- past games

async function showHistory() {
  showError("");
  $("setup").hidden = true;
  $("history-button").hidden = true;
  $("history").hidden = false;
  $("history-status").textContent = "Loading…";
  const body = $("history-table").tBodies[0];
  body.innerHTML = "";
  try {
    const h = await api("GET", "/api/history");
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

function hideHistory() {
  $("history").hidden = true;
  $("setup").hidden = false;
  showSetupButtons();
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
    ["Levels", levelsText(g).map((l) => `<span class="line">${escapeHtml(l)}</span>`).join(" ")],
    ["Result", `<span class="result ${escapeHtml(g.result)}">${escapeHtml(resultText(g))}</span>`],
    ["Hints", escapeHtml(g.hints ?? "—")],
    ["Given up", escapeHtml(g.points_lost ?? "—")],
  ];
  tr.innerHTML = cells.map(([label, c]) => `<td data-label="${label}">${c}</td>`).join("");
  const td = document.createElement("td");
  td.className = "record";
  const b = document.createElement("button");
  b.type = "button";
  b.className = "download";
  b.textContent = "Download";
  b.setAttribute("aria-label", `Download the record of game ${g.id} (${game}, ${dateText(g.finished)})`);
  b.addEventListener("click", () => downloadPast(g, b));
  td.appendChild(b);
  tr.appendChild(td);
  return tr;
}

// GET /api/history/{id}: the game's record, saved as one JSON line that `bones replay` reads.
async function downloadPast(g, button) {
  showError("");
  button.disabled = true;
  try {
    const record = await api("GET", `/api/history/${encodeURIComponent(g.id)}`);
    saveFile(`bones-${g.game}-${g.id}.json`, JSON.stringify(record) + "\n");
  } catch (e) {
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

function saveFile(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// ---------------------------------------------------------------- start

$("game").addEventListener("change", setupChanged);
for (const role of ["opponents", "partner"]) {
  $(role).addEventListener("change", () => { $(role).dataset.chosen = "1"; roleChanged(role); });
}
$("setup-form").addEventListener("submit", startGame);
$("new-game").addEventListener("click", newGame);
$("again").addEventListener("click", newGame);
$("hint").addEventListener("click", askHint);
$("history-button").addEventListener("click", showHistory);
$("history-back").addEventListener("click", hideHistory);
document.addEventListener("keydown", onKey);
document.addEventListener("pointerdown", () => { keyboardUser = false; });
setupChanged();
loadInfo();
