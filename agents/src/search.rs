//! Policy-guided search for Texas 42 (the `search` spec; its options are
//! [`SearchOptions`], listed by `bones agents`): a trained policy and the
//! open-hand [`Solver`](crate::Solver) together.
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
//! [`SearchOptions::floor`] (the policy is a model of the other players, not
//! the truth: one surprising action should make a world unlikely, not
//! impossible). `worlds` worlds are then drawn from the pool in proportion to
//! their weights (systematic resampling, so a heavy world may come more than
//! once and counts as often as it comes). With `weighted=off` the `worlds`
//! worlds are drawn uniformly, as `pimc` draws them. An action without a choice
//! weighs nothing: under `dropped30` every bid and the declaration are forced,
//! so the auction is no evidence (the declaration still limits the worlds to
//! those whose bidder declares it, as the sampler draws them).
//!
//! # Decisions
//! - **Bidding** (`bidding=policy`, the default): the policy's most probable
//!   bid. With `bidding=pimc`, `pimc`'s simulation (see [`crate::pimc`]).
//! - **Declaring**: the candidates are the declarations to which the policy
//!   gives at least [`SearchOptions::candidate_ratio`] of its favourite's
//!   probability (with `bidding=pimc`: every legal declaration); one candidate
//!   is declared at once, several are scored over the weighted worlds as `pimc`
//!   scores declarations (the most worlds where the contract is made, then the
//!   most points).
//! - **Play**: `pimc`'s objective over the weighted worlds (the contract first,
//!   then points; [`PimcAgent::score_plays`]). With `tricks=N`, only in the
//!   first `N` tricks; the later plays are the policy's most probable.
//!
//! # Continuations
//! How a candidate (a declaration or a play) is valued in one world:
//! - `continuation=solver`: the open-hand solver, every seat playing as if all
//!   hands were known (the default until `infoset` measured stronger).
//! - `continuation=infoset[:exact=K]` (the default): the open-hand solver
//!   while more than `K` tricks are left (default
//!   [`DEFAULT_INFOSET_TRICKS`](crate::spec::DEFAULT_INFOSET_TRICKS)); with
//!   `K` or fewer, the rest of the hand is searched over all the worlds at
//!   once, every seat (this one included) choosing one play per information
//!   set, not one per world ([`crate::infoset`]).
//!
//! Either way, a candidate's score is the worlds in which the mover's side wins
//! the contract fight, then the points it takes.
//!
//! A decision with a single legal action returns it at once. The agent uses
//! only the view, the policy and its random stream, so it is deterministic for
//! a seed.

use bones_env::texas42::{Hand, Phase};
use bones_env::{Action, ActionMask, Game, SeatView, Texas42, Texas42View};
use rand::Rng;

use crate::agent::{Agent, AgentRng, Explained};
use crate::pimc::{declaration_values, public_actions, ranked, PimcAgent, WorldSampler};
use crate::policy::{legal_prob, Policy, PolicyLoader, Wanted, NO_LOADER};
use crate::spec::{AgentSpec, Bidding, Continuation, SearchOptions, SpecError};

/// The policy-guided search agent (see the module docs).
pub struct SearchAgent {
    options: SearchOptions,
    policy: Box<dyn Policy>,
    pimc: PimcAgent,
    obs_len: usize,
    /// Observation rows of one weighing (freed after it).
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
    /// The agent of the spec `spec` (whose options are `options`) for Texas
    /// 42: its network is `options.model`, else the game's shipped model,
    /// loaded by `models` (`None`: this program cannot load networks).
    pub fn from_spec(
        spec: &AgentSpec,
        options: &SearchOptions,
        game: &Texas42,
        models: Option<&dyn PolicyLoader>,
    ) -> Result<SearchAgent, SpecError> {
        let loader = models.ok_or_else(|| SpecError::NotAvailable { spec: spec.to_string(), reason: NO_LOADER })?;
        let path = match &options.model {
            Some(p) => p.clone(),
            None => loader.shipped(game.name()).ok_or_else(|| SpecError::BadModel {
                spec: spec.to_string(),
                reason: format!("no shipped model (models/{}) here: give one with `model=PATH`", game.name()),
            })?,
        };
        let policy = loader
            .load(&path, Wanted::of(game))
            .map_err(|reason| SpecError::BadModel { spec: spec.to_string(), reason })?;
        Ok(SearchAgent::new(policy, options.clone(), game.obs_len()))
    }

