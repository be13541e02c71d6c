//! Labels: a teacher's choices on the positions of another agent's play, made
//! once, kept in a file and read by training runs (expert iteration with a
//! slow teacher).
//!
//! The config's `teacher` asks its agent at every learner decision of every
//! rollout; a search at tens of milliseconds a decision cannot keep up with
//! that. Instead [`make`] plays `hands` hands with the `player` agent in every
//! seat (the network, so the positions are the ones it reaches) and asks the
//! teacher, from the seat's view, what it would do at each seat's first
//! `decisions` decisions with a choice in each hand (in Texas 42 those are
//! the bid, the declaration and the first tricks, where search gains most).
//! The player's actions are played, so the positions do not depend on the
//! teacher. [`LabelFile::write`] keeps them (the observation, the legal
//! actions, the teacher's action and the values it chose by, and the player's
//! probabilities when the player is a network), and a run with
//! `labels = "FILE"` adds, in each minibatch of each update, as many label
//! rows drawn at random to the teacher's cross-entropy (see [`crate::ppo`]).
//!
//! The target of a row is its teacher's action, or with a `label_temperature`
//! T above 0 the player's policy tilted by the teacher's values,
//! `prior(a) · exp((q(a) − max q) / T)` normalised ([`LabelFile::for_game`]):
//! the regularised policy improvement of Grill et al. (2020), which keeps the
//! network's own preferences among actions the teacher values alike and moves
//! it only as far as the teacher's gaps say.
//!
//! The hands are split over `threads` threads and put back in order, and
//! every agent's random stream depends only on the seed, the hand and the
//! decision, so a file depends only on its options, not on the thread count.
//!
//! The file is [`TAG`] followed by the bincode encoding of a [`LabelFile`].

use std::path::Path;

use bones_agents::{Agent, AgentFailure, AgentRng, AgentSpec, SpecError, ViewOf};
use bones_env::{Episode, Game, GameState};
use bones_policy::agent::PolicyAgent;
use bones_policy::folder::write_atomic;
use bones_policy::sparse::SparseRows;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// The first bytes of a label file: its kind and format version.
pub const TAG: &[u8; 8] = b"bonesL02";

/// Mixed into the seed for the teacher's random streams (the player's use the
/// seed as it is).
const TEACHER_STREAM: u64 = 0x7eac_4e15;

