//! Rollout storage for multi-agent self-play and GAE over each seat's own
//! sequence of decisions.
//!
//! Every decision of a learning seat is one transition. A seat's next
//! transition in the same game is linked to it (`next`), so the advantage of a
//! decision bootstraps from the value of that seat's *next* decision, not of
//! whoever moves next. Rewards that arrive while other seats act (Texas 42: the
//! hand result) are added to the seat's latest transition; an episode end marks
//! it `done`. A chain still open when the rollout stops bootstraps from the value
//! of the seat's current observation.
//!
//! A rollout that arrives as bytes (a remote worker's shard) is an
//! [`UncheckedRollout`] until [`UncheckedRollout::check`] has found every
//! index, size and number in it consistent: only then is it a [`Rollout`],
//! which the update indexes without looking again.

use bones_policy::sparse::SparseRows;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One decision of a learning seat.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Transition {
    /// Game (index into the rollout's games) the decision was taken in.
    pub env: usize,
    /// Seat that acted.
    pub seat: usize,
    /// Action taken.
    pub action: usize,
    /// Log-probability of the action under the behaviour policy.
    pub logp: f32,
    /// Value estimate at the decision.
    pub value: f32,
    /// Reward earned until the seat's next decision (or the episode end).
    pub reward: f32,
    /// The episode ended before the seat's next decision.
    pub done: bool,
    /// Index of the seat's next decision in this rollout.
    pub next: Option<usize>,
    /// Value of the seat's state when the rollout stopped (open chains only).
    pub bootstrap: f32,
    /// The teacher's action at this decision (config `teacher`; `None`: no
    /// teacher, or the decision had one legal action).
    pub teacher: Option<usize>,
}

/// A rollout: transitions plus their observations (as their non-zero
/// entries) and legal masks. It is made by playing, or from bytes through
/// [`UncheckedRollout::check`].
#[derive(Serialize)]
pub struct Rollout {
    /// Observation length.
    pub obs_len: usize,
    /// Action-space size.
    pub num_actions: usize,
    /// Transitions in the order they were taken.
    pub steps: Vec<Transition>,
    /// Observations, one row per transition.
    pub obs: SparseRows,
    /// Legal masks, `steps.len() * num_actions` (0/1).
    pub masks: Vec<f32>,
    /// Length of each transition's hidden-hand input for the oracle critic (0: none).
    pub oracle_len: usize,
    /// Hidden-hand inputs, `steps.len() * oracle_len`.
    pub oracle: Vec<f32>,
    /// Latest transition of each (env, seat) chain.
    open: Vec<[Option<usize>; 4]>,
}

impl Rollout {
    /// An empty rollout for `envs` games; `oracle_len` floats of hidden hands are
    /// kept per transition for the oracle critic (0: none).
    pub fn new(envs: usize, obs_len: usize, num_actions: usize, oracle_len: usize) -> Rollout {
        Rollout {
            obs_len,
            num_actions,
            oracle_len,
            steps: Vec::new(),
            obs: SparseRows::new(obs_len),
            masks: Vec::new(),
            oracle: Vec::new(),
            open: vec![[None; 4]; envs],
        }
    }

    /// Clears the transitions; chains that were open stay unlinked.
    pub fn clear(&mut self) {
        self.steps.clear();
        self.obs.clear();
        self.masks.clear();
        self.oracle.clear();
        for o in &mut self.open {
            *o = [None; 4];
        }
    }

    /// The transitions recorded so far, leaving this rollout empty with the
    /// same shape (a worker hands its rollout to the learner this way).
    pub fn take(&mut self) -> Rollout {
        let empty = Rollout::new(self.open.len(), self.obs_len, self.num_actions, self.oracle_len);
        std::mem::replace(self, empty)
    }

    /// Appends `other`'s transitions, its games numbered after this rollout's
    /// (the learner merges the workers' shards, in order, this way). Links and
    /// open chains keep pointing at the same decisions.
    pub fn append(&mut self, other: &Rollout) {
        assert_eq!(
            (self.obs_len, self.num_actions, self.oracle_len),
            (other.obs_len, other.num_actions, other.oracle_len),
            "rollouts of one shape"
        );
        let (base, env_base) = (self.steps.len(), self.open.len());
        self.steps.extend(other.steps.iter().map(|t| Transition {
            env: t.env + env_base,
            next: t.next.map(|j| j + base),
            ..t.clone()
        }));
        for r in 0..other.obs.rows() {
            self.obs.push_row(&other.obs, r);
        }
        self.masks.extend_from_slice(&other.masks);
        self.oracle.extend_from_slice(&other.oracle);
        self.open.extend(other.open.iter().map(|seats| seats.map(|i| i.map(|i| i + base))));
    }

