// The keyboard: 1–9 play the numbered move, ← → move the focus among the legal
// moves, Enter plays the focused one, H asks for a hint, Escape cancels; while
// a summary waits, Enter or Escape continues; in a replay, the replay's keys.

import { legalControls, markSuggested, moveFocus } from "./controls.js";
import { $ } from "./dom.js";
import { askHint, drawHint } from "./hints.js";
import { drawAll } from "./render.js";
import { replayKey } from "./replay.js";
import { ui } from "./state.js";
import { summaryOpen } from "./summary.js";

export function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  ui.keyboardUser = true;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if ($("play").hidden) return;
  if (ui.replay) {
    replayKey(ev);
    return;
  }
  if (summaryOpen()) {
    if (ev.key === "Escape" || (ev.key === "Enter" && tag !== "BUTTON" && tag !== "A")) { ev.preventDefault(); $("continue").click(); }
    return;
  }
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
    if (ui.choosing) { ui.choosing = null; drawAll(ui.state, true); } else if (ui.hint) { ui.hint = null; drawHint(); markSuggested(); }
  }
}
