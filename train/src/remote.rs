//! The actor-learner's two halves for separate processes or machines: a
//! [`Learner`] owns the run (its folder, networks, optimizer, opponent pool and
//! counters) and a [`RolloutWorker`] owns one shard of the games. They trade
//! bytes, so anything that carries bytes can connect them (the Python package's
//! `bones.Learner` and `bones.RolloutWorker`, and over those
//! `python -m bones.ray train`):
//!
//! - [`Learner::weights`]`(k)`: the behaviour policy for the rollout of update
//!   `k` (and the oracle critic, under `critic = "oracle"`), naming the pool
//!   version it is played with;
//! - [`Learner::pool`]: the opponent pool, which a worker needs only when the
//!   version changed ([`RolloutWorker::pool_version`]);
//! - [`RolloutWorker::rollout`]: the worker's shard of that rollout;
//!   [`Learner::update`] takes one shard from every worker, merges them in the
//!   workers' order and runs the update.
//!
//! These are the steps of the worker threads of `bones train --workers N`, and
//! a driver that keeps their schedule (the session's first weights for the
//! rollouts of its first `policy_lag + 1` updates, then after update `k` the
//! new weights for the rollout of update `k + 1 + policy_lag`) trains the same
//! weights. A worker deals its games when its first weights arrive, so a worker
//! that died is replaced by a fresh one: new games, and nothing it half played
//! is counted. Each set of weights plays one rollout, and the learner refuses a
//! shard of another update, a second shard of one worker, and bytes of another
//! run, so no rollout is counted twice.
//!
//! A shard that decodes is not trusted: before anything is counted the learner
//! checks all of it (the rollout's sizes, every index in it, its legal masks,
//! its numbers, its chains of decisions, the games' counts, the profile and
//! the random stream; [`UncheckedRollout::check`]), and refuses an
//! inconsistent one with [`TrainError::Shard`], which names the shard, its
//! worker, the field and what was expected. A refused update counts nothing
//! and the learner stays ready for the same update, so a driver can replace
//! the worker whose shard was bad and try again.

use crate::checkpoint::{self, critic_config, policy_config, RunState};
use crate::collector::{Behaviour, Collector, Dims, Episodes};
use crate::config::TrainConfig;
use crate::critic::Critic;
pub use crate::error::ShardError;
use crate::error::TrainError;
use crate::learner::{load_record, Learner as Nets};
use crate::profile::{Phase, Profile};
use crate::rollout::{RolloutShape, UncheckedRollout};
use crate::training::{merge, Run, Summary};
use crate::worker::{rollout_stream, shard_games, Shard};
use bones_agents::AgentGame;
use bones_env::Game;
use bones_policy::inference::Actor;
use burn::module::Module;
use burn::prelude::*;
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

#[cfg(test)]
mod fuzz;

/// The first bytes of each message: what it is, and the format's version.
const WEIGHTS_TAG: [u8; 8] = *b"bonesW01";
const POOL_TAG: [u8; 8] = *b"bonesP01";
const SHARD_TAG: [u8; 8] = *b"bonesS01";

/// The run a message belongs to: bytes of another game, seed or worker count
/// are refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct RunId {
    #[serde(deserialize_with = "string_in_place")]
    game: String,
    seed: u64,
    workers: usize,
}

/// A string read where it lies in the message's bytes, then copied: a length
/// that the bytes do not hold is refused before anything is allocated for it
/// (bincode's own `String` allocates the length it reads first).
fn string_in_place<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<String, E> {
            Ok(s.to_owned())
        }
    }
    d.deserialize_str(Text)
}

impl RunId {
    fn of(cfg: &TrainConfig) -> RunId {
        RunId { game: cfg.model.game.clone(), seed: cfg.run.seed, workers: cfg.run.workers }
    }

    /// Refuses `other` (from a message that is a `what`) unless it is this run.
    fn check(&self, other: &RunId, what: &'static str) -> Result<(), TrainError> {
        self.mismatch(other).map_or(Ok(()), |reason| Err(TrainError::Wire { what, reason }))
    }

    /// Why `other` is not this run, if it is not.
    fn mismatch(&self, other: &RunId) -> Option<String> {
        (self != other).then(|| {
            format!(
                "they are of a {} run with seed {} and {} workers; this one trains {} with seed {} and {} workers",
                other.game, other.seed, other.workers, self.game, self.seed, self.workers
            )
        })
    }
}

/// The behaviour policy of the rollout of one update.
#[derive(Serialize, Deserialize)]
struct WeightsMsg {
    run: RunId,
    /// The update whose rollout these weights play.
    update: u64,
    /// The learner's counters when it sent them: a worker's first weights deal
    /// its games from them.
    start_update: u64,
    start_decisions: u64,
    /// The pool the rollout is played against.
    pool_version: u64,
    /// The policy's and the oracle critic's inference copies, as burnpack records.
    policy: Vec<u8>,
    critic: Option<Vec<u8>>,
}

