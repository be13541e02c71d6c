//! The actor-learner's worker side (`workers = N`): the job the learner hands
//! a worker for each rollout, the shard of the games it plays in return, and
//! the worker thread's loop; also the random stream of each shard's rollout,
//! which the synchronous loop and the remote workers (`remote`) draw from too.

use crate::collector::{Behaviour, Collector, Episodes};
use crate::config::TrainConfig;
use crate::critic::Critic;
use crate::error::TrainError;
use crate::profile::Profile;
use crate::rollout::Rollout;
use bones_agents::AgentGame;
use bones_env::vec_env::episode_seed;
use bones_policy::inference::Actor;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::mpsc::{Receiver, SyncSender};

/// Mixed into the seed for the rollout streams of workers 1 and up.
const WORKER_ROLLOUT_STREAM: u64 = 0x5A3D_0B1E;

/// The random stream that plays `worker`'s shard of the rollout of `update`
/// (the opponent snapshot and every sampled action). Shard 0's is the
/// update's own stream, which then orders the update's minibatches: so the
/// synchronous loop (one shard) draws what it always drew, and one worker
/// without lag draws what the synchronous loop draws.
pub(crate) fn rollout_stream(cfg: &TrainConfig, worker: usize, update: u64) -> ChaCha8Rng {
    let seed = match worker {
        0 => episode_seed(cfg.run.seed, 0, update),
        w => episode_seed(cfg.run.seed ^ WORKER_ROLLOUT_STREAM, w, update),
    };
    ChaCha8Rng::seed_from_u64(seed)
}

/// What the learner hands the workers for one rollout: the weights of the
/// update the rollout is played with (the behaviour policy) and, when it
/// changed, the opponent pool.
#[derive(Clone)]
pub(crate) struct Job {
    /// The update the rollout is for (it seeds the worker's rollout stream).
    pub(crate) update: u64,
    pub(crate) policy: Actor,
    pub(crate) critic: Option<Critic>,
    /// The new pool, when it changed since the worker's last job.
    pub(crate) pool: Option<Vec<Actor>>,
}

/// A worker's rollout of its shard of the games.
pub(crate) struct Shard {
    pub rollout: Rollout,
    pub episodes: Episodes,
    pub profile: Profile,
    /// The stream that played it (shard 0's goes on to order the minibatches).
    pub rng: ChaCha8Rng,
}

/// The number of games of worker `worker`'s shard: shards as even as they
/// come, the first `num_envs % workers` one game larger.
pub(crate) fn shard_games(cfg: &TrainConfig, worker: usize) -> usize {
    cfg.ppo.num_envs / cfg.run.workers + usize::from(worker < cfg.ppo.num_envs % cfg.run.workers)
}

/// Sends `job` to every worker (one that stopped is reported when its shard
/// is awaited).
pub(crate) fn send(jobs: &[SyncSender<Job>], job: Job) {
    for tx in jobs {
        let _ = tx.send(job.clone());
    }
}

/// A worker's loop: a rollout for each job, until the learner stops sending
/// (or a rollout fails: the error goes to the learner).
pub(crate) fn work<G: AgentGame>(
    mut collector: Collector<G>,
    worker: usize,
    cfg: &TrainConfig,
    jobs: Receiver<Job>,
    shards: SyncSender<Result<Shard, TrainError>>,
) {
    let mut pool = Vec::new();
    while let Ok(job) = jobs.recv() {
        if let Some(p) = job.pool {
            pool = p;
        }
        let mut rng = rollout_stream(cfg, worker, job.update);
        let behaviour = Behaviour { policy: &job.policy, critic: job.critic.as_ref(), pool: &pool };
        let shard = collector.play(&behaviour, &mut rng).map(|episodes| Shard {
            rollout: collector.rollout.take(),
            episodes,
            profile: std::mem::take(&mut collector.profile),
            rng,
        });
        let failed = shard.is_err();
        if shards.send(shard).is_err() || failed {
            return;
        }
    }
}