    /// Number of transitions.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// No transitions.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Records a decision of `seat` in `env`, whose observation is row `row` of
    /// `obs` (`oracle`: `oracle_len` floats).
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        env: usize,
        seat: usize,
        obs: &SparseRows,
        row: usize,
        mask: &[f32],
        oracle: &[f32],
        action: usize,
        logp: f32,
        value: f32,
    ) {
        debug_assert_eq!(oracle.len(), self.oracle_len);
        let idx = self.steps.len();
        if let Some(prev) = self.open[env][seat] {
            self.steps[prev].next = Some(idx);
        }
        self.open[env][seat] = Some(idx);
        self.obs.push_row(obs, row);
        self.masks.extend_from_slice(mask);
        self.oracle.extend_from_slice(oracle);
        self.steps.push(Transition {
            env,
            seat,
            action,
            logp,
            value,
            reward: 0.0,
            done: false,
            next: None,
            bootstrap: 0.0,
            teacher: None,
        });
    }

    /// Credits the rewards of one env step to each seat's latest decision; on
    /// `done` closes every chain of the env.
    pub fn reward(&mut self, env: usize, rewards: &[f32], done: bool) {
        for (seat, r) in rewards.iter().enumerate().take(4) {
            if let Some(i) = self.open[env][seat] {
                self.steps[i].reward += r;
                if done {
                    self.steps[i].done = true;
                }
            }
        }
        if done {
            self.open[env] = [None; 4];
        }
    }

    /// The chains still open, as (env, seat, transition index).
    pub fn open_chains(&self) -> Vec<(usize, usize, usize)> {
        let mut v = Vec::new();
        for (env, seats) in self.open.iter().enumerate() {
            for (seat, i) in seats.iter().enumerate() {
                if let Some(i) = i {
                    v.push((env, seat, *i));
                }
            }
        }
        v
    }

    /// Sets the bootstrap value of an open chain's last transition.
    pub fn set_bootstrap(&mut self, i: usize, value: f32) {
        self.steps[i].bootstrap = value;
    }

    /// Generalised advantage estimates and returns (`advantages + values`).
    pub fn advantages(&self, gamma: f32, lambda: f32) -> (Vec<f32>, Vec<f32>) {
        let n = self.steps.len();
        let mut adv = vec![0.0f32; n];
        for i in (0..n).rev() {
            let t = &self.steps[i];
            let (next_value, next_adv) = if t.done {
                (0.0, 0.0)
            } else {
                match t.next {
                    Some(j) => (self.steps[j].value, adv[j]),
                    None => (t.bootstrap, 0.0),
                }
            };
            let delta = t.reward + gamma * next_value - t.value;
            adv[i] = delta + gamma * lambda * next_adv;
        }
        let returns = adv.iter().zip(&self.steps).map(|(a, t)| a + t.value).collect();
        (adv, returns)
    }
}

/// The largest magnitude a float of a rollout from bytes may have (rewards,
/// values, bootstraps, observations, hidden hands): far beyond what a game
/// gives, and small enough that the update's sums and squares stay finite.
pub const MAX_MAGNITUDE: f32 = 1e6;

/// The lowest log-probability of a sampled action in a rollout from bytes
/// (about the log of the smallest normal `f32`): the update's probability
/// ratios, `exp(new - old)`, stay finite.
pub const MIN_LOGP: f32 = -87.0;

/// What a rollout from bytes must fit: the run's sizes and the shard's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutShape {
    /// Observation length.
    pub obs_len: usize,
    /// Action-space size.
    pub num_actions: usize,
    /// Hidden-hand floats per transition (0: no oracle critic).
    pub oracle_len: usize,
    /// Games of the shard: `open` has one entry per game, and `env` is below it.
    pub games: usize,
    /// Seats at the table: `seat` is below it (and below 4).
    pub players: usize,
    /// The most transitions it can hold (one per decision: `num_steps` × games).
    pub max_steps: usize,
}

/// Where in a rollout something is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A transition (`steps[i]`).
    Transition(usize),
    /// A row of the observations (the transition's).
    Observation(usize),
    /// A float of the hidden hands (`oracle[i]`).
    Hidden(usize),
    /// An open chain (`open[game][seat]`).
    Open {
        /// The game.
        game: usize,
        /// The seat.
        seat: usize,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Place::Transition(i) => write!(f, "transition {i}"),
            Place::Observation(r) => write!(f, "observation row {r}"),
            Place::Hidden(i) => write!(f, "hidden-hand float {i}"),
            Place::Open { game, seat } => write!(f, "`open` of game {game}, seat {seat}"),
        }
    }
}

