//! The `random` agent: uniform over the legal actions, in every game.

use crate::agent::{Agent, AgentRng};
use bones_env::Action;
use bones_env::SeatView;
use rand::Rng;

/// Picks uniformly among the legal actions of the view.
#[derive(Copy, Clone, Debug, Default)]
pub struct RandomAgent;

impl<V: SeatView> Agent<V> for RandomAgent {
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action {
        let legal = view.legal();
        assert!(!legal.is_empty(), "random agent asked to act with no legal action");
        legal.nth(rng.random_range(0..legal.len()))
    }
}
