//! Property tests for Doubles over random deals and random legal play, beside
//! the conformance suite's game-independent checks (run here too, on every
//! state): the legal mask is the one docs/rules.md gives, rounds and games
//! terminate, round scores follow the pip rule, a game's winner is the single
//! leader past the target; resamples of what a seat cannot see fit what it
//! knows, and even a placement of its hidden dominoes that its knowledge rules
//! out leaves its view and observation alone.

use bones_env::doubles::{
    highest_double, parse_doubles, Doubles, DoublesState, End, Round, DRAW, NUM_ACTIONS_DOUBLES, OBS_LEN_DOUBLES, PASS,
};
use bones_env::rules::{BlockedTie, DoublesRules};
use bones_env::testing::{check_state as suite_check_state, check_transition, SuiteConfig, SuiteReport};
use bones_env::{ActionMask, Domino, DominoSet, Episode, Game, GameState, SeatView};
use proptest::prelude::*;

fn game(players: u8, split: bool) -> Doubles {
    let blocked_tie = if split { BlockedTie::Split } else { BlockedTie::None };
    Doubles::new(DoublesRules { players, blocked_tie, ..DoublesRules::default() })
}

fn check_conserved(r: &Round) {
    let mut all = r.board.placed;
    let mut count = r.board.placed.len() + r.boneyard().len();
    for s in 0..4 {
        if s >= r.players as usize {
            assert!(r.hands[s].is_empty());
        }
        assert!((all & r.hands[s]).is_empty(), "a domino in two places");
        all |= r.hands[s];
        count += r.hands[s].len();
    }
    for d in r.boneyard() {
        assert!(!all.contains(*d), "a boneyard domino elsewhere too");
        all.insert(*d);
    }
    assert_eq!(all, DominoSet::FULL);
    assert_eq!(count, 28);
}

/// The round's scores from docs/rules.md, computed from the final hands.
fn pip_rule(r: &Round) -> ([u32; 4], Option<u8>) {
    let n = r.players as usize;
    let pips: Vec<u32> = (0..n).map(|s| r.hands[s].pips()).collect();
    let total: u32 = pips.iter().sum();
    let mut scores = [0u32; 4];
    match r.end.unwrap() {
        End::Domino => {
            let w = (0..n).find(|&s| r.hands[s].is_empty()).unwrap();
            scores[w] = total;
            (scores, Some(w as u8))
        }
        End::Blocked => {
            let low = *pips.iter().min().unwrap();
            let tied: Vec<usize> = (0..n).filter(|&s| pips[s] == low).collect();
            let rest = total - low * tied.len() as u32;
            if tied.len() == 1 {
                scores[tied[0]] = rest;
                (scores, Some(tied[0] as u8))
            } else {
                if r.blocked_tie == BlockedTie::Split {
                    for &s in &tied {
                        scores[s] = rest / tied.len() as u32;
                    }
                }
                (scores, None)
            }
        }
    }
}

/// The legal actions by docs/rules.md, from the round's board, hands and boneyard.
fn reference_legal(r: &Round) -> ActionMask {
    let mut m = ActionMask::EMPTY;
    if r.end.is_some() {
        return m;
    }
    if r.board.placed.is_empty() {
        let top = (0..r.players as usize).flat_map(|s| r.hands[s].iter()).filter(|d| d.is_double()).max().unwrap();
        m.insert(parse_doubles(&top.to_string()).unwrap());
        return m;
    }
    let plays = |cands: DominoSet| {
        let mut m = ActionMask::EMPTY;
        for d in cands {
            for e in 0..7u8 {
                let unlocked = r.board.placed.contains(Domino::new(e, e));
                if d.has(e) && r.board.open[e as usize] > 0 && (d.is_double() || unlocked) {
                    m.insert(parse_doubles(&format!("{d}@{e}")).unwrap());
                }
            }
        }
        m
    };
    let cands = match r.drawn {
        Some(d) => d.bit(),
        None => r.hands[r.to_move as usize],
    };
    m = plays(cands);
    if m.is_empty() {
        m.insert(if r.drawn.is_none() && r.boneyard().len() > 2 { DRAW } else { PASS });
    }
    m
}

