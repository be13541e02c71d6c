//! `bones web`: serves the page to play Texas 42 and Doubles against the bots in
//! a browser, and its JSON API (`crate::web`).

use crate::web::{start, Defaults, WebConfig};
use anyhow::Result;
use bones_agents::spec::VALID_SPECS;
use bones_agents::AgentSpec;
use std::time::Duration;

#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Open the printed address in a browser. Bots are agent specs: {VALID_SPECS}; the page may choose \
     others for each game. Without --opponents/--partner the bots are the shipped model of the game \
     (`model:models/texas42` or `model:models/doubles`), or `heuristic` where it is missing. \
     The JSON API is described in docs/interfaces.md (`bones web`: the browser API)."
))]
pub struct WebArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8042)]
    pub port: u16,
    /// The address to listen on; the default serves this machine only (`0.0.0.0`: every interface).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The opponents when the page names none (Doubles: every other seat) [default: the shipped model, else heuristic].
    #[arg(long, value_name = "SPEC")]
    pub opponents: Option<String>,
    /// Your partner when the page names none (Texas 42) [default: the shipped model, else heuristic].
    #[arg(long, value_name = "SPEC")]
    pub partner: Option<String>,
    /// Games left idle this many seconds are dropped.
    #[arg(long, value_name = "SECS", default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
    /// Games open at most at once (a new game is refused beyond it).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_games: u64,
}

fn spec(flag: &Option<String>, name: &str) -> Result<Option<AgentSpec>> {
    flag.as_deref()
        .map(|s| AgentSpec::parse(s).map_err(|e| super::args::usage(format!("{name}: {e}")).into()))
        .transpose()
}

pub fn run(args: WebArgs) -> Result<i32> {
    let defaults =
        Defaults { opponents: spec(&args.opponents, "--opponents")?, partner: spec(&args.partner, "--partner")? };
    let config = WebConfig {
        host: args.host,
        port: args.port,
        defaults,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        max_games: args.max_games as usize,
    };
    let server = start(config)?;
    println!("Bones web: open {} in a browser (Ctrl-C stops)", server.url());
    server.wait();
    Ok(0)
}
