//! The remote actor-learner's worker half: a [`RolloutWorker`] owns one
//! shard of a run's games and plays each rollout with the weights it is sent.

use super::wire::{
    check_config, decode, encode, PoolMsg, RngState, RunId, ShardMsg, WeightsMsg, POOL_TAG, SHARD_TAG, WEIGHTS_TAG,
};
use crate::checkpoint::{critic_config, policy_config, RunState};
use crate::collector::{Behaviour, Collector, Dims};
use crate::config::TrainConfig;
use crate::critic::Critic;
use crate::error::TrainError;
use crate::networks::load_record;
use crate::schedule::{rollout_stream, shard_games};
use bones_agents::AgentGame;
use bones_env::Game;
use bones_policy::inference::Actor;
use burn::module::Module;
use burn::prelude::*;
use std::sync::Arc;

/// A rollout worker: one shard of the games, played with the weights it is sent.
pub struct RolloutWorker {
    half: Box<dyn WorkerHalf>,
}

impl RolloutWorker {
    /// Worker `worker` (of `cfg.run.workers`) of the run of `cfg`, its forward
    /// passes on `device`. Its games are dealt when its first weights arrive.
    pub fn new(cfg: TrainConfig, worker: usize, device: Device) -> Result<RolloutWorker, TrainError> {
        check_config(&cfg)?;
        if worker >= cfg.run.workers {
            return Err(TrainError::Config(format!(
                "worker {worker} of a run with {} workers: workers are numbered 0 to {}",
                cfg.run.workers,
                cfg.run.workers - 1
            )));
        }
        let game = cfg.game().map_err(|e| TrainError::Config(e.to_string()))?;
        let make = MakeWorker { cfg: Arc::new(cfg), worker, device };
        let half = bones_env::on_game!(game, g => make.visit(g))?;
        Ok(RolloutWorker { half })
    }

    /// The version of the opponent pool it holds (0: the empty pool of a new run).
    pub fn pool_version(&self) -> u64 {
        self.half.pool_version()
    }

    /// Takes the learner's opponent pool ([`Learner::pool`](super::Learner::pool)).
    pub fn set_pool(&mut self, bytes: &[u8]) -> Result<(), TrainError> {
        self.half.set_pool(bytes)
    }

    /// Takes the weights of one rollout ([`Learner::weights`](super::Learner::weights)); returns the
    /// pool version they are played with.
    pub fn set_weights(&mut self, bytes: &[u8]) -> Result<u64, TrainError> {
        self.half.set_weights(bytes)
    }

    /// Plays the rollout of the weights last set (each set plays one rollout)
    /// and returns its shard for [`Learner::update`](super::Learner::update).
    pub fn rollout(&mut self) -> Result<Vec<u8>, TrainError> {
        self.half.rollout()
    }
}

/// A [`RolloutWorker`] of one game.
trait WorkerHalf: Send {
    fn pool_version(&self) -> u64;
    fn set_pool(&mut self, bytes: &[u8]) -> Result<(), TrainError>;
    fn set_weights(&mut self, bytes: &[u8]) -> Result<u64, TrainError>;
    fn rollout(&mut self) -> Result<Vec<u8>, TrainError>;
}

struct MakeWorker {
    cfg: Arc<TrainConfig>,
    worker: usize,
    device: Device,
}

impl MakeWorker {
    fn visit<G: AgentGame>(self, game: G) -> Result<Box<dyn WorkerHalf>, TrainError> {
        Ok(Box::new(WorkerOf {
            id: RunId::of(&self.cfg),
            dims: Dims::of(&game, &self.cfg),
            game,
            cfg: self.cfg,
            worker: self.worker,
            device: self.device,
            collector: None,
            weights: None,
            pool: Vec::new(),
            pool_version: 0,
        }))
    }
}

/// The weights of one rollout, ready to act.
struct Weights {
    update: u64,
    start: RunState,
    pool_version: u64,
    policy: Actor,
    critic: Option<Critic>,
}

struct WorkerOf<G: Game> {
    id: RunId,
    game: G,
    cfg: Arc<TrainConfig>,
    dims: Dims,
    worker: usize,
    device: Device,
    /// Its games, dealt with the first weights.
    collector: Option<Collector<G>>,
    /// The weights of the next rollout.
    weights: Option<Weights>,
    pool: Vec<Actor>,
    pool_version: u64,
}

