//! The actor-learner on threads (`workers = N`, after Sample Factory and
//! IMPALA): each of N worker threads owns a shard of the games and plays the
//! rollouts it is handed; this thread drives the schedule (`schedule::drive`),
//! merging the shards of each rollout and running the update while the
//! workers play on. Channels are the transport.

use crate::error::TrainError;
use crate::networks::Networks;
use crate::profile::Phase;
use crate::schedule::{drive, job, play, shard_games, Job, RolloutShard, Transport};
use crate::training::{Progress, Run};
use bones_agents::AgentGame;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::time::Instant;

/// Trains `run` from `nets` with its rollouts played on `cfg.run.workers`
/// threads; returns the networks after the last update. At most
/// `policy_lag + 1` rollouts are in flight per worker; rollouts played past
/// the last update are dropped, never counted.
pub(crate) fn on_threads<G: AgentGame>(
    run: &mut Run<G>,
    nets: Networks,
    progress: &mut dyn Progress,
) -> Result<Networks, TrainError> {
    let cfg = std::sync::Arc::clone(&run.cfg);
    let (workers, depth) = (cfg.run.workers, cfg.run.policy_lag + 1);
    let mut collectors = Vec::with_capacity(workers);
    for w in 0..workers {
        collectors.push(run.collector(w, shard_games(&cfg, w))?);
    }
    std::thread::scope(|scope| {
        let mut threads = Threads { jobs: Vec::new(), shards: Vec::new() };
        let mut handles = Vec::new();
        for (w, mut collector) in collectors.into_iter().enumerate() {
            let (job_tx, job_rx) = sync_channel::<Job>(depth);
            let (shard_tx, shard_rx) = sync_channel(depth);
            let cfg = &*cfg;
            handles.push(scope.spawn(move || {
                let mut pool = Vec::new();
                while let Ok(job) = job_rx.recv() {
                    let shard = play(&mut collector, cfg, w, job, &mut pool);
                    let failed = shard.is_err();
                    if shard_tx.send(shard).is_err() || failed {
                        return;
                    }
                }
            }));
            threads.jobs.push(job_tx);
            threads.shards.push(shard_rx);
        }
        let result = drive(run, nets, &mut threads, progress);
        // Workers finish the rollout in hand and stop.
        drop(threads);
        for h in handles {
            let _ = h.join();
        }
        result
    })
}

/// The channels to and from the worker threads, in the workers' order.
struct Threads {
    jobs: Vec<SyncSender<Job>>,
    shards: Vec<Receiver<Result<RolloutShard, TrainError>>>,
}

impl<G: AgentGame> Transport<G> for Threads {
    fn send(&mut self, run: &Run<G>, nets: &Networks, update: u64, pool: bool) -> Result<(), TrainError> {
        let job = job(run, nets, update, pool);
        for tx in &self.jobs {
            // A worker that stopped is reported when its shard is awaited.
            let _ = tx.send(job.clone());
        }
        Ok(())
    }

    fn receive(&mut self, run: &mut Run<G>, update: u64) -> Result<Vec<RolloutShard>, TrainError> {
        let wait = Instant::now();
        let mut received = Vec::with_capacity(self.shards.len());
        for (worker, rx) in self.shards.iter().enumerate() {
            received.push(rx.recv().map_err(|_| TrainError::Worker { worker, update })??);
        }
        run.profile.since(Phase::Waiting, wait);
        Ok(received)
    }
}
