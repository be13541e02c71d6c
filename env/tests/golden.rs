//! Golden trajectories: today's behaviour of both games through `Env` and
//! `VecEnv`, pinned so that refactors can be checked to change nothing.
//!
//! Each trajectory is a fixed deal (`env_seed`) played by a chooser that does not
//! look inside the env: a ChaCha8 stream (`chooser_seed`) picks
//! `legal[next_u64() % legal.len()]` among the legal action ids in ascending
//! order (no `chooser_seed`: always the lowest legal id). Per time step (the reset is step 0, then one per action) the record
//! holds the acting seat, an FNV-1a 64 hash of the observation's f32 bit
//! patterns, the legal mask as a bit set, the action taken, and every reward
//! vector that is not all +0.0 (bit-exact); at the end `terminated`,
//! `truncated` and `steps`. The `VecEnv` records hash all five buffers after
//! every vector step, for 1, 2 and 3 threads against the same record.
//!
//! The records live in `tests/data/golden/`. Only the public API is used
//! (`Env`, `VecEnv`, `Game`, the game and rules types), so the test keeps
//! compiling across internal refactors. When a change of behaviour is
//! intended, regenerate the records and review the diff:
//!
//! ```text
//! BONES_BLESS=1 cargo test -p bones-env --test main golden
//! ```

use bones_env::rules::DoublesRules;
use bones_env::{Doubles, Env, Episode, Game, RewardMode, Texas42, Texas42Rules, VecEnv};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

const TRAJECTORIES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden/trajectories.jsonl");
const VEC_ENVS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden/vec-env.jsonl");

fn blessing() -> bool {
    std::env::var("BONES_BLESS").is_ok_and(|v| v == "1")
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn f32s(&mut self, xs: &[f32]) {
        for x in xs {
            self.bytes(&x.to_bits().to_le_bytes());
        }
    }
    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// Doubles for `players` players, the other rules at their defaults.
fn doubles(players: u8) -> Doubles {
    Doubles::new(DoublesRules { players, ..DoublesRules::default() })
}

fn obs_hash(obs: &[f32]) -> String {
    let mut h = Fnv::new();
    h.f32s(obs);
    h.hex()
}

/// Picks one of `legal` (ascending action ids) from the chooser's stream.
fn choose(rng: &mut ChaCha8Rng, legal: &[usize]) -> usize {
    assert!(!legal.is_empty(), "no legal action to choose from");
    legal[(rng.next_u64() % legal.len() as u64) as usize]
}

// ---------------------------------------------------------------- Env

/// One recorded episode.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Trajectory {
    name: String,
    env_seed: u64,
    chooser_seed: Option<u64>,
    max_steps: Option<u32>,
    obs_len: usize,
    /// The acting seat at each time step, one character each (`-`: none).
    seats: String,
    /// The action taken at each time step but the last.
    actions: Vec<usize>,
    /// The legal mask at each time step, a bit set in hex.
    legal: Vec<String>,
    /// The observation hash at each time step.
    obs: Vec<String>,
    /// `(step, rewards)` wherever the rewards are not all +0.0.
    rewards: Vec<(usize, [f32; 4])>,
    terminated: bool,
    truncated: bool,
    steps: u32,
}

/// How to build the game of a case.
#[derive(Clone, Copy)]
enum Spec {
    Texas42 { full: bool, reward: RewardMode, episode: Episode },
    Doubles { players: u8, episode: Episode },
}

struct Case {
    name: String,
    spec: Spec,
    env_seed: u64,
    chooser_seed: Option<u64>,
    max_steps: Option<u32>,
}

