//! PPO self-play, top to bottom (after CleanRL's ppo.py): every seat is played
//! by one shared policy (a configurable share of the games puts a past snapshot
//! in the opponents' seats); rollouts run all games in lockstep over a
//! `VecEnv` with one batched forward pass per step on the inference copy
//! (the collector, `collector.rs`); autodiff only in the update. With
//! `critic = "oracle"` the advantages come from a separate critic that also sees
//! every hidden hand (training only).
//!
//! [`train`](crate::train) sets the run up and hands it to the schedule (`schedule::drive`,
//! one for every layout: the synchronous loop's one rollout slot in process,
//! `workers = N` threads, or remote workers); each step of a run is a method
//! of the private `Run` (the run's state), in the order they come: `setup`
//! (with `networks::load_or_init`), `collector`, then per update `learn` (`update`, `log_metrics`,
//! `add_to_pool`, `evaluate`, `checkpoint`), and `finish`.

use crate::checkpoint::{self, critic_config, policy_config, Contents, Resume, RunState, BEST_EVAL};
use crate::collector::{Collector, Dims, Episodes};
use crate::config::TrainConfig;
use crate::critic::Critic;
pub use crate::error::TrainError;
use crate::eval::{self, EvalOpponent};
use crate::log::MetricsLog;
use crate::networks::{load_or_init, load_record, Networks};
use crate::ppo::{self, UpdateStats};
use crate::profile::{peak_rss_bytes, Phase, Profile};
use crate::rollout::Rollout;
use bones_agents::arena::ArenaError;
use bones_agents::AgentGame;
use bones_env::{Game, VecEnv};
use bones_policy::inference::Actor;
use bones_policy::model::PolicyNet;
use burn::prelude::*;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What a finished run reports.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Counters at the end.
    pub state: RunState,
    /// Folder of the final checkpoint.
    pub checkpoint: PathBuf,
    /// Self-play decisions per second over the run, updates included.
    pub decisions_per_s: f64,
    /// Self-play hands per hour over the run, updates included.
    pub hands_per_hour: f64,
    /// Where this session's time went.
    pub profile: Profile,
    /// The process's peak resident memory in bytes, where the system says.
    pub peak_rss_bytes: Option<u64>,
}

/// Progress reports, one per update (the CLI draws its progress bar from them).
pub trait Progress {
    /// Called after every update.
    fn update(&mut self, state: &RunState, hands_per_s: f64, decisions_per_s: f64);

    /// Something the user should know, in one line (a damaged checkpoint
    /// passed over by `--resume`, and the one resumed from instead).
    fn note(&mut self, _line: &str) {}
}

impl Progress for () {
    fn update(&mut self, _: &RunState, _: f64, _: f64) {}
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Io { path: path.display().to_string(), source }
}

/// This session's start (a resumed run's speeds count only its own session).
struct SessionClock {
    start: Instant,
    /// Counters when the session started.
    hands: u64,
    decisions: u64,
    /// Wall seconds of the run before this session.
    seconds_before: f64,
}

/// Self-play throughput of this session so far.
#[derive(Clone, Copy, Debug)]
struct Speed {
    hands_per_s: f64,
    decisions_per_s: f64,
}

impl SessionClock {
    fn new(state: &RunState) -> SessionClock {
        SessionClock {
            start: Instant::now(),
            hands: state.hands,
            decisions: state.decisions,
            seconds_before: state.seconds,
        }
    }

    /// Wall seconds of the whole run (earlier sessions included).
    fn run_seconds(&self) -> f64 {
        self.seconds_before + self.start.elapsed().as_secs_f64()
    }

    fn speed(&self, state: &RunState) -> Speed {
        let elapsed = self.start.elapsed().as_secs_f64().max(1e-9);
        Speed {
            hands_per_s: (state.hands - self.hands) as f64 / elapsed,
            decisions_per_s: (state.decisions - self.decisions) as f64 / elapsed,
        }
    }
}

