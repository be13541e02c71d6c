//! PPO self-play, top to bottom (after CleanRL's ppo.py): every seat is played
//! by one shared policy (a configurable share of the games puts a past snapshot
//! in the opponents' seats); rollouts run all games in lockstep over a
//! [`VecEnv`] with one batched forward pass per step on the inference copy;
//! autodiff only in the update. With `critic = "oracle"` the advantages come from
//! a separate critic that also sees every hidden hand (training only).
//!
//! [`train`] is the loop; each of its steps is a method of the private `Run`
//! (the loop's state), in the order the loop calls them: `setup` (with
//! `load_or_init`), `collect_rollout`, `bootstrap_open_chains`, `update`,
//! `log_metrics`, `add_to_pool`, `evaluate`, `checkpoint` and `finish`.

use crate::checkpoint::{self, critic_config, policy_config, RunState, BEST_EVAL};
use crate::config::TrainConfig;
use crate::critic::{critic_values, write_oracle, Critic, ORACLE_LEN};
use crate::eval::{self, EvalOpponent};
use crate::log::MetricsLog;
use crate::ppo::{self, UpdateStats};
use crate::profile::{peak_rss_bytes, Phase, Profile};
use crate::rollout::Rollout;
use bones_agents::{Agent, AgentFailure, AgentRng, ViewOf};
use bones_env::vec_env::episode_seed;
use bones_env::{Episode, Game, GameState, VecEnv};
use bones_policy::inference::{decide, Actor};
use bones_policy::model::Policy;
use bones_policy::sparse::SparseRows;
use burn::optim::{AdamConfig, ModuleOptimizer};
use burn::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Mixed into the seed for the teacher's random streams.
const TEACHER_STREAM: u64 = 0x7EAC_4E55;
/// Mixed into the seed for the frozen opponent's random streams.
const OPPONENT_STREAM: u64 = 0x0990_4E47;

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
    /// The teacher or the frozen opponent (config `teacher`, `opponent`) could
    /// not choose: an outside program that crashed, hung or replied badly.
    #[error("the {role} `{agent}` failed at seat {seat}: {failure}")]
    Agent {
        /// `teacher` or `opponent`.
        role: &'static str,
        /// The agent's spec.
        agent: String,
        /// The seat it played.
        seat: usize,
        /// What went wrong.
        failure: AgentFailure,
    },
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
    /// Where this session's time went.
    pub profile: Profile,
    /// The process's peak resident memory in bytes, where the system says.
    pub peak_rss_bytes: Option<u64>,
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
fn hidden_hands<G: Game>(
    game: &G,
    envs: &VecEnv<G>,
    seats: impl ExactSizeIterator<Item = (usize, usize)>,
    orl: usize,
) -> Vec<f32> {
    let mut out = vec![0f32; seats.len() * orl];
    for ((env, seat), row) in seats.zip(out.chunks_mut(orl.max(1))) {
        write_oracle(envs.state(env), game.num_players(), seat, row);
    }
    out
}

/// One agent per game for the config field `field` (`teacher`, `opponent`)
/// holding `spec`; none when it is empty.
fn agents_per_game<G: Game>(
    game: &G,
    cfg: &TrainConfig,
    field: &str,
    spec: Option<Result<bones_agents::AgentSpec, bones_agents::SpecError>>,
) -> Result<Vec<Box<dyn Agent<ViewOf<G>>>>, TrainError> {
    let Some(spec) = spec else { return Ok(Vec::new()) };
    let bad = |e: bones_agents::SpecError| TrainError::Config(format!("`{field}`: {e}"));
    let spec = spec.map_err(bad)?;
    let factory = bones_policy::agent::factory();
    (0..cfg.num_envs).map(|_| factory.build(&spec, game)).collect::<Result<_, _>>().map_err(bad)
}

