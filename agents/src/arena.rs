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

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::agent::{Agent, AgentFailure, AgentRng, ViewOf};
use crate::factory::AgentFactory;
use crate::spec::{AgentSpec, SpecError};
use bones_env::seed::splitmix64;
use bones_env::{DealOutcome, Episode, Game, GameState};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// How much to play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Amount {
    /// Whole games (to the target), in total over both seatings.
    Games(u64),
    /// Single hands (Texas 42) or rounds (Doubles), in total over all seatings.
    Hands(u64),
}

/// Evaluation settings shared by both games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalOptions {
    /// How much to play (rounded up to whole duplicate groups).
    pub amount: Amount,
    /// Base seed of the deals.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
}

/// A mean with a 95% interval (`lo`/`hi` are NaN when undefined: fewer than two
/// duplicate groups).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Point estimate.
    pub mean: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

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

    fn add(&mut self, other: &Contracts) {
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
    /// A batched player ([`crate::batched::BatchPolicy`]) could not decide a
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

// ---------------------------------------------------------------------------
// Statistics

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `successes` out of `n` trials (ties may count a
/// half), at normal quantile `z`. `(0, 1)` when `n == 0`.
pub fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference from a score (win probability) `p`: `400 log10(p / (1 - p))`;
/// `None` when `p` is 0 or 1 (or not a number).
pub fn elo_from_score(p: f64) -> Option<f64> {
    elo_vs_field(p, 2)
}

/// Elo difference of A against one opponent when A beats a field of `players - 1`
/// equal opponents with probability `p` (Bradley-Terry): `400 log10(p (n-1) / (1-p))`.
/// `None` when `p` is 0 or 1.
pub fn elo_vs_field(p: f64, players: usize) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) {
        return None;
    }
    Some(400.0 * (p * (players.max(2) - 1) as f64 / (1.0 - p)).log10())
}

/// Mean of `xs` with a normal-approximation interval `mean ± z·sd/√n`
/// (bounds NaN with fewer than two values).
pub fn mean_ci(xs: &[f64], z: f64) -> Estimate {
    let pairs: Vec<(f64, f64)> = xs.iter().map(|&x| (x, 1.0)).collect();
    ratio_ci(&pairs, z)
}

/// A ratio estimate `Σ s / Σ w` over groups `(s, w)` (e.g. a pair's total
/// difference and its hands) with a normal-approximation interval from the
/// linearised variance `n/(n-1) Σ (s - r w)² / (Σ w)²`. With all `w` equal it is
/// the mean of `s / w` with the usual standard error.
pub fn ratio_ci(groups: &[(f64, f64)], z: f64) -> Estimate {
    let n = groups.len() as f64;
    let (ss, sw) = groups.iter().fold((0.0, 0.0), |(a, b), &(s, w)| (a + s, b + w));
    if sw <= 0.0 {
        return Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
    }
    let r = ss / sw;
    if groups.len() < 2 {
        return Estimate { mean: r, lo: f64::NAN, hi: f64::NAN };
    }
    let e2: f64 = groups.iter().map(|&(s, w)| (s - r * w).powi(2)).sum();
    let se = (n / (n - 1.0) * e2).sqrt() / sw;
    Estimate { mean: r, lo: r - z * se, hi: r + z * se }
}

// ---------------------------------------------------------------------------
// Seeds and the worker pool

/// One SplitMix64 step from state `x` ([`bones_env::seed::splitmix64`]): a
/// fixed, well-mixed function of its input.
#[inline]
pub fn mix(x: u64) -> u64 {
    let mut state = x;
    splitmix64(&mut state)
}

/// The seed of deal `i` under base seed `seed`.
#[inline]
pub fn deal_seed(seed: u64, i: u64) -> u64 {
    mix(seed ^ mix(i.wrapping_add(0x5EED)))
}

/// The agents' random stream for one seating of a deal.
#[inline]
pub(crate) fn agent_rng(deal_seed: u64, seating: usize) -> AgentRng {
    AgentRng::seed_from_u64(mix(deal_seed ^ mix(0xA6E7 + seating as u64)))
}

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