/// Why labels could not be made, written or read.
#[derive(Debug, thiserror::Error)]
pub enum LabelError {
    /// The file could not be read or written.
    #[error("label file {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a label file, or is damaged or inconsistent.
    #[error("{path} is not a usable label file: {reason}")]
    Format {
        /// The path.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A teacher or player spec that does not parse or play the game.
    #[error("`{role}`: {source}")]
    Spec {
        /// `teacher` or `player`.
        role: &'static str,
        /// The error.
        source: SpecError,
    },
    /// The teacher or a player failed to choose (an outside program).
    #[error("the {role} `{agent}` failed in hand {hand}: {failure}")]
    Agent {
        /// `teacher` or `player`.
        role: &'static str,
        /// The agent's spec.
        agent: String,
        /// The hand (its number from 0).
        hand: u64,
        /// What went wrong.
        failure: AgentFailure,
    },
    /// The file could not be written.
    #[error("label file {path}: {reason}")]
    Write {
        /// The path.
        path: String,
        /// What went wrong.
        reason: String,
    },
    /// The player chose an action the game refused (a bug in the agent).
    #[error("the player `{agent}` chose an illegal action in hand {hand}: {reason}")]
    Illegal {
        /// The player's spec.
        agent: String,
        /// The hand (its number from 0).
        hand: u64,
        /// The game's reason.
        reason: String,
    },
    /// Labelling stopped because another thread failed.
    #[error("stopped: another labelling thread failed")]
    Stopped,
    /// Bad options.
    #[error("{0}")]
    Options(String),
}

/// What [`make`] labels: the teacher, the agent whose play reaches the
/// positions, and which positions.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    /// The agent whose choices are the labels.
    pub teacher: AgentSpec,
    /// The agent playing every seat.
    pub player: AgentSpec,
    /// Hands (Doubles: rounds) played.
    pub hands: u64,
    /// Hand `i` is dealt from seed `seed + i`.
    pub seed: u64,
    /// Each seat's first this many decisions with a choice in each hand are
    /// labelled (0: all of them).
    pub decisions: u32,
    /// Leave out the positions where the teacher's values tie at the top
    /// (its choice among equals is only its tie rule); a teacher that gives
    /// no values is labelled everywhere.
    pub skip_ties: bool,
    /// Threads (the file does not depend on it).
    pub threads: usize,
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabelRow {
    /// The seat's observation, as its non-zero entries `(index, value)`.
    pub obs: Vec<(u32, f32)>,
    /// The legal actions, as a bit set.
    pub legal: u64,
    /// The teacher's action.
    pub action: u8,
    /// The teacher's value of each action it weighed, in its own unit (empty
    /// when it gives none).
    pub values: Vec<(u8, f32)>,
    /// The player's probability of each legal action (empty when the player
    /// is not a network).
    pub prior: Vec<(u8, f32)>,
}

/// A label file: how it was made and its rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabelFile {
    /// The game's name.
    pub game: String,
    /// The game's rules (JSON text).
    pub rules: String,
    /// Observation length.
    pub obs_len: usize,
    /// Observation layout version (a layout change of the same length is refused).
    pub obs_version: u32,
    /// Action-space size.
    pub num_actions: usize,
    /// The teacher's spec.
    pub teacher: String,
    /// The player's spec.
    pub player: String,
    /// Hands played.
    pub hands: u64,
    /// The first hand's seed.
    pub seed: u64,
    /// Decisions labelled per seat and hand (0: all).
    pub decisions: u32,
    /// Positions where the teacher's values tied at the top were left out.
    pub skip_ties: bool,
    /// The labelled positions, hand by hand in order.
    pub rows: Vec<LabelRow>,
}

/// Labels ready for training: the observations as sparse rows, the legal
/// actions and the target distributions.
#[derive(Clone, Debug)]
pub struct LabelSet {
    /// The observations.
    pub obs: SparseRows,
    /// The legal actions of each row, 0/1, `num_actions` per row.
    pub legal: Vec<f32>,
    /// The target distribution of each row over the actions, `num_actions`
    /// per row (see [`target`]).
    pub target: Vec<f32>,
    /// Action-space size.
    pub num_actions: usize,
}

impl LabelSet {
    /// Rows.
    pub fn len(&self) -> usize {
        self.target.len() / self.num_actions.max(1)
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }
}

/// The training target of `row` over `num_actions` actions at temperature
/// `temperature` (in the teacher's value unit): all on the teacher's action
/// at 0 or when it gave no values, else the player's probabilities (uniform
/// over the legal actions without them) times `exp((q − max q) / T)`,
/// normalised, where an action the teacher did not weigh counts as its
/// least valued one.
pub fn target(row: &LabelRow, num_actions: usize, temperature: f32) -> Vec<f32> {
    let mut out = vec![0f32; num_actions];
    if temperature <= 0.0 || row.values.is_empty() {
        out[row.action as usize] = 1.0;
        return out;
    }
    let legal = (0..num_actions).filter(|&a| row.legal >> a & 1 == 1);
    let top = row.values.iter().map(|&(_, q)| q).fold(f32::NEG_INFINITY, f32::max);
    let least = row.values.iter().map(|&(_, q)| q).fold(f32::INFINITY, f32::min);
    for a in legal {
        let q = row.values.iter().find(|v| v.0 as usize == a).map_or(least, |v| v.1);
        let prior =
            if row.prior.is_empty() { 1.0 } else { row.prior.iter().find(|p| p.0 as usize == a).map_or(0.0, |p| p.1) };
        out[a] = prior * ((q - top) / temperature).exp();
    }
    let z: f32 = out.iter().sum();
    if z > 0.0 && z.is_finite() {
        out.iter_mut().for_each(|x| *x /= z);
    } else {
        // Every weighted action had prior 0: the teacher's action.
        out.iter_mut().for_each(|x| *x = 0.0);
        out[row.action as usize] = 1.0;
    }
    out
}

