//! Evaluation during training: the greedy policy against a baseline agent on
//! fixed duplicate deals (each deal played once per side, the policy taking each
//! side in turn), all games in lockstep so the policy runs batched.

use bones_agents::{AgentFactory, AgentSpec, SpecError};
use bones_env::vec_env::episode_seed;
use bones_env::{Episode, Game, GameState};
use bones_policy::inference::{decide, Actor};
use bones_policy::sparse::SparseRows;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The baselines evaluated during training.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EvalOpponent {
    /// Uniformly random legal actions.
    Random,
    /// The rule-based player.
    Heuristic,
}

impl EvalOpponent {
    /// Name used in metric tags.
    pub fn name(self) -> &'static str {
        match self {
            EvalOpponent::Random => "random",
            EvalOpponent::Heuristic => "heuristic",
        }
    }
    fn spec(self) -> AgentSpec {
        match self {
            EvalOpponent::Random => AgentSpec::Random,
            EvalOpponent::Heuristic => AgentSpec::Heuristic,
        }
    }
}

/// Result of an evaluation.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct EvalResult {
    /// Games (hands) played.
    pub games: usize,
    /// Share of hands the policy's side won, counted as the arena counts them
    /// ([`bones_env::DealOutcome::win`]: Texas 42 splits a hand nobody scores).
    pub win_rate: f64,
    /// The policy side's score minus the mean of the other sides' per hand, as
    /// the arena counts it (Texas 42: marks won minus lost; Doubles: the round
    /// score minus the others' mean).
    pub reward_per_hand: f64,
}

/// Plays `deals` duplicate deals of single hands: each deal once for every side
/// with the policy (greedy) on that side and `opponent` on the others. Fails
/// when the game has no such opponent (a game without a heuristic player).
pub fn evaluate<G: Game>(
    game: &G,
    actor: &Actor,
    opponent: EvalOpponent,
    deals: usize,
    seed: u64,
) -> Result<EvalResult, SpecError> {
    let sides = game.num_sides();
    let mut agent = AgentFactory::new().build(&opponent.spec(), game)?;
    let (ol, na) = (game.obs_len(), game.num_actions());
    let mut games: Vec<(G::State, usize, ChaCha8Rng)> = (0..deals * sides)
        .map(|i| {
            let deal = episode_seed(seed, i / sides, 0);
            (game.new_state(deal, Episode::Hand), i % sides, ChaCha8Rng::seed_from_u64(episode_seed(seed, i, 1)))
        })
        .collect();
    let mut obs = Vec::new();
    let mut masks = Vec::new();
    loop {
        let mut rows = Vec::new();
        obs.clear();
        masks.clear();
        for (i, (state, side, rng)) in games.iter_mut().enumerate() {
            let Some(seat) = state.current_seat() else { continue };
            if game.team_of(seat) == *side {
                let start = obs.len();
                obs.resize(start + ol, 0.0);
                state.observe(seat, &mut obs[start..]);
                let m0 = masks.len();
                masks.resize(m0 + na, 0.0);
                state.legal_mask().write_f32(&mut masks[m0..]);
                rows.push(i);
            } else {
                let a = agent.act(&state.view(seat), rng);
                state.apply(a).expect("baseline agents act legally");
            }
        }
        if rows.is_empty() {
            if games.iter().all(|g| g.0.is_terminal()) {
                break;
            }
            continue;
        }
        for (&i, d) in rows.iter().zip(decide(actor, &SparseRows::from_dense(&obs, ol), &masks, na, None)) {
            games[i].0.apply(d.action).expect("the policy acts legally");
        }
    }
    let mut wins = 0.0;
    let mut total = 0.0;
    for (state, side, _) in &games {
        let d = state.finished_deal().expect("every evaluation hand is over");
        total += d.score_margin(*side, sides);
        wins += d.win[*side];
    }
    let n = games.len().max(1) as f64;
    Ok(EvalResult { games: games.len(), win_rate: wins / n, reward_per_hand: total / n })
}
