//! Each duplicate deal's figures ([`DealResult`], summed from the seatings
//! played) and the report summed from them ([`EvalReport`]): one counting and
//! one summary for every way deals are played (the arena's threads, the
//! batched lock step, shards merged).

use super::eval_report::{Contracts, EvalReport};
use super::options::Amount;
use super::stats::{elo_vs_field, ratio_ci, wilson, Z95};
use bones_env::{DealOutcome, Episode};
use serde::{Deserialize, Serialize};

/// What one duplicate deal (every seating of it) produced: the figures an
/// [`EvalReport`] is summed from. Floats are serialised as their IEEE-754 bits
/// (a `u64`) so that a report merged from shards is the same to the bit after
/// any trip through JSON.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DealResult {
    /// Whole games played (0 when playing hands).
    pub games: u64,
    /// Hands (rounds) played.
    pub hands: u64,
    /// A's wins (a tie counts a half).
    #[serde(with = "f64_bits")]
    pub wins: f64,
    /// Games (or hands) the wins count.
    pub trials: u64,
    /// Texas 42: A-minus-B marks; Doubles: A's round score minus the B seats' mean.
    #[serde(with = "f64_bits")]
    pub diff: f64,
    /// Texas 42: A-minus-B points taken.
    #[serde(with = "f64_bits")]
    pub points: f64,
    /// Texas 42: contracts declared by A's team and B's team.
    pub contracts: [Contracts; 2],
    /// The deal reported points taken in play (Texas 42).
    pub trick_points: bool,
    /// Decisions taken by A and B.
    pub decisions: [u64; 2],
    /// Nanoseconds A and B spent choosing (wall clock).
    pub nanos: [u64; 2],
}

/// Serde for an `f64` as its bits, exact in any format.
mod f64_bits {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(x.to_bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        u64::deserialize(d).map(f64::from_bits)
    }
}

/// What one seating of a deal produced (A on side `a_side`): the finished deals
/// in order, whether A's side won the game (whole games), A's and B's
/// decisions and time. [`add_seating`] adds it to the deal's result.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seating {
    pub(crate) outcomes: Vec<DealOutcome>,
    pub(crate) won: bool,
    pub(crate) decisions: [u64; 2],
    pub(crate) nanos: [u64; 2],
}

/// Adds a seating with A on side `a_side` to its deal's result. The seatings of
/// a deal are added in side order, each deal in the order played, so the sums
/// are the same to the bit however the games were scheduled.
pub(crate) fn add_seating(g: &mut DealResult, s: &Seating, a_side: usize, sides: usize, episode: Episode) {
    for d in &s.outcomes {
        count_deal(g, d, a_side, sides, episode);
    }
    if episode == Episode::Game {
        g.games += 1;
        g.trials += 1;
        if s.won {
            g.wins += 1.0;
        }
    }
    for who in 0..2 {
        g.decisions[who] += s.decisions[who];
        g.nanos[who] += s.nanos[who];
    }
}

/// Adds one finished deal, seen from A's side `a`, to the group.
fn count_deal(g: &mut DealResult, d: &DealOutcome, a: usize, sides: usize, episode: Episode) {
    g.diff += d.score_margin(a, sides);
    if let Some(p) = d.points_margin(a, sides) {
        g.points += p;
        g.trick_points = true;
    }
    if let Some(c) = d.contract {
        let counts = &mut g.contracts[usize::from(c.side != a)];
        counts.declared += 1;
        counts.made += u64::from(c.made);
        counts.bid_points += u64::from(c.bid_points);
    }
    g.hands += 1;
    if episode == Episode::Hand {
        g.trials += 1;
        g.wins += d.win[a];
    }
}

pub(crate) fn summarise(
    game: &'static str,
    names: [String; 2],
    players: usize,
    sides: usize,
    amount: Amount,
    groups: &[DealResult],
) -> EvalReport {
    let mut total = DealResult::default();
    for g in groups {
        total.games += g.games;
        total.hands += g.hands;
        total.wins += g.wins;
        total.trials += g.trials;
        total.trick_points |= g.trick_points;
        for i in 0..2 {
            total.contracts[i].add(&g.contracts[i]);
            total.decisions[i] += g.decisions[i];
            total.nanos[i] += g.nanos[i];
        }
    }
    let n = total.trials as f64;
    let win_rate = if n > 0.0 { total.wins / n } else { f64::NAN };
    let diff: Vec<(f64, f64)> = groups.iter().map(|g| (g.diff, g.hands as f64)).collect();
    let points: Vec<(f64, f64)> = groups.iter().map(|g| (g.points, g.hands as f64)).collect();
    let (marks_per_hand, points_per_hand, points_per_round) = if total.trick_points {
        (Some(ratio_ci(&diff, Z95)), Some(ratio_ci(&points, Z95)), None)
    } else {
        (None, None, Some(ratio_ci(&diff, Z95)))
    };
    EvalReport {
        game,
        agents: names,
        players,
        sides,
        deals: groups.len() as u64,
        games: total.games,
        hands: total.hands,
        win_unit: match amount {
            Amount::Games(_) => "game",
            Amount::Hands(_) => "hand",
        },
        trials: total.trials,
        wins: total.wins,
        win_rate,
        win_ci: wilson(total.wins, n, Z95),
        marks_per_hand,
        points_per_hand,
        points_per_round,
        contracts: total.trick_points.then_some(total.contracts),
        elo: elo_vs_field(win_rate, sides),
        decisions: total.decisions,
        agent_seconds: total.nanos.map(|x| x as f64 * 1e-9),
    }
}
