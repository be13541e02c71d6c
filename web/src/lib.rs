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
//! let server = bones_web::start(bones_web::WebConfig::default()).unwrap();
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
mod routes;
pub mod session;
pub mod store;
pub mod table;

pub use error::WebError;
pub use history::{History, HistoryError};
pub use session::{Defaults, NewGame, Session};

use bones_agents::Limits;
use guard::{Client, GuardedListener, RateLimiter};
use models::SharedModels;
use pool::ThinkPool;
use std::collections::HashMap;
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
    /// Games open at most at once from one client address.
    pub per_client_games: usize,
    /// The SQLite file finished games are stored in (`None`: none are kept).
    pub history: Option<std::path::PathBuf>,
    /// The folder whose models (`model:PATH`, `onnx:PATH`, `search`'s
    /// `model=PATH`) a request may name; `None`: no path is accepted. Specs
    /// that run programs (`exec:`, `bridge:`) are refused over the network whatever it is.
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
                let service = routes::router(app).into_make_service_with_connect_info::<Client>();
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
