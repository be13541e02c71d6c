// The JSON API of `bones web`, one function a call. Each answers the parsed
// JSON, or throws an Error with the server's message (`{"error": …}`).

async function api(method, path, body) {
  const r = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `the server answered ${r.status}` }; }
  if (!r.ok) throw new Error((data && data.error) || `the server answered ${r.status}`);
  return data;
}

// GET /api/info: the games, their strength levels, the defaults, whether games are stored.
export const getInfo = () => api("GET", "/api/info");

// POST /api/games: a new game (`{game, episode, players?, opponents?, partner?, seed?}`): `{id, state}`.
export const createGame = (request) => api("POST", "/api/games", request);

// DELETE /api/games/{id}: the game is dropped.
export const deleteGame = (id) => api("DELETE", `/api/games/${id}`);

// POST /api/games/{id}/actions: the person's move at `ply`; the state after the bots' answers.
export const postAction = (id, action, ply) => api("POST", `/api/games/${id}/actions`, { action, ply });

// GET /api/games/{id}/hint: what a level's bot would play here (the server's default level if none).
export function getHint(id, level) {
  const q = level ? `?level=${encodeURIComponent(level)}` : "";
  return api("GET", `/api/games/${id}/hint${q}`);
}

// GET /api/history: the stored finished games, newest first.
export const getHistory = () => api("GET", "/api/history");

// GET /api/history/{id}: a stored game's record.
export const getRecord = (id) => api("GET", `/api/history/${encodeURIComponent(id)}`);

// POST /api/replay: every position of a finished game's record, its deals and their reviews.
export const postReplay = (record) => api("POST", "/api/replay", record);
