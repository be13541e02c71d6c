//! Tests of the Texas 42 observation: each segment against hand-built hands,
//! and the derived features against the engine over random hands (a sibling of
//! `observe`, so that the writer's module does not depend on the view's).

use super::actions::{BID_1M, BID_30, DOUBLES, FOLLOW_ME, NEL_O, PASS, PLAY, SEVENS, TRUMP_BLANKS};
use super::facts::SeatOfHand;
use super::game::Texas42;
use super::hand::{Hand, Phase};
use super::observe::{write, OBS_LEN_42, OBS_SEGMENTS_42, OBS_VERSION_42};
use super::view::Texas42View;
use crate::action::Action;
use crate::domino::{Domino, DominoSet};
use crate::game::{Episode, Game};
use crate::rules::{NelloDoubles, Texas42Rules};
use crate::seed::splitmix64;
use crate::view::SeatView;

fn set(s: &str) -> DominoSet {
    s.split_whitespace().map(|x| x.parse::<Domino>().unwrap()).collect()
}

fn dom(s: &str) -> Domino {
    s.parse().unwrap()
}

fn deal() -> [DominoSet; 4] {
    [
        set("5-3 6-6 6-4 4-4 3-3 4-3 1-0"),
        set("2-1 6-1 2-0 1-1 0-0 4-0 3-1"),
        set("5-5 5-0 6-5 2-2 4-2 3-2 6-0"),
        set("3-0 4-1 5-1 5-2 5-4 6-2 6-3"),
    ]
}

/// Seat 0 bids `bid`, the others pass (dealer 3), seat 0 declares `declaration`.
fn start(rules: Texas42Rules, bid: Action, declaration: Action) -> Hand {
    let mut h = Hand::new(rules, 3, deal());
    for a in [bid, PASS, PASS, PASS] {
        h.apply(a).unwrap();
    }
    assert_eq!(h.phase, Phase::Declaring);
    h.apply(declaration).unwrap();
    h
}

fn play(h: &mut Hand, plays: &str) {
    for d in plays.split_whitespace() {
        h.apply(PLAY + dom(d).index()).unwrap();
    }
}

/// Seat `me`'s observation of `h`, written from its view and (the same)
/// from the facts read off the hand.
fn obs(h: &Hand, me: usize) -> Vec<f32> {
    let mut out = vec![f32::NAN; OBS_LEN_42];
    Texas42View::from_hand(h, me as u8).observe(&mut out);
    let mut direct = vec![f32::NAN; OBS_LEN_42];
    write(&SeatOfHand::new(h, me as u8, [0, 0], 0), &mut direct);
    assert_eq!(out, direct, "the view observes what the hand shows seat {me}");
    out
}

fn seg<'a>(o: &'a [f32], name: &str) -> &'a [f32] {
    let mut off = 0;
    for s in &OBS_SEGMENTS_42 {
        if s.name == name {
            return &o[off..off + s.len];
        }
        off += s.len;
    }
    panic!("no segment {name}")
}

/// Indices of the non-zero entries.
fn hot(v: &[f32]) -> Vec<usize> {
    (0..v.len()).filter(|&i| v[i] != 0.0).collect()
}

/// The dominoes marked in a 28-wide segment.
fn doms(v: &[f32]) -> DominoSet {
    hot(v).into_iter().map(Domino::from_index).collect()
}

#[test]
fn version_2_appends_to_version_1() {
    assert_eq!(OBS_VERSION_42, 2);
    let v1: usize = OBS_SEGMENTS_42[..19].iter().map(|s| s.len).sum();
    assert_eq!(v1, 777, "the version 1 segments keep their offsets");
    assert_eq!(OBS_SEGMENTS_42[18].name, "rules");
    assert_eq!(OBS_LEN_42, 777 + 28 + 8 + 4 + 28 + 28 + 32 + 8 + 1);
}