/// The choices of the per-game `agents` in the games marked `wanted`, each
/// from its seat's view and its own random stream (`seed`, the game and the
/// decision count `step`), in parallel: the same for any thread count.
fn choose<G: Game>(
    agents: &mut [Box<dyn Agent<ViewOf<G>>>],
    envs: &VecEnv<G>,
    wanted: &[bool],
    seed: u64,
    step: u64,
) -> Vec<(usize, Result<usize, AgentFailure>)> {
    agents
        .par_iter_mut()
        .enumerate()
        .filter(|(env, _)| wanted[*env])
        .map(|(env, agent)| {
            let view = envs.state(env).view(envs.seats[env] as usize);
            let mut rng = AgentRng::seed_from_u64(episode_seed(seed, env, step));
            (env, agent.try_act(&view, &mut rng))
        })
        .collect()
}

/// Runs (or resumes) a training run of `game` into `out`.
pub fn train<G: Game>(
    game: G,
    cfg: &TrainConfig,
    out: &Path,
    resume: bool,
    device: Device,
    progress: &mut dyn Progress,
) -> Result<Summary, TrainError> {
    let (mut run, mut learner) = Run::setup(game, cfg, out, resume, device)?;
    while run.state.hands < cfg.total_hands {
        // One random stream per update, from the seed and the update count (a
        // resumed run draws what the uninterrupted run would have drawn): the
        // opponent snapshot, every sampled action, then the minibatch order.
        let mut rng = ChaCha8Rng::seed_from_u64(episode_seed(cfg.seed, 0, run.state.update));
        let lr = run.learning_rate();

        // 1. Rollout on the inference copies; chains still open at its end
        //    bootstrap from the value of the seat's current state.
        let rollout_start = Instant::now();
        let not_env =
            |p: &Profile| p.seconds(Phase::RolloutForward) + p.seconds(Phase::Teacher) + p.seconds(Phase::Opponent);
        let not_env_before = not_env(&run.profile);
        let policy = run.actor(&learner.model);
        let critic = learner.critic.as_ref().map(|c| c.valid());
        let episodes = run.collect_rollout(&policy, critic.as_ref(), &mut rng)?;
        run.bootstrap_open_chains(&policy, critic.as_ref());
        let elsewhere = Duration::from_secs_f64(not_env(&run.profile) - not_env_before);
        run.profile.add(Phase::Env, rollout_start.elapsed().saturating_sub(elsewhere));

        // 2. Update: GAE, then the PPO epochs on the autodiff networks.
        let (updated, stats) = run.update(learner, lr, &mut rng)?;
        learner = updated;

        // 3. Logs (CleanRL names).
        let speed = run.session.speed(&run.state);
        run.log_metrics(lr, speed, &episodes, &stats);

        // 4. Opponent pool, evaluation, checkpoints.
        run.add_to_pool(&learner.model);
        let eval_start = Instant::now();
        let best = run.evaluate(&learner.model);
        run.profile.since(Phase::Evaluation, eval_start);
        let checkpoint_start = Instant::now();
        run.checkpoint(&learner, best)?;
        run.profile.since(Phase::Checkpoint, checkpoint_start);
        progress.update(&run.state, speed.hands_per_s, speed.decisions_per_s);
    }
    run.finish(&learner)
}

/// The networks being trained (on the autodiff device) and their optimizer.
struct Learner {
    /// The policy with its value head.
    model: Policy,
    /// The oracle critic, with `critic = "oracle"`.
    critic: Option<Critic>,
    /// One Adam for both networks.
    optim: ModuleOptimizer,
}

/// Sizes of the game's inputs and outputs.
#[derive(Clone, Copy, Debug)]
struct Dims {
    /// Observation length.
    obs: usize,
    /// Action-space size.
    actions: usize,
    /// Seats at the table.
    players: usize,
    /// Hidden-hand floats per decision for the oracle critic (0: no oracle critic).
    oracle: usize,
}

