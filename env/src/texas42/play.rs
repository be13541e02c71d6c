//! The play phase: suits, following and trick-winning, exactly as docs/rules.md.
//!
//! Each declaration gets a static [`SuitTable`]: the suit a led domino calls, the
//! dominoes that belong to each suit (and so must follow it), and every domino's
//! power when a suit is led (0: cannot win; trumps beat every non-trump).
//! Sevens has its own rule: every player must play a domino closest to 7 pips,
//! and the closest wins (ties to the first played).

use super::actions::*;
use super::hand::{team, Hand, Outcome, Phase, Trick};
use crate::action::Action;
use crate::action::ActionMask;
use crate::domino::{Domino, DominoSet};
use crate::rules::NelloDoubles;

/// Suit id 7 is the doubles suit (doubles trump, or Nel-O's `own-suit`).
const DOUBLES_SUIT: usize = 7;

/// Follow and win tables of one declaration.
pub struct SuitTable {
    /// Suit called by each domino when led (0..6 pip suits, 7 doubles).
    pub lead_suit: [u8; 28],
    /// Dominoes belonging to each suit.
    pub members: [DominoSet; 8],
    /// `power[led][d]`: strength of `d` on a trick where suit `led` was led.
    pub power: [[u8; 28]; 8],
}

/// Rank within a suit: 1..=9, higher wins (non-doubles 2..=8 by their other end).
const fn rank_in(suit: usize, d: Domino, doubles_low: bool) -> u8 {
    if suit == DOUBLES_SUIT {
        1 + d.high()
    } else if d.is_double() {
        if doubles_low {
            1
        } else {
            9
        }
    } else {
        2 + d.other(suit as u8)
    }
}

/// `trump`: 0..6 a pip suit, 7 doubles, 8 none. `own`: doubles form their own suit.
const fn build(trump: usize, own: bool, doubles_low: bool) -> SuitTable {
    let trumps = if trump < 7 {
        DominoSet::with_pip(trump as u8)
    } else if trump == 7 {
        DominoSet::DOUBLES
    } else {
        DominoSet::EMPTY
    };
    let own = own || trump == 7;
    let mut members = [DominoSet::EMPTY; 8];
    let mut n = 0;
    while n < 8 {
        members[n] = if n == trump {
            trumps
        } else if n == DOUBLES_SUIT {
            if own {
                DominoSet::DOUBLES
            } else {
                DominoSet::EMPTY
            }
        } else {
            let mut m = DominoSet::with_pip(n as u8).0 & !trumps.0;
            if own {
                m &= !DominoSet::DOUBLES.0;
            }
            DominoSet(m)
        };
        n += 1;
    }
    let mut lead_suit = [0u8; 28];
    let mut power = [[0u8; 28]; 8];
    let mut i = 0;
    while i < 28 {
        let d = Domino::from_index(i);
        lead_suit[i] = if trumps.contains(d) {
            trump as u8
        } else if own && d.is_double() {
            DOUBLES_SUIT as u8
        } else {
            d.high()
        };
        let mut led = 0;
        while led < 8 {
            power[led][i] = if trumps.contains(d) {
                32 + rank_in(trump, d, doubles_low)
            } else if members[led].contains(d) {
                rank_in(led, d, doubles_low)
            } else {
                0
            };
            led += 1;
        }
        i += 1;
    }
    SuitTable { lead_suit, members, power }
}

/// Table `i` of [`TABLES`].
const fn table(i: usize) -> SuitTable {
    match i {
        0..=6 => build(i, false, false), // pip trumps
        7 => build(7, true, false),      // doubles trump
        9 => build(8, true, false),      // Nel-O, doubles their own suit
        11 => build(8, false, true),     // Nel-O, doubles low
        _ => build(8, false, false),     // follow-me; Nel-O, doubles high
    }
}

/// Tables: 0..6 pip trumps, 7 doubles trump, 8 follow-me, 9..11 Nel-O
/// (`own-suit`, `high`, `low`).
pub static TABLES: [SuitTable; 12] = {
    let mut tables = [const { build(8, false, false) }; 12];
    let mut i = 0;
    while i < 12 {
        tables[i] = table(i);
        i += 1;
    }
    tables
};

/// The suit table of a declaration action (None for Sevens and non-declarations).
#[inline]
pub fn suit_table(declaration: Action, nello_doubles: NelloDoubles) -> Option<&'static SuitTable> {
    match declaration {
        TRUMP_BLANKS..DOUBLES => Some(&TABLES[declaration - TRUMP_BLANKS]),
        DOUBLES => Some(&TABLES[7]),
        FOLLOW_ME => Some(&TABLES[8]),
        NEL_O => Some(
            &TABLES[match nello_doubles {
                NelloDoubles::OwnSuit => 9,
                NelloDoubles::High => 10,
                NelloDoubles::Low => 11,
            }],
        ),
        _ => None,
    }
}

/// Dominoes at each distance |pips - 7| (0..=7).
const SEVENS_DIST: [DominoSet; 8] = {
    let mut t = [DominoSet::EMPTY; 8];
    let mut i = 0;
    while i < 28 {
        let p = Domino::from_index(i).pips() as i32;
        let k = if p > 7 { p - 7 } else { 7 - p };
        t[k as usize].0 |= 1 << i;
        i += 1;
    }
    t
};

/// Distance of a domino from 7 pips.
#[inline]
pub const fn sevens_distance(d: Domino) -> u8 {
    d.pips().abs_diff(7)
}

