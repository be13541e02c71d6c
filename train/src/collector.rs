//! The rollout side of training: a [`Collector`] owns a share of the games
//! (a [`VecEnv`] in lockstep), their teachers and frozen opponents, and plays
//! one rollout at a time with the policy it is handed. The synchronous loop
//! has one collector for all the games; the actor-learner (`workers = N`) gives
//! each worker thread its own collector and shard of the games.

use crate::checkpoint::RunState;
use crate::config::{GivenSpec, TrainConfig};
use crate::critic::{critic_values, write_oracle, Critic, ORACLE_LEN};
use crate::error::{ShardError, TrainError};
use crate::profile::{Phase, Profile};
use crate::rollout::Rollout;
use bones_agents::AgentGame;
use bones_agents::{Agent, AgentFailure, AgentRng, ViewOf};
use bones_env::vec_env::episode_seed;
use bones_env::{Episode, Game, GameState, VecEnv};
use bones_policy::inference::{decide, Actor};
use bones_policy::sparse::SparseRows;
use burn::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Mixed into the seed for the teacher's random streams.
const TEACHER_STREAM: u64 = 0x7EAC_4E55;
/// Mixed into the seed for the frozen opponent's random streams.
const OPPONENT_STREAM: u64 = 0x0990_4E47;
/// Mixed into a worker's agent streams (times the worker's number).
const WORKER_STREAM: u64 = 0x3C0F_FEE5_0000;

/// Sizes of the game's inputs and outputs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dims {
    /// Observation length.
    pub obs: usize,
    /// Action-space size.
    pub actions: usize,
    /// Seats at the table.
    pub players: usize,
    /// Hidden-hand floats per decision for the oracle critic (0: no oracle critic).
    pub oracle: usize,
}

/// Finished games and counters of one rollout (CleanRL's `charts/episodic_…`).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Episodes {
    /// Steps so far of each game's current episode (a rollout starts them at 0).
    steps: Vec<u32>,
    /// Sum of the learner's returns in the games against a snapshot, and their number.
    pub return_sum: f64,
    pub against_pool: u64,
    /// Sum of the lengths of the finished games, and their number.
    pub length_sum: u64,
    pub finished: u64,
    /// Decisions taken (every seat's) and hands finished in the rollout.
    pub decisions: u64,
    pub hands: u64,
}

impl Dims {
    /// The sizes of `game` trained with `cfg`.
    pub fn of<G: Game>(game: &G, cfg: &TrainConfig) -> Dims {
        Dims {
            obs: game.obs_len(),
            actions: game.num_actions(),
            players: game.num_players(),
            oracle: if cfg.oracle_critic() { ORACLE_LEN } else { 0 },
        }
    }
}

impl Episodes {
    fn new(num_envs: usize) -> Episodes {
        Episodes { steps: vec![0; num_envs], ..Episodes::default() }
    }

    /// Checks the counts of a shard of `games` games that stepped
    /// `num_steps` times (a remote worker's): a decision of every game at
    /// every step, as many hands as finished games, no more of them than
    /// decisions, games against a snapshot among them, a finite return.
    pub fn check(&self, games: usize, num_steps: usize) -> Result<(), ShardError> {
        let bad = |field, value: &dyn ToString, expected: String| {
            Err(ShardError::Episodes { field, value: value.to_string(), expected })
        };
        let decisions = (games as u64).saturating_mul(num_steps as u64);
        if self.steps.len() != games {
            return bad("steps", &self.steps.len(), format!("{games} entries (one per game of the shard)"));
        }
        if self.decisions != decisions {
            return bad("decisions", &self.decisions, format!("{decisions} (`num_steps` × the shard's {games} games)"));
        }
        if self.finished > decisions {
            return bad("finished", &self.finished, format!("at most {decisions} (one per decision)"));
        }
        if self.hands != self.finished {
            return bad("hands", &self.hands, format!("{} (`finished`: every finished game is a hand)", self.finished));
        }
        if self.against_pool > self.finished {
            return bad("against_pool", &self.against_pool, format!("at most {} (`finished`)", self.finished));
        }
        if !(self.finished..=decisions).contains(&self.length_sum) {
            let expected =
                format!("{} to {decisions} (at least a step per finished game, at most the decisions)", self.finished);
            return bad("length_sum", &self.length_sum, expected);
        }
        if !self.return_sum.is_finite() {
            return bad("return_sum", &self.return_sum, "a finite number".into());
        }
        Ok(())
    }

    /// Adds another shard's counts to these.
    pub fn absorb(&mut self, other: &Episodes) {
        self.return_sum += other.return_sum;
        self.against_pool += other.against_pool;
        self.length_sum += other.length_sum;
        self.finished += other.finished;
        self.decisions += other.decisions;
        self.hands += other.hands;
    }
}

/// What a collector is handed to play one rollout with.
#[derive(Clone)]
pub(crate) struct Behaviour<'p> {
    /// The policy of the learner's seats (an inference copy of some update's weights).
    pub policy: &'p Actor,
    /// The oracle critic of the same update (`critic = "oracle"`).
    pub critic: Option<&'p Critic>,
    /// Past policies, oldest first: the snapshot opponents.
    pub pool: &'p [Actor],
}

