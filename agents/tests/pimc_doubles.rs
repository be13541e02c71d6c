//! PIMC for Doubles: the constraints never exclude the real hands, every
//! sampled world is consistent with the public record (the seat sees the same
//! view in it, the same legal actions, and the world plays on legally), the
//! sampler's count matches brute force (its draws are uniform: the `uniform`
//! tests; so is the boneyard's order), decisions are deterministic per seed and
//! legal, and a strength check against `heuristic` (figures printed; run with
//! `--nocapture`).
//!
//! ```text
//! cargo test -p bones-agents --release --test main -- pimc_doubles:: --nocapture
//! ```

use std::collections::HashMap;

use bones_agents::arena::{evaluate, Amount, EvalOptions};
use bones_agents::pimc::doubles::{DoublesConstraints, DoublesPimc, DoublesSampler};
use bones_agents::{Agent, AgentFactory, AgentRng, AgentSpec};
use bones_env::doubles::Round;
use bones_env::rules::BlockedTie;
use bones_env::rules::DoublesRules;
use bones_env::{Action, DominoSet, Doubles, DoublesView, Episode, Game, GameState};
use rand::{Rng, SeedableRng};

use crate::pimc_common::{decision_points, same_seed_same_action};

fn rules(players: u8) -> DoublesRules {
    DoublesRules { players, blocked_tie: if players == 3 { BlockedTie::Split } else { BlockedTie::None }, target: 100 }
}

/// A chooser that mixes the heuristic's moves with random ones, so rounds see
/// draws, passes, blocks and every kind of play.
fn chooser(v: &DoublesView, rng: &mut AgentRng) -> Action {
    if rng.random_bool(0.5) {
        bones_agents::heuristic::doubles::DoublesHeuristic::default().act(v, rng)
    } else {
        v.legal.nth(rng.random_range(0..v.legal.len()))
    }
}

/// Every decision point of `rounds` rounds per player count: `(round, view of
/// the seat to move)`.
pub(crate) fn positions(rounds: u64, seed: u64) -> Vec<(Round, DoublesView)> {
    let games = (2..=4u8).map(|players| (players as u64, Doubles::new(rules(players))));
    let view = |game: &Doubles, round: &Round, seat| DoublesView::from_round(round, seat, game.rules);
    decision_points(games, rounds, seed, 0xD0D0, view, |_, v, rng| chooser(v, rng))
}

fn boneyard_set(r: &Round) -> DominoSet {
    r.boneyard().iter().copied().collect()
}

#[test]
fn the_real_hands_satisfy_the_constraints() {
    let mut constrained = 0;
    for (real, v) in positions(40, 1) {
        let cons = DoublesConstraints::from_view(&v);
        assert!(
            cons.admits(&real.hands, boneyard_set(&real)),
            "the real round breaks the constraints\n{v:?}\n{cons:?}"
        );
        let sampler = DoublesSampler::from_constraints(cons);
        assert!(!sampler.relaxed(), "a real view with no consistent world");
        if (0..4).any(|s| s != v.seat as usize && cons.allowed[s] != cons.unseen && cons.count[s] > 0) {
            constrained += 1;
        }
    }
    assert!(constrained > 100, "too few positions with constraints: {constrained}");
}

