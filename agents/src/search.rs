//! Policy-guided search for Texas 42 (the
//! `search[:worlds=N][:pool=N][:bidding=policy|pimc|playout][:caution=K][:weighted=on|off][:continuation=solver|policy|infoset][:exact=K][:model=PATH]`
//! spec): a trained policy and the open-hand [`Solver`](crate::Solver) together.
//!
//! # Worlds, weighted by the policy
//! Every decision after the bidding samples `pool` worlds uniformly among the
//! deals consistent with the public record ([`WorldSampler`], as `pimc` does)
//! and weighs each by how likely the policy finds what the other three seats
//! did in it (*policy-based inference*): the world's deal is replayed from the
//! start, and before each public action of another seat that had a choice, the
//! policy is asked (one batch for the whole pool) for the probability of the
//! action taken, given that seat's observation in that world. A world's weight
//! is the product of these probabilities, each at least
//! [`SearchSettings::floor`] (the policy is a model of the other players, not
//! the truth: one surprising action should make a world unlikely, not
//! impossible). `worlds` worlds are then drawn from the pool in proportion to
//! their weights (systematic resampling, so a heavy world may come more than
//! once and counts as often as it comes). With `weighted=off` the `worlds`
//! worlds are drawn uniformly, as `pimc` draws them.
//!
//! # Decisions
//! - **Bidding** (`bidding=policy`, the default): the policy's most probable
//!   bid. With `bidding=pimc`, `pimc`'s simulation (see [`crate::pimc`]).
//!   With `bidding=playout`, each legal bid is priced by what Bones' own play
//!   makes of it: in each weighted world the bid is made and the rest of the
//!   hand (the other seats' bids, the declaration, the play) is played out
//!   by the policy in every seat from its own view, the solver finishing the
//!   last tricks ([`SearchAgent::price_bids`]); the bid with the best mean
//!   award (marks won minus marks lost) is made. With `caution=K`, a bid is
//!   valued by what it gains over passing in the same worlds, less `K`
//!   standard errors of that gain ([`cautious_values`]): the bid chosen as
//!   the best of several noisy estimates is the one whose estimate is most
//!   likely too high (the optimizer's curse), and the caution pays for it.
//! - **Declaring**: the candidates are the declarations to which the policy
//!   gives at least [`SearchSettings::candidate_ratio`] of its favourite's
//!   probability (with `bidding=pimc`: every legal declaration); one candidate
//!   is declared at once, several are scored over the weighted worlds as `pimc`
//!   scores declarations (the most worlds where the contract is made, then the
//!   most points).
//! - **Play**: `pimc`'s objective over the weighted worlds (the contract first,
//!   then points; [`PimcAgent::score_plays`]).
//!
//! # Continuations
//! How a candidate (a declaration or a play) is valued in one world:
//! - `continuation=solver`: the open-hand solver, every seat playing as if all
//!   hands were known (the default until `infoset` measured stronger).
//! - `continuation=policy[:exact=K]`: the policy plays the hand out in every
//!   seat from that seat's own view, the solver finishing the last `K` tricks
//!   (default [`DEFAULT_EXACT_TRICKS`]; see [`crate::playout`]). A decision
//!   with `K` or fewer tricks left is the solver's.
//! - `continuation=infoset[:exact=K]` (the default): the open-hand solver
//!   while more than `K` tricks are left (default
//!   [`DEFAULT_INFOSET_TRICKS`]); with `K` or fewer, the rest of the hand is
//!   searched over all the worlds at once, every seat (this one included)
//!   choosing one play per information set, not one per world
//!   ([`crate::infoset`]).
//!
//! Every way, a candidate's score is the worlds in which the mover's side wins
//! the contract fight, then the points it takes.
//!
//! A decision with a single legal action returns it at once. The agent uses
//! only the view, the policy and its random stream, so it is deterministic for
//! a seed.

use bones_env::texas42::{Hand, Phase, FOLLOW_ME, NEL_O, PASS};
use bones_env::{Action, ActionMask, Scoring, SeatView, Texas42View};
use rand::Rng;