/// This session's start (a resumed run's speeds count only its own session).
struct Session {
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

impl Session {
    fn new(state: &RunState) -> Session {
        Session { start: Instant::now(), hands: state.hands, decisions: state.decisions, seconds_before: state.seconds }
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

/// Finished games of one rollout (CleanRL's `charts/episodic_…`).
struct Episodes {
    /// Steps so far of each game's current episode (a rollout starts them at 0).
    steps: Vec<u32>,
    /// Sum of the learner's returns in the games against a snapshot, and their number.
    return_sum: f64,
    against_pool: u64,
    /// Sum of the lengths of the finished games, and their number.
    length_sum: u64,
    finished: u64,
}

impl Episodes {
    fn new(num_envs: usize) -> Episodes {
        Episodes { steps: vec![0; num_envs], return_sum: 0.0, against_pool: 0, length_sum: 0, finished: 0 }
    }
}

/// Everything the loop carries from one update to the next, besides the networks.
struct Run<'a, G: Game> {
    game: G,
    cfg: &'a TrainConfig,
    /// Inference device (rollouts, evaluation).
    device: Device,
    /// Autodiff device (the update).
    train_device: Device,
    dims: Dims,
    /// `OUT/checkpoints`.
    ck_root: PathBuf,
    /// Counters, saved in checkpoints.
    state: RunState,
    log: MetricsLog,
    /// The games, in lockstep.
    envs: VecEnv<G>,
    rollout: Rollout,
    /// Past policies, oldest first.
    pool: Vec<Actor>,
    /// The teacher of each game (config `teacher`; empty: none).
    teachers: Vec<Box<dyn Agent<ViewOf<G>>>>,
    /// The frozen opponent of each game (config `opponent`; empty: self-play).
    opponents: Vec<Box<dyn Agent<ViewOf<G>>>>,
    session: Session,
    /// Time per phase of the loop.
    profile: Profile,
    last_checkpoint: Option<PathBuf>,
}

/// Fresh networks, optimizer and counters; with `resume`, those of the latest
/// checkpoint under `ck_root` (refused if it has another game or network shape).
fn load_or_init(
    cfg: &TrainConfig,
    dims: Dims,
    ck_root: &Path,
    resume: bool,
    train_device: &Device,
) -> Result<(Learner, RunState), TrainError> {
    let Dims { obs: ol, actions: na, oracle: orl, .. } = dims;
    // Initialised even when resuming (the loads replace them), so the seeded
    // initialisation draws the same whether or not a run resumes.
    let mut model: Policy = policy_config(cfg, ol, na).init(train_device);
    let mut critic: Option<Critic> = cfg.oracle_critic().then(|| critic_config(cfg, ol, orl).init(train_device));
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let mut state = RunState::default();
    if resume {
        let dir = checkpoint::latest(ck_root)
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
        model = checkpoint::load_model(&dir, ol, na, train_device)?;
        if critic.is_some() {
            critic = Some(checkpoint::load_critic(&dir, ol, orl, train_device)?);
        }
        optim = checkpoint::load_optim(&dir, optim)?;
        state = saved_state;
    } else if !cfg.init.trim().is_empty() {
        let dir = Path::new(cfg.init.trim());
        let saved = checkpoint::read_config(dir)?;
        if (&saved.game, saved.hidden, saved.depth) != (&cfg.game, cfg.hidden, cfg.depth) {
            return Err(TrainError::Config(format!(
                "`init`: {} is a {} policy with hidden={} depth={}; this config trains {} with hidden={} depth={}",
                dir.display(),
                saved.game,
                saved.hidden,
                saved.depth,
                cfg.game,
                cfg.hidden,
                cfg.depth
            )));
        }
        model = checkpoint::load_model(dir, ol, na, train_device)?;
    }
    Ok((Learner { model, critic, optim }, state))
}

impl<'a, G: Game> Run<'a, G> {
    /// Checks the config, seeds the device, loads or initialises the networks,
    /// writes `config.toml`, opens the log and deals the games.
    fn setup(
        game: G,
        cfg: &'a TrainConfig,
        out: &Path,
        resume: bool,
        device: Device,
    ) -> Result<(Run<'a, G>, Learner), TrainError> {
        cfg.validate().map_err(TrainError::Config)?;
        if cfg.game != game.name() {
            return Err(TrainError::Config(format!(
                "the config trains `{}`, but the game given is `{}`",
                cfg.game,
                game.name()
            )));
        }
        std::fs::create_dir_all(out).map_err(io_err(out))?;
        let ck_root = out.join("checkpoints");
        let train_device = device.clone().autodiff();
        train_device.seed(cfg.seed);
        let dims = Dims {
            obs: game.obs_len(),
            actions: game.num_actions(),
            players: game.num_players(),
            oracle: if cfg.oracle_critic() { ORACLE_LEN } else { 0 },
        };
        let (learner, state) = load_or_init(cfg, dims, &ck_root, resume, &train_device)?;
        std::fs::write(out.join("config.toml"), cfg.to_toml()).map_err(io_err(out))?;
        let log = MetricsLog::new(out).map_err(io_err(out))?;

        // Games in lockstep; a resumed run deals new games from its update count.
        let envs = VecEnv::new(
            game.clone().with_reward(cfg.reward),
            Episode::Hand,
            cfg.num_envs,
            episode_seed(cfg.seed, usize::MAX, state.update),
            cfg.env_threads,
        );
        let rollout = Rollout::new(cfg.num_envs, dims.obs, dims.actions, dims.oracle);
        let teachers = agents_per_game(&game, cfg, "teacher", cfg.teacher_spec())?;
        let opponents = agents_per_game(&game, cfg, "opponent", cfg.opponent_spec())?;
        let run = Run {
            game,
            cfg,
            device,
            train_device,
            dims,
            last_checkpoint: checkpoint::latest(&ck_root),
            ck_root,
            session: Session::new(&state),
            state,
            log,
            envs,
            rollout,
            pool: Vec::new(),
            teachers,
            opponents,
            profile: Profile::default(),
        };
        Ok((run, learner))
    }

