//! Command-line arguments and dispatch.

mod bench;
mod replay;

use anyhow::{Context, Result};
use bones_env::rules::parse_rules_arg;
use bones_env::Texas42Rules;
use clap::{Parser, Subcommand, ValueEnum};

/// Bones: Texas 42 and Doubles as a reinforcement-learning playground.
#[derive(Parser, Debug)]
#[command(name = "bones", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate and annotate game records (JSON lines) from FILE or `-` (stdin).
    Replay(replay::ReplayArgs),
    /// Measure engine speed: random play, encoded play, VecEnv steps.
    Bench(bench::BenchArgs),
}

/// The games.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameName {
    /// Texas 42 (four players, two partnerships).
    Texas42,
}

/// Game and rules flags shared by commands.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "texas42")]
    pub game: GameName,
    /// Rules: a preset name (`standard`, `full`) or a JSON rules object.
    #[arg(long, default_value = "standard")]
    pub rules: String,
}

impl GameArgs {
    /// The Texas 42 rules given by `--rules`.
    pub fn texas42_rules(&self) -> Result<Texas42Rules> {
        let v = parse_rules_arg(&self.rules).context("--rules")?;
        Texas42Rules::from_json(&v).context("--rules")
    }
}

/// Runs a parsed command; returns the process exit status.
pub fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Replay(a) => replay::run(a),
        Command::Bench(a) => bench::run(a),
    }
}
