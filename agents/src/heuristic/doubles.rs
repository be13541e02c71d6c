//! The Doubles baselines: [`DoublesHeuristic`] (`heuristic`) and
//! [`HighestAgent`] (`highest`).
//!
//! [`DoublesHeuristic`] scores each legal play by the board it leaves:
//! - the pips shed (the player who dominoes scores the others' pips, and a
//!   blocked round goes to the lowest hand), weight 1 per pip;
//! - its own options: each domino left in hand that is playable on the new board,
//!   weight 2 (so a double that unlocks a number counts the dominoes of that number
//!   it frees, plus 0.5 each, up to three, for the unlock itself);
//! - the others' options: each unseen domino playable on the new board, scaled to
//!   a seven-domino hand, weight -12 (closing numbers and leaving locked ends that
//!   only a double the others are unlikely to hold can open).
//!
//! The weights were chosen by A/B runs against `highest` (blocking the others
//! matters most: it took the edge from +0.3 to +1.4 points per round). Opening
//! doubles, draws and passes are forced moves.
//! [`HighestAgent`] plays the legal domino with the highest pip total
//! ([`bones_env::doubles::highest_pip_in`]).

use crate::agent::{Agent, AgentRng};
use bones_env::doubles::{decode, highest_pip_in, Move};
use bones_env::{Action, Domino, DominoSet, DoublesView};

/// The `heuristic` Doubles player (rules in the module docs): each legal play
/// is scored on the board it leaves, with these weights.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DoublesHeuristic {
    /// Per pip of the domino played (shedding high pips).
    pub pips: f32,
    /// Per domino left in hand that is playable on the new board.
    pub mine: f32,
    /// Per unseen domino playable on the new board, scaled by 7 / unseen
    /// (negative: fewer options for the others).
    pub theirs: f32,
    /// Extra per number newly unlocked when the hand holds more of it.
    pub unlock: f32,
}

impl Default for DoublesHeuristic {
    fn default() -> Self {
        DoublesHeuristic { pips: 1.0, mine: 2.0, theirs: -12.0, unlock: 0.5 }
    }
}

impl Agent<DoublesView> for DoublesHeuristic {
    fn act(&mut self, v: &DoublesView, _rng: &mut AgentRng) -> Action {
        let legal = v.legal;
        if legal.len() == 1 {
            return legal.iter().next().expect("a legal action");
        }
        let unseen = v.unseen();
        let mut best: Option<(Action, f32)> = None;
        for a in legal.iter() {
            let s = match decode(a) {
                Some(Move::Attach(d, e)) => self.score(v, unseen, d, e),
                Some(Move::Open(d)) => d.pips() as f32,
                _ => -100.0,
            };
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((a, s));
            }
        }
        best.expect("a legal action").0
    }
}

impl DoublesHeuristic {
    /// The score of attaching `d` to an open end showing `e`.
    pub fn score(&self, v: &DoublesView, unseen: DominoSet, d: Domino, e: u8) -> f32 {
        let rest = v.hand - d.bit();
        let mut board = v.board;
        board.attach(d, e);
        let playable = board.playable();
        let mine = (rest & playable).len() as f32;
        let theirs = (unseen & playable).len() as f32 * 7.0 / unseen.len().max(1) as f32;
        let mut s = self.pips * d.pips() as f32 + self.mine * mine + self.theirs * theirs;
        if d.is_double() && !v.board.is_unlocked(e) {
            s += self.unlock * (rest & DominoSet::with_pip(e)).len().min(3) as f32;
        }
        s
    }
}

/// The `highest` Doubles baseline: the legal domino with the highest pip total.
#[derive(Copy, Clone, Debug, Default)]
pub struct HighestAgent;

impl Agent<DoublesView> for HighestAgent {
    fn act(&mut self, v: &DoublesView, _rng: &mut AgentRng) -> Action {
        highest_pip_in(v.legal).expect("a legal action")
    }
}
