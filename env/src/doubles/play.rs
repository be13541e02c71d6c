//! One Doubles round: hands, boneyard, board, turn order, draws and passes, the
//! two endings and the round's scores. A [`Round`] is `Copy` and allocation-free.

use super::actions::{decode, ids_of, open_action, Move, DOUBLE_IDS, DRAW, IDS_AT, PASS};
use super::board::Board;
use crate::action::Action;
use crate::action::{ActionMask, IllegalAction};
use crate::domino::{Domino, DominoSet};
use crate::rules::BlockedTie;
use serde::{Deserialize, Serialize};

/// Most dominoes a boneyard can hold (two players: 28 - 2*8).
pub const MAX_BONEYARD: usize = 12;

/// A player may draw only while the boneyard holds more than this many.
pub const BONEYARD_FLOOR: usize = 2;

/// No seat (in `played_by`).
pub const NO_SEAT: u8 = u8::MAX;

/// How a round ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum End {
    /// A player played their last domino.
    Domino,
    /// No one could play and the boneyard held two or fewer.
    Blocked,
}

impl End {
    /// `domino` or `blocked` (the record's `end`).
    pub const fn name(self) -> &'static str {
        match self {
            End::Domino => "domino",
            End::Blocked => "blocked",
        }
    }
}

/// Dominoes each player is dealt: 8 with two players, 6 with three or four.
pub const fn hand_size(players: u8) -> usize {
    if players == 2 {
        8
    } else {
        6
    }
}

/// One Doubles round.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// Players at the table (seats `0..players`).
    pub players: u8,
    /// Scoring of a tied blocked round.
    pub blocked_tie: BlockedTie,
    /// The hands as dealt.
    pub dealt: [DominoSet; 4],
    /// Dominoes held now.
    pub hands: [DominoSet; 4],
    /// The boneyard as dealt, in draw order (the first `bone_len`).
    pub bones: [Domino; MAX_BONEYARD],
    /// Size of the boneyard as dealt.
    pub bone_len: u8,
    /// Dominoes drawn so far (the next draw is `bones[bone_next]`).
    pub bone_next: u8,
    /// The board.
    pub board: Board,
    /// Seat to act.
    pub to_move: u8,
    /// The seat that held the highest double and opens.
    pub opener: u8,
    /// The domino the seat to move has just drawn: it must play it or pass.
    pub drawn: Option<Domino>,
    /// For each domino, the seat that played it (`NO_SEAT` if not on the board).
    pub played_by: [u8; 28],
    /// For each domino on the board, its play index (0 = the opening double).
    pub play_index: [u8; 28],
    /// For each domino on the board, the open-end number it covered
    /// (`NO_SEAT` for the opening double).
    pub attached_at: [u8; 28],
    /// Dominoes played so far.
    pub num_plays: u8,
    /// Draws per seat.
    pub draws: [u8; 4],
    /// Passes per seat.
    pub passes: [u8; 4],
    /// Per seat, bit `n`: publicly known to hold no domino showing `n` (revealed by
    /// a draw or pass while an open end showed an unlocked `n`).
    pub void: [u8; 4],
    /// Per seat, bit `n`: publicly known not to hold `n-n` (revealed by a draw or
    /// pass while an open end showed `n`).
    pub no_double: [u8; 4],
    /// Set when the round is over.
    pub end: Option<End>,
    /// The round's score per seat (set when over).
    pub scores: [u32; 4],
    /// The seat that won the round (`None` while playing and for a tied block).
    pub winner: Option<u8>,
    /// Actions taken in this round.
    pub steps: u32,
    /// Legal actions of the seat to move, kept current by `apply` (and `refresh`).
    pub(crate) legal: ActionMask,
}

