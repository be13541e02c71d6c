//! How much an evaluation plays: the amount, the seed and threads, and the
//! duplicate deals that makes.

use super::error::ArenaError;
use bones_env::Episode;
use serde::{Deserialize, Serialize};

/// How much to play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Amount {
    /// Whole games (to the target), in total over both seatings.
    Games(u64),
    /// Single hands (Texas 42) or rounds (Doubles), in total over all seatings.
    Hands(u64),
}

/// Evaluation settings shared by both games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalOptions {
    /// How much to play (rounded up to whole duplicate groups).
    pub amount: Amount,
    /// Base seed of the deals.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
}

/// The episode a deal of `amount` is: a whole game or one hand.
pub(crate) fn episode_of(amount: Amount) -> Episode {
    match amount {
        Amount::Games(_) => Episode::Game,
        Amount::Hands(_) => Episode::Hand,
    }
}

/// The duplicate deals an evaluation of `amount` plays when each deal is played
/// once per each of `seatings` (the game's sides): the amount rounded up to whole
/// deals. With [`Amount::Games`] a deal is a whole game.
pub fn deal_count(amount: Amount, seatings: usize) -> Result<u64, ArenaError> {
    let n = match amount {
        Amount::Games(n) | Amount::Hands(n) => n,
    };
    if n == 0 {
        return Err(ArenaError::Empty);
    }
    Ok(n.div_ceil(seatings.max(1) as u64))
}
