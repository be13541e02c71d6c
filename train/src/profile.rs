//! Where a training run's time goes: wall seconds per phase of the loop, and
//! the process's peak memory. `bones train` prints both when a run ends.
//!
//! On the CPU (burn's flex backend runs each operation when it is called) a
//! phase's seconds are its own. A GPU runs asynchronously: its work shows up in
//! the phase that waits for it (a minibatch's one read-back, counted with the
//! optimizer, or the rollout's download of its logits).

use std::fmt;
use std::time::{Duration, Instant};

/// A phase of the training loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Stepping the games and encoding observations and masks (everything in a
    /// rollout except the network).
    Env,
    /// The policy's (and oracle critic's) forward passes during rollouts.
    RolloutForward,
    /// The teacher's choices at the learner's decisions (config `teacher`).
    Teacher,
    /// The frozen opponent's choices (config `opponent`).
    Opponent,
    /// Minibatch assembly, the forward pass and the loss, in the update.
    UpdateForward,
    /// The backward pass and the gradients' collection, in the update.
    UpdateBackward,
    /// Gradient clipping, the Adam step and the minibatch's read-back of its statistics.
    Optimizer,
    /// The learner waiting for the workers' rollouts (actor-learner only;
    /// there the rollout phases above are the workers' seconds, summed over
    /// workers and overlapping the update).
    Waiting,
    /// Evaluations against the baselines.
    Evaluation,
    /// Writing checkpoints.
    Checkpoint,
}

impl Phase {
    /// Every phase, in the loop's order.
    pub const ALL: [Phase; 10] = [
        Phase::Env,
        Phase::RolloutForward,
        Phase::Teacher,
        Phase::Opponent,
        Phase::UpdateForward,
        Phase::UpdateBackward,
        Phase::Optimizer,
        Phase::Waiting,
        Phase::Evaluation,
        Phase::Checkpoint,
    ];

    /// What the phase covers, as the profile table names it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Env => "env stepping and encoding",
            Phase::RolloutForward => "rollout forward",
            Phase::Teacher => "teacher",
            Phase::Opponent => "frozen opponent",
            Phase::UpdateForward => "update forward (and loss)",
            Phase::UpdateBackward => "update backward",
            Phase::Optimizer => "optimizer and read-back",
            Phase::Waiting => "waiting for rollouts",
            Phase::Evaluation => "evaluation",
            Phase::Checkpoint => "checkpoints",
        }
    }
}

/// Wall seconds spent in each [`Phase`], and in all, of one session of a run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Profile {
    seconds: [f64; Phase::ALL.len()],
    /// Wall seconds of the whole session.
    pub total: f64,
}

impl Profile {
    /// Adds `elapsed` to `phase`.
    pub fn add(&mut self, phase: Phase, elapsed: Duration) {
        self.seconds[phase as usize] += elapsed.as_secs_f64();
    }

    /// Adds the time since `start` to `phase`.
    pub fn since(&mut self, phase: Phase, start: Instant) {
        self.add(phase, start.elapsed());
    }

    /// Runs `f`, adding its wall time to `phase` (a scoped timer).
    pub fn time<T>(&mut self, phase: Phase, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        self.since(phase, start);
        out
    }

    /// Adds `other`'s seconds per phase to these (not its total).
    pub fn absorb(&mut self, other: &Profile) {
        for (mine, theirs) in self.seconds.iter_mut().zip(other.seconds) {
            *mine += theirs;
        }
    }

    /// Seconds spent in `phase`.
    pub fn seconds(&self, phase: Phase) -> f64 {
        self.seconds[phase as usize]
    }

    /// Seconds of the session outside every phase (GAE, logging, the opponent pool).
    pub fn other(&self) -> f64 {
        (self.total - self.seconds.iter().sum::<f64>()).max(0.0)
    }
}

/// A table: one line per phase with its seconds and share of the total.
impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = |s: f64| if self.total > 0.0 { 100.0 * s / self.total } else { 0.0 };
        let rows = Phase::ALL.iter().map(|&p| (p.name(), self.seconds(p))).chain([("other", self.other())]);
        for (name, s) in rows {
            writeln!(f, "  {name:<28} {s:>9.1} s {:>5.1}%", share(s))?;
        }
        write!(f, "  {:<28} {:>9.1} s", "total", self.total)
    }
}

/// The process's peak resident memory in bytes (Linux: `VmHWM`); `None` where
/// the system does not say.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_phase_and_what_is_left_over() {
        let mut p = Profile { total: 10.0, ..Profile::default() };
        p.add(Phase::Env, Duration::from_secs(2));
        p.add(Phase::UpdateBackward, Duration::from_secs(5));
        p.add(Phase::Env, Duration::from_secs(1));
        assert_eq!(p.seconds(Phase::Env), 3.0);
        assert!((p.other() - 2.0).abs() < 1e-9);
        let table = p.to_string();
        for phase in Phase::ALL {
            assert!(table.contains(phase.name()), "{table}");
        }
        assert!(table.contains("env stepping and encoding          3.0 s  30.0%"), "{table}");
        assert!(table.contains("other                              2.0 s  20.0%"), "{table}");
    }

    #[test]
    fn peak_memory_is_reported_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(peak_rss_bytes().unwrap() > 1 << 20);
        }
    }
}