/// Everything the loop carries from one update to the next, besides the networks.
pub(crate) struct Run<G: Game> {
    pub(crate) game: G,
    pub(crate) cfg: Arc<TrainConfig>,
    /// Inference device (rollouts, evaluation): the CPU for the
    /// actor-learner's workers, else the run's device.
    pub(crate) device: Device,
    /// Autodiff device (the update).
    train_device: Device,
    /// Whether the inference copies go to another device than the update's
    /// (an actor-learner run on a GPU: the workers play on the CPU).
    crosses_devices: bool,
    pub(crate) dims: Dims,
    /// `OUT/checkpoints`.
    ck_root: PathBuf,
    /// Counters, saved in checkpoints.
    pub(crate) state: RunState,
    log: MetricsLog,
    /// Past policies, oldest first.
    pub(crate) pool: Vec<Actor>,
    /// Changes to the pool so far (the actor-learner resends it when it changed).
    pub(crate) pool_version: u64,
    /// The games of a resumed run as its checkpoint saved them, one per
    /// collector (empty: deal new games).
    saved_games: Vec<Vec<u8>>,
    /// What setup has to say (the checkpoints `--resume` passed over).
    pub(crate) notes: Vec<String>,
    session: SessionClock,
    /// Time per phase of the loop.
    pub(crate) profile: Profile,
    pub(crate) last_checkpoint: Option<PathBuf>,
}

impl<G: AgentGame> Run<G> {
    /// Checks the config, seeds the device, loads or initialises the networks,
    /// writes `config.toml`, opens the log and deals the games.
    pub(crate) fn setup(
        game: G,
        cfg: &TrainConfig,
        out: &Path,
        resume: bool,
        device: Device,
    ) -> Result<(Run<G>, Networks), TrainError> {
        cfg.validate().map_err(TrainError::Config)?;
        if cfg.model.game != game.name() {
            return Err(TrainError::Config(format!(
                "the config trains `{}`, but the game given is `{}`",
                cfg.model.game,
                game.name()
            )));
        }
        std::fs::create_dir_all(out).map_err(io_err(out))?;
        let ck_root = out.join("checkpoints");
        let train_device = device.clone().autodiff();
        // The actor-learner's workers play on the CPU (the sparse input
        // layer); only the update runs on the run's device.
        let device = if cfg.run.workers > 0 { Device::flex() } else { device };
        let crosses_devices = train_device.clone().inner() != device;
        let dims = Dims::of(&game, cfg);
        let (nets, state, resumed) = load_or_init(cfg, dims, &ck_root, resume, &train_device)?;
        std::fs::write(out.join("config.toml"), cfg.to_toml()).map_err(io_err(out))?;
        let log = MetricsLog::new(out).map_err(io_err(out))?;
        let mut run = Run {
            game,
            cfg: Arc::new(cfg.clone()),
            device,
            train_device,
            crosses_devices,
            dims,
            last_checkpoint: checkpoint::latest(&ck_root),
            ck_root,
            session: SessionClock::new(&state),
            state,
            log,
            pool: Vec::new(),
            pool_version: resumed.resume.pool_version,
            saved_games: resumed.resume.games,
            notes: resumed.notes,
            profile: Profile::default(),
        };
        for record in &resumed.resume.pool {
            let blank = |d: &Device| policy_config(cfg, dims.obs, dims.actions).init(d);
            let model = load_record(blank, &run.device, record).map_err(|e| {
                TrainError::Resume(format!("an opponent snapshot in the checkpoint does not load: {e}"))
            })?;
            run.pool.push(Actor::with_sparse_input(model, &run.device, cfg.run.sparse_input));
        }
        Ok((run, nets))
    }

    /// The inference copy of `model`, ready to act (its input layer sparse
    /// where the config and device say so).
    pub(crate) fn actor(&self, model: &PolicyNet) -> Actor {
        let (dims, cfg) = (self.dims, &self.cfg);
        let net = self.inference(model.valid(), |d| policy_config(cfg, dims.obs, dims.actions).init(d));
        Actor::with_sparse_input(net, &self.device, self.cfg.run.sparse_input)
    }

    /// The oracle critic's inference copy, on the inference device.
    pub(crate) fn critic(&self, critic: &Critic) -> Critic {
        let (dims, cfg) = (self.dims, &self.cfg);
        self.inference(critic.valid(), |d| critic_config(cfg, dims.obs, dims.oracle).init(d))
    }

    /// `net` (an inference copy on the update's device) on the inference
    /// device: itself, or when that is another device its parameters loaded
    /// into a `blank` network of its shape there.
    fn inference<M: burn::module::Module>(&self, net: M, blank: impl FnOnce(&Device) -> M) -> M {
        if !self.crosses_devices {
            return net;
        }
        load_record(blank, &self.device, &checkpoint::record_bytes(net)).expect("a network of its own shape")
    }

