//! The actor-learner's two halves for separate processes or machines: a
//! [`Learner`] owns the run (its folder, networks, optimizer, opponent pool and
//! counters) and a [`RolloutWorker`] owns one shard of the games. They trade
//! bytes (`wire`), so anything that carries bytes can connect them: the
//! learner drives the run's one schedule (`schedule`, the same as `bones train
//! --workers N`) through a [`ByteTransport`] ([`Learner::train`]); the
//! Python package's `bones.Learner.train` takes one written in Python, and
//! over it `python -m bones.ray train` carries the bytes through Ray's object
//! store. The steps are also there one by one:
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
//! A worker deals its games when its first weights arrive, so a worker that
//! died is replaced by a fresh one: new games, and nothing it half played is
//! counted. Each set of weights plays one rollout, and the learner refuses a
//! shard of another update, a second shard of one worker, and bytes of another
//! run, so no rollout is counted twice.
//!
//! A shard that decodes is not trusted: before anything is counted the learner
//! checks all of it (the rollout's sizes, every index in it, its legal masks,
//! its numbers, its chains of decisions, the games' counts, the profile and
//! the random stream; [`UncheckedRollout::check`]), and refuses an
//! inconsistent one with [`TrainError::Shard`], which names the shard, its
//! worker, the field and what was expected. A refused update counts nothing
//! and the learner stays ready for the same update; [`Learner::train`] has
//! the worker of a refused shard replaced and its rollout played again, up to
//! [`MAX_SHARD_RETRIES`] times.

use crate::checkpoint::{self, RunState};
use crate::collector::Dims;
use crate::config::TrainConfig;
pub use crate::error::ShardError;
use crate::error::TrainError;
use crate::networks::Networks;
use crate::profile::Phase;
use crate::rollout::check::{RolloutShape, UncheckedRollout};
use crate::schedule::{drive, rollout_stream, shard_games, step, RolloutShard, Transport};
use crate::training::{Progress, Run, Summary};
use bones_agents::AgentGame;
use bones_env::Game;
use burn::module::Module;
use burn::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use wire::{
    check_config, decode_reason, encode, PoolMsg, RunId, ShardMsg, WeightsMsg, POOL_TAG, SHARD_TAG, WEIGHTS_TAG,
};
pub use worker::RolloutWorker;

#[cfg(test)]
mod fuzz;
mod wire;
mod worker;

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

    /// Trains until the run has played its hands, its rollouts played by the
    /// workers at the other end of `transport` on the schedule of `bones train
    /// --workers N` (the weights after update `k` play the rollout of update
    /// `k + 1 + policy_lag`); `progress` hears of every update. A shard the
    /// learner refuses has its worker replaced ([`ByteTransport::replace`]),
    /// up to [`MAX_SHARD_RETRIES`] times an update. Then [`Learner::finish`].
    pub fn train(&mut self, transport: &mut dyn ByteTransport, progress: &mut dyn Progress) -> Result<(), TrainError> {
        self.half.train(transport, progress)
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
    fn train(&mut self, transport: &mut dyn ByteTransport, progress: &mut dyn Progress) -> Result<(), TrainError>;
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
    nets: Option<Networks>,
    /// When the learner last finished something: until the next shards arrive it waits.
    idle_since: Instant,
}

impl<G: Game> LearnerOf<G> {
    fn nets(&self) -> Result<&Networks, TrainError> {
        self.nets.as_ref().ok_or(TrainError::Stopped)
    }
}