/// The suite's checks on the state (the mask against `apply`, dominoes,
/// rewards, views), then Doubles' own: the mask is the rules' and the cached
/// one is what a refresh computes; a drawn domino plays or the seat passes.
fn check_state(g: &Doubles, st: &DoublesState) {
    let config = SuiteConfig { resamples: 0, ..SuiteConfig::default() };
    suite_check_state(g, st, &config, 0, &mut SuiteReport::default()).unwrap_or_else(|e| panic!("{e}"));
    let r = st.round();
    check_conserved(r);
    let mask = st.legal_mask();
    assert_eq!(mask, reference_legal(r), "cached mask against the rules");
    let mut fresh = *r;
    fresh.refresh();
    assert_eq!(fresh.legal_mask(), mask);
    assert_eq!(mask.0 >> NUM_ACTIONS_DOUBLES, 0);
    if !st.is_terminal() {
        assert!(!r.is_blocked(), "a blocked round is still running");
        if let Some(d) = r.drawn {
            assert!(r.hands[r.to_move as usize].contains(d));
            for a in mask.iter() {
                let p = bones_env::doubles::played_domino(a);
                assert!(p == Some(d) || a == PASS, "after a draw only the drawn domino plays");
            }
        }
        if mask.contains(DRAW) {
            assert!(r.boneyard().len() > 2);
        }
    }
}

/// A copy of the round with the dominoes hidden from `me` (other hands and the
/// boneyard) shuffled among those places, sizes kept.
fn reshuffle_hidden(r: &Round, me: usize, key: u64) -> Round {
    let n = r.players as usize;
    let mut hidden: Vec<Domino> = r.boneyard().to_vec();
    for s in (0..n).filter(|&s| s != me) {
        hidden.extend(r.hands[s].iter());
    }
    // A deterministic permutation from `key`.
    let mut x = key | 1;
    for i in (1..hidden.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        hidden.swap(i, (x % (i as u64 + 1)) as usize);
    }
    let mut out = *r;
    let mut k = 0;
    for s in (0..n).filter(|&s| s != me) {
        let size = r.hands[s].len();
        out.hands[s] = hidden[k..k + size].iter().copied().collect();
        k += size;
    }
    let start = r.bone_next as usize;
    out.bones[start..start + r.boneyard().len()].copy_from_slice(&hidden[k..]);
    if r.drawn.is_some() && r.to_move as usize != me {
        out.drawn = out.hands[r.to_move as usize].first();
    }
    out
}

