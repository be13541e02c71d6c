//! Perfect-information Monte Carlo search, the `pimc[:worlds=N]` spec: sample
//! the hidden dominoes consistently with everything public, value every legal
//! action in each sampled world with perfect information, and pick the action
//! with the best total.
//!
//! - [`texas42`] (re-exported here): worlds drawn uniformly among the deals
//!   consistent with the record ([`worlds`], re-exported here:
//!   [`WorldSampler`]), each solved exactly by the open-hand
//!   [`Solver`](crate::Solver) ([`PimcAgent`]).
//! - [`doubles`]: worlds drawn uniformly among the hands and boneyards
//!   consistent with what the draws, passes and the opening proved
//!   ([`doubles::DoublesSampler`]), each played out to the end of the round by
//!   the Doubles heuristic at every seat ([`doubles::DoublesPimc`]).
//!
//! Both stream their worlds ([`stream`]): a decision holds one world at a
//! time, so memory does not grow with `worlds=N`.

mod deal;
pub mod doubles;
pub mod stream;
mod texas42;
mod worlds;

pub use stream::{Drawn, Worlds};
pub use texas42::*;
pub use worlds::*;