impl Round {
    /// A round from a validated deal (see `Doubles::from_deal`): hands of the
    /// right size for `players`, 28 distinct dominoes, at least one double dealt.
    /// Hands of seats beyond `players` are ignored (kept empty).
    pub fn new(players: u8, blocked_tie: BlockedTie, mut hands: [DominoSet; 4], boneyard: &[Domino]) -> Round {
        assert!((2..=4).contains(&players), "2, 3 or 4 players");
        hands[players as usize..].fill(DominoSet::EMPTY);
        assert!(boneyard.len() <= MAX_BONEYARD, "boneyard too large");
        let mut bones = [Domino::from_index(0); MAX_BONEYARD];
        bones[..boneyard.len()].copy_from_slice(boneyard);
        let opener = highest_double(&hands[..players as usize]).expect("a deal with a double").0;
        let mut r = Round {
            players,
            blocked_tie,
            dealt: hands,
            hands,
            bones,
            bone_len: boneyard.len() as u8,
            bone_next: 0,
            board: Board::EMPTY,
            to_move: opener,
            opener,
            drawn: None,
            played_by: [NO_SEAT; 28],
            play_index: [0; 28],
            attached_at: [NO_SEAT; 28],
            num_plays: 0,
            draws: [0; 4],
            passes: [0; 4],
            void: [0; 4],
            no_double: [0; 4],
            end: None,
            scores: [0; 4],
            winner: None,
            steps: 0,
            legal: ActionMask::EMPTY,
        };
        r.refresh();
        r
    }

    /// The round is over.
    #[inline]
    pub fn is_done(&self) -> bool {
        self.end.is_some()
    }

    /// Dominoes left in the boneyard, in draw order.
    #[inline]
    pub fn boneyard(&self) -> &[Domino] {
        &self.bones[self.bone_next as usize..self.bone_len as usize]
    }

    /// The boneyard as dealt, in draw order.
    #[inline]
    pub fn boneyard_dealt(&self) -> &[Domino] {
        &self.bones[..self.bone_len as usize]
    }

    /// Number of dominoes left in the boneyard.
    #[inline]
    pub fn boneyard_len(&self) -> usize {
        (self.bone_len - self.bone_next) as usize
    }

    /// The next seat to the left.
    #[inline]
    pub fn next_seat(&self, seat: u8) -> u8 {
        if seat + 1 == self.players {
            0
        } else {
            seat + 1
        }
    }

    /// Pip total of each seat's hand (zero for unused seats).
    pub fn pips(&self) -> [u32; 4] {
        let mut p = [0; 4];
        for (p, h) in p.iter_mut().zip(&self.hands[..self.players as usize]) {
            *p = h.pips();
        }
        p
    }

    /// The attachment ids of the dominoes in `hand` on the current board.
    #[inline]
    pub fn plays_of(&self, hand: DominoSet) -> ActionMask {
        self.plays_in(hand & self.board.playable())
    }

    /// The attachment ids of `cand`, dominoes known to be playable now: a double's
    /// one id (its end is open), a non-double's ids at open unlocked ends.
    #[inline]
    fn plays_in(&self, cand: DominoSet) -> ActionMask {
        let usable = (self.board.open_mask() & self.board.unlocked) as usize;
        ActionMask(ids_of(cand.0) & (IDS_AT[usable] | DOUBLE_IDS))
    }

    /// Legal actions of the seat to move (empty when over).
    #[inline]
    pub fn legal_mask(&self) -> ActionMask {
        self.legal
    }

    /// Recomputes the cached legal mask; call it after editing fields directly.
    pub fn refresh(&mut self) {
        self.legal = self.compute_legal(self.board.playable());
    }

    fn compute_legal(&self, playable: DominoSet) -> ActionMask {
        if self.end.is_some() {
            return ActionMask::EMPTY;
        }
        if !self.board.is_open() {
            let (_, n) = highest_double(&self.hands[..self.players as usize]).expect("a deal with a double");
            return ActionMask(1 << open_action(n));
        }
        if let Some(d) = self.drawn {
            let plays = self.plays_in(d.bit() & playable);
            return if plays.is_empty() { ActionMask(1 << PASS) } else { plays };
        }
        let plays = self.plays_in(self.hands[self.to_move as usize] & playable);
        if !plays.is_empty() {
            plays
        } else if self.boneyard_len() > BONEYARD_FLOOR {
            ActionMask(1 << DRAW)
        } else {
            ActionMask(1 << PASS)
        }
    }

