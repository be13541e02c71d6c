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
//! most `max_games` are open, `per_client_games` from one address ([`store`]).
//!
//! Nothing a request does takes the server down: a spec is accepted only
//! within the server's [`Limits`] (worlds, pool, exact); bots think on a
//! bounded pool of the server's own ([`pool`]: a full queue or a long wait is
//! a 503 with a Retry-After) while state reads answer from the game's last
//! state without waiting; a bot that fails or panics ends its game with a
//! message naming it, and the server goes on; connections and request rates
//! are bounded per address ([`guard`]); a request body must arrive within
//! `body_timeout`.
//!
//! ```no_run
//! let server = bones_cli::web::start(bones_cli::web::WebConfig::default()).unwrap();
//! println!("{}", server.url());
//! server.wait();
//! ```

pub mod assets;
pub mod deals;
pub mod error;
pub mod guard;
pub mod history;
pub mod how;
pub mod layout;
pub mod levels;
pub mod models;
pub mod pool;
pub mod replay;
pub mod session;
pub mod store;
pub mod table;

pub use error::WebError;
pub use history::{History, HistoryError};
pub use session::{Defaults, NewGame, Session};

use axum::body::Body;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, RawQuery, Request, State};
use axum::http::{StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use bones_agents::spec::grammar;
use bones_agents::Limits;
use error::json_response;
use guard::{Client, GuardedListener, RateLimiter};
use levels::{Pick, DEFAULT_LEVEL};
use models::SharedModels;
use pool::ThinkPool;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use store::{Game, Store};

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
    /// Games open at most at once from one client address.
    pub per_client_games: usize,
    /// The SQLite file finished games are stored in (`None`: none are kept).
    pub history: Option<std::path::PathBuf>,
    /// The folder whose models (`model:PATH`, `onnx:PATH`, `search`'s
    /// `model=PATH`) a request may name; `None`: no path is accepted. Specs
    /// that run programs (`exec:`) are refused over the network whatever it is.
    pub models: Option<std::path::PathBuf>,
    /// The folder of the shipped models the levels play (`GAME/` in it;
    /// default: where `bones` finds them; `None`: none, the levels play
    /// without networks).
    pub shipped_models: Option<std::path::PathBuf>,
    /// The most a request's agent spec may ask for per decision.
    pub limits: Limits,
    /// Threads the bots think on (0: one per core).
    pub think_threads: usize,
    /// Requests waiting for the bots at most (more are answered 503).
    pub think_queue: usize,
    /// The longest a request waits for the bots before it is answered 503.
    pub think_wait: Duration,
    /// API requests a second per client address on average (0: no limit).
    pub rate: u32,
    /// API requests one address may make at once before the rate applies.
    pub burst: u32,
    /// Connections open at most at once.
    pub max_connections: usize,
    /// Connections open at most at once from one address.
    pub per_client_connections: usize,
    /// A connection with no traffic for this long is closed.
    pub connection_idle: Duration,
    /// A request body must arrive within this long.
    pub body_timeout: Duration,
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig {
            host: "127.0.0.1".into(),
            port: 8042,
            defaults: Defaults::default(),
            idle_timeout: Duration::from_secs(3600),
            max_games: 1000,
            per_client_games: 20,
            history: None,
            models: shipped_dir(),
            shipped_models: shipped_dir(),
            limits: Limits::default(),
            think_threads: 0,
            think_queue: 64,
            think_wait: Duration::from_secs(10),
            rate: 20,
            burst: 60,
            max_connections: 1024,
            per_client_connections: 32,
            connection_idle: Duration::from_secs(120),
            body_timeout: Duration::from_secs(10),
        }
    }
}

/// The folder `bones` finds the shipped models in (`--models`, `BONES_MODELS`,
/// beside the program, `./models`: [`bones_policy::agent::models_search`]).
fn shipped_dir() -> Option<std::path::PathBuf> {
    bones_policy::agent::models_search().found.map(|place| place.path)
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
    models: Arc<SharedModels>,
    /// The folder whose models a request may name.
    models_dir: Option<std::path::PathBuf>,
    history: Option<History>,
    limits: Limits,
    pool: ThinkPool,
    rate: RateLimiter,
    body_timeout: Duration,
    /// Why each level that cannot play here cannot (by game and level).
    unavailable: HashMap<(&'static str, &'static str), String>,
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
    // The async threads only route and read; bots think on the pool, and the
    // blocking threads only touch the history file.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .worker_threads(2)
        .max_blocking_threads(8)
        .thread_name("bones-web")
        .build()
        .map_err(StartError::Runtime)?;
    let threads = match config.think_threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let models = Arc::new(SharedModels::new(config.shipped_models));
    let app = Arc::new(App {
        store: Store::new(config.idle_timeout, config.max_games, config.per_client_games),
        defaults: config.defaults,
        unavailable: levels::check_all(models.as_ref()),
        models,
        models_dir: config.models,
        history,
        limits: config.limits,
        pool: ThinkPool::new(threads, config.think_queue, config.think_wait).map_err(StartError::Runtime)?,
        rate: RateLimiter::new(config.rate, config.burst),
        body_timeout: config.body_timeout,
    });
    let listener = {
        let _in_runtime = runtime.enter();
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|error| StartError::Listen { addr: bound.to_string(), error })?;
        GuardedListener::new(listener, config.max_connections, config.per_client_connections, config.connection_idle)
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("bones-web".into())
        .spawn(move || {
            runtime.block_on(async move {
                let sweeper = tokio::spawn(sweep(app.clone()));
                let service = router(app).into_make_service_with_connect_info::<Client>();
                let served = axum::serve(listener, service).with_graceful_shutdown(async {
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
        app.rate.sweep();
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