    /// The inference copy of `model`, ready to act (its input layer sparse
    /// where the config and device say so).
    fn actor(&self, model: &Policy) -> Actor {
        Actor::with_sparse_input(model.valid(), &self.device, self.cfg.sparse_input)
    }

    /// The learning rate of the next update (annealed linearly over the run's hands).
    fn learning_rate(&self) -> f64 {
        let cfg = self.cfg;
        let frac = 1.0 - self.state.hands as f64 / cfg.total_hands as f64;
        if cfg.anneal_lr {
            cfg.learning_rate * frac.max(0.02)
        } else {
            cfg.learning_rate
        }
    }

    /// Whether the run has played its hands (the last update evaluates and checkpoints).
    fn finished(&self) -> bool {
        self.state.hands >= self.cfg.total_hands
    }

    /// Steps every game `num_steps` times. The learner's seats play `policy` and
    /// are recorded (valued by the oracle `critic` when there is one); in the
    /// first `opponent_share` of the games the other team plays a snapshot drawn
    /// from the pool (everywhere else, `policy` plays every seat).
    /// With a frozen opponent (config `opponent`) it plays the other side in
    /// every game instead.
    fn collect_rollout(
        &mut self,
        policy: &Actor,
        critic: Option<&Critic>,
        rng: &mut ChaCha8Rng,
    ) -> Result<Episodes, TrainError> {
        let cfg = self.cfg;
        let frozen = !self.opponents.is_empty();
        let opponent = (!frozen && !self.pool.is_empty() && cfg.opponent_share > 0.0)
            .then(|| self.pool[rng.random_range(0..self.pool.len())].clone());
        let pool_envs = match &opponent {
            _ if frozen => cfg.num_envs,
            Some(_) => (cfg.opponent_share * cfg.num_envs as f32).round() as usize,
            None => 0,
        };
        self.rollout.clear();
        let mut episodes = Episodes::new(cfg.num_envs);
        let mut actions = vec![0usize; cfg.num_envs];
        for _ in 0..cfg.num_steps {
            let (mine, theirs) = self.to_move(pool_envs);
            self.act(&mine, policy, critic, true, rng, &mut actions)?;
            if frozen {
                self.act_frozen(&theirs, &mut actions)?;
            } else {
                self.act(&theirs, opponent.as_ref().unwrap_or(policy), None, false, rng, &mut actions)?;
            }
            self.envs.step(&actions).expect("sampled actions are legal");
            self.state.decisions += cfg.num_envs as u64;
            self.credit_rewards(pool_envs, &mut episodes);
        }
        Ok(episodes)
    }