/// The opponent pool, oldest first, as burnpack records.
#[derive(Serialize, Deserialize)]
struct PoolMsg {
    run: RunId,
    version: u64,
    policies: Vec<Vec<u8>>,
}

/// One worker's shard of the rollout of one update (`R`: a
/// [`Rollout`](crate::rollout::Rollout) as sent, an [`UncheckedRollout`] as received).
#[derive(Serialize, Deserialize)]
struct ShardMsg<R> {
    run: RunId,
    worker: usize,
    update: u64,
    rollout: R,
    episodes: Episodes,
    profile: Profile,
    rng: RngState,
}

/// Where a ChaCha stream stands (shard 0's goes on to order the minibatches).
#[derive(Serialize, Deserialize)]
struct RngState {
    seed: [u8; 32],
    stream: u64,
    word_pos: u128,
}

impl RngState {
    fn of(rng: &ChaCha8Rng) -> RngState {
        RngState { seed: rng.get_seed(), stream: rng.get_stream(), word_pos: rng.get_word_pos() }
    }

    fn restore(&self) -> ChaCha8Rng {
        let mut rng = <ChaCha8Rng as rand::SeedableRng>::from_seed(self.seed);
        rng.set_stream(self.stream);
        rng.set_word_pos(self.word_pos);
        rng
    }
}

fn encode<T: Serialize>(tag: [u8; 8], msg: &T) -> Vec<u8> {
    let mut out = tag.to_vec();
    bincode::serde::encode_into_std_write(msg, &mut out, bincode::config::standard())
        .expect("a message serialises into memory");
    out
}

/// The message of kind `tag` (a `what`) in `bytes`.
fn decode<T: DeserializeOwned>(tag: [u8; 8], what: &'static str, bytes: &[u8]) -> Result<T, TrainError> {
    decode_reason(tag, what, bytes).map_err(|reason| TrainError::Wire { what, reason })
}

/// [`decode`], its error the reason alone.
fn decode_reason<T: DeserializeOwned>(tag: [u8; 8], what: &'static str, bytes: &[u8]) -> Result<T, String> {
    let Some(body) = bytes.strip_prefix(&tag[..]) else {
        let kind = match bytes.get(..8).and_then(|t| <[u8; 8]>::try_from(t).ok()) {
            Some(WEIGHTS_TAG) => "weights".to_string(),
            Some(POOL_TAG) => "an opponent pool".to_string(),
            Some(SHARD_TAG) => "a rollout shard".to_string(),
            _ => format!("{} bytes that are no message of a Bones learner or worker", bytes.len()),
        };
        return Err(format!("expected {what}, got {kind}"));
    };
    let (msg, used) = bincode::serde::decode_from_slice(body, bincode::config::standard())
        .map_err(|e| format!("unreadable ({e})"))?;
    if used != body.len() {
        return Err(format!("{} bytes past the end of the message", body.len() - used));
    }
    Ok(msg)
}

/// Checks what both halves need of a config: a valid one, with workers.
fn check_config(cfg: &TrainConfig) -> Result<(), TrainError> {
    cfg.validate().map_err(TrainError::Config)?;
    if cfg.run.workers == 0 {
        return Err(TrainError::Config(
            "`workers` is 0: a learner fed by rollout workers needs the number of workers (at least 1)".into(),
        ));
    }
    Ok(())
}

/// The learner: the run's folder, networks, optimizer, pool and counters.
pub struct Learner {
    half: Box<dyn LearnerHalf>,
    cfg: Arc<TrainConfig>,
}

impl Learner {
    /// Starts (or with `resume` continues) the run of `cfg` in `out`, as
    /// `bones train` does; its update runs on `device`. `cfg.run.workers` is the
    /// number of rollout workers that feed it.
    pub fn new(cfg: TrainConfig, out: &Path, resume: bool, device: Device) -> Result<Learner, TrainError> {
        check_config(&cfg)?;
        let game = cfg.game().map_err(|e| TrainError::Config(e.to_string()))?;
        let cfg = Arc::new(cfg);
        let make = MakeLearner { cfg: &cfg, out, resume, device };
        let half = bones_env::on_game!(game, g => make.visit(g))?;
        Ok(Learner { half, cfg })
    }

    /// The run's config.
    pub fn config(&self) -> &TrainConfig {
        &self.cfg
    }

    /// The run's counters (`update` is the update the next shards are for).
    pub fn state(&self) -> &RunState {
        self.half.state()
    }

