//! `bones eval`: agent A against agent B on duplicate deals (or a round-robin
//! ladder), with confidence intervals and Elo.

use super::args::GameArgs;
use anyhow::{Context, Result};
use bones_agents::arena::{self, Amount, ArenaError, Estimate, EvalOptions, EvalReport};
use bones_agents::rating::{self, Ladder};
use bones_agents::report::num;
use bones_agents::spec::grammar;
use bones_agents::AgentGame;
use bones_agents::AgentSpec;
use bones_env::{registry, Game};
use bones_policy::agent::factory;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Agent specs: {specs}.\n\n\
     --json prints one object: agents, games, hands, win_rate, win_ci, marks_per_hand, marks_ci, \
     points_per_hand, points_ci, elo (Texas 42; A minus B per hand), and contracts (a and b: hands each \
     team declared, made, made_rate, mean_bid); for Doubles points_per_round and points_ci (A's round \
     score minus the other seats' mean) replace the marks, points and contracts keys. \
     Intervals are 95%; elo is null when the win rate is 0 or 1.",
    specs = grammar::summary()
))]
pub struct EvalArgs {
    /// Two agent specs `A,B` (A is evaluated against B).
    #[arg(long, value_name = "A,B", required_unless_present = "ladder", conflicts_with = "ladder")]
    pub agents: Option<String>,
    /// Round robin over two or more agents, with a rating table.
    #[arg(long, value_name = "A,B,C")]
    pub ladder: Option<String>,
    /// The game (Texas 42: each deal played twice, teams swapping seats; Doubles: A in
    /// one seat, B in the others, A's seat rotating over each deal), rules and players.
    #[command(flatten)]
    pub game: GameArgs,
    /// Whole games to play in total (rounded up to whole duplicate deals) [default: 100].
    #[arg(long, conflicts_with = "hands")]
    pub games: Option<u64>,
    /// Single hands (Doubles: rounds) to play instead of games.
    #[arg(long)]
    pub hands: Option<u64>,
    /// Seed of the deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores); the result does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// With --ladder: also draw the ratings with 95% intervals as an SVG picture in FILE.
    #[arg(long, value_name = "FILE.svg", requires = "ladder", conflicts_with = "agents")]
    pub plot: Option<std::path::PathBuf>,
}

/// Bad usage: exit 2.
fn usage(msg: impl std::fmt::Display) -> Result<i32> {
    Err(super::args::usage(msg).into())
}

pub fn run(args: EvalArgs) -> Result<i32> {
    bones_env::on_game!(args.game.game()?, g => Eval { args: &args }.visit(g))
}

struct Eval<'a> {
    args: &'a EvalArgs,
}

impl Eval<'_> {
    fn visit<G: AgentGame>(self, game: G) -> Result<i32> {
        eval(&game, self.args)
    }
}

fn eval<G: AgentGame>(game: &G, args: &EvalArgs) -> Result<i32> {
    let amount = match (args.games, args.hands) {
        (_, Some(0)) | (Some(0), _) => return usage("--games/--hands must be at least 1"),
        (_, Some(h)) => Amount::Hands(h),
        (g, None) => Amount::Games(g.unwrap_or(100)),
    };
    let threads = super::args::threads(args.threads)?;
    let opts = EvalOptions { amount, seed: args.seed, threads };
    let list = args.ladder.as_deref().or(args.agents.as_deref()).unwrap_or_default();
    let specs = match AgentSpec::parse_list(list) {
        Ok(s) => s,
        Err(e) => return usage(e),
    };
    // Check every spec against the game before playing anything.
    let factory = factory();
    for s in &specs {
        if let Err(e) = factory.build(s, game) {
            return usage(e);
        }
    }

    if args.ladder.is_some() {
        if specs.len() < 2 {
            return usage("--ladder needs at least two agents");
        }
        let pairs = (specs.len() * (specs.len() - 1) / 2) as u64;
        let bar = progress_bar(game, amount, pairs, args.json);
        let ladder = rating::ladder(&specs, |a, b| eval_pair(game, [a, b], &opts, &bar))?;
        bar.finish_and_clear();
        print_ladder(game.name(), &ladder, args);
        if let Some(path) = &args.plot {
            let about = format!("{}, seed {}", game.name(), args.seed);
            crate::plot::plot_ladder(path, &ladder, &about).with_context(|| format!("--plot {}", path.display()))?;
        }
    } else {
        if specs.len() != 2 {
            return usage(format!("--agents needs exactly two specs `A,B`, got {}", specs.len()));
        }
        let bar = progress_bar(game, amount, 1, args.json);
        let progress = |n: u64| bar.inc(n);
        let report = match arena::evaluate(game, [&specs[0], &specs[1]], &factory, &opts, &progress) {
            Ok(report) => report,
            // An agent failed after some deals were finished: show them, then the error.
            Err(ArenaError::Stopped { cause, finished }) => {
                bar.finish_and_clear();
                if args.json {
                    let mut v = finished.to_json(args.seed);
                    v["stopped"] = cause.to_string().into();
                    println!("{v}");
                } else {
                    println!("stopped early: the deals finished before the error");
                    print_report(&finished, args.seed);
                }
                return Err(anyhow::Error::new(*cause))
                    .with_context(|| format!("evaluating {} against {}", specs[0], specs[1]));
            }
            Err(e) => {
                return Err(anyhow::Error::new(e))
                    .with_context(|| format!("evaluating {} against {}", specs[0], specs[1]))
            }
        };
        bar.finish_and_clear();
        if args.json {
            println!("{}", report.to_json(args.seed));
        } else {
            print_report(&report, args.seed);
        }
    }
    Ok(0)
}

