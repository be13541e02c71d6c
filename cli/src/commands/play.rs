//! `bones play`: a person plays one seat in the terminal against bots, for a
//! whole game (Texas 42 to the target in marks; Doubles to the target in points).
//! Moves are typed by canonical action name; `help`/`?` lists the legal moves
//! again, `quit` stops. `--save FILE` writes the game as a whole-game record
//! that `bones replay FILE` reads.

use super::args::GameArgs;
use crate::terminal::doubles::DoublesScreen;
use crate::terminal::texas42::Texas42Screen;
use crate::terminal::{Screen, StateOf};
use anyhow::{anyhow, Result};
use bones_agents::spec::grammar;
use bones_agents::{Agent, AgentRng, AgentSpec, Bare, Refusal, Seats, SpecError, Table};
use bones_env::rules::DoublesRules;
use bones_env::{AnyGame, Doubles, DoublesRecord, Episode, Game, Texas42, Texas42Record, Texas42Rules, TypedRecord};
use bones_policy::agent::factory;
use rand::SeedableRng;
use serde_json::Value;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Bots are agent specs: {specs}. The default partner and opponents are the shipped model \
     (`model:models/texas42` or `model:models/doubles`), or `heuristic` where that folder is missing.\n\n\
     At a prompt type a move by name: a bid (`30`, `1m`, `pass`), a trump (`sixes`, `follow-me`), a domino \
     (`6-4`, also `4-6`); in Doubles `6-6`, `6-3@6` (or just `6-3` when it fits one end only), `draw`, `pass`. \
     `help` or `?` shows the legal moves again; `quit` (or end of input) stops, saving with --save.",
    specs = grammar::summary()
))]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Your seat (Texas 42: 0..3, seat 0 shakes first; Doubles: 0..players-1).
    #[arg(long, default_value_t = 0)]
    pub seat: u8,
    /// Your partner (Texas 42 only) [default: the shipped model, else heuristic].
    #[arg(long, value_name = "SPEC")]
    pub partner: Option<String>,
    /// The opponents (Doubles: every other seat) [default: the shipped model, else heuristic].
    #[arg(long, value_name = "SPEC")]
    pub opponents: Option<String>,
    /// Seed of the deals and the bots' random choices [default: drawn from the clock, printed].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the game as a whole-game record (JSON line) that `bones replay FILE` reads
    /// (with your seat in its `annotations`, for `bones replay --review FILE`).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

/// Bad usage: exit 2.
fn usage(msg: impl std::fmt::Display) -> Result<i32> {
    Err(super::args::usage(msg).into())
}

pub fn run(args: PlayArgs) -> Result<i32> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    // The terminal screens are written per game.
    match args.game.game()? {
        AnyGame::Texas42(game) => play_texas42(&args, game, seed),
        AnyGame::Doubles(game) => play_doubles(&args, game, seed),
    }
}

/// A seed for a game without `--seed` (short, to be easy to type back).
fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let x = (t ^ (std::process::id() as u64).rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x >> 40) % 1_000_000
}

/// A bot spec from a flag, or the shipped model of `game` (`heuristic` when it is
/// missing). Returns the spec and whether it is the default.
fn bot_spec(flag: &Option<String>, name: &str, game: &str) -> Result<(AgentSpec, bool), String> {
    if let Some(text) = flag {
        return AgentSpec::parse(text).map(|s| (s, false)).map_err(|e| format!("{name}: {e}"));
    }
    match bones_policy::agent::shipped_model(game) {
        Some(path) => Ok((AgentSpec::Model { path }, true)),
        None => {
            note_once(&format!("no shipped model at models/{game}; the bots play `heuristic`"));
            Ok((AgentSpec::Heuristic, true))
        }
    }
}

/// One notice on stderr about the default bots (not one per seat).
fn note_once(msg: &str) {
    static NOTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !NOTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!("note: {msg}");
    }
}

/// Builds the bot of `spec`; a default model that does not load falls back to
/// `heuristic` with a notice, any other failure is bad usage.
fn build_bot<V>(
    spec: &AgentSpec,
    default: bool,
    make: impl Fn(&AgentSpec) -> Result<Box<dyn Agent<V>>, SpecError>,
) -> Result<(Box<dyn Agent<V>>, AgentSpec), String> {
    match make(spec) {
        Ok(a) => Ok((a, spec.clone())),
        Err(e) if default => {
            note_once(&format!("{e}; the bots play `heuristic`"));
            make(&AgentSpec::Heuristic).map(|a| (a, AgentSpec::Heuristic)).map_err(|e| e.to_string())
        }
        Err(e) => Err(e.to_string()),
    }
}