    /// The games where the learner is to move, and the others. In the first
    /// `pool_envs` games (those against a snapshot) the learner is the team of
    /// seat `env % players`; in the rest it plays every seat.
    fn to_move(&self, pool_envs: usize) -> (Vec<usize>, Vec<usize>) {
        let (game, np) = (&self.game, self.dims.players);
        let learns = |env: usize, seat: usize| env >= pool_envs || game.team_of(seat) == game.team_of(env % np);
        (0..self.cfg.num_envs).partition(|&env| learns(env, self.envs.seats[env] as usize))
    }

    /// One batched forward pass of `net` for the games `rows`: samples their
    /// actions into `actions`; with `record`, adds the decisions to the rollout
    /// (their values from `critic` when given, else from `net`'s value head).
    fn act(
        &mut self,
        rows: &[usize],
        net: &Actor,
        critic: Option<&Critic>,
        record: bool,
        rng: &mut ChaCha8Rng,
        actions: &mut [usize],
    ) -> Result<(), TrainError> {
        if rows.is_empty() {
            return Ok(());
        }
        let Dims { obs: ol, actions: na, oracle: orl, .. } = self.dims;
        let envs = &self.envs;
        let mut obs = SparseRows::new(ol);
        for &e in rows {
            obs.push_dense(&envs.obs[e * ol..(e + 1) * ol]);
        }
        let masks: Vec<f32> = rows.iter().flat_map(|&e| envs.mask[e * na..(e + 1) * na].iter().copied()).collect();
        let forward_start = Instant::now();
        let mut decisions = decide(net, &obs, &masks, na, Some(rng));
        let mut oracle = Vec::new();
        if let Some(c) = critic.filter(|_| record) {
            oracle = hidden_hands(&self.game, envs, rows.iter().map(|&e| (e, envs.seats[e] as usize)), orl);
            let dense = obs.to_dense();
            for (d, v) in decisions.iter_mut().zip(critic_values(c, &self.device, &dense, &oracle, rows.len())) {
                d.value = v;
            }
        }
        self.profile.since(Phase::RolloutForward, forward_start);
        let teacher = if record { self.teach(rows)? } else { Vec::new() };
        let envs = &self.envs;
        for (k, (&env, d)) in rows.iter().zip(&decisions).enumerate() {
            actions[env] = d.action;
            if record {
                let seat = envs.seats[env] as usize;
                let m = &masks[k * na..(k + 1) * na];
                let h = if orl > 0 { &oracle[k * orl..(k + 1) * orl] } else { &[][..] };
                self.rollout.push(env, seat, &obs, k, m, h, d.action, d.logp, d.value);
                if let Some(t) = self.rollout.steps.last_mut() {
                    t.teacher = teacher.get(env).copied().flatten();
                }
            }
        }
        Ok(())
    }

    /// The frozen opponent's actions in the games `rows`, into `actions`. The
    /// opponents act in parallel, each game's from its own random stream (the
    /// seed, the game and the decision count), so they do not depend on the threads.
    /// A failure of the opponent's ends the run (nothing is made up for it).
    fn act_frozen(&mut self, rows: &[usize], actions: &mut [usize]) -> Result<(), TrainError> {
        let start = Instant::now();
        let mut theirs = vec![false; self.cfg.num_envs];
        for &env in rows {
            theirs[env] = true;
        }
        let chosen =
            choose(&mut self.opponents, &self.envs, &theirs, self.cfg.seed ^ OPPONENT_STREAM, self.state.decisions);
        self.profile.since(Phase::Opponent, start);
        for (env, a) in chosen {
            actions[env] = a.map_err(|f| self.agent_failed("opponent", &self.cfg.opponent, env, f))?;
        }
        Ok(())
    }

