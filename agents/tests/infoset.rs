//! `search`'s information-set continuation ([`bones_agents::infoset`]) on
//! random endgames of every declaration: in a single world (where every
//! information set is one world) it is the open-hand solver, for the contract
//! and for points; copies of a world count as that many worlds; the order of
//! the worlds does not matter; and over worlds that differ it departs from
//! the solver's per-world sums (the seats no longer see through the hidden
//! hands).

use bones_agents::infoset::score_plays;
use bones_agents::pimc::WorldSampler;
use bones_agents::{Agent, AgentRng, Solver};
use bones_env::texas42::{Hand, Phase, NEL_O};
use bones_env::{Action, Episode, Game, GameState, Texas42, Texas42Rules, Texas42View};
use rand::SeedableRng;

/// Positions of the play phase with 1 to 3 tricks left, from hands played at
/// random under the full rules (every declaration comes up) without early
/// end.
fn endgames(hands: u64) -> Vec<Hand> {
    let g = Texas42::new(Texas42Rules { early_end: false, ..Texas42Rules::FULL });
    let mut out = Vec::new();
    for seed in 0..hands {
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut st = g.new_state(seed, Episode::Hand);
        while let Some(seat) = st.current_seat() {
            let h = *st.hand();
            if h.phase == Phase::Playing && h.trick >= 4 && h.legal_mask().len() > 1 {
                out.push(h);
            }
            let v = Texas42View::from_hand(st.hand(), seat as u8);
            let a = bones_agents::random::RandomAgent.act(&v, &mut rng);
            st.apply(a).unwrap();
        }
    }
    out
}

fn sorted(mut s: Vec<(Action, u32, i64)>) -> Vec<(Action, u32, i64)> {
    s.sort();
    s
}

#[test]
fn in_one_world_the_infoset_search_is_the_open_hand_solver() {
    let (mut solver, mut own) = (Solver::new(), Solver::new());
    let positions = endgames(60);
    assert!(positions.len() >= 200, "only {} positions", positions.len());
    for h in positions {
        let sign = if h.declaration as Action == NEL_O { -1 } else { 1 };
        let by_contract = score_plays(&[h], true, &mut own);
        let by_points = score_plays(&[h], false, &mut own);
        let contract = solver.contract_actions(&h);
        let points = solver.solve_actions(&h);
        assert_eq!(
            by_contract.iter().map(|&(a, won, _)| (a, won == 1)).collect::<Vec<_>>(),
            sorted(contract.iter().map(|&(a, ok)| (a, ok as u32, 0)).collect())
                .iter()
                .map(|&(a, w, _)| (a, w == 1))
                .collect::<Vec<_>>(),
            "{h:?}"
        );
        assert_eq!(
            by_points.iter().map(|&(a, won, p)| (a, won, p)).collect::<Vec<_>>(),
            sorted(points.iter().map(|&(a, p)| (a, 0, sign * p as i64)).collect()),
            "{h:?}"
        );
    }
}

#[test]
fn copies_of_a_world_count_as_that_many_and_the_order_of_worlds_does_not_matter() {
    let mut solver = Solver::new();
    let mut checked = 0;
    for (i, h) in endgames(20).into_iter().enumerate() {
        let v = Texas42View::from_hand(&h, h.to_move);
        let worlds = WorldSampler::new(&v).worlds(&v, 6, &mut AgentRng::seed_from_u64(i as u64));
        let one = score_plays(&worlds[..1], true, &mut solver);
        let twice = score_plays(&[worlds[0], worlds[0]], true, &mut solver);
        assert_eq!(twice, one.iter().map(|&(a, w, p)| (a, 2 * w, 2 * p)).collect::<Vec<_>>());
        let mut reversed = worlds.clone();
        reversed.reverse();
        assert_eq!(score_plays(&worlds, true, &mut solver), score_plays(&reversed, true, &mut solver), "{h:?}");
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} positions");
}

#[test]
fn over_worlds_that_differ_the_seats_no_longer_see_through_the_hidden_hands() {
    // Summed over worlds a seat cannot tell apart, the open-hand solver lets
    // every seat play each world its own way; the information-set search does
    // not, so on some positions its scores differ from the solver's sums (and
    // on the rest they agree, as with one world).
    let (mut solver, mut own) = (Solver::new(), Solver::new());
    let (mut differ, mut total) = (0, 0);
    for (i, h) in endgames(40).into_iter().filter(|h| h.trick == 4).enumerate() {
        let v = Texas42View::from_hand(&h, h.to_move);
        let worlds = WorldSampler::new(&v).worlds(&v, 16, &mut AgentRng::seed_from_u64(i as u64));
        let sign = if h.declaration as Action == NEL_O { -1 } else { 1 };
        let mut sums = std::collections::BTreeMap::<Action, i64>::new();
        for w in &worlds {
            for (a, p) in solver.solve_actions(w) {
                *sums.entry(a).or_default() += sign * p as i64;
            }
        }
        let infoset: Vec<(Action, i64)> =
            score_plays(&worlds, false, &mut own).into_iter().map(|(a, _, p)| (a, p)).collect();
        differ += (infoset != sums.into_iter().collect::<Vec<_>>()) as u32;
        total += 1;
    }
    assert!(total >= 50, "only {total} positions");
    assert!(differ > 0, "the information-set search matched the open-hand sums on all {total} positions");
}
