//! Resampling what one seat cannot see of a state, for search agents written
//! outside Bones (PIMC, information-set MCTS): [`resample`](crate::resample()) returns a full state
//! consistent with everything the seat knows, drawn **uniformly** among the
//! consistent deals as Bones' own [`pimc`](crate::pimc) draws its worlds.
//!
//! - Texas 42 ([`resample_texas42`]): the other seats' hands, drawn by
//!   [`WorldSampler`] from the seat's view (voids, Sevens distances,
//!   Plunge/Splash doubles) and rebuilt by replaying the hand's public
//!   actions; the game totals, shaker, hands played and the stream of later
//!   deals are kept.
//! - Doubles ([`resample_doubles`]): the other hands and the boneyard, drawn by
//!   [`DoublesSampler`] (draws, passes, the opening), the boneyard in a
//!   uniformly shuffled order. Two positions the sampler's constraints do not
//!   describe are handled here: before the opening, a seat other than the
//!   opener knows that the opener holds the highest double of the hands (the
//!   draw is split by which double that is, in proportion to the deals of
//!   each); and when another seat has just drawn, the domino it drew is any
//!   unseen one (drawn with the boneyard, one of them then given to it),
//!   while the rest of its hand keeps what its draws and passes proved.
//!
//! The seat's view (and observation) of the result equals its view of the
//! original; its own hand is unchanged; the state plays on legally. The draw
//! uses only `rng`, so it is deterministic for a seed. Errors are values
//! ([`ResampleError`]), never panics.

use bones_env::doubles::{Round, NO_SEAT};
use bones_env::{Domino, DominoSet, DoublesState, GameState, Texas42State};
use rand::Rng;

use crate::agent::AgentRng;
use crate::pimc::doubles::{DoublesConstraints, DoublesSampler};
use crate::pimc::WorldSampler;

/// Why a state could not be resampled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResampleError {
    /// The seat is not at the table.
    #[error("no seat {seat}: seats run 0..{players}")]
    Seat {
        /// The seat asked for.
        seat: usize,
        /// Players at the table.
        players: usize,
    },
    /// The episode is over: nothing is left to play.
    #[error("the episode is over: there is nothing left to resample (reset first)")]
    Over,
    /// No deal is consistent with the seat's view (not possible for a state
    /// reached by legal play).
    #[error("no deal is consistent with what seat {seat} knows")]
    NoDeal {
        /// The seat asked for.
        seat: usize,
    },
}

/// A Texas 42 state `seat` cannot tell from `state`: the other hands drawn
/// uniformly by [`WorldSampler`] from `seat`'s view.
pub fn resample_texas42(state: &Texas42State, seat: usize, rng: &mut AgentRng) -> Result<Texas42State, ResampleError> {
    if seat >= 4 {
        return Err(ResampleError::Seat { seat, players: 4 });
    }
    if state.is_terminal() {
        return Err(ResampleError::Over);
    }
    let view = state.view(seat);
    let sampler = WorldSampler::new(&view);
    if sampler.relaxed() {
        return Err(ResampleError::NoDeal { seat });
    }
    let hand = sampler.world(&view, rng).ok_or(ResampleError::NoDeal { seat })?;
    Ok(state.with_hand(hand))
}

