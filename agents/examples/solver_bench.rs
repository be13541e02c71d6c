//! Benchmark of the open-hand solver: solves full 7-trick hands from the
//! opening lead for N seeded deals and prints the median and worst time and
//! search nodes.
//!
//! ```text
//! cargo run --release -p bones-agents --example solver_bench -- --hands 200
//!     [--seed S] [--bidding fixed|random] [--query value|actions|best|contract] [--tt-bits B] [--fresh] [--by-declaration]
//! ```
//! `--bidding fixed` (default): the first bidder bids 30 and declares a random
//! trump (pip suit, doubles or follow-me). `--bidding random`: random legal
//! bidding and declaration under the `full` preset (Nel-O, Sevens, Plunge,
//! Splash possible). `--query` picks what is solved at the opening lead:
//! `value` (default; exact points), `actions` (exact value of every lead),
//! `best` (best lead), `contract` (can the bidders make it). `--tt-bits`: the
//! table has 2^B 64-byte buckets (default 15, as `Solver::new`). `--fresh`
//! gives every deal an empty table (by default one solver serves every deal,
//! as in an agent). `--by-declaration` adds the median and worst time of each
//! declaration.

use std::time::Instant;

use bones_agents::solver::Solver;
use bones_env::texas42::actions::{BID_30, NAMES_42, PASS, TRUMP_BLANKS};
use bones_env::texas42::{Hand, Phase};
use bones_env::{Episode, Game, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    match args.iter().position(|a| a == name) {
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{name} needs a value")),
        None => default,
    }
}

fn deal(seed: u64, random_bidding: bool) -> Hand {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let rules = if random_bidding { Texas42Rules::FULL } else { Texas42Rules::STANDARD };
    let game = Texas42::new(rules);
    let mut hand = *game.new_state(seed, Episode::Hand).hand();
    let mut first = true;
    while hand.phase != Phase::Playing {
        let legal = hand.legal_mask();
        let a = match hand.phase {
            _ if random_bidding => legal.nth(rng.random_range(0..legal.len())),
            Phase::Bidding if first => BID_30,
            Phase::Bidding => PASS,
            _ => TRUMP_BLANKS + rng.random_range(0..9),
        };
        first = false;
        hand.apply(a).expect("legal");
    }
    hand
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = arg(&args, "--hands", 100);
    let seed0: u64 = arg(&args, "--seed", 1);
    let bidding: String = arg(&args, "--bidding", "fixed".to_string());
    let query: String = arg(&args, "--query", "value".to_string());
    let bits: u32 = arg(&args, "--tt-bits", 15);
    let fresh = args.iter().any(|a| a == "--fresh");
    let random_bidding = match bidding.as_str() {
        "fixed" => false,
        "random" => true,
        b => panic!("--bidding fixed|random, not {b}"),
    };
    let mut solver = Solver::with_tt_bits(bits);
    let mut times = Vec::with_capacity(n);
    let mut nodes = Vec::with_capacity(n);
    let mut check = 0i64;
    let mut decls = Vec::with_capacity(n);
    for i in 0..n {
        let hand = deal(seed0 + i as u64, random_bidding);
        decls.push(NAMES_42[hand.declaration as usize]);
        if fresh {
            solver.clear();
        }
        solver.reset_nodes();
        let start = Instant::now();
        let v = match query.as_str() {
            "value" => solver.value(&hand) as i64,
            "actions" => solver.solve_actions(&hand).iter().map(|&(_, v)| v as i64).max().unwrap(),
            "best" => solver.best_action(&hand).1 as i64,
            "contract" => solver.contract(&hand) as i64,
            q => panic!("--query value|actions|best|contract, not {q}"),
        };
        times.push(start.elapsed().as_secs_f64() * 1e3);
        nodes.push(solver.nodes());
        check += v;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| times[a].total_cmp(&times[b]));
    let med = order[n / 2];
    let worst = order[n - 1];
    let p90 = order[(n * 9 / 10).min(n - 1)];
    let mut sorted_nodes = nodes.clone();
    sorted_nodes.sort_unstable();
    let total: f64 = times.iter().sum();
    println!(
        "solver_bench: {n} hands, bidding {bidding}, query {query}, tt 2^{bits}{}",
        if fresh { ", fresh table per hand" } else { "" }
    );
    println!(
        "time ms: median {:.3}  p90 {:.3}  worst {:.3} (seed {}, {})  mean {:.3}",
        times[med],
        times[p90],
        times[worst],
        seed0 + worst as u64,
        decls[worst],
        total / n as f64
    );
    println!(
        "nodes:   median {}  p90 {}  worst {}  mean {:.0}",
        sorted_nodes[n / 2],
        sorted_nodes[(n * 9 / 10).min(n - 1)],
        sorted_nodes[n - 1],
        nodes.iter().sum::<u64>() as f64 / n as f64
    );
    println!("checksum {check}");
    if args.iter().any(|a| a == "--by-declaration") {
        let mut names: Vec<&str> = decls.clone();
        names.sort_unstable();
        names.dedup();
        for name in names {
            let mut t: Vec<f64> = (0..n).filter(|&i| decls[i] == name).map(|i| times[i]).collect();
            t.sort_by(f64::total_cmp);
            println!(
                "  {name:>9}: {:3} hands, median {:.3} ms, worst {:.3} ms",
                t.len(),
                t[t.len() / 2],
                t[t.len() - 1]
            );
        }
    }
}
