//! The trainer's evaluation is the arena's: on the same seed it plays the same
//! deals as `arena::evaluate` of the policy as an agent (a greedy
//! `PolicyAgent`) and counts them the same way, to the same report.

use bones_agents::arena::{evaluate_with, Amount, EvalOptions, EvalReport};
use bones_agents::{Agent, AgentFactory, AgentGame, ObservingAgent, SpecError, ViewOf};
use bones_env::{Doubles, Game, Texas42, Texas42Rules};
use bones_policy::agent::PolicyAgent;
use bones_policy::folder::load_model;
use bones_policy::inference::Actor;
use bones_train::eval::{evaluate, EvalOpponent, EvalResult};
use burn::prelude::Device;

/// The trainer's evaluation and the arena's of the shipped model of `game`
/// against `heuristic`, `deals` deals from `seed`.
fn both<G: AgentGame>(game: &G, deals: usize, seed: u64) -> (EvalResult, EvalReport) {
    let (ol, na) = (game.obs_len(), game.num_actions());
    // The shipped model in this source tree (the tests run in train/).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models").join(game.name());
    let device = Device::flex();
    let model = load_model(&dir, ol, na, &device).expect("the shipped model loads");
    let trained = evaluate(game, &Actor::new(model, &device), EvalOpponent::Heuristic, deals, seed).unwrap();
    assert_eq!(trained.games, deals * game.num_sides());
    assert_eq!(trained.win_rate, trained.report.win_rate);

    let factory = AgentFactory::new();
    let make = |who: usize| -> Result<Box<dyn Agent<ViewOf<G>>>, SpecError> {
        if who == 1 {
            return factory.build(&EvalOpponent::Heuristic.spec(), game);
        }
        let policy = PolicyAgent::load(&dir, game.name(), ol, na).expect("the shipped model loads");
        assert!(!policy.sample, "the arena's policy agent is greedy");
        Ok(Box::new(ObservingAgent::new(Box::new(policy), ol)))
    };
    let amount = Amount::Hands((deals * game.num_sides()) as u64);
    let opts = EvalOptions { amount, seed, threads: 2 };
    let names = trained.report.agents.clone();
    let mut direct = evaluate_with(game, names, &make, &opts, &|_| {}).unwrap();
    // Wall-clock time is the only figure that may differ.
    direct.agent_seconds = trained.report.agent_seconds;
    (trained, direct)
}

#[test]
fn the_trainers_evaluation_of_texas42_is_the_arenas_evaluation_of_the_policy_agent() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let (trained, direct) = both(&game, 10, 7);
    assert_eq!(trained.report, direct);
    assert_eq!(direct.hands, 20);
    // The figures the trainer logs are the report's.
    assert_eq!(trained.reward_per_hand, direct.marks_per_hand.unwrap().mean);
    // Another seed deals other hands.
    let (other, _) = both(&game, 10, 8);
    let figures = |r: &EvalReport| (r.decisions, r.contracts, r.points_per_hand);
    assert_ne!(figures(&other.report), figures(&trained.report));
}

#[test]
fn the_trainers_evaluation_of_doubles_is_the_arenas_evaluation_of_the_policy_agent() {
    let game = Doubles::default();
    let (trained, direct) = both(&game, 4, 7);
    assert_eq!(trained.report, direct);
    assert_eq!(direct.hands, 4 * game.num_sides() as u64);
    assert_eq!(trained.reward_per_hand, direct.points_per_round.unwrap().mean);
}
