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
  trick: null, // Texas 42: the trick on the table {leader, plays: [{seat, domino}], winner?, points?}
  lastTrick: null, // Texas 42: the trick before it
  board: null, // Doubles: the board drawn {table, count}: the first `count` dominoes of the table's layout
  bubbles: {}, // seat -> last action shown next to it
  choosing: null, // Doubles: the domino whose end is being chosen
  hint: null, // the hint shown for the person's current turn (with `forPly`)
  hintBusy: false, // a hint request is on its way
  keyboardUser: false, // the last input was a key: keep the focus on the legal moves
  replay: null, // a game being replayed: {data (POST /api/replay's answer), step, from}
};

// Whether the person may move now (and ask for a hint).
export function myTurn() {
  return !!ui.state && !ui.busy && !ui.state.done && ui.state.legal.length > 0;
}

export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
