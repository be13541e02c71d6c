//! Agents for Bones (to come: random, heuristic, PIMC, arena).
//!
//! - [`solver`]: exact open-hand (double-dummy) solver for the Texas 42 play phase.
//! - [`pimc`]: perfect-information Monte Carlo search over sampled worlds (`pimc[:worlds=N]`).

pub mod solver;

pub use solver::Solver;

pub mod agent;
pub mod arena;
pub mod heuristic;
pub mod pimc;
pub mod random;

pub use agent::{
    register_model_loaders, Agent, AgentRng, AgentSpec, DoublesView, ModelLoader, SeatView, SpecError, Texas42View,
    ViewState,
};
pub use arena::{eval_doubles, eval_texas42, Amount, Contracts, EvalOptions, EvalReport};