    /// The learning rate of the next update (annealed linearly over the run's hands).
    pub(crate) fn learning_rate(&self) -> f64 {
        let cfg = Arc::clone(&self.cfg);
        let frac = 1.0 - self.state.hands as f64 / cfg.run.total_hands as f64;
        if cfg.ppo.anneal_lr {
            cfg.ppo.learning_rate * frac.max(0.02)
        } else {
            cfg.ppo.learning_rate
        }
    }

    /// Whether the run has played its hands (the last update evaluates and checkpoints).
    pub(crate) fn finished(&self) -> bool {
        self.state.hands >= self.cfg.run.total_hands
    }

    /// The collector of shard `worker` (0: the synchronous loop's one) with
    /// `games` games: for the synchronous loop, those the resumed checkpoint
    /// saved, else new ones (the actor-learner's workers always deal new ones).
    pub(crate) fn collector(&self, worker: usize, games: usize) -> Result<Collector<G>, TrainError> {
        let synchronous = self.cfg.run.workers == 0;
        let saved = self.saved_games.get(worker).filter(|_| synchronous).map(Vec::as_slice);
        Collector::new(&self.game, &self.cfg, &self.device, self.dims, (worker, games), &self.state, saved)
    }

    /// Steps 2-5 of the loop for one rollout (its games' `episodes`; `games`,
    /// the synchronous loop's games as they stand, go into checkpoints): the
    /// update, the logs, the pool, evaluation and checkpoints.
    pub(crate) fn learn(
        &mut self,
        nets: Networks,
        rollout: &Rollout,
        episodes: &Episodes,
        games: Option<&VecEnv<G>>,
        rng: &mut ChaCha8Rng,
        progress: &mut dyn Progress,
    ) -> Result<Networks, TrainError> {
        let lr = self.learning_rate();
        self.state.decisions += episodes.decisions;
        self.state.hands += episodes.hands;

        // 2. Update: GAE, then the PPO epochs on the autodiff networks.
        let (nets, stats) = self.update(nets, rollout, lr, rng)?;

        // 3. Logs (CleanRL names).
        let speed = self.session.speed(&self.state);
        self.log_metrics(lr, speed, episodes, &stats);

        // 4. Opponent pool, evaluation, checkpoints. A failed evaluation stops
        //    the run, with the update saved first.
        self.add_to_pool(&nets.model);
        let eval_start = Instant::now();
        let evaluated = self.evaluate(&nets.model);
        self.profile.since(Phase::Evaluation, eval_start);
        let best = match evaluated {
            Ok(best) => best,
            Err((opponent, source)) => {
                self.keep_games(games);
                let checkpoint = self.save(&nets, false).map_err(Box::new);
                if let Ok(dir) = &checkpoint {
                    self.last_checkpoint = Some(dir.clone());
                }
                let (update, source) = (self.state.update, Box::new(source));
                return Err(TrainError::Evaluation { opponent, update, source, checkpoint });
            }
        };
        let checkpoint_start = Instant::now();
        self.checkpoint(&nets, best, games)?;
        self.profile.since(Phase::Checkpoint, checkpoint_start);
        progress.update(&self.state, speed.hands_per_s, speed.decisions_per_s);
        Ok(nets)
    }

    /// GAE over each seat's chain, then the PPO epochs; counts the update. A
    /// non-finite loss stops the run.
    fn update(
        &mut self,
        nets: Networks,
        rollout: &Rollout,
        lr: f64,
        rng: &mut ChaCha8Rng,
    ) -> Result<(Networks, UpdateStats), TrainError> {
        let cfg = Arc::clone(&self.cfg);
        let (adv, ret) = rollout.advantages(cfg.ppo.gamma, cfg.ppo.gae_lambda);
        let Networks { model, critic, mut optim } = nets;
        let trained = ppo::Nets { model, critic };
        let batch = ppo::Batch { rollout, advantages: &adv, returns: &ret };
        let settings = ppo::Settings { cfg: &cfg, lr, device: &self.train_device };
        let (ppo::Nets { model, critic }, stats) =
            ppo::update(trained, &mut optim, batch, settings, rng, &mut self.profile);
        for (what, v) in
            [("policy_loss", stats.policy_loss), ("value_loss", stats.value_loss), ("entropy", stats.entropy)]
        {
            if !v.is_finite() {
                return Err(TrainError::Diverged { update: self.state.update, what });
            }
        }
        self.state.update += 1;
        self.state.seconds = self.session.run_seconds();
        Ok((Networks { model, critic, optim }, stats))
    }

