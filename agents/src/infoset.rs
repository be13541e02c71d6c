//! The end of a Texas 42 hand searched over sampled worlds with every seat
//! choosing one play per information set: `search`'s
//! `continuation=infoset` (see [`crate::search`]).
//!
//! The open-hand solver values a play in each sampled world as if every seat
//! saw every hand, so in its continuation a seat (the searching seat too) may
//! play differently in two worlds it cannot tell apart: strategy fusion,
//! PIMC's known flaw. Here the rest of the hand is searched over all the
//! worlds at once, on the tree of public plays. At a node the worlds are those
//! whose hands allow the plays so far; the seat to move sees its own dominoes
//! and the public plays, so it must make the same play in every world in which
//! it holds the same dominoes (one *information set*). For each such group it
//! picks the play best summed over the group's worlds: the searching seat's
//! side maximises its value, the other side minimises it (Frank and Basin's
//! vector minimax, with the groups of every seat, not only the searcher's).
//! The searching seat holds the same dominoes in every world, so its later
//! plays are one per public history, never one per world; a hidden seat's
//! groups are single worlds early on (as the solver plays it) and merge as
//! its hand shrinks.
//!
//! A world's value is `pimc`'s objective for the searching seat's side: whether
//! it wins the contract fight (when the contract decides), then the points it
//! takes (fewer is better under Nel-O). As in the solver, early end is
//! ignored: every trick is played. A node left with one world is that world's
//! open-hand value, and the [`Solver`] (with its transposition table) finds it
//! as `pimc` does: the contract fight and the points, each with best play.
//!
//! The tree holds every public sequence of plays, so its size grows fast with
//! the tricks left: `search` uses it for the last few tricks only
//! (`continuation=infoset:exact=K`). With 128 distinct worlds a position
//! costs about 10 ms with 3 tricks left, 0.2 s with 4 and 7 s with 5, most
//! of it in the first tricks, where the hidden seats can hold any unseen
//! domino.

use bones_env::texas42::{team, Hand, Outcome, NEL_O};
use bones_env::{Action, ActionMask};

use crate::solver::{remaining_points, Solver};

/// Weight of the contract fight in a world's value: above any points swing.
const CONTRACT: i32 = 1000;

/// Scores every legal play of the seat to move in `worlds` (all at one
/// position of the play phase, the same for that seat's view) as
/// `(action, worlds won, summed points)`, the same scale as
/// [`PimcAgent::score_plays`](crate::pimc::PimcAgent::score_plays): worlds in
/// which the mover's side wins the contract fight (counted only when
/// `by_contract`), and the points it takes from here summed over the worlds
/// (negated under Nel-O), with every later play chosen per information set
/// (see the module docs). Not sorted; in action order.
pub fn score_plays(worlds: &[Hand], by_contract: bool, solver: &mut Solver) -> Vec<(Action, u32, i64)> {
    let Some(first) = worlds.first() else { return Vec::new() };
    // A world drawn more than once is searched once and counted as often.
    let mut hands: Vec<Hand> = Vec::with_capacity(worlds.len());
    let mut copies: Vec<u32> = Vec::with_capacity(worlds.len());
    for w in worlds {
        let mut h = *w;
        h.rules.early_end = false;
        match hands.iter().position(|x| x.hands == h.hands) {
            Some(i) => copies[i] += 1,
            None => {
                hands.push(h);
                copies.push(1);
            }
        }
    }
    let seat = first.to_move;
    let mut search = Search {
        solver,
        side: team(seat),
        by_contract,
        sign: if first.declaration as Action == NEL_O { -1 } else { 1 },
        start: first.points[team(seat)] as i32,
    };
    let (actions, _, table) = search.children(&hands, &copies);
    let n = hands.len();
    actions
        .iter()
        .enumerate()
        .map(|(k, &a)| {
            let (mut won, mut points) = (0, 0);
            for (&v, &c) in table[k * n..(k + 1) * n].iter().zip(&copies) {
                let w = v > CONTRACT / 2;
                won += w as u32 * c;
                points += (v - if w { CONTRACT } else { 0 }) as i64 * c as i64;
            }
            (a, if by_contract { won } else { 0 }, points)
        })
        .collect()
}

