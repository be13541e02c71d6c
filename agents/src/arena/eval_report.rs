//! The report of an evaluation of A against B ([`EvalReport`]) and the
//! contracts of each side in it ([`Contracts`]).

use super::stats::Estimate;
use serde::{Deserialize, Serialize};

/// Texas 42 contracts of one side: how often it won the auction and how it fared.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contracts {
    /// Hands this side declared (hands thrown in are not counted).
    pub declared: u64,
    /// Of those, contracts made.
    pub made: u64,
    /// Sum of the winning bids in points (a mark is 42).
    pub bid_points: u64,
}

impl Contracts {
    /// Share of its contracts the side made (NaN when it declared none).
    pub fn made_rate(&self) -> f64 {
        self.made as f64 / self.declared as f64
    }

    /// Mean winning bid in points (NaN when it declared none).
    pub fn mean_bid(&self) -> f64 {
        self.bid_points as f64 / self.declared as f64
    }

    pub(super) fn add(&mut self, other: &Contracts) {
        self.declared += other.declared;
        self.made += other.made;
        self.bid_points += other.bid_points;
    }
}

/// The result of an evaluation of A against B.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalReport {
    /// `texas42` or `doubles`.
    pub game: &'static str,
    /// The two spec strings, A then B.
    pub agents: [String; 2],
    /// Players at the table.
    pub players: usize,
    /// Sides competing for a win (Texas 42: 2 teams; Doubles: the players); the
    /// Elo difference is computed against a field of `sides - 1` Bs.
    pub sides: usize,
    /// Duplicate groups (deals) played.
    pub deals: u64,
    /// Whole games played (0 when playing single hands).
    pub games: u64,
    /// Hands (rounds) played.
    pub hands: u64,
    /// `game` or `hand`: what `win_rate` counts.
    pub win_unit: &'static str,
    /// Games (or hands) that `win_rate` counts.
    pub trials: u64,
    /// A's wins (a tie counts a half).
    pub wins: f64,
    /// A's win rate.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_ci: (f64, f64),
    /// Texas 42: A-minus-B marks (game points under `points` scoring) per hand.
    pub marks_per_hand: Option<Estimate>,
    /// Texas 42: A-minus-B points taken per hand.
    pub points_per_hand: Option<Estimate>,
    /// Doubles: A's round score minus the B seats' mean, per round.
    pub points_per_round: Option<Estimate>,
    /// Texas 42: the contracts A's team and B's team declared.
    pub contracts: Option<[Contracts; 2]>,
    /// Elo difference A - B from the win rate (`None` when it is 0 or 1).
    pub elo: Option<f64>,
    /// Decisions taken by A and by B.
    pub decisions: [u64; 2],
    /// Seconds A and B spent choosing (wall clock; not deterministic).
    pub agent_seconds: [f64; 2],
}

impl EvalReport {
    /// Mean microseconds per decision of A and B.
    pub fn micros_per_decision(&self) -> [f64; 2] {
        [0, 1].map(|i| self.agent_seconds[i] * 1e6 / self.decisions[i].max(1) as f64)
    }
}
