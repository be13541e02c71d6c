//! PPO self-play, top to bottom (after CleanRL's ppo.py): every seat is played
//! by one shared policy (a configurable share of the games puts a past snapshot
//! in the opponents' seats); rollouts run all games in lockstep over a
//! [`VecEnv`] with one batched forward pass per step on the inference copy;
//! autodiff only in the update. With `critic = "oracle"` the advantages come from
//! a separate critic that also sees every hidden hand (training only).

use crate::checkpoint::{self, critic_config, policy_config, RunState, BEST_EVAL};
use crate::config::TrainConfig;
use crate::eval::{evaluate, EvalOpponent, TrainGame};
use crate::inference::{critic_values, decide};
use crate::log::MetricsLog;
use crate::model::{Critic, Policy};
use crate::ppo;
use crate::rollout::Rollout;
use bones_env::vec_env::episode_seed;
use bones_env::{Episode, GameState, VecEnv};
use burn::optim::AdamConfig;
use burn::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Why training stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A checkpoint could not be written or read.
    #[error(transparent)]
    Checkpoint(#[from] checkpoint::CheckpointError),
    /// The run folder could not be written.
    #[error("run folder {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The configuration is invalid.
    #[error("bad config: {0}")]
    Config(String),
    /// `--resume` found a checkpoint of another configuration.
    #[error("cannot resume: {0}")]
    Resume(String),
    /// The update produced a non-finite loss.
    #[error("training diverged at update {update}: {what} is not finite")]
    Diverged {
        /// The update.
        update: u64,
        /// Which statistic.
        what: &'static str,
    },
}

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
}

/// Progress reports, one per update (the CLI draws its progress bar from them).
pub trait Progress {
    /// Called after every update.
    fn update(&mut self, state: &RunState, hands_per_s: f64, decisions_per_s: f64);
}

impl Progress for () {
    fn update(&mut self, _: &RunState, _: f64, _: f64) {}
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Io { path: path.display().to_string(), source }
}

/// The oracle critic's input for each `(env, seat)`: `orl` floats per row.
fn hidden_hands<G: TrainGame>(
    game: &G,
    envs: &VecEnv<G>,
    seats: impl ExactSizeIterator<Item = (usize, usize)>,
    orl: usize,
) -> Vec<f32> {
    let mut out = vec![0f32; seats.len() * orl];
    for ((env, seat), row) in seats.zip(out.chunks_mut(orl.max(1))) {
        game.oracle(envs.state(env), seat, row);
    }
    out
}