    /// The update's scalars, at the step of the decisions taken so far.
    fn log_metrics(&mut self, lr: f64, speed: Speed, episodes: &Episodes, stats: &UpdateStats) {
        let (log, step) = (&mut self.log, self.state.decisions);
        log.scalar("charts/learning_rate", lr as f32, step);
        log.scalar("charts/hands_per_s", speed.hands_per_s as f32, step);
        log.scalar("charts/decisions_per_s", speed.decisions_per_s as f32, step);
        log.scalar("charts/hands", self.state.hands as f32, step);
        if episodes.against_pool > 0 {
            log.scalar("charts/episodic_return", (episodes.return_sum / episodes.against_pool as f64) as f32, step);
        }
        if episodes.finished > 0 {
            log.scalar("charts/episodic_length", episodes.length_sum as f32 / episodes.finished as f32, step);
        }
        log.scalar("losses/policy_loss", stats.policy_loss, step);
        log.scalar("losses/value_loss", stats.value_loss, step);
        log.scalar("losses/entropy", stats.entropy, step);
        log.scalar("losses/approx_kl", stats.approx_kl, step);
        log.scalar("losses/clipfrac", stats.clipfrac, step);
        log.scalar("losses/explained_variance", stats.explained_variance, step);
        log.scalar("losses/grad_norm", stats.grad_norm, step);
        if self.cfg.ppo.teacher.is_some() {
            log.scalar("losses/teacher_loss", stats.teacher_loss, step);
        }
    }

    /// Every `snapshot_every` updates the policy joins the opponent pool (the
    /// oldest snapshot leaves once it holds `pool_size`).
    fn add_to_pool(&mut self, model: &PolicyNet) {
        let (update, cfg) = (self.state.update, Arc::clone(&self.cfg));
        if update % cfg.opponents.snapshot_every as u64 == 0 {
            let actor = self.actor(model);
            self.pool.push(actor);
            if self.pool.len() > cfg.opponents.pool_size.max(1) {
                self.pool.remove(0);
            }
            self.pool_version += 1;
        }
    }

    /// Every `eval_every` updates, and after the last, plays the greedy policy
    /// against each baseline; logs and keeps the results. Returns whether this is
    /// the best evaluation so far (by [`BEST_EVAL`]; ties count as better), or
    /// the baseline whose evaluation failed and why (a game without a baseline
    /// is no failure: it is evaluated against the others).
    fn evaluate(&mut self, model: &PolicyNet) -> Result<bool, (&'static str, ArenaError)> {
        let cfg = Arc::clone(&self.cfg);
        // `eval_every = 0`: no remainder, so only after the last update.
        let due = self.state.update.checked_rem(cfg.eval.eval_every as u64) == Some(0) || self.finished();
        if !due {
            return Ok(false);
        }
        let eval_model = self.actor(model);
        let step = self.state.decisions;
        let mut results = Vec::new();
        for opp in [EvalOpponent::Random, EvalOpponent::Heuristic] {
            let r = match eval::evaluate(&self.game, &eval_model, opp, cfg.eval.eval_hands, cfg.run.seed ^ 0xE7A1) {
                Ok(r) => r,
                Err(e) if eval::not_played(opp, &e) => continue,
                Err(e) => return Err((opp.name(), e)),
            };
            self.log.scalar(&format!("eval/win_rate_vs_{}", opp.name()), r.win_rate as f32, step);
            self.log.scalar(&format!("eval/reward_per_hand_vs_{}", opp.name()), r.reward_per_hand as f32, step);
            results.push((format!("win_rate_vs_{}", opp.name()), r.win_rate as f32));
            results.push((format!("reward_per_hand_vs_{}", opp.name()), r.reward_per_hand as f32));
        }
        self.state.last_eval = results;
        Ok(match self.state.eval(BEST_EVAL) {
            Some(score) if self.state.best_eval.is_none_or(|b| score >= b) => {
                self.state.best_eval = Some(score);
                true
            }
            _ => false,
        })
    }

