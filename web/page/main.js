// Bones in the browser: the page plays through the JSON API of `bones web`
// (api.js). Everything drawn comes from what the server answers: the person's
// hand, the public history and the table of their seat's view; hints, reviews
// and replays are the server's too. This module wires the page's controls to
// the modules that answer them:
//   api.js       the JSON API calls          state.js     the page's shared state
//   setup.js     the setup form and levels   play.js      starting, moving, animating
//   render.js    the table, seats and hand   controls.js  legal moves: numbers, focus
//   trick.js     a Texas 42 trick            board.js     the Doubles board's layout
//   tricks.js    the history by hand         hints.js     hints
//   summary.js   a deal's and the game's end review.js    a deal's review
//   history.js   past games                  replay.js    replaying a finished game
//   keys.js      the keyboard                dominoes.js, seats.js, levels.js,
//   screens.js   which screen shows          dom.js       the small shared helpers

import { $ } from "./dom.js";
import { askHint } from "./hints.js";
import { hideHistory, showHistory } from "./history.js";
import { onKey } from "./keys.js";
import { clickMove, newGame, startGame } from "./play.js";
import { closeReplay, openRecordFile, replayMove } from "./replay.js";
import { buildRoles, loadInfo, setupChanged } from "./setup.js";
import { ui } from "./state.js";

// The game's state, whether the page is busy and the replay, read-only from the
// console (and the browser test, scripts/ci/web_browser_test.py): `state`, `busy`, `replay`.
for (const name of ["state", "busy", "replay"]) Object.defineProperty(window, name, { get: () => ui[name] });

buildRoles();
$("game").addEventListener("change", setupChanged);
$("setup-form").addEventListener("submit", startGame);
$("new-game").addEventListener("click", newGame);
$("again").addEventListener("click", newGame);
$("actions").addEventListener("click", clickMove);
$("hand").addEventListener("click", clickMove);
$("hint").addEventListener("click", askHint);
$("history-button").addEventListener("click", showHistory);
$("history-back").addEventListener("click", hideHistory);
$("record-file").addEventListener("change", (ev) => {
  const file = ev.target.files && ev.target.files[0];
  if (file) openRecordFile(file);
  ev.target.value = "";
});
$("replay-first").addEventListener("click", () => replayMove(-1, true));
$("replay-prev").addEventListener("click", () => replayMove(-1, false));
$("replay-next").addEventListener("click", () => replayMove(1, false));
$("replay-last").addEventListener("click", () => replayMove(1, true));
$("replay-close").addEventListener("click", () => closeReplay(true));
document.addEventListener("keydown", onKey);
document.addEventListener("pointerdown", () => { ui.keyboardUser = false; });
setupChanged();
loadInfo();
