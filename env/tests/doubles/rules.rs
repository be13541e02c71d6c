//! Hand-written Doubles scenarios: opening, locked and unlocked numbers, spinner
//! sides, the draw rules and the two-domino floor, forced play of a drawn domino,
//! both endings, scoring and the blocked-tie option, rewards, and a whole game.

use bones_env::doubles::{
    action_name, highest_pip_action, parse_doubles, Board, Doubles, DoublesState, End, Round, DRAW, PASS,
};
use bones_env::rules::{BlockedTie, DoublesRules};
use bones_env::{Domino, DominoSet, Episode, Game, GameState};

fn set(s: &str) -> DominoSet {
    s.split_whitespace().map(|d| d.parse::<Domino>().unwrap()).collect()
}

fn rules(players: u8, blocked_tie: BlockedTie) -> DoublesRules {
    DoublesRules { players, blocked_tie, ..DoublesRules::default() }
}

/// A round from hands; the boneyard is `prefix` then the rest in dense order.
fn deal(players: u8, tie: BlockedTie, hands: &[&str], prefix: &str) -> DoublesState {
    let hands: Vec<DominoSet> = hands.iter().map(|h| set(h)).collect();
    let mut bones: Vec<Domino> = prefix.split_whitespace().map(|d| d.parse().unwrap()).collect();
    let mut used: DominoSet = hands.iter().fold(DominoSet::EMPTY, |a, h| a | *h);
    for d in &bones {
        used.insert(*d);
    }
    bones.extend((!used).iter());
    Doubles::new(rules(players, tie)).from_deal(&hands, &bones).unwrap()
}

fn legal(st: &DoublesState) -> Vec<&'static str> {
    let mut v: Vec<_> = st.legal_mask().iter().map(action_name).collect();
    v.sort();
    v
}

