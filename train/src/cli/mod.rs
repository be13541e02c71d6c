//! Command-line arguments and dispatch.

mod bench;
mod eval;
mod export;
mod play;
mod play_view;
mod replay;
mod serve;
mod train;

use anyhow::{ensure, Context, Result};
use bones_env::rules::parse_rules_arg;
use bones_env::rules::DoublesRules;
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
    /// Train a policy by PPO self-play (default: the cpu-quick preset).
    Train(train::TrainArgs),
    /// Validate and annotate game records (JSON lines) from FILE or `-` (stdin).
    Replay(replay::ReplayArgs),
    /// Measure engine speed: random play, encoded play, VecEnv steps.
    Bench(bench::BenchArgs),
    /// Evaluate agent A against agent B on duplicate deals (or a ladder of agents).
    Eval(eval::EvalArgs),
    /// Play one seat in the terminal against bots (a whole game).
    Play(play::PlayArgs),
    /// Export a trained policy as a model folder (ONNX, safetensors, burn weights, model.json).
    Export(export::ExportArgs),
    /// Serve a policy as a bot: JSON-lines requests on stdin, replies on stdout.
    Serve(serve::ServeArgs),
}

/// The games.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameName {
    /// Texas 42 (four players, two partnerships).
    Texas42,
    /// Doubles (the draw game; 2-4 players, every double a spinner).
    Doubles,
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
    /// Players (Doubles: 2, 3 or 4; default 4).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: Option<u8>,
}

impl GameArgs {
    /// The Texas 42 rules given by `--rules`.
    pub fn texas42_rules(&self) -> Result<Texas42Rules> {
        ensure!(self.players.is_none_or(|p| p == 4), "--players: Texas 42 is played by 4");
        let v = parse_rules_arg(&self.rules).context("--rules")?;
        Texas42Rules::from_json(&v).context("--rules")
    }

    /// The Doubles rules given by `--rules` and `--players`.
    pub fn doubles_rules(&self) -> Result<DoublesRules> {
        let v = parse_rules_arg(&self.rules).context("--rules")?;
        let mut rules = DoublesRules::from_json(&v).context("--rules")?;
        if let Some(p) = self.players {
            rules.players = p;
        }
        Ok(rules)
    }
}

/// Runs a parsed command; returns the process exit status.
pub fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Train(a) => train::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Play(a) => play::run(a),
        Command::Export(a) => export::run(a),
        Command::Serve(a) => serve::run(a),
    }
}
