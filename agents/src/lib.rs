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

pub use agent::{register_model_loaders, Agent, AgentRng, AgentSpec, ModelLoader, SpecError};
pub use arena::{eval_doubles, eval_texas42, Amount, Contracts, EvalOptions, EvalReport};
pub use bones_env::{DoublesView, SeatView, Texas42View};