    /// Whether the run has played its hands.
    pub fn finished(&self) -> bool {
        self.half.finished()
    }

    /// The current weights, as the behaviour policy of the rollout of `update`.
    pub fn weights(&self, update: u64) -> Result<Vec<u8>, TrainError> {
        self.half.weights(update)
    }

    /// The opponent pool's version (it changes when a snapshot is added).
    pub fn pool_version(&self) -> u64 {
        self.half.pool_version()
    }

    /// The opponent pool.
    pub fn pool(&self) -> Vec<u8> {
        self.half.pool()
    }

    /// The update of the current update's rollout, from one shard of every
    /// worker (in any order): then the logs, the pool, evaluation and
    /// checkpoints, as in `bones train`.
    pub fn update(&mut self, shards: &[&[u8]]) -> Result<(), TrainError> {
        if self.finished() {
            return Err(TrainError::Config(format!(
                "the run has played its {} hands: nothing left to update",
                self.cfg.run.total_hands
            )));
        }
        self.half.update(shards)
    }

    /// Saves a checkpoint of the current update now; returns its folder.
    pub fn save(&mut self) -> Result<PathBuf, TrainError> {
        self.half.save()
    }

    /// Closes the run (a checkpoint exists after it) and reports it.
    pub fn finish(self) -> Result<Summary, TrainError> {
        self.half.finish()
    }
}

/// A [`Learner`] of one game.
trait LearnerHalf: Send {
    fn state(&self) -> &RunState;
    fn finished(&self) -> bool;
    fn weights(&self, update: u64) -> Result<Vec<u8>, TrainError>;
    fn pool_version(&self) -> u64;
    fn pool(&self) -> Vec<u8>;
    fn update(&mut self, shards: &[&[u8]]) -> Result<(), TrainError>;
    fn save(&mut self) -> Result<PathBuf, TrainError>;
    fn finish(self: Box<Self>) -> Result<Summary, TrainError>;
}

struct MakeLearner<'a> {
    cfg: &'a TrainConfig,
    out: &'a Path,
    resume: bool,
    device: Device,
}

impl MakeLearner<'_> {
    fn visit<G: AgentGame>(self, game: G) -> Result<Box<dyn LearnerHalf>, TrainError> {
        let (run, nets) = Run::setup(game, self.cfg, self.out, self.resume, self.device)?;
        Ok(Box::new(LearnerOf { id: RunId::of(self.cfg), run, nets: Some(nets), idle_since: Instant::now() }))
    }
}

struct LearnerOf<G: Game> {
    id: RunId,
    run: Run<G>,
    /// `None` after an update failed (the run stopped).
    nets: Option<Nets>,
    /// When the learner last finished something: until the next shards arrive it waits.
    idle_since: Instant,
}

impl<G: Game> LearnerOf<G> {
    fn nets(&self) -> Result<&Nets, TrainError> {
        self.nets.as_ref().ok_or(TrainError::Stopped)
    }

    /// The shards of the current update, one of every worker, in the workers' order.
    fn shards(&self, shards: &[&[u8]]) -> Result<Vec<Shard>, TrainError> {
        let (update, workers) = (self.run.state.update, self.id.workers);
        let expect = Expect { cfg: &self.run.cfg, id: &self.id, update, dims: self.run.dims };
        let mut got: Vec<Option<Shard>> = (0..workers).map(|_| None).collect();
        for (index, bytes) in shards.iter().enumerate() {
            let refused = |(worker, source)| TrainError::Shard { index, given: shards.len(), worker, source };
            let (worker, shard) = accept(bytes, &expect).map_err(refused)?;
            // `accept` checked that the run has this worker.
            let slot = &mut got[worker];
            if slot.is_some() {
                return Err(refused((Some(worker), ShardError::Duplicate { worker, update })));
            }
            *slot = Some(shard);
        }
        let missing: Vec<String> =
            got.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(w, _)| w.to_string()).collect();
        if !missing.is_empty() {
            return Err(TrainError::Wire {
                what: "rollout shards",
                reason: format!("update {update} has no shard of worker(s) {}", missing.join(", ")),
            });
        }
        Ok(got.into_iter().flatten().collect())
    }
}

/// What the learner expects of a shard: of its run, of the update it is at,
/// of its sizes.
struct Expect<'a> {
    cfg: &'a TrainConfig,
    id: &'a RunId,
    update: u64,
    dims: Dims,
}

