//! The routes of `bones web` and their handlers: each reads its request,
//! asks the game's [`Session`] (on the think pool when bots must move) or the
//! history, and answers JSON (docs/interfaces/web.md).

use super::error::json_response;
use super::guard::Client;
use super::levels::{Pick, DEFAULT_LEVEL};
use super::store::Game;
use super::*;
use axum::body::Body;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, RawQuery, Request, State};
use axum::http::{StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use bones_agents::spec::grammar;
use serde_json::{json, Value};
use std::sync::Arc;

/// The routes.
pub(super) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { assets::page("index.html") }))
        .route("/{file}", get(|Path(file): Path<String>| async move { assets::page(&file) }))
        .route("/api/info", get(info))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(state).delete(drop_game))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/review/{deal}", get(review))
        .route("/api/history", get(history_list))
        .route("/api/history/{id}", get(history_record))
        .route("/api/replay", post(replay_game))
        .fallback(
            |uri: Uri| async move { WebError::Http { status: 404, message: format!("no such path: {}", uri.path()) } },
        )
        .method_not_allowed_fallback(|uri: Uri| async move {
            WebError::Http { status: 405, message: format!("method not allowed on {}", uri.path()) }
        })
        .layer(axum::middleware::from_fn_with_state(app.clone(), rate_limit))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// The parameters of an API path, or a JSON error naming what is wrong with
/// them (a part that is not UTF-8, say), never the router's plain text.
struct ApiPath<T>(T);

impl<T, S> axum::extract::FromRequestParts<S> for ApiPath<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &S) -> Result<Self, WebError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(t)) => Ok(ApiPath(t)),
            Err(e) => Err(WebError::Http {
                status: 400,
                message: format!("bad path {}: {}", error::shown(parts.uri.path(), 80), e.body_text()),
            }),
        }
    }
}

/// Refuses an API request past its address's rate (the page's files are not counted).
async fn rate_limit(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<Client>,
    request: Request,
    next: Next,
) -> Response {
    if request.uri().path().starts_with("/api/") {
        if let Err(retry_after) = app.rate.take(client.0) {
            return WebError::RateLimited { per_s: app.rate.per_s(), retry_after }.into_response();
        }
    }
    next.run(request).await
}

/// The body as JSON: at most [`MAX_BODY`] bytes, arriving within the
/// server's body timeout.
async fn body_json(app: &App, body: Body) -> Result<Value, WebError> {
    let read = tokio::time::timeout(app.body_timeout, axum::body::to_bytes(body, MAX_BODY)).await.map_err(|_| {
        WebError::Http {
            status: 408,
            message: format!("the request body did not arrive within {} s", app.body_timeout.as_secs_f64()),
        }
    })?;
    let bytes = read.map_err(|e| {
        let mut source: Option<&dyn std::error::Error> = Some(&e);
        while let Some(err) = source {
            if err.to_string().contains("length limit exceeded") {
                return WebError::TooLarge(MAX_BODY);
            }
            source = err.source();
        }
        WebError::Http { status: 400, message: format!("cannot read the request body: {e}") }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| WebError::Json(e.to_string()))
}

/// A blocking job that does not think (the history file) off the async threads.
async fn blocking<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> Result<T, WebError> {
    tokio::task::spawn_blocking(job).await.map_err(|e| WebError::Internal(format!("a request failed: {e}")))
}

/// Runs `job` on game `id` on the bots' pool; a bot that failed (or a panic)
/// ends the game: it is dropped, and the answer says why.
async fn on_game<T: Send + 'static>(
    app: &Arc<App>,
    id: &str,
    job: impl FnOnce(&Game) -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    let slot = app.store.get(id)?;
    let out = app.pool.run(move || job(&slot)).await;
    match out {
        Ok(Ok(x)) => Ok(x),
        Err(e @ WebError::BotFailed(_)) | Ok(Err(e @ WebError::BotFailed(_))) => {
            eprintln!("error: game {id}: {e}");
            app.store.remove(id);
            Err(e)
        }
        Err(e) | Ok(Err(e)) => Err(e),
    }
}

