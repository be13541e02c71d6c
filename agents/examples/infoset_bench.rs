//! Benchmark of `search`'s information-set continuation
//! ([`bones_agents::infoset::score_plays`]): for each of N seeded deals played
//! by the heuristic in every seat, the first decision of the play phase with
//! `--left` tricks left (the one in progress counted) is scored over
//! `--worlds` worlds sampled from the mover's view, and the mean and worst
//! time are printed, with a checksum of the scores (equal checksums: equal
//! scores, for comparing two builds).
//!
//! ```text
//! cargo run --release -p bones-agents --example infoset_bench -- --left 4
//!     [--deals 30] [--worlds 128] [--points]
//! ```
//! `--points`: score points only (as when the contract is decided), not the
//! contract fight first.

use std::time::Instant;

use bones_agents::heuristic::texas42::Texas42Heuristic;
use bones_agents::infoset::score_plays;
use bones_agents::pimc::WorldSampler;
use bones_agents::{Agent, AgentRng, Solver};
use bones_env::texas42::Phase;
use bones_env::{Episode, Game, GameState, Texas42, Texas42Rules, Texas42View};
use rand::SeedableRng;

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    match args.iter().position(|a| a == name) {
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{name} needs a value")),
        None => default,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let left: u8 = arg(&args, "--left", 4);
    let deals: u64 = arg(&args, "--deals", 30);
    let worlds: u32 = arg(&args, "--worlds", 128);
    let by_contract = !args.iter().any(|a| a == "--points");
    assert!((1..=7).contains(&left), "--left is 1 to 7");
    let game = Texas42::new(Texas42Rules { early_end: false, ..Texas42Rules::default() });
    let mut solver = Solver::new();
    let (mut times, mut checksum) = (Vec::new(), 0i64);
    for seed in 0..deals {
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut state = game.new_state(seed, Episode::Hand);
        while let Some(seat) = state.current_seat() {
            let h = *state.hand();
            let view = Texas42View::from_hand(&h, seat as u8);
            if h.phase == Phase::Playing && 7 - h.trick == left && h.legal_mask().len() > 1 {
                let sampled = WorldSampler::new(&view).worlds(&view, worlds, &mut AgentRng::seed_from_u64(seed));
                let t = Instant::now();
                let scores = score_plays(&sampled, by_contract, &mut solver);
                times.push(t.elapsed().as_secs_f64());
                checksum +=
                    scores.iter().map(|&(a, won, points)| (a as i64 + 1) * (1000 * won as i64 + points)).sum::<i64>();
                break;
            }
            let a = Texas42Heuristic::default().act(&view, &mut rng);
            state.apply(a).expect("the heuristic plays legally");
        }
    }
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let worst = times.iter().cloned().fold(0.0, f64::max);
    println!(
        "{} positions with {left} tricks left, {worlds} worlds: mean {:.1} ms, worst {:.1} ms, checksum {checksum}",
        times.len(),
        1000.0 * mean,
        1000.0 * worst
    );
}
