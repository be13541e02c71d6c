//! The check of a rollout that arrives as bytes (a remote worker's shard):
//! an [`UncheckedRollout`] becomes a [`Rollout`] only once every index, size
//! and number in it is consistent with the run's [`RolloutShape`].

use super::{Rollout, Transition};
use bones_policy::sparse::SparseRows;
use serde::Deserialize;
use std::fmt;

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
mod tests;