fn play(st: &mut DoublesState, actions: &[&str]) {
    for a in actions {
        st.apply(parse_doubles(a).unwrap()).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
}

fn try_play(st: &mut DoublesState, a: &str) -> bool {
    let before = format!("{st:?}");
    let ok = st.apply(parse_doubles(a).unwrap()).is_ok();
    if !ok {
        assert_eq!(format!("{st:?}"), before, "a rejected action left the state changed");
    }
    ok
}

/// Two players; seat 1 holds the highest double.
fn deal_a() -> DoublesState {
    deal(2, BlockedTie::None, &["6-5 6-4 6-3 6-2 5-5 5-4 0-0 1-0", "6-6 6-1 6-0 5-3 4-4 4-3 3-3 1-1"], "")
}

#[test]
fn highest_double_opens_and_nothing_else_is_legal() {
    let mut st = deal_a();
    assert_eq!(st.current_seat(), Some(1));
    assert_eq!(legal(&st), ["6-6"]);
    for bad in ["4-4", "6-1@6", "6-6@6", "draw", "pass"] {
        assert!(!try_play(&mut st, bad), "{bad}");
    }
    play(&mut st, &["6-6"]);
    assert_eq!(st.round().board.open, [0, 0, 0, 0, 0, 0, 4]);
    assert_eq!(st.current_seat(), Some(0), "play goes left from the opener");

    // 6-6 and 5-5 in the boneyard: the highest double dealt (4-4) opens.
    let st = deal(
        3,
        BlockedTie::None,
        &["3-3 1-0 2-0 3-0 4-0 5-0", "6-1 6-2 6-3 6-4 6-5 5-4", "4-4 2-2 1-1 0-0 2-1 3-1"],
        "6-6 5-5",
    );
    assert_eq!(st.current_seat(), Some(2));
    assert_eq!(legal(&st), ["4-4"]);
    assert_eq!(st.round().opener, 2);
}

#[test]
fn locked_numbers_unlock_with_their_double_and_spinners_open_sides() {
    let mut st = deal_a();
    play(&mut st, &["6-6"]);
    assert_eq!(legal(&st), ["6-2@6", "6-3@6", "6-4@6", "6-5@6"]);
    assert!(!try_play(&mut st, "draw"), "a player who can play may not draw");
    play(&mut st, &["6-5@6"]);
    assert_eq!(st.round().board.open, [0, 0, 0, 0, 0, 1, 3]);
    // 5 is locked: 5-3 may not go on the open 5.
    assert_eq!(legal(&st), ["6-0@6", "6-1@6"]);
    assert!(!try_play(&mut st, "5-3@5"));
    play(&mut st, &["6-1@6"]);
    // Seat 0: 5-5 may go on the locked 5; 5-4 and 1-0 may not.
    assert_eq!(legal(&st), ["5-5@5", "6-2@6", "6-3@6", "6-4@6"]);
    play(&mut st, &["5-5@5"]);
    assert_eq!(st.round().board.open, [0, 1, 0, 0, 0, 3, 2], "a double on an end opens three sides");
    assert!(st.round().board.is_unlocked(5));
    // Seat 1: 5 is unlocked now; 1-1 goes on the locked 1.
    assert_eq!(legal(&st), ["1-1@1", "5-3@5", "6-0@6"]);
    play(&mut st, &["1-1@1"]);
    assert_eq!(st.round().board.open, [0, 3, 0, 0, 0, 3, 2]);
    assert_eq!(legal(&st), ["1-0@1", "5-4@5", "6-2@6", "6-3@6", "6-4@6"]);
    play(&mut st, &["5-4@5"]);
    // The new end shows 4, still locked.
    assert_eq!(st.round().board.open, [0, 3, 0, 0, 1, 2, 2]);
    assert_eq!(legal(&st), ["4-4@4", "5-3@5", "6-0@6"]);
}

#[test]
fn after_the_four_sides_of_the_opener_only_doubles_play() {
    let mut b = Board::EMPTY;
    b.open_with(6);
    for d in ["6-5", "6-4", "6-3", "6-2"] {
        b.attach(d.parse().unwrap(), 6);
    }
    assert_eq!(b.playable(), set("5-5 4-4 3-3 2-2"));
}

/// Four players, boneyard 5-5 4-4 3-3 2-2 (in draw order).
fn deal_f() -> DoublesState {
    deal(
        4,
        BlockedTie::None,
        &["6-6 6-5 6-4 6-3 6-2 6-1", "5-4 5-3 5-2 5-1 4-3 4-2", "4-1 3-2 3-1 2-1 5-0 4-0", "6-0 3-0 2-0 1-0 0-0 1-1"],
        "5-5 4-4 3-3 2-2",
    )
}

#[test]
fn draw_one_then_pass_and_the_two_domino_floor() {
    let mut st = deal_f();
    play(&mut st, &["6-6"]);
    assert_eq!(st.current_seat(), Some(1));
    assert_eq!(legal(&st), ["draw"]);
    assert!(!try_play(&mut st, "pass"), "a player who can draw may not pass");
    play(&mut st, &["draw"]);
    // Seat 1 drew 5-5, which cannot be played: the only action is pass.
    assert_eq!(st.current_seat(), Some(1));
    assert_eq!(st.round().drawn, Some("5-5".parse().unwrap()));
    assert!(st.hands()[1].contains("5-5".parse().unwrap()));
    assert_eq!(st.boneyard().len(), 3);
    assert_eq!(legal(&st), ["pass"]);
    assert!(!try_play(&mut st, "draw"), "only one draw per turn");
    play(&mut st, &["pass"]);
    // Three left: seat 2 may still draw.
    assert_eq!(st.current_seat(), Some(2));
    assert_eq!(legal(&st), ["draw"]);
    play(&mut st, &["draw", "pass"]);
    assert_eq!(st.boneyard().len(), 2);
    play(&mut st, &["6-0@6", "6-1@6"]);
    // Seat 1 cannot play and the boneyard holds two: pass without drawing.
    assert_eq!(st.current_seat(), Some(1));
    assert_eq!(legal(&st), ["pass"]);
    assert!(!try_play(&mut st, "draw"));
    play(&mut st, &["pass"]);
    assert_eq!(legal(&st), ["pass"]);
    play(&mut st, &["pass"]);
    assert_eq!(st.current_seat(), Some(3));
    assert_eq!(legal(&st), ["0-0@0", "1-1@1"]);
    let r = st.round();
    assert_eq!((r.draws, r.passes), ([0, 1, 1, 0], [0, 2, 2, 0]));
    // What the draws and passes revealed: no 6 (unlocked, open); no 0-0, 1-1.
    assert_eq!(r.void[1], 1 << 6);
    assert_eq!(r.no_double[1], (1 << 6) | 0b11);
}

#[test]
fn a_playable_drawn_domino_must_be_played_at_once() {
    // Seat 1 holds no six; it draws 3-1 (dead), then 5-5 after 6-5 opened a 5.
    let mut st =
        deal(2, BlockedTie::None, &["6-6 6-5 6-4 6-3 6-2 6-1 6-0 0-0", "5-4 5-3 5-2 5-1 4-3 4-2 4-1 3-2"], "3-1 5-5");
    play(&mut st, &["6-6", "draw"]);
    assert_eq!(legal(&st), ["pass"]);
    play(&mut st, &["pass", "6-5@6"]);
    assert_eq!(legal(&st), ["draw"]);
    play(&mut st, &["draw"]);
    assert_eq!(st.current_seat(), Some(1));
    assert_eq!(legal(&st), ["5-5@5"], "the drawn double is the only legal action; no pass");
    assert!(!try_play(&mut st, "pass"));
    play(&mut st, &["5-5@5"]);
    assert_eq!(st.round().drawn, None);
    assert_eq!(st.current_seat(), Some(0));
    // With 5 unlocked, seat 1's fives are playable on its next turn.
    play(&mut st, &["6-4@6"]);
    assert_eq!(legal(&st), ["5-1@5", "5-2@5", "5-3@5", "5-4@5"]);
}

/// A custom round: `hands` per seat, `open` ends on a board holding `placed` (its
/// doubles unlocked), `bones` left in the boneyard, `to_move` to act.
fn custom(
    players: u8,
    tie: BlockedTie,
    hands: &[&str],
    placed: &str,
    open: [u8; 7],
    bones: &str,
    to_move: u8,
) -> Round {
    let mut h = [DominoSet::EMPTY; 4];
    for (s, x) in hands.iter().enumerate() {
        h[s] = set(x);
    }
    let bones: Vec<Domino> = bones.split_whitespace().map(|d| d.parse().unwrap()).collect();
    // Round::new wants a double somewhere to find an opener; give seat 0 one if needed.
    let mut r = if (h.iter().fold(DominoSet::EMPTY, |a, x| a | *x) & DominoSet::DOUBLES).is_empty() {
        let mut h2 = h;
        h2[0].insert(Domino::new(0, 0));
        let mut r = Round::new(players, tie, h2, &bones);
        r.hands = h;
        r.dealt = h;
        r
    } else {
        Round::new(players, tie, h, &bones)
    };
    let placed = set(placed);
    r.board = Board { open, unlocked: (placed & DominoSet::DOUBLES).iter().fold(0, |u, d| u | 1 << d.high()), placed };
    for (i, d) in placed.iter().enumerate() {
        r.played_by[d.index()] = 0;
        r.play_index[d.index()] = i as u8;
    }
    r.num_plays = placed.len() as u8;
    r.to_move = to_move;
    r
}

fn state_with(players: u8, tie: BlockedTie, round: Round) -> DoublesState {
    Doubles::new(rules(players, tie)).new_state(0, Episode::Hand).with_round(round)
}

#[test]
fn domino_scores_the_pips_left_in_every_other_hand() {
    let r = custom(3, BlockedTie::None, &["6-1", "5-5 4-3", "2-0 0-0"], "6-6", [0, 0, 0, 0, 0, 0, 4], "1-1 2-2", 0);
    let mut st = state_with(3, BlockedTie::None, r);
    assert_eq!(legal(&st), ["6-1@6"]);
    play(&mut st, &["6-1@6"]);
    assert!(st.is_terminal());
    assert_eq!(st.end(), Some(End::Domino));
    assert_eq!(st.round_winner(), Some(0));
    assert_eq!(st.scores(), [17 + 2, 0, 0, 0]);
    assert_eq!(st.rewards(), [19.0 - 19.0 / 3.0, -19.0 / 3.0, -19.0 / 3.0, 0.0]);
    assert_eq!(st.current_seat(), None);
    assert!(st.legal_mask().is_empty());
    assert!(st.apply(PASS).is_err());
}

#[test]
fn blocked_round_lowest_hand_scores_the_others() {
    // Seat 2 plays 0-0 on the last locked end; the boneyard holds two; no one
    // holds a 0 or a 6: blocked at once, no passes needed.
    let r =
        custom(3, BlockedTie::None, &["5-4 3-3", "2-1", "0-0 5-5 4-3"], "6-6 6-0", [1, 0, 0, 0, 0, 0, 3], "1-1 2-2", 2);
    let mut st = state_with(3, BlockedTie::None, r);
    assert_eq!(legal(&st), ["0-0@0"]);
    play(&mut st, &["0-0@0"]);
    assert_eq!(st.end(), Some(End::Blocked));
    assert_eq!(st.round_winner(), Some(1));
    assert_eq!(st.scores(), [0, 15 + 17, 0, 0]);
    let sum: f32 = st.rewards().iter().sum();
    assert!(sum.abs() < 1e-4);
}

#[test]
fn blocked_tie_none_scores_nothing_and_split_divides_rounding_down() {
    let make = |tie| {
        let r = custom(3, tie, &["4-1", "3-2", "0-0 5-5 4-3"], "6-6 6-0", [1, 0, 0, 0, 0, 0, 3], "1-1 2-2", 2);
        let mut st = state_with(3, tie, r);
        play(&mut st, &["0-0@0"]);
        assert_eq!(st.end(), Some(End::Blocked));
        assert_eq!(st.round_winner(), None, "no winner in a tied block");
        st
    };
    assert_eq!(make(BlockedTie::None).scores(), [0, 0, 0, 0]);
    assert_eq!(make(BlockedTie::None).rewards(), [0.0; 4]);
    // 17 pips outside the tie, split two ways: 8 each.
    let st = make(BlockedTie::Split);
    assert_eq!(st.scores(), [8, 8, 0, 0]);
    let r = st.rewards();
    assert!((r[0] - 8.0 + 16.0 / 3.0).abs() < 1e-5 && (r[2] + 16.0 / 3.0).abs() < 1e-5 && r[3] == 0.0);
}

#[test]
fn blocked_tie_on_a_dealt_round_both_ways() {
    // The shortest tied block of the conformance set, played from its deal.
    let hands =
        ["1-0 2-0 3-0 3-3 4-3 6-4", "3-1 3-2 5-1 5-2 6-2 6-3", "2-1 4-1 4-2 5-3 6-0 6-5", "4-4 5-0 5-4 5-5 6-1 6-6"];
    let actions = [
        "6-6", "6-4@6", "6-2@6", "6-5@6", "5-5@5", "draw", "2-2@2", "6-3@6", "2-1@2", "5-4@5", "3-3@3", "5-1@5",
        "5-3@3", "5-0@5", "2-0@2", "3-2@3", "4-2@2", "4-4@4", "4-3@3", "5-2@5", "4-1@4", "draw", "4-0@4",
    ];
    for (tie, scores) in [(BlockedTie::None, [0, 0, 0, 0]), (BlockedTie::Split, [6, 6, 0, 0])] {
        let mut st = deal(4, tie, &hands, "2-2 4-0 0-0 1-1");
        play(&mut st, &actions);
        assert!(st.is_terminal());
        assert_eq!(st.end(), Some(End::Blocked));
        assert_eq!(st.round().pips(), [4, 4, 6, 7], "13 pips outside the tie: 6 each, rounded down");
        assert_eq!(st.scores(), scores);
        assert_eq!(st.round_winner(), None);
        assert_eq!(st.boneyard().len(), 2);
    }
}

#[test]
fn from_deal_rejects_bad_deals_with_clear_errors() {
    let game = Doubles::new(rules(2, BlockedTie::None));
    let a = set("6-6 6-5 6-4 6-3 6-2 6-1 6-0 0-0");
    let b = set("5-4 5-3 5-2 5-1 4-3 4-2 4-1 3-2");
    let rest: Vec<Domino> = (!(a | b)).iter().collect();
    assert!(game.from_deal(&[a, b], &rest).is_ok());
    let e = game.from_deal(&[a], &rest).unwrap_err().to_string();
    assert!(e.contains("2 players need 2 hands"), "{e}");
    let e = game.from_deal(&[a, a], &rest).unwrap_err().to_string();
    assert!(e.contains("more than once"), "{e}");
    let mut short = b;
    short.remove("3-2".parse().unwrap());
    let mut rest2 = rest.clone();
    rest2.push("3-2".parse().unwrap());
    let e = game.from_deal(&[a, short], &rest2).unwrap_err().to_string();
    assert!(e.contains("seat 1 holds 7") && e.contains("holds 8"), "{e}");
    let e = game.from_deal(&[a, b], &rest[1..]).unwrap_err().to_string();
    assert!(e.contains("27 distinct") && e.contains("1-0"), "{e}");
    // No double among the hands.
    let c = set("6-5 6-4 6-3 6-2 6-1 6-0 5-4 5-3");
    let d = set("5-2 5-1 5-0 4-3 4-2 4-1 4-0 3-2");
    let rest: Vec<Domino> = (!(c | d)).iter().collect();
    let e = game.from_deal(&[c, d], &rest).unwrap_err().to_string();
    assert!(e.contains("no double"), "{e}");
}

#[test]
fn highest_pip_baseline() {
    let mut st = deal_a();
    assert_eq!(action_name(highest_pip_action(&st)), "6-6");
    play(&mut st, &["6-6"]);
    assert_eq!(action_name(highest_pip_action(&st)), "6-5@6");
    let mut st = deal_f();
    play(&mut st, &["6-6"]);
    assert_eq!(highest_pip_action(&st), DRAW);
    play(&mut st, &["draw"]);
    assert_eq!(highest_pip_action(&st), PASS);
    // Ties go to the lowest id: 5-4 on 5 or on 4 (both unlocked) → `5-4@5`.
    let r = custom(2, BlockedTie::None, &["5-4 1-0", "3-3"], "6-6 6-5 5-5 6-4 4-4", [0, 0, 0, 0, 3, 3, 2], "", 0);
    let st = state_with(2, BlockedTie::None, r);
    assert_eq!(legal(&st), ["5-4@4", "5-4@5"]);
    assert_eq!(action_name(highest_pip_action(&st)), "5-4@5");
}

fn add(totals: &mut [u32; 4], scores: [u32; 4]) {
    for (t, s) in totals.iter_mut().zip(scores) {
        *t += s;
    }
}

#[test]
fn a_whole_game_to_100() {
    for players in 2..=4u8 {
        for seed in 0..5u64 {
            let game = Doubles::new(rules(players, BlockedTie::None));
            let mut st = game.new_state(seed, Episode::Game);
            let mut totals = [0u32; 4];
            let mut rounds = 0;
            while !st.is_terminal() {
                st.apply(highest_pip_action(&st)).unwrap();
                if let Some(prev) = st.previous_round() {
                    assert!(prev.is_done());
                    add(&mut totals, prev.scores);
                    rounds += 1;
                    assert_eq!(st.totals(), totals);
                    assert_eq!(st.rewards(), [0.0; 4], "no reward between rounds of a game");
                    assert!(st.round().num_plays == 0 && st.round().steps == 0, "a fresh deal");
                }
            }
            let last = st.round();
            add(&mut totals, last.scores);
            assert_eq!(st.totals(), totals);
            assert_eq!(st.rounds_played(), rounds + 1);
            let w = st.game_winner().unwrap() as usize;
            let n = players as usize;
            assert!(totals[w] >= 100);
            assert!((0..n).all(|s| s == w || totals[s] < totals[w]), "{totals:?}");
            let r = st.rewards();
            assert_eq!(r[w], 1.0);
            for (s, &rs) in r.iter().enumerate() {
                if s != w {
                    let expect = if s < n { -1.0 / (n - 1) as f32 } else { 0.0 };
                    assert!((rs - expect).abs() < 1e-6);
                }
            }
            assert!(st.apply(0).is_err());
        }
    }
}

#[test]
fn a_tied_lead_past_the_target_plays_on() {
    // Target 1 under `split`: a first round ending in a split tie puts two
    // players level at the top, so the game goes on. Find such a deal.
    let game = Doubles::new(DoublesRules { players: 3, blocked_tie: BlockedTie::Split, target: 1 });
    let mut found = 0;
    for seed in 0..3000u64 {
        let mut st = game.new_state(seed, Episode::Game);
        while st.rounds_played() == 0 {
            st.apply(highest_pip_action(&st)).unwrap();
        }
        let t = st.totals();
        let high = *t.iter().max().unwrap();
        if high >= 1 && t.iter().filter(|&&x| x == high).count() > 1 {
            assert!(!st.is_terminal(), "seed {seed}: tied lead {t:?} ended the game");
            assert_eq!(st.game_winner(), None);
            found += 1;
        } else if high >= 1 {
            assert!(st.is_terminal());
        }
    }
    assert!(found > 0, "no tied lead in 3000 deals");
}

#[test]
fn seeded_deals_are_redealt_while_no_one_holds_a_double() {
    // Every seeded deal has a double in some hand.
    for players in 2..=4u8 {
        let game = Doubles::new(rules(players, BlockedTie::None));
        for seed in 0..2000u64 {
            let st = game.new_state(seed, Episode::Hand);
            let held = st.hands().iter().fold(DominoSet::EMPTY, |a, h| a | *h);
            assert!(!(held & DominoSet::DOUBLES).is_empty());
            assert_eq!(st.round().boneyard().len(), 28 - players as usize * bones_env::doubles::hand_size(players));
        }
    }
}

#[test]
fn a_deal_without_a_double_is_redealt_from_the_same_stream() {
    let game = Doubles::new(rules(2, BlockedTie::None));
    let mut redealt = 0;
    for seed in 0..20_000u64 {
        let mut rng = bones_env::deal::rng_for_seed(seed);
        let (first, _) = bones_env::deal::deal(&mut rng, 2, 8);
        if !((first[0] | first[1]) & DominoSet::DOUBLES).is_empty() {
            continue;
        }
        let (second, bones) = bones_env::deal::deal(&mut rng, 2, 8);
        let st = game.new_state(seed, Episode::Hand);
        if !((second[0] | second[1]) & DominoSet::DOUBLES).is_empty() {
            assert_eq!(st.hands()[..2], second[..2], "seed {seed}");
            assert_eq!(st.boneyard(), &bones[..]);
        }
        redealt += 1;
    }
    assert!(redealt > 0, "no deal without a double in 20000 seeds");
}
