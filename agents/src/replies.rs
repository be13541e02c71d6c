//! The plays of a hand's first tricks valued with the other seats replying
//! from their own views: `search`'s `level1=N` (see [`crate::search`]).
//!
//! `pimc` and `search` value a candidate play in a sampled world with the
//! open-hand solver, so the partner and the opponents reply to it as if they
//! saw every hand (strategy fusion for the other seats): a lead that an
//! opponent could only beat by guessing where the dominoes lie is valued as
//! if the opponent knew. Here, in each world, the seats that follow the
//! candidate in the trick in progress play what the policy plays from *their*
//! observation in that world (its most probable legal play): a reply that
//! depends only on what that seat has seen, as a level-1 player models the
//! others. When the trick is complete, the open-hand solver values the rest of
//! the hand, as before. A seat that plays last in the trick has no replies to
//! model, so its plays are valued as `pimc` values them.
//!
//! The replies of every candidate in every world are asked of the policy in
//! one batch per seat still to play (at most three batches a decision).

use bones_env::texas42::{team, Hand, Outcome, NEL_O};
use bones_env::{Action, SeatView, Texas42View};

use crate::pimc::ranked;
use crate::policy::Policy;
use crate::solver::{remaining_points, Solver};

/// Scores every legal play of `v` over `worlds` (all at `v`'s position) as
/// `(action, worlds won, summed points)`, ranked as
/// [`PimcAgent::score_plays`](crate::pimc::PimcAgent::score_plays) ranks
/// them: the worlds in which the mover's side wins the contract fight (counted
/// only when `by_contract`), then the points it holds at the end of the hand
/// summed over the worlds (negated under Nel-O; solved only when the contract
/// leaves a tie at the top, as `pimc` solves them), with the rest of the trick
/// played by the policy (`obs_len` floats an observation) from each replying
/// seat's view.
pub fn score_plays(
    v: &Texas42View,
    worlds: &[Hand],
    by_contract: bool,
    policy: &mut dyn Policy,
    obs_len: usize,
    solver: &mut Solver,
) -> Vec<(Action, u32, i64)> {
    let legal: Vec<Action> = v.legal.iter().collect();
    let n = worlds.len();
    let mut ends: Vec<Hand> = Vec::with_capacity(legal.len() * n);
    for &a in &legal {
        for w in worlds {
            let mut h = *w;
            h.rules.early_end = false;
            h.apply(a).expect("a legal play of the view is legal in its worlds");
            ends.push(h);
        }
    }
    reply(v, &mut ends, policy, obs_len);
    let side = team(v.seat);
    let by_play = || ends.chunks(n.max(1));
    let wins: Vec<u32> =
        by_play().map(|c| c.iter().filter(|h| by_contract && wins_contract(h, side, solver)).count() as u32).collect();
    // Points break ties of the contract fight (every play's, as `pimc` solves them).
    let best = wins.iter().copied().max().unwrap_or(0);
    let solve_points = !by_contract || wins.iter().filter(|&&w| w == best).count() > 1;
    let sign = if v.declaration == Some(NEL_O) { -1 } else { 1 };
    let points = by_play().map(|c| match solve_points {
        true => c.iter().map(|h| sign * side_points(h, side, solver) as i64).sum(),
        false => 0,
    });
    let scores = legal.iter().zip(wins.iter().zip(points)).map(|(&a, (&w, p))| (a, w, p));
    ranked(scores)
}

/// Plays the rest of the trick in progress in every hand of `hands`, each
/// seat's play the policy's most probable from that seat's observation (the
/// match totals and hands played as in `v`).
fn reply(v: &Texas42View, hands: &mut [Hand], policy: &mut dyn Policy, obs_len: usize) {
    let trick = v.trick;
    let mut obs: Vec<f32> = Vec::new();
    loop {
        let waiting: Vec<usize> =
            (0..hands.len()).filter(|&i| !hands[i].is_done() && hands[i].trick == trick).collect();
        if waiting.is_empty() {
            return;
        }
        obs.clear();
        obs.resize(waiting.len() * obs_len, 0.0);
        let mut legal = Vec::with_capacity(waiting.len());
        for (row, &i) in waiting.iter().enumerate() {
            let mut sv = Texas42View::from_hand(&hands[i], hands[i].to_move);
            sv.totals = v.totals;
            sv.hands_played = v.hands_played;
            sv.observe(&mut obs[row * obs_len..(row + 1) * obs_len]);
            legal.push(sv.legal);
        }
        let logits = policy.logits(&obs, waiting.len());
        let width = logits.len() / waiting.len();
        for (row, &i) in waiting.iter().enumerate() {
            let l = &logits[row * width..(row + 1) * width];
            let a =
                legal[row].iter().fold(
                    (legal[row].nth(0), f32::NEG_INFINITY),
                    |b, a| {
                        if l[a] > b.1 {
                            (a, l[a])
                        } else {
                            b
                        }
                    },
                );
            hands[i].apply(a.0).expect("the policy's play is legal");
        }
    }
}

/// Whether `side` wins the contract fight of `h` with best play from here (as
/// the solver plays it; a finished hand's outcome).
fn wins_contract(h: &Hand, side: usize, solver: &mut Solver) -> bool {
    let bidders = team(h.bidder) == side;
    match h.outcome {
        Some(Outcome::Settled { made }) => made == bidders,
        Some(_) => false,
        None => solver.contract(h) == bidders,
    }
}

/// The points `side` holds at the end of `h` with best play from here.
fn side_points(h: &Hand, side: usize, solver: &mut Solver) -> i32 {
    let held = h.points[side] as i32;
    if h.is_done() {
        return held;
    }
    let future = solver.value(h);
    held + if team(h.bidder) == side { future } else { remaining_points(h) - future }
}
