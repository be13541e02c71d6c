//! Why a training run stopped with an error.

use crate::checkpoint;
use crate::rollout::check::RolloutError;
use bones_agents::arena::ArenaError;
use bones_agents::AgentFailure;
use std::path::PathBuf;

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
    /// The transport of a remote learner (`remote::Learner::train`) failed to
    /// carry weights or shards.
    #[error("the transport failed: {reason}")]
    Transport {
        /// What went wrong.
        reason: String,
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
    /// A rollout shard handed to a remote learner (`remote::Learner::update`)
    /// that it refused: the update did not run and nothing of it was counted,
    /// so it can be tried again with another shard of that worker.
    #[error("bad rollout shard {index} of the {given} given{}: {source}", worker_note(.worker))]
    Shard {
        /// Its place in the list of shards given (0-based).
        index: usize,
        /// Shards given.
        given: usize,
        /// The worker it says it is of, when that much could be read.
        worker: Option<usize>,
        /// What is wrong with it.
        source: ShardError,
    },
    /// An evaluation against a baseline failed (anything but a game without
    /// that baseline, which is evaluated against the others only): the run
    /// stops, its update saved in a checkpoint first.
    #[error(
        "the evaluation against `{opponent}` after update {update} failed: {source}; {}",
        saved_note(.checkpoint)
    )]
    Evaluation {
        /// The baseline (`random`, `heuristic`).
        opponent: &'static str,
        /// The update just done.
        update: u64,
        /// Why it failed.
        source: Box<ArenaError>,
        /// The checkpoint of that update, or why it could not be written.
        checkpoint: Result<PathBuf, Box<TrainError>>,
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

/// " (worker W)" when the worker is known.
fn worker_note(worker: &Option<usize>) -> String {
    worker.map(|w| format!(" (worker {w})")).unwrap_or_default()
}

/// What became of a run's progress when an evaluation failed.
fn saved_note(checkpoint: &Result<PathBuf, Box<TrainError>>) -> String {
    match checkpoint {
        Ok(dir) => format!("the run stopped with its progress saved in {} (resume the run to go on)", dir.display()),
        Err(e) => format!("the run stopped, and saving its progress failed too: {e}"),
    }
}

/// Why a remote learner refused a rollout shard: bytes that are no shard of
/// this run and update, or a shard whose contents are inconsistent.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShardError {
    /// No rollout shard (another message, or bytes that do not decode).
    #[error("{0}")]
    Unreadable(String),
    /// A shard of another run (game, seed or worker count).
    #[error("{0}")]
    OtherRun(String),
    /// A shard of another update.
    #[error("it is of update {got}; the learner is at update {expected}")]
    Update {
        /// The shard's update.
        got: u64,
        /// The learner's.
        expected: u64,
    },
    /// A worker the run does not have.
    #[error("`worker` is {worker}; expected less than {workers} (the run's workers)")]
    Worker {
        /// The shard's worker.
        worker: usize,
        /// The run's workers.
        workers: usize,
    },
    /// A second shard of one worker for one update.
    #[error("two shards of worker {worker} for update {update}")]
    Duplicate {
        /// The worker.
        worker: usize,
        /// The update.
        update: u64,
    },
    /// Its rollout is inconsistent.
    #[error("{0}")]
    Rollout(#[from] RolloutError),
    /// Its counts of the games played do not add up.
    #[error("`episodes.{field}` is {value}; expected {expected}")]
    Episodes {
        /// The count.
        field: &'static str,
        /// Its value.
        value: String,
        /// What it should be.
        expected: String,
    },
    /// A time in its profile that is no time.
    #[error("`profile`: {phase} took {seconds} s; expected a finite number of seconds, at least 0")]
    Profile {
        /// The phase (`total` for the whole).
        phase: &'static str,
        /// Its seconds.
        seconds: f64,
    },
    /// Its random stream is not the one its worker plays that update with.
    #[error("`rng` is not the random stream of worker {worker}'s rollout of update {update}")]
    Stream {
        /// The worker.
        worker: usize,
        /// The update.
        update: u64,
    },
}