/// Why a rollout from bytes is refused, in one line naming the field and
/// what was expected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RolloutError {
    /// A size of the rollout is not the run's.
    #[error("`{field}` is {value}; expected {expected} ({why})")]
    Size {
        /// The field.
        field: &'static str,
        /// Its value.
        value: usize,
        /// The run's.
        expected: usize,
        /// What the expected value is.
        why: &'static str,
    },
    /// More transitions than the shard's games took decisions.
    #[error("`steps` has length {len}; expected at most {max} (one per decision of the shard's games)")]
    TooManySteps {
        /// Transitions in the rollout.
        len: usize,
        /// Decisions of the shard's games.
        max: usize,
    },
    /// A column whose length does not fit the transitions.
    #[error("`{field}` has length {len}; expected {expected} ({why})")]
    Length {
        /// The column.
        field: &'static str,
        /// Its length.
        len: usize,
        /// The length it should have.
        expected: usize,
        /// Why.
        why: &'static str,
    },
    /// An index or id out of its range.
    #[error("{at}: `{field}` is {value}; expected less than {limit} ({why})")]
    OutOfRange {
        /// Where.
        at: Place,
        /// The field.
        field: &'static str,
        /// Its value.
        value: usize,
        /// The bound it must stay below.
        limit: usize,
        /// What the bound is.
        why: &'static str,
    },
    /// A float that is not finite, or out of its range.
    #[error("{at}: `{field}` is {value}; expected {expected}")]
    Number {
        /// Where.
        at: Place,
        /// The field.
        field: &'static str,
        /// Its value.
        value: f32,
        /// What it should be.
        expected: &'static str,
    },
    /// A legal-mask entry other than 0 and 1.
    #[error("transition {step}: `masks` holds {value} for action {action}; expected 0 or 1")]
    Mask {
        /// The transition.
        step: usize,
        /// The action.
        action: usize,
        /// The entry.
        value: f32,
    },
    /// A legal mask that allows nothing.
    #[error("transition {step}: `masks` allows no action; expected at least one legal action")]
    NoLegalAction {
        /// The transition.
        step: usize,
    },
    /// An action that the transition's legal mask does not allow.
    #[error("transition {step}: `{field}` is {action}, which its legal mask does not allow; expected a legal action")]
    Illegal {
        /// The transition.
        step: usize,
        /// `action` or `teacher`.
        field: &'static str,
        /// The action.
        action: usize,
    },
    /// A link between decisions that a seat's chain of decisions cannot have.
    #[error("{at}: {problem}; expected {expected}")]
    Chain {
        /// Where.
        at: Place,
        /// What is wrong.
        problem: String,
        /// What it should be.
        expected: &'static str,
    },
    /// Observation rows that are not compressed sparse rows.
    #[error("`obs.{field}` {problem}; expected {expected}")]
    Observations {
        /// The field of the rows.
        field: &'static str,
        /// What is wrong.
        problem: String,
        /// What it should be.
        expected: &'static str,
    },
}

/// A rollout as bytes carry it (the serialised form of a [`Rollout`], field
/// for field), nothing of it trusted until [`UncheckedRollout::check`].
#[derive(Deserialize)]
pub struct UncheckedRollout {
    obs_len: usize,
    num_actions: usize,
    steps: Vec<Transition>,
    obs: UncheckedRows,
    masks: Vec<f32>,
    oracle_len: usize,
    oracle: Vec<f32>,
    open: Vec<[Option<usize>; 4]>,
}

/// [`SparseRows`] as bytes carry them (its serialised form, field for field).
#[derive(Deserialize)]
struct UncheckedRows {
    width: usize,
    start: Vec<usize>,
    index: Vec<u32>,
    value: Vec<f32>,
}

const FINITE: &str = "a finite number of magnitude at most 1e6";

/// Refuses `value` (`field` at `at`) unless it is finite and at most [`MAX_MAGNITUDE`] in size.
fn bounded(at: Place, field: &'static str, value: f32) -> Result<(), RolloutError> {
    if value.is_finite() && value.abs() <= MAX_MAGNITUDE {
        return Ok(());
    }
    Err(RolloutError::Number { at, field, value, expected: FINITE })
}

/// Refuses `value` (`field` at `at`) unless it is below `limit` (`why`).
fn below(at: Place, field: &'static str, value: usize, limit: usize, why: &'static str) -> Result<(), RolloutError> {
    if value < limit {
        return Ok(());
    }
    Err(RolloutError::OutOfRange { at, field, value, limit, why })
}

