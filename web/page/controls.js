// The person's legal moves as controls (the action buttons, then the legal
// dominoes of the hand): their key numbers, the hint's mark and the focus.

import { $ } from "./dom.js";
import { dominoOf } from "./dominoes.js";
import { myTurn, ui } from "./state.js";

// The legal moves as shown: the action buttons first, then the legal dominoes of the hand.
export function legalControls() {
  return [...document.querySelectorAll("#actions button.legal, #hand button.legal:not([disabled])")];
}

// Numbers the first nine legal moves (the digit keys play them).
export function numberControls() {
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

// Whether a control (an action button or a tile) is the hint's move.
function suggests(el) {
  const { hint, state } = ui;
  if (!hint || !state || hint.forPly !== state.history.length || ui.busy) return false;
  if (el.dataset.action) return el.dataset.action === hint.action;
  return el.dataset.domino === dominoOf(hint.action);
}

// Marks the hint's move in the hand and the action buttons.
export function markSuggested() {
  for (const el of document.querySelectorAll("#actions button, #hand button")) {
    const on = suggests(el);
    el.classList.toggle("suggested", on);
    if (el.dataset.label) el.setAttribute("aria-label", el.dataset.label + (on ? ", suggested by the hint" : ""));
  }
}

export function moveFocus(step) {
  const cs = legalControls();
  if (!cs.length) return;
  const i = cs.indexOf(document.activeElement);
  const next = i < 0 ? (step > 0 ? 0 : cs.length - 1) : (i + step + cs.length) % cs.length;
  cs[next].focus();
}

// After a redraw on the person's turn, a keyboard player keeps the focus on the legal moves.
export function keepFocus() {
  const a = document.activeElement;
  if (!ui.keyboardUser || !myTurn() || !$("summary").hidden) return;
  if (a && a !== document.body && document.body.contains(a)) return;
  const cs = legalControls();
  if (cs.length) cs[0].focus();
}
