//! Perfect-information Monte Carlo search for Texas 42 (`pimc[:worlds=N]`): sample
//! the hidden dominoes consistently with everything public, solve every sampled
//! world exactly with the open-hand [`Solver`], and pick the action with the best
//! average.
//!
//! # Worlds
//! Drawn by [`WorldSampler`] (see [`super::worlds`]): deals of the hidden
//! dominoes uniformly among those consistent with the public record
//! ([`Constraints`](super::Constraints)), each rebuilt as a [`Hand`] by replaying the record.
//!
//! # Objective
//! **Play** (`worlds` worlds per decision). For each legal domino the solver's
//! exact values over the worlds are summed (integer sums, so ties are exact;
//! remaining ties go to the lowest action id) and the best is played:
//! - contracts that need every trick (mark bids, Plunge, Splash, Sevens), Nel-O,
//!   and, under `marks` scoring (the default), point bids too: first the number
//!   of worlds where the mover's team wins the contract fight (bidders make it,
//!   defenders set it; [`Solver::contract_actions`]: a point bid needs the
//!   missing points, the others every trick or, in Nel-O, none for the bidder);
//!   among the dominoes tied on that count, the average points the mover's team
//!   takes from here ([`Solver::solve_actions`]; Nel-O: the fewest points for
//!   the bidder, so the bidder ducks and the defenders make it take tricks). The
//!   points are only solved when there is a tie to break, e.g. once the
//!   contract is settled or hopeless in every world.
//! - point bids under `points` scoring (or with [`PimcAgent::contract_play`]
//!   off): the average points the mover's team takes from here to the end.
//!
//! Under marks scoring a point bid is worth one mark whatever the points, so
//! the contract comes first. (Measured against `heuristic` with `heuristic`
//! bidding for everyone, 300 hands at 8 worlds: contract first +0.08 marks per
//! hand, points only +0.04; the difference is within the noise.)
//!
//! A decision with a single legal action returns it at once.
//!
//! **Bidding** ([`PimcAgent::bid_worlds`] worlds, by default twice `worlds`
//! within 4..=16). Each world deals the other 21 dominoes at random (only a
//! Plunge/Splash by an earlier seat constrains it; other bids are not read) and,
//! with this seat as the bidder leading the first trick, solves:
//! - the points the bidding team takes with each trump declaration worth trying
//!   ([`trumps_worth_trying`]: a pip suit or doubles of which the hand holds at
//!   least two, and follow-me); all seven tricks are won exactly when that is 42;
//! - whether Nel-O and Sevens are made (when enabled and a legal mark bid allows
//!   them), and, when this seat may bid Plunge/Splash, whether the partner
//!   (declaring each trump and leading) takes every trick.
//!
//! A point bid b *qualifies* when some declaration averages at least
//! b + [`BidThresholds::point_margin`] points (default 4) and reaches b in at least
//! [`BidThresholds::point_prob`] of the worlds (default 0.8). A mark bid of k marks
//! (Plunge 4, Splash 3) qualifies when its best declaration makes it in at least
//! [`BidThresholds::mark_prob`] of the worlds (default 0.95, i.e. every one of 16);
//! its expected marks are k × (2p − 1). The agent bids:
//! - the cheapest qualifying point bid (the auction has one round, so the
//!   cheapest bid that wins it is the least risk; [`BidThresholds::pre_empt`] bids
//!   the highest instead, except for the last seat), unless a qualifying mark bid
//!   expects more marks than that point bid's 2p − 1 (then the mark bid with the
//!   most expected marks);
//! - nothing over its partner's high bid, except a qualifying mark bid worth
//!   more marks than the partner's bid;
//! - pass otherwise; when forced (the shaker after three passes) the cheapest
//!   legal bid.
//!
//! The open-hand values are optimistic for the bidder (it plays as if it saw
//! every hand), and with few worlds the best of several declarations looks
//! better than it is; hence the margin, the high probabilities and the 16
//! worlds. With 4 bidding worlds and thresholds of 0.6 / 0 points the agent won
//! 95% of the auctions against `heuristic`, made a third of them and lost about
//! half a mark per hand; the defaults were picked from a small grid (about 0.1
//! to 0.19 marks per hand ahead over 200 hands each, within the noise of each
//! other).
//!
//! **Declaring** (`max(worlds, bid_worlds)` worlds, sampled given the public
//! bids, so a partner's Plunge/Splash puts at least 4/3 doubles in the
//! plunger's hand): each legal declaration is played out in every world from
//! the opening lead; the agent picks the most worlds where the contract is made
//! ([`Solver::contract`]: a point bid's points, every trick, or Nel-O's none),
//! ties broken by the average points (Nel-O and Sevens lose ties to the trump
//! declarations), then by the lowest id.
//!
//! Scores are exact minimax values of open-hand play, so the usual PIMC caveats
//! apply (strategy fusion: the solver assumes it will know the hidden hands in
//! the rest of the hand; no inference from the other seats' choices).

