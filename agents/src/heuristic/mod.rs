//! Rule-based players: [`texas42::Texas42Heuristic`] (the `heuristic` spec for Texas 42),
//! [`doubles::DoublesHeuristic`] (`heuristic` for Doubles) and [`doubles::HighestAgent`]
//! (`highest`, Doubles only). All act from the seat's view alone and are
//! deterministic (they never draw from the random stream).
//!
//! One module per game: [`texas42`] (the Texas 42 player: its bidding and
//! declaring, its hand valuation and its play, a file each) and [`doubles`]
//! (the Doubles players).

pub mod doubles;
pub mod texas42;