/// What the search values, fixed at its root, and the solver for its single
/// worlds.
struct Search<'a> {
    /// Values the nodes left with one world (there, every information set is
    /// that world).
    solver: &'a mut Solver,
    /// The searching seat's side.
    side: usize,
    /// The contract fight counts first.
    by_contract: bool,
    /// +1, or −1 under Nel-O (fewer points are better).
    sign: i32,
    /// The side's points at the root.
    start: i32,
}

impl Search<'_> {
    /// A world's value for the searching side: whether it wins the contract
    /// fight (when that counts), then the points it takes from the root
    /// (`points`: those it holds at the end, or will).
    fn value(&self, won: bool, points: i32) -> i32 {
        let points = self.sign * (points - self.start);
        if self.by_contract && won {
            CONTRACT + points
        } else {
            points
        }
    }

    /// A finished world's value.
    fn end(&self, h: &Hand) -> i32 {
        let won = match h.outcome {
            Some(Outcome::Settled { made }) => made == (team(h.bidder) == self.side),
            _ => false,
        };
        self.value(won, h.points[self.side] as i32)
    }

    /// Every world's value with best play by information set from here
    /// (`copies[i]`: how many times world `i` counts).
    fn values(&mut self, hands: &[Hand], copies: &[u32]) -> Vec<i32> {
        if hands[0].is_done() {
            return hands.iter().map(|h| self.end(h)).collect();
        }
        if let [h] = hands {
            // One world: every information set is that world.
            return vec![self.single(h)];
        }
        let n = hands.len();
        let (actions, legal, table) = self.children(hands, copies);
        let mover = hands[0].to_move as usize;
        let maximise = team(mover as u8) == self.side;
        // Group the worlds by the mover's dominoes: one choice per group.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| hands[i].hands[mover].0);
        let mut out = vec![0; n];
        for group in order.chunk_by(|&i, &j| hands[i].hands[mover] == hands[j].hands[mover]) {
            let legal = legal[group[0]];
            let mut best: Option<(usize, i64)> = None;
            for (k, &a) in actions.iter().enumerate() {
                if !legal.contains(a) {
                    continue;
                }
                let sum: i64 = group.iter().map(|&i| table[k * n + i] as i64 * copies[i] as i64).sum();
                let better = match best {
                    None => true,
                    Some((_, b)) => (maximise && sum > b) || (!maximise && sum < b),
                };
                if better {
                    best = Some((k, sum));
                }
            }
            let (k, _) = best.expect("a seat to move has a legal play");
            for &i in group {
                out[i] = table[k * n + i];
            }
        }
        out
    }

    /// One world's value with best play by both sides (its information sets
    /// are single worlds), as `pimc` values a world: the open-hand solver's
    /// contract fight (when it counts) and, separately, its points.
    fn single(&mut self, h: &Hand) -> i32 {
        let bidders = team(h.bidder) == self.side;
        let future = self.solver.value(h);
        let future = if bidders { future } else { remaining_points(h) - future };
        let won = self.by_contract && self.solver.contract(h) == bidders;
        self.value(won, h.points[self.side] as i32 + future)
    }

    /// The plays legal in any of `hands` (in action order), each world's legal
    /// plays, and the table of each world's value after each play
    /// (`table[k * n + i]`, for world `i` and play `k`; 0 where the play is
    /// not legal in the world).
    fn children(&mut self, hands: &[Hand], copies: &[u32]) -> (Vec<Action>, Vec<ActionMask>, Vec<i32>) {
        let n = hands.len();
        let legal: Vec<ActionMask> = hands.iter().map(|h| h.legal_mask()).collect();
        let union = ActionMask(legal.iter().fold(0, |m, l| m | l.0));
        let actions: Vec<Action> = union.iter().collect();
        let mut table = vec![0; actions.len() * n];
        let mut idx = Vec::with_capacity(n);
        let mut next = Vec::with_capacity(n);
        let mut next_copies = Vec::with_capacity(n);
        for (k, &a) in actions.iter().enumerate() {
            idx.clear();
            next.clear();
            next_copies.clear();
            for (i, (h, l)) in hands.iter().zip(&legal).enumerate() {
                if l.contains(a) {
                    let mut c = *h;
                    c.apply(a).expect("the play is legal in this world");
                    idx.push(i);
                    next.push(c);
                    next_copies.push(copies[i]);
                }
            }
            for (&i, v) in idx.iter().zip(self.values(&next, &next_copies)) {
                table[k * n + i] = v;
            }
        }
        (actions, legal, table)
    }
}