use bones_env::texas42::actions::{
    BID_1M, BID_30, DOUBLES, FOLLOW_ME, NEL_O, PASS, PLUNGE, SEVENS, SPLASH, TRUMP_BLANKS,
};
use bones_env::texas42::{bid_marks, bid_value, is_mark_bid, Hand, Phase};
use bones_env::{Action, ActionMask, DominoSet, Scoring, Variant};

use super::stream::{Drawn, Worlds};
use super::worlds::WorldSampler;
use crate::agent::{ActionValues, Agent, AgentRng, Explained};
use crate::solver::Solver;
use bones_env::Texas42View;

/// The trump declarations simulated for point and mark bids: `blanks` …
/// `sixes`, `doubles`, `follow-me` (ids `TRUMP_BLANKS..=FOLLOW_ME`).
pub const TRUMP_DECLARATIONS: usize = 9;

/// Bidding thresholds (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BidThresholds {
    /// A point bid b needs a declaration averaging at least b + this many points.
    pub point_margin: f64,
    /// … that reaches b in at least this fraction of the worlds.
    pub point_prob: f64,
    /// A mark bid (Plunge, Splash) needs a declaration making it in at least
    /// this fraction of the worlds.
    pub mark_prob: f64,
    /// Bid the highest qualifying point bid (pre-empt) instead of the cheapest.
    pub pre_empt: bool,
}

impl Default for BidThresholds {
    fn default() -> Self {
        BidThresholds { point_margin: 4.0, point_prob: 0.8, mark_prob: 0.95, pre_empt: false }
    }
}

/// The trump declarations (indices, as in [`BidEstimate::points`]) worth
/// simulating for a hand: a pip suit or doubles of which it holds at least two,
/// and follow-me. The others are never simulated (their points stay 0).
pub fn trumps_worth_trying(hand: DominoSet) -> ActionMask {
    let mut m = ActionMask(1 << (FOLLOW_ME - TRUMP_BLANKS));
    for pip in 0..7u8 {
        if (hand & DominoSet::with_pip(pip)).len() >= 2 {
            m.insert(pip as usize);
        }
    }
    if (hand & DominoSet::DOUBLES).len() >= 2 {
        m.insert(DOUBLES - TRUMP_BLANKS);
    }
    m
}

/// What the bidding simulation found for one hand (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BidEstimate {
    /// Worlds simulated.
    pub worlds: u32,
    /// Per world, the bidding team's points with each trump declaration
    /// (index: declaration − `TRUMP_BLANKS`).
    pub points: Vec<[u8; TRUMP_DECLARATIONS]>,
    /// Worlds where Nel-O is made (`None`: not simulated).
    pub nello: Option<u32>,
    /// Worlds where Sevens is made (`None`: not simulated).
    pub sevens: Option<u32>,
    /// Per trump declaration, worlds where the partner (declaring it and
    /// leading) takes every trick after this seat's Plunge/Splash (`None`: not
    /// simulated).
    pub plunge: Option<[u32; TRUMP_DECLARATIONS]>,
}

