//! Evaluation during training: the greedy policy against a baseline agent on
//! duplicate deals, played by the arena's batched form
//! ([`bones_agents::batched`]) with the policy as a batched player, so all the
//! games in play take one forward pass per round. The deals, their counting
//! and the figures are those of `bones eval --hands` (and `bones.evaluate`):
//! the same seed gives the same deals and the same report as
//! [`bones_agents::arena::evaluate`] of the same policy as an agent.

use bones_agents::arena::{ArenaError, EvalReport};
use bones_agents::batched::{self, Batch, BatchPlayer, Entrant};
use bones_agents::AgentGame;
use bones_agents::{AgentFactory, AgentFailure, AgentSpec, Amount, EvalOptions, SpecError};
use bones_env::Action;
use bones_policy::inference::{decide, Actor};
use bones_policy::sparse::SparseRows;

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

    /// The opponent's agent spec.
    pub fn spec(self) -> AgentSpec {
        match self {
            EvalOpponent::Random => AgentSpec::Random,
            EvalOpponent::Heuristic => AgentSpec::Heuristic,
        }
    }
}

/// Whether `error`, from evaluating against `opponent`, only says that the
/// game has no such opponent (a game without a heuristic player): that
/// baseline is left out, and the others are evaluated. Any other error is a
/// failed evaluation.
pub fn not_played(opponent: EvalOpponent, error: &ArenaError) -> bool {
    let spec = opponent.spec().to_string();
    matches!(error, ArenaError::Spec(SpecError::WrongGame { spec: s, .. }) if *s == spec)
}

/// Result of an evaluation.
#[derive(Clone, Debug, PartialEq)]
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
    /// The arena's report of the evaluation (A: the policy, B: the opponent).
    pub report: EvalReport,
}

impl EvalResult {
    /// The figures of an arena report of single hands.
    pub fn of(report: EvalReport) -> EvalResult {
        let margin = report.marks_per_hand.or(report.points_per_round).map_or(f64::NAN, |e| e.mean);
        EvalResult { games: report.hands as usize, win_rate: report.win_rate, reward_per_hand: margin, report }
    }
}

/// The policy as a batched player: the most probable legal action of each row
/// (lowest id on ties), one forward pass per batch.
pub struct Greedy<'a>(pub &'a Actor);

impl BatchPlayer for Greedy<'_> {
    fn decide(&mut self, batch: &Batch<'_>) -> Result<Vec<Action>, AgentFailure> {
        let masks: Vec<f32> = batch.masks.iter().map(|&m| f32::from(u8::from(m))).collect();
        let obs = SparseRows::from_dense(batch.observations, batch.obs_len);
        Ok(decide(self.0, &obs, &masks, batch.num_actions, None).into_iter().map(|d| d.action).collect())
    }
}

/// Plays `deals` duplicate deals of single hands from base seed `seed` (the
/// arena's deal stream): each deal once for every side with the policy
/// (greedy) on that side and `opponent` on the others. Fails when the game has
/// no such opponent (a game without a heuristic player: [`not_played`]) or
/// `deals` is 0.
pub fn evaluate<G: AgentGame>(
    game: &G,
    actor: &Actor,
    opponent: EvalOpponent,
    deals: usize,
    seed: u64,
) -> Result<EvalResult, ArenaError> {
    let amount = Amount::Hands((deals * game.num_sides()) as u64);
    let opts = EvalOptions { amount, seed, threads: 1 };
    let spec = opponent.spec();
    let policy = Entrant::Batched { name: "policy".into(), policy: &mut Greedy(actor) };
    let report = batched::evaluate(game, [policy, Entrant::Spec(&spec)], &AgentFactory::new(), &opts, &|_| {})?;
    Ok(EvalResult::of(report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_game_without_the_baseline_is_left_unevaluated() {
        let wrong_game = |spec: &str| {
            ArenaError::Spec(SpecError::WrongGame {
                spec: spec.into(),
                game: "highcard",
                reason: "no such player".into(),
            })
        };
        assert!(not_played(EvalOpponent::Heuristic, &wrong_game("heuristic")));
        // The policy's side failing to build, or the other baseline, is a failure.
        assert!(!not_played(EvalOpponent::Random, &wrong_game("heuristic")));
        assert!(!not_played(EvalOpponent::Heuristic, &wrong_game("policy")));
        let failure = AgentFailure { what: "returned 0 actions".into(), got: "0".into(), expected: "1".into() };
        for other in [
            ArenaError::Empty,
            ArenaError::BatchFailed { agent: "policy".into(), rows: 1, failure: Box::new(failure) },
            ArenaError::Spec(SpecError::BadOption { spec: "heuristic".into(), reason: "bad".into() }),
        ] {
            assert!(!not_played(EvalOpponent::Heuristic, &other), "{other}");
        }
    }
}
