//! A seat's view carries exactly its observation: `view.observe` equals the
//! state's `observe` for every seat at every step (so agents that act from the
//! observation, like trained policies, see only what the seat may see).

use bones_agents::SeatView;
use bones_env::rules::DoublesRules;
use bones_env::{Doubles, Episode, Game, GameState, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check<G: Game>(game: G, seeds: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let n = game.obs_len();
    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
    let mut checked = 0;
    for seed in 0..seeds {
        let mut s = game.new_state(seed, Episode::Hand);
        loop {
            for seat in 0..game.num_players() {
                s.observe(seat, &mut a);
                s.view(seat).observe(&mut b);
                assert_eq!(a, b, "seed {seed}, seat {seat}");
                checked += 1;
            }
            if s.is_terminal() {
                break;
            }
            let m = s.legal_mask();
            s.apply(m.nth(rng.random_range(0..m.len()))).unwrap();
        }
    }
    assert!(checked > 100);
}

#[test]
fn texas42_views_observe_exactly_what_the_state_shows_the_seat() {
    check(Texas42::new(Texas42Rules::FULL), 150);
    check(Texas42::new(Texas42Rules::STANDARD), 50);
}

#[test]
fn doubles_views_observe_exactly_what_the_state_shows_the_seat() {
    for players in 2..=4 {
        let rules = DoublesRules { players, ..Default::default() };
        check(Doubles::new(rules), 60);
    }
}