/// A Doubles state `seat` cannot tell from `state`: the other hands and the
/// boneyard drawn uniformly by [`DoublesSampler`] from `seat`'s view (see the
/// module docs for the opening and a just-drawn domino).
pub fn resample_doubles(state: &DoublesState, seat: usize, rng: &mut AgentRng) -> Result<DoublesState, ResampleError> {
    let players = state.game().players() as usize;
    if seat >= players {
        return Err(ResampleError::Seat { seat, players });
    }
    if state.is_terminal() {
        return Err(ResampleError::Over);
    }
    let view = state.view(seat);
    let no_deal = ResampleError::NoDeal { seat };
    let mover = view.to_move.ok_or(ResampleError::Over)?;
    let mut cons = DoublesConstraints::from_view(&view);
    let round = if mover as usize == seat {
        // The sampler's own case: the view of the seat to move.
        let (hands, boneyard) = sampler(cons).ok_or(no_deal.clone())?.sample(rng);
        view.world(hands, &shuffled(boneyard, rng))
    } else if view.just_drew {
        // The mover holds what it held before drawing (what its draws and
        // passes proved still holds of it) and one domino from the boneyard.
        let m = mover as usize;
        if cons.count[m] == 0 {
            return Err(no_deal);
        }
        cons.count[m] -= 1;
        cons.boneyard += 1;
        if view.draws[m] == 1 {
            // Before this draw it held only dealt dominoes.
            let opening = opening(&view.played_by, &view.play_index, view.board.placed).ok_or(no_deal.clone())?;
            cons.allowed[m] = cons.allowed[m] - doubles_above(opening.high());
        }
        let (mut hands, pool) = sampler(cons).ok_or(no_deal.clone())?.sample(rng);
        let d = pool.iter().nth(rng.random_range(0..pool.len())).ok_or(no_deal.clone())?;
        hands[m].insert(d);
        let mut unseen_drawn = view;
        unseen_drawn.just_drew = false;
        unseen_drawn.world(hands, &shuffled(pool - d.bit(), rng)).map(|mut r: Round| {
            r.drawn = Some(d);
            r.refresh();
            r
        })
    } else if !view.board.is_open() {
        // Before the opening: the mover holds the highest double of the hands.
        let (hands, boneyard) = before_opening(cons, mover as usize, rng).ok_or(no_deal.clone())?;
        view.world(hands, &shuffled(boneyard, rng))
    } else {
        let (hands, boneyard) = sampler(cons).ok_or(no_deal.clone())?.sample(rng);
        view.world(hands, &shuffled(boneyard, rng))
    };
    let round = round.ok_or(no_deal)?;
    Ok(state.with_round(round))
}

/// The sampler of `cons`, or `None` when no assignment satisfies them.
fn sampler(cons: DoublesConstraints) -> Option<DoublesSampler> {
    let s = DoublesSampler::from_constraints(cons);
    (!s.relaxed() && s.count() > 0).then_some(s)
}

/// The doubles higher than `n`-`n`.
fn doubles_above(n: u8) -> DominoSet {
    DominoSet::DOUBLES.iter().filter(|d| d.high() > n).collect()
}

/// The opening double (play index 0), if played.
fn opening(played_by: &[u8; 28], play_index: &[u8; 28], placed: DominoSet) -> Option<Domino> {
    placed.iter().find(|d| played_by[d.index()] != NO_SEAT && play_index[d.index()] == 0)
}

/// Before the opening, for a seat other than the opener `mover`: the deals
/// split by the double `h` the opener holds as the highest of the hands (the
/// higher doubles all in the boneyard), one chosen in proportion to its deals,
/// then a deal drawn uniformly within it.
fn before_opening(cons: DoublesConstraints, mover: usize, rng: &mut AgentRng) -> Option<([DominoSet; 4], DominoSet)> {
    let mine = cons.allowed[cons.seat as usize] & DominoSet::DOUBLES;
    let floor = mine.iter().map(|d| d.high()).max();
    let mut options: Vec<(Domino, DoublesSampler)> = Vec::new();
    for h in cons.unseen & DominoSet::DOUBLES {
        if floor.is_some_and(|f| f >= h.high()) || cons.count[mover] == 0 {
            continue;
        }
        let mut c = cons;
        c.unseen.remove(h);
        c.count[mover] -= 1;
        let above = doubles_above(h.high());
        for s in 0..c.players as usize {
            if s != c.seat as usize {
                c.allowed[s] = c.allowed[s] - above - h.bit();
            }
        }
        if let Some(s) = sampler(c) {
            options.push((h, s));
        }
    }
    let total: u64 = options.iter().map(|(_, s)| s.count()).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.random_range(0..total);
    for (h, s) in options {
        if pick < s.count() {
            let (mut hands, boneyard) = s.sample(rng);
            hands[mover].insert(h);
            return Some((hands, boneyard));
        }
        pick -= s.count();
    }
    None
}

/// The dominoes of `set` in a uniformly shuffled order.
fn shuffled(set: DominoSet, rng: &mut AgentRng) -> Vec<Domino> {
    let mut doms: Vec<Domino> = set.iter().collect();
    for j in (1..doms.len()).rev() {
        let k = rng.random_range(0..=j);
        doms.swap(j, k);
    }
    doms
}