    /// Every `checkpoint_every` updates, after the last and at every new best
    /// evaluation, saves a checkpoint.
    fn checkpoint(&mut self, nets: &Networks, best: bool, games: Option<&VecEnv<G>>) -> Result<(), TrainError> {
        let (update, cfg) = (self.state.update, Arc::clone(&self.cfg));
        if update % cfg.checkpoints.checkpoint_every as u64 == 0 || self.finished() || best {
            self.keep_games(games);
            self.last_checkpoint = Some(self.save(nets, best)?);
        }
        Ok(())
    }

    /// Keeps the synchronous loop's games as they stand for the next
    /// checkpoint (the actor-learner's workers keep none).
    fn keep_games(&mut self, games: Option<&VecEnv<G>>) {
        self.saved_games = games.map(|g| vec![g.save()]).unwrap_or_default();
    }

    /// The opponent pool's snapshots as burnpack records, oldest first.
    pub(crate) fn pool_records(&self) -> Vec<Vec<u8>> {
        self.pool.iter().map(|a| checkpoint::record_bytes(a.model().clone())).collect()
    }

    /// Saves the checkpoint of the current update (`update-NNNNNN`) with the
    /// pool and the games last saved.
    pub(crate) fn save(&self, nets: &Networks, best: bool) -> Result<PathBuf, TrainError> {
        let name = format!("update-{:06}", self.state.update);
        let Networks { model, critic, optim } = nets;
        let resume =
            Resume { pool_version: self.pool_version, pool: self.pool_records(), games: self.saved_games.clone() };
        let contents =
            Contents { model, critic: critic.as_ref(), optim, state: &self.state, cfg: &self.cfg, resume: &resume };
        Ok(checkpoint::save(&self.ck_root, &name, contents, best)?)
    }

    /// Closes the log; makes sure a checkpoint exists (a run with nothing left
    /// to play saves one); reports.
    pub(crate) fn finish(mut self, nets: &Networks) -> Result<Summary, TrainError> {
        self.log.close();
        let speed = self.session.speed(&self.state);
        self.profile.total = self.session.start.elapsed().as_secs_f64();
        let checkpoint = match self.last_checkpoint.take() {
            Some(c) => c,
            None => self.save(nets, false)?,
        };
        Ok(Summary {
            decisions_per_s: speed.decisions_per_s,
            hands_per_hour: speed.hands_per_s * 3600.0,
            profile: self.profile,
            peak_rss_bytes: peak_rss_bytes(),
            state: self.state,
            checkpoint,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CriticKind;
    use crate::critic::{critic_values, ORACLE_LEN};
    use bones_env::{Episode, Texas42, VecEnv};
    use bones_policy::sparse::SparseRows;

    #[test]
    fn networks_sent_to_another_device_arrive_with_every_parameter() {
        // An actor-learner on a GPU hands its CPU workers copies made through
        // burnpack records; here both devices are the CPU, so the crossing is forced.
        let out = std::env::temp_dir().join(format!("bones-cross-devices-{}", std::process::id()));
        let cfg = TrainConfig::load("smoke").unwrap().with(|c| {
            c.run.workers = 2;
            c.ppo.critic = CriticKind::Oracle;
        });
        let (mut run, nets) = Run::setup(Texas42::default(), &cfg, &out, false, Device::flex()).unwrap();
        let critic = nets.critic.as_ref().unwrap();
        let (same, same_critic) = (run.actor(&nets.model), run.critic(critic));
        run.crosses_devices = true;
        let (copied, copied_critic) = (run.actor(&nets.model), run.critic(critic));

        let (rows, ol) = (8, run.dims.obs);
        let obs = VecEnv::new(Texas42::default(), Episode::Hand, rows, 3, 1).obs;
        let sparse = SparseRows::from_dense(&obs, ol);
        assert!(same.forward(&sparse) == copied.forward(&sparse), "the policy's copy computes otherwise");
        let hidden: Vec<f32> = (0..rows * ORACLE_LEN).map(|i| (i % 3) as f32).collect();
        let values = |c: &Critic| critic_values(c, &run.device, &obs, &hidden, rows);
        assert!(values(&same_critic) == values(&copied_critic), "the critic's copy computes otherwise");
        // The log's writer thread must be done with the folder before it goes.
        run.log.close();
        drop(run);
        let _ = std::fs::remove_dir_all(&out);
    }
}