/// Checks one sampled world against the real round it was sampled from.
fn check_world(real: &Round, v: &DoublesView, sampler: &DoublesSampler, rng: &mut AgentRng) {
    let w = sampler.world(v, rng).expect("the view admits its sampled worlds");
    let cons = sampler.constraints();
    assert!(cons.admits(&w.hands, boneyard_set(&w)), "world breaks the constraints");
    assert_eq!(DoublesView::from_round(&w, v.seat, v.rules), *v, "the world shows the seat the same view");
    assert_eq!(w.legal_mask(), real.legal_mask());
    assert_eq!(w.hands[v.seat as usize], real.hands[v.seat as usize]);
    assert_eq!(w.boneyard_len(), real.boneyard_len());
    assert_eq!(w.is_blocked(), real.is_blocked());
    for s in 0..4 {
        assert_eq!(w.hands[s].len(), real.hands[s].len(), "size of hand {s}");
        // What the world's seat s knows of the public record is the real one's.
        if s < v.players() as usize {
            let (a, b) =
                (DoublesView::from_round(&w, s as u8, v.rules), DoublesView::from_round(real, s as u8, v.rules));
            assert_eq!(
                (a.board, a.void, a.no_double, a.draws, a.passes),
                (b.board, b.void, b.no_double, b.draws, b.passes)
            );
        }
    }
    // The world plays on: every seat's legal action applies until the end.
    let mut w = w;
    let mut wrng = AgentRng::seed_from_u64(9);
    while !w.is_done() {
        let legal = w.legal_mask();
        w.apply(legal.nth(wrng.random_range(0..legal.len()))).unwrap();
    }
}

#[test]
fn every_sampled_world_is_consistent() {
    let mut rng = AgentRng::seed_from_u64(5);
    let mut n = 0;
    for (real, v) in positions(12, 2) {
        let sampler = DoublesSampler::new(&v);
        assert!(!sampler.relaxed());
        for _ in 0..3 {
            check_world(&real, &v, &sampler, &mut rng);
        }
        n += 1;
    }
    assert!(n > 500, "positions checked: {n}");
}

/// Consistent assignments of the unseen dominoes to the other seats and the
/// boneyard, by brute force.
fn brute_force(cons: &DoublesConstraints) -> u64 {
    let unseen: Vec<_> = cons.unseen.iter().collect();
    let holders: Vec<usize> = (0..cons.players as usize).filter(|&s| s != cons.seat as usize).collect();
    fn rec(
        i: usize,
        unseen: &[bones_env::Domino],
        holders: &[usize],
        hands: &mut [DominoSet; 4],
        bones: DominoSet,
        cons: &DoublesConstraints,
    ) -> u64 {
        if i == unseen.len() {
            return cons.admits(hands, bones) as u64;
        }
        let d = unseen[i];
        let mut n = 0;
        for &h in holders {
            if hands[h].len() < cons.count[h] as usize {
                hands[h].insert(d);
                n += rec(i + 1, unseen, holders, hands, bones, cons);
                hands[h].remove(d);
            }
        }
        if bones.len() < cons.boneyard as usize {
            n += rec(i + 1, unseen, holders, hands, bones | d.bit(), cons);
        }
        n
    }
    let mut hands = [DominoSet::EMPTY; 4];
    hands[cons.seat as usize] = cons.allowed[cons.seat as usize];
    rec(0, &unseen, &holders, &mut hands, DominoSet::EMPTY, cons)
}

#[test]
fn the_count_of_consistent_worlds_matches_brute_force() {
    let mut checked = HashMap::new();
    for (_, v) in positions(20, 3) {
        if v.unseen().len() > 11 {
            continue;
        }
        let cons = DoublesConstraints::from_view(&v);
        let sampler = DoublesSampler::from_constraints(cons);
        assert_eq!(sampler.count(), brute_force(&cons), "{cons:?}");
        *checked.entry(v.players()).or_insert(0) += 1;
    }
    for players in 2..=4u8 {
        assert!(checked.get(&players).is_some_and(|&n| n >= 20), "{checked:?}");
    }
}

