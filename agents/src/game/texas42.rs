//! Texas 42's agents, resampler, seat views and review.

use super::{wrong_game, AgentGame};
use crate::agent::{Agent, AgentRng};
use crate::bridge::BridgeAgent;
use crate::heuristic::texas42::Texas42Heuristic;
use crate::pimc::{PimcAgent, WorldSampler};
use crate::policy::PolicyLoader;
use crate::resample::{resample_texas42, ResampleError};
use crate::review::{Decisions, ReviewGame, Reviewer};
use crate::search::SearchAgent;
use crate::spec::{AgentSpec, SpecError};
use bones_env::deal::rng_for_seed;
use bones_env::position::{position, ViewError};
use bones_env::series::Series;
use bones_env::{Action, Episode, Texas42, Texas42State, Texas42View};
use serde_json::{Map, Value};

impl AgentGame for Texas42 {
    fn game_agent(
        &self,
        spec: &AgentSpec,
        models: Option<&dyn PolicyLoader>,
    ) -> Result<Box<dyn Agent<Texas42View>>, SpecError> {
        match spec {
            AgentSpec::Heuristic => Ok(Box::new(Texas42Heuristic::default())),
            AgentSpec::Pimc { worlds } => Ok(Box::new(PimcAgent::new(*worlds))),
            AgentSpec::Search(options) => Ok(Box::new(SearchAgent::from_spec(spec, options, self, models)?)),
            AgentSpec::Bridge { argv, limit_ms, .. } => {
                Ok(Box::new(BridgeAgent::start(spec.to_string(), argv, *limit_ms, &self.rules)?))
            }
            _ => Err(wrong_game(
                spec,
                "texas42",
                "`highest` is the Doubles baseline (highest pip total); use `random` or `heuristic`",
            )),
        }
    }

    fn position(view: &Map<String, Value>) -> Result<(Texas42, Texas42State), ViewError> {
        position::<Texas42>(view).map(|(game, state, _)| (game, state))
    }

    fn resample(&self, state: &Texas42State, seat: usize, rng: &mut AgentRng) -> Result<Texas42State, ResampleError> {
        resample_texas42(state, seat, rng)
    }

    fn world_of(&self, view: &Texas42View, rng: &mut AgentRng) -> Result<Texas42State, ResampleError> {
        let no_deal = ResampleError::NoDeal { seat: view.seat as usize };
        let sampler = WorldSampler::new(view);
        if sampler.relaxed() {
            return Err(no_deal);
        }
        let hand = sampler.world(view, rng).ok_or(no_deal)?;
        Ok(Series::new(*self, hand, Episode::Hand, rng_for_seed(0)))
    }
}

impl ReviewGame for Texas42 {
    const REVIEWED: bool = true;

    fn review_deal(
        &self,
        reviewer: &mut Reviewer,
        before: &Texas42State,
        last: Action,
        end: usize,
        seat: usize,
        _decisions: &Decisions<Texas42>,
    ) -> Value {
        reviewer.texas42_hand(self, before, last, end, seat)
    }
}
