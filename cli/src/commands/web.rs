//! `bones web`: serves the page to play Texas 42 and Doubles against the bots in
//! a browser, and its JSON API (the bones-web crate).

use anyhow::Result;
use bones_agents::spec::{grammar, limits};
use bones_agents::Limits;
use bones_web::history::default_path;
use bones_web::levels::{Pick, LEVEL_NAMES};
use bones_web::{start, Defaults, WebConfig};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Open the printed address in a browser. Bots are strength levels ({}) or agent specs: {specs}; \
     the page may choose others for each game. Without --opponents/--partner the bots play the `normal` \
     level: the shipped model of the game (`model:models/texas42` or `model:models/doubles`), or \
     `heuristic` where it is missing. Finished games are kept in a SQLite file (--db). \
     The JSON API is described in docs/interfaces/web.md (`bones web`: the browser API).",
    LEVEL_NAMES.join(", "),
    specs = grammar::summary()
))]
pub struct WebArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8042)]
    pub port: u16,
    /// The address to listen on; the default serves this machine only (`0.0.0.0`: every interface).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The opponents when the page names none (Doubles: every other seat): a level or a spec [default: normal].
    #[arg(long, value_name = "LEVEL|SPEC")]
    pub opponents: Option<String>,
    /// Your partner when the page names none (Texas 42): a level or a spec [default: normal].
    #[arg(long, value_name = "LEVEL|SPEC")]
    pub partner: Option<String>,
    /// Games left idle this many seconds are dropped.
    #[arg(long, value_name = "SECS", default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
    /// Games open at most at once (a new game is refused beyond it).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_games: u64,
    /// The SQLite file finished games are kept in (`none`: keep none)
    /// [default: bones/history.sqlite3 under the user's data folder].
    #[arg(long, value_name = "PATH|none")]
    pub db: Option<String>,
    /// The folder whose models a page may name in a spec (`model:PATH`, `onnx:PATH`; `none`: no paths)
    /// [default: the shipped models' folder]. `exec:` and `bridge:` specs are never accepted from the page.
    #[arg(long, value_name = "DIR|none")]
    pub models: Option<String>,
    /// Games open at most at once from one client address.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    pub per_client_games: u64,
    /// Most worlds a page's spec may ask for per decision (`pimc:worlds`, `search:worlds`).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_WORLDS as u64,
          value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub max_worlds: u64,
    /// Most worlds a page's `search` spec may sample and weigh per decision (`pool`).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_POOL as u64,
          value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub max_pool: u64,
    /// Most tricks a page's `search` spec may search by information set (`exact`).
    #[arg(long, value_name = "K", default_value_t = limits::DEFAULT_MAX_EXACT as u64,
          value_parser = clap::value_parser!(u64).range(1..=7))]
    pub max_exact: u64,
    /// Threads the bots think on (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: u64,
    /// Requests that may wait for the bots at once (more are answered 503 with a Retry-After).
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    pub queue: u64,
    /// API requests a second per client address, on average (bursts of 3 seconds' worth; 0: no limit).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub rate: u32,
}

fn pick(flag: &Option<String>, name: &str) -> Result<Option<Pick>> {
    flag.as_deref().map(|s| Pick::parse(s).map_err(|e| super::args::usage(format!("{name}: {e}")).into())).transpose()
}

/// The history file `--db` names (`None`: keep none).
fn history(flag: &Option<String>) -> Result<Option<PathBuf>> {
    match flag.as_deref() {
        Some("none") => Ok(None),
        Some("") => Err(super::args::usage("--db: expected a file path, or `none` to keep no history").into()),
        Some(path) => Ok(Some(PathBuf::from(path))),
        None => default_path().map(Some).ok_or_else(|| {
            super::args::usage("--db: no user data folder is known here (HOME is unset): give --db PATH or --db none")
                .into()
        }),
    }
}

pub fn run(args: WebArgs) -> Result<i32> {
    let defaults =
        Defaults { opponents: pick(&args.opponents, "--opponents")?, partner: pick(&args.partner, "--partner")? };
    let history = history(&args.db)?;
    let config = WebConfig {
        host: args.host,
        port: args.port,
        defaults,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        max_games: args.max_games as usize,
        history: history.clone(),
        models: match args.models.as_deref() {
            Some("none") => None,
            Some(dir) => Some(PathBuf::from(dir)),
            None => WebConfig::default().models,
        },
        per_client_games: args.per_client_games as usize,
        limits: Limits { worlds: args.max_worlds as u32, pool: args.max_pool as u32, exact: args.max_exact as u8 },
        think_threads: args.threads as usize,
        think_queue: args.queue as usize,
        rate: args.rate,
        burst: args.rate.saturating_mul(3).max(1),
        ..WebConfig::default()
    };
    let server = start(config)?;
    println!("Bones web: open {} in a browser (Ctrl-C stops)", server.url());
    match history {
        Some(path) => println!("Finished games are kept in {} (--db none keeps none)", path.display()),
        None => println!("Finished games are not kept (--db none)"),
    }
    server.wait();
    Ok(0)
}