fn progress_bar<G: Game>(game: &G, amount: Amount, pairs: u64, hidden: bool) -> ProgressBar {
    if hidden {
        return ProgressBar::hidden();
    }
    let (n, unit) = match amount {
        Amount::Games(n) => (n, "games".to_string()),
        Amount::Hands(n) => (n, format!("{}s", deal_name(game.name()))),
    };
    let seatings = game.num_sides() as u64;
    let per_pair = n.div_ceil(seatings) * seatings;
    let bar = ProgressBar::new(per_pair * pairs);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{eta}})"))
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

fn eval_pair<G: AgentGame>(
    game: &G,
    specs: [&AgentSpec; 2],
    opts: &EvalOptions,
    bar: &ProgressBar,
) -> Result<EvalReport> {
    let progress = |n: u64| bar.inc(n);
    arena::evaluate(game, specs, &factory(), opts, &progress)
        .with_context(|| format!("evaluating {} against {}", specs[0], specs[1]))
}

/// What a deal of the game is called (`hand`, `round`).
fn deal_name(game: &str) -> &'static str {
    registry::entry(game).map_or("hand", |g| g.deal)
}

fn fmt_est(e: &Estimate) -> String {
    if e.lo.is_finite() {
        format!("{:+.3}  [{:+.3}, {:+.3}]", e.mean, e.lo, e.hi)
    } else {
        format!("{:+.3}  [interval needs two or more deals]", e.mean)
    }
}

fn print_report(r: &EvalReport, seed: u64) {
    let [a, b] = &r.agents;
    println!("{a} (A) vs {b} (B), {} {}-player, seed {seed}", r.game, r.players);
    if r.games > 0 {
        println!("played            {} games, {} hands, {} duplicate deals", r.games, r.hands, r.deals);
    } else {
        println!("played            {} {}s, {} duplicate deals", r.hands, deal_name(r.game), r.deals);
    }
    println!(
        "A win rate        {:.3}  [{:.3}, {:.3}]  ({} of {} {}s)",
        r.win_rate, r.win_ci.0, r.win_ci.1, r.wins, r.trials, r.win_unit
    );
    if let Some(m) = &r.marks_per_hand {
        println!("marks/hand A-B    {}", fmt_est(m));
    }
    if let Some(p) = &r.points_per_hand {
        println!("points/hand A-B   {}", fmt_est(p));
    }
    if let Some(p) = &r.points_per_round {
        println!("points/round A-B  {}", fmt_est(p));
    }
    if let Some(c) = &r.contracts {
        for (who, c) in ["A", "B"].iter().zip(c) {
            println!(
                "{who} declared        {} of {} hands, made {:.3}, mean bid {:.1}",
                c.declared,
                r.hands,
                c.made_rate(),
                c.mean_bid()
            );
        }
    }
    match r.elo {
        Some(e) => println!("Elo A-B           {e:+.0}"),
        None => println!("Elo A-B           undefined (win rate {})", r.win_rate),
    }
    let us = r.micros_per_decision();
    println!(
        "time/decision     A {:.2} µs ({} decisions), B {:.2} µs ({} decisions)",
        us[0], r.decisions[0], us[1], r.decisions[1]
    );
}

fn print_ladder(game: &str, l: &Ladder, args: &EvalArgs) {
    if args.json {
        let ratings: Vec<Value> =
            l.agents.iter().zip(&l.ratings).map(|(a, r)| json!({"agent": a, "elo": num(r.round())})).collect();
        let pairs: Vec<Value> = l.pairs.iter().map(|(_, _, r)| r.to_json(args.seed)).collect();
        println!("{}", json!({"game": game, "agents": l.agents, "ratings": ratings, "pairs": pairs}));
        return;
    }
    println!("ladder: {game}, seed {}", args.seed);
    let mut order: Vec<usize> = (0..l.agents.len()).collect();
    order.sort_by(|&a, &b| l.ratings[b].total_cmp(&l.ratings[a]));
    let width = l.agents.iter().map(|a| a.len()).max().unwrap_or(5).max(5);
    println!("{:<width$}  {:>6}", "agent", "elo");
    for &i in &order {
        println!("{:<width$}  {:>+6.0}", l.agents[i], l.ratings[i]);
    }
    println!();
    println!("pairs (A vs B: A's win rate [95%], Elo A-B)");
    for (i, j, r) in &l.pairs {
        let elo = r.elo.map_or("undefined".to_string(), |e| format!("{e:+.0}"));
        println!(
            "{} vs {}: {:.3} [{:.3}, {:.3}] over {} {}s, Elo {elo}",
            l.agents[*i], l.agents[*j], r.win_rate, r.win_ci.0, r.win_ci.1, r.trials, r.win_unit
        );
    }
}
