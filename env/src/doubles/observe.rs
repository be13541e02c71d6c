//! The Doubles observation: one seat's view, seats relative to it (0 = me,
//! 1 = left (next to play), 2, 3 around the table; slots of seats beyond the
//! player count stay zero), the same length for 2, 3 and 4 players. Own hand plus
//! all public information with perfect recall; nothing hidden (the boneyard's
//! order and the other hands never enter): it is written from the seat's
//! public facts ([`DoublesView`](super::DoublesView)) alone. The layout is [`OBS_SEGMENTS_DOUBLES`].

use super::facts::SeatFacts;
use super::play::{End, BONEYARD_FLOOR, NO_SEAT};
use crate::observe::{layout_len, seg, ObsWriter, Segment};
use crate::rules::BlockedTie;

/// Version of the Doubles observation layout; bump on any change.
pub const OBS_VERSION_DOUBLES: u32 = 1;

/// Play-index buckets: index / 4, so 0..6.
const BUCKETS: usize = 7;

/// The Doubles observation layout, in order.
pub const OBS_SEGMENTS_DOUBLES: [Segment; 26] = [
    seg("hand", 28, "dominoes I hold, by dense index"),
    seg("drawn", 28, "the domino I just drew and must play or pass on, one-hot (zero otherwise)"),
    seg("players", 3, "2, 3 or 4 players, one-hot"),
    seg("seats", 4, "relative seats at the table"),
    seg("to_move", 4, "the seat to act, relative one-hot (zero when the round is over)"),
    seg("phase", 3, "opening (no domino on the board yet); the seat to act has just drawn; the round is over"),
    seg("open_ends", 7, "number of open ends showing 0..6, / 4"),
    seg("open_any", 7, "an open end shows 0..6"),
    seg("unlocked", 7, "0..6 unlocked (its double is on the board)"),
    seg("board", 28, "dominoes on the board"),
    seg("played_by", 28 * 4, "for each domino, the relative seat that played it"),
    seg("play_bucket", 28 * BUCKETS, "for each domino on the board, its play index / 4 (0 = opening), one-hot"),
    seg("play_index", 28, "for each domino on the board, (play index + 1) / 28"),
    seg("covered", 28 * 2, "for each non-double on the board, the end it covered: its high number, its low number"),
    seg("opener", 4, "the seat that opened, relative one-hot"),
    seg("draws", 4, "draws per relative seat / 12"),
    seg("passes", 4, "passes per relative seat / 16"),
    seg(
        "void",
        4 * 7,
        "per relative seat, numbers 0..6 it is known to hold none of (it drew or passed while an open end \
         showed that unlocked number, and has not kept an unseen domino since)",
    ),
    seg(
        "no_double",
        4 * 7,
        "per relative seat, doubles n-n it is known not to hold (an open end showed n when it drew or passed, \
         or n-n is on the board)",
    ),
    seg("hand_sizes", 4, "dominoes held per relative seat / 8"),
    seg("boneyard", 1, "dominoes left in the boneyard / 12"),
    seg("can_draw", 1, "the boneyard holds more than two (drawing allowed)"),
    seg("round_scores", 4, "this round's score per relative seat / target (set when the round is over)"),
    seg("game_scores", 4, "game totals per relative seat / target"),
    seg("round_result", 2, "the round ended by domino; the round ended blocked"),
    seg("rules", 2, "blocked_tie split; target / 100"),
];

/// Length of the Doubles observation.
pub const OBS_LEN_DOUBLES: usize = layout_len(&OBS_SEGMENTS_DOUBLES);

