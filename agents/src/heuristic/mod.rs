//! Rule-based players: [`Texas42Heuristic`] (the `heuristic` spec for Texas 42),
//! [`DoublesHeuristic`] (`heuristic` for Doubles) and [`HighestAgent`]
//! (`highest`, Doubles only). All act from the seat's view alone and are
//! deterministic (they never draw from the random stream).
//!
//! One file per game: [`texas42`] (the Texas 42 player and its hand
//! valuation) and [`doubles`] (the Doubles players). The players are
//! re-exported here.

pub mod doubles;
pub mod texas42;

pub use doubles::{DoublesHeuristic, HighestAgent};
pub use texas42::Texas42Heuristic;