#[test]
fn the_boneyard_order_is_uniform() {
    // A position late in a 2-player round with a boneyard of three or more:
    // the first domino to draw is each of them equally often.
    let mut rng = AgentRng::seed_from_u64(8);
    let (_, v) = positions(10, 5)
        .into_iter()
        .find(|(r, v)| v.players() == 2 && r.boneyard_len() >= 3 && v.unseen().len() <= 8)
        .expect("a small 2-player position");
    let sampler = DoublesSampler::new(&v);
    let mut first: HashMap<bones_env::Domino, u64> = HashMap::new();
    let mut held: HashMap<bones_env::Domino, u64> = HashMap::new();
    let draws = 6000;
    for _ in 0..draws {
        let w = sampler.world(&v, &mut rng).unwrap();
        *first.entry(w.boneyard()[0]).or_default() += 1;
        for &d in w.boneyard() {
            *held.entry(d).or_default() += 1;
        }
    }
    // Given the boneyard's dominoes, each is first equally often: a domino in
    // the boneyard k times is first about k / boneyard times.
    let len = v.boneyard_len as f64;
    for (d, &k) in &held {
        let expect = k as f64 / len;
        let f = *first.get(d).unwrap_or(&0) as f64;
        let sd = (k as f64 * (1.0 / len) * (1.0 - 1.0 / len)).sqrt();
        assert!((f - expect).abs() < 5.0 * sd + 1.0, "{d}: first {f} times, expected {expect:.0}");
    }
}

#[test]
fn pimc_is_deterministic_and_legal() {
    let mut checked = 0;
    for (i, (real, v)) in positions(3, 6).into_iter().enumerate() {
        if v.legal.len() < 2 || i % 2 != 0 {
            continue;
        }
        let (x, a) = same_seed_same_action(|| DoublesPimc::new(4), &v, i as u64);
        assert!(real.legal_mask().contains(x), "illegal action {x}");
        let scores = a.scores(&v, &mut AgentRng::seed_from_u64(1));
        assert_eq!(scores.len(), v.legal.len(), "every legal action is scored");
        assert!(scores.windows(2).all(|w| w[0].1 >= w[1].1), "best first: {scores:?}");
        checked += 1;
    }
    assert!(checked > 30, "decisions checked: {checked}");
}

#[test]
fn pimc_plays_whole_games_through_the_factory() {
    // `pimc:worlds=2` from the spec, at one seat of 2, 3 and 4 players, for
    // whole games against random and heuristic: every action is legal.
    let spec: AgentSpec = "pimc:worlds=2".parse().unwrap();
    for players in 2..=4u8 {
        let game = Doubles::new(rules(players));
        let mut pimc = AgentFactory::new().build(&spec, &game).unwrap();
        let mut others = AgentFactory::new().build(&AgentSpec::Heuristic, &game).unwrap();
        let mut rng = AgentRng::seed_from_u64(players as u64);
        let mut st = game.new_state(players as u64, Episode::Game);
        while let Some(seat) = st.current_seat() {
            let v = DoublesView::from_round(st.round(), seat as u8, rules(players));
            let a = if seat == 0 { pimc.act(&v, &mut rng) } else { others.act(&v, &mut rng) };
            assert!(st.legal_mask().contains(a), "illegal {a}");
            st.apply(a).unwrap();
        }
    }
}

#[test]
fn pimc_beats_heuristic() {
    // One pimc seat against three heuristic ones, 4 players, 800 rounds over
    // duplicate deals (every seating): pimc's points per round must be ahead,
    // with the interval above 0.
    let game = Doubles::new(rules(4));
    let a: AgentSpec = "pimc:worlds=64".parse().unwrap();
    let opts = EvalOptions { amount: Amount::Hands(800), seed: 1, threads: 2 };
    let r = evaluate(&game, [&a, &AgentSpec::Heuristic], &AgentFactory::new(), &opts, &|_| {}).unwrap();
    let p = r.points_per_round.expect("points per round");
    println!(
        "pimc:worlds=64 vs heuristic (Doubles, 4 players), {} rounds: points/round {:+.2} [{:+.2}, {:+.2}], round win rate {:.3}, {:.2} ms/decision",
        r.hands,
        p.mean,
        p.lo,
        p.hi,
        r.win_rate,
        r.micros_per_decision()[0] / 1000.0
    );
    assert!(p.lo > 0.0, "pimc should score more than heuristic: {:+.2} [{:+.2}, {:+.2}]", p.mean, p.lo, p.hi);
}