/// A table of 2 to 4 players under either blocked-tie rule, a seed, and the
/// choices of actions (indexes into the legal mask, used in turn).
fn table_seed_choices() -> impl Strategy<Value = (Doubles, u64, Vec<u16>)> {
    (
        (2u8..=4, any::<bool>()).prop_map(|(players, split)| game(players, split)),
        any::<u64>(),
        prop::collection::vec(any::<u16>(), 1..64),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rounds_follow_the_rules_mask_and_score_by_pips((g, seed, choices) in table_seed_choices()) {
        let mut st = g.new_state(seed, Episode::Hand);
        let mut steps = 0;
        check_state(&g, &st);
        while !st.is_terminal() {
            let mask = st.legal_mask();
            let a = mask.nth(choices[steps % choices.len()] as usize % mask.len());
            let before = st.clone();
            st.apply(a).unwrap();
            check_transition(&g, &before, a, &st).unwrap_or_else(|e| panic!("{e}"));
            steps += 1;
            prop_assert!(steps < 500);
            check_state(&g, &st);
            if !st.is_terminal() {
                prop_assert_eq!(st.rewards(), [0.0; 4]);
            }
        }
        let r = st.round();
        prop_assert_eq!(r.steps as usize, steps);
        let (scores, winner) = pip_rule(r);
        prop_assert_eq!(r.scores, scores);
        prop_assert_eq!(r.winner, winner);
        if r.end == Some(End::Blocked) {
            prop_assert!(r.boneyard().len() <= 2);
        }
        let rw = st.rewards();
        prop_assert!(rw.iter().sum::<f32>().abs() < 1e-3);
        prop_assert!(rw[g.rules.players as usize..].iter().all(|&x| x == 0.0));
    }

    #[test]
    fn resamples_fit_what_the_seat_knows_and_any_placement_keeps_its_view(
        players in 2u8..=4, seed in any::<u64>(), key in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 1..64), stop in 0usize..80,
    ) {
        let g = game(players, false);
        let mut st = g.new_state(seed, Episode::Hand);
        let mut steps = 0;
        while !st.is_terminal() && steps < stop {
            let mask = st.legal_mask();
            st.apply(mask.nth(choices[steps % choices.len()] as usize % mask.len())).unwrap();
            steps += 1;
        }
        let mut a = vec![0.0; OBS_LEN_DOUBLES];
        let mut b = vec![0.0; OBS_LEN_DOUBLES];
        for me in 0..players as usize {
            let other = st.with_round(reshuffle_hidden(st.round(), me, key));
            check_conserved(other.round());
            st.observe(me, &mut a);
            other.observe(me, &mut b);
            prop_assert!(a == b, "seat {} sees hidden dominoes", me);
            // The seat's view holds public facts only, and observes what the state
            // shows it. Before the opening the opener is known to hold the highest
            // double: a reshuffle handing a higher one to another seat is another
            // history (the opener's legal opening would change).
            let n = players as usize;
            let view = st.view(me);
            if st.round().board.is_open() || highest_double(&other.hands()[..n]) == highest_double(&st.hands()[..n]) {
                prop_assert_eq!(view, other.view(me), "seat {}'s view depends on hidden dominoes", me);
            }
            view.observe(&mut b);
            prop_assert!(a == b, "seat {}'s view does not observe what the state shows it", me);
            prop_assert!(a.iter().all(|x| x.is_finite() && (0.0..=4.0).contains(x)));
            // The own hand is in the observation.
            for d in st.hands()[me] {
                prop_assert_eq!(a[d.index()], 1.0);
            }
            // A resample fits everything public: hand sizes and the boneyard's
            // length, the numbers and doubles each seat showed it lacks, the
            // opener's highest double, a domino just drawn.
            if let Some(alt) = st.resample_hidden(me, key) {
                let (r, q) = (st.round(), alt.round());
                prop_assert_eq!(q.hands[me], r.hands[me]);
                prop_assert_eq!(q.boneyard().len(), r.boneyard().len());
                prop_assert_eq!(q.board, r.board);
                prop_assert!(q.hands != r.hands || q.boneyard() != r.boneyard(), "a resample changed nothing");
                for s in 0..n {
                    prop_assert_eq!(q.hands[s].len(), r.hands[s].len());
                    for d in q.hands[s] - r.hands[s] {
                        prop_assert_eq!(r.void[s] & ((1 << d.high()) | (1 << d.low())), 0, "seat {} holds a void {}", s, d);
                        prop_assert!(!d.is_double() || r.no_double[s] & (1 << d.high()) == 0);
                    }
                }
                if !r.board.is_open() {
                    prop_assert_eq!(highest_double(&q.hands[..n]), highest_double(&r.hands[..n]));
                }
                if let Some(d) = r.drawn {
                    prop_assert!(q.drawn == Some(d) && q.hands[r.to_move as usize].contains(d));
                }
                prop_assert_eq!(alt.view(me), st.view(me));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn games_terminate_with_a_unique_winner((g, seed, choices) in table_seed_choices()) {
        let players = g.rules.players;
        let mut st = g.new_state(seed, Episode::Game);
        let mut rounds = 0;
        while !st.is_terminal() {
            play_round_in_game(&mut st, &choices);
            rounds += 1;
            prop_assert!(rounds < 1000, "game does not end");
        }
        let t = st.totals();
        let w = st.game_winner().unwrap() as usize;
        prop_assert!(t[w] >= g.rules.target);
        prop_assert!((0..players as usize).all(|s| s == w || t[s] < t[w]));
        // The winner +1, every other seat -1/(n-1).
        let r = st.rewards();
        let n = players as usize;
        prop_assert!((0..n).all(|s| r[s] == if s == w { 1.0 } else { -1.0 / (n - 1) as f32 }), "{:?}", r);
    }
}

/// Plays until the current round of a game episode is over.
fn play_round_in_game(st: &mut DoublesState, choices: &[u16]) {
    let played = st.rounds_played();
    let mut steps = 0;
    while !st.is_terminal() && st.rounds_played() == played {
        let mask = st.legal_mask();
        st.apply(mask.nth(choices[steps % choices.len()] as usize % mask.len())).unwrap();
        steps += 1;
        assert!(steps < 500, "round does not end");
    }
}
