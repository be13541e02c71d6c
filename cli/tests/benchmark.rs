//! `bones benchmark` and the ladder picture (`bones eval --ladder --plot`).
//!
//! A real benchmark takes minutes, so the library is tested on reduced copies of
//! the published definitions (a cheap gauntlet, a few deals): the scorecard must
//! be what `arena::evaluate` gives on the same opponents and seed.

use crate::bones_cmd::bones;
use bones_agents::arena::{self, Amount, EvalOptions};
use bones_agents::benchmark::{self, Benchmark, ScoreRow, Scorecard};
use bones_agents::{AgentFactory, AgentSpec};
use bones_env::{AnyGame, Game};

#[test]
fn benchmark_refuses_bad_usage_with_status_2() {
    for (args, says) in [
        (&["benchmark", "foo"][..], "unknown agent `foo`"),
        (&["benchmark", "pimc:worlds=0"], "bad agent spec `pimc:worlds=0`"),
        (&["benchmark", "highest"], "does not play texas42"),
        (&["benchmark", "search", "--game", "doubles"], "does not play doubles"),
        (&["benchmark", "random", "--game", "chess"], "invalid value 'chess' for '--game <GAME>'"),
        (&["benchmark", "random", "--benchmark", "texas42-v0"], "invalid value 'texas42-v0'"),
        (&["benchmark", "random", "--benchmark", "doubles-v1", "--game", "texas42"], "is a doubles benchmark"),
        (&["benchmark", "random", "--threads", "0"], "--threads must be at least 1"),
        (&["benchmark"], "<AGENT>"),
    ] {
        let (code, _, err) = bones(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says) && !err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A published definition with a cheap gauntlet and a few deals.
fn reduced(version: &str, gauntlet: &[&str], hands: u64) -> Benchmark {
    let mut b = Benchmark::version(version).expect("a published version");
    b.gauntlet = gauntlet.iter().map(|s| s.to_string()).collect();
    b.amount = Amount::Hands(hands);
    b
}

/// The scorecard's rows are the arena's reports on the same opponents and seed.
fn check_against_arena<G: bones_agents::AgentGame>(game: &G, b: &Benchmark, agent: &AgentSpec, card: &Scorecard) {
    let factory = AgentFactory::new();
    assert_eq!(card.rows.len(), b.gauntlet.len());
    for (row, name) in card.rows.iter().zip(&b.gauntlet) {
        let opponent = AgentSpec::parse(name).unwrap();
        let opts = EvalOptions { amount: b.amount, seed: b.seed, threads: 1 };
        let direct = arena::evaluate(game, [agent, &opponent], &factory, &opts, &|_| {}).unwrap();
        let mut expect = ScoreRow::from_report(name, &direct);
        expect.micros_per_decision = row.micros_per_decision; // wall clock
        assert_eq!(row, &expect, "against {name}");
        assert_eq!(row.opponent, *name);
    }
    // Rows won or lost every time count the Elo of the win rate shrunk by half a win and half a loss.
    let shrunk = |r: &ScoreRow| {
        let p = (r.win_rate * r.hands as f64 + 0.5) / (r.hands as f64 + 1.0);
        arena::elo_vs_field(p, if card.game == "texas42" { 2 } else { card.players }).unwrap()
    };
    let elos: Vec<f64> = card.rows.iter().map(|r| r.elo.unwrap_or_else(|| shrunk(r))).collect();
    let mean = elos.iter().sum::<f64>() / elos.len() as f64;
    assert!((card.summary.mean_elo - mean).abs() < 1e-9);
    assert_eq!(card.summary.opponents, b.gauntlet.len());
    assert_eq!(card.summary.beaten, card.rows.iter().filter(|r| r.margin_ci.lo.is_some_and(|lo| lo > 0.0)).count());
    assert_eq!(card.summary.lost, card.rows.iter().filter(|r| r.margin_ci.hi.is_some_and(|hi| hi < 0.0)).count());
    assert_eq!(
        (card.benchmark.as_str(), card.seed, card.agent.clone()),
        (b.version.as_str(), b.seed, agent.to_string())
    );
}

#[test]
fn a_reduced_texas42_benchmark_is_the_arena_on_each_opponent() {
    let b = reduced("texas42-v1", &["random", "heuristic"], 24);
    let agent = AgentSpec::Heuristic;
    let done = std::sync::atomic::AtomicU64::new(0);
    let progress = |n: u64| {
        done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    };
    let card = benchmark::run(&b, &agent, &AgentFactory::new(), None, 2, &progress).unwrap();
    assert_eq!(done.into_inner(), benchmark::hands_in_all(&b).unwrap());
    assert_eq!((card.margin_unit.as_str(), card.win_unit.as_str(), card.players), ("marks_per_hand", "hand", 4));
    assert!(card.rows.iter().all(|r| r.deals == 12 && r.hands == 24));
    let AnyGame::Texas42(game) = b.any_game().unwrap() else { panic!("texas42") };
    check_against_arena(&game, &b, &agent, &card);
    // The same figures on one thread.
    let one = benchmark::run(&b, &agent, &AgentFactory::new(), None, 1, &|_| {}).unwrap();
    for (a, b) in one.rows.iter().zip(&card.rows) {
        assert_eq!((a.margin, a.margin_ci, a.win_rate, a.elo), (b.margin, b.margin_ci, b.win_rate, b.elo));
    }
}

#[test]
fn a_reduced_doubles_benchmark_is_the_arena_on_each_opponent() {
    let b = reduced("doubles-v1", &["random", "highest"], 40);
    let agent = AgentSpec::Heuristic;
    let card = benchmark::run(&b, &agent, &AgentFactory::new(), None, 2, &|_| {}).unwrap();
    assert_eq!((card.margin_unit.as_str(), card.win_unit.as_str(), card.players), ("points_per_round", "round", 4));
    assert!(card.rows.iter().all(|r| r.deals == 10 && r.hands == 40));
    let AnyGame::Doubles(game) = b.any_game().unwrap() else { panic!("doubles") };
    assert_eq!(game.num_players(), 4);
    check_against_arena(&game, &b, &agent, &card);
}

#[test]
fn the_scorecard_json_has_the_documented_keys_and_reads_back() {
    let b = reduced("texas42-v1", &["random"], 8);
    let card = benchmark::run(&b, &AgentSpec::Heuristic, &AgentFactory::new(), None, 1, &|_| {}).unwrap();
    let v = serde_json::to_value(&card).unwrap();
    let keys = |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let mut top = keys(&v);
    top.sort();
    assert_eq!(
        top,
        ["agent", "benchmark", "game", "margin_unit", "players", "rows", "rules", "seed", "summary", "win_unit"]
    );
    let mut row = keys(&v["rows"][0]);
    row.sort();
    assert_eq!(
        row,
        [
            "deals",
            "elo",
            "elo_ci",
            "hands",
            "margin",
            "margin_ci",
            "micros_per_decision",
            "opponent",
            "win_ci",
            "win_rate"
        ]
    );
    let mut summary = keys(&v["summary"]);
    summary.sort();
    assert_eq!(summary, ["beaten", "lost", "mean_elo", "opponents"]);
    assert_eq!(v["benchmark"], "texas42-v1");
    assert_eq!(v["agent"], "heuristic");
    assert_eq!(v["seed"], 42);
    assert!(v["rows"][0]["margin_ci"]["lo"].is_number() && v["rows"][0]["win_ci"]["hi"].is_number());
    let back: Scorecard = serde_json::from_value(v).unwrap();
    assert_eq!(back, card);
    // The definition itself travels as JSON too (for the Python package).
    let def: Benchmark = serde_json::from_str(&serde_json::to_string(&b).unwrap()).unwrap();
    assert_eq!(def, b);
}

/// A small XML well-formedness check: tags nest and close, attributes are
/// quoted, `&` starts an entity, no stray `<`/`>`.
fn well_formed(xml: &str) -> Result<Vec<String>, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = xml.trim();
    let mut root_done = false;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('<') {
            let end = after.find('>').ok_or("an unclosed tag")?;
            let tag = &after[..end];
            rest = &after[end + 1..];
            if tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            if let Some(name) = tag.strip_prefix('/') {
                let open = stack.pop().ok_or(format!("</{name}> closes nothing"))?;
                if open != name.trim() {
                    return Err(format!("</{name}> closes <{open}>"));
                }
                root_done = stack.is_empty();
                continue;
            }
            if root_done {
                return Err("a second root element".into());
            }
            let self_closing = tag.ends_with('/');
            let body = tag.trim_end_matches('/');
            let name = body.split_whitespace().next().ok_or("an empty tag")?.to_string();
            let attrs = &body[name.len()..];
            if attrs.matches('"').count() % 2 != 0 || attrs.contains('<') {
                return Err(format!("bad attributes in <{tag}>"));
            }
            seen.push(name.clone());
            if self_closing {
                root_done = stack.is_empty();
            } else {
                stack.push(name);
            }
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            let text = &rest[..end];
            if text.contains('>') {
                return Err(format!("a stray > in {text:?}"));
            }
            for (i, _) in text.match_indices('&') {
                let ent = &text[i..];
                if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].iter().any(|e| ent.starts_with(e)) {
                    return Err(format!("a bare & in {text:?}"));
                }
            }
            if stack.is_empty() && !text.trim().is_empty() {
                return Err(format!("text outside the root: {text:?}"));
            }
            rest = &rest[end..];
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed <{}>", stack.join("> <")));
    }
    Ok(seen)
}

