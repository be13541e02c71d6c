//! Agents for Bones and the arena that measures them.
//!
//! - [`agent`]: the [`Agent`] trait (an agent acts from one seat's view only).
//! - [`spec`]: agent specs (`random`, `heuristic`, `pimc:worlds=16`, `search`, `model:PATH`, …) and
//!   their grammar, one table (`bones agents` prints it).
//! - [`removed`]: what was tried and taken out (spec options and words, training config keys), one
//!   list that the spec grammar and the config readers refuse by name.
//! - [`policy`]: trained policies as agents use them ([`Policy`], [`PolicyLoader`]).
//! - [`game`]: what the agents, the arena, the review and the resamplers need of
//!   a game ([`AgentGame`]), one impl per game: the compiler lists what a new
//!   game must fill.
//! - [`factory`]: builds the agent of a spec for any game; trained policies come
//!   from a [`PolicyLoader`] the caller passes in.
//! - [`table`]: the seat driver: a game with agents in some seats and outside
//!   players (a person, Python, a protocol client) in the others; it plays the
//!   agents until an outside seat must move.
//! - [`random`], [`heuristic`]: baselines; [`solver`]: the exact open-hand solver
//!   of the Texas 42 play phase; [`pimc`]: perfect-information Monte Carlo search
//!   over sampled worlds; [`search`]: a trained policy and the solver together
//!   (worlds weighted by the policy's reading of the other seats' actions);
//!   [`infoset`]: its information-set continuation (the
//!   end of the hand searched over all the worlds at once, every seat making
//!   one play per information set).
//! - [`review`]: a finished deal reviewed for one seat (what `bones web` shows and
//!   `bones replay --review` prints): a Texas 42 hand's plays against the
//!   solver's best with all hands open and its bids against another agent's; a
//!   Doubles round's choices against `pimc`.
//! - [`arena`]: A against B on duplicate deals, with intervals and Elo (`bones eval`),
//!   whole or in shards that merge to the same report; [`report`]: its JSON form;
//!   [`batched`]: the same arena with players that decide many seats at once
//!   (a Python callable over numpy arrays).
//! - [`exec`], [`bridge`]: outside programs as agents, sent only their seat's
//!   view: the bot protocol (JSON) and walt's bridge line protocol (integers).
//! - [`resample`]: a state with the hidden dominoes drawn again uniformly for
//!   one seat (for search agents written outside Bones).
//! - [`benchmark`]: the standard, versioned benchmark (an agent against a fixed
//!   gauntlet on fixed deals) and its scorecard (`bones benchmark`);
//!   [`rating`]: ladder ratings (a round robin, the fitted Elo and its intervals);
//!   [`timing`]: one agent's time per decision (`bones bench --agent`).

#![warn(missing_docs)]

pub mod agent;
pub mod arena;
pub mod batched;
pub mod benchmark;
pub mod bridge;
pub mod exec;
pub mod factory;
pub mod game;
pub mod heuristic;
pub mod infoset;
pub mod pimc;
pub mod policy;
mod program;
pub mod random;
pub mod rating;
pub mod removed;
pub mod report;
pub mod resample;
pub mod review;
pub mod search;
pub mod seat_request;
pub mod solver;
pub mod spec;
pub mod table;
pub mod timing;

pub use agent::{act_contained, explain_contained, ActionValues, Agent, AgentFailure, AgentRng, Explained, ViewOf};
pub use arena::{
    evaluate, evaluate_shard, evaluate_with, merge_shards, Amount, Contracts, EvalOptions, EvalReport, Shard,
};
pub use factory::AgentFactory;
pub use game::{resample, AgentGame};
pub use policy::{legal_prob, ObservingAgent, Policy, PolicyLoader};
pub use search::SearchAgent;
pub use solver::Solver;
pub use spec::{AgentSpec, Continuation, Limits, SearchOptions, SpecError};
pub use table::{AgentError, Bare, Board, DecideError, Played, Refusal, Seats, Table, TableError};