impl<G: Game> WorkerOf<G> {
    /// A network of the run's shape made by `blank` on this worker's device,
    /// with the parameters in `bytes` (part of a `what`).
    fn load<M: Module>(
        &self,
        blank: impl FnOnce(&Device) -> M,
        bytes: &[u8],
        what: &'static str,
    ) -> Result<M, TrainError> {
        load_record(blank, &self.device, bytes).map_err(|e| TrainError::Wire { what, reason: e.to_string() })
    }

    fn actor(&self, bytes: &[u8], what: &'static str) -> Result<Actor, TrainError> {
        let policy = self.load(|d| policy_config(&self.cfg, self.dims.obs, self.dims.actions).init(d), bytes, what)?;
        Ok(Actor::with_sparse_input(policy, &self.device, self.cfg.run.sparse_input))
    }
}

impl<G: AgentGame> WorkerHalf for WorkerOf<G> {
    fn pool_version(&self) -> u64 {
        self.pool_version
    }

    fn set_pool(&mut self, bytes: &[u8]) -> Result<(), TrainError> {
        let msg: PoolMsg = decode(POOL_TAG, "opponent pool", bytes)?;
        self.id.check(&msg.run, "opponent pool")?;
        let pool = msg.policies.iter().map(|p| self.actor(p, "opponent pool")).collect::<Result<_, _>>()?;
        (self.pool, self.pool_version) = (pool, msg.version);
        Ok(())
    }

    fn set_weights(&mut self, bytes: &[u8]) -> Result<u64, TrainError> {
        let msg: WeightsMsg = decode(WEIGHTS_TAG, "weights", bytes)?;
        self.id.check(&msg.run, "weights")?;
        let critic = match (&msg.critic, self.dims.oracle) {
            (Some(c), orl) if orl > 0 => {
                Some(self.load(|d| critic_config(&self.cfg, self.dims.obs, orl).init(d), c, "weights")?)
            }
            (None, 0) => None,
            _ => {
                return Err(TrainError::Wire {
                    what: "weights",
                    reason: "the oracle critic is missing, or sent to a run without one".into(),
                })
            }
        };
        let policy = self.actor(&msg.policy, "weights")?;
        let start = RunState { update: msg.start_update, decisions: msg.start_decisions, ..RunState::default() };
        self.weights = Some(Weights { update: msg.update, start, pool_version: msg.pool_version, policy, critic });
        Ok(msg.pool_version)
    }

    fn rollout(&mut self) -> Result<Vec<u8>, TrainError> {
        let Some(w) = self.weights.take() else {
            return Err(TrainError::Config(
                "no weights to play: each rollout needs the learner's weights (set_weights) first".into(),
            ));
        };
        if w.pool_version != self.pool_version {
            let (update, want, have) = (w.update, w.pool_version, self.pool_version);
            self.weights = Some(w);
            return Err(TrainError::Wire {
                what: "opponent pool",
                reason: format!(
                    "the weights of update {update} play against pool version {want}; this worker holds version {have}: send it the learner's pool first"
                ),
            });
        }
        let collector = match &mut self.collector {
            Some(c) => c,
            None => {
                let games = shard_games(&self.cfg, self.worker);
                let c = Collector::new(
                    &self.game,
                    &self.cfg,
                    &self.device,
                    self.dims,
                    (self.worker, games),
                    &w.start,
                    None,
                )?;
                self.collector.insert(c)
            }
        };
        let mut rng = rollout_stream(&self.cfg, self.worker, w.update);
        let behaviour = Behaviour { policy: &w.policy, critic: w.critic.as_ref(), pool: &self.pool };
        let episodes = collector.play(&behaviour, &mut rng)?;
        let msg = ShardMsg {
            run: self.id.clone(),
            worker: self.worker,
            update: w.update,
            rollout: collector.rollout.take(),
            episodes,
            profile: std::mem::take(&mut collector.profile),
            rng: RngState::of(&rng),
        };
        Ok(encode(SHARD_TAG, &msg))
    }
}
