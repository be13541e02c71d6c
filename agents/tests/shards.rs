//! Sharded evaluation: any split of the duplicate deals into shards, each played
//! on its own (and sent through JSON), merges into the same report as one
//! `evaluate` of the whole, for both games and both amounts; bad sets of shards
//! are refused with a reason.

use bones_agents::arena::{
    deal_count, evaluate, evaluate_shard, merge_shards, shard_ranges, Amount, ArenaError, EvalOptions, EvalReport,
    MergeError, Shard,
};
use bones_agents::AgentGame;
use bones_agents::{AgentFactory, AgentSpec};
use bones_env::rules::DoublesRules;
use bones_env::{Doubles, Texas42, Texas42Rules};
use proptest::prelude::*;

fn none(_: u64) {}

/// The report without its wall-clock timings, as text (so NaN bounds compare).
fn stats(mut r: EvalReport) -> String {
    r.agent_seconds = [0.0; 2];
    format!("{r:?}")
}

fn specs() -> [AgentSpec; 2] {
    [AgentSpec::Heuristic, AgentSpec::Random]
}

/// Plays `ranges` as separate shards (threads varying), each through JSON, and
/// merges them in reverse order.
fn sharded<G: AgentGame>(game: &G, amount: Amount, seed: u64, ranges: &[std::ops::Range<u64>]) -> EvalReport {
    let [a, b] = specs();
    let mut shards: Vec<Shard> = ranges
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let opts = EvalOptions { amount, seed, threads: 1 + k % 2 };
            let s = evaluate_shard(game, [&a, &b], &AgentFactory::new(), &opts, r.clone(), &none).unwrap();
            let text = serde_json::to_string(&s).unwrap();
            let back: Shard = serde_json::from_str(&text).unwrap();
            assert_eq!(back, s);
            back
        })
        .collect();
    shards.reverse();
    merge_shards(game, &shards).unwrap()
}

fn whole<G: AgentGame>(game: &G, amount: Amount, seed: u64) -> EvalReport {
    let [a, b] = specs();
    evaluate(game, [&a, &b], &AgentFactory::new(), &EvalOptions { amount, seed, threads: 2 }, &none).unwrap()
}

/// Contiguous ranges over `0..deals` cut at `cuts` (any values; taken mod deals+1).
fn cut(deals: u64, cuts: &[u64]) -> Vec<std::ops::Range<u64>> {
    let mut points: Vec<u64> = cuts.iter().map(|c| c % (deals + 1)).collect();
    points.push(0);
    points.push(deals);
    points.sort_unstable();
    points.windows(2).map(|w| w[0]..w[1]).collect()
}

fn check<G: AgentGame>(game: &G, amount: Amount, seed: u64, cuts: &[u64]) {
    let full = whole(game, amount, seed);
    let deals = deal_count(amount, game.num_sides()).unwrap();
    let merged = sharded(game, amount, seed, &cut(deals, cuts));
    assert_eq!(stats(merged.clone()), stats(full.clone()));
    assert_eq!(merged.to_json(seed), full.to_json(seed));
}

#[test]
fn even_splits_merge_to_the_whole_report() {
    let t42 = Texas42::new(Texas42Rules::STANDARD);
    let dbl = Doubles::new(DoublesRules { players: 3, ..DoublesRules::default() });
    for amount in [Amount::Hands(30), Amount::Games(6)] {
        for workers in [1, 2, 3, 7] {
            let deals = deal_count(amount, 2).unwrap();
            let ranges = shard_ranges(deals, workers);
            assert_eq!(ranges.len() as u64, workers);
            assert_eq!(stats(sharded(&t42, amount, 5, &ranges)), stats(whole(&t42, amount, 5)));
            let deals = deal_count(amount, 3).unwrap();
            let ranges = shard_ranges(deals, workers);
            assert_eq!(stats(sharded(&dbl, amount, 5, &ranges)), stats(whole(&dbl, amount, 5)));
        }
    }
}

#[test]
fn shard_ranges_cover_the_deals_in_order() {
    for deals in 0..20 {
        for n in 1..9 {
            let r = shard_ranges(deals, n);
            assert_eq!(r.len() as u64, n);
            assert_eq!(r[0].start, 0);
            assert_eq!(r.last().unwrap().end, deals);
            for w in r.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            let sizes: Vec<u64> = r.iter().map(|x| x.end - x.start).collect();
            assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1, "{sizes:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn any_split_merges_to_the_whole_report(
        seed in 0u64..1_000,
        hands in 1u64..40,
        games in 1u64..8,
        cuts in proptest::collection::vec(0u64..64, 0..6),
        doubles_players in 2u8..=4,
    ) {
        let t42 = Texas42::new(Texas42Rules::STANDARD);
        check(&t42, Amount::Hands(hands), seed, &cuts);
        check(&t42, Amount::Games(games), seed, &cuts);
        let dbl = Doubles::new(DoublesRules { players: doubles_players, ..DoublesRules::default() });
        check(&dbl, Amount::Hands(hands), seed, &cuts);
        check(&dbl, Amount::Games(games), seed, &cuts);
    }
}

#[test]
fn bad_shards_are_refused_with_a_reason() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let [a, b] = specs();
    let f = AgentFactory::new();
    let opts = EvalOptions { amount: Amount::Hands(20), seed: 3, threads: 1 };
    let shard = |r: std::ops::Range<u64>, opts: &EvalOptions| evaluate_shard(&game, [&a, &b], &f, opts, r, &none);
    // 20 hands are 10 deals.
    let e = shard(8..11, &opts).unwrap_err();
    assert_eq!(e, ArenaError::Range { start: 8, end: 11, deals: 10 });
    assert!(e.to_string().contains("0..10"), "{e}");
    assert_eq!(shard(0..1, &EvalOptions { amount: Amount::Games(0), ..opts }).unwrap_err(), ArenaError::Empty);

    let (s0, s1, s2) = (shard(0..4, &opts).unwrap(), shard(4..10, &opts).unwrap(), shard(3..10, &opts).unwrap());
    assert!(merge_shards(&game, &[s0.clone(), s1.clone()]).is_ok());
    assert_eq!(merge_shards(&game, &[]).unwrap_err(), MergeError::NoShards);
    let e = merge_shards(&game, std::slice::from_ref(&s0)).unwrap_err();
    assert!(matches!(e, MergeError::Coverage { deals: 10, .. }) && e.to_string().contains("4..10 are missing"), "{e}");
    let e = merge_shards(&game, std::slice::from_ref(&s1)).unwrap_err();
    assert!(e.to_string().contains("0..4 are missing"), "{e}");
    let e = merge_shards(&game, &[s0.clone(), s2]).unwrap_err();
    assert!(e.to_string().contains("in two shards"), "{e}");
    let other_seed = shard(4..10, &EvalOptions { seed: 4, ..opts }).unwrap();
    let e = merge_shards(&game, &[s0.clone(), other_seed]).unwrap_err();
    assert!(matches!(e, MergeError::Mismatch { field: "seed", .. }), "{e}");
    let dbl = Doubles::new(DoublesRules::default());
    let e = merge_shards(&dbl, &[s0, s1]).unwrap_err();
    assert!(matches!(e, MergeError::Mismatch { field: "game", .. }) && e.to_string().contains("texas42"), "{e}");
}
