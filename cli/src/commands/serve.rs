//! `bones serve`: the JSON-lines bot protocol on stdin/stdout (one reply line per
//! request line; bad requests get error replies and the server keeps serving).

use super::args::usage;
use crate::protocol::{ModelSource, Server};
use anyhow::Result;
use bones_agents::AgentSpec;
use std::io::{BufRead, Write};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The policy: `default` (models/texas42 for Texas 42 records, models/doubles for
    /// Doubles records) or a model, run or checkpoint folder.
    #[arg(long, default_value = "default")]
    pub model: String,
    /// Serve any agent spec instead of a model (`heuristic`, `pimc:worlds=16`,
    /// `search`, `model:PATH`, ...; `bones agents` lists them): replies carry the action only.
    #[arg(long, conflicts_with_all = ["model", "sample"])]
    pub agent: Option<String>,
    /// Sample the action from the policy instead of taking the most probable one (needs --seed).
    #[arg(long, requires = "seed")]
    pub sample: bool,
    /// Seed of the random stream (with --sample or --agent): the same requests in the same order get
    /// the same replies.
    #[arg(long)]
    pub seed: Option<u64>,
}

pub fn run(args: ServeArgs) -> Result<i32> {
    if args.seed.is_some() && !args.sample && args.agent.is_none() {
        return Err(usage("--seed seeds the stream of --sample or --agent; give one of them").into());
    }
    let mut server = match &args.agent {
        Some(spec) => {
            Server::with_agent(AgentSpec::parse(spec).map_err(|e| usage(format!("--agent: {e}")))?, args.seed)
        }
        None => Server::new(ModelSource::parse(&args.model), args.seed),
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = server.handle_line(&line);
        serde_json::to_writer(&mut out, &reply)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(0)
}
