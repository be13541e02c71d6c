//! Resampling what one seat cannot see of a round
//! ([`GameState::resample_hidden`](crate::GameState::resample_hidden)): the other
//! seats' dominoes and the boneyard pooled and dealt again (each hand keeps its
//! size, the boneyard its length), kept only when the new deal fits everything
//! public: no seat holds a number or double its draws and passes showed it
//! lacks, before the opening the opener still holds the highest double, and a
//! domino another seat has just drawn stays with it.

use super::play::{highest_double, Round, NO_SEAT};
use crate::domino::{Domino, DominoSet};
use crate::seed::splitmix64;

/// Shuffles tried before giving up.
const TRIES: usize = 64;

/// A round `seat` cannot tell from `r`, from the random `seed`; `None` when
/// nothing is hidden from the seat or no different deal fitted. As in
/// [`DoublesView::world`](super::DoublesView::world), its `dealt` hands are the
/// hands now plus what each seat played, and its boneyard as dealt is what is
/// left of it.
pub(super) fn resample(r: &Round, seat: usize, seed: u64) -> Option<Round> {
    let n = r.players as usize;
    if seat >= n {
        return None;
    }
    // A domino another seat has just drawn is hidden, but stays where it is.
    let kept = r.drawn.filter(|_| r.to_move as usize != seat);
    let fixed = |s: usize| {
        if Some(s) == Some(r.to_move as usize) {
            kept.map_or(DominoSet::EMPTY, Domino::bit)
        } else {
            DominoSet::EMPTY
        }
    };
    let others: Vec<usize> = (0..n).filter(|&s| s != seat).collect();
    let mut pool: Vec<Domino> = r.boneyard().to_vec();
    for &s in &others {
        pool.extend((r.hands[s] - fixed(s)).iter());
    }
    let bones = r.boneyard().len();
    let mut rng = seed;
    for _ in 0..TRIES {
        for i in (1..pool.len()).rev() {
            pool.swap(i, (splitmix64(&mut rng) % (i as u64 + 1)) as usize);
        }
        let mut hands = r.hands;
        let mut k = bones;
        for &s in &others {
            let size = (r.hands[s] - fixed(s)).len();
            hands[s] = pool[k..k + size].iter().copied().collect::<DominoSet>() | fixed(s);
            k += size;
        }
        let boneyard = &pool[..bones];
        if hands == r.hands && boneyard == r.boneyard() {
            continue;
        }
        let fits = others.iter().all(|&s| {
            (hands[s] - fixed(s)).iter().all(|d| {
                let shows = (1u8 << d.high()) | (1u8 << d.low());
                r.void[s] & shows == 0 && !(d.is_double() && r.no_double[s] & (1 << d.high()) != 0)
            })
        });
        let opening_kept = r.board.is_open() || highest_double(&hands[..n]) == highest_double(&r.hands[..n]);
        if !(fits && opening_kept) {
            continue;
        }
        let mut out = *r;
        out.hands = hands;
        out.bones[..bones].copy_from_slice(boneyard);
        out.bone_next = 0;
        out.bone_len = bones as u8;
        out.dealt = hands;
        for d in r.board.placed {
            let by = r.played_by[d.index()];
            debug_assert!(by != NO_SEAT, "a placed domino has a player");
            out.dealt[by as usize].insert(d);
        }
        out.refresh();
        return Some(out);
    }
    None
}
