//! Outside programs (`exec:`): what they are sent (only their seat's view),
//! and an evaluation against programs written for the test: a good one plays to
//! the end, and an illegal, a crashing, a hanging and a late-failing one each
//! stop it with one error naming the seat, the record so far, what came back
//! and what was expected, keeping the report of the deals already finished.
//! The spec's own rules (options, safety over the network) are checked too.

use bones_agents::AgentGame;
use std::path::{Path, PathBuf};

use bones_agents::arena::{evaluate, Amount, ArenaError, EvalOptions};
use bones_agents::seat_request::SeatRequest;
use bones_agents::spec::{split_words, DEFAULT_EXEC_LIMIT_MS};
use bones_agents::{AgentFactory, AgentSpec, SpecError};
use bones_env::rules::DoublesRules;
use bones_env::{Domino, DominoSet, Doubles, Episode, GameState, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Every domino named anywhere in `v` (strings such as `6-4` or `6-4@6`).
fn dominoes_in(v: &Value, out: &mut DominoSet) {
    match v {
        Value::String(s) => {
            let name = s.split('@').next().unwrap_or("");
            if let Ok(d) = name.parse::<Domino>() {
                out.insert(d);
            }
        }
        Value::Array(xs) => xs.iter().for_each(|x| dominoes_in(x, out)),
        Value::Object(m) => m.values().for_each(|x| dominoes_in(x, out)),
        _ => {}
    }
}

/// Plays random games of `game` and, at every decision, checks that the request
/// sent to the seat to move names no domino but those `known(state, seat)`
/// (its own and the ones on the table) and no key that could carry more.
fn requests_hold_only_what_the_seat_knows<G: AgentGame>(game: &G, known: impl Fn(&G::State, usize) -> DominoSet)
where
    <G::State as GameState>::View: SeatRequest,
{
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut decisions = 0;
    for seed in 0..40 {
        let mut st = game.new_state(seed, Episode::Game);
        while let Some(seat) = st.current_seat() {
            let request = st.view(seat).to_request();
            let obj = request.as_object().expect("an object");
            for key in ["seed", "hands", "boneyard_order", "deal"] {
                assert!(!obj.contains_key(key), "a request holds `{key}`: {request}");
            }
            let mut named = DominoSet::EMPTY;
            dominoes_in(&request, &mut named);
            let hidden = named - known(&st, seat);
            assert!(hidden.is_empty(), "seat {seat} is sent {hidden:?}, hidden from it: {request}");
            let legal: Vec<_> = st.legal_mask().iter().collect();
            st.apply(legal[rng.random_range(0..legal.len())]).unwrap();
            decisions += 1;
        }
    }
    assert!(decisions > 1000);
}

#[test]
fn a_texas42_request_names_only_the_seats_own_dominoes_and_those_played() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    requests_hold_only_what_the_seat_knows(&game, |st, seat| {
        let h = st.hand();
        let played = (0..4).fold(DominoSet::EMPTY, |acc, s| acc | (h.dealt[s] - h.hands[s]));
        h.hands[seat] | played
    });
}

#[test]
fn a_doubles_request_names_only_the_seats_own_dominoes_and_those_on_the_board() {
    for players in [2, 3, 4] {
        let game = Doubles::new(DoublesRules { players, ..DoublesRules::default() });
        requests_hold_only_what_the_seat_knows(&game, |st, seat| st.seat_hands()[seat] | st.round().board.placed);
    }
}

// ---------------------------------------------------------------------------
// Programs written for the test

