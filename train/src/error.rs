//! Why a training run stopped with an error.

use crate::checkpoint;
use bones_agents::AgentFailure;

/// Why training stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A checkpoint could not be written or read.
    #[error(transparent)]
    Checkpoint(#[from] checkpoint::CheckpointError),
    /// The run folder could not be written.
    #[error("run folder {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The configuration is invalid.
    #[error("bad config: {0}")]
    Config(String),
    /// `--resume` found a checkpoint of another configuration.
    #[error("cannot resume: {0}")]
    Resume(String),
    /// The teacher or the frozen opponent (config `teacher`, `opponent`) could
    /// not choose: an outside program that crashed, hung or replied badly.
    #[error("the {role} `{agent}` failed at seat {seat}: {failure}")]
    Agent {
        /// `teacher` or `opponent`.
        role: &'static str,
        /// The agent's spec.
        agent: String,
        /// The seat it played.
        seat: usize,
        /// What went wrong.
        failure: AgentFailure,
    },
    /// A rollout worker (`workers = N`) stopped without sending its rollout.
    #[error("rollout worker {worker} stopped without sending its rollout of update {update} (it panicked)")]
    Worker {
        /// The worker's number (0-based).
        worker: usize,
        /// The update whose rollout it owed.
        update: u64,
    },
    /// Bytes handed to a remote half of the actor-learner (`remote`) that are
    /// not what it expects: weights, a pool or a rollout shard of another run,
    /// game or update, or no such message at all.
    #[error("bad {what}: {reason}")]
    Wire {
        /// What the bytes were supposed to be.
        what: &'static str,
        /// What is wrong with them.
        reason: String,
    },
    /// A remote learner (`remote::Learner`) was called after an update failed.
    #[error(
        "the learner stopped after an earlier error; start it again with `resume` to continue from its last checkpoint"
    )]
    Stopped,
    /// The update produced a non-finite loss.
    #[error("training diverged at update {update}: {what} is not finite")]
    Diverged {
        /// The update.
        update: u64,
        /// Which statistic.
        what: &'static str,
    },
}
