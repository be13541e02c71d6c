//! `bones label`: a teacher's choices on positions of self-play, made once
//! into a label file that training runs learn from (config `labels`; see
//! `bones_train::labels`).

use super::args::{usage, GameArgs};
use anyhow::{Context, Result};
use bones_agents::spec::VALID_SPECS;
use bones_agents::AgentSpec;
use bones_env::{Game, GameVisitor};
use bones_policy::agent::shipped_model;
use bones_train::labels::{self, LabelOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Agent specs: {VALID_SPECS}.\n\n\
     The --player agent plays every seat of --hands hands (hand i dealt from seed --seed + i); at each \
     seat's first --decisions decisions with a choice in each hand (0: all), the teacher is asked what it \
     would play from that seat's view. The file holds each position's observation, legal actions and the \
     teacher's action; a training config with `labels = \"FILE\"` learns from it. The file depends only on \
     the options, not on --threads."
))]
pub struct LabelArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The agent whose choices are the labels (an agent spec).
    #[arg(long, default_value = "search")]
    pub teacher: String,
    /// The agent playing every seat (default: the game's shipped network, `model:models/GAME`).
    #[arg(long)]
    pub player: Option<String>,
    /// Hands (Doubles: rounds) to play.
    #[arg(long, default_value_t = 1000)]
    pub hands: u64,
    /// Seed of the first hand's deal.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Decisions with a choice labelled per seat and hand, from the first (0: all).
    #[arg(long, default_value_t = 4)]
    pub decisions: u32,
    /// Leave out positions where the teacher's values tie at the top (its
    /// choice among equals is only its tie rule).
    #[arg(long)]
    pub skip_ties: bool,
    /// Threads (default: all cores); the file does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The label file to write.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: LabelArgs) -> Result<i32> {
    let game = args.game.game()?;
    let teacher = AgentSpec::parse(&args.teacher).map_err(|e| usage(format!("--teacher: {e}")))?;
    let player = match &args.player {
        Some(p) => AgentSpec::parse(p).map_err(|e| usage(format!("--player: {e}")))?,
        None => AgentSpec::Model {
            path: shipped_model(&args.game.game)
                .ok_or_else(|| usage(format!("no shipped model for {}: give --player", args.game.game)))?,
        },
    };
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if args.hands == 0 || threads == 0 {
        return Err(usage("--hands and --threads must be at least 1").into());
    }
    let opts = LabelOptions {
        teacher,
        player,
        hands: args.hands,
        seed: args.seed,
        decisions: args.decisions,
        skip_ties: args.skip_ties,
        threads,
    };
    game.visit(Label { opts: &opts, out: &args.out })?;
    Ok(0)
}

struct Label<'a> {
    opts: &'a LabelOptions,
    out: &'a PathBuf,
}

impl GameVisitor for Label<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let Label { opts, out } = self;
        let bar = ProgressBar::new(opts.hands);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} hands labelled, eta {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        let start = Instant::now();
        let file = labels::make(&game, opts, &|_| bar.inc(1)).map_err(|e| match e {
            labels::LabelError::Spec { .. } | labels::LabelError::Options(_) => usage(e).into(),
            e => anyhow::Error::new(e),
        })?;
        bar.finish_and_clear();
        file.write(out).with_context(|| format!("writing {}", out.display()))?;
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{} labels by {} on {} hands played by {} ({:.0} s, {:.0} labels/hour on {} threads) -> {}",
            file.rows.len(),
            file.teacher,
            file.hands,
            file.player,
            secs,
            file.rows.len() as f64 * 3600.0 / secs.max(1e-9),
            opts.threads,
            out.display()
        );
        Ok(())
    }
}