/// Plays the hands of `opts` and labels their positions (see the module docs);
/// `progress` is told each hand's number as it ends.
pub fn make<G: Game>(game: &G, opts: &LabelOptions, progress: &(dyn Fn(u64) + Sync)) -> Result<LabelFile, LabelError> {
    if opts.hands == 0 || opts.threads == 0 {
        return Err(LabelError::Options("hands and threads must be at least 1".into()));
    }
    if opts.skip_ties && matches!(opts.teacher, AgentSpec::Exec { .. }) {
        return Err(LabelError::Options(
            "skipping ties needs a teacher that values its actions (pimc, search), not an outside program".into(),
        ));
    }
    let factory = bones_policy::agent::factory();
    let build = |role: &'static str, spec: &AgentSpec| {
        factory.build(spec, game).map_err(|source| LabelError::Spec { role, source })
    };
    // Build once here so a bad spec fails before any thread starts.
    build("teacher", &opts.teacher)?;
    build("player", &opts.player)?;
    prior_of(game, &opts.player)?;
    let threads = opts.threads.min(opts.hands as usize).max(1);
    // Set by a thread that fails, so the others stop at their next hand.
    let failed = AtomicBool::new(false);
    let mut hands: Vec<(u64, Vec<LabelRow>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (build, failed) = (&build, &failed);
                s.spawn(move || -> Result<Vec<(u64, Vec<LabelRow>)>, LabelError> {
                    let work = || -> Result<Vec<(u64, Vec<LabelRow>)>, LabelError> {
                        let mut teacher = build("teacher", &opts.teacher)?;
                        let mut player = build("player", &opts.player)?;
                        let mut prior = prior_of(game, &opts.player)?;
                        (t as u64..opts.hands)
                            .step_by(threads)
                            .map(|i| {
                                if failed.load(Ordering::Relaxed) {
                                    return Err(LabelError::Stopped);
                                }
                                let rows =
                                    label_hand(game, opts, i, teacher.as_mut(), player.as_mut(), prior.as_mut())?;
                                progress(i);
                                Ok((i, rows))
                            })
                            .collect()
                    };
                    let result = work();
                    if result.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    result
                })
            })
            .collect();
        let results: Vec<_> = workers.into_iter().map(|w| w.join().expect("a labelling thread finished")).collect();
        // The error of the thread that failed, not of those it stopped.
        let mut rows = Vec::new();
        let mut stopped = None;
        for r in results {
            match r {
                Ok(v) => rows.extend(v),
                Err(LabelError::Stopped) => stopped = Some(LabelError::Stopped),
                Err(e) => return Err(e),
            }
        }
        stopped.map_or(Ok(rows), Err)
    })?;
    hands.sort_by_key(|h| h.0);
    Ok(LabelFile {
        game: game.name().to_string(),
        rules: game.rules_json().to_string(),
        obs_len: game.obs_len(),
        obs_version: game.obs_version(),
        num_actions: game.num_actions(),
        teacher: opts.teacher.to_string(),
        player: opts.player.to_string(),
        hands: opts.hands,
        seed: opts.seed,
        decisions: opts.decisions,
        skip_ties: opts.skip_ties,
        rows: hands.into_iter().flat_map(|h| h.1).collect(),
    })
}

/// The player's network, when it is one (`model:PATH`), for the rows' prior.
fn prior_of<G: Game>(game: &G, player: &AgentSpec) -> Result<Option<PolicyAgent>, LabelError> {
    let AgentSpec::Model { path } = player else { return Ok(None) };
    PolicyAgent::load(path, game.name(), game.obs_len(), game.num_actions())
        .map(Some)
        .map_err(|e| LabelError::Options(format!("the player `{player}`: {e}")))
}

