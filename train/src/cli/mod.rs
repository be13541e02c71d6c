//! Command-line arguments and dispatch.

mod bench;
mod eval;
mod export;
mod play;
mod play_view;
mod replay;
mod serve;
mod train;
mod web;

use anyhow::Result;
use bones_env::{AnyGame, GameError, GAMES};
use clap::builder::PossibleValuesParser;
use clap::{Parser, Subcommand};

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
    /// Serve a page to play against the bots in a browser (and its JSON API).
    Web(web::WebArgs),
}

/// Game and rules flags shared by commands.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    /// The game: `texas42` (four players, two partnerships) or `doubles` (the
    /// draw game, 2-4 players).
    #[arg(long, default_value = "texas42", value_parser = PossibleValuesParser::new(GAMES.map(|g| g.name)))]
    pub game: String,
    /// Rules: a preset name (`standard`, `full`) or a JSON rules object.
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// Players (Doubles: 2, 3 or 4, default 4; overrides `players` in --rules).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: Option<u8>,
}

impl GameArgs {
    /// The game, rules and player count these flags name (a usage error
    /// otherwise).
    pub fn game(&self) -> Result<AnyGame> {
        AnyGame::from_rules_text(&self.game, &self.rules, self.players.map(usize::from)).map_err(|e| {
            let flag = match e {
                GameError::Rules { .. } => "--rules",
                GameError::Players { .. } => "--players",
                GameError::Unknown(_) => "--game",
            };
            usage(format!("{flag}: {e}")).into()
        })
    }
}

/// A mistake in the command line: `bones` prints it and exits with status 2,
/// the same in every subcommand.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

/// A usage error from any message.
pub fn usage(msg: impl std::fmt::Display) -> Usage {
    Usage(msg.to_string())
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
        Command::Web(a) => web::run(a),
    }
}
