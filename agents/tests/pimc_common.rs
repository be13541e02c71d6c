//! What the PIMC tests of both games share: the positions they run on (every
//! decision point of deals played out from their seeds) and the check that
//! an agent decides the same from the same seed.

use bones_agents::{Agent, AgentRng};
use bones_env::series::{DealGame, Series};
use bones_env::{Action, Episode, Game, GameState};
use rand::{Rng, SeedableRng};

/// Every decision point of `deals` deals of each game, `(deal, view of the seat
/// to move)`. Game `key`'s deal `i` is dealt from `seed * 1_000_003 + key *
/// 10_007 + i`, and `choose` plays it on from `view` with a stream seeded from
/// that seed xor `salt`.
pub fn decision_points<G, V>(
    games: impl IntoIterator<Item = (u64, G)>,
    deals: u64,
    seed: u64,
    salt: u64,
    view: impl Fn(&G, &G::Deal, u8) -> V,
    mut choose: impl FnMut(&G::Deal, &V, &mut AgentRng) -> Action,
) -> Vec<(G::Deal, V)>
where
    G: DealGame + Game<State = Series<G>>,
{
    let mut out = Vec::new();
    for (key, game) in games {
        for i in 0..deals {
            let s = seed.wrapping_mul(1_000_003) + key * 10_007 + i;
            let mut rng = AgentRng::seed_from_u64(s ^ salt);
            let mut st = game.new_state(s, Episode::Hand);
            while let Some(seat) = st.current_seat() {
                let deal = *st.deal();
                let v = view(&game, &deal, seat as u8);
                let a = choose(&deal, &v, &mut rng);
                out.push((deal, v));
                st.apply(a).unwrap();
            }
        }
    }
    out
}

/// Two fresh agents from `make` deciding `v` from the same `seed`: asserts
/// they choose the same action and leave their streams in the same place.
/// Returns the action and the first agent.
pub fn same_seed_same_action<V, A: Agent<V>>(make: impl Fn() -> A, v: &V, seed: u64) -> (Action, A) {
    let (mut a, mut b) = (make(), make());
    let mut ra = AgentRng::seed_from_u64(seed);
    let mut rb = AgentRng::seed_from_u64(seed);
    let x = a.act(v, &mut ra);
    assert_eq!(x, b.act(v, &mut rb), "same seed, different action");
    assert_eq!(ra.random::<u64>(), rb.random::<u64>(), "same seed, different draws");
    (x, a)
}
