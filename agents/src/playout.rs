//! Policy playouts: `search`'s `continuation=policy`. A candidate action is
//! valued in a sampled world by playing the hand out with the policy in every
//! seat, each seat deciding from its own view of that world (its dominoes and
//! what is public), until `exact` tricks are left; the open-hand solver then
//! finishes the hand exactly.
//!
//! The solver's continuation plays every seat as if all hands were known, so
//! a candidate is valued as if the searcher, its partner and its opponents
//! will later see through the dominoes they cannot see (strategy fusion,
//! PIMC's known flaw). In a playout nobody sees a hidden hand: the searcher's
//! own later choices depend only on what it knows, so they are the same in
//! every world that looks the same to it. Near the end of a hand little is
//! hidden and the solver is both exact and cheap, hence the hand-over.
//!
//! The playouts of one decision run in lock step: every (world, candidate)
//! row still playing is asked of the policy in one batch per turn, and the
//! policy's most probable legal action (ties to the lowest id) is played. A
//! world drawn more than once is played out once and counted as often as it
//! was drawn. Nothing is random: the scores depend only on the worlds.

use std::collections::HashMap;

use bones_env::texas42::{team, Hand, Outcome, Phase};
use bones_env::{Action, ActionMask, SeatView, Texas42View};

use crate::policy::Policy;
use crate::solver::{remaining_points, Solver};

/// The playouts of one decision: the policy and solver they use and where the
/// solver takes over.
pub struct Playouts<'a> {
    /// The policy playing every seat.
    pub policy: &'a mut dyn Policy,
    /// The solver finishing the last `exact` tricks.
    pub solver: &'a mut Solver,
    /// The policy's observation length.
    pub obs_len: usize,
    /// Tricks left (the one in progress counted) when the solver takes over.
    pub exact: u8,
}

/// One candidate's results over the worlds (a world drawn twice counts twice).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The candidate.
    pub action: Action,
    /// Worlds in which the mover's team wins the contract fight (bidders: the
    /// contract is made; defenders: it is set; a thrown-in hand: neither).
    pub won: u32,
    /// Points the mover's team takes from here, summed.
    pub points: i64,
    /// What the hand awards the mover's team minus what it awards the other
    /// (marks, or game points under `points` scoring), summed.
    pub award: i64,
    /// Worlds in which the mover ends up the high bidder.
    pub contracts: u32,
    /// Of those, the worlds in which its contract is made.
    pub made: u32,
}

/// The candidates' awards world by world: what [`Playouts::awards`] returns
/// beside the tallies, for comparing candidates on the same worlds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorldAwards {
    /// Times each distinct world was drawn.
    pub copies: Vec<u32>,
    /// `award[w * candidates + c]`: candidate `c`'s award in distinct world
    /// `w` (as [`Tally::award`], for one copy).
    pub award: Vec<i64>,
}

/// One world with one candidate applied, being played out.
struct Row {
    hand: Hand,
    /// Index of the candidate in the result.
    candidate: usize,
    /// Times the world was drawn.
    copies: u32,
    /// The award at the end (for one copy).
    award: i64,
}

