//! `bones web`: play Texas 42 and Doubles against the bots in a browser.
//!
//! An HTTP server (axum on tokio) serves the page (plain HTML/CSS/JS compiled
//! into the binary: [`assets`]) and the JSON API the page plays through:
//!
//! - `POST /api/games` with `{"game","players","seat","opponents","partner","rules","seed","episode"}`
//!   (all but `game` optional) answers `{"id","state"}`;
//! - `GET /api/games/{id}` answers the state; `DELETE /api/games/{id}` drops the game;
//! - `POST /api/games/{id}/actions` with `{"action":"6-4"}` applies the person's
//!   move, lets the bots play up to the person's next turn (or the end) and
//!   answers the state;
//! - `GET /api/games/{id}/hint[?level=NAME]` answers what a level would play
//!   now, with the network's probability of each legal move (the game is not
//!   changed; the hint is counted);
//! - `GET /api/games/{id}/review/{deal}` answers a finished hand's review;
//! - `GET /api/history` lists the finished games stored, `GET /api/history/{id}`
//!   answers one's record ([`history`]);
//! - `POST /api/replay` with a game record answers every position of it and
//!   its finished deals, for the page to step through ([`replay`]);
//! - `GET /api/info` lists the games, the strength levels ([`levels`]) and the agent specs.
//!
//! A state holds only what the person's seat may know until the game is over
//! ([`session`]); a hint is made from the person's view only, and a review
//! only of a hand that is over. Bad requests get a 4xx answer
//! `{"error":"…"}` ([`WebError`]). Games are dropped when left idle, and at
//! most `max_games` are open ([`store`]). Bots run on tokio's blocking threads.
//!
//! ```no_run
//! let server = bones_cli::web::start(bones_cli::web::WebConfig::default()).unwrap();
//! println!("{}", server.url());
//! server.wait();
//! ```

pub mod assets;
pub mod deals;
pub mod error;
pub mod history;
pub mod layout;
pub mod levels;
pub mod models;
pub mod replay;
pub mod session;
pub mod store;
pub mod table;

pub use error::WebError;
pub use history::{History, HistoryError};
pub use session::{Defaults, NewGame, Session};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use bones_agents::spec::grammar;
use error::json_response;
use levels::{Pick, DEFAULT_LEVEL};
use models::SharedModels;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use store::Store;

/// The largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;

/// How a server is set up (the flags of `bones web`).
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// The address to listen on (`127.0.0.1`: this machine only).
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// The bots a request gets when it names none.
    pub defaults: Defaults,
    /// Games left idle this long are dropped.
    pub idle_timeout: Duration,
    /// Games open at most at once.
    pub max_games: usize,
    /// The SQLite file finished games are stored in (`None`: none are kept).
    pub history: Option<std::path::PathBuf>,
    /// The folder whose models (`model:PATH`, `onnx:PATH`, `search`'s
    /// `model=PATH`) a request may name; `None`: no path is accepted. Specs
    /// that run programs (`exec:`) are refused over the network whatever it is.
    pub models: Option<std::path::PathBuf>,
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig {
            host: "127.0.0.1".into(),
            port: 8042,
            defaults: Defaults::default(),
            idle_timeout: Duration::from_secs(3600),
            max_games: 1000,
            history: None,
            models: bones_policy::agent::shipped_model("texas42").and_then(|p| p.parent().map(|p| p.to_path_buf())),
        }
    }
}

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        /// `HOST:PORT`.
        addr: String,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The runtime could not be built.
    #[error("cannot start the server's runtime: {0}")]
    Runtime(std::io::Error),
    /// The game history cannot be used.
    #[error(transparent)]
    History(#[from] HistoryError),
}

/// What every handler shares.
struct App {
    store: Store,
    defaults: Defaults,
    models: SharedModels,
    /// The folder whose models a request may name.
    models_dir: Option<std::path::PathBuf>,
    history: Option<History>,
}

