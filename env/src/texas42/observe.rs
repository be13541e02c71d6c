//! The Texas 42 observation: one seat's view, seats relative to it (0 = me,
//! 1 = left, 2 = partner, 3 = right). Own hand plus all public information with
//! perfect recall; nothing hidden: it is written from the seat's
//! public facts ([`Texas42View`](super::Texas42View)) alone. The layout is [`OBS_SEGMENTS_42`].
//!
//! Version 2 appends derived features (trumps, the trick in progress, what I can
//! win with, unseen dominoes, shown-out suits), computed from the same facts with
//! the declaration's [`SuitTable`], so "suit", "follows" and "beats" mean what the
//! engine means. Suit slots (`led_suit`, `voids`, `unseen_suits`): 0..6 the pip
//! suits, 7 the trump suit (pip or doubles); a pip trump's own pip slot stays zero,
//! and under Nel-O `own-suit` (no trump) slot 7 is the doubles suit.

use super::actions::{BID_30, PASS, PLAY, TRUMP_BLANKS};
use super::facts::SeatFacts;
use super::hand::Phase;
use super::play::{winning_play, SuitTable};
use crate::action::Action;
use crate::domino::{Domino, DominoSet};
use crate::observe::{layout_len, seg, ObsWriter, Segment};
use crate::rules::{AllPass, NelloDoubles, Scoring, Variant};

/// Version of the Texas 42 observation layout; bump on any change.
pub const OBS_VERSION_42: u32 = 2;

/// Bid one-hot width: `pass`, `30`..`41`, `1m`..`7m`, `plunge`, `splash`.
const BIDS: usize = 22;

/// The Texas 42 observation layout, in order.
pub const OBS_SEGMENTS_42: [Segment; 27] = [
    seg("hand", 28, "dominoes I hold, by dense index"),
    seg("dealer", 4, "the shaker, relative seat one-hot"),
    seg("phase", 4, "bidding, declaring, playing, done"),
    seg("to_move", 4, "the seat to act, relative one-hot (zero when done)"),
    seg(
        "bids",
        4 * BIDS,
        "each relative seat's bid one-hot (pass, 30..41, 1m..7m, plunge, splash); zero before it bids",
    ),
    seg("high_bid", BIDS, "the high bid so far, one-hot (zero before any bid)"),
    seg("bidder", 4, "the high bidder, relative one-hot"),
    seg(
        "declarer",
        4,
        "the seat that declares/declared (partner after plunge/splash), relative one-hot; zero while bidding",
    ),
    seg("declaration", 11, "blanks..sixes, doubles, follow-me, nel-o, sevens one-hot"),
    seg("played_by", 28 * 4, "for each domino, the relative seat that played it"),
    seg("played_in_trick", 28 * 7, "for each domino, the trick (0..6) it was played in"),
    seg("play_position", 28 * 4, "for each domino, its position in its trick (0 = led)"),
    seg("current_trick", 4 * 28, "the current trick's dominoes by position (0 = led)"),
    seg("trick_leaders", 7 * 4, "leader of each trick so far, relative one-hot"),
    seg("trick_winners", 7 * 4, "winner of each completed trick, relative one-hot"),
    seg("points", 2, "points taken this hand (us, them) / 42"),
    seg("score", 2, "game totals (us, them) / target"),
    seg("sitting_out", 4, "the seat that sits out (Nel-O partner), relative one-hot"),
    seg(
        "rules",
        12,
        "variants nel-o, sevens, plunge, splash; all_pass redeal; early_end; points scoring; \
         nello_min_marks/7; nello_doubles own-suit, high, low; target/250",
    ),
    seg("trumps", 28, "dominoes that are trump under the declaration (zero before it, follow-me, nel-o, sevens)"),
    seg(
        "led_suit",
        8,
        "suit led in the trick in progress, one-hot: pips 0..6, 7 the trump suit (a pip trump's own slot \
         stays zero; nel-o own-suit: the doubles); zero when no trick is in progress and under sevens",
    ),
    seg("winning", 4, "seat winning the trick in progress so far, relative one-hot (zero when none)"),
    seg(
        "can_win",
        28,
        "my legal dominoes that would make me the winner of the trick in progress (zero when I lead or it is not my turn)",
    ),
    seg("unseen", 28, "dominoes neither in my hand nor played (held by the others)"),
    seg(
        "voids",
        4 * 8,
        "per relative seat, per suit (as led_suit): 1 if it did not follow when that suit was led (zero under sevens)",
    ),
    seg("unseen_suits", 8, "unseen dominoes per suit (as led_suit) / 7; zero before the declaration and under sevens"),
    seg("unseen_count", 1, "count points among the unseen dominoes / 35"),
];