    /// An agent asking `policy` (trained on observations of `obs_len` floats);
    /// `worlds` is at least 1 and `pool` at least `worlds`.
    pub fn new(policy: Box<dyn Policy>, options: SearchOptions, obs_len: usize) -> SearchAgent {
        let mut options = options;
        options.worlds = options.worlds.max(1);
        options.pool = options.pool.max(options.worlds);
        let pimc = PimcAgent::new(options.worlds);
        SearchAgent { options, policy, pimc, obs_len, obs: Vec::new() }
    }

    /// The options it plays by.
    pub fn options(&self) -> &SearchOptions {
        &self.options
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
        let pool = sampler.worlds(v, self.options.pool, rng);
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
            let floor = self.options.floor.max(f32::MIN_POSITIVE);
            for (i, o) in observed.iter().enumerate() {
                let p = legal_prob(&logits[i * width..(i + 1) * width], o.legal, o.action);
                log_w[o.world] += p.max(floor).ln() as f64;
            }
        }
        // The rows are many (pool × the other seats' choices × the
        // observation): an agent that waits between decisions (a server's
        // bot) does not keep them.
        self.obs = Vec::new();
        pool.into_iter().zip(log_w).collect()
    }

    /// The worlds a decision is solved in: `worlds` of them, drawn from the
    /// weighted pool (or uniformly with `weighted=off`).
    pub fn worlds(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Vec<Hand> {
        if !self.options.weighted {
            return WorldSampler::new(v).worlds(v, self.options.worlds, rng);
        }
        let pool = self.weighted_pool(v, rng);
        resample(&pool, self.options.worlds as usize, rng)
    }

    fn declare(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Explained {
        let candidates = if self.options.bidding != Bidding::Pimc {
            let probs = self.policy_probs(v);
            let best = probs.iter().map(|&(_, p)| p).fold(0.0, f32::max);
            let mut m = ActionMask::EMPTY;
            for (a, p) in probs {
                if p >= self.options.candidate_ratio * best {
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
        let scores = self.pimc.score_declarations(v, &worlds, candidates);
        Explained { action: scores[0].0, values: Some(declaration_values(&scores, worlds.len())) }
    }

    fn play(&mut self, v: &Texas42View, rng: &mut AgentRng) -> Explained {
        let worlds = self.worlds(v, rng);
        let by_contract = self.pimc.contract_decides(v);
        let scores = if self.infoset_decides(&worlds) {
            ranked(crate::infoset::score_plays(&worlds, by_contract, self.pimc.solver()).into_iter())
        } else {
            self.pimc.score_plays(v, &worlds)
        };
        let values = self.pimc.play_values(v, &scores, worlds.len());
        Explained { action: scores[0].0, values: Some(values) }
    }

    /// The policy's most probable legal action (ties to the lowest id).
    fn most_probable(&mut self, v: &Texas42View) -> Action {
        let probs = self.policy_probs(v);
        probs.iter().fold((probs[0].0, f32::NEG_INFINITY), |b, &(a, p)| if p > b.1 { (a, p) } else { b }).0
    }

    /// Under `continuation=infoset`, whether `worlds` (all at one position)
    /// have few enough tricks left for the information-set search.
    fn infoset_decides(&self, worlds: &[Hand]) -> bool {
        let Continuation::Infoset { exact } = self.options.continuation else { return false };
        worlds.first().is_some_and(|w| 7 - w.trick <= exact)
    }
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
        Explained::of_choice(v.legal, "search agent", || {
            let action = match v.phase {
                Phase::Bidding if self.options.bidding == Bidding::Policy => self.most_probable(v),
                Phase::Bidding => {
                    let est = self.pimc.bid_estimate(v, rng);
                    self.pimc.choose_bid(v, &est)
                }
                Phase::Declaring => return self.declare(v, rng),
                Phase::Playing if self.options.tricks.is_some_and(|n| v.trick >= n) => self.most_probable(v),
                Phase::Playing => return self.play(v, rng),
                Phase::Done => unreachable!("no action in a finished hand"),
            };
            Explained { action, values: None }
        })
    }
}

impl std::fmt::Debug for SearchAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchAgent").field("options", &self.options).finish_non_exhaustive()
    }
}