/// Writes the observation of a seat into `out` from its public facts `v` (a
/// [`DoublesView`](super::DoublesView), or the same facts read off the state's
/// round), so it holds nothing the seat cannot see and a view observes what the
/// state shows it.
#[inline]
pub(super) fn write<F: SeatFacts>(v: &F, out: &mut [f32]) {
    let n = v.rules().players as usize;
    let me = v.me() as usize;
    assert!(me < n, "seat {me} is not at a table of {n}");
    let mut rels = [0usize; 4];
    for (s, r) in rels.iter_mut().enumerate().take(n) {
        *r = (s + n - me) % n;
    }
    let rel = |seat: usize| rels[seat & 3];
    let target = v.rules().target as f32;
    let mut w = ObsWriter::new(out, &OBS_SEGMENTS_DOUBLES);

    let hand = w.next("hand");
    for d in v.hand() {
        hand[d.index()] = 1.0;
    }
    let drawn = w.next("drawn");
    if let Some(d) = v.drawn() {
        drawn[d.index()] = 1.0;
    }
    w.next("players")[n - 2] = 1.0;
    w.next("seats")[..n].fill(1.0);
    let to_move = w.next("to_move");
    if let Some(s) = v.to_move() {
        to_move[rel(s as usize)] = 1.0;
    }
    let phase = w.next("phase");
    phase[0] = (!v.board().is_open()) as u8 as f32;
    phase[1] = v.just_drew() as u8 as f32;
    phase[2] = v.end().is_some() as u8 as f32;
    let open = w.next("open_ends");
    for (o, &c) in open.iter_mut().zip(&v.board().open) {
        *o = c as f32 / 4.0;
    }
    let any = w.next("open_any");
    for (o, &c) in any.iter_mut().zip(&v.board().open) {
        *o = (c > 0) as u8 as f32;
    }
    let unlocked = w.next("unlocked");
    for (k, u) in unlocked.iter_mut().enumerate() {
        *u = v.board().is_unlocked(k as u8) as u8 as f32;
    }
    let board = w.next("board");
    let played_by = w.next("played_by");
    let bucket = w.next("play_bucket");
    let index = w.next("play_index");
    let covered = w.next("covered");
    for d in v.board().placed {
        let i = d.index();
        board[i] = 1.0;
        played_by[i * 4 + rel(v.played_by()[i] as usize)] = 1.0;
        let k = v.play_index()[i] as usize;
        bucket[i * BUCKETS + (k / 4).min(BUCKETS - 1)] = 1.0;
        index[i] = (k + 1) as f32 / 28.0;
        let e = v.attached_at()[i];
        if e != NO_SEAT && !d.is_double() {
            covered[i * 2 + (e != d.high()) as usize] = 1.0;
        }
    }
    w.next("opener")[rel(v.opener() as usize)] = 1.0;
    let draws = w.next("draws");
    for s in 0..n {
        draws[rel(s)] = v.draws()[s] as f32 / 12.0;
    }
    let passes = w.next("passes");
    for s in 0..n {
        passes[rel(s)] = v.passes()[s] as f32 / 16.0;
    }
    let void = w.next("void");
    for s in 0..n {
        for k in 0..7 {
            void[rel(s) * 7 + k] = ((v.void()[s] >> k) & 1) as f32;
        }
    }
    let no_double = w.next("no_double");
    for s in 0..n {
        let bits = v.no_double()[s] | v.board().unlocked;
        for k in 0..7 {
            no_double[rel(s) * 7 + k] = ((bits >> k) & 1) as f32;
        }
    }
    let sizes = w.next("hand_sizes");
    for s in 0..n {
        sizes[rel(s)] = v.hand_size(s) as f32 / 8.0;
    }
    w.next("boneyard")[0] = v.boneyard_len() as f32 / 12.0;
    w.next("can_draw")[0] = (v.boneyard_len() as usize > BONEYARD_FLOOR) as u8 as f32;
    let rs = w.next("round_scores");
    for s in 0..n {
        rs[rel(s)] = v.scores()[s] as f32 / target;
    }
    let gs = w.next("game_scores");
    for s in 0..n {
        gs[rel(s)] = v.totals()[s] as f32 / target;
    }
    let result = w.next("round_result");
    match v.end() {
        Some(End::Domino) => result[0] = 1.0,
        Some(End::Blocked) => result[1] = 1.0,
        None => {}
    }
    let seg = w.next("rules");
    seg[0] = (v.rules().blocked_tie == BlockedTie::Split) as u8 as f32;
    seg[1] = target / 100.0;
    w.finish();
}