/// A share of the games and everything that plays them.
pub(crate) struct Collector<G: Game> {
    game: G,
    cfg: Arc<TrainConfig>,
    /// Inference device (the forward passes).
    device: Device,
    dims: Dims,
    /// The shard's number (0: the synchronous loop's, or the first worker's).
    worker: u64,
    /// The games, in lockstep.
    envs: VecEnv<G>,
    /// The rollout being recorded.
    pub rollout: Rollout,
    /// The teacher of each game (config `teacher`; empty: none).
    teachers: Vec<Box<dyn Agent<ViewOf<G>>>>,
    /// The frozen opponent of each game (config `opponent`; empty: self-play).
    opponents: Vec<Box<dyn Agent<ViewOf<G>>>>,
    /// Decisions taken so far (the step of the agents' random streams).
    pub decisions: u64,
    /// Time per phase of the rollouts.
    pub profile: Profile,
}

/// One agent per game for the config field `field` (`teacher`, `opponent`)
/// holding `spec`; none without one.
fn agents_per_game<G: AgentGame>(
    game: &G,
    n: usize,
    field: &str,
    spec: Option<&GivenSpec>,
) -> Result<Vec<Box<dyn Agent<ViewOf<G>>>>, TrainError> {
    let Some(spec) = spec else { return Ok(Vec::new()) };
    let bad = |e: bones_agents::SpecError| TrainError::Config(format!("`{field}`: {e}"));
    let factory = bones_policy::agent::factory();
    (0..n).map(|_| factory.build(spec.spec(), game)).collect::<Result<_, _>>().map_err(bad)
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

/// The oracle critic's input for each `(env, seat)`: `orl` floats per row.
fn hidden_hands<G: AgentGame>(
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

impl<G: AgentGame> Collector<G> {
    /// Shard `worker` of the games (shard 0's streams are the synchronous
    /// loop's) with `games` games: those of `saved` (a checkpoint's
    /// `VecEnv::save` of this shard, for a resumed run to play on from where
    /// the checkpoint was taken) when they are `games` games, else dealt from
    /// the seed, the shard and the run's update count.
    pub fn new(
        game: &G,
        cfg: &Arc<TrainConfig>,
        device: &Device,
        dims: Dims,
        (worker, games): (usize, usize),
        run: &RunState,
        saved: Option<&[u8]>,
    ) -> Result<Collector<G>, TrainError> {
        let ruled = game.clone().with_reward(cfg.model.reward);
        // Saved games of another count (`num_envs` changed) are not these: deal new ones.
        let restored = match saved {
            Some(bytes) => Some(
                VecEnv::restore(ruled.clone(), cfg.run.env_threads, bytes)
                    .map_err(|e| TrainError::Resume(format!("the checkpoint's games do not restore: {e}")))?,
            ),
            None => None,
        };
        let envs = match restored.filter(|envs| envs.len() == games) {
            Some(envs) => envs,
            None => {
                let env_seed = episode_seed(cfg.run.seed, usize::MAX - worker, run.update);
                VecEnv::new(ruled, Episode::Hand, games, env_seed, cfg.run.env_threads)
            }
        };
        Ok(Collector {
            game: game.clone(),
            cfg: Arc::clone(cfg),
            device: device.clone(),
            dims,
            worker: worker as u64,
            rollout: Rollout::new(games, dims.obs, dims.actions, dims.oracle),
            teachers: agents_per_game(game, games, "teacher", cfg.ppo.teacher.as_ref())?,
            opponents: agents_per_game(game, games, "opponent", cfg.opponents.opponent.as_ref())?,
            envs,
            decisions: run.decisions,
            profile: Profile::default(),
        })
    }

    /// The games as they stand (what a checkpoint saves of them).
    pub fn games(&self) -> &VecEnv<G> {
        &self.envs
    }

    /// Plays one rollout with `behaviour` into [`Collector::rollout`]: every
    /// game steps `num_steps` times, then the chains still open bootstrap from
    /// the value of the seat's current state. `rng` draws the opponent snapshot
    /// and every sampled action.
    pub fn play(&mut self, behaviour: &Behaviour, rng: &mut ChaCha8Rng) -> Result<Episodes, TrainError> {
        let start = Instant::now();
        let not_env =
            |p: &Profile| p.seconds(Phase::RolloutForward) + p.seconds(Phase::Teacher) + p.seconds(Phase::Opponent);
        let not_env_before = not_env(&self.profile);
        let episodes = self.collect(behaviour, rng)?;
        self.bootstrap_open_chains(behaviour.policy, behaviour.critic);
        let elsewhere = Duration::from_secs_f64(not_env(&self.profile) - not_env_before);
        self.profile.add(Phase::Env, start.elapsed().saturating_sub(elsewhere));
        Ok(episodes)
    }

    /// Steps every game `num_steps` times. The learner's seats play the policy
    /// and are recorded (valued by the oracle critic when there is one); in the
    /// first `opponent_share` of the games the other team plays a snapshot drawn
    /// from the pool (everywhere else, the policy plays every seat).
    /// With a frozen opponent (config `opponent`) it plays the other side in
    /// every game instead.
    fn collect(&mut self, behaviour: &Behaviour, rng: &mut ChaCha8Rng) -> Result<Episodes, TrainError> {
        let cfg = Arc::clone(&self.cfg);
        let n = self.envs.len();
        let Behaviour { policy, critic, pool } = *behaviour;
        let frozen = !self.opponents.is_empty();
        let opponent = (!frozen && !pool.is_empty() && cfg.opponents.opponent_share > 0.0)
            .then(|| pool[rng.random_range(0..pool.len())].clone());
        let pool_envs = match &opponent {
            _ if frozen => n,
            Some(_) => (cfg.opponents.opponent_share * n as f32).round() as usize,
            None => 0,
        };
        self.rollout.clear();
        let mut episodes = Episodes::new(n);
        let mut actions = vec![0usize; n];
        for _ in 0..cfg.ppo.num_steps {
            let (mine, theirs) = self.to_move(pool_envs);
            self.act(&mine, policy, critic, true, rng, &mut actions)?;
            if frozen {
                self.act_frozen(&theirs, &mut actions)?;
            } else {
                self.act(&theirs, opponent.as_ref().unwrap_or(policy), None, false, rng, &mut actions)?;
            }
            self.envs.step(&actions).expect("sampled actions are legal");
            // The agents' stream step: weights sent to a remote worker may
            // start it anywhere, so it wraps rather than overflow.
            self.decisions = self.decisions.wrapping_add(n as u64);
            episodes.decisions += n as u64;
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
        (0..self.envs.len()).partition(|&env| learns(env, self.envs.seats[env] as usize))
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
                let m = &masks[k * na..(k + 1) * na];
                let seat = envs.seats[env] as usize;
                let h = if orl > 0 { &oracle[k * orl..(k + 1) * orl] } else { &[][..] };
                self.rollout.push(env, seat, &obs, k, m, h, d.action, d.logp, d.value);
                if let Some(t) = self.rollout.steps.last_mut() {
                    t.teacher = teacher.get(env).copied().flatten();
                }
            }
        }
        Ok(())
    }

    /// The seed of an agent stream (`stream`: the teacher's or the opponent's):
    /// the run's for the synchronous loop, one of its own for each worker.
    fn agent_seed(&self, stream: u64) -> u64 {
        self.cfg.run.seed ^ stream ^ self.worker.wrapping_mul(WORKER_STREAM)
    }

    /// The frozen opponent's actions in the games `rows`, into `actions`. The
    /// opponents act in parallel, each game's from its own random stream (the
    /// seed, the game and the decision count), so they do not depend on the threads.
    /// A failure of the opponent's ends the run (nothing is made up for it).
    fn act_frozen(&mut self, rows: &[usize], actions: &mut [usize]) -> Result<(), TrainError> {
        let start = Instant::now();
        let mut theirs = vec![false; self.envs.len()];
        for &env in rows {
            theirs[env] = true;
        }
        let seed = self.agent_seed(OPPONENT_STREAM);
        let chosen = choose(&mut self.opponents, &self.envs, &theirs, seed, self.decisions);
        self.profile.since(Phase::Opponent, start);
        for (env, a) in chosen {
            actions[env] =
                a.map_err(|f| self.agent_failed("opponent", self.cfg.opponents.opponent.as_ref(), env, f))?;
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
        let mut choice = vec![false; self.envs.len()];
        for &env in rows {
            choice[env] = self.envs.state(env).legal_mask().len() > 1;
        }
        let seed = self.agent_seed(TEACHER_STREAM);
        let labels = choose(&mut self.teachers, &self.envs, &choice, seed, self.decisions);
        self.profile.since(Phase::Teacher, start);
        let mut out = vec![None; self.envs.len()];
        for (env, a) in labels {
            out[env] = Some(a.map_err(|f| self.agent_failed("teacher", self.cfg.ppo.teacher.as_ref(), env, f))?);
        }
        Ok(out)
    }

    /// The error of agent `spec` (the `role` config field) failing in game `env`.
    fn agent_failed(
        &self,
        role: &'static str,
        spec: Option<&GivenSpec>,
        env: usize,
        failure: AgentFailure,
    ) -> TrainError {
        let agent = spec.map(GivenSpec::to_string).unwrap_or_default();
        TrainError::Agent { role, agent, seat: self.envs.seats[env] as usize, failure }
    }

    /// Credits the last step's rewards (times `reward_scale`) to each seat's
    /// latest decision and counts the games that ended (the learner's return
    /// only in the first `pool_envs` games, those against a snapshot).
    fn credit_rewards(&mut self, pool_envs: usize, episodes: &mut Episodes) {
        let np = self.dims.players;
        for (env, len) in episodes.steps.iter_mut().enumerate() {
            let r: [f32; 4] =
                std::array::from_fn(|seat| self.envs.rewards[env * 4 + seat] * self.cfg.model.reward_scale);
            let done = self.envs.dones[env];
            self.rollout.reward(env, &r, done);
            *len += 1;
            if done {
                episodes.hands += 1;
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
}
