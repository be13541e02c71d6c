//! One seat's view of a Doubles round: [`DoublesView`], the public information
//! state the seat acts from and its observation is written from.

use super::board::Board;
use super::observe;
use super::play::{End, Round};
use crate::action::ActionMask;
use crate::domino::{Domino, DominoSet};
use crate::rules::DoublesRules;
use crate::view::SeatView;

/// One seat's view of a Doubles state: its own dominoes, everything public
/// about the round (the board and its history, hand sizes, the boneyard's size,
/// draws, passes and what they revealed, the result) and the game totals. The
/// other hands and the boneyard's order are not held. Build it with
/// [`GameState::view`](crate::GameState::view) (or [`DoublesView::from_round`]
/// for a lone round).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DoublesView {
    /// The seat whose view this is.
    pub seat: u8,
    /// Rule options (players, blocked tie, target).
    pub rules: DoublesRules,
    /// Dominoes this seat holds now (a just-drawn domino included).
    pub hand: DominoSet,
    /// The domino this seat has just drawn and must play or pass on (`None`
    /// when another seat is to act).
    pub drawn: Option<Domino>,
    /// The seat to act has just drawn (whoever it is; what it drew is hidden
    /// from the others).
    pub just_drew: bool,
    /// The seat to act (`None` once the round is over).
    pub to_move: Option<u8>,
    /// The seat that held the highest double and opened.
    pub opener: u8,
    /// The board (open ends per number, unlocked numbers, dominoes placed).
    pub board: Board,
    /// Dominoes held per seat (unused seats 0).
    pub hand_sizes: [u8; 4],
    /// Dominoes left in the boneyard (its order is hidden).
    pub boneyard_len: u8,
    /// For each domino, the seat that played it (`NO_SEAT` if not on the board).
    pub played_by: [u8; 28],
    /// For each domino on the board, its play index (0 = the opening double).
    pub play_index: [u8; 28],
    /// For each domino on the board, the open-end number it covered (`NO_SEAT`
    /// for the opening double).
    pub attached_at: [u8; 28],
    /// Draws per seat this round.
    pub draws: [u8; 4],
    /// Passes per seat this round.
    pub passes: [u8; 4],
    /// Per seat, bit n: publicly known to hold no domino showing n.
    pub void: [u8; 4],
    /// Per seat, bit n: publicly known not to hold n-n.
    pub no_double: [u8; 4],
    /// How the round ended (`None` while it is played).
    pub end: Option<End>,
    /// The round's score per seat (set when it is over).
    pub scores: [u32; 4],
    /// The seat that won the round (`None` while playing and for a tied block).
    pub winner: Option<u8>,
    /// Legal actions of this seat (empty unless it is to move).
    pub legal: ActionMask,
    /// Game totals per seat.
    pub totals: [u32; 4],
}

impl SeatView for DoublesView {
    #[inline]
    fn seat(&self) -> usize {
        self.seat as usize
    }
    #[inline]
    fn legal(&self) -> ActionMask {
        self.legal
    }
    /// The Doubles observation of this seat (layout
    /// [`OBS_SEGMENTS_DOUBLES`](super::OBS_SEGMENTS_DOUBLES)).
    #[inline]
    fn observe(&self, out: &mut [f32]) {
        observe::write(self, out)
    }
}

impl DoublesView {
    /// The view of `seat` of one round played under `rules` (game totals zero):
    /// its own dominoes and the public facts of the round; its legal actions
    /// when it is to move.
    pub fn from_round(r: &Round, seat: u8, rules: DoublesRules) -> DoublesView {
        debug_assert_eq!(
            r.players, rules.players,
            "a round of {} players under rules for {}",
            r.players, rules.players
        );
        let s = seat as usize;
        let mut hand_sizes = [0u8; 4];
        for (n, h) in hand_sizes.iter_mut().zip(&r.hands[..r.players as usize]) {
            *n = h.len() as u8;
        }
        let done = r.is_done();
        let mine = r.to_move == seat;
        DoublesView {
            seat,
            rules,
            hand: r.hands[s],
            drawn: if mine { r.drawn } else { None },
            just_drew: r.drawn.is_some(),
            to_move: (!done).then_some(r.to_move),
            opener: r.opener,
            board: r.board,
            hand_sizes,
            boneyard_len: r.boneyard_len() as u8,
            played_by: r.played_by,
            play_index: r.play_index,
            attached_at: r.attached_at,
            draws: r.draws,
            passes: r.passes,
            void: r.void,
            no_double: r.no_double,
            end: r.end,
            scores: r.scores,
            winner: r.winner,
            legal: if mine && !done { r.legal_mask() } else { ActionMask::EMPTY },
            totals: [0; 4],
        }
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> u8 {
        self.rules.players
    }
    /// The round is over.
    #[inline]
    pub fn is_done(&self) -> bool {
        self.end.is_some()
    }
    /// Dominoes whose holder this seat does not know (other hands and boneyard).
    #[inline]
    pub fn unseen(&self) -> DominoSet {
        DominoSet::FULL - self.board.placed - self.hand
    }
}