use crate::agent::{ActionValues, Agent, AgentRng, Explained};
use crate::pimc::{declaration_values, public_actions, ranked, PimcAgent, WorldSampler};
use crate::playout::{Playouts, Tally, WorldAwards};
use crate::policy::{legal_prob, Policy};
use crate::spec::{
    Bidding, Continuation, SearchOptions, DEFAULT_EXACT_TRICKS, DEFAULT_INFOSET_TRICKS, DEFAULT_SEARCH_WORLDS,
};

/// The settings of a [`SearchAgent`] (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchSettings {
    /// Worlds solved per decision.
    pub worlds: u32,
    /// Worlds sampled and weighted per decision (at least `worlds`).
    pub pool: u32,
    /// How bids are chosen (the policy proposes the declarations unless
    /// `Bidding::Pimc`).
    pub bidding: Bidding,
    /// Weigh the worlds by the policy (else uniform).
    pub weighted: bool,
    /// Least probability an observed action contributes to a world's weight.
    pub floor: f32,
    /// A declaration is a candidate when the policy gives it at least this
    /// fraction of the most probable declaration's probability.
    pub candidate_ratio: f32,
    /// How a candidate is valued in each world.
    pub continuation: Continuation,
    /// `bidding=playout`: standard errors of its gain over passing a bid
    /// gives up (see [`cautious_values`]).
    pub caution: f64,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            worlds: DEFAULT_SEARCH_WORLDS,
            pool: 4 * DEFAULT_SEARCH_WORLDS,
            bidding: Bidding::Policy,
            weighted: true,
            floor: 0.02,
            candidate_ratio: 0.25,
            continuation: Continuation::Infoset { exact: DEFAULT_INFOSET_TRICKS },
            caution: 0.0,
        }
    }
}

impl From<&SearchOptions> for SearchSettings {
    /// The settings a parsed `search:…` spec asks for (the other fields at
    /// their defaults).
    fn from(o: &SearchOptions) -> SearchSettings {
        SearchSettings {
            worlds: o.worlds,
            pool: o.pool.max(o.worlds),
            bidding: o.bidding,
            weighted: o.weighted,
            continuation: o.continuation,
            caution: o.caution as f64 / 100.0,
            ..SearchSettings::default()
        }
    }
}

/// The policy-guided search agent (see the module docs).
pub struct SearchAgent {
    settings: SearchSettings,
    policy: Box<dyn Policy>,
    pimc: PimcAgent,
    obs_len: usize,
    /// Observation rows of one weighing, reused.
    obs: Vec<f32>,
}

/// One action of another seat in one world: the world, the action, and what
/// was legal then.
#[derive(Copy, Clone, Debug)]
struct Observed {
    world: usize,
    action: Action,
    legal: ActionMask,
}

impl SearchAgent {
    /// An agent asking `policy` (trained on observations of `obs_len` floats).
    pub fn new(policy: Box<dyn Policy>, settings: SearchSettings, obs_len: usize) -> SearchAgent {
        let mut settings = settings;
        settings.worlds = settings.worlds.max(1);
        settings.pool = settings.pool.max(settings.worlds);
        let pimc = PimcAgent::new(settings.worlds);
        SearchAgent { settings, policy, pimc, obs_len, obs: Vec::new() }
    }

    /// The settings.
    pub fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    /// The policy's probabilities of the legal actions of `v`, in id order.
    pub fn policy_probs(&mut self, v: &Texas42View) -> Vec<(Action, f32)> {
        let mut obs = vec![0.0; self.obs_len];
        v.observe(&mut obs);
        let logits = self.policy.logits(&obs, 1);
        v.legal.iter().map(|a| (a, legal_prob(&logits, v.legal, a))).collect()
    }