/// Runs (or resumes) a training run of `game` into `out`.
pub fn train<G: TrainGame>(
    game: G,
    cfg: &TrainConfig,
    out: &Path,
    resume: bool,
    device: Device,
    progress: &mut dyn Progress,
) -> Result<Summary, TrainError> {
    cfg.validate().map_err(TrainError::Config)?;
    std::fs::create_dir_all(out).map_err(io_err(out))?;
    let ck_root = out.join("checkpoints");
    let train_device = device.clone().autodiff();
    train_device.seed(cfg.seed);
    let (ol, na, np) = (game.obs_len(), game.num_actions(), game.num_players());
    let orl = if cfg.oracle_critic() { game.oracle_len() } else { 0 };

    // Model, optimizer and counters: fresh, or from the latest checkpoint.
    let mut model: Policy = policy_config(cfg, ol, na).init(&train_device);
    let mut critic: Option<Critic> = cfg.oracle_critic().then(|| critic_config(cfg, ol, orl).init(&train_device));
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let mut state = RunState::default();
    if resume {
        let dir = checkpoint::latest(&ck_root)
            .ok_or_else(|| TrainError::Resume(format!("no checkpoint under {}", ck_root.display())))?;
        let (saved, saved_state) = checkpoint::read_meta(&dir)?;
        let shape = |c: &TrainConfig| (c.game.clone(), c.hidden, c.depth, c.critic);
        if shape(&saved) != shape(cfg) {
            return Err(TrainError::Resume(format!(
                "{} was trained as {} with hidden={} depth={} critic={}; this config says {} with hidden={} depth={} critic={}",
                dir.display(),
                saved.game,
                saved.hidden,
                saved.depth,
                saved.critic,
                cfg.game,
                cfg.hidden,
                cfg.depth,
                cfg.critic
            )));
        }
        model = checkpoint::load_model(&dir, ol, na, &train_device)?;
        if critic.is_some() {
            critic = Some(checkpoint::load_critic(&dir, ol, orl, &train_device)?);
        }
        optim = checkpoint::load_optim(&dir, optim)?;
        state = saved_state;
    }
    std::fs::write(out.join("config.toml"), cfg.to_toml()).map_err(io_err(out))?;
    let mut log = MetricsLog::new(out).map_err(io_err(out))?;

    // Games in lockstep; a resumed run deals new games from its update count.
    let mut envs = VecEnv::new(
        game.with_reward(cfg.reward),
        Episode::Hand,
        cfg.num_envs,
        episode_seed(cfg.seed, usize::MAX, state.update),
        cfg.env_threads,
    );
    let mut rollout = Rollout::new(cfg.num_envs, ol, na, orl);
    let mut pool: Vec<Policy> = Vec::new();
    let start = Instant::now();
    let start_hands = state.hands;
    let start_decisions = state.decisions;
    let seconds_before = state.seconds;
    let mut last_checkpoint = checkpoint::latest(&ck_root);

    while state.hands < cfg.total_hands {
        let mut rng = ChaCha8Rng::seed_from_u64(episode_seed(cfg.seed, 0, state.update));
        let frac = 1.0 - state.hands as f64 / cfg.total_hands as f64;
        let lr = if cfg.anneal_lr { cfg.learning_rate * frac.max(0.02) } else { cfg.learning_rate };

        // 1. Rollout: every game steps once per iteration.
        let policy = model.valid();
        let critic_now = critic.as_ref().map(|c| c.valid());
        let opponent =
            (!pool.is_empty() && cfg.opponent_share > 0.0).then(|| pool[rng.random_range(0..pool.len())].clone());
        let pool_envs =
            if opponent.is_some() { (cfg.opponent_share * cfg.num_envs as f32).round() as usize } else { 0 };
        let learns = |env: usize, seat: usize| env >= pool_envs || game.team_of(seat) == game.team_of(env % np);
        rollout.clear();
        let (mut returns, mut episodes) = (0f64, 0u64);
        let (mut lengths, mut finished) = (0u64, 0u64);
        let mut ep_len = vec![0u32; cfg.num_envs];
        let mut actions = vec![0usize; cfg.num_envs];
        for _ in 0..cfg.num_steps {
            let (mut mine, mut theirs) = (Vec::new(), Vec::new());
            for env in 0..cfg.num_envs {
                if learns(env, envs.seats[env] as usize) {
                    mine.push(env)
                } else {
                    theirs.push(env)
                }
            }
            for (rows, net, record) in [(&mine, &policy, true), (&theirs, opponent.as_ref().unwrap_or(&policy), false)]
            {
                if rows.is_empty() {
                    continue;
                }
                let obs: Vec<f32> = rows.iter().flat_map(|&e| envs.obs[e * ol..(e + 1) * ol].iter().copied()).collect();
                let masks: Vec<f32> =
                    rows.iter().flat_map(|&e| envs.mask[e * na..(e + 1) * na].iter().copied()).collect();
                let mut decisions = decide(net, &device, &obs, &masks, na, Some(&mut rng));
                let mut oracle = Vec::new();
                if let Some(c) = critic_now.as_ref().filter(|_| record) {
                    oracle = hidden_hands(&game, &envs, rows.iter().map(|&e| (e, envs.seats[e] as usize)), orl);
                    for (d, v) in decisions.iter_mut().zip(critic_values(c, &device, &obs, &oracle, rows.len())) {
                        d.value = v;
                    }
                }
                for (k, (&env, d)) in rows.iter().zip(&decisions).enumerate() {
                    actions[env] = d.action;
                    if record {
                        let seat = envs.seats[env] as usize;
                        let (o, m) = (&obs[k * ol..(k + 1) * ol], &masks[k * na..(k + 1) * na]);
                        let h = if orl > 0 { &oracle[k * orl..(k + 1) * orl] } else { &[][..] };
                        rollout.push(env, seat, o, m, h, d.action, d.logp, d.value);
                    }
                }
            }
            envs.step(&actions).expect("sampled actions are legal");
            state.decisions += cfg.num_envs as u64;
            for (env, len) in ep_len.iter_mut().enumerate() {
                let r: Vec<f32> = envs.rewards[env * 4..env * 4 + 4].iter().map(|x| x * cfg.reward_scale).collect();
                let done = envs.dones[env];
                rollout.reward(env, &r, done);
                *len += 1;
                if done {
                    state.hands += 1;
                    if env < pool_envs {
                        // The learner's return against the snapshot.
                        returns += r[env % np] as f64;
                        episodes += 1;
                    }
                    lengths += *len as u64;
                    finished += 1;
                    *len = 0;
                }
            }
        }
        // Chains still open bootstrap from the value of the seat's current state.
        let open = rollout.open_chains();
        if !open.is_empty() {
            let mut obs = vec![0f32; open.len() * ol];
            for (k, &(env, seat, _)) in open.iter().enumerate() {
                envs.state(env).observe(seat, &mut obs[k * ol..(k + 1) * ol]);
            }
            let values: Vec<f32> = match &critic_now {
                Some(c) => {
                    let oracle = hidden_hands(&game, &envs, open.iter().map(|&(env, seat, _)| (env, seat)), orl);
                    critic_values(c, &device, &obs, &oracle, open.len())
                }
                None => {
                    let masks = vec![1f32; open.len() * na];
                    decide(&policy, &device, &obs, &masks, na, None).iter().map(|d| d.value).collect()
                }
            };
            for (&(_, _, i), v) in open.iter().zip(values) {
                rollout.set_bootstrap(i, v);
            }
        }

        // 2. Update.
        let (adv, ret) = rollout.advantages(cfg.gamma, cfg.gae_lambda);
        let (m, c, stats) =
            ppo::update(model, critic, &mut optim, &rollout, &adv, &ret, cfg, lr, &train_device, &mut rng);
        (model, critic) = (m, c);
        for (what, v) in
            [("policy_loss", stats.policy_loss), ("value_loss", stats.value_loss), ("entropy", stats.entropy)]
        {
            if !v.is_finite() {
                return Err(TrainError::Diverged { update: state.update, what });
            }
        }
        state.update += 1;
        state.seconds = seconds_before + start.elapsed().as_secs_f64();

        // 3. Logs (CleanRL names).
        let elapsed = start.elapsed().as_secs_f64().max(1e-9);
        let hands_per_s = (state.hands - start_hands) as f64 / elapsed;
        let decisions_per_s = (state.decisions - start_decisions) as f64 / elapsed;
        let step = state.decisions;
        log.scalar("charts/learning_rate", lr as f32, step);
        log.scalar("charts/hands_per_s", hands_per_s as f32, step);
        log.scalar("charts/decisions_per_s", decisions_per_s as f32, step);
        log.scalar("charts/hands", state.hands as f32, step);
        if episodes > 0 {
            log.scalar("charts/episodic_return", (returns / episodes as f64) as f32, step);
        }
        if finished > 0 {
            log.scalar("charts/episodic_length", lengths as f32 / finished as f32, step);
        }
        log.scalar("losses/policy_loss", stats.policy_loss, step);
        log.scalar("losses/value_loss", stats.value_loss, step);
        log.scalar("losses/entropy", stats.entropy, step);
        log.scalar("losses/approx_kl", stats.approx_kl, step);
        log.scalar("losses/clipfrac", stats.clipfrac, step);
        log.scalar("losses/explained_variance", stats.explained_variance, step);
        log.scalar("losses/grad_norm", stats.grad_norm, step);

        // 4. Opponent pool, evaluation, checkpoints.
        if state.update % cfg.snapshot_every as u64 == 0 {
            pool.push(model.valid());
            if pool.len() > cfg.pool_size.max(1) {
                pool.remove(0);
            }
        }
        let finished = state.hands >= cfg.total_hands;
        let mut best = false;
        if (cfg.eval_every > 0 && state.update % cfg.eval_every as u64 == 0) || finished {
            let eval_model = model.valid();
            let mut results = Vec::new();
            for opp in [EvalOpponent::Random, EvalOpponent::Heuristic] {
                let r = evaluate(&game, &eval_model, &device, opp, cfg.eval_hands, cfg.seed ^ 0xE7A1);
                log.scalar(&format!("eval/win_rate_vs_{}", opp.name()), r.win_rate as f32, step);
                log.scalar(&format!("eval/reward_per_hand_vs_{}", opp.name()), r.reward_per_hand as f32, step);
                results.push((format!("win_rate_vs_{}", opp.name()), r.win_rate as f32));
                results.push((format!("reward_per_hand_vs_{}", opp.name()), r.reward_per_hand as f32));
            }
            state.last_eval = results;
            if let Some(score) = state.eval(BEST_EVAL) {
                if state.best_eval.is_none_or(|b| score >= b) {
                    state.best_eval = Some(score);
                    best = true;
                }
            }
        }
        if state.update % cfg.checkpoint_every as u64 == 0 || finished || best {
            let name = format!("update-{:06}", state.update);
            last_checkpoint =
                Some(checkpoint::save(&ck_root, &name, &model, critic.as_ref(), &optim, &state, cfg, best)?);
        }
        progress.update(&state, hands_per_s, decisions_per_s);
    }
    log.close();
    let elapsed = start.elapsed().as_secs_f64().max(1e-9);
    let checkpoint = match last_checkpoint {
        Some(c) => c,
        None => {
            let name = format!("update-{:06}", state.update);
            checkpoint::save(&ck_root, &name, &model, critic.as_ref(), &optim, &state, cfg, false)?
        }
    };
    Ok(Summary {
        decisions_per_s: (state.decisions - start_decisions) as f64 / elapsed,
        hands_per_hour: (state.hands - start_hands) as f64 / elapsed * 3600.0,
        state,
        checkpoint,
    })
}