/// Length of the Texas 42 observation.
pub const OBS_LEN_42: usize = layout_len(&OBS_SEGMENTS_42);

/// Count dominoes worth 5 (`5-0`, `4-1`, `3-2`) and 10 (`6-4`, `5-5`).
const COUNT_5: DominoSet = DominoSet(Domino::new(5, 0).bit().0 | Domino::new(4, 1).bit().0 | Domino::new(3, 2).bit().0);
const COUNT_10: DominoSet = DominoSet(Domino::new(6, 4).bit().0 | Domino::new(5, 5).bit().0);

/// The four floats of each 4-bit pattern (bit `i` is float `i`).
const NIBBLES: [[f32; 4]; 16] = {
    let mut t = [[0.0; 4]; 16];
    let mut n = 0;
    while n < 16 {
        let mut i = 0;
        while i < 4 {
            t[n][i] = ((n >> i) & 1) as f32;
            i += 1;
        }
        n += 1;
    }
    t
};

/// Writes bit `i` of `bits` as 0 or 1 into `seg[i]`, four at a time (`seg` is a
/// 28-domino set or the 32 voids).
#[inline]
fn write_bits(seg: &mut [f32], bits: u32) {
    debug_assert!(matches!(seg.len(), 28 | 32));
    for (k, four) in seg.chunks_exact_mut(4).enumerate() {
        four.copy_from_slice(&NIBBLES[(bits >> (4 * k)) as usize & 15]);
    }
}

#[inline]
fn one_hot(seg: &mut [f32], i: usize) {
    seg[i] = 1.0;
}