/// A Python bot in a fresh folder: it reads requests, logs each to
/// `requests.jsonl` beside it, and runs `body` with `req` (the request) and
/// `n` (how many came before) to print its reply.
fn bot(name: &str, body: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("bones-exec-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("bot.py");
    let log = dir.join("requests.jsonl");
    let _ = std::fs::remove_file(&log);
    let text = format!(
        "import json, sys, time\nlog = open({log:?}, 'a')\nn = 0\nfor line in sys.stdin:\n    req = json.loads(line)\n    log.write(line); log.flush()\n{}\n    sys.stdout.flush()\n    n += 1\n",
        body.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
    );
    std::fs::write(&script, text).unwrap();
    (dir, format!("python3 {}", script.display()))
}

const GOOD: &str = "print(json.dumps({'id': req['id'], 'action': req['view']['legal'][0]}))";

fn eval_vs_heuristic<G: AgentGame>(game: &G, exec: &str, hands: u64) -> Result<bones_agents::EvalReport, ArenaError> {
    let spec: AgentSpec = exec.parse().unwrap();
    let opts = EvalOptions { amount: Amount::Hands(hands), seed: 3, threads: 2 };
    evaluate(game, [&spec, &AgentSpec::Heuristic], &AgentFactory::new(), &opts, &|_| {})
}

fn logged(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("requests.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_good_program_plays_whole_evaluations_of_both_games_from_seat_views() {
    let (dir, cmd) = bot("good", GOOD);
    let game = Texas42::new(Texas42Rules::STANDARD);
    let r = eval_vs_heuristic(&game, &format!("exec:{cmd}"), 8).unwrap();
    assert_eq!(r.hands, 8);
    let requests = logged(&dir);
    assert_eq!(requests.len() as u64, r.decisions[0]);
    for req in &requests {
        let view = &req["view"];
        assert_eq!(view["game"], "texas42");
        assert_eq!(req["seat"], view["seat"]);
        assert!(!view["legal"].as_array().unwrap().is_empty());
        assert_eq!(view["dealt"].as_array().unwrap().len(), 7, "{req}");
    }
    let doubles = Doubles::new(DoublesRules::default());
    let _ = std::fs::remove_file(dir.join("requests.jsonl"));
    let r = eval_vs_heuristic(&doubles, &format!("exec:{cmd}"), 8).unwrap();
    assert_eq!(r.hands, 8);
    assert!(logged(&dir).iter().all(|q| q["view"]["game"] == "doubles" && q["view"]["hand"].is_array()));
}

/// The failure of an evaluation against the bot `body`, as text, after
/// checking it is one error naming the seat, the record so far and what was
/// expected.
fn failure(name: &str, body: &str, limit: &str) -> String {
    let (_dir, cmd) = bot(name, body);
    let game = Texas42::new(Texas42Rules::STANDARD);
    let err = eval_vs_heuristic(&game, &format!("exec:{limit}{cmd}"), 4).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("at seat "), "{text}");
    assert!(text.contains("the record so far: {\"game\":\"texas42\""), "{text}");
    assert!(text.contains("expected one line {\"id\":"), "{text}");
    text
}

#[test]
fn an_illegal_or_unreadable_reply_or_a_crash_stops_the_evaluation_naming_what_came_back() {
    // The bot, its body, and what the error says of it.
    let cases: [(&str, &str, &[&str]); 4] = [
        (
            "illegal",
            "print(json.dumps({'id': req['id'], 'action': 'sevens-of-nothing'}))",
            &["`sevens-of-nothing` is not a legal action now", "got `{\"id\": 0, \"action\": \"sevens-of-nothing\"}`"],
        ),
        ("garbage", "print('hello')", &["the reply is not JSON", "got `hello`"]),
        (
            "wrong-id",
            "print(json.dumps({'id': 99, 'action': req['view']['legal'][0]}))",
            &["the reply's `id` is not the request's (0)"],
        ),
        (
            "crash",
            "sys.stderr.write('bot: out of cheese\\n'); sys.stderr.flush(); sys.exit(3)",
            &["the program exited (exit status: 3)", "out of cheese"],
        ),
    ];
    for (name, body, says) in cases {
        let text = failure(name, body, "");
        for said in says {
            assert!(text.contains(said), "{name}: {text}");
        }
    }
}

#[test]
fn a_hanging_program_is_stopped_at_the_time_limit() {
    let t0 = std::time::Instant::now();
    let text = failure("hang", "time.sleep(60)", "limit=0.5:");
    assert!(text.contains("no reply within 0.5 s"), "{text}");
    assert!(t0.elapsed().as_secs() < 30, "the hang was not cut off: {:?}", t0.elapsed());
}

#[test]
fn deals_finished_before_a_failure_are_kept_in_the_report() {
    // Good for 40 decisions (whole hands), then an illegal reply.
    let body =
        "a = req['view']['legal'][0] if n < 40 else 'nonsense'\nprint(json.dumps({'id': req['id'], 'action': a}))";
    let (_dir, cmd) = bot("late", body);
    let game = Texas42::new(Texas42Rules::STANDARD);
    let spec: AgentSpec = format!("exec:{cmd}").parse().unwrap();
    let opts = EvalOptions { amount: Amount::Hands(40), seed: 3, threads: 1 };
    match evaluate(&game, [&spec, &AgentSpec::Heuristic], &AgentFactory::new(), &opts, &|_| {}) {
        Err(ArenaError::Stopped { cause, finished }) => {
            assert!(matches!(*cause, ArenaError::Failed { .. }), "{cause}");
            assert!(finished.deals >= 1 && finished.hands == 2 * finished.deals, "{finished:?}");
            assert!(finished.deals < 20);
        }
        other => panic!("expected a stopped evaluation, got {other:?}"),
    }
}

#[test]
fn a_program_that_cannot_start_is_a_spec_error() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let spec: AgentSpec = "exec:/no/such/bones-bot --flag".parse().unwrap();
    let e = AgentFactory::new().build(&spec, &game).err().unwrap();
    assert!(matches!(e, SpecError::Program { .. }), "{e}");
    assert!(e.to_string().contains("cannot start the program: `/no/such/bones-bot`"), "{e}");
}