/// Hand `i` of `opts`, played by `player` in every seat, with the teacher's
/// labels of its first decisions.
fn label_hand<G: Game>(
    game: &G,
    opts: &LabelOptions,
    i: u64,
    teacher: &mut dyn Agent<ViewOf<G>>,
    player: &mut dyn Agent<ViewOf<G>>,
    mut prior: Option<&mut PolicyAgent>,
) -> Result<Vec<LabelRow>, LabelError> {
    let hand_seed = opts.seed.wrapping_add(i);
    let failed = |role: &'static str, spec: &AgentSpec| {
        let agent = spec.to_string();
        move |failure| LabelError::Agent { role, agent, hand: i, failure }
    };
    let mut st = game.new_state(hand_seed, Episode::Hand);
    let mut made = [0u32; 4];
    let mut rows = Vec::new();
    let mut obs = vec![0f32; game.obs_len()];
    let mut step = 0u64;
    while let Some(seat) = st.current_seat() {
        let legal = st.legal_mask();
        let view = st.view(seat);
        let stream =
            |salt: u64| AgentRng::seed_from_u64(hand_seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (step << 8) ^ salt);
        if legal.len() > 1 && (opts.decisions == 0 || made[seat] < opts.decisions) {
            made[seat] += 1;
            // The teacher's action and its values (an outside program gives none).
            let (label, values) = if matches!(opts.teacher, AgentSpec::Exec { .. }) {
                (teacher.try_act(&view, &mut stream(TEACHER_STREAM)).map_err(failed("teacher", &opts.teacher))?, None)
            } else {
                let e = teacher.explain(&view, &mut stream(TEACHER_STREAM));
                (e.action, e.values)
            };
            let values = values.map_or_else(Vec::new, |v| v.values);
            let best = values.iter().map(|&(_, q)| q).fold(f64::NEG_INFINITY, f64::max);
            let tied = values.iter().filter(|&&(_, q)| q == best).count() > 1;
            if !(opts.skip_ties && tied) {
                st.observe(seat, &mut obs);
                let prior = match prior.as_mut() {
                    Some(p) => {
                        p.evaluate(&obs, legal, &mut stream(0)).policy.iter().map(|&(a, x)| (a as u8, x)).collect()
                    }
                    None => Vec::new(),
                };
                rows.push(LabelRow {
                    obs: obs.iter().enumerate().filter(|(_, &v)| v != 0.0).map(|(j, &v)| (j as u32, v)).collect(),
                    legal: legal.0,
                    action: label as u8,
                    values: values.iter().map(|&(a, q)| (a as u8, q as f32)).collect(),
                    prior,
                });
            }
        }
        let a = player.try_act(&view, &mut stream(0)).map_err(failed("player", &opts.player))?;
        st.apply(a).map_err(|e| LabelError::Illegal {
            agent: opts.player.to_string(),
            hand: i,
            reason: e.to_string(),
        })?;
        step += 1;
    }
    Ok(rows)
}