#[test]
fn before_the_declaration_only_unseen_features_are_written() {
    let mut h = Hand::new(Texas42Rules::STANDARD, 3, deal());
    h.apply(BID_30).unwrap();
    let o = obs(&h, 2);
    for name in ["trumps", "led_suit", "winning", "can_win", "voids", "unseen_suits"] {
        assert!(hot(seg(&o, name)).is_empty(), "{name} written while bidding");
    }
    assert_eq!(doms(seg(&o, "unseen")), DominoSet::FULL - h.hands[2]);
    // Seat 2 holds 5-5, 5-0 and 3-2: 6-4 and 4-1 are unseen.
    assert_eq!(seg(&o, "unseen_count"), [15.0 / 35.0]);
}

#[test]
fn sixes_trick_in_progress_and_a_seat_that_showed_out() {
    let mut h = start(Texas42Rules::STANDARD, BID_30, TRUMP_BLANKS + 6);
    let o = obs(&h, 2);
    assert_eq!(doms(seg(&o, "trumps")), DominoSet::with_pip(6));
    assert!(hot(seg(&o, "led_suit")).is_empty() && hot(seg(&o, "winning")).is_empty());

    play(&mut h, "5-3");
    let o = obs(&h, 2);
    assert_eq!(hot(seg(&o, "led_suit")), [5]);
    assert_eq!(hot(seg(&o, "winning")), [2], "my partner leads");
    assert!(hot(seg(&o, "can_win")).is_empty(), "not my turn");

    play(&mut h, "2-1"); // seat 1 holds no (non-trump) five: shows out
    let o = obs(&h, 2);
    assert_eq!(hot(seg(&o, "led_suit")), [5]);
    assert_eq!(hot(seg(&o, "winning")), [2]);
    // Legal: 5-5 and 5-0 (6-5 is a trump, not a five); only 5-5 beats 5-3.
    assert_eq!(doms(seg(&o, "can_win")), set("5-5"));
    assert_eq!(hot(seg(&o, "voids")), [3 * 8 + 5], "seat 1 is on my right");
    assert_eq!(doms(seg(&o, "unseen")), DominoSet::FULL - h.hands[2] - set("5-3 2-1"));
    let suits = seg(&o, "unseen_suits");
    assert_eq!(suits[7], 5.0 / 7.0, "6-6 6-4 6-3 6-2 6-1 unseen");
    assert_eq!(suits[6], 0.0, "the trump's pip slot is unused");
    assert_eq!(suits[5], 3.0 / 7.0, "5-4 5-2 5-1 unseen");
    assert_eq!(seg(&o, "unseen_count"), [15.0 / 35.0]);
    // Seat 1 sees its own void, and the leader (on its right) winning.
    let o1 = obs(&h, 1);
    assert_eq!(hot(seg(&o1, "voids")), [5]);
    assert_eq!(hot(seg(&o1, "winning")), [3]);
    assert!(hot(seg(&o1, "can_win")).is_empty());

    play(&mut h, "5-5");
    let o = obs(&h, 3);
    assert_eq!(hot(seg(&o, "winning")), [3]);
    assert!(hot(seg(&o, "can_win")).is_empty(), "nothing beats 5-5");

    play(&mut h, "5-4"); // seat 2 wins and leads a trump
    let o = obs(&h, 2);
    for name in ["led_suit", "winning", "can_win"] {
        assert!(hot(seg(&o, name)).is_empty(), "{name} written between tricks");
    }
    assert_eq!(hot(seg(&o, "voids")), [3 * 8 + 5], "a void is remembered");
    play(&mut h, "6-5 6-3");
    let o = obs(&h, 0);
    assert_eq!(hot(seg(&o, "led_suit")), [7], "a trump lead");
    assert_eq!(hot(seg(&o, "winning")), [2]);
    assert_eq!(doms(seg(&o, "can_win")), set("6-6"), "6-4 ranks below 6-5");
}