fn episode_name(e: Episode) -> &'static str {
    match e {
        Episode::Hand => "hand",
        Episode::Game => "game",
    }
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut add = |spec: Spec, env_seed: u64, chooser_seed: Option<u64>, max_steps: Option<u32>| {
        let game = match spec {
            Spec::Texas42 { full, reward, episode } => {
                let reward = match reward {
                    RewardMode::Marks => "marks",
                    RewardMode::Points => "points",
                    RewardMode::MarksAndPoints => "marks+points",
                };
                let rules = if full { "full" } else { "standard" };
                format!("texas42/{rules}/{}/{reward}", episode_name(episode))
            }
            Spec::Doubles { players, episode } => format!("doubles/{players}p/{}", episode_name(episode)),
        };
        let cut = max_steps.map(|m| format!("/max_steps={m}")).unwrap_or_default();
        let chooser = chooser_seed.map_or("first".to_string(), |s| s.to_string());
        let name = format!("{game}/seed={env_seed}/chooser={chooser}{cut}");
        cases.push(Case { name, spec, env_seed, chooser_seed, max_steps });
    };
    use Episode::{Game as G, Hand as H};
    use RewardMode::{Marks, MarksAndPoints, Points};
    for full in [true, false] {
        for (k, seed) in [1u64, 42, 1_000_003, 0xDEAD_BEEF_CAFE].into_iter().enumerate() {
            add(Spec::Texas42 { full, reward: Marks, episode: H }, seed, Some(100 + k as u64), None);
        }
        for (k, seed) in [7u64, 99, 2024].into_iter().enumerate() {
            add(Spec::Texas42 { full, reward: MarksAndPoints, episode: H }, seed, Some(200 + k as u64), None);
        }
        add(Spec::Texas42 { full, reward: Marks, episode: G }, 5, Some(300), None);
        add(Spec::Texas42 { full, reward: Marks, episode: G }, 77, Some(301), None);
        add(Spec::Texas42 { full, reward: MarksAndPoints, episode: G }, 5, Some(302), None);
        add(Spec::Texas42 { full, reward: Marks, episode: H }, 3, None, None);
    }
    add(Spec::Texas42 { full: false, reward: Points, episode: H }, 11, Some(400), None);
    add(Spec::Texas42 { full: true, reward: Marks, episode: G }, 13, Some(401), Some(50));
    add(Spec::Texas42 { full: false, reward: Marks, episode: G }, 9, None, None);
    for players in [2u8, 3, 4] {
        for (k, seed) in [3u64, 31, 314_159].into_iter().enumerate() {
            add(Spec::Doubles { players, episode: H }, seed, Some(500 + 10 * players as u64 + k as u64), None);
        }
        add(Spec::Doubles { players, episode: H }, 4, None, None);
        for (k, seed) in [8u64, 88].into_iter().enumerate() {
            add(Spec::Doubles { players, episode: G }, seed, Some(600 + 10 * players as u64 + k as u64), None);
        }
    }
    add(Spec::Doubles { players: 4, episode: G }, 21, Some(700), Some(40));
    cases
}

fn record<G: Game>(name: &str, game: G, episode: Episode, c: &Case) -> Trajectory {
    let mut env = Env::new(game, episode);
    env.max_steps = c.max_steps;
    let mut rng = c.chooser_seed.map(ChaCha8Rng::seed_from_u64);
    let mut tr = Trajectory {
        name: name.to_string(),
        env_seed: c.env_seed,
        chooser_seed: c.chooser_seed,
        max_steps: c.max_steps,
        obs_len: env.game().obs_len(),
        seats: String::new(),
        actions: Vec::new(),
        legal: Vec::new(),
        obs: Vec::new(),
        rewards: Vec::new(),
        terminated: false,
        truncated: false,
        steps: 0,
    };
    let mut t = env.reset(c.env_seed).clone();
    loop {
        let step = tr.obs.len();
        tr.seats.push(t.seat.map_or('-', |s| char::from(b'0' + s as u8)));
        let legal: Vec<usize> = t.legal.iter().collect();
        tr.legal.push(format!("{:x}", legal.iter().fold(0u64, |m, &a| m | 1 << a)));
        tr.obs.push(obs_hash(&t.obs));
        if t.rewards.iter().any(|r| r.to_bits() != 0) {
            tr.rewards.push((step, t.rewards));
        }
        if t.terminated || t.truncated {
            break;
        }
        assert!(step < 100_000, "{name}: the episode does not end");
        let a = match rng.as_mut() {
            Some(rng) => choose(rng, &legal),
            None => legal[0],
        };
        tr.actions.push(a);
        t = env.step(a).unwrap_or_else(|e| panic!("{name}: step {step}: {e}")).clone();
    }
    tr.terminated = t.terminated;
    tr.truncated = t.truncated;
    tr.steps = t.steps;
    tr
}

fn run_case(c: &Case) -> Trajectory {
    match c.spec {
        Spec::Texas42 { full, reward, episode } => {
            let mut game = Texas42::new(if full { Texas42Rules::FULL } else { Texas42Rules::STANDARD });
            game.reward = reward;
            record(&c.name, game, episode, c)
        }
        Spec::Doubles { players, episode } => record(&c.name, doubles(players), episode, c),
    }
}

