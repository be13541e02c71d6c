//! Engine benchmarks behind `bones bench`: random play with the engine alone,
//! random play that also encodes every observation and mask, and VecEnv steps.
//! Speeds are measured here, never asserted by tests.

use crate::game::{Episode, Game, GameState};
use crate::seed::splitmix64;
use crate::vec_env::VecEnv;
use std::time::{Duration, Instant};

/// A tiny, fast generator for picking random actions (SplitMix64).
#[derive(Clone)]
pub struct FastRng(u64);

impl FastRng {
    /// Seeded generator.
    pub fn new(seed: u64) -> FastRng {
        FastRng(seed)
    }
    /// Next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }
    /// Uniform in `0..n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// Hands (rounds) and decisions played in a timed run.
#[derive(Copy, Clone, Debug, Default)]
pub struct Throughput {
    /// Episodes finished.
    pub hands: u64,
    /// Player decisions taken.
    pub decisions: u64,
    /// Wall time.
    pub seconds: f64,
}

impl Throughput {
    /// Episodes per second.
    pub fn hands_per_s(&self) -> f64 {
        self.hands as f64 / self.seconds
    }
    /// Decisions per second.
    pub fn decisions_per_s(&self) -> f64 {
        self.decisions as f64 / self.seconds
    }
}

/// Plays random hands for about `seconds` on this thread. With `encode`, every
/// decision also writes the acting seat's observation and legal mask.
pub fn random_play<G: Game>(game: &G, seconds: f64, encode: bool, seed: u64) -> Throughput {
    let mut rng = FastRng::new(seed);
    let mut obs = vec![0.0f32; game.obs_len()];
    let mut mask = vec![0.0f32; game.num_actions()];
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut t = Throughput::default();
    let mut next_seed = seed;
    loop {
        for _ in 0..256 {
            let mut s = game.new_state(next_seed, Episode::Hand);
            next_seed = next_seed.wrapping_add(1);
            while let Some(seat) = s.current_seat() {
                let legal = s.legal_mask();
                if encode {
                    s.observe(seat, &mut obs);
                    legal.write_f32(&mut mask);
                }
                let a = legal.nth(rng.below(legal.len()));
                s.apply(a).expect("a legal action applies");
                t.decisions += 1;
            }
            t.hands += 1;
        }
        if start.elapsed() >= budget {
            break;
        }
    }
    std::hint::black_box(&obs);
    t.seconds = start.elapsed().as_secs_f64();
    t
}

/// Steps a [`VecEnv`] of `envs` environments with random legal actions over
/// `threads` threads for about `seconds`; returns env steps per second.
pub fn vec_env_steps<G: Game>(game: &G, envs: usize, threads: usize, seconds: f64, seed: u64) -> f64 {
    let mut v = VecEnv::new(game.clone(), Episode::Hand, envs, seed, threads);
    let na = game.num_actions();
    let mut rng = FastRng::new(seed);
    let mut actions = vec![0usize; envs];
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut steps = 0u64;
    while start.elapsed() < budget {
        for (i, a) in actions.iter_mut().enumerate() {
            let row = &v.mask[i * na..(i + 1) * na];
            let legal = row.iter().filter(|x| **x > 0.5).count();
            let k = rng.below(legal);
            *a = row.iter().enumerate().filter(|(_, x)| **x > 0.5).nth(k).map(|(a, _)| a).unwrap_or(0);
        }
        v.step(&actions).expect("random legal actions");
        steps += envs as u64;
    }
    steps as f64 / start.elapsed().as_secs_f64()
}
