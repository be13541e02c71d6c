//! The open-hand solver against a plain minimax (no pruning, no table) on random
//! endgames of every declaration, and on hand-made positions with known answers.

use bones_agents::solver::{goal, remaining_points, Goal, Solver};
use bones_env::texas42::actions::{BID_1M, BID_30, DOUBLES, FOLLOW_ME, NEL_O, PASS, SEVENS, TRUMP_BLANKS};
use bones_env::texas42::{team, Hand, Outcome, Phase};
use bones_env::{Action, Domino, DominoSet, Episode, Game, NelloDoubles, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------
// Brute force

/// Points the bidding team takes from here to the end, plain minimax over
/// `Hand::apply` (the hand must have `early_end` off).
fn brute_points(h: &Hand) -> i32 {
    minimax_points(h, -1, 100, false)
}

/// `brute_points` with plain alpha-beta (no table, no move ordering): the same
/// value, fast enough for five tricks.
fn ab_points(h: &Hand, alpha: i32, beta: i32) -> i32 {
    minimax_points(h, alpha, beta, true)
}

/// Minimax of the bidding team's points to come over every line of play, cut
/// off where `prune` and the window `alpha..beta` closes (without `prune` the
/// window only narrows and every line is searched).
fn minimax_points(h: &Hand, mut alpha: i32, mut beta: i32, prune: bool) -> i32 {
    if h.is_done() {
        return 0;
    }
    let bt = team(h.bidder);
    let maxi = team(h.to_move) == bt;
    let mut best = if maxi { i32::MIN } else { i32::MAX };
    for a in h.legal_mask().iter() {
        let mut c = *h;
        c.apply(a).unwrap();
        let gain = (c.points[bt] - h.points[bt]) as i32;
        let v = gain + minimax_points(&c, alpha - gain, beta - gain, prune);
        if maxi {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if prune && alpha >= beta {
            break;
        }
    }
    best
}

/// Whether the bidders make the contract, plain minimax over the engine's own
/// outcome (the hand may have early end on or off).
fn brute_made(h: &Hand) -> bool {
    if h.is_done() {
        return h.outcome == Some(Outcome::Settled { made: true });
    }
    let maxi = team(h.to_move) == team(h.bidder);
    let mut kids = h.legal_mask().iter().map(|a| {
        let mut c = *h;
        c.apply(a).unwrap();
        brute_made(&c)
    });
    if maxi {
        kids.any(|m| m)
    } else {
        kids.all(|m| m)
    }
}

/// All points still to come, by playing the first legal action to the end.
fn points_to_come(h: &Hand) -> i32 {
    let mut c = *h;
    let before = c.points[0] as i32 + c.points[1] as i32;
    while !c.is_done() {
        let a = c.legal_mask().iter().next().unwrap();
        c.apply(a).unwrap();
    }
    c.points[0] as i32 + c.points[1] as i32 - before
}

// ---------------------------------------------------------------------------
// Random endgames

/// A seeded deal, random bidding (often steered to a 2-mark opening so that
/// Nel-O and Sevens come up) and declaration, then random plays until at most
/// `max_left` tricks remain (possibly part-way into a trick). Early end is off.
fn random_endgame(seed: u64, max_left: u8) -> Hand {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rules = Texas42Rules {
        early_end: false,
        nello_min_marks: rng.random_range(1..=2),
        nello_doubles: [NelloDoubles::OwnSuit, NelloDoubles::High, NelloDoubles::Low][rng.random_range(0..3)],
        ..Texas42Rules::FULL
    };
    let game = Texas42 { dealer: rng.random_range(0..4), ..Texas42::new(rules) };
    let mut h = *game.new_state(seed, Episode::Hand).hand();
    let steer = rng.random_range(0..3);
    let mut first = true;
    while h.phase != Phase::Playing {
        let legal = h.legal_mask();
        let a = if h.phase == Phase::Bidding && first && steer == 0 {
            BID_1M + 1
        } else if h.phase == Phase::Declaring && steer == 0 && rng.random_bool(0.6) {
            if rng.random_bool(0.5) && legal.contains(NEL_O) {
                NEL_O
            } else if legal.contains(SEVENS) {
                SEVENS
            } else {
                legal.nth(rng.random_range(0..legal.len()))
            }
        } else {
            legal.nth(rng.random_range(0..legal.len()))
        };
        first = false;
        h.apply(a).unwrap();
    }
    let extra = rng.random_range(0..h.trick_size());
    while 7 - h.trick > max_left {
        let legal = h.legal_mask();
        h.apply(legal.nth(rng.random_range(0..legal.len()))).unwrap();
    }
    for _ in 0..extra {
        let legal = h.legal_mask();
        h.apply(legal.nth(rng.random_range(0..legal.len()))).unwrap();
    }
    assert_eq!(h.phase, Phase::Playing);
    h
}

fn decl_kind(h: &Hand) -> usize {
    match h.declaration as Action {
        NEL_O => 9 + h.rules.nello_doubles as usize,
        SEVENS => 12,
        d => d - TRUMP_BLANKS,
    }
}

fn check_against_brute(solver: &mut Solver, h: &Hand, what: &str) {
    let bt = team(h.bidder);
    let mover_bidder = team(h.to_move) == bt;
    let total = points_to_come(h);
    assert_eq!(remaining_points(h), total, "{what}: remaining points");
    // Exact value of every legal action, from the mover's team's side.
    let mut expect = Vec::new();
    for a in h.legal_mask().iter() {
        let mut c = *h;
        c.apply(a).unwrap();
        let vb = (c.points[bt] - h.points[bt]) as i32 + brute_points(&c);
        expect.push((a, if mover_bidder { vb } else { total - vb }));
    }
    let got = solver.solve_actions(h);
    assert_eq!(got, expect, "{what}: action values\n{h:?}");
    let best = expect.iter().map(|&(_, v)| v).max().unwrap();
    let value = if mover_bidder { best } else { total - best };
    assert_eq!(solver.value(h), value, "{what}: value");
    let (a, v) = solver.best_action(h);
    assert_eq!(v, best, "{what}: best action value");
    assert!(expect.contains(&(a, best)), "{what}: best action {a} is not optimal: {expect:?}");
    // The contract, against the engine's own outcome, with early end on and off.
    let mut early = *h;
    early.rules.early_end = true;
    let mut expect_c = Vec::new();
    for a in h.legal_mask().iter() {
        let mut c = *h;
        c.apply(a).unwrap();
        let made = brute_made(&c);
        let mut ce = early;
        ce.apply(a).unwrap();
        assert_eq!(brute_made(&ce), made, "{what}: early end changes the outcome");
        expect_c.push((a, made == mover_bidder));
    }
    assert_eq!(solver.contract_actions(h), expect_c, "{what}: contract actions\n{h:?}");
    let made = if mover_bidder { expect_c.iter().any(|x| x.1) } else { !expect_c.iter().any(|x| x.1) };
    assert_eq!(solver.contract(h), made, "{what}: contract");
    assert_eq!(brute_made(h), made, "{what}: brute contract");
    match goal(h) {
        Goal::Decided(m) => assert_eq!(m, made, "{what}: decided goal"),
        Goal::Points(need) => {
            assert_eq!(made, h.points[bt] as i32 + value >= h.points[bt] as i32 + need as i32, "{what}: point goal")
        }
        _ => {}
    }
}

#[test]
fn matches_brute_force_on_random_endgames() {
    let mut shared = Solver::with_tt_bits(12);
    let mut seen = [0usize; 13];
    let cases = 5000;
    for seed in 0..cases {
        let h = random_endgame(seed, if seed % 10 == 0 { 4 } else { 3 });
        seen[decl_kind(&h)] += 1;
        let what = format!("seed {seed}, declaration {}, trick {}", h.declaration, h.trick);
        // One solver shared by every case (its table outlives deals and
        // declarations) and, every so often, a fresh one.
        check_against_brute(&mut shared, &h, &what);
        if seed % 7 == 0 {
            check_against_brute(&mut Solver::with_tt_bits(8), &h, &what);
        }
    }
    for (k, n) in seen.iter().enumerate() {
        assert!(*n >= 20, "declaration kind {k} came up only {n} times: {seen:?}");
    }
}

#[test]
fn matches_plain_alpha_beta_with_five_tricks_left() {
    let mut solver = Solver::with_tt_bits(12);
    for seed in 0..300 {
        let h = random_endgame(10_000 + seed, 5);
        let bt = team(h.bidder);
        let mover_bidder = team(h.to_move) == bt;
        let total = points_to_come(&h);
        let expect: Vec<(Action, i32)> = h
            .legal_mask()
            .iter()
            .map(|a| {
                let mut c = h;
                c.apply(a).unwrap();
                let vb = (c.points[bt] - h.points[bt]) as i32 + ab_points(&c, -1, 100);
                (a, if mover_bidder { vb } else { total - vb })
            })
            .collect();
        assert_eq!(solver.solve_actions(&h), expect, "seed {seed}, declaration {}", h.declaration);
        assert_eq!(solver.value(&h), ab_points(&h, -1, 100), "seed {seed}");
    }
}

/// A random deal, bidding and declaration (the `full` preset, so every
/// contract can come up) at the opening lead.
fn random_opening(seed: u64) -> Hand {
    let mut h = random_endgame(seed, 7);
    // `random_endgame` may have played part of the first trick: replay to the lead.
    let mut start = Hand::new(h.rules, h.dealer, h.dealt);
    for i in 0..h.num_bids as usize {
        start.apply(h.bids[i] as Action).unwrap();
    }
    start.apply(h.declaration as Action).unwrap();
    h = start;
    assert_eq!((h.phase, h.trick, h.tricks[0].len), (Phase::Playing, 0, 0));
    h
}

#[test]
fn full_hands_are_consistent_along_the_best_line() {
    // Whole hands are too big for the brute force. Along a line where every
    // seat plays the solver's best action, the value must stay the same
    // (minimax consistency) and agree with a fresh solver, the per-action
    // values, the best action and the contract; off the line (a random legal
    // action every third play) the new value must be the one solve_actions gave.
    let mut solver = Solver::new();
    for seed in 0..12 {
        let mut h = random_opening(500 + seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let bt = team(h.bidder);
        let mut value = solver.value(&h);
        assert_eq!(Solver::with_tt_bits(10).value(&h), value, "seed {seed}: fresh solver");
        let mut step = 0;
        while !h.is_done() {
            let mover_bidder = team(h.to_move) == bt;
            let total = remaining_points(&h);
            let own = |v: i32| if mover_bidder { v } else { total - v };
            let acts = solver.solve_actions(&h);
            assert_eq!(acts.iter().map(|a| a.1).max().unwrap(), own(value), "seed {seed} step {step}");
            let (best, v) = solver.best_action(&h);
            assert_eq!(v, own(value), "seed {seed} step {step}: best action value");
            assert!(acts.contains(&(best, v)), "seed {seed} step {step}");
            let contract = solver.contract(&h);
            let made = solver.contract_actions(&h).iter().any(|x| x.1) == mover_bidder;
            assert_eq!(made, contract, "seed {seed} step {step}: contract");
            if let Goal::Points(need) = goal(&h) {
                assert_eq!(contract, value >= need as i32, "seed {seed} step {step}: point goal");
            }
            let a = if step % 3 == 2 { acts[rng.random_range(0..acts.len())].0 } else { best };
            let expect = acts.iter().find(|x| x.0 == a).unwrap().1;
            let before = h.points[bt] as i32;
            h.apply(a).unwrap();
            if h.is_done() {
                break;
            }
            let gained = h.points[bt] as i32 - before;
            let after = solver.value(&h);
            assert_eq!(own(after + gained), expect, "seed {seed} step {step}: value after {a}");
            value = after;
            step += 1;
        }
    }
}

#[test]
fn goal_and_remaining_points_follow_the_contract() {
    for seed in 0..300 {
        let h = random_endgame(20_000 + seed, 1 + (seed % 7) as u8);
        let bt = team(h.bidder);
        let bid = bones_env::texas42::bid_value(h.high_bid as Action);
        let g = goal(&h);
        match h.declaration as Action {
            NEL_O => assert!(matches!(g, Goal::NoTricks | Goal::Decided(false))),
            _ if bid >= 42 => assert!(matches!(g, Goal::AllTricks | Goal::Decided(false))),
            _ if h.points[bt] as u32 >= bid => assert_eq!(g, Goal::Decided(true)),
            _ => assert_eq!(g, Goal::Points((bid - h.points[bt] as u32) as u8)),
        }
        assert_eq!(remaining_points(&h), points_to_come(&h), "seed {seed}");
    }
}

// ---------------------------------------------------------------------------
// Known positions

fn set(s: &str) -> DominoSet {
    s.split_whitespace().map(|d| d.parse::<Domino>().unwrap()).collect()
}

/// Seat 0 bids `bid` (dealer 3, everyone else passes) and declares `decl`.
fn position(rules: Texas42Rules, hands: [&str; 4], bid: Action, decl: Action) -> Hand {
    let hands = hands.map(set);
    assert_eq!(hands.iter().map(|h| h.len()).sum::<usize>(), 28);
    assert_eq!(hands.iter().fold(DominoSet::EMPTY, |a, h| a | *h), DominoSet::FULL);
    let mut h = Hand::new(rules, 3, hands);
    for a in [bid, PASS, PASS, PASS, decl] {
        h.apply(a).unwrap();
    }
    assert_eq!(h.phase, Phase::Playing);
    h
}

const REST: [&str; 3] = ["5-5 5-4 5-3 5-2 5-1 5-0 4-4", "4-3 4-2 4-1 4-0 3-3 3-2 3-1", "3-0 2-2 2-1 2-0 1-1 1-0 0-0"];

#[test]
fn all_the_trumps_take_everything() {
    let sixes = "6-6 6-5 6-4 6-3 6-2 6-1 6-0";
    for bid in [BID_30, BID_1M] {
        let h = position(Texas42Rules::STANDARD, [sixes, REST[0], REST[1], REST[2]], bid, TRUMP_BLANKS + 6);
        let mut s = Solver::new();
        assert_eq!(s.value(&h), 42);
        assert!(s.contract(&h));
        assert!(s.solve_actions(&h).iter().all(|&(_, v)| v == 42));
        assert!(s.contract_actions(&h).iter().all(|&(_, made)| made));
        assert_eq!(s.best_action(&h).1, 42);
    }
}

#[test]
fn a_defender_with_every_trump_takes_everything() {
    let sixes = "6-6 6-5 6-4 6-3 6-2 6-1 6-0";
    for bid in [BID_30, BID_1M] {
        let h = position(Texas42Rules::STANDARD, [REST[0], sixes, REST[1], REST[2]], bid, TRUMP_BLANKS + 6);
        let mut s = Solver::new();
        assert_eq!(s.value(&h), 0);
        assert!(!s.contract(&h));
        // Seat 0 leads: every lead gives the bidders nothing.
        assert!(s.solve_actions(&h).iter().all(|&(_, v)| v == 0));
        assert!(s.contract_actions(&h).iter().all(|&(_, ours)| !ours));
    }
}

#[test]
fn all_the_doubles_take_everything_at_follow_me_and_doubles() {
    let doubles = "6-6 5-5 4-4 3-3 2-2 1-1 0-0";
    let rest = ["6-5 6-4 6-3 6-2 6-1 6-0 5-4", "5-3 5-2 5-1 5-0 4-3 4-2 4-1", "4-0 3-2 3-1 3-0 2-1 2-0 1-0"];
    for decl in [FOLLOW_ME, DOUBLES] {
        let h = position(Texas42Rules::STANDARD, [doubles, rest[0], rest[1], rest[2]], BID_1M, decl);
        let mut s = Solver::new();
        assert_eq!(s.value(&h), 42, "declaration {decl}");
        assert!(s.contract(&h));
    }
}

#[test]
fn nello_with_all_the_doubles_depends_on_how_doubles_rank() {
    // Seat 0 holds every double; seat 1 every six; seat 2 sits out.
    let hands = [
        "6-6 5-5 4-4 3-3 2-2 1-1 0-0",
        "6-5 6-4 6-3 6-2 6-1 6-0 5-4",
        "4-0 3-2 3-1 3-0 2-1 2-0 1-0",
        "5-3 5-2 5-1 5-0 4-3 4-2 4-1",
    ];
    for (nd, made) in [(NelloDoubles::OwnSuit, false), (NelloDoubles::High, false), (NelloDoubles::Low, true)] {
        let rules = Texas42Rules { nello_doubles: nd, ..Texas42Rules::FULL };
        let h = position(rules, hands, BID_1M + 1, NEL_O);
        assert_eq!(h.sitting_out(), Some(2));
        let mut s = Solver::new();
        assert_eq!(s.contract(&h), made, "{nd:?}");
        let acts = s.contract_actions(&h);
        assert_eq!(acts.iter().any(|&(_, ok)| ok), made, "{nd:?}: {acts:?}");
        // Low: every double lead is followed by a higher domino of its suit
        // (seats 1 and 3 hold each suit), after which the bidder never leads
        // again and its doubles never win. Otherwise no lead is safe.
        assert!(acts.iter().all(|&(_, ok)| ok == made), "{nd:?}: {acts:?}");
    }
}

#[test]
fn sevens_with_the_closest_dominoes_wins_every_trick() {
    // Every domino of seat 0 is at distance 0 or 1 from seven; ties go to the leader.
    let hands = [
        "6-1 5-2 4-3 6-0 5-1 4-2 3-3",
        "6-2 5-3 4-4 6-6 6-5 6-4 6-3",
        "5-5 5-4 5-0 4-1 4-0 3-2 3-1",
        "3-0 2-2 2-1 2-0 1-1 1-0 0-0",
    ];
    let h = position(Texas42Rules::FULL, hands, BID_1M, SEVENS);
    let mut s = Solver::new();
    assert_eq!(s.value(&h), 42);
    assert!(s.contract(&h));
    // Leading a distance-1 domino first loses the trick to a distance-1 follower?
    // No: ties go to the first played, so every legal lead (distance 0) keeps it.
    assert!(s.contract_actions(&h).iter().all(|&(_, ok)| ok));
}
