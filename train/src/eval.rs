//! Evaluation during training: the greedy policy against a baseline agent on
//! fixed duplicate deals (each deal played once per side, the policy taking each
//! side in turn), all games in lockstep so the policy runs batched.

use crate::inference::decide;
use crate::model::Policy;
use bones_agents::{Agent, AgentSpec, DoublesView, SpecError, Texas42View};
use bones_env::vec_env::episode_seed;
use bones_env::{DominoSet, Doubles, DoublesState, Episode, Game, GameState, RewardMode, Texas42, Texas42State};
use burn::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A game the trainer can evaluate on: it knows its baseline agents.
pub trait TrainGame: Game {
    /// A baseline agent (`random`, `heuristic`, …) for this game.
    fn baseline(&self, spec: &AgentSpec) -> Result<Box<dyn Agent<<Self::State as GameState>::View>>, SpecError>;
    /// The game the trainer plays, with the config's `reward` (Texas 42 only).
    fn with_reward(&self, reward: RewardMode) -> Self;
    /// Length of [`TrainGame::oracle`]'s output.
    fn oracle_len(&self) -> usize {
        ORACLE_LEN
    }
    /// What `seat` cannot see, for the oracle critic only: the dominoes now in
    /// the other seats' hands, one 28-float 0/1 set per seat in turn order after
    /// `seat` (an absent Doubles seat writes zeros). `out` has `oracle_len` floats.
    fn oracle(&self, state: &Self::State, seat: usize, out: &mut [f32]);
}

/// Floats of the oracle critic's hidden-hand input: three other seats × 28 dominoes.
pub const ORACLE_LEN: usize = 3 * 28;

/// Writes the hands of the three seats after `seat` (of four) as 0/1 sets.
fn write_other_hands(hands: &[DominoSet; 4], players: usize, seat: usize, out: &mut [f32]) {
    out.fill(0.0);
    for k in 1..players {
        let set = hands[(seat + k) % players];
        for d in set.iter() {
            out[(k - 1) * 28 + d.index()] = 1.0;
        }
    }
}

impl TrainGame for Texas42 {
    fn baseline(&self, spec: &AgentSpec) -> Result<Box<dyn Agent<Texas42View>>, SpecError> {
        spec.texas42()
    }
    fn with_reward(&self, reward: RewardMode) -> Self {
        Texas42 { reward, ..*self }
    }
    fn oracle(&self, state: &Texas42State, seat: usize, out: &mut [f32]) {
        write_other_hands(&state.hand().hands, 4, seat, out);
    }
}

impl TrainGame for Doubles {
    fn baseline(&self, spec: &AgentSpec) -> Result<Box<dyn Agent<DoublesView>>, SpecError> {
        spec.doubles()
    }
    fn with_reward(&self, _: RewardMode) -> Self {
        *self
    }
    fn oracle(&self, state: &DoublesState, seat: usize, out: &mut [f32]) {
        write_other_hands(state.hands(), self.players() as usize, seat, out);
    }
}

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
    /// Share of hands the policy's side won (reward > 0; ties count half).
    pub win_rate: f64,
    /// Mean reward of the policy's side per hand (Texas 42: marks won minus lost).
    pub reward_per_hand: f64,
}

/// Plays `deals` duplicate deals of single hands: each deal once for every side
/// with the policy (greedy) on that side and `opponent` on the others.
pub fn evaluate<G: TrainGame>(
    game: &G,
    model: &Policy,
    device: &Device,
    opponent: EvalOpponent,
    deals: usize,
    seed: u64,
) -> EvalResult {
    let np = game.num_players();
    let sides = (0..np).map(|s| game.team_of(s)).max().unwrap_or(0) + 1;
    let mut agent = game.baseline(&opponent.spec()).expect("random and heuristic play every game");
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
        for (&i, d) in rows.iter().zip(decide(model, device, &obs, &masks, na, None)) {
            games[i].0.apply(d.action).expect("the policy acts legally");
        }
    }
    let mut wins = 0.0;
    let mut total = 0.0;
    for (state, side, _) in &games {
        let seat = (0..np).find(|s| game.team_of(*s) == *side).unwrap_or(0);
        let r = state.rewards()[seat] as f64;
        total += r;
        wins += if r > 0.0 {
            1.0
        } else if r == 0.0 {
            0.5
        } else {
            0.0
        };
    }
    let n = games.len().max(1) as f64;
    EvalResult { games: games.len(), win_rate: wins / n, reward_per_hand: total / n }
}

#[cfg(test)]
mod oracle_tests {
    use super::*;
    use bones_env::rules::DoublesRules;
    use bones_env::{Domino, Texas42Rules};

    /// Reads the three 28-float blocks back as sets.
    fn blocks(out: &[f32]) -> [DominoSet; 3] {
        let mut sets = [DominoSet::EMPTY; 3];
        for (k, set) in sets.iter_mut().enumerate() {
            for i in 0..28 {
                match out[k * 28 + i] {
                    1.0 => set.insert(Domino::from_index(i)),
                    0.0 => {}
                    x => panic!("oracle float {x} is not 0/1"),
                }
            }
        }
        sets
    }

    #[test]
    fn texas42_oracle_holds_exactly_the_dominoes_the_seat_has_not_seen() {
        let game = Texas42::new(Texas42Rules::STANDARD);
        let mut out = vec![0f32; game.oracle_len()];
        for seed in 0..20 {
            let mut st = game.new_state(seed, Episode::Hand);
            let mut step = 0;
            while let Some(seat) = st.current_seat() {
                game.oracle(&st, seat, &mut out);
                let [a, b, c] = blocks(&out);
                let h = st.hand();
                // Seats in turn order after the mover.
                assert_eq!([a, b, c], [1, 2, 3].map(|k| h.hands[(seat + k) % 4]));
                let played: DominoSet = h.tricks.iter().flat_map(|t| t.played().iter().copied()).collect();
                // Own hand, the three blocks and the played dominoes: all 28, once each.
                let all = [h.hands[seat], a, b, c, played];
                assert_eq!(all.iter().map(|s| s.len()).sum::<usize>(), 28, "seed {seed} step {step}");
                assert_eq!(all.iter().fold(DominoSet::EMPTY, |u, s| u | *s), DominoSet::FULL);
                let legal: Vec<_> = st.legal_mask().iter().collect();
                st.apply(legal[(seed as usize + step) % legal.len()]).unwrap();
                step += 1;
            }
        }
    }

    #[test]
    fn doubles_oracle_leaves_absent_seats_empty() {
        let game = Doubles::new(DoublesRules { players: 3, ..Default::default() });
        let st = game.new_state(5, Episode::Hand);
        let seat = st.current_seat().unwrap();
        let mut out = vec![0f32; game.oracle_len()];
        game.oracle(&st, seat, &mut out);
        let [a, b, c] = blocks(&out);
        assert_eq!([a, b], [1, 2].map(|k| st.hands()[(seat + k) % 3]));
        assert_eq!(c, DominoSet::EMPTY);
        assert!((a | b) & st.hands()[seat] == DominoSet::EMPTY);
        assert_eq!(a.len() + b.len() + st.hands()[seat].len() + st.boneyard().len(), 28);
    }
}