impl BidEstimate {
    fn frac(&self, n: u32) -> f64 {
        n as f64 / self.worlds.max(1) as f64
    }
    /// Mean points of trump declaration `d` (index).
    pub fn mean(&self, d: usize) -> f64 {
        self.points.iter().map(|p| p[d] as f64).sum::<f64>() / self.worlds.max(1) as f64
    }
    /// Fraction of worlds where declaration `d` takes at least `b` points.
    pub fn reach(&self, d: usize, b: u32) -> f64 {
        self.frac(self.points.iter().filter(|p| p[d] as u32 >= b).count() as u32)
    }
    /// Make-probability of the best declaration for an ordinary mark bid: every
    /// trick with a trump declaration, Sevens, or Nel-O when `nello_ok` (the
    /// bid reaches `nello_min_marks`).
    pub fn mark_prob(&self, nello_ok: bool) -> f64 {
        let mut p = (0..TRUMP_DECLARATIONS).map(|d| self.reach(d, 42)).fold(0.0, f64::max);
        if let Some(n) = self.sevens {
            p = p.max(self.frac(n));
        }
        if let (Some(n), true) = (self.nello, nello_ok) {
            p = p.max(self.frac(n));
        }
        p
    }
    /// Make-probability of this seat's Plunge/Splash (the partner's best trump).
    pub fn plunge_prob(&self) -> f64 {
        self.plunge.map_or(0.0, |m| m.iter().map(|&n| self.frac(n)).fold(0.0, f64::max))
    }
}

/// The PIMC agent. See the module docs for the objective.
pub struct PimcAgent {
    /// Worlds per play decision (at least 1); declaring uses
    /// `max(worlds, bid_worlds)`.
    pub worlds: u32,
    /// Worlds per bidding decision (at least 1).
    pub bid_worlds: u32,
    /// Bidding thresholds.
    pub policy: BidThresholds,
    /// Under marks scoring, play point bids for the contract first (points as
    /// the tie-break), like mark bids.
    pub contract_play: bool,
    solver: Solver,
}

impl PimcAgent {
    /// An agent with `worlds` worlds per play/declaring decision and
    /// [`PimcAgent::default_bid_worlds`] per bidding decision.
    pub fn new(worlds: u32) -> PimcAgent {
        let worlds = worlds.max(1);
        PimcAgent {
            worlds,
            bid_worlds: PimcAgent::default_bid_worlds(worlds),
            policy: BidThresholds::default(),
            contract_play: true,
            solver: Solver::new(),
        }
    }

    /// Worlds per bidding decision for `worlds` play worlds: twice as many, at
    /// least 4 and at most 16. Each bidding world costs a points solve per
    /// simulated trump (about 5 ms each here), and the bid thresholds need about
    /// 16 worlds: with fewer, the best of nine declarations looks better than it
    /// is and the agent overbids.
    pub fn default_bid_worlds(worlds: u32) -> u32 {
        (2 * worlds).clamp(4, 16)
    }

    /// Whether a play in `v` is chosen by the contract fight first (points
    /// only break ties), or by points alone: see the module docs.
    pub fn contract_decides(&self, v: &Texas42View) -> bool {
        v.declaration == Some(NEL_O)
            || bid_value(v.high_bid) >= 42
            || (self.contract_play && v.rules.scoring == Scoring::Marks)
    }

