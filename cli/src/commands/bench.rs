//! `bones bench`: engine speed on this machine, or with `--agent` one agent's
//! time per decision.

use super::args::{usage, GameArgs};
use anyhow::Result;
use bones_agents::timing::{time_decisions, DecisionTimes};
use bones_agents::AgentGame;
use bones_agents::AgentSpec;
use bones_env::bench::{random_play, vec_env_steps};
use bones_env::Game;
use bones_policy::agent::factory;
use serde_json::json;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 3.0, conflicts_with = "agent")]
    pub seconds: f64,
    /// Threads for the VecEnv measurement (default: all cores).
    #[arg(long, conflicts_with = "agent")]
    pub threads: Option<usize>,
    /// Environments per thread in the VecEnv measurement.
    #[arg(long, default_value_t = 256, conflicts_with = "agent")]
    pub envs_per_thread: usize,
    /// Time this agent's decisions instead (a spec: `search`, `pimc:worlds=16`,
    /// `model:PATH`, …): it plays every seat of `--hands` hands on one thread.
    #[arg(long)]
    pub agent: Option<String>,
    /// Hands (Doubles: rounds) played with `--agent`.
    #[arg(long, default_value_t = 20, requires = "agent")]
    pub hands: u64,
    /// Base seed of the hands played with `--agent` (dealt as `bones eval` deals them).
    #[arg(long, default_value_t = 1, requires = "agent")]
    pub seed: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: BenchArgs) -> Result<i32> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(usage("--seconds must be a positive number").into());
    }
    if args.hands == 0 {
        return Err(usage("--hands must be at least 1").into());
    }
    let threads = super::args::threads(args.threads)?;
    let bench = Bench { args: &args, threads };
    bones_env::on_game!(args.game.game()?, g => bench.visit(g))
}

struct Bench<'a> {
    args: &'a BenchArgs,
    threads: usize,
}

impl Bench<'_> {
    fn visit<G: AgentGame>(self, game: G) -> Result<i32> {
        match &self.args.agent {
            Some(spec) => bench_agent(game, spec, self.args),
            None => bench(game, self.args, self.threads),
        }
    }
}

/// `--agent`: the agent's time per decision on one thread.
fn bench_agent<G: AgentGame>(game: G, spec: &str, args: &BenchArgs) -> Result<i32> {
    let spec: AgentSpec = spec.parse().map_err(usage)?;
    let mut agent = factory().build(&spec, &game).map_err(usage)?;
    if !args.json {
        eprintln!("bones bench: {spec} in every seat of {} {} hands, one thread…", args.hands, game.name());
    }
    let t = time_decisions(&game, &mut agent, args.hands, args.seed)?;
    let ms = |q: f64| t.quantile(q) / 1e3;
    if args.json {
        let v = json!({
            "game": game.name(),
            "agent": spec.to_string(),
            "hands": t.hands,
            "seed": args.seed,
            "decisions": t.micros.len(),
            "forced": t.forced,
            "mean_ms": t.mean() / 1e3,
            "median_ms": ms(0.5),
            "p90_ms": ms(0.9),
            "max_ms": ms(1.0),
        });
        println!("{v}");
    } else {
        print_times(&spec, &t, ms);
    }
    Ok(0)
}

fn print_times(spec: &AgentSpec, t: &DecisionTimes, ms: impl Fn(f64) -> f64) {
    println!("agent                     {spec}");
    println!(
        "decisions with a choice   {:>12}  (and {} forced, not counted), {} hands",
        t.micros.len(),
        t.forced,
        t.hands
    );
    println!(
        "ms per decision, 1 thread mean {:.2}  median {:.2}  p90 {:.2}  max {:.2}",
        t.mean() / 1e3,
        ms(0.5),
        ms(0.9),
        ms(1.0)
    );
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
