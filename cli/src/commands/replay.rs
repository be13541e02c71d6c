//! `bones replay FILE|-`: one annotated JSON line per record; exit 1 if any failed.
//! With `--review`, each finished deal of each record reviewed for a seat (the
//! page's review, [`bones_agents::review`]: a Texas 42 hand for the seat's side, a
//! Doubles round for the seat): as text, or with `--json` as the replayed
//! record with `reviews` added.

use anyhow::{Context, Result};
use bones_agents::review::Reviewer;
use bones_agents::AgentGame;
use bones_env::replay::{load_record_of, record_game, replay_line};
use bones_env::Action;
use bones_policy::agent::ModelLoader;
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A JSON-lines file of records, or `-` for standard input.
    pub file: String,
    /// Review every finished deal for a seat: in Texas 42 each play of the
    /// seat and its partner against the open-hand solver's best (all hands
    /// open), each bid and the trump against the shipped network's; in
    /// Doubles each choice of the seat against pimc from its own view.
    #[arg(long)]
    pub review: bool,
    /// The seat to review [default: the record's `annotations.seat`, else 0].
    #[arg(long, requires = "review", value_parser = clap::value_parser!(u8).range(0..=3))]
    pub seat: Option<u8>,
    /// With --review: print each record (replayed) with its `reviews` as one
    /// JSON line instead of text.
    #[arg(long, requires = "review")]
    pub json: bool,
}

pub fn run(args: ReplayArgs) -> Result<i32> {
    let input: Box<dyn BufRead> = if args.file == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(&args.file).with_context(|| format!("cannot open `{}`", args.file))?;
        Box::new(BufReader::new(f))
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let mut reviewer = args.review.then(|| Reviewer::new(&ModelLoader));
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read line {} of `{}`", i + 1, args.file))?;
        if line.trim().is_empty() {
            continue;
        }
        let (mut value, ok) = replay_line(&line, i + 1);
        failed += usize::from(!ok);
        match reviewer.as_mut().filter(|_| ok) {
            Some(reviewer) => {
                let seat = args.seat.map(usize::from).unwrap_or_else(|| annotated_seat(&value));
                let reviews = review(&value, seat, reviewer);
                if args.json {
                    value["reviews"] = reviews.map(Value::Array).unwrap_or(Value::Null);
                    serde_json::to_writer(&mut out, &value)?;
                    out.write_all(b"\n")?;
                } else {
                    write_text(&mut out, i + 1, &value, seat, reviews.as_deref(), reviewer.spec())?;
                }
            }
            None => {
                serde_json::to_writer(&mut out, &value)?;
                out.write_all(b"\n")?;
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        eprintln!("bones replay: {failed} record(s) failed");
        return Ok(1);
    }
    Ok(0)
}

/// The seat a record's annotations name (a `bones web` record), else 0.
fn annotated_seat(record: &Value) -> usize {
    record["annotations"]["seat"].as_u64().filter(|&s| s < 4).unwrap_or(0) as usize
}

/// The reviews of a valid record's finished deals for `seat` (`None`: its
/// game has no review).
fn review(record: &Value, seat: usize, reviewer: &mut Reviewer) -> Option<Vec<Value>> {
    struct Whole<'a> {
        names: Vec<String>,
        seat: usize,
        reviewer: &'a mut Reviewer,
    }
    impl Whole<'_> {
        fn visit<G: AgentGame>(self, game: G, start: G::State) -> Option<Vec<Value>> {
            let actions: Vec<Action> =
                self.names.iter().map(|n| game.parse_action(n).expect("a replayed record's actions parse")).collect();
            self.reviewer.whole(&game, start, &actions, self.seat)
        }
    }
    let names: Vec<String> =
        record["actions"].as_array()?.iter().filter_map(|a| a.as_str().map(String::from)).collect();
    // The record's start: the same record without its actions.
    let mut start = record.clone();
    start["actions"] = Value::Array(Vec::new());
    let whole = Whole { names, seat, reviewer };
    let kind = record_game(&start).ok()?;
    bones_env::on_game!(kind, g => {
        let (game, state) = load_record_of(&g, &start).ok()?;
        whole.visit(game, state)
    })
}

/// The reviews as a person reads them.
fn write_text(
    out: &mut impl Write,
    line: usize,
    record: &Value,
    seat: usize,
    reviews: Option<&[Value]>,
    bidder: &str,
) -> std::io::Result<()> {
    let game = record["game"].as_str().unwrap_or("?");
    let Some(reviews) = reviews else {
        return writeln!(out, "record {line} ({game}): no review (Texas 42 and Doubles are reviewed)");
    };
    let how = if game == "doubles" { "against pimc from the seat's own view" } else { "with all hands open" };
    writeln!(out, "record {line} ({game}), seat {seat}: {} deal(s), reviewed {how}", reviews.len())?;
    for (h, r) in reviews.iter().enumerate() {
        writeln!(out, "hand {}:", h + 1)?;
        write_seat(out, r, "  ", bidder)?;
        if r["partner"].is_object() {
            writeln!(out, "  partner (seat {}):", r["partner"]["seat"])?;
            write_seat(out, &r["partner"], "    ", bidder)?;
        }
        if let Some(text) = r["side"]["lost_most"]["text"].as_str() {
            writeln!(out, "  where the side lost most: {text}")?;
        }
    }
    Ok(())
}

/// One seat's review: its bids and trump beside `bidder`'s, its plays, the points given up.
fn write_seat(out: &mut impl Write, r: &Value, indent: &str, bidder: &str) -> std::io::Result<()> {
    let name = |v: &Value| v.as_str().unwrap_or("?").to_string();
    let choices = r["bids"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| ("bid", b))
        .chain(r["declaration"].as_object().map(|_| ("trump", &r["declaration"])));
    for (what, c) in choices {
        let (mine, net) = (name(&c["action"]), name(&c["network"]));
        let same = if mine == net { " (the same)".to_string() } else { String::new() };
        writeln!(out, "{indent}{what}: {mine}; {bidder} would choose {net}{same}")?;
    }
    let largest = r["largest"].as_u64();
    for (i, p) in r["plays"].as_array().into_iter().flatten().enumerate() {
        let lost = p["lost"].as_f64().unwrap_or(0.0);
        let mark = if largest == Some(i as u64) { "  <- the largest loss" } else { "" };
        let verdict = if lost == 0.0 {
            format!("a best play ({} points)", p["played_points"])
        } else {
            format!("best was {} ({} points): gave up {} points{mark}", name(&p["best"]), p["best_points"], p["lost"])
        };
        let when = if p["trick"].is_null() { format!("move {}", p["turn"]) } else { format!("trick {}", p["trick"]) };
        writeln!(out, "{indent}{when}: {} - {verdict}", name(&p["action"]))?;
    }
    writeln!(out, "{indent}points given up: {}", r["lost"])
}