impl LabelFile {
    /// Writes the file (to a temporary file beside it, then renamed).
    pub fn write(&self, path: &Path) -> Result<(), LabelError> {
        let failed = |reason: String| LabelError::Write { path: path.display().to_string(), reason };
        let mut bytes = TAG.to_vec();
        bincode::serde::encode_into_std_write(self, &mut bytes, bincode::config::standard())
            .map_err(|e| failed(e.to_string()))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| failed(e.to_string()))?;
        }
        write_atomic(path, &bytes).map_err(|e| failed(e.to_string()))
    }

    /// Reads and checks a file written by [`LabelFile::write`].
    pub fn read(path: &Path) -> Result<LabelFile, LabelError> {
        let bytes =
            std::fs::read(path).map_err(|source| LabelError::Io { path: path.display().to_string(), source })?;
        let bad = |reason: String| LabelError::Format { path: path.display().to_string(), reason };
        let body = bytes.strip_prefix(TAG.as_slice()).ok_or_else(|| {
            let kind = if bytes.starts_with(b"bonesL") { "a label file of another format version, " } else { "" };
            bad(format!("{kind}it does not start with {:?}", std::str::from_utf8(TAG).unwrap()))
        })?;
        let (file, used): (LabelFile, usize) =
            bincode::serde::decode_from_slice(body, bincode::config::standard()).map_err(|e| {
                bad(format!("its contents do not decode (a damaged file, or one from a build of `bones label` with another layout): {e}"))
            })?;
        if used != body.len() {
            return Err(bad(format!("{} bytes follow the labels", body.len() - used)));
        }
        file.check().map_err(bad)?;
        Ok(file)
    }

    /// Every row fits the header: observation indices below `obs_len`,
    /// finite values, legal actions below `num_actions`, a legal label.
    fn check(&self) -> Result<(), String> {
        if self.obs_len == 0 || !(1..=64).contains(&self.num_actions) {
            return Err(format!(
                "observation length {} and {} actions (expected at least 1 float and 1 to 64 actions)",
                self.obs_len, self.num_actions
            ));
        }
        for (r, row) in self.rows.iter().enumerate() {
            if let Some(&(j, v)) = row.obs.iter().find(|(j, v)| *j as usize >= self.obs_len || !v.is_finite()) {
                return Err(format!("row {r}: observation entry {j} = {v} (length {})", self.obs_len));
            }
            if self.num_actions < 64 && row.legal >> self.num_actions != 0 {
                return Err(format!("row {r}: legal actions beyond the {} of the game", self.num_actions));
            }
            if row.action as usize >= self.num_actions || row.legal >> row.action as u32 & 1 == 0 {
                return Err(format!("row {r}: the label {} is not legal", row.action));
            }
            let illegal = |a: u8| a as usize >= self.num_actions || row.legal >> a as u32 & 1 == 0;
            if let Some(&(a, q)) = row.values.iter().find(|&&(a, q)| illegal(a) || !q.is_finite()) {
                return Err(format!(
                    "row {r}: the value {q} of action {a} (expected a finite value of a legal action)"
                ));
            }
            if let Some(&(a, p)) = row.prior.iter().find(|&&(a, p)| illegal(a) || !(0.0..=1.0).contains(&p)) {
                return Err(format!("row {r}: the prior {p} of action {a} (expected a probability of a legal action)"));
            }
        }
        Ok(())
    }

    /// The rows for training a policy of `game` (the game, its rules and its
    /// observation must be the file's), with their [`target`]s at
    /// `temperature`.
    pub fn for_game<G: Game>(&self, game: &G, temperature: f32) -> Result<LabelSet, String> {
        self.check()?;
        let ours = (self.game.as_str(), self.obs_len, self.obs_version, self.num_actions);
        if ours != (game.name(), game.obs_len(), game.obs_version(), game.num_actions()) {
            return Err(format!(
                "labels of {} (observation v{}, {} floats; {} actions), the run is {} (v{}, {}; {})",
                self.game,
                self.obs_version,
                self.obs_len,
                self.num_actions,
                game.name(),
                game.obs_version(),
                game.obs_len(),
                game.num_actions()
            ));
        }
        if serde_json::from_str::<serde_json::Value>(&self.rules).ok() != Some(game.rules_json()) {
            return Err(format!("labels made under the rules {}, the run plays {}", self.rules, game.rules_json()));
        }
        let mut obs = SparseRows::new(self.obs_len);
        let mut dense = vec![0f32; self.obs_len];
        let mut legal = Vec::with_capacity(self.rows.len() * self.num_actions);
        for row in &self.rows {
            dense.iter_mut().for_each(|x| *x = 0.0);
            for &(j, v) in &row.obs {
                dense[j as usize] = v;
            }
            obs.push_dense(&dense);
            legal.extend((0..self.num_actions).map(|a| (row.legal >> a & 1) as f32));
        }
        let target = self.rows.iter().flat_map(|r| target(r, self.num_actions, temperature)).collect();
        Ok(LabelSet { obs, legal, target, num_actions: self.num_actions })
    }
}
