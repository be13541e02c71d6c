// Which of the page's screens shows: the setup form, past games, or the table.

import { $ } from "./dom.js";
import { ui } from "./state.js";

// Shows the screen `name` ("setup", "history" or "play") and its header buttons.
export function showScreen(name) {
  $("setup").hidden = name !== "setup";
  $("history").hidden = name !== "history";
  $("play").hidden = name !== "play";
  $("new-game").hidden = name !== "play";
  showSetupButtons();
}

// The header's "Past games" button: on the setup screen, where the server stores games.
export function showSetupButtons() {
  $("history-button").hidden = !(ui.info && ui.info.history) || $("setup").hidden;
}
