//! One agent's time per decision (`bones_agents::timing`, `bones bench --agent`).
//! The times themselves are wall clock and never asserted; what is counted is.

use bones_agents::agent::{Agent, AgentRng, ViewOf};
use bones_agents::arena::deal_seed;
use bones_agents::timing::time_decisions;
use bones_agents::AgentGame;
use bones_agents::{AgentFactory, AgentSpec};
use bones_env::rules::DoublesRules;
use bones_env::{Action, Doubles, Episode, Game, GameState, SeatView, Texas42, Texas42Rules};

fn heuristic<G: AgentGame>(game: &G) -> Box<dyn Agent<ViewOf<G>>> {
    AgentFactory::new().build(&AgentSpec::Heuristic, game).unwrap()
}

/// Decisions with a choice and forced ones in the hands `time_decisions` deals.
fn count_decisions<G: AgentGame>(game: &G, hands: u64, seed: u64) -> (usize, u64) {
    let mut agent = heuristic(game);
    let (mut choices, mut forced) = (0, 0);
    for i in 0..hands {
        let deal = deal_seed(seed, i);
        let mut rng = <AgentRng as rand::SeedableRng>::seed_from_u64(bones_env::seed::seating_seed(deal, 0));
        let mut st = game.new_state(deal, Episode::Hand);
        while let Some(seat) = st.current_seat() {
            let view = st.view(seat);
            if view.legal().len() > 1 {
                choices += 1;
            } else {
                forced += 1;
            }
            st.apply(agent.act(&view, &mut rng)).unwrap();
        }
    }
    (choices, forced)
}

#[test]
fn every_decision_of_every_seat_is_timed_and_forced_ones_are_counted_apart() {
    fn check<G: AgentGame>(game: G) {
        let t = time_decisions(&game, &mut heuristic(&game), 6, 11).unwrap();
        assert_eq!(t.hands, 6);
        assert_eq!((t.micros.len(), t.forced), count_decisions(&game, 6, 11), "{}", game.name());
        assert!(t.micros.windows(2).all(|w| w[0] <= w[1]), "sorted");
        assert!(t.quantile(0.0) <= t.quantile(0.5) && t.quantile(0.5) <= t.quantile(0.9));
        assert_eq!(t.quantile(1.0), *t.micros.last().unwrap());
        assert!(t.mean() >= t.quantile(0.0) && t.mean() <= t.quantile(1.0));
    }
    check(Texas42::new(Texas42Rules::STANDARD));
    check(Doubles::new(DoublesRules::default()));
}

/// Always plays action 0, legal or not.
struct Stubborn;

impl<V> Agent<V> for Stubborn {
    fn act(&mut self, _: &V, _: &mut AgentRng) -> Action {
        0
    }
}

#[test]
fn an_illegal_choice_is_the_agents_failure_naming_the_action() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let e = time_decisions(&game, &mut Stubborn, 2, 1).unwrap_err();
    assert!(e.what.contains(&format!("the agent chose {}", game.action_name(0))), "{e}");
    assert_eq!(e.expected, "a legal action");
}
