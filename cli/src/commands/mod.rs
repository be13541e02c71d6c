//! The subcommands of `bones`: one module each (its arguments and what it
//! runs), dispatched by [`run`]; [`args`] holds what several share.

mod agents;
pub mod args;
mod bench;
mod benchmark;
mod eval;
mod exploit;
mod export;
mod play;
mod replay;
mod serve;
mod train;
mod web;

use anyhow::Result;
pub use args::{usage, GameArgs, Usage};
use bones_policy::agent::{models_search, set_models_dir};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Bones: Texas 42 and Doubles as a reinforcement-learning playground.
#[derive(Parser, Debug)]
#[command(name = "bones", version, long_version = long_version(), about)]
#[command(after_help = "The shipped models (the bots' default networks) are looked for in --models DIR, else in \
     the folder the BONES_MODELS environment variable names, else in a `models` folder next to the program, \
     else in ./models; `bones agents` says where they were found.")]
pub struct Cli {
    /// The folder of the shipped models (`DIR/texas42`, `DIR/doubles`), before
    /// the command: `bones --models DIR COMMAND …` [default: $BONES_MODELS, else
    /// `models` next to the program, else ./models].
    #[arg(long, value_name = "DIR")]
    models: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

/// `bones --version`: the version, and where the shipped models are found
/// without `--models` (looked up once per process).
fn long_version() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let search = models_search();
        format!("{}\n{}\n{}", env!("CARGO_PKG_VERSION"), search.looked_line(), search.found_line())
    })
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Train a policy by PPO self-play (default: the cpu-quick preset).
    Train(train::TrainArgs),
    /// Validate and annotate game records (JSON lines) from FILE or `-` (stdin).
    Replay(replay::ReplayArgs),
    /// Measure engine speed (random play, encoded play, VecEnv steps), or with --agent one agent's time per decision.
    Bench(bench::BenchArgs),
    /// Evaluate agent A against agent B on duplicate deals (or a ladder of agents).
    Eval(eval::EvalArgs),
    /// The standard benchmark: an agent against a fixed gauntlet on fixed deals, as a scorecard.
    Benchmark(benchmark::BenchmarkArgs),
    /// How exploitable an agent is: train a best response against it, report what it wins.
    Exploit(exploit::ExploitArgs),
    /// Play one seat in the terminal against bots (a whole game).
    Play(play::PlayArgs),
    /// Export a trained policy as a model folder (ONNX, safetensors, burn weights, model.json).
    Export(export::ExportArgs),
    /// Serve a policy as a bot: JSON-lines requests on stdin, replies on stdout.
    Serve(serve::ServeArgs),
    /// Serve a page to play against the bots in a browser (and its JSON API).
    Web(web::WebArgs),
    /// List the agent specs: every agent, its options, their values and defaults.
    Agents(agents::AgentsArgs),
}

/// Runs a parsed command; returns the process exit status. `--models DIR`
/// is set for the whole process first ([`set_models_dir`]); a `--models` or
/// `BONES_MODELS` folder that does not exist is a usage error, whatever the
/// command (`bones agents` lists where it looked first).
pub fn run(cli: Cli) -> Result<i32> {
    if let Some(dir) = cli.models {
        set_models_dir(Some(dir));
    }
    let search = models_search();
    if let (Some(e), false) = (&search.error, matches!(cli.command, Command::Agents(_))) {
        return Err(usage(e).into());
    }
    match cli.command {
        Command::Train(a) => train::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Benchmark(a) => benchmark::run(a),
        Command::Exploit(a) => exploit::run(a),
        Command::Play(a) => play::run(a),
        Command::Export(a) => export::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Web(a) => web::run(a),
        Command::Agents(a) => agents::run(a, &search),
    }
}
