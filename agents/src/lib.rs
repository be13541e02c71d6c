//! Agents for Bones (to come: random, heuristic, PIMC, arena).
//!
//! - [`solver`]: exact open-hand (double-dummy) solver for the Texas 42 play phase.

pub mod solver;

pub use solver::Solver;
