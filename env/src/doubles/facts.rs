//! One seat's public facts in a round: the [`SeatFacts`] the observation writer
//! reads (a [`DoublesView`](super::DoublesView) holds them in its fields), and
//! [`SeatOfRound`], which reads the same facts off a round on demand.

use super::board::Board;
use super::play::{End, Round};
use crate::action::ActionMask;
use crate::domino::{Domino, DominoSet};
use crate::rules::DoublesRules;
use crate::view::facts_in_fields;

/// The public facts of one seat in a round, as the observation writer reads
/// them (the fields of [`DoublesView`](super::DoublesView)).
pub(crate) trait SeatFacts {
    /// The seat.
    fn me(&self) -> u8;
    /// Rule options.
    fn rules(&self) -> &DoublesRules;
    /// The seat's own dominoes.
    fn hand(&self) -> DominoSet;
    /// The domino the seat has just drawn (`None` unless it is to act on it).
    fn drawn(&self) -> Option<Domino>;
    /// The seat to act has just drawn.
    fn just_drew(&self) -> bool;
    /// The seat to act (`None` once the round is over).
    fn to_move(&self) -> Option<u8>;
    /// The opener.
    fn opener(&self) -> u8;
    /// The board.
    fn board(&self) -> &Board;
    /// Dominoes held by `seat`.
    fn hand_size(&self, seat: usize) -> u8;
    /// Dominoes left in the boneyard.
    fn boneyard_len(&self) -> u8;
    /// For each domino, the seat that played it.
    fn played_by(&self) -> &[u8; 28];
    /// For each domino on the board, its play index.
    fn play_index(&self) -> &[u8; 28];
    /// For each domino on the board, the number it covered.
    fn attached_at(&self) -> &[u8; 28];
    /// Draws per seat.
    fn draws(&self) -> &[u8; 4];
    /// Passes per seat.
    fn passes(&self) -> &[u8; 4];
    /// Per seat, the numbers it is known to hold none of.
    fn void(&self) -> &[u8; 4];
    /// Per seat, the doubles it is known not to hold.
    fn no_double(&self) -> &[u8; 4];
    /// How the round ended.
    fn end(&self) -> Option<End>;
    /// The round's scores.
    fn scores(&self) -> &[u32; 4];
    /// The seat's legal actions (empty unless it is to move).
    fn legal_mask(&self) -> ActionMask;
    /// Game totals per seat.
    fn totals(&self) -> &[u32; 4];
}

/// One seat's public facts read off a round as they are asked for: where each
/// fact of a [`DoublesView`](super::DoublesView) is derived from the round.
#[derive(Copy, Clone)]
pub(crate) struct SeatOfRound<'a> {
    pub(super) r: &'a Round,
    pub(super) rules: DoublesRules,
    pub(super) seat: u8,
    pub(super) totals: [u32; 4],
    /// The seat may act now.
    acts: bool,
}

impl<'a> SeatOfRound<'a> {
    /// Seat `seat` of round `r` played under `rules`, with the game's totals.
    #[inline]
    pub(crate) fn new(r: &'a Round, rules: DoublesRules, seat: u8, totals: [u32; 4]) -> SeatOfRound<'a> {
        SeatOfRound { r, rules, seat, totals, acts: r.to_move == seat && !r.is_done() }
    }
    /// The same seat, which may not act now (its legal actions are empty).
    #[inline]
    pub(crate) fn not_acting(self) -> SeatOfRound<'a> {
        SeatOfRound { acts: false, ..self }
    }
}

facts_in_fields!(SeatFacts for SeatOfRound<'_>, fields of |f| f.r;
    copy opener: u8, end: Option<End>;
    refer board: Board, played_by: [u8; 28], play_index: [u8; 28], attached_at: [u8; 28], draws: [u8; 4],
        passes: [u8; 4], void: [u8; 4], no_double: [u8; 4], scores: [u32; 4];
    fn me(&self) -> u8 { self.seat }
    fn rules(&self) -> &DoublesRules { &self.rules }
    fn hand(&self) -> DominoSet { self.r.hands[self.seat as usize] }
    /// Kept once the round is over, if it stopped on the seat's draw.
    fn drawn(&self) -> Option<Domino> { if self.r.to_move == self.seat { self.r.drawn } else { None } }
    fn just_drew(&self) -> bool { self.r.drawn.is_some() }
    fn to_move(&self) -> Option<u8> { (!self.r.is_done()).then_some(self.r.to_move) }
    fn hand_size(&self, seat: usize) -> u8 { self.r.hands[seat].len() as u8 }
    fn boneyard_len(&self) -> u8 { self.r.boneyard_len() as u8 }
    fn legal_mask(&self) -> ActionMask { if self.acts { self.r.legal_mask() } else { ActionMask::EMPTY } }
    fn totals(&self) -> &[u32; 4] { &self.totals }
);
