//! `bones serve`: the JSON-lines bot protocol on stdin/stdout (one reply line per
//! request line; bad requests get error replies and the server keeps serving).

use anyhow::Result;
use bones_train::serve::{ModelSource, Server};
use std::io::{BufRead, Write};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The policy: `default` (models/texas42 for Texas 42 records, models/doubles for
    /// Doubles records) or a model, run or checkpoint folder.
    #[arg(long, default_value = "default")]
    pub model: String,
    /// Sample the action from the policy instead of taking the most probable one (needs --seed).
    #[arg(long, requires = "seed")]
    pub sample: bool,
    /// Seed of the sampling stream (with --sample): the same requests in the same order get the same replies.
    #[arg(long, requires = "sample")]
    pub seed: Option<u64>,
}

pub fn run(args: ServeArgs) -> Result<i32> {
    let mut server = Server::new(ModelSource::parse(&args.model), args.seed);
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