impl UncheckedRollout {
    /// The rollout, once its sizes are `shape`'s and everything in it is
    /// consistent: every column has one row per transition; every index (a
    /// transition's game, seat, action, teacher action and next decision, an
    /// open chain, an observation's columns) is in range; legal masks are 0/1
    /// and allow each transition's action; floats are finite and bounded
    /// ([`MAX_MAGNITUDE`], [`MIN_LOGP`]); and the links form each seat's chain
    /// of decisions (a later decision of the same game and seat, none after
    /// `done`, none shared; an open chain at each last decision that is not
    /// `done`). After this nothing the update does with it can go out of bounds.
    pub fn check(self, shape: &RolloutShape) -> Result<Rollout, RolloutError> {
        let UncheckedRollout { obs_len, num_actions, steps, obs, masks, oracle_len, oracle, open } = self;
        let size = |field, value, expected, why| match value == expected {
            true => Ok(()),
            false => Err(RolloutError::Size { field, value, expected, why }),
        };
        size("obs_len", obs_len, shape.obs_len, "the game's observation length")?;
        size("num_actions", num_actions, shape.num_actions, "the game's action count")?;
        size("oracle_len", oracle_len, shape.oracle_len, "the run's hidden-hand floats per decision")?;
        let (n, na) = (steps.len(), num_actions);
        if n > shape.max_steps {
            return Err(RolloutError::TooManySteps { len: n, max: shape.max_steps });
        }
        let length = |field, len, expected, why| match len == expected {
            true => Ok(()),
            false => Err(RolloutError::Length { field, len, expected, why }),
        };
        length("masks", masks.len(), n.saturating_mul(na), "one float per transition and action")?;
        length("oracle", oracle.len(), n.saturating_mul(oracle_len), "`oracle_len` floats per transition")?;
        length("open", open.len(), shape.games, "one entry per game of the shard")?;
        let obs = obs.check(obs_len, n)?;
        if na > 0 {
            for (step, row) in masks.chunks_exact(na).enumerate() {
                if let Some((action, &value)) = row.iter().enumerate().find(|(_, &m)| m != 0.0 && m != 1.0) {
                    return Err(RolloutError::Mask { step, action, value });
                }
                if !row.contains(&1.0) {
                    return Err(RolloutError::NoLegalAction { step });
                }
            }
        }
        for (i, &x) in oracle.iter().enumerate() {
            bounded(Place::Hidden(i), "oracle", x)?;
        }
        check_steps(&steps, &masks, na, shape)?;
        check_open(&steps, &open)?;
        Ok(Rollout { obs_len, num_actions, steps, obs, masks, oracle_len, oracle, open })
    }
}

/// Checks each transition's indices, numbers and link to its next decision
/// (`masks`: checked to hold `na` floats a transition).
fn check_steps(steps: &[Transition], masks: &[f32], na: usize, shape: &RolloutShape) -> Result<(), RolloutError> {
    let n = steps.len();
    let players = shape.players.min(4);
    let mut linked = vec![false; n];
    for (i, t) in steps.iter().enumerate() {
        let at = Place::Transition(i);
        below(at, "env", t.env, shape.games, "the shard's games")?;
        below(at, "seat", t.seat, players, "the seats at the table")?;
        let legal = |a: usize| masks[i * na + a] == 1.0;
        for (field, action) in [("action", Some(t.action)), ("teacher", t.teacher)] {
            let Some(action) = action else { continue };
            below(at, field, action, na, "the game's action count")?;
            if !legal(action) {
                return Err(RolloutError::Illegal { step: i, field, action });
            }
        }
        if !(t.logp.is_finite() && (MIN_LOGP..=0.0).contains(&t.logp)) {
            return Err(RolloutError::Number {
                at,
                field: "logp",
                value: t.logp,
                expected: "a log-probability from -87 to 0",
            });
        }
        for (field, x) in [("value", t.value), ("reward", t.reward), ("bootstrap", t.bootstrap)] {
            bounded(at, field, x)?;
        }
        let Some(j) = t.next else { continue };
        let chain = |problem: String, expected| Err(RolloutError::Chain { at, problem, expected });
        if t.done {
            return chain(format!("`next` is {j} after its episode ended (`done`)"), "no next decision after `done`");
        }
        below(at, "next", j, n, "the transitions")?;
        if j <= i {
            return chain(format!("`next` is {j}, not after it"), "a later transition (the seat's next decision)");
        }
        let u = &steps[j];
        if (u.env, u.seat) != (t.env, t.seat) {
            return chain(
                format!("`next` is {j}, a decision of game {} seat {}", u.env, u.seat),
                "a decision of the same game and seat",
            );
        }
        if linked[j] {
            return chain(
                format!("`next` is {j}, the next decision of an earlier transition already"),
                "each decision the next of at most one",
            );
        }
        linked[j] = true;
    }
    Ok(())
}

