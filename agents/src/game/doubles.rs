//! Doubles' agents, resampler and review.

use super::{wrong_game, AgentGame};
use crate::agent::{Agent, AgentRng};
use crate::heuristic::doubles::{DoublesHeuristic, HighestAgent};
use crate::pimc::doubles::{DoublesPimc, DoublesSampler};
use crate::policy::PolicyLoader;
use crate::resample::{resample_doubles, ResampleError};
use crate::review::{doubles_review, Decisions, ReviewGame, Reviewer, REVIEW_SEED};
use crate::spec::{AgentSpec, SpecError};
use bones_env::deal::rng_for_seed;
use bones_env::position::{position, ViewError};
use bones_env::series::Series;
use bones_env::{Action, Doubles, DoublesState, DoublesView, Episode};
use serde_json::{Map, Value};

impl AgentGame for Doubles {
    fn game_agent(
        &self,
        spec: &AgentSpec,
        _models: Option<&dyn PolicyLoader>,
    ) -> Result<Box<dyn Agent<DoublesView>>, SpecError> {
        match spec {
            AgentSpec::Heuristic => Ok(Box::new(DoublesHeuristic::default())),
            AgentSpec::Highest => Ok(Box::new(HighestAgent)),
            AgentSpec::Pimc { worlds } => Ok(Box::new(DoublesPimc::new(*worlds))),
            AgentSpec::Bridge { .. } => Err(wrong_game(
                spec,
                "doubles",
                "`bridge:` seats a Texas 42 engine (walt's line protocol); use `exec:` for a Doubles program",
            )),
            _ => Err(wrong_game(
                spec,
                "doubles",
                "`search` is built for Texas 42; use `pimc`, `heuristic`, `highest` or `random`",
            )),
        }
    }

    fn position(view: &Map<String, Value>) -> Result<(Doubles, DoublesState), ViewError> {
        position::<Doubles>(view).map(|(game, state, _)| (game, state))
    }

    fn resample(&self, state: &DoublesState, seat: usize, rng: &mut AgentRng) -> Result<DoublesState, ResampleError> {
        resample_doubles(state, seat, rng)
    }

    fn world_of(&self, view: &DoublesView, rng: &mut AgentRng) -> Result<DoublesState, ResampleError> {
        let no_deal = ResampleError::NoDeal { seat: view.seat as usize };
        let sampler = DoublesSampler::new(view);
        if sampler.relaxed() {
            return Err(no_deal);
        }
        let round = sampler.world(view, rng).ok_or(no_deal)?;
        Ok(Series::new(*self, round, Episode::Hand, rng_for_seed(0)))
    }
}

impl ReviewGame for Doubles {
    const REVIEWED: bool = true;

    fn review_deal(
        &self,
        _reviewer: &mut Reviewer,
        _before: &DoublesState,
        _last: Action,
        _end: usize,
        seat: usize,
        decisions: &Decisions<Doubles>,
    ) -> Value {
        doubles_review(self, seat, decisions, REVIEW_SEED)
    }
}
