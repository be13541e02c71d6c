//! One Texas 42 hand: the state shared by the phase modules (`bidding`,
//! `play`, `scoring`). A `Hand` is `Copy` and allocation-free.

use super::actions::{FOLLOW_ME, PASS, PLAY};
use crate::action::Action;
use crate::action::{ActionMask, IllegalAction};
use crate::domino::{Domino, DominoSet};
use crate::rules::Texas42Rules;
use serde::{Deserialize, Serialize};

/// The phase of a hand; each has its own `apply_*`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Each seat bids once, starting left of the shaker.
    Bidding,
    /// The declarer names trump (or a special contract).
    Declaring,
    /// Tricks.
    Playing,
    /// The hand is over (result settled, or thrown in).
    Done,
}

/// One trick as played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trick {
    /// Seat that led.
    pub leader: u8,
    /// Dominoes in play order (the first `len`).
    pub plays: [Domino; 4],
    /// Number of dominoes played so far.
    pub len: u8,
    /// Seat that won (valid once complete).
    pub winner: u8,
    /// 1 + count (valid once complete).
    pub points: u8,
}

impl Trick {
    const EMPTY: Trick = Trick { leader: 0, plays: [Domino::from_index(0); 4], len: 0, winner: 0, points: 0 };
    /// The dominoes played so far.
    pub fn played(&self) -> &[Domino] {
        &self.plays[..self.len as usize]
    }
}

/// How a finished hand ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// All passed under `all_pass = redeal`: thrown in.
    Redeal,
    /// Played out (or stopped early): whether the bidders made their contract.
    Settled {
        /// Bidders made it.
        made: bool,
    },
}

/// A Texas 42 hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    /// Rules in force.
    pub rules: Texas42Rules,
    /// The shaker.
    pub dealer: u8,
    /// The hands as dealt.
    pub dealt: [DominoSet; 4],
    /// Dominoes still held.
    pub hands: [DominoSet; 4],
    /// Current phase.
    pub phase: Phase,
    /// Seat to act.
    pub to_move: u8,
    /// Bid action id of each seat in bidding order (`bids[i]` by seat dealer+1+i).
    pub bids: [u8; 4],
    /// Bids made so far.
    pub num_bids: u8,
    /// The high bid's action id (`PASS` when none yet).
    pub high_bid: u8,
    /// The high bidder.
    pub bidder: u8,
    /// The seat that declares (bidder, or partner after Plunge/Splash).
    pub declarer: u8,
    /// The declaration's action id (valid from `Playing`).
    pub declaration: u8,
    /// Tricks: complete ones then the current one.
    pub tricks: [Trick; 7],
    /// Index of the current trick.
    pub trick: u8,
    /// Points (tricks + count) taken per team.
    pub points: [u8; 2],
    /// Tricks won per seat.
    pub tricks_won: [u8; 4],
    /// Set when `phase == Done`.
    pub outcome: Option<Outcome>,
    /// Legal actions of the seat to move (kept current by every `apply`).
    legal: ActionMask,
}

/// Team of a seat (seats 0, 2 are team 0).
#[inline]
pub const fn team(seat: u8) -> usize {
    (seat & 1) as usize
}

impl Hand {
    /// A new hand in the bidding phase.
    pub fn new(rules: Texas42Rules, dealer: u8, hands: [DominoSet; 4]) -> Hand {
        Hand {
            rules,
            dealer: dealer % 4,
            dealt: hands,
            hands,
            phase: Phase::Bidding,
            to_move: (dealer + 1) % 4,
            bids: [PASS as u8; 4],
            num_bids: 0,
            high_bid: PASS as u8,
            bidder: 0,
            declarer: 0,
            declaration: FOLLOW_ME as u8,
            tricks: [Trick::EMPTY; 7],
            trick: 0,
            points: [0; 2],
            tricks_won: [0; 4],
            outcome: None,
            legal: ActionMask::EMPTY,
        }
        .with_legal()
    }

    fn with_legal(mut self) -> Hand {
        self.legal = self.compute_legal();
        self
    }

    /// Legal actions of the seat to move.
    #[inline]
    pub fn legal_mask(&self) -> ActionMask {
        self.legal
    }

    fn compute_legal(&self) -> ActionMask {
        match self.phase {
            Phase::Bidding => self.bid_mask(),
            Phase::Declaring => self.declare_mask(),
            Phase::Playing => self.play_mask(),
            Phase::Done => ActionMask::EMPTY,
        }
    }

    /// Applies a legal action; on error the hand is unchanged.
    #[inline]
    pub fn apply(&mut self, a: Action) -> Result<(), IllegalAction> {
        let legal = self.legal_mask();
        if !legal.contains(a) {
            return Err(IllegalAction { action: a, legal });
        }
        match self.phase {
            Phase::Bidding => self.apply_bid(a),
            Phase::Declaring => self.apply_declare(a),
            Phase::Playing => self.apply_play(Domino::from_index(a - PLAY)),
            Phase::Done => unreachable!("no action is legal in a finished hand"),
        }
        self.legal = self.compute_legal();
        Ok(())
    }

    /// The hand is over.
    #[inline]
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The actions taken in this hand so far, in order (the bids, the
    /// declaration, the plays): a hand dealt the same and given them again is
    /// this hand.
    pub fn actions(&self) -> Vec<Action> {
        let mut out: Vec<Action> = self.bids[..self.num_bids as usize].iter().map(|&b| b as Action).collect();
        let declared = self.phase == Phase::Playing || (self.phase == Phase::Done && self.high_bid as Action != PASS);
        if declared {
            out.push(self.declaration as Action);
            for trick in &self.tricks[..=(self.trick as usize).min(6)] {
                out.extend(trick.played().iter().map(|d| PLAY + d.index()));
            }
        }
        out
    }
}
