//! One seat's view of a Texas 42 hand: [`Texas42View`], the public information
//! state the seat acts from and its observation is written from.
//!
//! The observation writer reads the seat's public facts through
//! [`SeatFacts`](super::facts::SeatFacts): a view holds them in its fields, and
//! [`SeatOfHand`] reads the same facts off a hand on demand, so a state observes a
//! seat without first copying a view out. Each fact is derived from the hand in
//! one place ([`SeatOfHand`]) and a view is filled from it, so both give the same
//! observation.

use super::actions::NEL_O;
use super::facts::{SeatFacts, SeatOfHand};
use super::hand::{Hand, Phase, Trick};
use super::observe;
use super::play::SuitTable;
use crate::action::Action;
use crate::action::ActionMask;
use crate::domino::{Domino, DominoSet};
use crate::rules::Texas42Rules;
use crate::view::view_in_fields;

/// One seat's view of a Texas 42 state: its own dominoes, everything public
/// about the hand (bids, the declaration, every trick so far, points) and the
/// game totals. Nothing about the other seats' dominoes is held beyond what the
/// public record shows. Build it with [`GameState::view`](crate::GameState::view)
/// (or [`Texas42View::from_hand`] for a lone hand).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Texas42View {
    /// The seat whose view this is (0..4; team = seat % 2).
    pub seat: u8,
    /// Rule options.
    pub rules: Texas42Rules,
    /// The shaker of this hand.
    pub dealer: u8,
    /// The hand's phase.
    pub phase: Phase,
    /// The seat to act (`None` once the hand is over).
    pub to_move: Option<u8>,
    /// Dominoes this seat holds now.
    pub hand: DominoSet,
    /// Each seat's bid (`None` before it has bid).
    pub bids: [Option<Action>; 4],
    /// The high bid's action id (`PASS` when none yet).
    pub high_bid: Action,
    /// The high bidder (`None` while no one has bid).
    pub bidder: Option<u8>,
    /// The seat that declares/declared (`None` while bidding).
    pub declarer: Option<u8>,
    /// The declaration's action id (`None` before it is made).
    pub declaration: Option<Action>,
    /// Tricks: the completed ones, then the current one (`tricks[trick]`);
    /// all empty before the declaration.
    pub tricks: [Trick; 7],
    /// Index of the current trick (7 once all are played).
    pub trick: u8,
    /// Points taken per team this hand.
    pub points: [u8; 2],
    /// Tricks won per seat.
    pub tricks_won: [u8; 4],
    /// Every domino played so far this hand.
    pub played: DominoSet,
    /// The seat sitting out (Nel-O: the bidder's partner).
    pub sitting_out: Option<u8>,
    /// Legal actions of this seat (empty unless it is to move).
    pub legal: ActionMask,
    /// Game totals per team (marks, or points under `points` scoring).
    pub totals: [u32; 2],
    /// Hands finished earlier in this game.
    pub hands_played: u32,
}

impl Texas42View {
    /// The view of `seat` (taken mod 4) of a single hand, game totals zero: its
    /// own dominoes and the public facts of the hand; its legal actions when it
    /// is to move.
    pub fn from_hand(h: &Hand, seat: u8) -> Texas42View {
        Texas42View::from_facts(&SeatOfHand::new(h, seat, [0; 2], 0))
    }

    /// A view holding the facts `f` reads.
    #[inline]
    pub(crate) fn from_facts(f: &SeatOfHand) -> Texas42View {
        Texas42View {
            seat: f.me(),
            rules: *f.rules(),
            dealer: f.dealer(),
            phase: f.phase(),
            to_move: f.to_move(),
            hand: f.hand(),
            bids: [f.bid(0), f.bid(1), f.bid(2), f.bid(3)],
            high_bid: f.high_bid(),
            bidder: f.bidder(),
            declarer: f.declarer(),
            declaration: f.declaration(),
            tricks: *f.tricks(),
            trick: f.trick(),
            points: f.points(),
            tricks_won: f.h.tricks_won,
            played: f.played(),
            sitting_out: f.sitting_out(),
            legal: f.legal_mask(),
            totals: f.totals(),
            hands_played: f.hands_played,
        }
    }