/// The dominoes of `hand` closest to 7 pips (the Sevens obligation).
#[inline]
pub fn closest_to_seven(hand: DominoSet) -> DominoSet {
    for set in SEVENS_DIST {
        let s = hand & set;
        if !s.is_empty() {
            return s;
        }
    }
    DominoSet::EMPTY
}

/// The seat after `seat` in play order, skipping `sitting_out` (the Nel-O
/// partner) when there is one.
#[inline]
pub fn next_in_play(seat: u8, sitting_out: Option<u8>) -> u8 {
    let n = (seat + 1) % 4;
    if sitting_out == Some(n) {
        (n + 1) % 4
    } else {
        n
    }
}

impl Trick {
    /// The seat that played (or plays) the `i`-th domino of this trick: the
    /// leader, then each next seat in play order (skipping `sitting_out`).
    #[inline]
    pub fn seat_of_play(&self, i: usize, sitting_out: Option<u8>) -> u8 {
        let mut s = self.leader;
        for _ in 0..i {
            s = next_in_play(s, sitting_out);
        }
        s
    }
}

/// Index within `plays` (a trick's dominoes in play order, the led one first)
/// of the play that wins so far, under the declaration's suit table (`None`:
/// Sevens, where the domino closest to 7 pips wins). Ties go to the first played.
pub fn winning_play(table: Option<&SuitTable>, plays: &[Domino]) -> usize {
    let mut best = 0;
    match table {
        None => {
            for (i, d) in plays.iter().enumerate() {
                if sevens_distance(*d) < sevens_distance(plays[best]) {
                    best = i;
                }
            }
        }
        Some(t) => {
            let power = &t.power[t.lead_suit[plays[0].index()] as usize];
            for (i, d) in plays.iter().enumerate() {
                if power[d.index()] > power[plays[best].index()] {
                    best = i;
                }
            }
        }
    }
    best
}

/// The dominoes of `hand` that may be played on `trick` (the trick in
/// progress) under the declaration's suit table (`None`: Sevens, where only
/// the dominoes closest to 7 pips may be played): any when leading, else the
/// led suit's members when the hand holds one.
#[inline]
pub fn legal_plays(hand: DominoSet, table: Option<&SuitTable>, trick: &Trick) -> DominoSet {
    match table {
        None => closest_to_seven(hand),
        Some(_) if trick.len == 0 => hand,
        Some(t) => {
            let led = t.lead_suit[trick.plays[0].index()] as usize;
            let follow = hand & t.members[led];
            if follow.is_empty() {
                hand
            } else {
                follow
            }
        }
    }
}

impl Hand {
    /// The suit table of the declaration (None for Sevens).
    #[inline]
    pub fn suit_table(&self) -> Option<&'static SuitTable> {
        suit_table(self.declaration as Action, self.rules.nello_doubles)
    }

    /// Nel-O is being played (the bidder's partner sits out).
    #[inline]
    pub fn is_nello(&self) -> bool {
        self.phase != Phase::Bidding && self.phase != Phase::Declaring && self.declaration as Action == NEL_O
    }

    /// The seat that sits out this hand, if any (Nel-O: the bidder's partner).
    #[inline]
    pub fn sitting_out(&self) -> Option<u8> {
        self.is_nello().then_some((self.bidder + 2) % 4)
    }

    /// Dominoes per trick (3 in Nel-O).
    #[inline]
    pub fn trick_size(&self) -> u8 {
        if self.is_nello() {
            3
        } else {
            4
        }
    }

    /// The seat after `seat` in play order (skipping a seat that sits out).
    #[inline]
    pub fn next_in_play(&self, seat: u8) -> u8 {
        next_in_play(seat, self.sitting_out())
    }

    /// The seat that played the `i`-th domino of trick `t`.
    #[inline]
    pub fn seat_of_play(&self, t: usize, i: usize) -> u8 {
        self.tricks[t].seat_of_play(i, self.sitting_out())
    }

    /// Legal plays of the seat to move.
    #[inline]
    pub(crate) fn play_mask(&self) -> ActionMask {
        let set = legal_plays(self.hands[self.to_move as usize], self.suit_table(), &self.tricks[self.trick as usize]);
        ActionMask((set.0 as u64) << PLAY)
    }

    /// Index within the trick of the winning play (see [`winning_play`]).
    #[inline]
    pub fn winning_play(&self, plays: &[Domino]) -> usize {
        winning_play(self.suit_table(), plays)
    }

    pub(crate) fn apply_play(&mut self, d: Domino) {
        let seat = self.to_move;
        self.hands[seat as usize].remove(d);
        let size = self.trick_size();
        let t = self.trick as usize;
        let trick = &mut self.tricks[t];
        trick.plays[trick.len as usize] = d;
        trick.len += 1;
        if trick.len < size {
            self.to_move = self.next_in_play(seat);
            return;
        }
        let plays = self.tricks[t].plays;
        let best = self.winning_play(&plays[..size as usize]);
        let winner = self.seat_of_play(t, best);
        let points = 1 + plays[..size as usize].iter().map(|d| d.count()).sum::<u8>();
        let trick = &mut self.tricks[t];
        trick.winner = winner;
        trick.points = points;
        self.points[team(winner)] += points;
        self.tricks_won[winner as usize] += 1;
        self.trick += 1;
        if let Some(made) = self.settled() {
            self.phase = Phase::Done;
            self.outcome = Some(Outcome::Settled { made });
        } else {
            self.tricks[self.trick as usize].leader = winner;
            self.to_move = winner;
        }
    }
}
