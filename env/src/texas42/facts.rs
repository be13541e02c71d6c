//! One seat's public facts in a hand: the [`SeatFacts`] the observation writer
//! reads (a [`Texas42View`](super::Texas42View) holds them in its fields), the
//! facts derived from them, and [`SeatOfHand`], which reads the same facts off a
//! hand on demand.

use super::actions::{DOUBLES, PASS, TRUMP_BLANKS};
use super::hand::{Hand, Phase, Trick};
use super::play::{next_in_play, suit_table, winning_play, SuitTable};
use crate::action::{Action, ActionMask};
use crate::domino::{Domino, DominoSet};
use crate::rules::Texas42Rules;
use crate::view::facts_in_fields;

/// The public facts of one seat in a hand, as the observation writer reads
/// them (the fields of [`Texas42View`](super::Texas42View)), and the facts derived from them.
pub(crate) trait SeatFacts {
    /// The seat.
    fn me(&self) -> u8;
    /// Rule options.
    fn rules(&self) -> &Texas42Rules;
    /// The shaker.
    fn dealer(&self) -> u8;
    /// The hand's phase.
    fn phase(&self) -> Phase;
    /// The seat to act (`None` once the hand is over).
    fn to_move(&self) -> Option<u8>;
    /// The seat's own dominoes.
    fn hand(&self) -> DominoSet;
    /// The bid of `seat` (`None` before it has bid).
    fn bid(&self, seat: u8) -> Option<Action>;
    /// The high bid (`PASS` when none yet).
    fn high_bid(&self) -> Action;
    /// The high bidder.
    fn bidder(&self) -> Option<u8>;
    /// The seat that declares/declared.
    fn declarer(&self) -> Option<u8>;
    /// The declaration.
    fn declaration(&self) -> Option<Action>;
    /// The tricks.
    fn tricks(&self) -> &[Trick; 7];
    /// Index of the current trick.
    fn trick(&self) -> u8;
    /// Points per team.
    fn points(&self) -> [u8; 2];
    /// Every domino played so far.
    fn played(&self) -> DominoSet;
    /// The seat sitting out.
    fn sitting_out(&self) -> Option<u8>;
    /// The seat's legal actions (empty unless it is to move).
    fn legal_mask(&self) -> ActionMask;
    /// Game totals per team.
    fn totals(&self) -> [u32; 2];

    /// The seat's team.
    #[inline]
    fn team(&self) -> usize {
        (self.me() & 1) as usize
    }
    /// The trick in progress (`None` once all are played).
    #[inline]
    fn current_trick(&self) -> Option<&Trick> {
        self.tricks().get(self.trick() as usize)
    }
    /// The seat after `seat` in play order.
    #[inline]
    fn next_in_play(&self, seat: u8) -> u8 {
        next_in_play(seat, self.sitting_out())
    }
    /// The winning play of `plays` under the declaration.
    #[inline]
    fn winning_play(&self, plays: &[Domino]) -> usize {
        winning_play(self.suit_table(), plays)
    }
    /// The trump suit (0..6 pips, 7 doubles).
    #[inline]
    fn trump_suit(&self) -> Option<usize> {
        match self.declaration()? {
            d @ TRUMP_BLANKS..DOUBLES => Some(d - TRUMP_BLANKS),
            DOUBLES => Some(7),
            _ => None,
        }
    }
    /// The trump dominoes.
    #[inline]
    fn trumps(&self) -> DominoSet {
        match self.trump_suit() {
            Some(7) => DominoSet::DOUBLES,
            Some(t) => DominoSet::with_pip(t as u8),
            None => DominoSet::EMPTY,
        }
    }
    /// The declaration's suit table.
    #[inline]
    fn suit_table(&self) -> Option<&'static SuitTable> {
        suit_table(self.declaration()?, self.rules().nello_doubles)
    }
    /// Dominoes neither the seat's own nor played.
    #[inline]
    fn unseen(&self) -> DominoSet {
        DominoSet::FULL - self.played() - self.hand()
    }
}

/// One seat's public facts read off a hand as they are asked for: where each
/// fact of a [`Texas42View`](super::Texas42View) is derived from the hand.
#[derive(Copy, Clone)]
pub(crate) struct SeatOfHand<'a> {
    pub(super) h: &'a Hand,
    seat: u8,
    totals: [u32; 2],
    pub(super) hands_played: u32,
    /// The seat may act now.
    acts: bool,
}

impl<'a> SeatOfHand<'a> {
    /// Seat `seat` (mod 4) of hand `h`, with the game's totals and hands played.
    #[inline]
    pub(crate) fn new(h: &'a Hand, seat: u8, totals: [u32; 2], hands_played: u32) -> SeatOfHand<'a> {
        let seat = seat % 4;
        SeatOfHand { h, seat, totals, hands_played, acts: h.to_move == seat && h.phase != Phase::Done }
    }
    /// The same seat, which may not act now (its legal actions are empty).
    #[inline]
    pub(crate) fn not_acting(self) -> SeatOfHand<'a> {
        SeatOfHand { acts: false, ..self }
    }
    /// There is a high bid.
    #[inline]
    fn has_high(&self) -> bool {
        self.h.high_bid as Action != PASS
    }
    /// The declaration has been made (a hand ends during bidding only when
    /// thrown in, with no high bid).
    #[inline]
    fn declared(&self) -> bool {
        self.h.phase == Phase::Playing || (self.h.phase == Phase::Done && self.has_high())
    }
}

facts_in_fields!(SeatFacts for SeatOfHand<'_>, fields of |f| f.h;
    copy dealer: u8, phase: Phase, trick: u8, points: [u8; 2];
    refer rules: Texas42Rules;
    fn me(&self) -> u8 { self.seat }
    fn to_move(&self) -> Option<u8> { (self.h.phase != Phase::Done).then_some(self.h.to_move) }
    fn hand(&self) -> DominoSet { self.h.hands[self.seat as usize] }
    fn bid(&self, seat: u8) -> Option<Action> { self.h.bid_of(seat) }
    fn high_bid(&self) -> Action { self.h.high_bid as Action }
    fn bidder(&self) -> Option<u8> { self.has_high().then_some(self.h.bidder) }
    fn declarer(&self) -> Option<u8> { (self.h.phase != Phase::Bidding && self.has_high()).then_some(self.h.declarer) }
    fn declaration(&self) -> Option<Action> { self.declared().then_some(self.h.declaration as Action) }
    /// Before the declaration no trick has a play.
    fn tricks(&self) -> &[Trick; 7] { &self.h.tricks }
    /// What each seat was dealt and no longer holds, it has played.
    fn played(&self) -> DominoSet {
        let h = self.h;
        (h.dealt[0] - h.hands[0]) | (h.dealt[1] - h.hands[1]) | (h.dealt[2] - h.hands[2]) | (h.dealt[3] - h.hands[3])
    }
    fn sitting_out(&self) -> Option<u8> { self.h.sitting_out() }
    fn legal_mask(&self) -> ActionMask { if self.acts { self.h.legal_mask() } else { ActionMask::EMPTY } }
    fn totals(&self) -> [u32; 2] { self.totals }
);
