//! The Doubles observation: layout facts and what a seat sees in a scripted round.

use bones_env::doubles::{parse_doubles, Doubles, DoublesState, OBS_LEN_DOUBLES, OBS_SEGMENTS_DOUBLES};
use bones_env::observe::layout_markdown;
use bones_env::rules::{BlockedTie, DoublesRules};
use bones_env::{Domino, DominoSet, Episode, Game, GameState};
use std::ops::Range;

fn seg(name: &str) -> Range<usize> {
    let mut off = 0;
    for s in OBS_SEGMENTS_DOUBLES.iter() {
        if s.name == name {
            return off..off + s.len;
        }
        off += s.len;
    }
    panic!("no segment {name}");
}

fn set(s: &str) -> DominoSet {
    s.split_whitespace().map(|d| d.parse::<Domino>().unwrap()).collect()
}

fn d(s: &str) -> usize {
    s.parse::<Domino>().unwrap().index()
}

fn obs(st: &DoublesState, seat: usize) -> Vec<f32> {
    let mut v = vec![0.0; OBS_LEN_DOUBLES];
    st.observe(seat, &mut v);
    v
}

#[test]
fn layout_is_fixed_for_every_player_count_and_documented() {
    for players in 2..=4 {
        let g = Doubles::new(DoublesRules { players, ..DoublesRules::default() });
        assert_eq!(g.obs_len(), OBS_LEN_DOUBLES);
        assert_eq!(g.obs_segments(), &OBS_SEGMENTS_DOUBLES[..]);
    }
    let mut names: Vec<_> = OBS_SEGMENTS_DOUBLES.iter().map(|s| s.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), OBS_SEGMENTS_DOUBLES.len(), "segment names are unique");
    assert!(OBS_SEGMENTS_DOUBLES.iter().all(|s| !s.doc.is_empty()));
    assert!(layout_markdown(&OBS_SEGMENTS_DOUBLES).contains("`played_by`"));
}

#[test]
fn a_seat_sees_its_hand_the_board_and_the_public_history_relative_to_itself() {
    let hands = [
        set("6-6 6-5 6-4 6-3 6-2 6-1"),
        set("5-4 5-3 5-2 5-1 4-3 4-2"),
        set("4-1 3-2 3-1 2-1 5-0 4-0"),
        set("6-0 3-0 2-0 1-0 0-0 1-1"),
    ];
    let bones: Vec<Domino> = ["5-5", "4-4", "3-3", "2-2"].iter().map(|s| s.parse().unwrap()).collect();
    let g = Doubles::new(DoublesRules { players: 4, blocked_tie: BlockedTie::Split, target: 150 });
    let mut st = g.from_deal(&hands, &bones).unwrap();
    for a in ["6-6", "draw"] {
        st.apply(parse_doubles(a).unwrap()).unwrap();
    }
    // Seat 1 has drawn 5-5 and must pass: it sees the drawn domino, no one else does.
    let o1 = obs(&st, 1);
    let o2 = obs(&st, 2);
    assert_eq!(o1[seg("drawn")][d("5-5")], 1.0);
    assert!(o2[seg("drawn")].iter().all(|&x| x == 0.0));
    assert_eq!(o1[seg("hand")][d("5-5")], 1.0);
    assert_eq!(o2[seg("phase")], [0.0, 1.0, 0.0]);
    assert_eq!(o1[seg("to_move")], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(o2[seg("to_move")], [0.0, 0.0, 0.0, 1.0], "seat 1 is seat 2's right-hand neighbour");
    for a in ["pass", "draw", "pass", "6-0@6"] {
        st.apply(parse_doubles(a).unwrap()).unwrap();
    }
    let o0 = obs(&st, 0);
    let o3 = obs(&st, 3);
    assert_eq!(o0[seg("players")], [0.0, 0.0, 1.0]);
    assert_eq!(o0[seg("seats")], [1.0; 4]);
    assert_eq!(o0[seg("open_ends")], [0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.75]);
    assert_eq!(o0[seg("open_any")], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    assert_eq!(o0[seg("unlocked")], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    let pb = &o0[seg("played_by")];
    assert_eq!(pb[d("6-6") * 4..d("6-6") * 4 + 4], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(pb[d("6-0") * 4..d("6-0") * 4 + 4], [0.0, 0.0, 0.0, 1.0]);
    let pb3 = &o3[seg("played_by")];
    assert_eq!(pb3[d("6-0") * 4..d("6-0") * 4 + 4], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(pb3[d("6-6") * 4..d("6-6") * 4 + 4], [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(o0[seg("play_index")][d("6-0")], 2.0 / 28.0);
    assert_eq!(o0[seg("covered")][d("6-0") * 2..d("6-0") * 2 + 2], [1.0, 0.0], "6-0 covered a 6 with its high end");
    assert_eq!(o0[seg("opener")], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(o3[seg("opener")], [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(o0[seg("draws")], [0.0, 1.0 / 12.0, 1.0 / 12.0, 0.0]);
    assert_eq!(o0[seg("passes")], [0.0, 1.0 / 16.0, 1.0 / 16.0, 0.0]);
    // Seats 1 and 2 drew with only sixes open: no six, no 6-6.
    let void = &o0[seg("void")];
    assert_eq!(void[7..14], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    assert_eq!(void[14..21], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    assert_eq!(o0[seg("hand_sizes")], [5.0 / 8.0, 7.0 / 8.0, 7.0 / 8.0, 5.0 / 8.0]);
    assert_eq!(o0[seg("boneyard")], [2.0 / 12.0]);
    assert_eq!(o0[seg("can_draw")], [0.0]);
    assert_eq!(o0[seg("rules")], [1.0, 1.5]);
}

#[test]
fn unused_seats_stay_zero() {
    let g = Doubles::new(DoublesRules { players: 2, ..DoublesRules::default() });
    let mut st = g.new_state(3, Episode::Game);
    for _ in 0..10 {
        if st.is_terminal() {
            break;
        }
        st.apply(st.legal_mask().nth(0)).unwrap();
    }
    let o = obs(&st, 1);
    assert_eq!(o[seg("players")], [1.0, 0.0, 0.0]);
    assert_eq!(o[seg("seats")], [1.0, 1.0, 0.0, 0.0]);
    for name in ["to_move", "opener", "draws", "passes", "hand_sizes", "round_scores", "game_scores"] {
        assert!(o[seg(name)][2..].iter().all(|&x| x == 0.0), "{name}");
    }
    let pb = &o[seg("played_by")];
    assert!(pb.chunks(4).all(|c| c[2] == 0.0 && c[3] == 0.0));
}