fn rules_name(rules: &Texas42Rules) -> String {
    let diff = rules.preset_diff();
    let preset = diff.get("preset").and_then(|p| p.as_str()).unwrap_or("standard");
    let changes: Vec<String> = diff.iter().filter(|(k, _)| *k != "preset").map(|(k, v)| format!("{k} {v}")).collect();
    if changes.is_empty() {
        format!("{preset} rules")
    } else {
        format!("{preset} rules with {}", changes.join(", "))
    }
}

fn play_texas42(args: &PlayArgs, game: Texas42, seed: u64) -> Result<i32> {
    let rules = game.rules;
    if args.seat > 3 {
        return usage(format!("--seat {}: Texas 42 seats are 0..3", args.seat));
    }
    let human = args.seat;
    let specs =
        match (bot_spec(&args.partner, "--partner", "texas42"), bot_spec(&args.opponents, "--opponents", "texas42")) {
            (Ok(p), Ok(o)) => [p, o],
            (Err(e), _) | (_, Err(e)) => return usage(e),
        };
    let mut bots: Vec<Option<Box<dyn Agent<_>>>> = (0..4).map(|_| None).collect();
    let mut names = [String::new(), String::new()];
    for seat in (0..4u8).filter(|&s| s != human) {
        let which = usize::from((seat + 4 - human) % 2 == 1); // 0: partner, 1: opponent
        let (spec, default) = &specs[which];
        match build_bot(spec, *default, |s| factory().build(s, &game)) {
            Ok((bot, used)) => {
                bots[seat as usize] = Some(bot);
                names[which] = used.to_string();
            }
            Err(e) => return usage(if which == 0 { format!("--partner: {e}") } else { format!("--opponents: {e}") }),
        }
    }
    let state = game.from_seed(0, seed, Episode::Game);
    let record = move |actions: &[String]| {
        let diff = rules.preset_diff();
        let seeded = Texas42Record::seeded(&game, seed, Episode::Game, actions.to_vec());
        let rules = (!diff.is_empty()).then_some(Value::Object(diff));
        Texas42Record { rules, annotations: Some(serde_json::json!({ "seat": human })), ..seeded }.to_json()
    };
    let unit = if rules.scoring == bones_env::Scoring::Points { "game points" } else { "marks" };
    let intro = format!(
        "Texas 42, {}, first to {} {unit}. Seed {seed} (play these deals again with --seed {seed}).\n\
         You sit at seat {human}; Partner ({}) sits opposite; Left and Right ({}) are your opponents.\n\
         Type a move by name (`30`, `pass`, `sixes`, `6-4`), `help` to see the legal moves, `quit` to stop.\n",
        rules_name(&rules),
        rules.target,
        names[0],
        names[1]
    );
    let screen = Texas42Screen { game, human };
    play_loop(&screen, state, bots, seed, &intro, record, args.save.as_deref())
}

fn play_doubles(args: &PlayArgs, game: Doubles, seed: u64) -> Result<i32> {
    if args.partner.is_some() {
        return usage("--partner: Doubles has no partners; --opponents sets every other seat");
    }
    let rules: DoublesRules = game.rules;
    let players = rules.players;
    if args.seat >= players {
        return usage(format!("--seat {}: with {players} players the seats are 0..{}", args.seat, players - 1));
    }
    let human = args.seat;
    let (spec, default) = match bot_spec(&args.opponents, "--opponents", "doubles") {
        Ok(s) => s,
        Err(e) => return usage(e),
    };
    let mut bots: Vec<Option<Box<dyn Agent<_>>>> = (0..players).map(|_| None).collect();
    let mut name = String::new();
    for seat in (0..players).filter(|&s| s != human) {
        match build_bot(&spec, default, |s| factory().build(s, &game)) {
            Ok((bot, used)) => {
                bots[seat as usize] = Some(bot);
                name = used.to_string();
            }
            Err(e) => return usage(format!("--opponents: {e}")),
        }
    }
    let state = game.new_state(seed, Episode::Game);
    let record = move |actions: &[String]| {
        // `players` on its own, the other rules only where they differ from the defaults.
        let mut rest = rules.to_json();
        if let Some(o) = rest.as_object_mut() {
            o.remove("players");
        }
        let changed = (DoublesRules { players, ..rules }) != (DoublesRules { players, ..DoublesRules::default() });
        let seeded = DoublesRecord::seeded(&game, seed, Episode::Game, actions.to_vec());
        let annotations = Some(serde_json::json!({ "seat": human }));
        DoublesRecord { players: Some(players), rules: changed.then_some(rest), annotations, ..seeded }.to_json()
    };
    let intro = format!(
        "Doubles, {players} players, first to {} points. Seed {seed} (play these deals again with --seed {seed}).\n\
         You are seat {human}; the other seats play {name}. The highest double opens; every double is a spinner.\n\
         Type a move by name (`6-6`, `6-3@6` or just `6-3`, `draw`, `pass`), `help` to see the legal moves, \
         `quit` to stop.\n",
        rules.target
    );
    let screen = DoublesScreen { game, human };
    play_loop(&screen, state, bots, seed, &intro, record, args.save.as_deref())
}