    /// Applies a legal action; on error the round is unchanged.
    pub fn apply(&mut self, a: Action) -> Result<(), IllegalAction> {
        let legal = self.legal;
        if !legal.contains(a) {
            return Err(IllegalAction { action: a, legal });
        }
        let seat = self.to_move;
        match decode(a).expect("a legal id decodes") {
            Move::Open(d) => {
                self.board.open_with(d.high());
                self.place(seat, d, NO_SEAT);
            }
            Move::Attach(d, e) => {
                self.board.attach(d, e);
                self.place(seat, d, e);
            }
            Move::Draw => {
                self.reveal(seat, false);
                let d = self.bones[self.bone_next as usize];
                self.bone_next += 1;
                self.hands[seat as usize].insert(d);
                self.draws[seat as usize] += 1;
                self.drawn = Some(d);
            }
            Move::Pass => {
                // After a draw the hand holds an unknown domino: what was known
                // before may no longer hold, so the pass's facts replace it.
                let replace = self.drawn.is_some();
                self.reveal(seat, replace);
                self.passes[seat as usize] += 1;
                self.drawn = None;
                self.to_move = self.next_seat(seat);
            }
        }
        self.steps += 1;
        if self.end.is_none() {
            let playable = self.board.playable();
            if self.boneyard_len() <= BONEYARD_FLOOR && (self.held() & playable).is_empty() {
                self.finish(End::Blocked);
                self.legal = ActionMask::EMPTY;
            } else {
                self.legal = self.compute_legal(playable);
            }
        } else {
            self.legal = ActionMask::EMPTY;
        }
        Ok(())
    }

    fn place(&mut self, seat: u8, d: Domino, end: u8) {
        let s = seat as usize;
        self.hands[s].remove(d);
        self.played_by[d.index()] = seat;
        self.play_index[d.index()] = self.num_plays;
        self.attached_at[d.index()] = end;
        self.num_plays += 1;
        self.drawn = None;
        if self.hands[s].is_empty() {
            self.winner = Some(seat);
            self.finish(End::Domino);
        } else {
            self.to_move = self.next_seat(seat);
        }
    }

    /// Records what a draw or pass reveals: the seat holds nothing playable now.
    fn reveal(&mut self, seat: u8, replace: bool) {
        let open = self.board.open_mask();
        let void = open & self.board.unlocked;
        let no_double = open | self.board.unlocked;
        let s = seat as usize;
        if replace {
            self.void[s] = void;
            self.no_double[s] = no_double;
        } else {
            self.void[s] |= void;
            self.no_double[s] |= no_double;
        }
    }

    /// No one holds a playable domino and no one may draw.
    #[inline]
    pub fn is_blocked(&self) -> bool {
        if self.boneyard_len() > BONEYARD_FLOOR || !self.board.is_open() {
            return false;
        }
        (self.held() & self.board.playable()).is_empty()
    }

    /// Every domino in a hand.
    #[inline]
    fn held(&self) -> DominoSet {
        self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
    }

    fn finish(&mut self, end: End) {
        self.end = Some(end);
        let pips = self.pips();
        let total: u32 = pips.iter().sum();
        let n = self.players as usize;
        match end {
            End::Domino => {
                let w = self.winner.expect("the seat that dominoed") as usize;
                self.scores[w] = total - pips[w];
            }
            End::Blocked => {
                let low = *pips[..n].iter().min().expect("players");
                let tied = pips[..n].iter().filter(|&&p| p == low).count() as u32;
                let others = total - tied * low;
                if tied == 1 {
                    let w = pips[..n].iter().position(|&p| p == low).expect("lowest");
                    self.winner = Some(w as u8);
                    self.scores[w] = others;
                } else if self.blocked_tie == BlockedTie::Split {
                    for (score, &p) in self.scores.iter_mut().zip(&pips[..n]) {
                        if p == low {
                            *score = others / tied;
                        }
                    }
                }
            }
        }
    }
}

/// The seat holding the highest double among `hands`, and its number.
pub fn highest_double(hands: &[DominoSet]) -> Option<(u8, u8)> {
    let mut best: Option<(u8, u8)> = None;
    for (s, h) in hands.iter().enumerate() {
        if let Some(d) = (*h & DominoSet::DOUBLES).last() {
            if best.is_none_or(|(_, n)| d.high() > n) {
                best = Some((s as u8, d.high()));
            }
        }
    }
    best
}
