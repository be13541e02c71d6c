//! Why an evaluation failed, and why shards could not be merged.

use super::eval_report::EvalReport;
use crate::agent::AgentFailure;
use crate::spec::SpecError;

/// Why an evaluation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ArenaError {
    /// An agent spec cannot be built for this game.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// An agent chose an illegal action.
    #[error(
        "agent `{agent}` chose the illegal action `{action}` at seat {seat} (deal seed {deal_seed}); legal: {legal:?}"
    )]
    Illegal {
        /// The agent's spec.
        agent: String,
        /// Its seat.
        seat: usize,
        /// The action's name.
        action: String,
        /// The legal actions' names.
        legal: Vec<String>,
        /// The seed of the deal.
        deal_seed: u64,
    },
    /// An agent could not choose (an outside program crashed, hung or replied
    /// badly).
    #[error("agent `{agent}` at seat {seat} failed: {failure}; the record so far: {record}")]
    Failed {
        /// The agent's spec.
        agent: String,
        /// Its seat.
        seat: usize,
        /// What went wrong, what came back, what was expected.
        failure: Box<AgentFailure>,
        /// The game so far as a record (one JSON line, `bones replay` reads it).
        record: String,
    },
    /// A batched player ([`crate::batched::BatchPlayer`]) could not decide a
    /// batch (it failed, or returned the wrong number of actions).
    #[error("agent `{agent}` failed on a batch of {rows} seats: {failure}")]
    BatchFailed {
        /// The player's name.
        agent: String,
        /// Rows in the batch.
        rows: usize,
        /// What went wrong, what came back, what was expected.
        failure: Box<AgentFailure>,
    },
    /// An evaluation stopped by `cause` after some deals were finished: their
    /// report is kept.
    #[error("{cause} ({} deals were finished before it stopped)", finished.deals)]
    Stopped {
        /// Why it stopped.
        cause: Box<ArenaError>,
        /// The report of the deals finished before it stopped.
        finished: Box<EvalReport>,
    },
    /// Nothing to play.
    #[error("nothing to play: ask for at least one game or hand")]
    Empty,
    /// A shard's deals are not deals of the evaluation.
    #[error("deals {start}..{end} are not a range of this evaluation's deals 0..{deals}")]
    Range {
        /// First deal asked for.
        start: u64,
        /// One past the last deal asked for.
        end: u64,
        /// The evaluation's deals.
        deals: u64,
    },
}

/// Why shards cannot be merged into one report.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// No shard given.
    #[error("no shards to merge")]
    NoShards,
    /// Two shards (or a shard and the game) are not of the same evaluation.
    #[error("shards of different evaluations: {field} is {found} in one and {expected} in another")]
    Mismatch {
        /// What differs (`game`, `agents`, `amount`, `seed`, `players`, `sides`).
        field: &'static str,
        /// The first shard's value (or the game's).
        expected: String,
        /// The other value.
        found: String,
    },
    /// The shards do not cover the deals exactly once, in order.
    #[error("the shards do not cover deals 0..{deals} exactly once: {detail}")]
    Coverage {
        /// The evaluation's deals.
        deals: u64,
        /// The first gap or overlap.
        detail: String,
    },
}