    /// The open-hand solver this agent plays with (its table persists between
    /// decisions).
    pub(crate) fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// Chooses a play: see the module docs. Returns every legal action with its
    /// score `(worlds won, summed points)`; the best is first.
    pub fn play_scores(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Vec<(Action, u32, i64)> {
        let sampler = WorldSampler::new(v);
        let worlds = Drawn::new(self.worlds, rng, |r| sampler.world(v, r));
        self.score_plays(v, &worlds)
    }

    /// [`PimcAgent::play_scores`] over the given worlds (each the view's hand
    /// in some deal; a world given twice counts twice).
    pub fn score_plays<W: Worlds<Hand> + ?Sized>(&mut self, v: &Texas42View, worlds: &W) -> Vec<(Action, u32, i64)> {
        let legal = v.legal;
        let mut wins = [0u32; 28];
        let mut points = [0i64; 28];
        let contract = self.contract_decides(v);
        let mut solve_points = !contract;
        if contract {
            worlds.for_each_world(|h| {
                for (a, ok) in self.solver.contract_actions(h) {
                    wins[a] += ok as u32;
                }
            });
            let best = legal.iter().map(|a| wins[a]).max().unwrap_or(0);
            solve_points = legal.iter().filter(|&a| wins[a] == best).count() > 1;
        }
        if solve_points {
            let sign = if v.declaration == Some(NEL_O) { -1 } else { 1 };
            let mut buf = Vec::with_capacity(7);
            worlds.for_each_world(|h| {
                self.solver.solve_actions_into(h, &mut buf);
                for &(a, p) in &buf {
                    points[a] += sign * p as i64;
                }
            });
        }
        ranked(legal.iter().map(|a| (a, wins[a], points[a])))
    }

    /// Simulates this seat's bids (see the module docs).
    pub fn bid_estimate(&mut self, v: &Texas42View, rng: &mut AgentRng) -> BidEstimate {
        let sampler = WorldSampler::new(v);
        let seat = v.seat;
        let legal = v.legal;
        let rules = v.rules;
        let mark_legal = legal.iter().any(is_mark_bid);
        let max_mark = legal.iter().filter(|&a| is_mark_bid(a)).map(bid_marks).max().unwrap_or(0);
        let nello = rules.variants.has(Variant::NelO) && max_mark >= rules.nello_min_marks as u32;
        let sevens = rules.variants.has(Variant::Sevens) && mark_legal;
        let plunge = legal.contains(PLUNGE) || legal.contains(SPLASH);
        let special = if legal.contains(PLUNGE) { PLUNGE } else { SPLASH };
        let mut est = BidEstimate {
            worlds: self.bid_worlds,
            nello: nello.then_some(0),
            sevens: sevens.then_some(0),
            plunge: plunge.then_some([0; TRUMP_DECLARATIONS]),
            ..BidEstimate::default()
        };
        // This seat bids first and the others pass; Nel-O is allowed at 1 mark
        // in the simulation (the contract is the same at any mark bid).
        let mut sim_rules = rules;
        sim_rules.nello_min_marks = 1;
        let contract_hand = |dealt: [DominoSet; 4], bid: Action, decl: Action| -> Hand {
            let mut h = Hand::new(sim_rules, (seat + 3) % 4, dealt);
            for a in [bid, PASS, PASS, PASS, decl] {
                h.apply(a).expect("simulated bidding is legal");
            }
            h
        };
        let trumps_tried = trumps_worth_trying(v.hand);
        for _ in 0..self.bid_worlds {
            let dealt = sampler.sample(rng);
            let mut pts = [0u8; TRUMP_DECLARATIONS];
            for (d, p) in pts.iter_mut().enumerate() {
                if trumps_tried.contains(d) {
                    let h = contract_hand(dealt, BID_30, TRUMP_BLANKS + d);
                    *p = self.solver.value(&h) as u8;
                }
            }
            est.points.push(pts);
            if let Some(n) = est.nello.as_mut() {
                *n += self.solver.contract(&contract_hand(dealt, BID_1M, NEL_O)) as u32;
            }
            if let Some(n) = est.sevens.as_mut() {
                *n += self.solver.contract(&contract_hand(dealt, BID_1M, SEVENS)) as u32;
            }
            if let Some(m) = est.plunge.as_mut() {
                for (d, n) in m.iter_mut().enumerate() {
                    *n += self.solver.contract(&contract_hand(dealt, special, TRUMP_BLANKS + d)) as u32;
                }
            }
        }
        est
    }

    /// The bid chosen from an estimate (see the module docs).
    pub fn choose_bid(&self, v: &Texas42View, est: &BidEstimate) -> Action {
        let legal = v.legal;
        let pol = &self.policy;
        let partner_high = v.bidder == Some(v.partner());
        let last = v.bids.iter().filter(|b| b.is_some()).count() == 3;
        // Point bids.
        let point_prob = |b: u32| -> Option<f64> {
            (0..TRUMP_DECLARATIONS)
                .filter(|&d| est.mean(d) >= b as f64 + pol.point_margin)
                .map(|d| est.reach(d, b))
                .filter(|&p| p >= pol.point_prob)
                .fold(None, |acc: Option<f64>, p| Some(acc.map_or(p, |a| a.max(p))))
        };
        let points: Vec<(Action, f64)> = legal
            .iter()
            .filter(|&a| (BID_30..BID_1M).contains(&a))
            .filter_map(|a| point_prob(bid_value(a)).map(|p| (a, p)))
            .collect();
        let point = if last || !pol.pre_empt { points.first() } else { points.last() }.copied();
        // Mark bids.
        let mut mark: Option<(Action, f64)> = None;
        for a in legal.iter().filter(|&a| is_mark_bid(a) || a == PLUNGE || a == SPLASH) {
            let k = bid_marks(a);
            let p = if is_mark_bid(a) { est.mark_prob(k >= v.rules.nello_min_marks as u32) } else { est.plunge_prob() };
            if p < pol.mark_prob {
                continue;
            }
            let ev = k as f64 * (2.0 * p - 1.0);
            if mark.is_none_or(|(_, best)| ev > best) {
                mark = Some((a, ev));
            }
        }
        let point_ev = point.map(|(_, p)| 2.0 * p - 1.0);
        let choice = match (point, mark) {
            (_, Some((m, ev))) if point_ev.is_none_or(|pe| ev > pe) => Some(m),
            (Some((b, _)), _) => Some(b),
            _ => None,
        };
        let choice = match choice {
            Some(a) if partner_high => {
                { (is_mark_bid(a) || a == PLUNGE || a == SPLASH) && bid_marks(a) > bid_marks(v.high_bid) }.then_some(a)
            }
            c => c,
        };
        match choice {
            Some(a) => a,
            None if legal.contains(PASS) => PASS,
            None => legal.iter().next().expect("a legal bid"),
        }
    }

    /// Scores each legal declaration: `(declaration, worlds made, summed
    /// points)`, the best first (see the module docs).
    pub fn declare_scores(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Vec<(Action, u32, i64)> {
        let sampler = WorldSampler::new(v);
        let worlds = Drawn::new(self.worlds.max(self.bid_worlds), rng, |r| sampler.world(v, r));
        self.score_declarations(v, &worlds, v.legal)
    }

    /// [`PimcAgent::declare_scores`] over the given worlds, for the
    /// declarations in `candidates` (legal ones; a world given twice counts twice).
    pub fn score_declarations<W: Worlds<Hand> + ?Sized>(
        &mut self,
        v: &Texas42View,
        worlds: &W,
        candidates: ActionMask,
    ) -> Vec<(Action, u32, i64)> {
        let legal = ActionMask(v.legal.0 & candidates.0);
        let mut made = [0u32; 64];
        let mut points = [0i64; 64];
        worlds.for_each_world(|h0| {
            for d in legal.iter() {
                let mut h = *h0;
                h.apply(d).expect("legal declaration");
                made[d] += self.solver.contract(&h) as u32;
            }
        });
        let best = legal.iter().map(|d| made[d]).max().unwrap_or(0);
        let tied: Vec<Action> = legal.iter().filter(|&d| made[d] == best).collect();
        if tied.len() > 1 {
            for &d in &tied {
                if d > FOLLOW_ME {
                    points[d] = -1; // Nel-O and Sevens lose ties to trumps
                    continue;
                }
                worlds.for_each_world(|h0| {
                    let mut h = *h0;
                    h.apply(d).expect("legal declaration");
                    points[d] += self.solver.value(&h) as i64;
                });
            }
        }
        ranked(legal.iter().map(|d| (d, made[d], points[d])))
    }
}

impl Clone for PimcAgent {
    /// A copy with the same settings and a fresh solver (the solver's table only
    /// speeds searches up; it never changes a result).
    fn clone(&self) -> Self {
        PimcAgent {
            worlds: self.worlds,
            bid_worlds: self.bid_worlds,
            policy: self.policy,
            contract_play: self.contract_play,
            solver: Solver::new(),
        }
    }
}

impl std::fmt::Debug for PimcAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PimcAgent")
            .field("worlds", &self.worlds)
            .field("bid_worlds", &self.bid_worlds)
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl Default for PimcAgent {
    fn default() -> Self {
        PimcAgent::new(crate::spec::DEFAULT_PIMC_WORLDS)
    }
}

impl Agent<Texas42View> for PimcAgent {
    fn act(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Action {
        self.explain(v, rng).action
    }

    /// The action with, for a declaration or a play with a choice, the
    /// values it was chosen by ([`PimcAgent::declaration_values`],
    /// [`PimcAgent::play_values`]).
    fn explain(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Explained {
        Explained::of_choice(v.legal, "pimc agent", || match v.phase {
            Phase::Bidding => {
                let est = self.bid_estimate(v, rng);
                Explained { action: self.choose_bid(v, &est), values: None }
            }
            Phase::Declaring => {
                let sampler = WorldSampler::new(v);
                let worlds = Drawn::new(self.worlds.max(self.bid_worlds), rng, |r| sampler.world(v, r));
                let scores = self.score_declarations(v, &worlds, v.legal);
                Explained { action: scores[0].0, values: Some(declaration_values(&scores, worlds.len())) }
            }
            Phase::Playing => {
                let sampler = WorldSampler::new(v);
                let worlds = Drawn::new(self.worlds, rng, |r| sampler.world(v, r));
                let scores = self.score_plays(v, &worlds);
                Explained { action: scores[0].0, values: Some(self.play_values(v, &scores, worlds.len())) }
            }
            Phase::Done => unreachable!("no action in a finished hand"),
        })
    }
}

impl PimcAgent {
    /// The scores of [`PimcAgent::score_plays`] over `worlds` worlds as a
    /// person reads them: where the contract decides (see the module docs),
    /// the share of the worlds in which the mover's side wins the contract
    /// fight; else the mean points the mover's side takes from here.
    pub fn play_values(&self, v: &Texas42View, scores: &[(Action, u32, i64)], worlds: usize) -> ActionValues {
        let n = worlds.max(1) as f64;
        if self.contract_decides(v) {
            ActionValues {
                unit: format!("share of {worlds} sampled worlds in which your side wins the contract"),
                values: scores.iter().map(|&(a, wins, _)| (a, wins as f64 / n)).collect(),
            }
        } else {
            ActionValues {
                unit: format!("points your side takes from here, mean over {worlds} sampled worlds"),
                values: scores.iter().map(|&(a, _, points)| (a, points as f64 / n)).collect(),
            }
        }
    }
}

/// The scores of [`PimcAgent::score_declarations`] over `worlds` worlds as a
/// person reads them: the share of the worlds in which the contract is made.
pub fn declaration_values(scores: &[(Action, u32, i64)], worlds: usize) -> ActionValues {
    let n = worlds.max(1) as f64;
    ActionValues {
        unit: format!("share of {worlds} sampled worlds in which the contract is made"),
        values: scores.iter().map(|&(a, made, _)| (a, made as f64 / n)).collect(),
    }
}

/// Scores `(action, worlds won, points)` sorted best first by (worlds won,
/// points); the sort is stable, so ties keep id order (the lowest id first).
pub(crate) fn ranked(scores: impl Iterator<Item = (Action, u32, i64)>) -> Vec<(Action, u32, i64)> {
    let mut scores: Vec<_> = scores.collect();
    scores.sort_by_key(|x| std::cmp::Reverse((x.1, x.2)));
    scores
}