/// Checks that each open chain names its game's and seat's last decision,
/// and that every last decision not `done` has one.
fn check_open(steps: &[Transition], open: &[[Option<usize>; 4]]) -> Result<(), RolloutError> {
    let n = steps.len();
    let mut is_open = vec![false; n];
    for (game, seats) in open.iter().enumerate() {
        for (seat, slot) in seats.iter().enumerate() {
            let Some(i) = *slot else { continue };
            let at = Place::Open { game, seat };
            below(at, "open", i, n, "the transitions")?;
            let t = &steps[i];
            let chain = |problem: String, expected| Err(RolloutError::Chain { at, problem, expected });
            if (t.env, t.seat) != (game, seat) {
                return chain(
                    format!("it names transition {i}, a decision of game {} seat {}", t.env, t.seat),
                    "a decision of that game and seat",
                );
            }
            if t.done || t.next.is_some() {
                return chain(
                    format!("it names transition {i}, whose chain goes on or has ended"),
                    "the chain's last decision, its episode not over",
                );
            }
            is_open[i] = true;
        }
    }
    if let Some(i) = (0..n).find(|&i| steps[i].next.is_none() && !steps[i].done && !is_open[i]) {
        return Err(RolloutError::Chain {
            at: Place::Transition(i),
            problem: "it has no `next`, is not `done`, and no open chain ends at it".into(),
            expected: "a next decision, `done`, or its chain in `open`",
        });
    }
    Ok(())
}