/// `GET /api/info`: the games, their strength levels and the agent specs the page offers.
async fn info(State(app): State<Arc<App>>) -> Response {
    let games: Vec<Value> = bones_env::GAMES
        .iter()
        .map(|g| json!({"name": g.name, "about": g.about, "players": g.players, "default_players": g.default_players, "deal": g.deal}))
        .collect();
    let mut levels = serde_json::Map::new();
    for g in bones_env::GAMES.iter() {
        let list: Vec<Value> = levels::levels(g.name, app.models.as_ref())
            .iter()
            .map(|l| {
                let why = app.unavailable.get(&(g.name, l.name));
                json!({"name": l.name, "label": l.label, "about": l.about, "spec": l.spec.to_string(),
                       "available": why.is_none(), "unavailable": why})
            })
            .collect();
        levels.insert(g.name.to_string(), Value::Array(list));
    }
    let pick = |p: &Option<Pick>| match p {
        Some(Pick::Level(name)) => name.to_string(),
        Some(Pick::Spec(spec)) => spec.to_string(),
        None => DEFAULT_LEVEL.to_string(),
    };
    json_response(
        StatusCode::OK,
        &json!({
            "games": games,
            "levels": levels,
            "default_level": DEFAULT_LEVEL,
            "agents": grammar::summary(),
            "defaults": {"opponents": pick(&app.defaults.opponents), "partner": pick(&app.defaults.partner)},
            "history": app.history.is_some(),
            "idle_timeout_s": app.store.idle().as_secs_f64(),
            "limits": {"worlds": app.limits.worlds, "pool": app.limits.pool, "exact": app.limits.exact,
                       "think_threads": app.pool.threads(), "rate_per_s": app.rate.per_s()},
        }),
    )
}

/// `POST /api/games`.
async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<Client>,
    body: Body,
) -> Result<Response, WebError> {
    let req = NewGame::parse(&body_json(&app, body).await?)?;
    req.check_remote(app.models_dir.as_deref(), &app.limits)?;
    for (key, pick) in [("opponents", &req.opponents), ("partner", &req.partner)] {
        if let Some(Pick::Level(level)) = pick {
            if let Some(why) = app.unavailable.get(&(req.game.name(), *level)) {
                return Err(WebError::Agent { key, message: levels::unavailable(level, why) });
            }
        }
    }
    app.store.check_room(client.0)?;
    let shared = app.clone();
    let session = app
        .pool
        .run(move || {
            let mut session = session::create(req, &shared.defaults, shared.models.as_ref())?;
            store_if_finished(&shared, session.as_mut());
            Ok::<_, WebError>(session)
        })
        .await??;
    let game = Game::new(session, client.0);
    let state = game.state();
    let id = app.store.insert(game)?;
    Ok(json_response(StatusCode::CREATED, &json!({"id": id, "state": *state})))
}

/// `GET /api/games/{id}`: the state as of the game's last change (it never waits for the bots).
async fn state(State(app): State<Arc<App>>, ApiPath(id): ApiPath<String>) -> Result<Response, WebError> {
    let slot = app.store.get(&id)?;
    Ok(json_response(StatusCode::OK, &slot.state()))
}

/// `DELETE /api/games/{id}`.
async fn drop_game(State(app): State<Arc<App>>, ApiPath(id): ApiPath<String>) -> Result<Response, WebError> {
    app.store.get(&id)?;
    app.store.remove(&id);
    Ok(json_response(StatusCode::OK, &json!({"id": id, "dropped": true})))
}

/// `POST /api/games/{id}/actions`.
async fn act(State(app): State<Arc<App>>, ApiPath(id): ApiPath<String>, body: Body) -> Result<Response, WebError> {
    let (action, ply) = action_of(&body_json(&app, body).await?)?;
    let shared = app.clone();
    let state = on_game(&app, &id, move |game| {
        let mut session = game.lock()?;
        let played = session.play(&action, ply, shared.models.as_ref());
        store_if_finished(&shared, session.as_mut());
        let state = game.refresh(session.as_ref());
        played.map(|()| state)
    })
    .await?;
    Ok(json_response(StatusCode::OK, &state))
}

/// Stores the game in the history once it is over (once). The person has the
/// game either way: a failed write is reported on standard error, not to the move.
fn store_if_finished(app: &App, session: &mut dyn Session) {
    if let (Some(history), Some(finished)) = (&app.history, session.finished()) {
        if let Err(e) = history.store(&finished) {
            eprintln!("error: a finished game was not stored: {e}");
        }
    }
}

/// The action of `{"action":"6-4"}` and the optional `ply` (the history's
/// length in the state the move was chosen from).
fn action_of(body: &Value) -> Result<(String, Option<usize>), WebError> {
    let request = |m: String| WebError::Request(m);
    let obj = body.as_object().ok_or_else(|| {
        request(format!("an action is a JSON object {{\"action\":\"6-4\"}}, got {}", bones_env::record::kind(body)))
    })?;
    if let Some(k) = obj.keys().find(|k| k.as_str() != "action" && k.as_str() != "ply") {
        return Err(request(format!("unknown key `{k}` in an action: expected action, ply")));
    }
    let ply = match obj.get("ply") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64().ok_or_else(|| request(format!("bad `ply` {v}: expected the length of the state's history")))?
                as usize,
        ),
    };
    match obj.get("action") {
        Some(Value::String(s)) => Ok((s.clone(), ply)),
        Some(v) => Err(request(format!("bad `action` {v}: expected an action name such as \"6-4\" or \"pass\""))),
        None => Err(request("missing `action`: expected {\"action\":NAME}".into())),
    }
}

