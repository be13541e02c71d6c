// The strength levels of each game, as GET /api/info lists them.

import { ui } from "./state.js";

// The levels of a game (`[]` if none).
export function levelsOf(game) {
  const info = ui.info;
  return (info && info.levels && info.levels[game]) || [];
}

// A level's label ("hard" -> "Hard"), the name itself if the server lists no such level.
export function levelLabel(game, name) {
  const level = levelsOf(game).find((l) => l.name === name);
  return level ? level.label : String(name);
}

// A bot's spec, short: `model:/long/path/models/texas42` shows as `model:…/models/texas42`.
export function agentLabel(spec) {
  const parts = spec.startsWith("model:") ? spec.slice(6).split("/").filter((p) => p) : [];
  return parts.length > 2 ? `model:…/${parts.slice(-2).join("/")}` : spec;
}