#[test]
fn doubles_trump() {
    let mut h = start(Texas42Rules::STANDARD, BID_30, DOUBLES);
    play(&mut h, "5-3 0-0"); // seat 1 has no five and trumps in
    let o = obs(&h, 2);
    assert_eq!(doms(seg(&o, "trumps")), DominoSet::DOUBLES);
    assert_eq!(hot(seg(&o, "led_suit")), [5]);
    assert_eq!(hot(seg(&o, "winning")), [3]);
    assert!(hot(seg(&o, "can_win")).is_empty(), "5-0 and 6-5 cannot beat a trump");
    assert_eq!(hot(seg(&o, "voids")), [3 * 8 + 5]);
    let suits = seg(&o, "unseen_suits");
    assert_eq!(suits[7], 4.0 / 7.0, "1-1 3-3 4-4 6-6 unseen");
    assert_eq!(suits[5], 3.0 / 7.0, "5-5 is not a five");
    play(&mut h, "5-0 5-4");
    play(&mut h, "1-1"); // seat 1 won and leads a trump
    let o = obs(&h, 2);
    assert_eq!(hot(seg(&o, "led_suit")), [7]);
    assert_eq!(hot(seg(&o, "winning")), [3]);
    assert_eq!(doms(seg(&o, "can_win")), set("2-2 5-5"));
}

#[test]
fn follow_me_has_no_trump() {
    let mut h = start(Texas42Rules::STANDARD, BID_30, FOLLOW_ME);
    play(&mut h, "5-3 0-0");
    let o = obs(&h, 2);
    assert!(hot(seg(&o, "trumps")).is_empty());
    assert_eq!(hot(seg(&o, "led_suit")), [5]);
    assert_eq!(hot(seg(&o, "winning")), [2]);
    // 6-5 follows fives under follow-me and outranks 5-3.
    assert_eq!(doms(seg(&o, "can_win")), set("5-5 6-5"));
    assert_eq!(hot(seg(&o, "voids")), [3 * 8 + 5]);
    let suits = seg(&o, "unseen_suits");
    assert_eq!(suits[7], 0.0);
    assert_eq!(suits[6], 5.0 / 7.0);
}

#[test]
fn nello_own_suit_doubles_use_slot_7() {
    let mut h = start(Texas42Rules::FULL, BID_1M + 1, NEL_O);
    play(&mut h, "4-4 1-1"); // seat 3 plays next: seat 2 sits out
    let o = obs(&h, 3);
    assert!(hot(seg(&o, "trumps")).is_empty());
    assert_eq!(hot(seg(&o, "led_suit")), [7]);
    assert_eq!(hot(seg(&o, "winning")), [1]);
    assert!(hot(seg(&o, "can_win")).is_empty());
    play(&mut h, "3-0");
    let o = obs(&h, 0);
    assert_eq!(hot(seg(&o, "voids")), [3 * 8 + 7]);
    // The partner's hand is never played: it stays unseen.
    assert!(h.hands[2].iter().all(|d| seg(&o, "unseen")[d.index()] == 1.0));
}

#[test]
fn sevens_has_no_suits_but_a_winner() {
    let mut h = start(Texas42Rules::FULL, BID_1M + 1, SEVENS);
    play(&mut h, "4-3 6-1");
    let o = obs(&h, 2);
    for name in ["trumps", "led_suit", "voids", "unseen_suits", "can_win"] {
        assert!(hot(seg(&o, name)).is_empty(), "{name} written under sevens");
    }
    assert_eq!(hot(seg(&o, "winning")), [2], "ties go to the first played");
}

