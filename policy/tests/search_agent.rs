//! The `search` agent with the shipped Texas 42 model: through the agent
//! factory of the `bones` tools it finds `models/texas42` (in the folder set
//! as `bones --models DIR` sets it) without `model=PATH`, plays whole hands
//! legally, gives the same result for the same seed, and wins clearly against
//! `random` (an interval, not a lucky seed).

use bones_agents::arena::{evaluate, Amount, EvalOptions};
use bones_agents::AgentSpec;
use bones_env::{Texas42, Texas42Rules};
use bones_policy::agent::{factory, set_models_dir};

#[test]
fn search_with_the_shipped_model_beats_random() {
    // The tests run in policy/: the shipped models are this source tree's.
    set_models_dir(Some(concat!(env!("CARGO_MANIFEST_DIR"), "/../models").into()));
    let game = Texas42::new(Texas42Rules::STANDARD);
    let a: AgentSpec = "search:worlds=4".parse().unwrap();
    let b = AgentSpec::Random;
    let opts = EvalOptions { amount: Amount::Hands(24), seed: 3, threads: 2 };
    let r = evaluate(&game, [&a, &b], &factory(), &opts, &|_| {}).unwrap();
    let m = r.marks_per_hand.unwrap();
    println!("search:worlds=4 vs random, {} hands: marks/hand {:+.3} [{:+.3}, {:+.3}]", r.hands, m.mean, m.lo, m.hi);
    assert!(m.lo > 0.0, "search should beat random: {:+.3} [{:+.3}, {:+.3}]", m.mean, m.lo, m.hi);
    let again = evaluate(&game, [&a, &b], &factory(), &EvalOptions { threads: 1, ..opts }, &|_| {}).unwrap();
    assert_eq!(again.marks_per_hand, r.marks_per_hand, "the same seed gives the same result on any thread count");
    assert_eq!(again.points_per_hand, r.points_per_hand);
}
