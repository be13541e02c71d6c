//! `bones benchmark AGENT`: the standard benchmark (agents/src/benchmark.rs):
//! the agent against a fixed gauntlet on a fixed, versioned set of duplicate
//! deals, printed as a scorecard.

use anyhow::{Context, Result};
use bones_agents::benchmark::{self, Benchmark, Interval, Scorecard, VERSIONS};
use bones_agents::spec::grammar;
use bones_agents::AgentGame;
use bones_agents::AgentSpec;
use bones_env::GAMES;
use bones_policy::agent::{factory, shipped_model};
use clap::builder::PossibleValuesParser;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Agent specs: {specs}.\n\n\
     Benchmarks: {}. texas42-v1: 500 duplicate deals (1,000 hands) against random, heuristic, \
     model:models/texas42, pimc:worlds=16 and search; doubles-v1 (4 players): 500 deals (2,000 rounds) \
     against random, highest, heuristic, pimc:worlds=32 and model:models/doubles. docs/benchmark.md \
     has the details and the scorecards of the built-in agents.\n\n\
     --json prints one object: benchmark, game, rules, players, seed, agent, margin_unit, win_unit, \
     rows (per opponent: opponent, deals, hands, margin, margin_ci, win_rate, win_ci, elo, elo_ci, \
     micros_per_decision) and summary (mean_elo, beaten, lost, opponents).",
    VERSIONS.join(", "),
    specs = grammar::summary()
))]
pub struct BenchmarkArgs {
    /// The agent to benchmark (an agent spec).
    #[arg(value_name = "AGENT")]
    pub agent: String,
    /// The game (default: texas42, or the game of --benchmark); the benchmark is
    /// its newest version.
    #[arg(long, value_parser = PossibleValuesParser::new(GAMES.map(|g| g.name)))]
    pub game: Option<String>,
    /// A benchmark version by name instead of the game's newest.
    #[arg(long, value_name = "NAME", value_parser = PossibleValuesParser::new(VERSIONS))]
    pub benchmark: Option<String>,
    /// Worker threads (default: all cores); the result does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Bad usage: exit 2.
fn usage(msg: impl std::fmt::Display) -> Result<i32> {
    Err(super::args::usage(msg).into())
}

pub fn run(args: BenchmarkArgs) -> Result<i32> {
    let bench = match Benchmark::select(args.benchmark.as_deref(), args.game.as_deref()) {
        Ok(b) => b,
        Err(e) => return usage(e),
    };
    let threads = super::args::threads(args.threads)?;
    let agent = match AgentSpec::parse(&args.agent) {
        Ok(s) => s,
        Err(e) => return usage(e),
    };
    // The agent must play the game: a usage error before anything is played.
    let game = bench.any_game().context("the benchmark's game")?;
    if let Err(e) = bones_env::on_game!(game, g => Builds { spec: &agent }.visit(g)) {
        return usage(e);
    }
    let total = benchmark::hands_in_all(&bench)?;
    let bar = if args.json { ProgressBar::hidden() } else { ProgressBar::new(total) };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} hands ({eta})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let progress = |n: u64| bar.inc(n);
    let shipped = shipped_model(&bench.game);
    let card = benchmark::run(&bench, &agent, &factory(), shipped.as_deref(), threads, &progress)
        .with_context(|| format!("benchmark {} of {agent}", bench.version))?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string(&card)?);
    } else {
        print_card(&card);
    }
    Ok(0)
}

/// Checks that the agent can be built for the game.
struct Builds<'a> {
    spec: &'a AgentSpec,
}

impl Builds<'_> {
    fn visit<G: AgentGame>(self, game: G) -> std::result::Result<(), bones_agents::SpecError> {
        factory().build(self.spec, &game).map(|_| ())
    }
}

fn signed(x: Option<f64>, decimals: usize) -> String {
    x.map_or("?".to_string(), |x| format!("{x:+.decimals$}"))
}

fn ci(i: &Interval, decimals: usize, sign: bool) -> String {
    let f = |x: Option<f64>| match x {
        Some(x) if sign => format!("{x:+.decimals$}"),
        Some(x) => format!("{x:.decimals$}"),
        None => "?".to_string(),
    };
    format!("[{}, {}]", f(i.lo), f(i.hi))
}

/// Microseconds, with decimals while they are few.
fn micros(us: f64) -> String {
    if us < 100.0 {
        format!("{us:.2}")
    } else {
        format!("{us:.0}")
    }
}

fn print_card(c: &Scorecard) {
    let (deals, hands) = c.rows.first().map_or((0, 0), |r| (r.deals, r.hands));
    println!(
        "benchmark {}: {} ({} {}-player, rules {}), {} duplicate deals ({} {}s) per opponent, seed {}",
        c.benchmark, c.agent, c.game, c.players, c.rules, deals, hands, c.win_unit, c.seed
    );
    let margin = if c.margin_unit == "marks_per_hand" { "marks/hand" } else { "points/round" };
    let width = c.rows.iter().map(|r| r.opponent.len()).max().unwrap_or(8).max(8);
    println!(
        "{:<width$}  {:>28}  {:>22}  {:>17}  {:>12}",
        "opponent",
        format!("{margin} [95%]"),
        format!("{} win rate [95%]", c.win_unit),
        "Elo [95%]",
        "agent µs/dec"
    );
    for r in &c.rows {
        println!(
            "{:<width$}  {:>28}  {:>22}  {:>17}  {:>12}",
            r.opponent,
            format!("{:+.3} {}", r.margin, ci(&r.margin_ci, 3, true)),
            format!("{:.3} {}", r.win_rate, ci(&r.win_ci, 3, false)),
            format!("{} {}", signed(r.elo, 0), ci(&r.elo_ci, 0, true)),
            micros(r.micros_per_decision[0]),
        );
    }
    println!("{}", c.summary_line());
}