/// Over random hands, the derived features agree with the engine: `winning`
/// with the trick's winning play, `can_win` with the result of each legal
/// play, `unseen` with the other seats' holdings, voids with the truth.
#[test]
fn derived_features_agree_with_the_engine() {
    let mut rng = 42;
    let mut declarations = [0usize; 11];
    let mut can_win_checked = 0;
    let mut voids_seen = 0;
    for seed in 0..400u64 {
        let nello_doubles = [NelloDoubles::OwnSuit, NelloDoubles::High, NelloDoubles::Low][seed as usize % 3];
        let rules =
            if seed % 2 == 0 { Texas42Rules { nello_doubles, ..Texas42Rules::FULL } } else { Texas42Rules::STANDARD };
        let mut h = *Texas42::new(rules).new_state(seed, Episode::Hand).hand();
        let mut counted = false;
        loop {
            let declared = h.phase == Phase::Playing || (h.phase == Phase::Done && h.high_bid as Action != PASS);
            if declared && !counted {
                declarations[h.declaration as usize - TRUMP_BLANKS] += 1;
                counted = true;
            }
            for me in 0..4 {
                let o = obs(&h, me);
                let others = (0..4).filter(|&s| s != me).fold(DominoSet::EMPTY, |u, s| u | h.hands[s]);
                assert_eq!(doms(seg(&o, "unseen")), others);
                let count: u32 = others.iter().map(|d| d.count() as u32).sum();
                assert_eq!(seg(&o, "unseen_count")[0], count as f32 / 35.0);
                let table = if declared { h.suit_table() } else { None };
                let trumps = table.map_or(DominoSet::EMPTY, |tb| {
                    Domino::ALL.into_iter().filter(|d| tb.power[0][d.index()] >= 32).collect()
                });
                assert_eq!(doms(seg(&o, "trumps")), trumps);
                // The suit id of each slot.
                let mut suit_of = [0usize, 1, 2, 3, 4, 5, 6, 7];
                if let Some(p) = (trumps.len() == 7 && trumps != DominoSet::DOUBLES)
                    .then(|| (0..7).find(|&p| DominoSet::with_pip(p as u8) == trumps).unwrap())
                {
                    suit_of.swap(p, 7);
                }
                let voids = seg(&o, "voids");
                for (i, _) in voids.iter().enumerate().filter(|(_, v)| **v != 0.0) {
                    let seat = (me + i / 8) % 4;
                    let tb = table.expect("a void without suits");
                    assert!((h.hands[seat] & tb.members[suit_of[i % 8]]).is_empty(), "a false void");
                    voids_seen += 1;
                }
                // The same voids as the view's `known_voids`, by slot.
                let known = Texas42View::from_hand(&h, me as u8).known_voids();
                for (i, v) in voids.iter().enumerate() {
                    let seat = (me + i / 8) % 4;
                    assert_eq!(*v != 0.0, known[seat] >> suit_of[i % 8] & 1 != 0, "voids slot {i}");
                }
                let suits = seg(&o, "unseen_suits");
                for (k, &suit) in suit_of.iter().enumerate() {
                    let n = table.map_or(0, |tb| (tb.members[suit] & others).len());
                    assert_eq!(suits[k], n as f32 / 7.0);
                }
                let cur = (h.phase == Phase::Playing).then(|| h.tricks[h.trick as usize]).filter(|t| t.len > 0);
                let Some(tr) = cur else {
                    for name in ["led_suit", "winning", "can_win"] {
                        assert!(hot(seg(&o, name)).is_empty());
                    }
                    continue;
                };
                if let Some(tb) = table {
                    let led = hot(seg(&o, "led_suit"));
                    assert_eq!(led.len(), 1);
                    assert_eq!(tb.lead_suit[tr.plays[0].index()] as usize, suit_of[led[0]]);
                }
                let best = h.seat_of_play(h.trick as usize, h.winning_play(tr.played()));
                assert_eq!(hot(seg(&o, "winning")), [(best as usize + 4 - me) % 4]);
                let can_win = doms(seg(&o, "can_win"));
                if h.to_move as usize != me {
                    assert!(can_win.is_empty());
                    continue;
                }
                for d in h.hands[me] {
                    let mut next = h;
                    let wins = match next.apply(PLAY + d.index()) {
                        Err(_) => false,
                        Ok(()) if next.trick > h.trick => next.tricks[h.trick as usize].winner as usize == me,
                        Ok(()) => {
                            let t = &next.tricks[h.trick as usize];
                            next.seat_of_play(h.trick as usize, next.winning_play(t.played())) as usize == me
                        }
                    };
                    assert_eq!(can_win.contains(d), wins, "can_win of {d} in {:?}", tr.played());
                    can_win_checked += 1;
                }
            }
            if h.is_done() {
                break;
            }
            let m = h.legal_mask();
            h.apply(m.nth(splitmix64(&mut rng) as usize % m.len())).unwrap();
        }
    }
    assert!(declarations.iter().all(|&n| n > 0), "declarations seen: {declarations:?}");
    assert!(can_win_checked > 1000 && voids_seen > 1000, "{can_win_checked} plays, {voids_seen} voids");
}