/// Plain output; a closed stdout is noticed, not a panic.
struct Term {
    out: std::io::Stdout,
    broken: bool,
}

impl Term {
    fn say(&mut self, s: &str) {
        if self.out.write_all(s.as_bytes()).and_then(|_| self.out.flush()).is_err() {
            self.broken = true;
        }
    }
}

/// The person's answer at a prompt.
enum Reply {
    Act(bones_env::Action),
    Quit,
    Eof,
}

/// Shows the status and reads until a legal move, `quit` or end of input.
fn ask<S: Screen>(screen: &S, state: &StateOf<S>, term: &mut Term, input: &mut dyn BufRead) -> Reply {
    term.say(&screen.status(state));
    let mut buf = Vec::new();
    loop {
        term.say(screen.prompt(state));
        if term.broken {
            return Reply::Eof;
        }
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => {
                term.say("\n");
                return Reply::Eof;
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("\nerror: cannot read input: {e}");
                return Reply::Eof;
            }
        }
        let text = String::from_utf8_lossy(&buf).trim().to_lowercase();
        match text.as_str() {
            "" => {}
            "help" | "?" | "h" => {
                term.say(&screen.status(state));
                term.say("Commands: a move from the legal list, `help` or `?`, `quit`.\n");
            }
            "quit" | "exit" | "q" => return Reply::Quit,
            _ => match screen.read(state, &text) {
                Ok(a) => return Reply::Act(a),
                Err(msg) => term.say(&format!("{msg}\n")),
            },
        }
    }
}

fn save(path: Option<&Path>, record: &Value) -> Result<()> {
    if let Some(p) = path {
        let mut line = record.to_string();
        line.push('\n');
        std::fs::write(p, line).map_err(|e| anyhow!("cannot write --save `{}`: {e}", p.display()))?;
    }
    Ok(())
}

/// The game loop: the bots act from their seat's view at the table, the
/// person answers prompts; every action is told as it happens.
fn play_loop<S: Screen>(
    screen: &S,
    state: StateOf<S>,
    bots: Seats<S::Game>,
    seed: u64,
    intro: &str,
    record: impl Fn(&[String]) -> Value,
    save_to: Option<&Path>,
) -> Result<i32> {
    // Writing the empty record first checks the path before anyone plays.
    if let Err(e) = save(save_to, &record(&[])) {
        return usage(e);
    }
    let game = screen.game();
    let rng = AgentRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x706C_6179);
    let mut table = Table::new(Bare::new(game.clone(), state), bots, rng);
    let actions =
        |table: &Table<S::Game>| -> Vec<String> { table.action_names().into_iter().map(String::from).collect() };
    let mut term = Term { out: std::io::stdout(), broken: false };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    term.say(intro);
    loop {
        let told = table.advance_with(|p| term.say(&screen.event(p.before, p.after, p.seat, p.action)));
        if let Err(e) = told {
            save(save_to, &record(&actions(&table)))?;
            return Err(match e.refusal {
                Refusal::Board { action, reason } => {
                    let name = game.action_name(action);
                    anyhow!("{} chose `{name}`, which is not legal: {reason}", screen.seat_name(e.seat))
                }
                Refusal::Failed(failure) => anyhow!("{} failed: {failure}", screen.seat_name(e.seat)),
            });
        }
        if table.outside_to_move().is_none() {
            break;
        }
        save(save_to, &record(&actions(&table)))?;
        match ask(screen, table.state(), &mut term, &mut input) {
            Reply::Act(a) => {
                let told = table.apply_with(a, |p| term.say(&screen.event(p.before, p.after, p.seat, p.action)));
                if let Err(e) = told {
                    save(save_to, &record(&actions(&table)))?;
                    let name = game.action_name(a);
                    return Err(anyhow!(
                        "{} chose `{name}`, which is not legal: {e}",
                        screen.seat_name(screen.human())
                    ));
                }
            }
            Reply::Quit | Reply::Eof => {
                save(save_to, &record(&actions(&table)))?;
                term.say("\n");
                term.say(&screen.finished(table.state()));
                if let Some(p) = save_to {
                    term.say(&format!("Saved the game so far to {} (`bones replay` reads it).\n", p.display()));
                }
                return Ok(0);
            }
        }
    }
    save(save_to, &record(&actions(&table)))?;
    term.say(&screen.finished(table.state()));
    if let Some(p) = save_to {
        let p = p.display();
        term.say(&format!(
            "Saved the game to {p} (`bones replay {p}` replays it; `bones replay --review {p}` reviews your plays).\n"
        ));
    }
    Ok(0)
}
