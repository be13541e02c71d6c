//! One seat's view of a Doubles round: [`DoublesView`], the public information
//! state the seat acts from and its observation is written from.
//!
//! The observation writer reads the seat's public facts through
//! [`SeatFacts`](super::facts::SeatFacts): a view holds them in its fields, and [`SeatOfRound`] reads the same facts off
//! a round on demand, so a state observes a seat without first copying a view
//! out. Each fact is derived from the round in one place ([`SeatOfRound`]) and
//! a view is filled from it, so both give the same observation.

use super::board::Board;
use super::facts::{SeatFacts, SeatOfRound};
use super::observe;
use super::play::{End, Round, MAX_BONEYARD};
use crate::action::ActionMask;
use crate::domino::{Domino, DominoSet};
use crate::rules::DoublesRules;
use crate::view::view_in_fields;

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
    /// when another seat is to act; kept when the round stopped on the draw).
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

impl DoublesView {
    /// The view of `seat` of one round played under `rules` (game totals zero):
    /// its own dominoes and the public facts of the round; its legal actions
    /// when it is to move.
    pub fn from_round(r: &Round, seat: u8, rules: DoublesRules) -> DoublesView {
        DoublesView::from_facts(&SeatOfRound::new(r, rules, seat, [0; 4]))
    }

    /// A view holding the facts `f` reads.
    #[inline]
    pub(crate) fn from_facts(f: &SeatOfRound) -> DoublesView {
        let r = f.r;
        debug_assert_eq!(
            r.players, f.rules.players,
            "a round of {} players under rules for {}",
            r.players, f.rules.players
        );
        let mut hand_sizes = [0u8; 4];
        for (s, n) in hand_sizes.iter_mut().enumerate().take(r.players as usize) {
            *n = f.hand_size(s);
        }
        DoublesView {
            seat: f.seat,
            rules: f.rules,
            hand: f.hand(),
            drawn: f.drawn(),
            just_drew: f.just_drew(),
            to_move: f.to_move(),
            opener: f.opener(),
            board: *f.board(),
            hand_sizes,
            boneyard_len: f.boneyard_len(),
            played_by: *f.played_by(),
            play_index: *f.play_index(),
            attached_at: *f.attached_at(),
            draws: *f.draws(),
            passes: *f.passes(),
            void: *f.void(),
            no_double: *f.no_double(),
            end: f.end(),
            scores: *f.scores(),
            winner: r.winner,
            legal: f.legal_mask(),
            totals: f.totals,
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

    /// A round this view could have been taken from: the other seats holding
    /// `hands` now (this seat's entry must be its own hand), the boneyard holding
    /// `boneyard` in draw order, and every public fact (board, history, counts,
    /// the seat to move and its drawn domino) as the view has it. A search agent
    /// plays its sampled worlds out from such rounds. Its `dealt` hands are the
    /// hands now plus the dominoes each seat played (the real deal is hidden).
    ///
    /// `None` when the parts do not fit the view: a hand or the boneyard of the
    /// wrong size, this seat's hand changed, a domino held twice or on the board,
    /// the round over, or another seat deciding on a domino it has just drawn
    /// (which the view does not show).
    pub fn world(&self, hands: [DominoSet; 4], boneyard: &[Domino]) -> Option<Round> {
        let n = self.players() as usize;
        let me = self.seat as usize;
        if self.is_done() || (self.just_drew && self.to_move != Some(self.seat)) || hands[me] != self.hand {
            return None;
        }
        let mut all = self.board.placed;
        let mut held = DominoSet::EMPTY;
        for (s, &h) in hands.iter().enumerate() {
            let size = if s < n { self.hand_sizes[s] as usize } else { 0 };
            if h.len() != size || !(all & h).is_empty() {
                return None;
            }
            all |= h;
            held |= h;
        }
        let mut bones = [Domino::from_index(0); MAX_BONEYARD];
        if boneyard.len() != self.boneyard_len as usize || boneyard.len() > MAX_BONEYARD {
            return None;
        }
        for (slot, &d) in bones.iter_mut().zip(boneyard) {
            if all.contains(d) {
                return None;
            }
            all.insert(d);
            *slot = d;
        }
        debug_assert_eq!(all, DominoSet::FULL, "sizes that fit the view cover every domino");
        let mut dealt = hands;
        for d in self.board.placed {
            dealt[self.played_by[d.index()] as usize].insert(d);
        }
        let steps = self.board.placed.len() as u32
            + self.draws.iter().map(|&x| x as u32).sum::<u32>()
            + self.passes.iter().map(|&x| x as u32).sum::<u32>();
        let mut r = Round {
            players: self.players(),
            blocked_tie: self.rules.blocked_tie,
            dealt,
            hands,
            bones,
            bone_len: boneyard.len() as u8,
            bone_next: 0,
            board: self.board,
            to_move: self.to_move?,
            opener: self.opener,
            drawn: self.drawn,
            played_by: self.played_by,
            play_index: self.play_index,
            attached_at: self.attached_at,
            num_plays: self.board.placed.len() as u8,
            draws: self.draws,
            passes: self.passes,
            void: self.void,
            no_double: self.no_double,
            end: None,
            scores: [0; 4],
            winner: None,
            steps,
            legal: ActionMask::EMPTY,
        };
        debug_assert!(held.len() + boneyard.len() + self.board.placed.len() == 28);
        r.refresh();
        Some(r)
    }
}

// A view observes what its seat sees of the state (layout `OBS_SEGMENTS_DOUBLES`).
view_in_fields!(DoublesView: SeatFacts, observe::write {
    copy hand: DominoSet, drawn: Option<Domino>, just_drew: bool, to_move: Option<u8>, opener: u8, boneyard_len: u8,
        end: Option<End>;
    refer rules: DoublesRules, board: Board, played_by: [u8; 28], play_index: [u8; 28], attached_at: [u8; 28],
        draws: [u8; 4], passes: [u8; 4], void: [u8; 4], no_double: [u8; 4], scores: [u32; 4], totals: [u32; 4];
    fn me(&self) -> u8 { self.seat }
    fn hand_size(&self, seat: usize) -> u8 { self.hand_sizes[seat] }
    fn legal_mask(&self) -> ActionMask { self.legal }
});