/// The shards of `run`'s current update in `shards`, one of every worker (in
/// any order), in the workers' order.
fn checked<G: Game>(run: &Run<G>, id: &RunId, shards: &[&[u8]]) -> Result<Vec<RolloutShard>, TrainError> {
    let (update, workers) = (run.state.update, id.workers);
    let expect = Expect { cfg: &run.cfg, id, update, dims: run.dims };
    let mut got: Vec<Option<RolloutShard>> = (0..workers).map(|_| None).collect();
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
fn accept(bytes: &[u8], expect: &Expect) -> Result<(usize, RolloutShard), (Option<usize>, ShardError)> {
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
    Ok((worker, RolloutShard { rng: m.rng.restore(), rollout, episodes: m.episodes, profile: m.profile }))
}

impl<G: AgentGame> LearnerHalf for LearnerOf<G> {
    fn state(&self) -> &RunState {
        &self.run.state
    }

    fn finished(&self) -> bool {
        self.run.finished()
    }

    fn weights(&self, update: u64) -> Result<Vec<u8>, TrainError> {
        Ok(weights(&self.id, &self.run, self.nets()?, update))
    }

    fn pool_version(&self) -> u64 {
        self.run.pool_version
    }

    fn pool(&self) -> Vec<u8> {
        pool(&self.id, &self.run)
    }

    fn update(&mut self, shards: &[&[u8]]) -> Result<(), TrainError> {
        self.nets()?;
        let shards = checked(&self.run, &self.id, shards)?;
        self.run.profile.since(Phase::Waiting, self.idle_since);
        let nets = self.nets.take().ok_or(TrainError::Stopped)?;
        self.nets = Some(step(&mut self.run, nets, shards, None, &mut ())?);
        self.idle_since = Instant::now();
        Ok(())
    }

    fn train(&mut self, transport: &mut dyn ByteTransport, progress: &mut dyn Progress) -> Result<(), TrainError> {
        let nets = self.nets.take().ok_or(TrainError::Stopped)?;
        let mut wire = Wire { id: &self.id, transport };
        self.nets = Some(drive(&mut self.run, nets, &mut wire, progress)?);
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

/// The current networks `nets` of `run` as the weights of the rollout of `update`.
fn weights<G: AgentGame>(id: &RunId, run: &Run<G>, nets: &Networks, update: u64) -> Vec<u8> {
    let msg = WeightsMsg {
        run: id.clone(),
        update,
        start_update: run.state.update,
        start_decisions: run.state.decisions,
        pool_version: run.pool_version,
        // Records are the same on every device: straight from the update's networks.
        policy: checkpoint::record_bytes(nets.model.valid()),
        critic: nets.critic.as_ref().map(|c| checkpoint::record_bytes(c.valid())),
    };
    encode(WEIGHTS_TAG, &msg)
}

/// `run`'s opponent pool as bytes.
fn pool<G: AgentGame>(id: &RunId, run: &Run<G>) -> Vec<u8> {
    let policies = run.pool_records();
    encode(POOL_TAG, &PoolMsg { run: id.clone(), version: run.pool_version, policies })
}

/// How many times [`Learner::train`] has a refused shard's worker replaced
/// and the rollout played again, in one update, before the run stops.
pub const MAX_SHARD_RETRIES: usize = 3;

/// What carries a [`Learner`]'s bytes to its rollout workers and back, for
/// [`Learner::train`] (Ray's object store in `python -m bones.ray train`).
/// Worker `w` of `n` is a [`RolloutWorker`] made with `w`; the learner says
/// which weights play which rollout, the transport only moves bytes.
pub trait ByteTransport {
    /// Hands every worker the weights of the rollout of `update`
    /// ([`RolloutWorker::set_weights`]), then has it play that rollout
    /// ([`RolloutWorker::rollout`]); `pool`, when the opponent pool changed
    /// since the last send, is the pool those weights and the later ones play
    /// against ([`RolloutWorker::set_pool`]: a worker whose
    /// [`RolloutWorker::pool_version`] is not the one
    /// [`RolloutWorker::set_weights`] returns needs the latest pool sent).
    /// Up to `policy_lag + 1` rollouts are in flight.
    fn send(&mut self, update: u64, weights: Vec<u8>, pool: Option<Vec<u8>>) -> Result<(), TrainError>;

    /// Every worker's shard of the rollout of `update`, in the workers' order.
    fn receive(&mut self, update: u64) -> Result<Vec<Vec<u8>>, TrainError>;

    /// The learner refused worker `worker`'s shard of the rollout of `update`
    /// (`why`): that worker replaced by a fresh one, and its shard of the same
    /// rollout, played again with the same weights and pool.
    fn replace(&mut self, worker: usize, update: u64, why: &TrainError) -> Result<Vec<u8>, TrainError>;
}

/// A [`ByteTransport`] as the schedule's transport: the networks go out as
/// bytes, and the shards that come back are checked before anything of them
/// is counted.
struct Wire<'a> {
    id: &'a RunId,
    transport: &'a mut dyn ByteTransport,
}

impl<G: AgentGame> Transport<G> for Wire<'_> {
    fn send(&mut self, run: &Run<G>, nets: &Networks, update: u64, with_pool: bool) -> Result<(), TrainError> {
        let pool = with_pool.then(|| pool(self.id, run));
        self.transport.send(update, weights(self.id, run, nets, update), pool)
    }

    fn receive(&mut self, run: &mut Run<G>, update: u64) -> Result<Vec<RolloutShard>, TrainError> {
        let wait = Instant::now();
        let mut shards = self.transport.receive(update)?;
        let mut retries = 0;
        let checked = loop {
            let given: Vec<&[u8]> = shards.iter().map(Vec::as_slice).collect();
            match checked(run, self.id, &given) {
                Err(e @ TrainError::Shard { index, .. }) if retries < MAX_SHARD_RETRIES && index < shards.len() => {
                    retries += 1;
                    shards[index] = self.transport.replace(index, update, &e)?;
                }
                result => break result?,
            }
        };
        run.profile.since(Phase::Waiting, wait);
        Ok(checked)
    }
}