    /// The teacher's action in each game of `rows` whose seat to move has a
    /// choice, indexed by game (empty without a teacher). The teachers act in
    /// parallel, each game's from its own random stream (the seed, the game
    /// and the decision count), so the labels do not depend on the threads.
    fn teach(&mut self, rows: &[usize]) -> Result<Vec<Option<usize>>, TrainError> {
        if self.teachers.is_empty() {
            return Ok(Vec::new());
        }
        let start = Instant::now();
        let mut choice = vec![false; self.cfg.num_envs];
        for &env in rows {
            choice[env] = self.envs.state(env).legal_mask().len() > 1;
        }
        let labels =
            choose(&mut self.teachers, &self.envs, &choice, self.cfg.seed ^ TEACHER_STREAM, self.state.decisions);
        self.profile.since(Phase::Teacher, start);
        let mut out = vec![None; self.cfg.num_envs];
        for (env, a) in labels {
            out[env] = Some(a.map_err(|f| self.agent_failed("teacher", &self.cfg.teacher, env, f))?);
        }
        Ok(out)
    }

    /// The error of agent `spec` (the `role` config field) failing in game `env`.
    fn agent_failed(&self, role: &'static str, spec: &str, env: usize, failure: AgentFailure) -> TrainError {
        TrainError::Agent { role, agent: spec.to_string(), seat: self.envs.seats[env] as usize, failure }
    }

    /// Credits the last step's rewards (times `reward_scale`) to each seat's
    /// latest decision and counts the games that ended (the learner's return
    /// only in the first `pool_envs` games, those against a snapshot).
    fn credit_rewards(&mut self, pool_envs: usize, episodes: &mut Episodes) {
        let np = self.dims.players;
        for (env, len) in episodes.steps.iter_mut().enumerate() {
            let r: [f32; 4] = std::array::from_fn(|seat| self.envs.rewards[env * 4 + seat] * self.cfg.reward_scale);
            let done = self.envs.dones[env];
            self.rollout.reward(env, &r, done);
            *len += 1;
            if done {
                self.state.hands += 1;
                if env < pool_envs {
                    // The learner's return against the snapshot.
                    episodes.return_sum += r[env % np] as f64;
                    episodes.against_pool += 1;
                }
                episodes.length_sum += *len as u64;
                episodes.finished += 1;
                *len = 0;
            }
        }
    }

    /// Chains still open bootstrap from the value of the seat's current state
    /// (the oracle critic's, or else the policy's value head).
    fn bootstrap_open_chains(&mut self, policy: &Actor, critic: Option<&Critic>) {
        let Dims { obs: ol, actions: na, oracle: orl, .. } = self.dims;
        let open = self.rollout.open_chains();
        if open.is_empty() {
            return;
        }
        let mut obs = vec![0f32; open.len() * ol];
        for (k, &(env, seat, _)) in open.iter().enumerate() {
            self.envs.state(env).observe(seat, &mut obs[k * ol..(k + 1) * ol]);
        }
        let forward_start = Instant::now();
        let values: Vec<f32> = match critic {
            Some(c) => {
                let oracle = hidden_hands(&self.game, &self.envs, open.iter().map(|&(env, seat, _)| (env, seat)), orl);
                critic_values(c, &self.device, &obs, &oracle, open.len())
            }
            None => {
                let masks = vec![1f32; open.len() * na];
                decide(policy, &SparseRows::from_dense(&obs, ol), &masks, na, None).iter().map(|d| d.value).collect()
            }
        };
        self.profile.since(Phase::RolloutForward, forward_start);
        for (&(_, _, i), v) in open.iter().zip(values) {
            self.rollout.set_bootstrap(i, v);
        }
    }

    /// GAE over each seat's chain, then the PPO epochs; counts the update. A
    /// non-finite loss stops the run.
    fn update(
        &mut self,
        learner: Learner,
        lr: f64,
        rng: &mut ChaCha8Rng,
    ) -> Result<(Learner, UpdateStats), TrainError> {
        let cfg = self.cfg;
        let (adv, ret) = self.rollout.advantages(cfg.gamma, cfg.gae_lambda);
        let Learner { model, critic, mut optim } = learner;
        let nets = ppo::Nets { model, critic };
        let batch = ppo::Batch { rollout: &self.rollout, advantages: &adv, returns: &ret };
        let settings = ppo::Settings { cfg, lr, device: &self.train_device };
        let (ppo::Nets { model, critic }, stats) =
            ppo::update(nets, &mut optim, batch, settings, rng, &mut self.profile);
        for (what, v) in
            [("policy_loss", stats.policy_loss), ("value_loss", stats.value_loss), ("entropy", stats.entropy)]
        {
            if !v.is_finite() {
                return Err(TrainError::Diverged { update: self.state.update, what });
            }
        }
        self.state.update += 1;
        self.state.seconds = self.session.run_seconds();
        Ok((Learner { model, critic, optim }, stats))
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
        if !self.teachers.is_empty() {
            log.scalar("losses/teacher_loss", stats.teacher_loss, step);
        }
    }