impl UncheckedRows {
    /// The rows, once they are `rows` compressed sparse rows of `width`
    /// floats: offsets from 0 that never go back and end at the entries'
    /// count, each row's columns increasing and below `width`, each value
    /// finite, non-zero and bounded ([`MAX_MAGNITUDE`]).
    fn check(self, width: usize, rows: usize) -> Result<SparseRows, RolloutError> {
        let UncheckedRows { width: w, start, index, value } = self;
        let bad = |field, problem: String, expected| Err(RolloutError::Observations { field, problem, expected });
        if w != width {
            return Err(RolloutError::Size {
                field: "obs.width",
                value: w,
                expected: width,
                why: "the observation length",
            });
        }
        if width == 0 || u32::try_from(width).is_err() {
            return bad("width", format!("is {width}"), "1 to 2^32 - 1 floats a row");
        }
        let offsets = rows.saturating_add(1);
        if start.len() != offsets {
            let why = "an offset per transition's row, and one more";
            return Err(RolloutError::Length { field: "obs.start", len: start.len(), expected: offsets, why });
        }
        if value.len() != index.len() {
            let why = "one value per entry of `obs.index`";
            return Err(RolloutError::Length { field: "obs.value", len: value.len(), expected: index.len(), why });
        }
        if start[0] != 0 {
            return bad("start", format!("begins at {}", start[0]), "offsets from 0");
        }
        if let Some(r) = (0..rows).find(|&r| start[r + 1] < start[r]) {
            return bad(
                "start",
                format!("goes back from {} to {} at row {r}", start[r], start[r + 1]),
                "offsets that never go back",
            );
        }
        if start[rows] != index.len() {
            let problem = format!("ends at {} with {} entries", start[rows], index.len());
            return bad("start", problem, "the last offset to be the entries' count");
        }
        let mut out = SparseRows::new(width);
        let mut dense = vec![0f32; width];
        for r in 0..rows {
            let span = start[r]..start[r + 1];
            let mut previous: Option<u32> = None;
            for (&j, &v) in index[span.clone()].iter().zip(&value[span.clone()]) {
                below(Place::Observation(r), "obs.index", j as usize, width, "the observation length")?;
                if let Some(p) = previous.filter(|&p| p >= j) {
                    return bad(
                        "index",
                        format!("lists column {j} after column {p} in row {r}"),
                        "each row's columns in increasing order",
                    );
                }
                previous = Some(j);
                if !(v.is_finite() && v != 0.0 && v.abs() <= MAX_MAGNITUDE) {
                    let expected = "a finite non-zero number of magnitude at most 1e6";
                    return Err(RolloutError::Number {
                        at: Place::Observation(r),
                        field: "obs.value",
                        value: v,
                        expected,
                    });
                }
                dense[j as usize] = v;
            }
            out.push_dense(&dense);
            for &j in &index[span] {
                dense[j as usize] = 0.0;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_follow_each_seat_and_terminal_rewards_reach_every_seat() {
        let mut r = Rollout::new(1, 1, 2, 0);
        let zero = SparseRows::from_dense(&[0.0], 1);
        // Seats 0 and 1 alternate; the hand ends after seat 1's second move.
        r.push(0, 0, &zero, 0, &[1.0, 1.0], &[], 0, -0.7, 0.5);
        r.push(0, 1, &zero, 0, &[1.0, 1.0], &[], 1, -0.7, -0.5);
        r.push(0, 0, &zero, 0, &[1.0, 1.0], &[], 0, -0.7, 0.8);
        r.push(0, 1, &zero, 0, &[1.0, 1.0], &[], 1, -0.7, -0.2);
        r.reward(0, &[2.0, -2.0, 0.0, 0.0], true);
        assert_eq!(r.steps[0].next, Some(2));
        assert_eq!(r.steps[1].next, Some(3));
        assert!(r.steps[2].done && r.steps[3].done);
        let (adv, ret) = r.advantages(1.0, 1.0);
        // Undiscounted Monte Carlo: every return is the final reward.
        assert_eq!(ret, vec![2.0, -2.0, 2.0, -2.0]);
        assert!((adv[0] - 1.5).abs() < 1e-6);
        // With lambda 0: one-step TD to the seat's own next value.
        let (adv0, _) = r.advantages(1.0, 0.0);
        assert!((adv0[0] - (0.8 - 0.5)).abs() < 1e-6);
        assert!(r.open_chains().is_empty());
    }

    #[test]
    fn gae_follows_each_seats_chain_with_discounting_a_done_and_bootstraps() {
        // gamma 0.9, lambda 0.8 (gamma * lambda = 0.72). Two games interleaved:
        // game 0 seats 0 and 1 alternate, the hand ends (done) after seat 1's
        // second move and a new hand starts whose chain is still open at the end;
        // game 1 seat 2 has two decisions and stays open too.
        let mut r = Rollout::new(2, 1, 1, 0);
        let zero = SparseRows::from_dense(&[0.0], 1);
        let push = |r: &mut Rollout, env: usize, seat: usize, value: f32| {
            r.push(env, seat, &zero, 0, &[1.0], &[], 0, 0.0, value)
        };
        push(&mut r, 0, 0, 0.5); // t0
        push(&mut r, 1, 2, 0.1); // t1
        r.reward(1, &[0.0, 0.0, 0.25, 0.0], false); // credited to t1
        push(&mut r, 0, 1, -0.5); // t2
        push(&mut r, 0, 0, 0.8); // t3 (t0's next)
        push(&mut r, 0, 1, -0.2); // t4 (t2's next)
        r.reward(0, &[1.0, -1.0, 0.0, 0.0], true); // hand over: t3 +1, t4 -1, both done
        push(&mut r, 0, 0, 0.3); // t5: a new hand, not linked to t3
        r.reward(0, &[0.5, 0.0, 0.0, 0.0], false); // credited to t5
        push(&mut r, 1, 2, 0.2); // t6 (t1's next)
        let next: Vec<Option<usize>> = r.steps.iter().map(|t| t.next).collect();
        assert_eq!(next, vec![Some(3), Some(6), Some(4), None, None, None, None]);
        assert_eq!(r.open_chains(), vec![(0, 0, 5), (1, 2, 6)]);
        r.set_bootstrap(5, 0.6);
        r.set_bootstrap(6, 0.4);

        // delta_t = r_t + 0.9 * V(next) - V_t (V(next) = 0 after a done, the
        // bootstrap for an open chain); A_t = delta_t + 0.72 * A(next).
        // t6: 0    + 0.9*0.4    - 0.2    = 0.16                 A = 0.16
        // t5: 0.5  + 0.9*0.6    - 0.3    = 0.74                 A = 0.74
        // t4: -1   (done)       + 0.2    = -0.8                 A = -0.8
        // t3: 1    (done)       - 0.8    = 0.2                  A = 0.2
        // t2: 0    + 0.9*(-0.2) + 0.5    = 0.32   + 0.72*(-0.8) = -0.256
        // t1: 0.25 + 0.9*0.2    - 0.1    = 0.33   + 0.72*0.16   = 0.4452
        // t0: 0    + 0.9*0.8    - 0.5    = 0.22   + 0.72*0.2    = 0.364
        // Returns are A + V.
        let (adv, ret) = r.advantages(0.9, 0.8);
        let want_adv = [0.364, 0.4452, -0.256, 0.2, -0.8, 0.74, 0.16];
        let want_ret = [0.864, 0.5452, -0.756, 1.0, -1.0, 1.04, 0.36];
        for i in 0..7 {
            assert!((adv[i] - want_adv[i]).abs() < 1e-6, "advantage {i}: {} != {}", adv[i], want_adv[i]);
            assert!((ret[i] - want_ret[i]).abs() < 1e-6, "return {i}: {} != {}", ret[i], want_ret[i]);
        }
    }

    #[test]
    fn open_chains_bootstrap_from_the_seats_current_value() {
        let mut r = Rollout::new(2, 1, 1, 1);
        r.push(1, 3, &SparseRows::from_dense(&[0.0], 1), 0, &[1.0], &[0.5], 0, 0.0, 0.25);
        assert_eq!(r.oracle, vec![0.5]);
        let open = r.open_chains();
        assert_eq!(open, vec![(1, 3, 0)]);
        r.set_bootstrap(0, 1.0);
        let (adv, ret) = r.advantages(0.5, 0.9);
        assert!((adv[0] - (0.5 * 1.0 - 0.25)).abs() < 1e-6);
        assert!((ret[0] - 0.5).abs() < 1e-6);
    }

    /// Two games of two seats, 3 observation floats, 3 actions and 1 hidden
    /// float: game 0's seats play and its hand ends; game 1's seat 0 plays
    /// twice and its chain is still open.
    fn small() -> Rollout {
        let mut r = Rollout::new(2, 3, 3, 1);
        let obs = SparseRows::from_dense(&[0.0, 2.0, 0.0, 1.0, 0.0, -0.5], 3);
        r.push(0, 0, &obs, 0, &[1.0, 1.0, 0.0], &[0.5], 1, -0.7, 0.1);
        r.push(1, 0, &obs, 1, &[0.0, 1.0, 1.0], &[0.0], 2, -0.7, 0.2);
        r.steps[1].teacher = Some(1);
        r.push(0, 1, &obs, 1, &[1.0, 0.0, 1.0], &[1.0], 0, -0.7, 0.3);
        r.push(0, 0, &obs, 0, &[1.0, 1.0, 1.0], &[0.5], 2, -1.1, 0.4);
        r.reward(0, &[1.0, -1.0, 0.0, 0.0], true);
        r.push(1, 0, &obs, 0, &[1.0, 0.0, 0.0], &[0.0], 0, 0.0, 0.5);
        r.set_bootstrap(4, 0.25);
        r
    }

    const SHAPE: RolloutShape =
        RolloutShape { obs_len: 3, num_actions: 3, oracle_len: 1, games: 2, players: 2, max_steps: 8 };

    fn bytes(r: &Rollout) -> Vec<u8> {
        bincode::serde::encode_to_vec(r, bincode::config::standard()).unwrap()
    }

    fn unchecked(r: &Rollout) -> UncheckedRollout {
        bincode::serde::decode_from_slice(&bytes(r), bincode::config::standard()).unwrap().0
    }

    #[test]
    fn a_rollout_sent_as_bytes_passes_its_check_unchanged() {
        let r = small();
        let back = unchecked(&r).check(&SHAPE).unwrap();
        assert_eq!(bytes(&back), bytes(&r));
        assert_eq!(back.obs, r.obs);
        assert_eq!(back.open_chains(), vec![(1, 0, 4)]);
        assert_eq!(back.advantages(0.9, 0.8), r.advantages(0.9, 0.8));
    }

    #[test]
    fn each_inconsistency_of_a_rollout_from_bytes_is_refused_naming_the_field_and_what_was_expected() {
        type Change = Box<dyn Fn(&mut UncheckedRollout)>;
        let cases: Vec<(Change, &str)> = vec![
            (Box::new(|u| u.num_actions = 4), "`num_actions` is 4; expected 3 (the game's action count)"),
            (
                Box::new(|u| u.masks.truncate(u.masks.len() - 1)),
                "`masks` has length 14; expected 15 (one float per transition and action)",
            ),
            (
                Box::new(|u| u.open.truncate(u.open.len() - 1)),
                "`open` has length 1; expected 2 (one entry per game of the shard)",
            ),
            (Box::new(|u| u.masks[1] = 0.5), "transition 0: `masks` holds 0.5 for action 1; expected 0 or 1"),
            (
                Box::new(|u| u.masks[12] = 0.0),
                "transition 4: `masks` allows no action; expected at least one legal action",
            ),
            (
                Box::new(|u| u.oracle[2] = f32::NAN),
                "hidden-hand float 2: `oracle` is NaN; expected a finite number of magnitude at most 1e6",
            ),
            (Box::new(|u| u.steps[2].env = 2), "transition 2: `env` is 2; expected less than 2 (the shard's games)"),
            (
                Box::new(|u| u.steps[0].seat = 2),
                "transition 0: `seat` is 2; expected less than 2 (the seats at the table)",
            ),
            (
                Box::new(|u| u.steps[0].action = 3),
                "transition 0: `action` is 3; expected less than 3 (the game's action count)",
            ),
            (
                Box::new(|u| u.steps[0].action = 2),
                "transition 0: `action` is 2, which its legal mask does not allow; expected a legal action",
            ),
            (
                Box::new(|u| u.steps[1].teacher = Some(0)),
                "transition 1: `teacher` is 0, which its legal mask does not allow; expected a legal action",
            ),
            (
                Box::new(|u| u.steps[0].logp = f32::NAN),
                "transition 0: `logp` is NaN; expected a log-probability from -87 to 0",
            ),
            (
                Box::new(|u| u.steps[0].logp = 0.5),
                "transition 0: `logp` is 0.5; expected a log-probability from -87 to 0",
            ),
            (
                Box::new(|u| u.steps[3].value = f32::INFINITY),
                "transition 3: `value` is inf; expected a finite number of magnitude at most 1e6",
            ),
            (
                Box::new(|u| u.steps[3].reward = -2e6),
                "transition 3: `reward` is -2000000; expected a finite number of magnitude at most 1e6",
            ),
            (
                Box::new(|u| u.steps[0].next = Some(9)),
                "transition 0: `next` is 9; expected less than 5 (the transitions)",
            ),
            (
                Box::new(|u| u.steps[1].next = Some(0)),
                "transition 1: `next` is 0, not after it; expected a later transition (the seat's next decision)",
            ),
            (
                Box::new(|u| u.steps[0].next = Some(4)),
                "transition 0: `next` is 4, a decision of game 1 seat 0; expected a decision of the same game and seat",
            ),
            (
                Box::new(|u| u.steps[2].next = Some(3)),
                "transition 2: `next` is 3 after its episode ended (`done`); expected no next decision after `done`",
            ),
            (
                Box::new(|u| {
                    let t = &mut u.steps[2];
                    (t.seat, t.done, t.next) = (0, false, Some(3));
                }),
                "transition 2: `next` is 3, the next decision of an earlier transition already; \
                 expected each decision the next of at most one",
            ),
            (
                Box::new(|u| u.open[1][0] = None),
                "transition 4: it has no `next`, is not `done`, and no open chain ends at it; \
                 expected a next decision, `done`, or its chain in `open`",
            ),
            (
                Box::new(|u| u.open[0][1] = Some(2)),
                "`open` of game 0, seat 1: it names transition 2, whose chain goes on or has ended; \
                 expected the chain's last decision, its episode not over",
            ),
            (
                Box::new(|u| u.open[0][0] = Some(4)),
                "`open` of game 0, seat 0: it names transition 4, a decision of game 1 seat 0; \
                 expected a decision of that game and seat",
            ),
            (
                Box::new(|u| u.open[0][0] = Some(5)),
                "`open` of game 0, seat 0: `open` is 5; expected less than 5 (the transitions)",
            ),
            (Box::new(|u| u.obs.width = 4), "`obs.width` is 4; expected 3 (the observation length)"),
            (
                Box::new(|u| u.obs.start.truncate(u.obs.start.len() - 1)),
                "`obs.start` has length 5; expected 6 (an offset per transition's row, and one more)",
            ),
            (Box::new(|u| u.obs.start[0] = 1), "`obs.start` begins at 1; expected offsets from 0"),
            (
                Box::new(|u| u.obs.start[2] = 0),
                "`obs.start` goes back from 1 to 0 at row 1; expected offsets that never go back",
            ),
            (
                Box::new(|u| u.obs.start[5] = 6),
                "`obs.start` ends at 6 with 7 entries; expected the last offset to be the entries' count",
            ),
            (
                Box::new(|u| u.obs.value.truncate(u.obs.value.len() - 1)),
                "`obs.value` has length 6; expected 7 (one value per entry of `obs.index`)",
            ),
            (
                Box::new(|u| u.obs.index[0] = 3),
                "observation row 0: `obs.index` is 3; expected less than 3 (the observation length)",
            ),
            (
                Box::new(|u| u.obs.index[2] = 0),
                "`obs.index` lists column 0 after column 0 in row 1; expected each row's columns in increasing order",
            ),
            (
                Box::new(|u| u.obs.value[0] = 0.0),
                "observation row 0: `obs.value` is 0; expected a finite non-zero number of magnitude at most 1e6",
            ),
        ];
        let r = small();
        assert_eq!(
            (unchecked(&r).obs.start, unchecked(&r).obs.index),
            (vec![0, 1, 3, 5, 6, 7], vec![1, 0, 2, 0, 2, 1, 1])
        );
        for (change, says) in cases {
            let mut u = unchecked(&r);
            change(&mut u);
            let e = u.check(&SHAPE).err().unwrap_or_else(|| panic!("passed its check: {says}"));
            assert_eq!(e.to_string(), says);
        }
        let e = unchecked(&r).check(&RolloutShape { max_steps: 4, ..SHAPE }).err().unwrap();
        assert_eq!(e.to_string(), "`steps` has length 5; expected at most 4 (one per decision of the shard's games)");
    }
}
