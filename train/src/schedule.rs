//! The actor-learner's schedule, written once for every layout. A run's
//! rollouts are played in rollout slots (the synchronous loop's one slot in
//! process, `workers = N` worker threads, or the remote workers of
//! [`remote`](crate::remote), which trade bytes); a [`Transport`] carries the
//! weights out to the slots and their finished shards back, and [`drive`]
//! decides which weights play which rollout:
//!
//! - the session's first weights play the rollouts of its first
//!   `policy_lag + 1` updates (`policy_lag` is 0 for the synchronous loop);
//! - the weights after update `k` play the rollout of update `k + 1 + policy_lag`;
//! - the opponent pool goes out with the weights when it changed since it last
//!   went out (a resumed run's first weights take its checkpoint's pool).
//!
//! The lag is exact, so a run is deterministic for its seed and worker count
//! whatever the transport's timing; after every update the run adds to the
//! pool, evaluates and saves its checkpoints (`Run::learn`), and a resumed run
//! starts the schedule again at its checkpoint's update. Each slot plays its
//! rollout with its own random stream ([`rollout_stream`]).

use crate::collector::{Behaviour, Collector, Episodes};
use crate::config::TrainConfig;
use crate::critic::Critic;
use crate::error::TrainError;
use crate::networks::Networks;
use crate::profile::Profile;
use crate::rollout::Rollout;
use crate::training::{Progress, Run};
use bones_agents::AgentGame;
use bones_env::vec_env::episode_seed;
use bones_env::{Game, VecEnv};
use bones_policy::inference::Actor;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Mixed into the seed for the rollout streams of slots 1 and up.
const WORKER_ROLLOUT_STREAM: u64 = 0x5A3D_0B1E;

/// The random stream that plays slot `worker`'s shard of the rollout of
/// `update` (the opponent snapshot and every sampled action). Slot 0's is the
/// update's own stream, which then orders the update's minibatches: so the
/// synchronous loop (one slot) draws what it always drew, and one worker
/// without lag draws what the synchronous loop draws.
pub(crate) fn rollout_stream(cfg: &TrainConfig, worker: usize, update: u64) -> ChaCha8Rng {
    let seed = match worker {
        0 => episode_seed(cfg.run.seed, 0, update),
        w => episode_seed(cfg.run.seed ^ WORKER_ROLLOUT_STREAM, w, update),
    };
    ChaCha8Rng::seed_from_u64(seed)
}

/// The number of games of worker `worker`'s shard (`workers = N`): shards as
/// even as they come, the first `num_envs % workers` one game larger.
pub(crate) fn shard_games(cfg: &TrainConfig, worker: usize) -> usize {
    cfg.ppo.num_envs / cfg.run.workers + usize::from(worker < cfg.ppo.num_envs % cfg.run.workers)
}

/// What a slot is handed for one rollout: the weights it is played with (the
/// behaviour policy) and, when it changed, the opponent pool.
#[derive(Clone)]
pub(crate) struct Job {
    /// The update the rollout is for (it seeds the slot's rollout stream).
    pub(crate) update: u64,
    pub(crate) policy: Actor,
    pub(crate) critic: Option<Critic>,
    /// The new pool, when it changed since the slot's last job.
    pub(crate) pool: Option<Vec<Actor>>,
}

/// The job of the rollout of update `update` in `run`: the current networks
/// `nets` as its behaviour policy, and the pool when `pool` (it changed since
/// it last went out).
pub(crate) fn job<G: AgentGame>(run: &Run<G>, nets: &Networks, update: u64, pool: bool) -> Job {
    Job {
        update,
        policy: run.actor(&nets.model),
        critic: nets.critic.as_ref().map(|c| run.critic(c)),
        pool: pool.then(|| run.pool.clone()),
    }
}

/// A slot's rollout of its shard of the games.
pub(crate) struct RolloutShard {
    pub(crate) rollout: Rollout,
    pub(crate) episodes: Episodes,
    pub(crate) profile: Profile,
    /// The stream that played it (slot 0's goes on to order the minibatches).
    pub(crate) rng: ChaCha8Rng,
}

/// Plays `job` on `collector`, slot `worker`'s games, against `pool` (which
/// takes the job's pool when it brings one).
pub(crate) fn play<G: AgentGame>(
    collector: &mut Collector<G>,
    cfg: &TrainConfig,
    worker: usize,
    job: Job,
    pool: &mut Vec<Actor>,
) -> Result<RolloutShard, TrainError> {
    if let Some(p) = job.pool {
        *pool = p;
    }
    let mut rng = rollout_stream(cfg, worker, job.update);
    let behaviour = Behaviour { policy: &job.policy, critic: job.critic.as_ref(), pool };
    let episodes = collector.play(&behaviour, &mut rng)?;
    Ok(RolloutShard {
        rollout: collector.rollout.take(),
        episodes,
        profile: std::mem::take(&mut collector.profile),
        rng,
    })
}

