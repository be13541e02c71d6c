//! What several subcommands share: the game and rules flags, the worker
//! thread count, and the usage error (exit status 2).

use anyhow::Result;
use bones_env::{AnyGame, GameError, GAMES};
use clap::builder::PossibleValuesParser;

/// Game and rules flags shared by commands.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    /// The game: `texas42` (four players, two partnerships) or `doubles` (the
    /// draw game, 2-4 players).
    #[arg(long, default_value = "texas42", value_parser = PossibleValuesParser::new(GAMES.map(|g| g.name)))]
    pub game: String,
    /// Rules: a preset name (`standard`, `full`, `dropped30`) or a JSON rules object.
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

/// The worker threads a `--threads` flag asks for: all cores when it is left
/// out; 0 is a usage error.
pub fn threads(given: Option<usize>) -> Result<usize, Usage> {
    match given.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())) {
        0 => Err(usage("--threads must be at least 1")),
        n => Ok(n),
    }
}
