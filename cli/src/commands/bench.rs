//! `bones bench`: engine speed on this machine.

use super::args::{usage, GameArgs};
use anyhow::Result;
use bones_env::bench::{random_play, vec_env_steps};
use bones_env::{Game, GameVisitor};
use serde_json::json;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Threads for the VecEnv measurement (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Environments per thread in the VecEnv measurement.
    #[arg(long, default_value_t = 256)]
    pub envs_per_thread: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: BenchArgs) -> Result<i32> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(usage("--seconds must be a positive number").into());
    }
    let threads = super::args::threads(args.threads)?;
    args.game.game()?.visit(Bench { args: &args, threads })
}

struct Bench<'a> {
    args: &'a BenchArgs,
    threads: usize,
}

impl GameVisitor for Bench<'_> {
    type Output = Result<i32>;
    fn visit<G: Game>(self, game: G) -> Result<i32> {
        bench(game, self.args, self.threads)
    }
}

fn bench<G: Game>(game: G, args: &BenchArgs, threads: usize) -> Result<i32> {
    if !args.json {
        eprintln!("bones bench: {} ({} s per measurement)…", game.name(), args.seconds);
    }
    let raw = random_play(&game, args.seconds, false, 1);
    let enc = random_play(&game, args.seconds, true, 2);
    let envs = args.envs_per_thread.max(1) * threads;
    let vec = vec_env_steps(&game, envs, threads, args.seconds, 3);
    let per_hand = raw.decisions as f64 / raw.hands as f64;
    if args.json {
        let v = json!({
            "game": game.name(),
            "random_hands_per_s": raw.hands_per_s().round(),
            "random_actions_per_s": raw.decisions_per_s().round(),
            "encoded_hands_per_s": enc.hands_per_s().round(),
            "vec_steps_per_s": vec.round(),
            "decisions_per_hand": (per_hand * 100.0).round() / 100.0,
            "threads": threads,
        });
        println!("{v}");
    } else {
        println!("game                      {}", game.name());
        println!(
            "random play, 1 thread     {:>12.0} hands/s  {:>12.0} decisions/s",
            raw.hands_per_s(),
            raw.decisions_per_s()
        );
        println!(
            "  + obs/mask encoding     {:>12.0} hands/s  {:>12.0} decisions/s",
            enc.hands_per_s(),
            enc.decisions_per_s()
        );
        println!("VecEnv, {threads} thread(s), {envs} envs {vec:>10.0} steps/s");
        println!("decisions per hand        {per_hand:>12.2}");
    }
    Ok(0)
}
