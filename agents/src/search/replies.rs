//! Level-1 replies in the first trick (`search:replies=K`): each candidate is
//! valued after the other seats' replies to it in the trick, each reply the
//! replying seat's own `pimc` choice over `K` worlds sampled from that seat's
//! view (its own hand in the searcher's world, the public record), not the
//! open-hand solver's reply that knows every hand. From the end of the trick
//! the open-hand solver values the position, as it does without the option.

use bones_env::texas42::{team, Hand};
use bones_env::{Action, Texas42View};

use crate::agent::AgentRng;
use crate::pimc::{ranked, PimcAgent, WorldSampler};

/// Every legal action of `v` with the worlds (of `worlds`) where the mover's
/// side wins the contract fight and the points it takes, its replies in the
/// trick in progress made at level 1 from `k` worlds each, best first (the
/// points are solved only when the contract does not decide alone).
pub(super) fn score_plays(
    pimc: &mut PimcAgent,
    v: &Texas42View,
    worlds: &[Hand],
    k: u32,
    rng: &mut AgentRng,
) -> Vec<(Action, u32, i64)> {
    let me = team(v.seat);
    let contract = pimc.contract_decides(v);
    let mut ends: Vec<(Action, Vec<Hand>)> = Vec::with_capacity(v.legal.len());
    for a in v.legal.iter() {
        let after = worlds.iter().map(|w| end_of_trick(pimc, v, w, a, k, rng)).collect();
        ends.push((a, after));
    }
    let mut wins = [0u32; 28];
    if contract {
        for (a, after) in &ends {
            wins[*a] = after.iter().filter(|h| side_wins(pimc, h, me)).count() as u32;
        }
    }
    let best = ends.iter().map(|(a, _)| wins[*a]).max().unwrap_or(0);
    let tied = ends.iter().filter(|(a, _)| wins[*a] == best).count() > 1;
    let mut points = [0i64; 28];
    if !contract || tied {
        let sign = if v.declaration == Some(bones_env::texas42::NEL_O) { -1 } else { 1 };
        for (a, after) in &ends {
            points[*a] = sign * after.iter().map(|h| side_points(pimc, h, me)).sum::<i64>();
        }
    }
    ranked(ends.iter().map(|(a, _)| (*a, wins[*a], points[*a])))
}

/// World `w` after `a` and the level-1 replies to it, at the end of the trick
/// in progress (a first trick: the hand goes on). Early end is turned off in
/// the copy, as the solver ignores it, so that the solver values the rest.
fn end_of_trick(pimc: &mut PimcAgent, v: &Texas42View, w: &Hand, a: Action, k: u32, rng: &mut AgentRng) -> Hand {
    let mut h = *w;
    h.rules.early_end = false;
    let trick = h.trick;
    h.apply(a).expect("a candidate is legal in every world");
    while h.trick == trick {
        let legal = h.legal_mask();
        let reply = if legal.len() == 1 {
            legal.nth(0)
        } else {
            let mut view = Texas42View::from_hand(&h, h.to_move);
            view.totals = v.totals;
            view.hands_played = v.hands_played;
            let theirs = WorldSampler::new(&view).worlds(&view, k, rng);
            pimc.score_plays(&view, &theirs)[0].0
        };
        h.apply(reply).expect("a reply is legal");
    }
    h
}

/// Whether team `me` wins the contract fight of `h` with best play from here.
fn side_wins(pimc: &mut PimcAgent, h: &Hand, me: usize) -> bool {
    pimc.solver().contract(h) == (team(h.bidder) == me)
}

/// The points team `me` takes in the whole hand of `h`, best play from here.
fn side_points(pimc: &mut PimcAgent, h: &Hand, me: usize) -> i64 {
    let bidders_rest = pimc.solver().value(h) as i64;
    let rest = 42 - h.points[0] as i64 - h.points[1] as i64;
    h.points[me] as i64 + if team(h.bidder) == me { bidders_rest } else { rest - bidders_rest }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Agent;
    use bones_env::texas42::Phase;
    use bones_env::{Episode, Game, GameState, Texas42, Texas42Rules};
    use rand::SeedableRng;

    /// The view of the seat to move in the first trick after `plays` plays of
    /// it, in hands of random bids and plays.
    fn first_trick_views(plays: u8, hands: u64) -> Vec<Texas42View> {
        let g = Texas42::new(Texas42Rules::STANDARD);
        let mut out = Vec::new();
        for seed in 0..hands {
            let mut rng = AgentRng::seed_from_u64(seed);
            let mut st = g.new_state(seed, Episode::Hand);
            while let Some(seat) = st.current_seat() {
                let h = st.hand();
                let v = Texas42View::from_hand(h, seat as u8);
                if h.phase == Phase::Playing && h.trick == 0 && h.tricks[0].len == plays {
                    out.push(v);
                    break;
                }
                st.apply(crate::random::RandomAgent.act(&v, &mut rng)).unwrap();
            }
        }
        out
    }

    #[test]
    fn the_last_seat_of_the_trick_scores_its_plays_as_the_open_hand_search_does() {
        // No seat replies after the fourth play: the values at the end of the
        // trick must add up to what the solver gives each action from before it.
        let mut pimc = PimcAgent::new(6);
        let views = first_trick_views(3, 40);
        assert!(views.len() >= 20, "{} positions", views.len());
        for (i, v) in views.iter().enumerate() {
            let mut rng = AgentRng::seed_from_u64(i as u64);
            let worlds = WorldSampler::new(v).worlds(v, 6, &mut rng);
            let open = pimc.score_plays(v, &worlds);
            let level1 = score_plays(&mut pimc, v, &worlds, 3, &mut rng);
            assert_eq!(level1, open, "position {i}");
        }
    }

    #[test]
    fn replies_are_legal_and_the_same_for_a_seed() {
        let mut pimc = PimcAgent::new(4);
        for (i, v) in first_trick_views(0, 10).iter().enumerate() {
            let mut rng = AgentRng::seed_from_u64(i as u64);
            let worlds = WorldSampler::new(v).worlds(v, 3, &mut rng);
            for w in &worlds {
                for a in v.legal.iter() {
                    let mut r1 = AgentRng::seed_from_u64(7);
                    let mut r2 = AgentRng::seed_from_u64(7);
                    let end = end_of_trick(&mut pimc, v, w, a, 2, &mut r1);
                    assert!(end.trick == 1 && end.phase == Phase::Playing, "the trick is over, the hand is not");
                    assert_eq!(end, end_of_trick(&mut pimc, v, w, a, 2, &mut r2));
                }
            }
        }
    }
}