/// The first difference between two trajectories of the same name, described.
fn describe_difference(want: &Trajectory, got: &Trajectory) -> String {
    let mut out = format!("trajectory `{}`:", want.name);
    if want.obs_len != got.obs_len {
        let _ = write!(out, " obs_len {} -> {};", want.obs_len, got.obs_len);
    }
    let want_r: BTreeMap<usize, [f32; 4]> = want.rewards.iter().copied().collect();
    let got_r: BTreeMap<usize, [f32; 4]> = got.rewards.iter().copied().collect();
    let seat = |t: &Trajectory, k: usize| t.seats.chars().nth(k);
    let n = want.obs.len().max(got.obs.len());
    for k in 0..n {
        let mut what = Vec::new();
        if seat(want, k) != seat(got, k) {
            what.push(format!("seat {:?} -> {:?}", seat(want, k), seat(got, k)));
        }
        if want.legal.get(k) != got.legal.get(k) {
            what.push(format!("legal mask {:?} -> {:?}", want.legal.get(k), got.legal.get(k)));
        }
        if want.obs.get(k) != got.obs.get(k) {
            what.push(format!("obs hash {:?} -> {:?}", want.obs.get(k), got.obs.get(k)));
        }
        let (wr, gr) = (want_r.get(&k), got_r.get(&k));
        if wr.map(|r| r.map(f32::to_bits)) != gr.map(|r| r.map(f32::to_bits)) {
            what.push(format!("rewards {wr:?} -> {gr:?} (None: all zero)"));
        }
        if want.actions.get(k) != got.actions.get(k) {
            what.push(format!("action {:?} -> {:?}", want.actions.get(k), got.actions.get(k)));
        }
        if !what.is_empty() {
            let from = k.saturating_sub(6);
            let _ = write!(
                out,
                " first divergence at step {k} of {} (expected -> got): {}; actions before it: {:?}",
                want.obs.len(),
                what.join(", "),
                &want.actions[from.min(want.actions.len())..k.min(want.actions.len())]
            );
            return out;
        }
    }
    let _ = write!(
        out,
        " end: terminated {} -> {}, truncated {} -> {}, steps {} -> {}",
        want.terminated, got.terminated, want.truncated, got.truncated, want.steps, got.steps
    );
    out
}

fn read_jsonl<T: for<'de> Deserialize<'de>>(path: &str) -> Vec<T> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("{path}: {e} (write it with BONES_BLESS=1 cargo test -p bones-env --test main golden)")
    });
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1)))
        .collect()
}

fn write_jsonl<T: Serialize>(path: &str, records: &[T]) {
    std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).unwrap();
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r).unwrap());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
    eprintln!("blessed {path} ({} records)", records.len());
}

/// Compares `got` to `want` by name; panics listing every mismatch.
fn compare<T: Clone + PartialEq>(
    what: &str,
    want: &[T],
    got: &[T],
    name: impl Fn(&T) -> &str,
    describe: impl Fn(&T, &T) -> String,
) {
    let mut problems = Vec::new();
    let by_name: BTreeMap<&str, &T> = got.iter().map(|t| (name(t), t)).collect();
    for w in want {
        match by_name.get(name(w)) {
            None => problems.push(format!("`{}` is in the record but no longer generated", name(w))),
            Some(g) if *g != w => problems.push(describe(w, g)),
            Some(_) => {}
        }
    }
    let recorded: Vec<&str> = want.iter().map(&name).collect();
    for g in got {
        if !recorded.contains(&name(g)) {
            problems.push(format!("`{}` is generated but not in the record", name(g)));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} {what} differ from the golden record (if the change is intended: \
         BONES_BLESS=1 cargo test -p bones-env --test main golden, and review the diff):\n{}",
        problems.len(),
        want.len(),
        problems.join("\n")
    );
}

#[test]
fn env_trajectories_match_the_golden_record() {
    let got: Vec<Trajectory> = cases().iter().map(run_case).collect();
    // Replaying a case gives the same trajectory (the env and the chooser are deterministic).
    assert_eq!(run_case(&cases()[0]), got[0]);
    if blessing() {
        write_jsonl(TRAJECTORIES, &got);
        return;
    }
    let want: Vec<Trajectory> = read_jsonl(TRAJECTORIES);
    compare("trajectories", &want, &got, |t| t.name.as_str(), describe_difference);
}

// ---------------------------------------------------------------- VecEnv

/// A `VecEnv` stepped in lockstep, its buffers hashed after every step.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct VecRecord {
    name: String,
    envs: usize,
    base_seed: u64,
    chooser_seed: u64,
    /// Hash of obs, mask, seats, rewards and dones after construction (0) and each step.
    steps: Vec<String>,
    /// Rolling hash of each buffer over all steps.
    obs: String,
    mask: String,
    seats: String,
    rewards: String,
    dones: String,
    /// `(step, env)` of every episode end.
    ends: Vec<(usize, usize)>,
    episodes_done: u64,
}

const VEC_STEPS: usize = 300;