/// What carries the weights out to a run's rollout slots and their shards back.
pub(crate) trait Transport<G: Game> {
    /// Hands every slot the current networks `nets` as the behaviour policy of
    /// the rollout of `update`, with the opponent pool when `pool` (it changed
    /// since the last send).
    fn send(&mut self, run: &Run<G>, nets: &Networks, update: u64, pool: bool) -> Result<(), TrainError>;

    /// Every slot's shard of the rollout of `update`, in the slots' order
    /// (time spent waiting for them goes into `run`'s profile).
    fn receive(&mut self, run: &mut Run<G>, update: u64) -> Result<Vec<RolloutShard>, TrainError>;

    /// The games as they stand after the rollout just received, when the
    /// transport holds them (the synchronous loop's: its checkpoints save them
    /// for a resumed run to play on from).
    fn games(&self) -> Option<&VecEnv<G>> {
        None
    }
}

/// Trains `run` from `nets` until it has played its hands, its rollouts
/// played in `transport`'s slots on the schedule of this module; returns the
/// networks after the last update.
pub(crate) fn drive<G: AgentGame>(
    run: &mut Run<G>,
    mut nets: Networks,
    transport: &mut impl Transport<G>,
    progress: &mut dyn Progress,
) -> Result<Networks, TrainError> {
    let lag = if run.cfg.run.workers == 0 { 0 } else { run.cfg.run.policy_lag as u64 };
    // The pool version the slots hold: new slots hold the empty pool, version 0.
    let mut pool_sent = 0;
    let mut send = |run: &Run<G>, nets: &Networks, transport: &mut dyn Transport<G>, update| {
        let changed = pool_sent != run.pool_version;
        pool_sent = run.pool_version;
        transport.send(run, nets, update, changed)
    };
    let first = run.state.update;
    for update in first..=first + lag {
        send(run, &nets, transport, update)?;
    }
    while !run.finished() {
        let update = run.state.update;
        let shards = transport.receive(run, update)?;
        nets = step(run, nets, shards, transport.games(), progress)?;
        if !run.finished() {
            send(run, &nets, transport, update + 1 + lag)?;
        }
    }
    Ok(nets)
}

/// One update of `run` from the shards of its rollout (in the slots' order):
/// merged, then the update, logs, pool, evaluation and checkpoints
/// (`Run::learn`; `games`, the games as they stand, go into checkpoints).
pub(crate) fn step<G: AgentGame>(
    run: &mut Run<G>,
    nets: Networks,
    shards: Vec<RolloutShard>,
    games: Option<&VecEnv<G>>,
    progress: &mut dyn Progress,
) -> Result<Networks, TrainError> {
    let (rollout, episodes, mut rng) = merge(run, shards)?;
    run.learn(nets, &rollout, &episodes, games, &mut rng, progress)
}

/// The shards of one rollout, in the slots' order, as one: the rollout, the
/// games' counts (the shards' profiles go into the run's), and slot 0's
/// stream, which goes on to order the minibatches.
fn merge<G: Game>(run: &mut Run<G>, shards: Vec<RolloutShard>) -> Result<(Rollout, Episodes, ChaCha8Rng), TrainError> {
    let mut shards = shards.into_iter();
    let Some(first) = shards.next() else {
        return Err(TrainError::Config("a rollout of no shards: a run has at least one rollout slot".into()));
    };
    let RolloutShard { mut rollout, episodes: mut merged, profile, rng } = first;
    run.profile.absorb(&profile);
    for shard in shards {
        rollout.append(&shard.rollout);
        merged.absorb(&shard.episodes);
        run.profile.absorb(&shard.profile);
    }
    Ok((rollout, merged, rng))
}

/// The synchronous loop's transport (`workers = 0`): one slot, played in
/// process when its shard is asked for, on the run's own games (those the
/// resumed checkpoint saved, else new ones).
pub(crate) struct InProcess<G: Game> {
    collector: Collector<G>,
    job: Option<Job>,
    pool: Vec<Actor>,
}

impl<G: AgentGame> InProcess<G> {
    pub(crate) fn new(run: &Run<G>) -> Result<InProcess<G>, TrainError> {
        Ok(InProcess { collector: run.collector(0, run.cfg.ppo.num_envs)?, job: None, pool: Vec::new() })
    }
}

impl<G: AgentGame> Transport<G> for InProcess<G> {
    fn send(&mut self, run: &Run<G>, nets: &Networks, update: u64, pool: bool) -> Result<(), TrainError> {
        self.job = Some(job(run, nets, update, pool));
        Ok(())
    }

    fn receive(&mut self, run: &mut Run<G>, update: u64) -> Result<Vec<RolloutShard>, TrainError> {
        let job = self.job.take().filter(|j| j.update == update).ok_or_else(|| {
            TrainError::Config(format!("the rollout of update {update} was never handed its weights"))
        })?;
        Ok(vec![play(&mut self.collector, &run.cfg, 0, job, &mut self.pool)?])
    }

    fn games(&self) -> Option<&VecEnv<G>> {
        Some(self.collector.games())
    }
}