    /// Every `snapshot_every` updates the policy joins the opponent pool (the
    /// oldest snapshot leaves once it holds `pool_size`).
    fn add_to_pool(&mut self, model: &Policy) {
        let (update, cfg) = (self.state.update, self.cfg);
        if update % cfg.snapshot_every as u64 == 0 {
            let actor = self.actor(model);
            self.pool.push(actor);
            if self.pool.len() > cfg.pool_size.max(1) {
                self.pool.remove(0);
            }
        }
    }

    /// Every `eval_every` updates, and after the last, plays the greedy policy
    /// against each baseline; logs and keeps the results. Returns whether this is
    /// the best evaluation so far (by [`BEST_EVAL`]; ties count as better).
    fn evaluate(&mut self, model: &Policy) -> bool {
        let cfg = self.cfg;
        // `eval_every = 0`: no remainder, so only after the last update.
        let due = self.state.update.checked_rem(cfg.eval_every as u64) == Some(0) || self.finished();
        if !due {
            return false;
        }
        let eval_model = self.actor(model);
        let step = self.state.decisions;
        let mut results = Vec::new();
        for opp in [EvalOpponent::Random, EvalOpponent::Heuristic] {
            // A game without a heuristic player is evaluated against random only.
            let Ok(r) = eval::evaluate(&self.game, &eval_model, opp, cfg.eval_hands, cfg.seed ^ 0xE7A1) else {
                continue;
            };
            self.log.scalar(&format!("eval/win_rate_vs_{}", opp.name()), r.win_rate as f32, step);
            self.log.scalar(&format!("eval/reward_per_hand_vs_{}", opp.name()), r.reward_per_hand as f32, step);
            results.push((format!("win_rate_vs_{}", opp.name()), r.win_rate as f32));
            results.push((format!("reward_per_hand_vs_{}", opp.name()), r.reward_per_hand as f32));
        }
        self.state.last_eval = results;
        match self.state.eval(BEST_EVAL) {
            Some(score) if self.state.best_eval.is_none_or(|b| score >= b) => {
                self.state.best_eval = Some(score);
                true
            }
            _ => false,
        }
    }

    /// Every `checkpoint_every` updates, after the last, and at every new best
    /// evaluation, saves a checkpoint.
    fn checkpoint(&mut self, learner: &Learner, best: bool) -> Result<(), TrainError> {
        let (update, cfg) = (self.state.update, self.cfg);
        if update % cfg.checkpoint_every as u64 == 0 || self.finished() || best {
            self.last_checkpoint = Some(self.save(learner, best)?);
        }
        Ok(())
    }

    /// Saves the checkpoint of the current update (`update-NNNNNN`).
    fn save(&self, learner: &Learner, best: bool) -> Result<PathBuf, TrainError> {
        let name = format!("update-{:06}", self.state.update);
        let Learner { model, critic, optim } = learner;
        Ok(checkpoint::save(&self.ck_root, &name, model, critic.as_ref(), optim, &self.state, self.cfg, best)?)
    }

    /// Closes the log; makes sure a checkpoint exists (a run with nothing left
    /// to play saves one); reports.
    fn finish(mut self, learner: &Learner) -> Result<Summary, TrainError> {
        self.log.close();
        let speed = self.session.speed(&self.state);
        self.profile.total = self.session.start.elapsed().as_secs_f64();
        let checkpoint = match self.last_checkpoint.take() {
            Some(c) => c,
            None => self.save(learner, false)?,
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
