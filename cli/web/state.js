// The page's state: one object that the modules share (an imported `let`
// cannot be assigned, so every field lives on `ui`).

const params = new URLSearchParams(location.search);
// Milliseconds between the bots' moves (?delay=N to change it).
export const DELAY = Math.max(0, Number(params.get("delay") ?? 700) || 0);

export const ui = {
  info: null, // GET /api/info: the games, their strength levels, whether games are stored
  gameId: null,
  state: null, // the last state answered
  shown: 0, // history entries drawn so far
  busy: false, // animating or waiting for the server
  trick: [], // Texas 42: plays of the trick on the table [{seat, domino}]
  board: [], // Doubles: dominoes on the board [{domino, seat, on}]
  bubbles: {}, // seat -> last action shown next to it
  choosing: null, // Doubles: the domino whose end is being chosen
  hint: null, // the hint shown for the person's current turn (with `forPly`)
  hintBusy: false, // a hint request is on its way
  keyboardUser: false, // the last input was a key: keep the focus on the legal moves
};

// Whether the person may move now (and ask for a hint).
export function myTurn() {
  return !!ui.state && !ui.busy && !ui.state.done && ui.state.legal.length > 0;
}

export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
