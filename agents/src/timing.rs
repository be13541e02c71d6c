//! Time per decision of one agent (`bones bench --agent`): the agent plays
//! every seat of seeded hands on the calling thread and each decision is
//! timed. A benchmark, never asserted by a test: wall-clock times differ from
//! machine to machine and run to run.
//!
//! Decisions with a single legal action are counted apart ([`DecisionTimes::forced`]):
//! agents answer them without thinking, and counting them would pull the
//! median down.
//!
//! ```
//! use bones_agents::random::RandomAgent;
//! use bones_agents::timing::time_decisions;
//! use bones_env::{Texas42, Texas42Rules};
//!
//! let t = time_decisions(&Texas42::new(Texas42Rules::STANDARD), &mut RandomAgent, 2, 7).unwrap();
//! assert_eq!(t.hands, 2);
//! assert!(t.quantile(0.5) <= t.quantile(0.9));
//! ```

use std::time::Instant;

use crate::agent::{Agent, AgentFailure, ViewOf};
use crate::arena::runner::agent_rng;
use bones_env::seed::deal_seed;
use bones_env::{Episode, Game, GameState, SeatView};

/// The decision times of one agent over the hands it played.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionTimes {
    /// Hands (Doubles: rounds) played.
    pub hands: u64,
    /// Microseconds of each decision that had a choice (two or more legal
    /// actions), in ascending order.
    pub micros: Vec<f64>,
    /// Decisions with a single legal action (not in `micros`).
    pub forced: u64,
}

impl DecisionTimes {
    /// The `q` quantile (0 to 1) of the times in microseconds, by the
    /// nearest rank; NaN when no decision had a choice.
    pub fn quantile(&self, q: f64) -> f64 {
        if self.micros.is_empty() {
            return f64::NAN;
        }
        let rank = (q.clamp(0.0, 1.0) * self.micros.len() as f64).ceil() as usize;
        self.micros[rank.clamp(1, self.micros.len()) - 1]
    }

    /// Mean microseconds per decision with a choice (NaN when none had one).
    pub fn mean(&self) -> f64 {
        self.micros.iter().sum::<f64>() / self.micros.len() as f64
    }
}

/// Plays `hands` hands of `game` (dealt from `seed` as the arena deals them)
/// with `agent` in every seat, on this thread, and times each of its
/// decisions. An illegal action is reported as the agent's failure.
pub fn time_decisions<G: Game>(
    game: &G,
    agent: &mut dyn Agent<ViewOf<G>>,
    hands: u64,
    seed: u64,
) -> Result<DecisionTimes, AgentFailure> {
    let mut times = DecisionTimes { hands, micros: Vec::new(), forced: 0 };
    for i in 0..hands {
        let deal = deal_seed(seed, i);
        let mut rng = agent_rng(deal, 0);
        let mut st = game.new_state(deal, Episode::Hand);
        while let Some(seat) = st.current_seat() {
            let view = st.view(seat);
            let choices = view.legal().len();
            let t0 = Instant::now();
            let a = agent.try_act(&view, &mut rng)?;
            let micros = t0.elapsed().as_secs_f64() * 1e6;
            if choices > 1 {
                times.micros.push(micros);
            } else {
                times.forced += 1;
            }
            st.apply(a).map_err(|e| AgentFailure {
                what: format!("the agent chose {} at seat {seat}", game.action_name(a)),
                got: e.to_string(),
                expected: "a legal action".to_string(),
            })?;
        }
    }
    times.micros.sort_by(f64::total_cmp);
    Ok(times)
}