/// The shard in `bytes` and its worker, once it is all checked: a shard of
/// the expected run, update and a worker the run has, whose rollout, counts,
/// profile and random stream are consistent with that worker's share of the
/// games (so nothing the update does with it can go out of bounds). Else why
/// not, with the worker when that much could be read.
fn accept(bytes: &[u8], expect: &Expect) -> Result<(usize, Shard), (Option<usize>, ShardError)> {
    let m: ShardMsg<UncheckedRollout> =
        decode_reason(SHARD_TAG, "rollout shard", bytes).map_err(|e| (None, ShardError::Unreadable(e)))?;
    if let Some(reason) = expect.id.mismatch(&m.run) {
        return Err((None, ShardError::OtherRun(reason)));
    }
    let (worker, workers, update) = (m.worker, expect.cfg.run.workers, expect.update);
    let refuse = |e: ShardError| (Some(worker), e);
    if worker >= workers {
        return Err((None, ShardError::Worker { worker, workers }));
    }
    if m.update != update {
        return Err(refuse(ShardError::Update { got: m.update, expected: update }));
    }
    let (games, num_steps) = (shard_games(expect.cfg, worker), expect.cfg.ppo.num_steps);
    let shape = RolloutShape {
        obs_len: expect.dims.obs,
        num_actions: expect.dims.actions,
        oracle_len: expect.dims.oracle,
        games,
        players: expect.dims.players,
        max_steps: games.saturating_mul(num_steps),
    };
    let rollout = m.rollout.check(&shape).map_err(|e| refuse(e.into()))?;
    m.episodes.check(games, num_steps).map_err(refuse)?;
    let times = Phase::ALL.iter().map(|&p| (p.name(), m.profile.seconds(p)));
    if let Some((phase, seconds)) =
        times.chain([("total", m.profile.total)]).find(|(_, s)| !(s.is_finite() && *s >= 0.0))
    {
        return Err(refuse(ShardError::Profile { phase, seconds }));
    }
    let stream = rollout_stream(expect.cfg, worker, update);
    if (m.rng.seed, m.rng.stream) != (stream.get_seed(), stream.get_stream()) {
        return Err(refuse(ShardError::Stream { worker, update }));
    }
    Ok((worker, Shard { rng: m.rng.restore(), rollout, episodes: m.episodes, profile: m.profile }))
}

impl<G: AgentGame> LearnerHalf for LearnerOf<G> {
    fn state(&self) -> &RunState {
        &self.run.state
    }

    fn finished(&self) -> bool {
        self.run.finished()
    }

    fn weights(&self, update: u64) -> Result<Vec<u8>, TrainError> {
        let nets = self.nets()?;
        let msg = WeightsMsg {
            run: self.id.clone(),
            update,
            start_update: self.run.state.update,
            start_decisions: self.run.state.decisions,
            pool_version: self.run.pool_version,
            // Records are the same on every device: straight from the update's networks.
            policy: checkpoint::record_bytes(nets.model.valid()),
            critic: nets.critic.as_ref().map(|c| checkpoint::record_bytes(c.valid())),
        };
        Ok(encode(WEIGHTS_TAG, &msg))
    }

    fn pool_version(&self) -> u64 {
        self.run.pool_version
    }

    fn pool(&self) -> Vec<u8> {
        let policies = self.run.pool_records();
        encode(POOL_TAG, &PoolMsg { run: self.id.clone(), version: self.run.pool_version, policies })
    }

    fn update(&mut self, shards: &[&[u8]]) -> Result<(), TrainError> {
        self.nets()?;
        let shards = self.shards(shards)?;
        self.run.profile.since(Phase::Waiting, self.idle_since);
        let (rollout, episodes, mut rng) = merge(&mut self.run, shards);
        let nets = self.nets.take().ok_or(TrainError::Stopped)?;
        self.nets = Some(self.run.learn(nets, &rollout, &episodes, None, &mut rng, &mut ())?);
        self.idle_since = Instant::now();
        Ok(())
    }

    fn save(&mut self) -> Result<PathBuf, TrainError> {
        let nets = self.nets.as_ref().ok_or(TrainError::Stopped)?;
        let dir = self.run.save(nets, false)?;
        self.run.last_checkpoint = Some(dir.clone());
        Ok(dir)
    }

    fn finish(self: Box<Self>) -> Result<Summary, TrainError> {
        let nets = self.nets.ok_or(TrainError::Stopped)?;
        self.run.finish(&nets)
    }
}

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

    /// Takes the learner's opponent pool ([`Learner::pool`]).
    pub fn set_pool(&mut self, bytes: &[u8]) -> Result<(), TrainError> {
        self.half.set_pool(bytes)
    }

    /// Takes the weights of one rollout ([`Learner::weights`]); returns the
    /// pool version they are played with.
    pub fn set_weights(&mut self, bytes: &[u8]) -> Result<u64, TrainError> {
        self.half.set_weights(bytes)
    }

    /// Plays the rollout of the weights last set (each set plays one rollout)
    /// and returns its shard for [`Learner::update`].
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
