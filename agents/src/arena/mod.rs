//! The arena: agent A against agent B on duplicate deals, with confidence
//! intervals and ratings (`bones eval`).
//!
//! **Texas 42.** Each deal (a seed) is played twice with the teams swapping
//! seats: A as team 0 (seats 0 and 2) and B as team 1, then A as team 1. With
//! [`Amount::Games`] a deal is a whole game to the target (its later deals come
//! from the same random stream, so both games of a pair see the same deals); with
//! [`Amount::Hands`] a deal is one hand. Reported: games and hands played, A's
//! win rate (games, or hands when playing hands; a hand nobody scores counts a
//! half) with a Wilson 95% interval, A-minus-B marks (game points under `points`
//! scoring) and points taken per hand with 95% intervals (a normal approximation
//! over the duplicate pairs: a ratio estimate, each pair's total difference over
//! its hands), and the Elo difference from the win rate.
//!
//! **Doubles.** A takes one seat and B every other seat; each deal is played once
//! per seat with A's seat rotating. Reported: A's win rate (games to the target,
//! or rounds), `points_per_round` = A's round score minus the mean of the B seats'
//! scores, and the Elo difference of A against one B when A beats the field of
//! n-1 Bs with probability p under a Bradley-Terry model: `400 log10(p (n-1) / (1-p))`
//! (the usual formula for two players).
//!
//! **Determinism.** Deal `i`'s seed is a fixed mix of `(seed, i)`, and the agents'
//! random stream of each game a fixed mix of the deal seed and the seating. Work
//! is split by deal index over `std::thread::scope` threads, and results are
//! summed in deal order, so a report is the same for every thread count. Agents
//! are built once per thread and must act from the view and the given stream only.
//!
//! **Shards.** The deals of one evaluation can be played in pieces, anywhere:
//! [`evaluate_shard`] plays the deals `start..end` of the same seeded sequence and
//! returns a [`Shard`] (serde, so it travels as JSON between processes or
//! machines) holding each deal's own results, and [`merge_shards`] joins shards
//! that cover `0..`[`deal_count`] into the [`EvalReport`] that [`evaluate`] gives
//! for the same seed: the deals are summed in deal order, so every figure is the
//! same to the bit, whatever the split (only the wall-clock `agent_seconds`
//! differ, as they do between any two runs).
//!
//! One job per file: [`options`] (how much to play), [`runner`] (the deals
//! played, whole or in shards), [`pool`] (the worker threads), [`summary`]
//! (each deal's figures and the report summed from them), [`eval_report`]
//! (the report), [`stats`] (the
//! intervals and Elo), [`shard`] (shards and their merge), [`error`]. The
//! ratings of a round robin are [`crate::rating`]'s. The deal stream is
//! [`bones_env::seed::deal_seed`].

pub mod error;
pub mod eval_report;
pub mod options;
pub mod pool;
pub mod runner;
pub mod shard;
pub mod stats;
pub mod summary;

pub use bones_env::seed::deal_seed;
pub use error::{ArenaError, MergeError};
pub use eval_report::{Contracts, EvalReport};
pub use options::{deal_count, Amount, EvalOptions};
pub use pool::MakeAgent;
pub use runner::{evaluate, evaluate_shard, evaluate_shard_with, evaluate_with};
pub use shard::{merge_shards, shard_ranges, Shard};
pub use stats::{elo_from_score, elo_vs_field, mean_ci, ratio_ci, wilson, Estimate, Z95};
pub use summary::DealResult;

pub(crate) use options::episode_of;
pub(crate) use pool::Pooled;
pub(crate) use runner::{agent_rng, apply_action, check_range, record_so_far, report_of, shard_of};
pub(crate) use summary::{add_seating, Seating};
