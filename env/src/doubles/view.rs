//! One seat's view of a Doubles state: its own dominoes and everything public
//! (the board, hand sizes, the boneyard's size, draws, passes and what they
//! prove), what agents act from. `public` is the round as the seat could
//! rebuild it (hidden dominoes re-dealt; see [`Round::public_for`]), from which
//! the observation is written.

use super::{Board, DoublesState, Round};
use crate::action::ActionMask;
use crate::domino::DominoSet;
use crate::game::GameState;
use crate::rules::DoublesRules;
use crate::view::SeatView;
/// One seat's view of a Doubles state: its own dominoes and everything public.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DoublesView {
    /// The acting seat.
    pub seat: u8,
    /// Rule options (players, blocked tie, target).
    pub rules: DoublesRules,
    /// Dominoes this seat holds now (a just-drawn domino included).
    pub hand: DominoSet,
    /// The domino this seat has just drawn and must play or pass on.
    pub drawn: Option<crate::domino::Domino>,
    /// The board (open ends per number, unlocked numbers, dominoes placed).
    pub board: Board,
    /// Dominoes held per seat (unused seats 0).
    pub hand_sizes: [u8; 4],
    /// Dominoes left in the boneyard (its order is hidden).
    pub boneyard_len: u8,
    /// For each domino, the seat that played it (`NO_SEAT` if not on the board).
    pub played_by: [u8; 28],
    /// Draws per seat this round.
    pub draws: [u8; 4],
    /// Passes per seat this round.
    pub passes: [u8; 4],
    /// Per seat, bit n: publicly known to hold no domino showing n.
    pub void: [u8; 4],
    /// Per seat, bit n: publicly known not to hold n-n.
    pub no_double: [u8; 4],
    /// Legal actions of this seat.
    pub legal: ActionMask,
    /// Game totals per seat.
    pub totals: [u32; 4],
    /// The round as this seat could rebuild it (hidden dominoes re-dealt; see
    /// `Round::public_for`): what the observation is computed from.
    pub public: Round,
}

impl SeatView for DoublesView {
    fn seat(&self) -> usize {
        self.seat as usize
    }
    fn legal(&self) -> ActionMask {
        self.legal
    }
    fn observe(&self, out: &mut [f32]) {
        super::observe_round(&self.public, &self.rules, self.totals, self.seat as usize, out)
    }
}

impl DoublesState {
    /// The view of `seat` (legal actions empty unless it is to move).
    pub(crate) fn seat_view(&self, seat: usize) -> DoublesView {
        let mut v = DoublesView::from_round(self.round(), seat as u8, self.game().rules);
        v.totals = self.totals();
        if self.current_seat() != Some(seat) {
            v.legal = ActionMask::EMPTY;
        }
        v
    }
}

impl DoublesView {
    /// The view of `seat` of one round (game totals zero).
    pub fn from_round(r: &Round, seat: u8, rules: DoublesRules) -> DoublesView {
        let s = seat as usize;
        let mut hand_sizes = [0u8; 4];
        for (n, h) in hand_sizes.iter_mut().zip(&r.hands[..r.players as usize]) {
            *n = h.len() as u8;
        }
        let mine = r.to_move == seat && !r.is_done();
        DoublesView {
            seat,
            rules,
            hand: r.hands[s],
            drawn: if mine { r.drawn } else { None },
            board: r.board,
            hand_sizes,
            boneyard_len: r.boneyard_len() as u8,
            played_by: r.played_by,
            draws: r.draws,
            passes: r.passes,
            void: r.void,
            no_double: r.no_double,
            legal: if mine { r.legal_mask() } else { ActionMask::EMPTY },
            totals: [0; 4],
            public: r.public_for(s),
        }
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> u8 {
        self.rules.players
    }
    /// Dominoes whose holder this seat does not know (other hands and boneyard).
    #[inline]
    pub fn unseen(&self) -> DominoSet {
        DominoSet::FULL - self.board.placed - self.hand
    }
}
