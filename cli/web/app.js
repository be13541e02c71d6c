// Bones in the browser: the page plays through the JSON API of `bones web`
// (POST /api/games, GET /api/games/{id}, POST /api/games/{id}/actions).
// Everything drawn comes from the state the server answers: the person's
// hand, the public history and the table of their seat's view.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// Milliseconds between the bots' moves (?delay=N to change it).
const DELAY = Math.max(0, Number(params.get("delay") ?? 700) || 0);

let gameId = null;
let state = null; // the last state answered
let shown = 0; // history entries drawn so far
let busy = false; // animating or waiting for the server
let trick = []; // Texas 42: plays of the trick on the table [{seat, domino}]
let board = []; // Doubles: dominoes on the board [{domino, seat, on}]
let bubbles = {}; // seat -> last action shown next to it
let choosing = null; // Doubles: the domino whose end is being chosen

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
const pretty = (action) => action.replace("@", " on ");
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
  if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
  return data;
}

function showError(msg) {
  const e = $("error");
  e.textContent = msg || "";
  e.hidden = !msg;
}

// ---------------------------------------------------------------- setup

function setupChanged() {
  const doubles = $("game").value === "doubles";
  $("players-label").hidden = !doubles;
  $("partner-label").hidden = doubles;
}

async function startGame(ev) {
  ev.preventDefault();
  showError("");
  const game = $("game").value;
  const req = { game, episode: $("episode").value };
  if (game === "doubles") req.players = Number($("players").value);
  const opp = $("opponents").value.trim(), partner = $("partner").value.trim(), seed = $("seed").value.trim();
  if (opp) req.opponents = opp;
  if (partner && game === "texas42") req.partner = partner;
  if (seed) req.seed = Number(seed);
  $("start").disabled = true;
  try {
    const r = await api("POST", "/api/games", req);
    gameId = r.id;
    state = r.state;
    shown = 0; trick = []; board = []; bubbles = {}; choosing = null;
    $("setup").hidden = true;
    $("play").hidden = false;
    $("new-game").hidden = false;
    $("log").innerHTML = "";
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
  gameId = null; state = null;
  $("overlay").hidden = true;
  $("play").hidden = true;
  $("new-game").hidden = true;
  $("setup").hidden = false;
  $("scoreboard").textContent = "";
  showError("");
}

// ---------------------------------------------------------------- playing

async function act(action) {
  if (busy || !state || !state.legal.includes(action)) return;
  busy = true;
  choosing = null;
  showError("");
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

function drawSeats(st, live, acting) {
  const names = seatNames(st);
  for (const pos of ["top", "left", "right", "bottom"]) $(`pos-${pos}`).innerHTML = "";
  const sizes = st.table ? st.table.hand_sizes : null;
  for (let s = 0; s < st.players; s++) {
    const el = $(`pos-${position(st, s)}`);
    const who = names[s] + (st.agents[s] ? ` <small>${escapeHtml(agentLabel(st.agents[s]))}</small>` : "");
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
      html += `<div class="contract">Contract: ${names[t.bidder]} ${t.high_bid}${t.trump ? ` · ${trumpText(t.trump)}` : ""}</div>`;
    } else if (t.bidder != null) {
      html += `<div>High bid: ${names[t.bidder]} ${t.high_bid}</div>`;
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
  $("info").innerHTML = html;
}

function trumpText(trump) {
  if (trump === "follow-me") return "follow me (no trump)";
  if (trump === "nel-o") return "Nel-O";
  if (trump === "sevens") return "sevens";
  return `${trump} are trump`;
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
    b.textContent = label;
    b.addEventListener("click", () => act(action));
    box.appendChild(b);
  }
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
    b.setAttribute("aria-label", d);
    if (moves.length === 1) b.addEventListener("click", () => act(moves[0]));
    else if (moves.length > 1) b.addEventListener("click", () => { choosing = d; drawAll(state, true); });
    h.appendChild(b);
  }
}

// ---------------------------------------------------------------- summaries

function dealText(st, deal, index) {
  const names = seatNames(st);
  const t = deal.table;
  const word = st.game === "texas42" ? "Hand" : "Round";
  let html = `<h3>${word} ${index + 1} is over</h3>`;
  if (st.game === "texas42") {
    const c = deal.contract;
    const us = st.sides[st.seat];
    if (!c) html += "<p>Everyone passed: the hand is thrown in.</p>";
    else {
      const bidder = t && t.bidder != null ? names[t.bidder] : sideName(st, c.side);
      const trump = t && t.trump ? ` (${trumpText(t.trump)})` : "";
      html += `<p class="verdict">${bidder} bid ${t ? t.high_bid : c.bid_points}${trump}: ${c.made ? "made it" : "set!"}</p>`;
    }
    if (deal.points) html += `<p>Points: Us ${deal.points[us]}, Them ${deal.points[1 - us]}</p>`;
    const unit = st.rules.scoring === "points" ? "points" : "marks";
    html += `<p>This hand: Us +${deal.scores[us]}, Them +${deal.scores[1 - us]} ${unit}</p>`;
    html += `<p class="totals">${unit[0].toUpperCase() + unit.slice(1)}: Us ${deal.totals[us]}, Them ${deal.totals[1 - us]}</p>`;
  } else {
    html += `<p class="verdict">${deal.winner != null ? `${names[deal.winner]} won the round` : "Blocked: no one won the round"}</p>`;
    html += `<p>This round: ${deal.scores.map((v, s) => `${names[s]} +${v}`).join(", ")}</p>`;
    html += `<p class="totals">Scores: ${deal.totals.map((v, s) => `${names[s]} ${v}`).join(", ")}</p>`;
  }
  return html;
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
  $("overlay").hidden = false;
  $("continue").focus();
  return new Promise((ok) => {
    $("continue").onclick = () => { $("overlay").hidden = true; ok(); };
  });
}

function drawScoresAt(st, totals) {
  drawScores({ ...st, scores: totals });
}

function gameOver(st) {
  const names = seatNames(st);
  let html = "";
  if (st.deals.length) html += dealText(st, st.deals[st.deals.length - 1], st.deals.length - 1);
  if (st.episode === "game") {
    const w = st.winner;
    const who = w == null ? "No one" : st.game === "texas42" ? (w === st.sides[st.seat] ? "You and your partner" : "Your opponents") : names[w];
    html += `<h3 class="winner">${who} won the game</h3>`;
  }
  $("summary-text").innerHTML = html;
  const line = JSON.stringify(st.record) + "\n";
  const a = $("download");
  if (a.href.startsWith("blob:")) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([line], { type: "application/json" }));
  a.download = `bones-${st.game}-${st.record.seed}.json`;
  a.hidden = false;
  $("continue").hidden = false;
  $("continue").textContent = "Close";
  $("continue").onclick = () => { $("overlay").hidden = true; $("continue").textContent = "Continue"; };
  $("again").hidden = false;
  $("overlay").hidden = false;
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// ---------------------------------------------------------------- start

$("game").addEventListener("change", setupChanged);
$("setup-form").addEventListener("submit", startGame);
$("new-game").addEventListener("click", newGame);
$("again").addEventListener("click", newGame);
setupChanged();