// ---------------------------------------------------------------------------
// The spec

#[test]
fn exec_and_onnx_specs_parse_print_and_refuse_bad_options() {
    let s: AgentSpec = "exec:python3 'my bot.py' --level 2".parse().unwrap();
    match &s {
        AgentSpec::Exec { argv, limit_ms, .. } => {
            assert_eq!(argv, &["python3", "my bot.py", "--level", "2"]);
            assert_eq!(*limit_ms, DEFAULT_EXEC_LIMIT_MS);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.to_string(), "exec:python3 'my bot.py' --level 2");
    let s: AgentSpec = "exec:limit=2.5:./bot".parse().unwrap();
    assert!(matches!(&s, AgentSpec::Exec { limit_ms: 2500, .. }));
    assert_eq!(s.to_string().parse::<AgentSpec>().unwrap(), s);
    for (bad, says) in [
        ("exec:", "`exec` needs a command line"),
        ("exec:limit=0:./bot", "`limit` must be a number of seconds"),
        ("exec:limit=soon:./bot", "`limit` must be a number of seconds"),
        ("exec:bot 'open", "a `'` is not closed"),
        ("onnx:", "`onnx` needs a path"),
        ("onnx:observation=x:f.onnx", "`observation` must be an observation version"),
    ] {
        let e = bad.parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    let s: AgentSpec = "onnx:observation=2:my model.onnx".parse().unwrap();
    assert_eq!(s, AgentSpec::Onnx { path: "my model.onnx".into(), observation: Some(2) });
    assert_eq!(s.to_string().parse::<AgentSpec>().unwrap(), s);
    assert_eq!(split_words(r#"a "b \"c\"" 'd e'\ f"#).unwrap(), ["a", "b \"c\"", "d e f"]);
}

#[test]
fn over_the_network_exec_and_paths_outside_the_models_folder_are_refused() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    let ok = |s: &str| s.parse::<AgentSpec>().unwrap().check_remote(Some(&models));
    assert!(ok("heuristic").is_ok() && ok("pimc:worlds=8").is_ok() && ok("search").is_ok());
    let inside = format!("model:{}", models.join("texas42").display());
    assert!(ok(&inside).is_ok(), "{:?}", ok(&inside));
    for refused in [
        "exec:python3 bot.py".to_string(),
        format!("model:{}/../env", models.display()),
        "model:/etc".to_string(),
        format!("onnx:{}", std::env::temp_dir().display()),
        "search:model=/tmp".to_string(),
    ] {
        let e = ok(&refused).unwrap_err();
        assert!(matches!(e, SpecError::Refused { .. }), "{refused}: {e}");
    }
    assert!(ok("exec:bot").unwrap_err().to_string().contains("never over the network"));
    let e = inside.parse::<AgentSpec>().unwrap().check_remote(None).unwrap_err();
    assert!(e.to_string().contains("model paths are not accepted over the network"), "{e}");
}
