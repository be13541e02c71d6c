//! A seat's view carries exactly its observation: `view.observe` equals the
//! state's `observe` for every seat at every step of hand and game episodes (so
//! agents that act from the observation, like trained policies, see only what
//! the seat may see), and its legal actions are the state's for the seat to
//! move, none for the others.

use bones_env::rules::DoublesRules;
use bones_env::SeatView;
use bones_env::{ActionMask, Doubles, Episode, Game, GameState, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check<G: Game>(game: G, seeds: u64) {
    for episode in [Episode::Hand, Episode::Game] {
        // Whole games are long: fewer of them.
        let seeds = if episode == Episode::Game { seeds / 10 } else { seeds };
        check_episodes(&game, episode, seeds);
    }
}

fn check_episodes<G: Game>(game: &G, episode: Episode, seeds: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let n = game.obs_len();
    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
    let mut checked = 0;
    for seed in 0..seeds {
        let mut s = game.new_state(seed, episode);
        loop {
            for seat in 0..game.num_players() {
                let v = s.view(seat);
                assert_eq!(v.seat(), seat);
                let legal = if s.current_seat() == Some(seat) { s.legal_mask() } else { ActionMask::EMPTY };
                assert_eq!(v.legal(), legal, "seed {seed}, seat {seat}");
                s.observe(seat, &mut a);
                v.observe(&mut b);
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