/// A running server (on its own thread).
pub struct WebServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl WebServer {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://ADDR/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Blocks until the server stops (it runs until the process ends).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Stops the server (open requests are finished first).
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Binds `config.host:config.port` and serves on a new thread.
pub fn start(config: WebConfig) -> Result<WebServer, StartError> {
    let history = config.history.as_deref().map(History::open).transpose()?;
    let addr = format!("{}:{}", config.host, config.port);
    let listener =
        std::net::TcpListener::bind(&addr).map_err(|error| StartError::Listen { addr: addr.clone(), error })?;
    listener.set_nonblocking(true).map_err(|error| StartError::Listen { addr: addr.clone(), error })?;
    let bound = listener.local_addr().map_err(|error| StartError::Listen { addr, error })?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("bones-web")
        .build()
        .map_err(StartError::Runtime)?;
    let app = Arc::new(App {
        store: Store::new(config.idle_timeout, config.max_games),
        defaults: config.defaults,
        models: SharedModels::new(),
        models_dir: config.models,
        history,
    });
    let listener = {
        let _in_runtime = runtime.enter();
        tokio::net::TcpListener::from_std(listener)
            .map_err(|error| StartError::Listen { addr: bound.to_string(), error })?
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("bones-web".into())
        .spawn(move || {
            runtime.block_on(async move {
                let sweeper = tokio::spawn(sweep(app.clone()));
                let served = axum::serve(listener, router(app)).with_graceful_shutdown(async {
                    let _ = stopped.await;
                });
                if let Err(e) = served.await {
                    eprintln!("error: the web server stopped: {e}");
                }
                sweeper.abort();
            });
        })
        .map_err(StartError::Runtime)?;
    Ok(WebServer { addr: bound, stop: Some(stop), thread: Some(thread) })
}

/// Drops idle games now and then, also when no request comes.
async fn sweep(app: Arc<App>) {
    let period = (app.store.idle() / 2).clamp(Duration::from_millis(50), Duration::from_secs(30));
    loop {
        tokio::time::sleep(period).await;
        app.store.sweep();
    }
}

/// The routes.
fn router(app: Arc<App>) -> Router {
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
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// The body as JSON.
fn body_json(body: Result<Bytes, BytesRejection>) -> Result<Value, WebError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            WebError::TooLarge(MAX_BODY)
        } else {
            WebError::Http { status: e.status().as_u16(), message: e.body_text() }
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| WebError::Json(e.to_string()))
}

/// A blocking job (bots thinking) off the async threads; a panic is an internal error.
async fn blocking<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> Result<T, WebError> {
    tokio::task::spawn_blocking(job).await.map_err(|e| WebError::Internal(format!("a game failed: {e}")))
}

/// A game, locked (a game whose bot panicked is dropped, so a poisoned lock is never used to play on).
fn lock(slot: &store::Slot) -> std::sync::MutexGuard<'_, Box<dyn Session>> {
    slot.lock().unwrap_or_else(|e| e.into_inner())
}

/// `GET /api/info`: the games, their strength levels and the agent specs the page offers.
async fn info(State(app): State<Arc<App>>) -> Response {
    let games: Vec<Value> = bones_env::GAMES
        .iter()
        .map(|g| json!({"name": g.name, "about": g.about, "players": g.players, "default_players": g.default_players, "deal": g.deal}))
        .collect();
    let mut levels = serde_json::Map::new();
    for g in bones_env::GAMES.iter() {
        let list: Vec<Value> = levels::levels(g.name, &app.models)
            .iter()
            .map(|l| json!({"name": l.name, "label": l.label, "about": l.about, "spec": l.spec.to_string()}))
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
        }),
    )
}

/// `POST /api/games`.
async fn create(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<Response, WebError> {
    let req = NewGame::parse(&body_json(body)?)?;
    req.check_remote(app.models_dir.as_deref())?;
    app.store.check_room()?;
    let shared = app.clone();
    let session = blocking(move || {
        let mut session = session::create(req, &shared.defaults, &shared.models)?;
        store_if_finished(&shared, session.as_mut());
        Ok::<_, WebError>(session)
    })
    .await??;
    let state = session.state();
    let id = app.store.insert(session)?;
    Ok(json_response(StatusCode::CREATED, &json!({"id": id, "state": state})))
}

/// `GET /api/games/{id}`.
async fn state(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, WebError> {
    let slot = app.store.get(&id)?;
    let state = blocking(move || lock(&slot).state()).await?;
    Ok(json_response(StatusCode::OK, &state))
}

/// `DELETE /api/games/{id}`.
async fn drop_game(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, WebError> {
    app.store.get(&id)?;
    app.store.remove(&id);
    Ok(json_response(StatusCode::OK, &json!({"id": id, "dropped": true})))
}

/// `POST /api/games/{id}/actions`.
async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, WebError> {
    let (action, ply) = action_of(&body_json(body)?)?;
    let slot = app.store.get(&id)?;
    let shared = app.clone();
    let played = blocking(move || {
        let mut session = lock(&slot);
        session.play(&action, ply, &shared.models)?;
        store_if_finished(&shared, session.as_mut());
        Ok(session.state())
    })
    .await;
    match played {
        Ok(Ok(state)) => Ok(json_response(StatusCode::OK, &state)),
        Ok(Err(e)) => Err(e),
        // A game whose bot panicked is not left half-played.
        Err(e) => {
            app.store.remove(&id);
            Err(e)
        }
    }
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
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Response, WebError> {
    let level = query(raw, &["level"])?.into_iter().next().map(|(_, v)| v);
    let slot = app.store.get(&id)?;
    let shared = app.clone();
    let answer = blocking(move || lock(&slot).hint(level.as_deref(), &shared.models)).await??;
    Ok(json_response(StatusCode::OK, &answer))
}

/// `GET /api/games/{id}/review/{deal}`.
async fn review(State(app): State<Arc<App>>, Path((id, deal)): Path<(String, String)>) -> Result<Response, WebError> {
    let deal: usize = deal.parse().map_err(|_| {
        let shown: String = deal.chars().take(20).collect();
        WebError::Request(format!(
            "bad hand number `{shown}`: expected 0 for the first finished hand, 1 for the next, …"
        ))
    })?;
    let slot = app.store.get(&id)?;
    let answer = blocking(move || lock(&slot).review(deal)).await??;
    Ok(json_response(StatusCode::OK, &answer))
}

/// `POST /api/replay`: every position of a finished game's record.
async fn replay_game(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<Response, WebError> {
    let record = body_json(body)?;
    let answer = blocking(move || replay::replay(&record, &app.models)).await??;
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
async fn history_record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, WebError> {
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
