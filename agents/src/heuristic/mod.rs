//! Rule-based players: [`texas42::Texas42Heuristic`] (the `heuristic` spec for Texas 42),
//! [`doubles::DoublesHeuristic`] (`heuristic` for Doubles) and [`doubles::HighestAgent`]
//! (`highest`, Doubles only). All act from the seat's view alone and are
//! deterministic (they never draw from the random stream).
//!
//! One file per game: [`texas42`] (the Texas 42 player and its hand
//! valuation) and [`doubles`] (the Doubles players).

pub mod doubles;
pub mod texas42;