/// A thread's two agents, A then B.
type Pair<V> = [Box<dyn Agent<V>>; 2];

/// Plays one duplicate group with a thread's agents.
type PlayGroup<'a, V> = dyn Fn(u64, &mut Pair<V>) -> Result<DealResult, ArenaError> + Sync + 'a;

/// Builds agent A (`0`) or B (`1`) for one worker thread.
pub type MakeAgent<'a, V> = dyn Fn(usize) -> Result<Box<dyn Agent<V>>, SpecError> + Sync + 'a;

/// What was played of a range of deals: each deal's result in deal order
/// (`None` for the deals not finished), and the failure that stopped the play,
/// if one did.
pub(crate) struct Pooled {
    pub(crate) results: Vec<Option<DealResult>>,
    pub(crate) failure: Option<ArenaError>,
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

/// Runs the duplicate groups `range` over `threads` threads; `play(i, agents)`
/// plays group `i` with this thread's agents. Results come back in group order;
/// after a failure no new group is started and the finished ones are kept.
fn run_pool<V>(
    make: &MakeAgent<V>,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    play: &PlayGroup<V>,
) -> Result<Pooled, ArenaError> {
    let groups = range.end - range.start;
    // Build once here so that a bad spec fails before any thread starts.
    make(0)?;
    make(1)?;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<DealResult>>> = Mutex::new(vec![None; groups as usize]);
    let failure: Mutex<Option<ArenaError>> = Mutex::new(None);
    let threads = threads.clamp(1, groups.max(1) as usize);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut agents = match (make(0), make(1)) {
                    (Ok(a), Ok(b)) => [a, b],
                    (Err(e), _) | (_, Err(e)) => {
                        failure.lock().expect("lock").get_or_insert(e.into());
                        return;
                    }
                };
                loop {
                    if failure.lock().expect("lock").is_some() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                    if i >= groups {
                        return;
                    }
                    match play(range.start + i, &mut agents) {
                        Ok(g) => {
                            progress(if g.games > 0 { g.games } else { g.hands });
                            results.lock().expect("lock")[i as usize] = Some(g);
                        }
                        Err(e) => {
                            failure.lock().expect("lock").get_or_insert(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    Ok(Pooled { results: results.into_inner().expect("lock"), failure: failure.into_inner().expect("lock") })
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

fn summarise(
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

pub(crate) fn episode_of(amount: Amount) -> Episode {
    match amount {
        Amount::Games(_) => Episode::Game,
        Amount::Hands(_) => Episode::Hand,
    }
}

/// The duplicate deals an evaluation of `amount` plays when each deal is played
/// once per each of `seatings` (the game's sides): the amount rounded up to whole
/// deals. With [`Amount::Games`] a deal is a whole game.
pub fn deal_count(amount: Amount, seatings: usize) -> Result<u64, ArenaError> {
    let n = match amount {
        Amount::Games(n) | Amount::Hands(n) => n,
    };
    if n == 0 {
        return Err(ArenaError::Empty);
    }
    Ok(n.div_ceil(seatings.max(1) as u64))
}

/// Evaluates A (`specs[0]`) against B (`specs[1]`) on duplicate deals of `game`:
/// every deal is played once with A on each side (a team in Texas 42, a seat in
/// Doubles) and B on every other. `progress` is called with the number of
/// games (or hands) finished after each deal.
pub fn evaluate<G: Game>(
    game: &G,
    specs: [&AgentSpec; 2],
    factory: &AgentFactory,
    opts: &EvalOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<EvalReport, ArenaError> {
    let make = |who: usize| factory.build(specs[who], game);
    evaluate_with(game, [specs[0].to_string(), specs[1].to_string()], &make, opts, progress)
}

/// [`evaluate`] with agents built by `make` (A is `make(0)`, B `make(1)`, once
/// per worker thread) and reported under `names`.
pub fn evaluate_with<G: Game>(
    game: &G,
    names: [String; 2],
    make: &MakeAgent<ViewOf<G>>,
    opts: &EvalOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<EvalReport, ArenaError> {
    let deals = deal_count(opts.amount, game.num_sides())?;
    let pooled = play_deals(game, &names, make, opts, 0..deals, progress)?;
    report_of(game, names, opts.amount, pooled)
}

/// The report of the deals played, or the failure that stopped them (with the
/// report of those finished, if any).
pub(crate) fn report_of<G: Game>(
    game: &G,
    names: [String; 2],
    amount: Amount,
    pooled: Pooled,
) -> Result<EvalReport, ArenaError> {
    let finished: Vec<DealResult> = pooled.results.into_iter().flatten().collect();
    let report = summarise(game.name(), names, game.num_players(), game.num_sides(), amount, &finished);
    match pooled.failure {
        None => Ok(report),
        Some(cause) if finished.is_empty() => Err(cause),
        Some(cause) => Err(ArenaError::Stopped { cause: Box::new(cause), finished: Box::new(report) }),
    }
}

/// The deals `start..end` of an evaluation, played and kept deal by deal so that
/// shards can be merged into the report of the whole evaluation
/// ([`merge_shards`]). Serialisable: a shard travels as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    /// The game's name.
    pub game: String,
    /// The two spec strings, A then B.
    pub agents: [String; 2],
    /// Players at the table.
    pub players: usize,
    /// Sides competing for a win.
    pub sides: usize,
    /// The whole evaluation's amount (not this shard's).
    pub amount: Amount,
    /// Base seed of the deals.
    pub seed: u64,
    /// Index of the first deal.
    pub start: u64,
    /// The results of deals `start..start + deals.len()`, in deal order.
    pub deals: Vec<DealResult>,
}

impl Shard {
    /// One past the index of the last deal.
    pub fn end(&self) -> u64 {
        self.start + self.deals.len() as u64
    }
}

/// Plays the deals `range` (indices into the evaluation's seeded sequence of
/// [`deal_count`] deals) of the evaluation of A (`specs[0]`) against B
/// (`specs[1]`) that [`evaluate`] would run with `opts`; `opts.threads` threads.
pub fn evaluate_shard<G: Game>(
    game: &G,
    specs: [&AgentSpec; 2],
    factory: &AgentFactory,
    opts: &EvalOptions,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Shard, ArenaError> {
    let make = |who: usize| factory.build(specs[who], game);
    evaluate_shard_with(game, [specs[0].to_string(), specs[1].to_string()], &make, opts, range, progress)
}

/// [`evaluate_shard`] with agents built by `make` and reported under `names`.
pub fn evaluate_shard_with<G: Game>(
    game: &G,
    names: [String; 2],
    make: &MakeAgent<ViewOf<G>>,
    opts: &EvalOptions,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Shard, ArenaError> {
    let start = range.start;
    let pooled = play_deals(game, &names, make, opts, range, progress)?;
    shard_of(game, names, opts, start, pooled)
}

/// The shard of the deals from `start` played, or the failure that stopped them.
pub(crate) fn shard_of<G: Game>(
    game: &G,
    names: [String; 2],
    opts: &EvalOptions,
    start: u64,
    pooled: Pooled,
) -> Result<Shard, ArenaError> {
    if let Some(e) = pooled.failure {
        return Err(e);
    }
    Ok(Shard {
        game: game.name().to_string(),
        agents: names,
        players: game.num_players(),
        sides: game.num_sides(),
        amount: opts.amount,
        seed: opts.seed,
        start,
        deals: pooled.results.into_iter().map(|g| g.expect("every deal played when none failed")).collect(),
    })
}

/// The record of a game so far, dealt from `seed`, as one JSON line.
pub(crate) fn record_so_far<G: Game>(game: &G, seed: u64, episode: Episode, actions: &[bones_env::Action]) -> String {
    let names: Vec<&str> = actions.iter().map(|&a| game.action_name(a)).collect();
    let episode = if episode == Episode::Game { "game" } else { "hand" };
    serde_json::json!({"game": game.name(), "rules": game.rules_json(), "seed": seed, "episode": episode,
                       "actions": names})
    .to_string()
}

/// Plays the deals `range` of an evaluation (see [`evaluate_shard_with`]).
fn play_deals<G: Game>(
    game: &G,
    names: &[String; 2],
    make: &MakeAgent<ViewOf<G>>,
    opts: &EvalOptions,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Pooled, ArenaError> {
    let sides = game.num_sides();
    check_range(game, opts, &range)?;
    let episode = episode_of(opts.amount);
    let play = |i: u64, agents: &mut Pair<ViewOf<G>>| -> Result<DealResult, ArenaError> {
        let seed = deal_seed(opts.seed, i);
        let mut g = DealResult::default();
        let mut actions = Vec::new();
        for a_side in 0..sides {
            let mut rng = agent_rng(seed, a_side);
            let mut st = game.new_state(seed, episode);
            let mut s = Seating::default();
            actions.clear();
            while let Some(seat) = st.current_seat() {
                let who = usize::from(game.team_of(seat) != a_side);
                let view = st.view(seat);
                let t0 = Instant::now();
                let a = agents[who].try_act(&view, &mut rng).map_err(|failure| ArenaError::Failed {
                    agent: names[who].clone(),
                    seat,
                    failure: Box::new(failure),
                    record: record_so_far(game, seed, episode, &actions),
                })?;
                s.nanos[who] += t0.elapsed().as_nanos() as u64;
                s.decisions[who] += 1;
                apply_action(game, &mut st, &mut s, &mut actions, a, &names[who], (seed, episode))?;
            }
            s.won = st.winning_side() == Some(a_side);
            add_seating(&mut g, &s, a_side, sides, episode);
        }
        Ok(g)
    };
    run_pool(make, range, opts.threads, progress, &play)
}

/// Checks that `range` is a range of the evaluation's deals.
pub(crate) fn check_range<G: Game>(game: &G, opts: &EvalOptions, range: &Range<u64>) -> Result<(), ArenaError> {
    let deals = deal_count(opts.amount, game.num_sides())?;
    if range.start > range.end || range.end > deals {
        return Err(ArenaError::Range { start: range.start, end: range.end, deals });
    }
    Ok(())
}

/// Plays action `a` of agent `agent` in the game dealt from `seed` (an
/// `episode`): it joins
/// the record, and a deal it finishes joins the seating's outcomes. An illegal
/// action is an error naming it and the legal ones (the state is unchanged).
pub(crate) fn apply_action<G: Game>(
    game: &G,
    st: &mut G::State,
    s: &mut Seating,
    actions: &mut Vec<bones_env::Action>,
    a: bones_env::Action,
    agent: &str,
    (seed, episode): (u64, Episode),
) -> Result<(), ArenaError> {
    let seat = st.current_seat().unwrap_or(0);
    if a >= game.num_actions() {
        return Err(ArenaError::Failed {
            agent: agent.to_string(),
            seat,
            failure: Box::new(AgentFailure {
                what: format!("chose action id {a}, which is not an action of {}", game.name()),
                got: a.to_string(),
                expected: format!("an action id below {} that is legal here", game.num_actions()),
            }),
            record: record_so_far(game, seed, episode, actions),
        });
    }
    st.apply(a).map_err(|e| ArenaError::Illegal {
        agent: agent.to_string(),
        seat,
        action: game.action_name(a).to_string(),
        legal: e.legal.iter().map(|l| game.action_name(l).to_string()).collect(),
        deal_seed: seed,
    })?;
    actions.push(a);
    if let Some(d) = st.finished_deal() {
        s.outcomes.push(d);
    }
    Ok(())
}

/// Splits the deals of an evaluation into `shards` contiguous ranges of sizes
/// that differ by at most one (empty ranges when there are fewer deals).
pub fn shard_ranges(deals: u64, shards: u64) -> Vec<Range<u64>> {
    let shards = shards.max(1);
    (0..shards).map(|k| deals * k / shards..deals * (k + 1) / shards).collect()
}

/// Joins shards of one evaluation of `game` (in any order) into its report: the
/// same [`EvalReport`] as [`evaluate`] with the same seed and amount, to the bit
/// (only `agent_seconds`, wall-clock time, differs from run to run). The shards
/// must cover deals `0..`[`deal_count`] exactly once; empty shards are allowed.
pub fn merge_shards<G: Game>(game: &G, shards: &[Shard]) -> Result<EvalReport, MergeError> {
    let first = shards.first().ok_or(MergeError::NoShards)?;
    let mismatch =
        |field: &'static str, expected: String, found: String| Err(MergeError::Mismatch { field, expected, found });
    let expect = [
        ("game", game.name().to_string()),
        ("players", game.num_players().to_string()),
        ("sides", game.num_sides().to_string()),
        ("agents", format!("{:?}", first.agents)),
        ("amount", format!("{:?}", first.amount)),
        ("seed", first.seed.to_string()),
    ];
    for s in shards {
        let found = [
            s.game.clone(),
            s.players.to_string(),
            s.sides.to_string(),
            format!("{:?}", s.agents),
            format!("{:?}", s.amount),
            s.seed.to_string(),
        ];
        for ((field, expected), found) in expect.iter().zip(found) {
            if *expected != found {
                return mismatch(field, expected.clone(), found);
            }
        }
    }
    let deals = deal_count(first.amount, game.num_sides())
        .map_err(|e| MergeError::Coverage { deals: 0, detail: e.to_string() })?;
    let mut order: Vec<&Shard> = shards.iter().filter(|s| !s.deals.is_empty()).collect();
    order.sort_by_key(|s| s.start);
    let mut next = 0;
    let mut all = Vec::with_capacity(deals as usize);
    for s in order {
        if s.start != next {
            let detail = if s.start > next {
                format!("deals {next}..{} are missing", s.start)
            } else {
                format!("deals {}..{} are in two shards", s.start, next.min(s.end()))
            };
            return Err(MergeError::Coverage { deals, detail });
        }
        all.extend_from_slice(&s.deals);
        next = s.end();
    }
    if next != deals {
        let detail = if next < deals {
            format!("deals {next}..{deals} are missing")
        } else {
            format!("deals {deals}..{next} are past the end")
        };
        return Err(MergeError::Coverage { deals, detail });
    }
    Ok(summarise(game.name(), first.agents.clone(), game.num_players(), game.num_sides(), first.amount, &all))
}

// ---------------------------------------------------------------------------
// Ladder

/// A round robin: every pair evaluated, and a rating per agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// The agents' spec strings.
    pub agents: Vec<String>,
    /// Elo ratings (mean 0), fitted to the pairwise Elo differences.
    pub ratings: Vec<f64>,
    /// Every pair `(i, j)` with `i < j` and its report (A = agent i).
    pub pairs: Vec<(usize, usize, EvalReport)>,
}

/// Fits ratings (mean 0) to pairwise results by weighted least squares on the
/// pairwise Elo differences. Each pair's win rate is shrunk by half a win and half
/// a loss (`(wins + 0.5) / (trials + 1)`) so that perfect records stay finite.
pub fn fit_ratings(agents: usize, pairs: &[(usize, usize, EvalReport)]) -> Vec<f64> {
    let obs: Vec<(usize, usize, f64, f64)> = pairs
        .iter()
        .map(|(i, j, r)| {
            let trials = r.trials as f64;
            let p = (r.wins + 0.5) / (trials + 1.0);
            (*i, *j, elo_vs_field(p, r.sides).unwrap_or(0.0), trials.max(1.0))
        })
        .collect();
    let mut r = vec![0.0f64; agents];
    for _ in 0..2000 {
        let mut change = 0.0f64;
        for k in 0..agents {
            let (mut num, mut den) = (0.0, 0.0);
            for &(i, j, d, w) in &obs {
                if i == k {
                    num += w * (r[j] + d);
                    den += w;
                } else if j == k {
                    num += w * (r[i] - d);
                    den += w;
                }
            }
            if den > 0.0 {
                let new = num / den;
                change = change.max((new - r[k]).abs());
                r[k] = new;
            }
        }
        let mean = r.iter().sum::<f64>() / agents.max(1) as f64;
        r.iter_mut().for_each(|x| *x -= mean);
        if change < 1e-9 {
            break;
        }
    }
    r
}

/// Runs every pair of `specs` through `eval` and fits ratings.
pub fn ladder<E>(
    specs: &[AgentSpec],
    mut eval: impl FnMut(&AgentSpec, &AgentSpec) -> Result<EvalReport, E>,
) -> Result<Ladder, E> {
    let mut pairs = Vec::new();
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            pairs.push((i, j, eval(&specs[i], &specs[j])?));
        }
    }
    let ratings = fit_ratings(specs.len(), &pairs);
    Ok(Ladder { agents: specs.iter().map(|s| s.to_string()).collect(), ratings, pairs })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 8 of 10 at 95%: (0.4902, 0.9433).
        let (lo, hi) = wilson(8.0, 10.0, Z95);
        assert!((lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson(0.0, 20.0, Z95);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.1611).abs() < 1e-3, "{hi}");
        let (lo, hi) = wilson(20.0, 20.0, Z95);
        assert!((lo - 0.8389).abs() < 1e-3 && hi == 1.0);
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn elo_from_win_rates() {
        assert_eq!(elo_from_score(0.5), Some(0.0));
        assert!((elo_from_score(0.76).unwrap() - 200.0).abs() < 1.0);
        assert!((elo_from_score(0.24).unwrap() + 200.0).abs() < 1.0);
        assert_eq!(elo_from_score(0.0), None);
        assert_eq!(elo_from_score(1.0), None);
        assert_eq!(elo_from_score(f64::NAN), None);
        // Beating three equals a quarter of the time is an even match.
        assert!(elo_vs_field(0.25, 4).unwrap().abs() < 1e-9);
    }

    #[test]
    fn mean_and_ratio_intervals() {
        let e = mean_ci(&[1.0, 2.0, 3.0, 4.0], Z95);
        assert_eq!(e.mean, 2.5);
        let se = (1.666_666_666_666_666_7f64 / 4.0).sqrt();
        assert!((e.hi - (2.5 + Z95 * se)).abs() < 1e-12 && (e.lo - (2.5 - Z95 * se)).abs() < 1e-12);
        let one = mean_ci(&[3.0], Z95);
        assert_eq!(one.mean, 3.0);
        assert!(one.lo.is_nan() && one.hi.is_nan());
        // Equal weights: the ratio estimate is the mean of the per-group rates.
        let r = ratio_ci(&[(2.0, 2.0), (4.0, 2.0), (6.0, 2.0), (8.0, 2.0)], Z95);
        let m = mean_ci(&[1.0, 2.0, 3.0, 4.0], Z95);
        assert!((r.mean - m.mean).abs() < 1e-12 && (r.lo - m.lo).abs() < 1e-12 && (r.hi - m.hi).abs() < 1e-12);
        // Unequal weights: the pooled ratio.
        let r = ratio_ci(&[(3.0, 1.0), (3.0, 3.0)], Z95);
        assert!((r.mean - 1.5).abs() < 1e-12 && r.lo < 1.5 && r.hi > 1.5);
    }

    #[test]
    fn mix_is_the_splitmix64_step_it_always_was() {
        // Values of the finaliser arena.rs carried before it used bones_env::seed
        // (every deal seed and agent stream is made of them).
        let pinned: [(u64, u64); 5] = [
            (0, 0xE220_A839_7B1D_CDAF),
            (1, 0x910A_2DEC_8902_5CC1),
            (0x5EED, 0x09F1_FD9D_03F0_A9B4),
            (0xA6E7, 0x8E66_8EB8_7CBF_63F0),
            (u64::MAX, 0xE4D9_7177_1B65_2C20),
        ];
        for (x, y) in pinned {
            assert_eq!(mix(x), y, "mix({x:#x})");
        }
    }

    #[test]
    fn seeds_are_fixed_and_distinct() {
        assert_eq!(deal_seed(1, 0), deal_seed(1, 0));
        assert_ne!(deal_seed(1, 0), deal_seed(1, 1));
        assert_ne!(deal_seed(1, 0), deal_seed(2, 0));
    }
}