/// Writes the observation of a seat into `out` from its public facts `v` (a
/// [`Texas42View`](super::Texas42View), or the same facts read off the state's hand), so it holds
/// nothing the seat cannot see and a view observes what the state shows it.
#[inline]
pub(super) fn write<F: SeatFacts>(v: &F, out: &mut [f32]) {
    let me = v.me();
    let rel = |seat: u8| ((seat + 4 - me) % 4) as usize;
    let mut w = ObsWriter::new(out, &OBS_SEGMENTS_42);

    let hand = w.next("hand");
    for d in v.hand() {
        hand[d.index()] = 1.0;
    }
    one_hot(w.next("dealer"), rel(v.dealer()));
    let phase = match v.phase() {
        Phase::Bidding => 0,
        Phase::Declaring => 1,
        Phase::Playing => 2,
        Phase::Done => 3,
    };
    one_hot(w.next("phase"), phase);
    let to_move = w.next("to_move");
    if let Some(s) = v.to_move() {
        to_move[rel(s)] = 1.0;
    }
    let bid_slot = |a: Action| if a == PASS { 0 } else { 1 + a - BID_30 };
    let bids = w.next("bids");
    for seat in 0..4u8 {
        if let Some(b) = v.bid(seat) {
            bids[rel(seat) * BIDS + bid_slot(b)] = 1.0;
        }
    }
    let high = w.next("high_bid");
    if v.high_bid() != PASS {
        high[bid_slot(v.high_bid())] = 1.0;
    }
    let bidder = w.next("bidder");
    if let Some(s) = v.bidder() {
        bidder[rel(s)] = 1.0;
    }
    let declarer = w.next("declarer");
    if let Some(s) = v.declarer() {
        declarer[rel(s)] = 1.0;
    }
    let decl = w.next("declaration");
    if let Some(d) = v.declaration() {
        decl[d - TRUMP_BLANKS] = 1.0;
    }
    // The declaration's suit table (None before it and under Sevens), and the
    // observation slot of each suit id (a pip trump moves to 7; the table's suit
    // 7, the doubles suit, is then empty and takes its place).
    let table: Option<&SuitTable> = v.suit_table();
    let mut slot = [0usize, 1, 2, 3, 4, 5, 6, 7];
    if let Some(t @ 0..7) = v.trump_suit() {
        slot.swap(t, 7);
    }
    // Bit `8 * relative seat + suit slot`: that seat showed out of that suit
    // (the view's `known_voids` by slot, gathered in the one walk over the tricks).
    let mut voids = 0u32;

    let played_by = w.next("played_by");
    let in_trick = w.next("played_in_trick");
    let position = w.next("play_position");
    let current = w.next("current_trick");
    let leaders = w.next("trick_leaders");
    let winners = w.next("trick_winners");
    if v.declaration().is_some() {
        let last = (v.trick() as usize).min(6);
        for t in 0..=last {
            let trick = &v.tricks()[t];
            if t == v.trick() as usize && trick.len == 0 && v.phase() == Phase::Done {
                break;
            }
            leaders[t * 4 + rel(trick.leader)] = 1.0;
            if t < v.trick() as usize {
                winners[t * 4 + rel(trick.winner)] = 1.0;
            }
            // The led suit's members and slot (nothing to follow under Sevens).
            let (follow, led_slot) = match table {
                Some(tb) if trick.len > 0 => {
                    let led = tb.lead_suit[trick.plays[0].index()] as usize;
                    (tb.members[led], slot[led])
                }
                _ => (DominoSet::FULL, 0),
            };
            let mut seat = trick.leader;
            for (i, d) in trick.played().iter().enumerate() {
                let di = d.index();
                if !follow.contains(*d) {
                    voids |= 1 << (8 * rel(seat) + led_slot);
                }
                played_by[di * 4 + rel(seat)] = 1.0;
                in_trick[di * 7 + t] = 1.0;
                position[di * 4 + i] = 1.0;
                if t == v.trick() as usize {
                    current[i * 28 + di] = 1.0;
                }
                seat = v.next_in_play(seat);
            }
        }
    }

    let us = v.team();
    let points = w.next("points");
    points[0] = v.points()[us] as f32 / 42.0;
    points[1] = v.points()[1 - us] as f32 / 42.0;
    let score = w.next("score");
    let target = v.rules().target as f32;
    score[0] = v.totals()[us] as f32 / target;
    score[1] = v.totals()[1 - us] as f32 / target;
    let out_seat = w.next("sitting_out");
    if let Some(s) = v.sitting_out() {
        out_seat[rel(s)] = 1.0;
    }
    let r = v.rules();
    let rules = w.next("rules");
    for (i, var) in Variant::ALL.iter().enumerate() {
        rules[i] = r.variants.has(*var) as u8 as f32;
    }
    rules[4] = (r.all_pass == AllPass::Redeal) as u8 as f32;
    rules[5] = r.early_end as u8 as f32;
    rules[6] = (r.scoring == Scoring::Points) as u8 as f32;
    rules[7] = r.nello_min_marks as f32 / 7.0;
    rules[8 + match r.nello_doubles {
        NelloDoubles::OwnSuit => 0,
        NelloDoubles::High => 1,
        NelloDoubles::Low => 2,
    }] = 1.0;
    rules[11] = r.target as f32 / 250.0;

    write_bits(w.next("trumps"), v.trumps().0);
    let in_progress = if v.phase() == Phase::Playing { v.current_trick().filter(|t| t.len > 0) } else { None };
    let led_suit = w.next("led_suit");
    if let (Some(tr), Some(tb)) = (in_progress, table) {
        one_hot(led_suit, slot[tb.lead_suit[tr.plays[0].index()] as usize]);
    }
    let winning = w.next("winning");
    if let Some(tr) = in_progress {
        let best = v.winning_play(tr.played());
        one_hot(winning, rel(tr.seat_of_play(best, v.sitting_out())));
    }
    let can_win = w.next("can_win");
    if let Some(tr) = in_progress.filter(|_| v.to_move() == Some(me)) {
        let legal = DominoSet((v.legal_mask().0 >> PLAY) as u32) & DominoSet::FULL & v.hand();
        let n = tr.len as usize;
        let mut plays = tr.plays;
        for d in legal {
            plays[n] = d;
            if winning_play(table, &plays[..=n]) == n {
                can_win[d.index()] = 1.0;
            }
        }
    }
    let unseen = v.unseen();
    write_bits(w.next("unseen"), unseen.0);
    write_bits(w.next("voids"), voids);
    let suits = w.next("unseen_suits");
    if let Some(tb) = table {
        for (s, m) in tb.members.iter().enumerate() {
            suits[slot[s]] = (*m & unseen).len() as f32 / 7.0;
        }
    }
    let count = (5 * (unseen & COUNT_5).len() + 10 * (unseen & COUNT_10).len()) as f32;
    w.next("unseen_count")[0] = count / 35.0;
    w.finish();
}
