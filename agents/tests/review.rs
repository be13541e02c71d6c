//! The teacher's tools: `Agent::explain` says the action `act` takes (the same
//! stream, the same choice) with the values it chose by, and a hand's review
//! values each of the seat's plays with the open-hand solver in the real deal.

use bones_agents::heuristic::texas42::Texas42Heuristic;
use bones_agents::review::{review_game, review_hand};
use bones_agents::{Agent, AgentFactory, AgentRng, AgentSpec, Solver};
use bones_env::texas42::Phase;
use bones_env::{Doubles, Episode, Game, GameState, Texas42, Texas42Rules, Texas42View};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

/// Plays a hand of `game` from `seed` with random legal actions: the actions.
fn random_hand(game: &Texas42, seed: u64) -> Vec<usize> {
    let mut state = game.from_seed(0, seed, Episode::Hand);
    let mut rng = AgentRng::seed_from_u64(seed ^ 0xabc);
    let mut actions = Vec::new();
    while state.current_seat().is_some() {
        let legal: Vec<usize> = state.legal_mask().iter().collect();
        let a = legal[rng.random_range(0..legal.len())];
        state.apply(a).unwrap();
        actions.push(a);
    }
    actions
}

#[test]
fn explain_takes_the_action_act_takes_and_values_every_legal_play() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let factory = AgentFactory::new();
    for seed in 0..6u64 {
        // A position in the play with a choice: random legal play up to it.
        let mut state = game.from_seed(0, seed, Episode::Hand);
        let mut rng = AgentRng::seed_from_u64(seed);
        let view = loop {
            let seat = state.current_seat().expect("the hand reaches a choice in the play");
            let v: Texas42View = state.view(seat);
            if v.phase == Phase::Playing && v.legal.len() > 1 {
                break v;
            }
            let legal: Vec<usize> = state.legal_mask().iter().collect();
            state.apply(legal[rng.random_range(0..legal.len())]).unwrap();
        };
        for spec in [AgentSpec::Pimc { worlds: 8 }, AgentSpec::Heuristic] {
            let mut a = factory.build(&spec, &game).unwrap();
            let mut b = factory.build(&spec, &game).unwrap();
            let acted = a.act(&view, &mut AgentRng::seed_from_u64(7));
            let explained = b.explain(&view, &mut AgentRng::seed_from_u64(7));
            assert_eq!(explained.action, acted, "{spec}");
            match (&spec, explained.values) {
                (AgentSpec::Pimc { .. }, Some(values)) => {
                    let mut valued: Vec<usize> = values.values.iter().map(|&(a, _)| a).collect();
                    valued.sort();
                    assert_eq!(valued, view.legal.iter().collect::<Vec<_>>());
                    assert!(values.unit.contains("8 sampled worlds"), "{}", values.unit);
                    let best = values.values.iter().map(|&(_, v)| v).fold(f64::MIN, f64::max);
                    let chosen = values.values.iter().find(|&&(a, _)| a == acted).unwrap().1;
                    assert_eq!(chosen, best, "pimc takes a move of the best value");
                }
                (AgentSpec::Heuristic, None) => {}
                (spec, v) => panic!("{spec}: unexpected values {v:?}"),
            }
        }
    }
    // Doubles' pimc too.
    let doubles = Doubles::default();
    let mut state = doubles.new_state(3, Episode::Hand);
    let mut rng = AgentRng::seed_from_u64(3);
    let view = loop {
        let seat = state.current_seat().unwrap();
        let v = state.view(seat);
        if state.legal_mask().len() > 1 {
            break v;
        }
        let legal: Vec<usize> = state.legal_mask().iter().collect();
        state.apply(legal[rng.random_range(0..legal.len())]).unwrap();
    };
    let spec = AgentSpec::Pimc { worlds: 8 };
    let acted = factory.build(&spec, &doubles).unwrap().act(&view, &mut AgentRng::seed_from_u64(1));
    let explained = factory.build(&spec, &doubles).unwrap().explain(&view, &mut AgentRng::seed_from_u64(1));
    assert_eq!(explained.action, acted);
    assert_eq!(explained.values.unwrap().values.len(), state.legal_mask().len());
}

#[test]
fn a_review_values_each_play_of_the_seat_with_the_solver_and_its_bids_with_the_other_agent() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let mut solver = Solver::new();
    let mut seen_loss = false;
    for seed in 0..12u64 {
        let actions = random_hand(&game, seed);
        for seat in 0..4u8 {
            let mut other = Texas42Heuristic::default();
            let reviews =
                review_game(game.from_seed(0, seed, Episode::Hand), &actions, seat, &mut other, 9, &mut solver)
                    .unwrap();
            assert_eq!(reviews.len(), 1);
            let r = &reviews[0];
            // Replay the hand to know the seat's own actions.
            let mut state = game.from_seed(0, seed, Episode::Hand);
            let (mut bids, mut plays) = (Vec::new(), Vec::new());
            for (ply, &a) in actions.iter().enumerate() {
                if state.current_seat() == Some(seat as usize) {
                    match state.hand().phase {
                        Phase::Bidding => bids.push((ply, a)),
                        Phase::Playing => plays.push((ply, a, *state.hand())),
                        _ => {}
                    }
                }
                state.apply(a).unwrap();
            }
            assert_eq!(r.bids.iter().map(|b| (b.ply, b.action)).collect::<Vec<_>>(), bids);
            assert_eq!(r.plays.len(), plays.len());
            for (p, (ply, a, hand)) in r.plays.iter().zip(&plays) {
                assert_eq!((p.ply, p.action), (*ply, *a));
                // The solver's values of the real position, best first.
                let mut expect = Solver::new().solve_actions(hand);
                expect.sort_by_key(|&(m, v)| (std::cmp::Reverse(v), m));
                assert_eq!(p.moves, expect);
                assert_eq!(p.best_points, expect[0].1);
                assert!(p.lost() >= 0);
                assert!(p.moves.iter().any(|&(m, v)| m == p.best && v == p.best_points));
                seen_loss |= p.lost() > 0;
            }
            let most = r.plays.iter().map(|p| p.lost()).max().unwrap_or(0);
            assert_eq!(r.largest().map(|i| r.plays[i].lost()), (most > 0).then_some(most));
            assert_eq!(r.lost(), r.plays.iter().map(|p| p.lost()).sum::<i32>());
            // The bids compared with the heuristic's from the seat's view.
            for b in &r.bids {
                assert!(game.action_name(b.other) != "?");
            }
        }
    }
    assert!(seen_loss, "random play gives points away somewhere");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn reviewing_a_hand_as_it_ends_equals_reviewing_the_whole_record(seed in 0u64..1_000_000, seat in 0u8..4) {
        let game = Texas42::new(Texas42Rules::FULL);
        let actions = random_hand(&game, seed);
        let mut solver = Solver::new();
        let whole = review_game(game.from_seed(0, seed, Episode::Hand), &actions, seat, &mut Texas42Heuristic::default(), 5, &mut solver).unwrap();
        let mut state = game.from_seed(0, seed, Episode::Hand);
        for &a in &actions[..actions.len() - 1] {
            state.apply(a).unwrap();
        }
        let last = *actions.last().unwrap();
        let mut rng = AgentRng::seed_from_u64(5);
        let at_end = review_hand(&state, last, actions.len(), seat, &mut Texas42Heuristic::default(), &mut rng, &mut Solver::with_tt_bits(10)).unwrap();
        prop_assert_eq!(&whole[0], &at_end);
    }
}