fn vec_record<G: Game>(name: &str, game: G, episode: Episode, threads: usize) -> VecRecord {
    let (envs, base_seed, chooser_seed) = (8, 5, 9);
    let na = game.num_actions();
    let mut v = VecEnv::new(game, episode, envs, base_seed, threads);
    let mut rng = ChaCha8Rng::seed_from_u64(chooser_seed);
    let mut rolling = [Fnv::new(), Fnv::new(), Fnv::new(), Fnv::new(), Fnv::new()];
    let mut rec = VecRecord {
        name: name.to_string(),
        envs,
        base_seed,
        chooser_seed,
        steps: Vec::new(),
        obs: String::new(),
        mask: String::new(),
        seats: String::new(),
        rewards: String::new(),
        dones: String::new(),
        ends: Vec::new(),
        episodes_done: 0,
    };
    for step in 0..=VEC_STEPS {
        if step > 0 {
            let actions: Vec<usize> = (0..envs)
                .map(|i| {
                    let row = &v.mask[i * na..(i + 1) * na];
                    let legal: Vec<usize> = (0..na).filter(|&a| row[a] != 0.0).collect();
                    choose(&mut rng, &legal)
                })
                .collect();
            v.step(&actions).unwrap_or_else(|e| panic!("{name}: step {step}: {e}"));
        }
        let dones: Vec<u8> = v.dones.iter().map(|&d| d as u8).collect();
        rec.ends.extend(dones.iter().enumerate().filter(|(_, d)| **d == 1).map(|(i, _)| (step, i)));
        let mut h = Fnv::new();
        h.f32s(&v.obs);
        h.f32s(&v.mask);
        h.bytes(&v.seats);
        h.f32s(&v.rewards);
        h.bytes(&dones);
        rec.steps.push(h.hex());
        rolling[0].f32s(&v.obs);
        rolling[1].f32s(&v.mask);
        rolling[2].bytes(&v.seats);
        rolling[3].f32s(&v.rewards);
        rolling[4].bytes(&dones);
    }
    [rec.obs, rec.mask, rec.seats, rec.rewards, rec.dones] = rolling.map(|h| h.hex());
    rec.episodes_done = v.episodes_done;
    rec
}

fn vec_records(threads: usize) -> Vec<VecRecord> {
    let mut t42_game = Texas42::new(Texas42Rules::FULL);
    t42_game.reward = RewardMode::MarksAndPoints;
    vec![
        vec_record("texas42/standard/hand/marks", Texas42::new(Texas42Rules::STANDARD), Episode::Hand, threads),
        vec_record("texas42/full/hand/marks+points", t42_game, Episode::Hand, threads),
        vec_record("texas42/full/game/marks", Texas42::new(Texas42Rules::FULL), Episode::Game, threads),
        vec_record("doubles/4p/hand", doubles(4), Episode::Hand, threads),
        vec_record("doubles/3p/hand", doubles(3), Episode::Hand, threads),
        vec_record("doubles/2p/hand", doubles(2), Episode::Hand, threads),
        vec_record("doubles/4p/game", doubles(4), Episode::Game, threads),
    ]
}

fn describe_vec_difference(want: &VecRecord, got: &VecRecord) -> String {
    let first = (0..want.steps.len().max(got.steps.len())).find(|&k| want.steps.get(k) != got.steps.get(k));
    let buffers: Vec<&str> = [
        ("obs", &want.obs, &got.obs),
        ("mask", &want.mask, &got.mask),
        ("seats", &want.seats, &got.seats),
        ("rewards", &want.rewards, &got.rewards),
        ("dones", &want.dones, &got.dones),
    ]
    .into_iter()
    .filter(|(_, w, g)| w != g)
    .map(|(n, _, _)| n)
    .collect();
    format!(
        "vec env `{}`: first differing step {first:?} (0: right after construction); buffers that differ: {buffers:?}; \
         episodes done {} -> {}; first episode ends {:?} -> {:?}",
        want.name,
        want.episodes_done,
        got.episodes_done,
        &want.ends[..want.ends.len().min(8)],
        &got.ends[..got.ends.len().min(8)]
    )
}

#[test]
fn vec_env_buffers_match_the_golden_record_for_every_thread_count() {
    let one = vec_records(1);
    if blessing() {
        assert_eq!(vec_records(2), one, "2 threads must give the buffers 1 thread gives");
        write_jsonl(VEC_ENVS, &one);
        return;
    }
    let want: Vec<VecRecord> = read_jsonl(VEC_ENVS);
    for threads in [1, 2, 3] {
        let got = if threads == 1 { one.clone() } else { vec_records(threads) };
        let what = format!("vec envs ({threads} threads)");
        compare(&what, &want, &got, |r| r.name.as_str(), describe_vec_difference);
    }
}
