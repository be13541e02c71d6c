//! Calibration of `search`'s priced bids (`bidding=playout`): every seat bids
//! by pricing each legal bid with policy playouts, then declares and plays
//! with the network (Bones' own play, the play the prices assume). For every
//! contract, the make rate its bidder predicted for the bid it made (the
//! share of the priced worlds in which it won the auction and made the
//! contract) is set beside whether the contract was made; the contracts are
//! binned by the prediction.
//!
//! ```text
//! cargo run --release -p bones-policy --example bid_calibration -- --hands 5000
//!     [--worlds W] [--caution K] [--seed S] [--threads T] [--model PATH]
//! ```
//! `--caution K` bids as `search:bidding=playout:caution=K` does.
//! Prints a Markdown table: per bin of predicted make rate, the contracts, the
//! mean prediction, the realized make rate with its 95% (Wilson) interval;
//! then the mean absolute gap weighted by contracts. Deterministic for a seed
//! (the hands are split over the threads and put back in order).

use std::path::{Path, PathBuf};

use bones_agents::spec::Bidding;
use bones_agents::{AgentRng, Policy, SearchAgent, SearchSettings};
use bones_env::texas42::{Outcome, Phase};
use bones_env::{Episode, Game, GameState, SeatView, Texas42, Texas42Rules, Texas42View};
use bones_policy::agent::{shipped_model, PolicyAgent};
use rand::SeedableRng;

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    match args.iter().position(|a| a == name) {
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} needs a value of the right kind")),
        None => default,
    }
}

/// One contract: the prediction of its bidder and whether it was made.
#[derive(Copy, Clone, Debug)]
struct Contract {
    predicted: f64,
    made: bool,
}

/// The contracts of `hands` hands from seed `seed` on (hand `i` is dealt from
/// seed `seed + i`): `None` for a hand thrown in or whose bid was never won in
/// its bidder's priced worlds.
fn play(
    model: &Path,
    worlds: u32,
    caution: f64,
    seed: u64,
    hands: impl Iterator<Item = u64>,
) -> Vec<(u64, Option<Contract>)> {
    let g = Texas42::new(Texas42Rules::STANDARD);
    let load = || PolicyAgent::load(model, "texas42", g.obs_len(), g.num_actions()).expect("the model loads");
    let settings =
        SearchSettings { worlds, pool: 4 * worlds, bidding: Bidding::Playout, caution, ..SearchSettings::default() };
    let mut bidders: Vec<SearchAgent> =
        (0..4).map(|_| SearchAgent::new(Box::new(load()), settings, g.obs_len())).collect();
    let mut player = load();
    let mut obs = vec![0.0; g.obs_len()];
    let mut out = Vec::new();
    for i in hands {
        let mut rng = AgentRng::seed_from_u64(seed.wrapping_add(i).wrapping_mul(0x9e37_79b9));
        let mut st = g.new_state(seed.wrapping_add(i), Episode::Hand);
        let mut predicted = [None; 4];
        while let Some(seat) = st.current_seat() {
            let v = Texas42View::from_hand(st.hand(), seat as u8);
            let a = if v.phase == Phase::Bidding && v.legal.len() > 1 {
                let (t, _) = bidders[seat].priced_bid(&v, &mut rng);
                predicted[seat] = (t.contracts > 0).then(|| t.made as f64 / t.contracts as f64);
                t.action
            } else {
                v.observe(&mut obs);
                player.decide(&obs, v.legal, &mut rng)
            };
            st.apply(a).expect("a legal action");
        }
        let h = st.hand();
        let contract = match h.outcome {
            Some(Outcome::Settled { made }) => {
                predicted[h.bidder as usize].map(|predicted| Contract { predicted, made })
            }
            _ => None,
        };
        out.push((i, contract));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hands: u64 = arg(&args, "--hands", 5000);
    let worlds: u32 = arg(&args, "--worlds", bones_agents::spec::DEFAULT_SEARCH_WORLDS);
    let seed: u64 = arg(&args, "--seed", 1);
    let caution: f64 = arg(&args, "--caution", 0.0);
    assert!((0.0..=10.0).contains(&caution), "--caution takes 0 to 10 standard errors, as `caution=K` does");
    let threads: u64 = arg(&args, "--threads", std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
    let model: PathBuf = match args.iter().position(|a| a == "--model") {
        Some(i) => PathBuf::from(args.get(i + 1).expect("--model needs a path")),
        None => shipped_model("texas42").expect("the shipped Texas 42 model"),
    };
    let started = std::time::Instant::now();
    let mut results: Vec<(u64, Option<Contract>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let model = &model;
                s.spawn(move || play(model, worlds, caution, seed, (t..hands).step_by(threads as usize)))
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker finished")).collect()
    });
    results.sort_by_key(|r| r.0);
    let contracts: Vec<Contract> = results.iter().filter_map(|r| r.1).collect();
    let unpriced = results.len() - contracts.len();
    println!(
        "{} hands (seed {seed}), {worlds} worlds, caution {caution}, {} contracts priced by their bidder ({unpriced} hands thrown in or \
         bid at a price never won), {:.0} s",
        results.len(),
        contracts.len(),
        started.elapsed().as_secs_f64()
    );
    println!();
    println!("| predicted make rate | contracts | mean predicted | realized | 95% interval |");
    println!("|---|---:|---:|---:|---|");
    let mut gap = 0.0;
    for b in 0..10 {
        let (lo, hi) = (b as f64 / 10.0, (b + 1) as f64 / 10.0);
        let bin: Vec<&Contract> = contracts
            .iter()
            .filter(|c| c.predicted >= lo && (c.predicted < hi || (b == 9 && c.predicted <= hi)))
            .collect();
        if bin.is_empty() {
            continue;
        }
        let n = bin.len() as f64;
        let mean = bin.iter().map(|c| c.predicted).sum::<f64>() / n;
        let made = bin.iter().filter(|c| c.made).count() as f64;
        let (l, u) = wilson(made, n);
        gap += (made / n - mean).abs() * n;
        println!("| {lo:.1}–{hi:.1} | {} | {mean:.3} | {:.3} | [{l:.3}, {u:.3}] |", bin.len(), made / n);
    }
    let n = contracts.len().max(1) as f64;
    let mean = contracts.iter().map(|c| c.predicted).sum::<f64>() / n;
    let made = contracts.iter().filter(|c| c.made).count() as f64;
    let (l, u) = wilson(made, n);
    println!("| all | {} | {mean:.3} | {:.3} | [{l:.3}, {u:.3}] |", contracts.len(), made / n);
    println!();
    println!("mean absolute gap (weighted by contracts): {:.3}", gap / n);
}

/// The 95% Wilson interval of `k` successes in `n` trials.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}