/// The texts of the agent labels (`<text class="agent" …>LABEL</text>`).
fn agent_labels(svg: &str) -> Vec<String> {
    svg.split(r#"<text class="agent""#)
        .skip(1)
        .map(|s| {
            let start = s.find('>').unwrap() + 1;
            s[start..start + s[start..].find('<').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn the_ladder_picture_is_well_formed_svg_with_one_label_per_agent() {
    let dir = std::env::temp_dir().join(format!("bones-cli-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ladder.svg");
    let f = file.to_str().unwrap();
    let (code, out, err) = bones(&["eval", "--ladder", "random,heuristic,pimc:worlds=2", "--hands", "8", "--plot", f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ladder: texas42"), "{out}");
    let svg = std::fs::read_to_string(&file).unwrap();
    let tags = well_formed(&svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"));
    assert_eq!(tags[0], "svg");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let mut labels = agent_labels(&svg);
    assert_eq!(labels.len(), 3, "{svg}");
    // Sorted by rating, best first: heuristic beats random.
    let heuristic = labels.iter().position(|l| l == "heuristic").unwrap();
    let random = labels.iter().position(|l| l == "random").unwrap();
    assert!(heuristic < random, "{labels:?}");
    labels.sort();
    assert_eq!(labels, ["heuristic", "pimc:worlds=2", "random"]);
    assert_eq!(svg.matches("<circle").count(), 3);
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert!(!left.iter().any(|n| n.to_string_lossy().ends_with(".tmp")), "the temporary file is renamed: {left:?}");
    // --plot needs --ladder.
    let (code, _, err) = bones(&["eval", "--agents", "random,heuristic", "--hands", "2", "--plot", f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--plot"), "{err}");
    // A file that cannot be written: status 1, one message.
    let (code, _, err) =
        bones(&["eval", "--ladder", "random,heuristic", "--hands", "2", "--plot", "/nonexistent/dir/l.svg"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--plot /nonexistent/dir/l.svg") && !err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_ladder_picture_escapes_its_labels() {
    use bones_agents::rating::RatingInterval;
    let agents = vec!["model:a&b<c>".to_string(), "random".to_string()];
    let ratings = [
        RatingInterval { rating: 50.0, se: 10.0, lo: 30.4, hi: 69.6 },
        RatingInterval { rating: -50.0, se: f64::NAN, lo: f64::NAN, hi: f64::NAN },
    ];
    let svg = bones_cli::plot::ladder_svg("a \"title\" & more", &agents, &ratings);
    well_formed(&svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"));
    assert_eq!(agent_labels(&svg), ["model:a&amp;b&lt;c&gt;", "random"]);
    assert!(svg.contains("+50 [+30, +70]") && svg.contains(">-50<"), "{svg}");
}