    /// This seat's team (0 or 1).
    #[inline]
    pub fn team(&self) -> usize {
        SeatFacts::team(self)
    }
    /// This seat's partner.
    #[inline]
    pub fn partner(&self) -> u8 {
        (self.seat + 2) % 4
    }
    /// Whether this seat's team won the bid.
    #[inline]
    pub fn bidding_team(&self) -> bool {
        self.bidder.is_some_and(|b| b % 2 == self.seat % 2)
    }
    /// The trick in progress (`None` once all are played).
    #[inline]
    pub fn current_trick(&self) -> Option<&Trick> {
        SeatFacts::current_trick(self)
    }
    /// Nel-O is being played.
    #[inline]
    pub fn is_nello(&self) -> bool {
        self.declaration == Some(NEL_O)
    }
    /// Dominoes per trick (3 in Nel-O).
    #[inline]
    pub fn trick_size(&self) -> usize {
        if self.sitting_out.is_some() {
            3
        } else {
            4
        }
    }
    /// The seat after `seat` in play order (skipping a seat that sits out).
    #[inline]
    pub fn next_in_play(&self, seat: u8) -> u8 {
        SeatFacts::next_in_play(self, seat)
    }
    /// The seat that played the `i`-th domino of trick `t`.
    #[inline]
    pub fn seat_of_play(&self, t: usize, i: usize) -> u8 {
        self.tricks[t].seat_of_play(i, self.sitting_out)
    }
    /// Index within `plays` (a trick's dominoes in play order) of the play that
    /// wins so far under the declaration (the engine's rule; Sevens before the
    /// declaration).
    #[inline]
    pub fn winning_play(&self, plays: &[Domino]) -> usize {
        SeatFacts::winning_play(self, plays)
    }
    /// The trump suit: 0..6 a pip suit, 7 doubles; `None` for follow-me, Nel-O,
    /// Sevens or before the declaration.
    #[inline]
    pub fn trump_suit(&self) -> Option<usize> {
        SeatFacts::trump_suit(self)
    }
    /// The trump dominoes (empty without a trump suit).
    #[inline]
    pub fn trumps(&self) -> DominoSet {
        SeatFacts::trumps(self)
    }
    /// The suit table of the declaration (`None` for Sevens or before declaring).
    #[inline]
    pub fn suit_table(&self) -> Option<&'static SuitTable> {
        SeatFacts::suit_table(self)
    }
    /// Dominoes whose holder this seat does not know: not played, not its own.
    #[inline]
    pub fn unseen(&self) -> DominoSet {
        SeatFacts::unseen(self)
    }
    /// For each seat, the suits (bit s: suit id 0..7 of the suit table) it has
    /// shown out of by not following a led suit.
    pub fn known_voids(&self) -> [u8; 4] {
        let mut v = [0u8; 4];
        let Some(table) = self.suit_table() else { return v };
        for t in 0..=(self.trick as usize).min(6) {
            let trick = &self.tricks[t];
            if trick.len < 2 {
                continue;
            }
            let led = table.lead_suit[trick.plays[0].index()] as usize;
            let mut seat = trick.leader;
            for d in &trick.played()[1..] {
                seat = self.next_in_play(seat);
                if !table.members[led].contains(*d) {
                    v[seat as usize] |= 1 << led;
                }
            }
        }
        v
    }
}

// A view observes what its seat sees of the state (layout `OBS_SEGMENTS_42`).
view_in_fields!(Texas42View: SeatFacts, observe::write {
    copy dealer: u8, phase: Phase, to_move: Option<u8>, hand: DominoSet, high_bid: Action, bidder: Option<u8>,
        declarer: Option<u8>, declaration: Option<Action>, trick: u8, points: [u8; 2], played: DominoSet,
        sitting_out: Option<u8>, totals: [u32; 2];
    refer rules: Texas42Rules, tricks: [Trick; 7];
    fn me(&self) -> u8 { self.seat }
    fn bid(&self, seat: u8) -> Option<Action> { self.bids[seat as usize] }
    fn legal_mask(&self) -> ActionMask { self.legal }
});
