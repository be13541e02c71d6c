// Who sits where: the seats' names and places as the person sees the table.

import { levelLabel, agentLabel } from "./levels.js";

export function seatNames(st) {
  const n = st.players;
  const byPos = st.game === "texas42" ? ["You", "Left", "Partner", "Right"]
    : n === 2 ? ["You", "Opponent"] : n === 3 ? ["You", "Left", "Right"] : ["You", "Left", "Across", "Right"];
  const names = [];
  for (let s = 0; s < n; s++) names[s] = byPos[(s - st.seat + n) % n];
  return names;
}

export function position(st, seat) {
  const n = st.players, rel = (seat - st.seat + n) % n;
  if (rel === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return rel === 1 ? "left" : "right";
  return ["bottom", "left", "top", "right"][rel];
}

export const sideName = (st, side) => st.game === "texas42"
  ? (side === st.sides[st.seat] ? "Us" : "Them") : seatNames(st)[side];

// What a bot seat shows under its name: its level ("Hard"), else its short spec.
export function botLabel(st, seat) {
  const level = st.levels && st.levels[seat];
  if (level) return levelLabel(st.game, level);
  return st.agents[seat] ? agentLabel(st.agents[seat]) : "";
}
