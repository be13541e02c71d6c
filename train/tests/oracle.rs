//! The oracle critic's input holds exactly what the seat cannot see: the
//! other seats' current hands, in turn order after the seat, absent seats empty.

use bones_env::rules::DoublesRules;
use bones_env::{Domino, DominoSet, Doubles, Texas42, Texas42Rules};
use bones_env::{Episode, Game, GameState};
use bones_train::critic::{write_oracle, ORACLE_LEN};

/// Reads the three 28-float blocks back as sets.
fn blocks(out: &[f32]) -> [DominoSet; 3] {
    let mut sets = [DominoSet::EMPTY; 3];
    for (k, set) in sets.iter_mut().enumerate() {
        for i in 0..28 {
            match out[k * 28 + i] {
                1.0 => set.insert(Domino::from_index(i)),
                0.0 => {}
                x => panic!("oracle float {x} is not 0/1"),
            }
        }
    }
    sets
}

#[test]
fn texas42_oracle_holds_exactly_the_dominoes_the_seat_has_not_seen() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let mut out = vec![0f32; ORACLE_LEN];
    for seed in 0..20 {
        let mut st = game.new_state(seed, Episode::Hand);
        let mut step = 0;
        while let Some(seat) = st.current_seat() {
            write_oracle(&st, 4, seat, &mut out);
            let [a, b, c] = blocks(&out);
            let h = st.hand();
            // Seats in turn order after the mover.
            assert_eq!([a, b, c], [1, 2, 3].map(|k| h.hands[(seat + k) % 4]));
            let played: DominoSet = h.tricks.iter().flat_map(|t| t.played().iter().copied()).collect();
            // Own hand, the three blocks and the played dominoes: all 28, once each.
            let all = [h.hands[seat], a, b, c, played];
            assert_eq!(all.iter().map(|s| s.len()).sum::<usize>(), 28, "seed {seed} step {step}");
            assert_eq!(all.iter().fold(DominoSet::EMPTY, |u, s| u | *s), DominoSet::FULL);
            let legal: Vec<_> = st.legal_mask().iter().collect();
            st.apply(legal[(seed as usize + step) % legal.len()]).unwrap();
            step += 1;
        }
    }
}

#[test]
fn doubles_oracle_leaves_absent_seats_empty() {
    let game = Doubles::new(DoublesRules { players: 3, ..Default::default() });
    let st = game.new_state(5, Episode::Hand);
    let seat = st.current_seat().unwrap();
    let mut out = vec![0f32; ORACLE_LEN];
    write_oracle(&st, 3, seat, &mut out);
    let [a, b, c] = blocks(&out);
    assert_eq!([a, b], [1, 2].map(|k| st.hands()[(seat + k) % 3]));
    assert_eq!(c, DominoSet::EMPTY);
    assert!((a | b) & st.hands()[seat] == DominoSet::EMPTY);
    assert_eq!(a.len() + b.len() + st.hands()[seat].len() + st.boneyard().len(), 28);
}