impl Playouts<'_> {
    /// Every candidate of `v` (legal actions of the seat to move: bids,
    /// declarations or plays) with its [`Tally`] over `worlds` (each `v`'s
    /// position in one deal), in candidate id order.
    pub fn scores(&mut self, v: &Texas42View, worlds: &[Hand], candidates: ActionMask) -> Vec<Tally> {
        self.awards(v, worlds, candidates).0
    }

    /// [`Playouts::scores`], and each candidate's award in each distinct
    /// world (worlds in the order they first come in `worlds`).
    pub fn awards(&mut self, v: &Texas42View, worlds: &[Hand], candidates: ActionMask) -> (Vec<Tally>, WorldAwards) {
        let me = team(v.seat);
        let mut tally: Vec<Tally> = candidates.iter().map(|action| Tally { action, ..Tally::default() }).collect();
        let Some(first) = worlds.first() else { return (tally, WorldAwards::default()) };
        let start = first.points[me] as i64;
        let mut rows: Vec<Row> = Vec::with_capacity(worlds.len() * tally.len());
        let mut seen: HashMap<[u32; 4], usize> = HashMap::with_capacity(worlds.len());
        for w in worlds {
            match seen.get(&w.dealt.map(|s| s.0)) {
                Some(&first_row) => {
                    for r in &mut rows[first_row..first_row + tally.len()] {
                        r.copies += 1;
                    }
                }
                None => {
                    seen.insert(w.dealt.map(|s| s.0), rows.len());
                    for (candidate, t) in tally.iter().enumerate() {
                        let mut hand = *w;
                        hand.apply(t.action).expect("a candidate is legal in every world of the view");
                        rows.push(Row { hand, candidate, copies: 1, award: 0 });
                    }
                }
            }
        }
        let n = self.obs_len;
        let mut obs: Vec<f32> = Vec::new();
        let mut live: Vec<usize> = (0..rows.len()).collect();
        while !live.is_empty() {
            let mut asking = Vec::with_capacity(live.len());
            for &i in &live {
                let r = &mut rows[i];
                match self.advance(&mut r.hand) {
                    Some(end) => {
                        let t = &mut tally[r.candidate];
                        let c = r.copies;
                        let bidders = team(end.bidder);
                        let made = matches!(end.outcome, Some(Outcome::Settled { made: true }));
                        let settled = matches!(end.outcome, Some(Outcome::Settled { .. }));
                        let award = end.award();
                        r.award = award[me] as i64 - award[1 - me] as i64;
                        t.won += (settled && made == (bidders == me)) as u32 * c;
                        t.points += (end.points[me] as i64 - start) * c as i64;
                        t.award += r.award * c as i64;
                        if settled && end.bidder == v.seat {
                            t.contracts += c;
                            t.made += made as u32 * c;
                        }
                    }
                    None => asking.push(i),
                }
            }
            if asking.is_empty() {
                break;
            }
            obs.clear();
            obs.resize(asking.len() * n, 0.0);
            for (k, &i) in asking.iter().enumerate() {
                let h = &rows[i].hand;
                let mut sv = Texas42View::from_hand(h, h.to_move);
                sv.totals = v.totals;
                sv.hands_played = v.hands_played;
                sv.observe(&mut obs[k * n..(k + 1) * n]);
            }
            let logits = self.policy.logits(&obs, asking.len());
            let width = logits.len() / asking.len();
            for (k, &i) in asking.iter().enumerate() {
                let h = &mut rows[i].hand;
                let a = most_probable(&logits[k * width..(k + 1) * width], h.legal_mask());
                h.apply(a).expect("the most probable legal action is legal");
            }
            live = asking;
        }
        let awards = WorldAwards {
            copies: rows.iter().step_by(tally.len().max(1)).map(|r| r.copies).collect(),
            award: rows.iter().map(|r| r.award).collect(),
        };
        (tally, awards)
    }

    /// Plays forced moves of `h`; returns the hand at its end when it is over,
    /// or as the solver completes it once `exact` tricks are left (the
    /// outcome set and the points split as best play by both sides splits
    /// them). `None` when a seat has a choice.
    fn advance(&mut self, h: &mut Hand) -> Option<Hand> {
        loop {
            if h.is_done() {
                return Some(*h);
            }
            if h.phase == Phase::Playing && 7 - h.trick <= self.exact {
                let bidders = team(h.bidder);
                let mut end = *h;
                let theirs = self.solver.value(h);
                end.points[bidders] += theirs as u8;
                end.points[1 - bidders] += (remaining_points(h) - theirs) as u8;
                end.outcome = Some(Outcome::Settled { made: self.solver.contract(h) });
                end.phase = Phase::Done;
                return Some(end);
            }
            let legal = h.legal_mask();
            if legal.len() > 1 {
                return None;
            }
            h.apply(legal.nth(0)).expect("the only legal action is legal");
        }
    }
}

/// The legal action with the highest logit; ties to the lowest id.
fn most_probable(logits: &[f32], legal: ActionMask) -> Action {
    let mut best = legal.nth(0);
    for a in legal.iter() {
        if logits[a] > logits[best] {
            best = a;
        }
    }
    best
}
