// The setup form: the game, the opponents' and partner's levels (or a typed
// agent spec), the seed; and the request for a new game that it makes.

import { getInfo } from "./api.js";
import { $, escapeHtml, showError } from "./dom.js";
import { levelsOf } from "./levels.js";
import { showSetupButtons } from "./screens.js";
import { ui } from "./state.js";

export const ROLES = ["opponents", "partner"];

// Builds a role's controls ("opponents" or "partner") from the page's role template:
// its level choice, the spec input shown for "Custom…", and the level's description.
function buildRole(role) {
  const box = $(`${role}-role`), name = box.dataset.label;
  box.append($("role-template").content.cloneNode(true));
  const [label, select, spec, about] = box.children;
  label.htmlFor = role;
  label.textContent = name;
  select.id = role;
  select.setAttribute("aria-describedby", `${role}-about`);
  spec.id = `${role}-spec`;
  spec.setAttribute("aria-label", `${name}: agent spec`);
  about.id = `${role}-about`;
}

// Builds the roles' controls; their choices are remembered once the person makes one.
export function buildRoles() {
  for (const role of ROLES) {
    buildRole(role);
    $(role).addEventListener("change", () => { $(role).dataset.chosen = "1"; roleChanged(role); });
  }
}

// A role's starting choice: the server's default for it (`--opponents`/`--partner`:
// a level, or a spec shown under "Custom…"), else `default_level`.
function defaultLevel(game, role) {
  const info = ui.info;
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

// Fills the level choice of a role for `game`, keeping the person's choice if
// the game has it (else the default level).
function fillRole(role, game) {
  const sel = $(role), keep = sel.dataset.chosen ? sel.value : "";
  const levels = levelsOf(game);
  sel.innerHTML = "";
  for (const l of levels) {
    // A level this server cannot play is shown, disabled, with the reason.
    const o = new Option(l.available === false ? `${l.label} (unavailable)` : l.label, l.name);
    o.title = l.available === false ? l.unavailable || "" : l.about || "";
    o.disabled = l.available === false;
    sel.add(o);
  }
  sel.add(new Option("Custom…", "custom"));
  const usable = (name) => levels.some((l) => l.name === name && l.available !== false);
  let want = keep === "custom" || usable(keep) ? keep : defaultLevel(game, role);
  if (want !== "custom" && !usable(want)) want = (levels.find((l) => l.available !== false) || { name: "custom" }).name;
  sel.value = want;
  roleChanged(role);
}

// Shows the spec input of a role when "Custom…" is chosen, else the level's description.
function roleChanged(role) {
  const custom = $(role).value === "custom";
  $(`${role}-spec`).hidden = !custom;
  const level = levelsOf($("game").value).find((l) => l.name === $(role).value);
  $(`${role}-about`).textContent = custom ? "An agent spec (empty: the server's default)."
    : level ? level.about || "" : "";
  const off = levelsOf($("game").value).filter((l) => l.available === false);
  if (off.length) {
    $(`${role}-about`).textContent += ` Unavailable here: ${off.map((l) => `${l.label} (${l.unavailable})`).join("; ")}`;
  }
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

// The body of POST /api/games for the form as it is.
export function gameRequest() {
  const game = $("game").value;
  const req = { game, episode: $("episode").value };
  if (game === "doubles") req.players = Number($("players").value);
  const opp = roleRequest("opponents"), partner = roleRequest("partner"), seed = $("seed").value.trim();
  if (opp) req.opponents = opp;
  if (partner && game === "texas42") req.partner = partner;
  if (seed) req.seed = Number(seed);
  return req;
}

// GET /api/info, then the form with the server's levels.
export async function loadInfo() {
  try {
    ui.info = await getInfo();
  } catch (e) {
    ui.info = null;
    showError(`Cannot read the server's levels: ${e.message}`);
  }
  showSetupButtons();
  setupChanged();
}

export function setupChanged() {
  const game = $("game").value, doubles = game === "doubles";
  $("players-label").hidden = !doubles;
  $("partner-role").hidden = doubles;
  for (const role of ROLES) fillRole(role, game);
  fillSpecs(game);
}