/// The query parameters of `uri`'s query: each `key=value`, only the keys in
/// `allowed` (plain ASCII values: names and numbers).
fn query(raw: Option<String>, allowed: &[&str]) -> Result<Vec<(String, String)>, WebError> {
    let mut out = Vec::new();
    for part in raw.as_deref().unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        if !allowed.contains(&k) {
            let k: String = k.chars().take(40).collect();
            return Err(WebError::Request(format!("unknown parameter `{k}`: expected {}", allowed.join(", "))));
        }
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

/// `GET /api/games/{id}/hint[?level=NAME]`.
async fn hint(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    RawQuery(raw): RawQuery,
) -> Result<Response, WebError> {
    let level = query(raw, &["level"])?.into_iter().next().map(|(_, v)| v);
    let shared = app.clone();
    let answer = on_game(&app, &id, move |game| {
        let mut session = game.lock()?;
        let hint = session.hint(level.as_deref(), shared.models.as_ref());
        game.refresh(session.as_ref());
        hint
    })
    .await?;
    Ok(json_response(StatusCode::OK, &answer))
}

/// `GET /api/games/{id}/review/{deal}`.
async fn review(
    State(app): State<Arc<App>>,
    ApiPath((id, deal)): ApiPath<(String, String)>,
) -> Result<Response, WebError> {
    let deal: usize = deal.parse().map_err(|_| {
        let shown: String = deal.chars().take(20).collect();
        WebError::Request(format!(
            "bad hand number `{shown}`: expected 0 for the first finished hand, 1 for the next, …"
        ))
    })?;
    let slot = app.store.get(&id)?;
    Ok(json_response(StatusCode::OK, &session::review_of(&slot.state(), deal)?))
}

/// `POST /api/replay`: every position of a finished game's record.
async fn replay_game(State(app): State<Arc<App>>, body: Body) -> Result<Response, WebError> {
    let record = body_json(&app, body).await?;
    let models = app.models.clone();
    let answer = app.pool.run(move || replay::replay(&record, models.as_ref())).await??;
    Ok(json_response(StatusCode::OK, &answer))
}

/// Most games `GET /api/history` lists.
const MAX_HISTORY: usize = 500;

/// `GET /api/history[?limit=N]`: how many games are stored, and the newest `limit` (100 by default).
async fn history_list(State(app): State<Arc<App>>, RawQuery(raw): RawQuery) -> Result<Response, WebError> {
    let mut limit = 100;
    for (_, v) in query(raw, &["limit"])? {
        limit = v.parse::<usize>().ok().filter(|n| (1..=MAX_HISTORY).contains(n)).ok_or_else(|| {
            WebError::Request(format!(
                "bad `limit` {}: expected 1..={MAX_HISTORY}",
                v.chars().take(20).collect::<String>()
            ))
        })?;
    }
    if app.history.is_none() {
        return Ok(json_response(StatusCode::OK, &json!({"enabled": false, "total": 0, "games": []})));
    }
    let listed =
        blocking(move || app.history.as_ref().map(|h| Ok::<_, HistoryError>((h.count()?, h.list(limit)?)))).await?;
    let (total, games) = listed.unwrap_or(Ok((0, Vec::new()))).map_err(|e| WebError::History(e.to_string()))?;
    Ok(json_response(StatusCode::OK, &json!({"enabled": true, "total": total, "games": games})))
}

/// `GET /api/history/{id}`: the record of a stored game.
async fn history_record(State(app): State<Arc<App>>, ApiPath(id): ApiPath<String>) -> Result<Response, WebError> {
    let unknown = || {
        let shown: String = id.chars().take(20).collect();
        WebError::Http { status: 404, message: format!("no stored game `{shown}` (GET /api/history lists them)") }
    };
    let n: i64 = id.parse().map_err(|_| unknown())?;
    if app.history.is_none() {
        return Err(WebError::NoHistory);
    }
    let record = blocking(move || app.history.as_ref().map(|h| h.record(n))).await?;
    match record {
        Some(Ok(Some(record))) => Ok(json_response(StatusCode::OK, &record)),
        Some(Ok(None)) => Err(unknown()),
        Some(Err(e)) => Err(WebError::History(e.to_string())),
        None => Err(WebError::NoHistory),
    }
}