    /// The pool's worlds (each the view's hand in one consistent deal) and the
    /// log-weight of each: the sum over the other seats' past choices of
    /// `ln max(p, floor)`, `p` the policy's probability of the action taken.
    pub fn weighted_pool(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Vec<(Hand, f64)> {
        let sampler = WorldSampler::new(v);
        let pool = sampler.worlds(v, self.settings.pool, rng);
        let history = public_actions(v);
        let n = self.obs_len;
        self.obs.clear();
        let mut observed: Vec<Observed> = Vec::with_capacity(pool.len() * history.len());
        for (w, world) in pool.iter().enumerate() {
            let mut h = Hand::new(v.rules, v.dealer, world.dealt);
            for &a in &history {
                let seat = h.to_move;
                if seat != v.seat && h.legal_mask().len() > 1 {
                    let mut sv = Texas42View::from_hand(&h, seat);
                    sv.totals = v.totals;
                    sv.hands_played = v.hands_played;
                    let at = self.obs.len();
                    self.obs.resize(at + n, 0.0);
                    sv.observe(&mut self.obs[at..]);
                    observed.push(Observed { world: w, action: a, legal: sv.legal });
                }
                h.apply(a).expect("a sampled world replays the public record");
            }
        }
        let mut log_w = vec![0.0f64; pool.len()];
        if !observed.is_empty() {
            let logits = self.policy.logits(&self.obs, observed.len());
            let width = logits.len() / observed.len();
            let floor = self.settings.floor.max(f32::MIN_POSITIVE);
            for (i, o) in observed.iter().enumerate() {
                let p = legal_prob(&logits[i * width..(i + 1) * width], o.legal, o.action);
                log_w[o.world] += p.max(floor).ln() as f64;
            }
        }
        pool.into_iter().zip(log_w).collect()
    }

    /// The worlds a decision is solved in: `worlds` of them, drawn from the
    /// weighted pool (or uniformly with `weighted=off`).
    pub fn worlds(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Vec<Hand> {
        if !self.settings.weighted {
            return WorldSampler::new(v).worlds(v, self.settings.worlds, rng);
        }
        let pool = self.weighted_pool(v, rng);
        resample(&pool, self.settings.worlds as usize, rng)
    }

    fn declare(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Explained {
        let candidates = if self.settings.bidding != Bidding::Pimc {
            let probs = self.policy_probs(v);
            let best = probs.iter().map(|&(_, p)| p).fold(0.0, f32::max);
            let mut m = ActionMask::EMPTY;
            for (a, p) in probs {
                if p >= self.settings.candidate_ratio * best {
                    m.insert(a);
                }
            }
            m
        } else {
            v.legal
        };
        if candidates.len() == 1 {
            return Explained { action: candidates.nth(0), values: None };
        }
        let worlds = self.worlds(v, rng);
        let scores = match self.playouts_from(&worlds) {
            Some(mut playouts) => {
                let tallies = playouts.scores(v, &worlds, candidates);
                // Nel-O and Sevens lose ties to trumps, as in `pimc`.
                ranked(tallies.iter().map(|t| (t.action, t.won, if t.action > FOLLOW_ME { -1 } else { t.points })))
            }
            None => self.pimc.score_declarations(v, &worlds, candidates),
        };
        Explained { action: scores[0].0, values: Some(declaration_values(&scores, worlds.len())) }
    }

    fn play(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Explained {
        let worlds = self.worlds(v, rng);
        let by_contract = self.pimc.contract_decides(v);
        let scores = if self.infoset_decides(&worlds) {
            ranked(crate::infoset::score_plays(&worlds, by_contract, self.pimc.solver()).into_iter())
        } else if let Some(mut playouts) = self.playouts_from(&worlds) {
            let tallies = playouts.scores(v, &worlds, v.legal);
            let sign = if v.declaration == Some(NEL_O) { -1 } else { 1 };
            ranked(tallies.iter().map(|t| (t.action, if by_contract { t.won } else { 0 }, sign * t.points)))
        } else {
            self.pimc.score_plays(v, &worlds)
        };
        let values = self.pimc.play_values(v, &scores, worlds.len());
        Explained { action: scores[0].0, values: Some(values) }
    }

    /// Every legal bid of `v` with its [`Tally`] over the weighted worlds:
    /// each bid made in each world and the rest of the hand (the auction, the
    /// declaration, the play) played out by the policy in every seat, the
    /// solver finishing the last tricks as in `continuation=policy` (with its
    /// `exact`, else [`DEFAULT_EXACT_TRICKS`]). `made / contracts` of a bid is
    /// its predicted make rate when this seat ends up the bidder; `award /
    /// worlds` its expected award. Also the number of worlds.
    pub fn price_bids(&mut self, v: &Texas42View, rng: &mut AgentRng) -> (Vec<Tally>, usize) {
        let (tallies, awards) = self.price_bids_by_world(v, rng);
        (tallies, awards.copies.iter().sum::<u32>() as usize)
    }

    /// [`SearchAgent::price_bids`] with every bid's award in every distinct
    /// world.
    pub fn price_bids_by_world(&mut self, v: &Texas42View, rng: &mut AgentRng) -> (Vec<Tally>, WorldAwards) {
        let worlds = self.worlds(v, rng);
        let exact = match self.settings.continuation {
            Continuation::Policy { exact } => exact,
            Continuation::Solver | Continuation::Infoset { .. } => DEFAULT_EXACT_TRICKS,
        };
        self.playouts(exact).awards(v, &worlds, v.legal)
    }

    /// `bidding=playout`'s bid: the one with the best value by
    /// [`cautious_values`] (ties to the lowest id), with its [`Tally`].
    pub fn priced_bid(&mut self, v: &Texas42View, rng: &mut AgentRng) -> (Tally, Explained) {
        let (tallies, awards) = self.price_bids_by_world(v, rng);
        let values = cautious_values(&tallies, &awards, self.settings.caution);
        let mut order: Vec<usize> = (0..tallies.len()).collect();
        order.sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
        let best = order[0];
        // Without caution the explanation shows the mean awards (the same order).
        let shown = if self.settings.caution > 0.0 { values } else { mean_awards(&awards, tallies.len()) };
        let worlds: u32 = awards.copies.iter().sum();
        let unit = if v.rules.scoring == Scoring::Marks { "marks" } else { "game points" };
        let unit = if self.settings.caution > 0.0 && tallies.iter().any(|t| t.action == PASS) {
            format!(
                "{unit} your side gains minus the other side's, over passing, mean over {worlds} sampled worlds less \
                 {} standard errors",
                self.settings.caution
            )
        } else {
            format!("{unit} your side gains minus the other side's, mean over {worlds} sampled worlds")
        };
        let explained = Explained {
            action: tallies[best].action,
            values: Some(ActionValues { unit, values: order.iter().map(|&i| (tallies[i].action, shown[i])).collect() }),
        };
        (tallies[best], explained)
    }

    /// The policy playouts that value candidates in `worlds` (all at one
    /// position), or `None` when the solver does: under
    /// `continuation=solver`, or with `exact` or fewer tricks left.
    fn playouts_from(&mut self, worlds: &[Hand]) -> Option<Playouts<'_>> {
        let Continuation::Policy { exact } = self.settings.continuation else { return None };
        let left = 7 - worlds.first()?.trick;
        (left > exact).then(|| self.playouts(exact))
    }

    /// Under `continuation=infoset`, whether `worlds` (all at one position)
    /// have few enough tricks left for the information-set search.
    fn infoset_decides(&self, worlds: &[Hand]) -> bool {
        let Continuation::Infoset { exact } = self.settings.continuation else { return false };
        worlds.first().is_some_and(|w| 7 - w.trick <= exact)
    }

    /// Policy playouts with this agent's policy and solver, exact for the
    /// last `exact` tricks.
    fn playouts(&mut self, exact: u8) -> Playouts<'_> {
        Playouts { policy: self.policy.as_mut(), solver: self.pimc.solver(), obs_len: self.obs_len, exact }
    }
}

/// The value `bidding=playout` gives each priced bid (in `tallies`' order).
///
/// When passing is legal, a bid's value is its mean gain over passing in the
/// same worlds (award minus the pass's award, world by world) less `caution`
/// standard errors of that mean; the pass is worth 0. With `caution` 0 this
/// ranks the bids as their mean awards do. When passing is not legal (a
/// forced shaker), the mean award, whatever the caution. A world drawn more
/// than once counts as that many draws in the standard error; the draws
/// follow the worlds' weights, so with very uneven weights the error is
/// understated.
pub fn cautious_values(tallies: &[Tally], awards: &WorldAwards, caution: f64) -> Vec<f64> {
    let k = tallies.len();
    let pass = tallies.iter().position(|t| t.action == PASS);
    (0..k)
        .map(|b| match pass {
            Some(pass) => {
                let (mean, se) = mean_and_error(awards, k, b, Some(pass));
                mean - caution * se
            }
            None => mean_and_error(awards, k, b, None).0,
        })
        .collect()
}

/// Each of `k` candidates' mean award over the worlds of `awards` (0 without
/// worlds).
pub fn mean_awards(awards: &WorldAwards, k: usize) -> Vec<f64> {
    (0..k).map(|b| mean_and_error(awards, k, b, None).0).collect()
}

/// The mean over the worlds of candidate `b`'s award, less candidate
/// `baseline`'s in the same world when given, and the standard error of that
/// mean (a world drawn `c` times counts as `c` draws); 0 and 0 without worlds.
fn mean_and_error(awards: &WorldAwards, k: usize, b: usize, baseline: Option<usize>) -> (f64, f64) {
    let n: u32 = awards.copies.iter().sum();
    if n == 0 {
        return (0.0, 0.0);
    }
    let (mut sum, mut sum_sq) = (0i64, 0i64);
    for (w, &c) in awards.copies.iter().enumerate() {
        let d = awards.award[w * k + b] - baseline.map_or(0, |p| awards.award[w * k + p]);
        sum += d * c as i64;
        sum_sq += d * d * c as i64;
    }
    let nf = n as f64;
    let mean = sum as f64 / nf;
    let var = ((sum_sq as f64 - sum as f64 * mean) / (nf - 1.0).max(1.0)).max(0.0);
    (mean, (var / nf).sqrt())
}

/// Systematic resampling: `n` worlds drawn from `pool` in proportion to
/// `exp(log-weight)`, one uniform draw from `rng`.
fn resample(pool: &[(Hand, f64)], n: usize, rng: &mut AgentRng) -> Vec<Hand> {
    if pool.is_empty() || n == 0 {
        return Vec::new();
    }
    let max = pool.iter().map(|&(_, l)| l).fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = pool.iter().map(|&(_, l)| (l - max).exp()).collect();
    let total: f64 = w.iter().sum();
    let step = total / n as f64;
    let mut u = rng.random::<f64>() * step;
    let mut out = Vec::with_capacity(n);
    let mut acc = 0.0;
    for (i, &wi) in w.iter().enumerate() {
        acc += wi;
        while out.len() < n && u < acc {
            out.push(pool[i].0);
            u += step;
        }
    }
    // Rounding can leave the last draw short of the total.
    while out.len() < n {
        out.push(pool[pool.len() - 1].0);
    }
    out
}

impl Agent<Texas42View> for SearchAgent {
    fn act(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Action {
        self.explain(v, rng).action
    }

    /// The action with, for a declaration among several candidates or a play
    /// with a choice, the values over the weighted worlds it was chosen by.
    fn explain(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Explained {
        let legal = v.legal;
        assert!(!legal.is_empty(), "search agent asked to act with no legal action");
        if legal.len() == 1 {
            return Explained { action: legal.nth(0), values: None };
        }
        let action = match v.phase {
            Phase::Bidding if self.settings.bidding == Bidding::Playout => return self.priced_bid(v, rng).1,
            Phase::Bidding if self.settings.bidding == Bidding::Policy => {
                let probs = self.policy_probs(v);
                // The most probable bid; ties to the lowest id.
                probs.iter().fold((probs[0].0, f32::NEG_INFINITY), |b, &(a, p)| if p > b.1 { (a, p) } else { b }).0
            }
            Phase::Bidding => {
                let est = self.pimc.bid_estimate(v, rng);
                self.pimc.choose_bid(v, &est)
            }
            Phase::Declaring => return self.declare(v, rng),
            Phase::Playing => return self.play(v, rng),
            Phase::Done => unreachable!("no action in a finished hand"),
        };
        Explained { action, values: None }
    }
}

impl std::fmt::Debug for SearchAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchAgent").field("settings", &self.settings).finish_non_exhaustive()
    }
}
