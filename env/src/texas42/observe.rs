//! The Texas 42 observation: one seat's view, seats relative to it (0 = me,
//! 1 = left, 2 = partner, 3 = right). Own hand plus all public information with
//! perfect recall; nothing hidden. The layout is [`OBS_SEGMENTS_42`].

use super::hand::{team, Hand, Phase};
use super::Texas42State;
use crate::action::{BID_30, PASS, TRUMP_BLANKS};
use crate::game::Action;
use crate::observe::{layout_len, ObsWriter, Segment};
use crate::rules::{AllPass, NelloDoubles, Scoring, Variant};

/// Version of the Texas 42 observation layout; bump on any change.
pub const OBS_VERSION_42: u32 = 1;

/// Bid one-hot width: `pass`, `30`..`41`, `1m`..`7m`, `plunge`, `splash`.
const BIDS: usize = 22;

const fn seg(name: &'static str, len: usize, doc: &'static str) -> Segment {
    Segment { name, len, doc }
}

/// The Texas 42 observation layout, in order.
pub const OBS_SEGMENTS_42: [Segment; 19] = [
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
];

/// Length of the Texas 42 observation.
pub const OBS_LEN_42: usize = layout_len(&OBS_SEGMENTS_42);

#[inline]
fn one_hot(seg: &mut [f32], i: usize) {
    seg[i] = 1.0;
}

/// Writes seat `me`'s observation of `st` into `out`.
pub(super) fn write(st: &Texas42State, me: usize, out: &mut [f32]) {
    observe_hand(&st.hand, st.totals, me, out)
}

/// Writes seat `me`'s observation of hand `h` with game totals `totals` into
/// `out`. Reads only `me`'s own dominoes and public facts, so a hand whose hidden
/// dominoes were dealt differently (such as [`Hand::public_for`]) observes the same.
pub fn observe_hand(h: &Hand, totals: [u32; 2], me: usize, out: &mut [f32]) {
    let me = me as u8;
    let rel = |seat: u8| ((seat + 4 - me) % 4) as usize;
    let mut w = ObsWriter::new(out, &OBS_SEGMENTS_42);

    let hand = w.next("hand");
    for d in h.hands[me as usize] {
        hand[d.index()] = 1.0;
    }
    one_hot(w.next("dealer"), rel(h.dealer));
    let phase = match h.phase {
        Phase::Bidding => 0,
        Phase::Declaring => 1,
        Phase::Playing => 2,
        Phase::Done => 3,
    };
    one_hot(w.next("phase"), phase);
    let to_move = w.next("to_move");
    if h.phase != Phase::Done {
        to_move[rel(h.to_move)] = 1.0;
    }
    let bid_slot = |a: Action| if a == PASS { 0 } else { 1 + a - BID_30 };
    let bids = w.next("bids");
    for seat in 0..4u8 {
        if let Some(b) = h.bid_of(seat) {
            bids[rel(seat) * BIDS + bid_slot(b)] = 1.0;
        }
    }
    let high = w.next("high_bid");
    let has_high = h.high_bid as Action != PASS;
    if has_high {
        high[bid_slot(h.high_bid as Action)] = 1.0;
    }
    let bidder = w.next("bidder");
    if has_high {
        bidder[rel(h.bidder)] = 1.0;
    }
    let declarer = w.next("declarer");
    let declared = matches!(h.phase, Phase::Playing) || (h.phase == Phase::Done && has_high);
    if h.phase == Phase::Declaring || declared {
        declarer[rel(h.declarer)] = 1.0;
    }
    let decl = w.next("declaration");
    if declared {
        decl[h.declaration as usize - TRUMP_BLANKS] = 1.0;
    }

    let played_by = w.next("played_by");
    let in_trick = w.next("played_in_trick");
    let position = w.next("play_position");
    let current = w.next("current_trick");
    let leaders = w.next("trick_leaders");
    let winners = w.next("trick_winners");
    if declared {
        let last = (h.trick as usize).min(6);
        for t in 0..=last {
            let trick = &h.tricks[t];
            if t == h.trick as usize && trick.len == 0 && h.phase == Phase::Done {
                break;
            }
            leaders[t * 4 + rel(trick.leader)] = 1.0;
            if t < h.trick as usize {
                winners[t * 4 + rel(trick.winner)] = 1.0;
            }
            let mut seat = trick.leader;
            for (i, d) in trick.played().iter().enumerate() {
                let di = d.index();
                played_by[di * 4 + rel(seat)] = 1.0;
                in_trick[di * 7 + t] = 1.0;
                position[di * 4 + i] = 1.0;
                if t == h.trick as usize {
                    current[i * 28 + di] = 1.0;
                }
                seat = h.next_in_play(seat);
            }
        }
    }

    let us = team(me);
    let points = w.next("points");
    points[0] = h.points[us] as f32 / 42.0;
    points[1] = h.points[1 - us] as f32 / 42.0;
    let score = w.next("score");
    let target = h.rules.target as f32;
    score[0] = totals[us] as f32 / target;
    score[1] = totals[1 - us] as f32 / target;
    let out_seat = w.next("sitting_out");
    if let Some(s) = h.sitting_out() {
        out_seat[rel(s)] = 1.0;
    }
    let r = &h.rules;
    let rules = w.next("rules");
    for (i, v) in Variant::ALL.iter().enumerate() {
        rules[i] = r.variants.has(*v) as u8 as f32;
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
    w.finish();
}
