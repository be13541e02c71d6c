//! `bones serve` through a pipe: the JSON-lines bot protocol with small untrained
//! models written to a temporary folder (`models/texas42`, `models/doubles`).

use bones_agents::arena::{evaluate, Amount, EvalOptions, EvalReport};
use bones_agents::seat_request::SeatRequest;
use bones_agents::AgentSpec;
use bones_env::replay::replay_line;
use bones_env::GameState;
use bones_policy::model::PolicyNetConfig;
use bones_train::TrainConfig;
use burn::prelude::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A folder holding `models/texas42` and `models/doubles` (tiny random networks).
fn models(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("bones-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (game, obs_len, num_actions) in [
        ("texas42", bones_env::texas42::OBS_LEN_42, bones_env::texas42::actions::NUM_ACTIONS_42),
        ("doubles", bones_env::doubles::OBS_LEN_DOUBLES, bones_env::doubles::NUM_ACTIONS_DOUBLES),
    ] {
        let dir = root.join("models").join(game);
        std::fs::create_dir_all(&dir).unwrap();
        let cfg = TrainConfig::default().with(|c| {
            c.model.game = game.into();
            c.model.hidden = 16;
            c.model.depth = 1;
        });
        std::fs::write(dir.join("config.toml"), cfg.to_toml()).unwrap();
        let model = PolicyNetConfig::new(obs_len, num_actions).with_hidden(16).with_depth(1).init(&Device::flex());
        model.save_file(dir.join("model.bpk")).unwrap();
    }
    root
}

struct Bot {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Bot {
    fn start(cwd: &Path, args: &[&str]) -> Bot {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bones"))
            .arg("serve")
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Bot { child, input, output }
    }

    /// Sends one line and reads its reply (the server answers line by line).
    fn ask(&mut self, line: &str) -> Value {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        let mut reply = String::new();
        self.output.read_line(&mut reply).unwrap();
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("reply {reply:?} to {line}: {e}"))
    }

    fn close(self) {
        let Bot { mut child, input, .. } = self;
        drop(input);
        assert!(child.wait().unwrap().success());
    }
}

/// The seat to move and the legal actions after `record`, by `bones replay`'s library.
fn next(record: &Value) -> (u64, Vec<String>) {
    let (out, ok) = replay_line(&record.to_string(), 1);
    assert!(ok, "{out}");
    let n = &out["result"]["next"];
    let legal = n["legal"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect();
    (n["seat"].as_u64().unwrap(), legal)
}

/// A record after `steps` first-legal actions from a seeded deal.
fn record_after(mut record: Value, steps: usize) -> Value {
    for _ in 0..steps {
        let (_, legal) = next(&record);
        let actions = record["actions"].as_array_mut().unwrap();
        actions.push(json!(legal[legal.len() / 2]));
    }
    record
}

/// Checks a good reply: a legal action, a policy over exactly the legal actions summing to 1, a value.
fn check_reply(reply: &Value, id: Value, legal: &[String]) {
    assert_eq!(reply["id"], id, "{reply}");
    assert!(reply.get("error").is_none(), "{reply}");
    let action = reply["action"].as_str().unwrap();
    assert!(legal.iter().any(|a| a == action), "{action} not in {legal:?}");
    let policy = reply["policy"].as_object().unwrap();
    let mut keys: Vec<&String> = policy.keys().collect();
    keys.sort();
    let mut want: Vec<&String> = legal.iter().collect();
    want.sort();
    assert_eq!(keys, want);
    let sum: f64 = policy.values().map(|p| p.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-4, "policy sums to {sum}");
    assert!(reply["value"].as_f64().unwrap().is_finite());
}

fn request(id: Value, record: &Value, seat: u64) -> String {
    json!({ "id": id, "record": record, "seat": seat }).to_string()
}

#[test]
fn serve_answers_requests_and_errors_line_by_line() {
    let root = models("protocol");
    let mut bot = Bot::start(&root, &[]);

    // Texas 42 bidding, then the play phase.
    let bidding = json!({"game":"texas42","seed":1,"actions":["pass"]});
    let (seat, legal) = next(&bidding);
    let reply = bot.ask(&request(json!(1), &bidding, seat));
    check_reply(&reply, json!(1), &legal);
    // Greedy: the action is the most probable one.
    let policy = reply["policy"].as_object().unwrap();
    let best = policy.iter().max_by(|a, b| a.1.as_f64().partial_cmp(&b.1.as_f64()).unwrap()).unwrap().0;
    assert_eq!(reply["action"].as_str().unwrap(), best);
    assert!(reply.get("warning").is_none(), "{reply}");

    let playing = record_after(json!({"game":"texas42","seed":3,"dealer":2,"actions":[]}), 6);
    let (seat, legal) = next(&playing);
    assert!(legal.iter().all(|a| a.contains('-')), "the play phase: {legal:?}");
    check_reply(&bot.ask(&request(json!("play"), &playing, seat)), json!("play"), &legal);

    // Doubles.
    let doubles = record_after(json!({"game":"doubles","players":3,"seed":5,"actions":[]}), 4);
    let (seat, legal) = next(&doubles);
    let reply = bot.ask(&request(json!(3), &doubles, seat));
    check_reply(&reply, json!(3), &legal);
    assert!(reply["warning"].as_str().unwrap().contains("players 3 (model: 4)"), "{reply}");

    // An unparsable line: id null, and the server keeps serving.
    let reply = bot.ask("this is not JSON");
    assert_eq!(reply["id"], Value::Null);
    assert!(reply["error"].as_str().unwrap().contains("malformed JSON"), "{reply}");

    // The wrong seat.
    let (seat, _) = next(&bidding);
    let reply = bot.ask(&request(json!(5), &bidding, (seat + 1) % 4));
    assert_eq!(reply["id"], 5);
    let msg = reply["error"].as_str().unwrap();
    assert!(msg.contains(&format!("seat {} is not to move: seat {seat} is", (seat + 1) % 4)), "{msg}");

    // An illegal action in the record names its index, the action and the legal ones.
    let bad = json!({"game":"texas42","seed":1,"actions":["pass","29"]});
    let reply = bot.ask(&request(json!(6), &bad, 3));
    let msg = reply["error"].as_str().unwrap();
    assert!(msg.contains("action 1 `29`") && msg.contains("pass, 30"), "{msg}");
    let bad = json!({"game":"texas42","seed":1,"actions":["pass","6-4"]});
    let msg = bot.ask(&request(json!(7), &bad, 3))["error"].as_str().unwrap().to_string();
    assert!(msg.contains("action 1 `6-4`: illegal action") && msg.contains("pass, 30"), "{msg}");

    // Missing keys, an unknown game, a finished hand.
    let reply = bot.ask(&json!({"id": 8, "record": bidding}).to_string());
    assert!(reply["error"].as_str().unwrap().contains("missing `seat`"), "{reply}");
    let reply = bot.ask(&request(json!(9), &json!({"game":"chess","seed":1}), 0));
    assert!(reply["error"].as_str().unwrap().contains("unknown game `chess`"), "{reply}");
    let mut done = json!({"game":"texas42","seed":4,"actions":[]});
    loop {
        let (out, ok) = replay_line(&done.to_string(), 1);
        assert!(ok);
        if out["result"]["done"] == true {
            break;
        }
        done = record_after(done, 1);
    }
    let reply = bot.ask(&request(json!(10), &done, 0));
    assert!(reply["error"].as_str().unwrap().contains("is over"), "{reply}");

    // Rules the model was not trained for: served, with a warning.
    let full = json!({"game":"texas42","rules":{"preset":"full"},"seed":1,"actions":["pass"]});
    let (seat, legal) = next(&full);
    let reply = bot.ask(&request(json!(11), &full, seat));
    check_reply(&reply, json!(11), &legal);
    assert!(reply["warning"].as_str().unwrap().contains("variants"), "{reply}");

    // Still serving after all the errors.
    let (seat, legal) = next(&bidding);
    check_reply(&bot.ask(&request(json!(12), &bidding, seat)), json!(12), &legal);
    bot.close();
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn sampling_is_deterministic_per_seed_and_a_model_serves_only_its_game() {
    let root = models("sample");
    let model = root.join("models").join("texas42");
    let model = model.to_str().unwrap();
    let records: Vec<Value> =
        (0..6).map(|i| record_after(json!({"game":"texas42","seed":10 + i,"actions":[]}), 5 + i as usize)).collect();
    let run = |args: &[&str]| -> Vec<Value> {
        let mut bot = Bot::start(&root, args);
        let mut replies = Vec::new();
        for round in 0..3 {
            for (i, r) in records.iter().enumerate() {
                let (seat, legal) = next(r);
                let reply = bot.ask(&request(json!([round, i]), r, seat));
                check_reply(&reply, json!([round, i]), &legal);
                replies.push(reply);
            }
        }
        // A Texas 42 model does not serve Doubles records.
        let doubles = json!({"game":"doubles","seed":1,"actions":[]});
        let (seat, _) = next(&doubles);
        let reply = bot.ask(&request(json!("d"), &doubles, seat));
        assert!(reply["error"].as_str().unwrap().contains("is a texas42 policy, not doubles"), "{reply}");
        bot.close();
        replies
    };
    let a = run(&["--model", model, "--sample", "--seed", "5"]);
    let b = run(&["--model", model, "--sample", "--seed", "5"]);
    assert_eq!(a, b);
    // Sampling differs from greedy somewhere over 18 decisions of a near-uniform policy.
    let greedy = run(&["--model", model]);
    let actions = |v: &[Value]| v.iter().map(|r| r["action"].clone()).collect::<Vec<_>>();
    assert_ne!(actions(&a), actions(&greedy));
    // Greedy answers repeat the same position the same way.
    assert_eq!(actions(&greedy[..6]), actions(&greedy[6..12]));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn serve_plays_any_agent_spec_from_the_seat_view() {
    let root = models("agent");
    let model = root.join("models").join("texas42");
    let search = format!("search:worlds=2:pool=4:model={}", model.display());
    let records: Vec<Value> = (0..3)
        .map(|i| record_after(json!({"game":"texas42","seed":20 + i,"actions":[]}), 4 + 2 * i as usize))
        .collect();
    let doubles = record_after(json!({"game":"doubles","seed":3,"actions":[]}), 2);
    for spec in ["heuristic", "pimc:worlds=2", search.as_str()] {
        let run = |extra: &[&str]| -> Vec<Value> {
            let mut args = vec!["--agent", spec];
            args.extend_from_slice(extra);
            let mut bot = Bot::start(&root, &args);
            let mut actions = Vec::new();
            for (i, r) in records.iter().enumerate() {
                let (seat, legal) = next(r);
                let reply = bot.ask(&request(json!(i), r, seat));
                assert_eq!(reply["id"], json!(i), "{reply}");
                let action = reply["action"].as_str().unwrap_or_else(|| panic!("{spec}: {reply}"));
                assert!(legal.iter().any(|a| a == action), "{spec}: {action} not in {legal:?}");
                assert!(reply.get("policy").is_none() && reply.get("value").is_none(), "{reply}");
                actions.push(reply["action"].clone());
                // The wrong seat is refused.
                let reply = bot.ask(&request(json!("w"), r, (seat + 1) % 4));
                assert!(reply["error"].as_str().unwrap().contains("is not to move"), "{reply}");
            }
            // Doubles: heuristic and pimc play it; search says it does not.
            let (seat, legal) = next(&doubles);
            let reply = bot.ask(&request(json!("d"), &doubles, seat));
            if spec != search {
                assert!(legal.iter().any(|a| reply["action"] == json!(a)), "{reply}");
            } else {
                assert!(reply["error"].as_str().unwrap().contains("does not play doubles"), "{reply}");
            }
            bot.close();
            actions
        };
        // Without a seed every request gets a fresh stream: the same replies again.
        assert_eq!(run(&[]), run(&[]), "{spec}");
        assert_eq!(run(&["--seed", "3"]), run(&["--seed", "3"]), "{spec}");
    }
    // A bad spec is a usage error before any request.
    let out = Command::new(env!("CARGO_BIN_EXE_bones"))
        .args(["serve", "--agent", "search:worlds=0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`worlds` must be"), "{out:?}");
    let _ = std::fs::remove_dir_all(&root);
}

/// What an evaluation's report says of the play (all but the agents' names
/// and their time): the deals, the results, the decisions.
fn results(r: &EvalReport) -> String {
    format!(
        "{} {} players: {} deals, {} games, {} hands; wins {}; marks {:?}; points {:?} {:?}; contracts {:?}; \
         decisions {:?}",
        r.game,
        r.players,
        r.deals,
        r.games,
        r.hands,
        r.wins,
        r.marks_per_hand,
        r.points_per_hand,
        r.points_per_round,
        r.contracts,
        r.decisions
    )
}

/// `exec:bones serve ARGS` against `inside` (the agent the server plays) and
/// `inside` against itself, over the same deals: the same report. The server
/// gets only seat views and rebuilds a position from each, so its play is
/// `inside`'s, decision for decision.
fn served_plays_as_itself<G: bones_agents::AgentGame>(game: &G, serve_args: &str, inside: &str, amount: Amount) {
    let opts = EvalOptions { amount, seed: 11, threads: 2 };
    let (bones, models) = (env!("CARGO_BIN_EXE_bones"), crate::bones_cmd::MODELS);
    let exec: AgentSpec = format!("exec:{bones} --models {models} serve {serve_args}").parse().unwrap();
    let inside: AgentSpec = inside.parse().unwrap();
    let factory = bones_policy::agent::factory();
    let outside = evaluate(game, [&exec, &inside], &factory, &opts, &|_| {}).unwrap();
    let itself = evaluate(game, [&inside, &inside], &factory, &opts, &|_| {}).unwrap();
    assert!(outside.decisions[0] > 0 && outside.hands > 0, "{}", results(&outside));
    assert_eq!(results(&outside), results(&itself), "{} {serve_args}", game.name());
}

#[test]
fn bones_serve_as_an_outside_program_plays_both_games_exactly_as_the_agent_itself() {
    use bones_env::rules::DoublesRules;
    use bones_env::{Doubles, Texas42, Texas42Rules};
    served_plays_as_itself(&Texas42::new(Texas42Rules::STANDARD), "--agent heuristic", "heuristic", Amount::Hands(12));
    for players in [4, 2] {
        let game = Doubles::new(DoublesRules { players, ..DoublesRules::default() });
        served_plays_as_itself(&game, "--agent heuristic", "heuristic", Amount::Hands(8));
    }
    // The shipped model, which `bones serve` plays by default.
    let model = Path::new(crate::bones_cmd::MODELS).join("doubles");
    served_plays_as_itself(&Doubles::default(), "", &format!("model:{}", model.display()), Amount::Hands(8));
}

/// Asks `serve` for the action of every decision of `game`'s deal of `seed`,
/// once by the record so far and once by the seat's view: the same reply.
fn views_answer_as_records<G: bones_agents::AgentGame>(serve: &mut Bot, game: &G, seed: u64)
where
    <G::State as GameState>::View: SeatRequest,
{
    let mut st = game.new_state(seed, bones_env::Episode::Hand);
    let mut names: Vec<String> = Vec::new();
    while let Some(seat) = st.current_seat() {
        let record = json!({"game": game.name(), "rules": game.rules_json(), "seed": seed, "actions": names});
        let by_record = serve.ask(&request(json!(names.len()), &record, seat as u64));
        let view = json!({"id": names.len(), "seat": seat, "view": st.view(seat).to_request()});
        let by_view = serve.ask(&view.to_string());
        assert_eq!(by_view, by_record, "{view}");
        let a = game.parse_action(by_view["action"].as_str().unwrap()).unwrap();
        st.apply(a).unwrap();
        names.push(game.action_name(a).to_string());
    }
}

#[test]
fn a_view_request_gets_the_same_reply_as_the_record_it_was_written_from() {
    use bones_env::rules::DoublesRules;
    use bones_env::{Doubles, Texas42, Texas42Rules};
    let mut serve = Bot::start(&std::env::temp_dir(), &["--agent", "heuristic"]);
    views_answer_as_records(&mut serve, &Texas42::new(Texas42Rules::STANDARD), 4);
    for players in [2, 3, 4] {
        views_answer_as_records(&mut serve, &Doubles::new(DoublesRules { players, ..DoublesRules::default() }), 4);
    }
    // Bad views get an error line naming what was wrong.
    let reply = serve.ask(r#"{"id":1,"seat":0,"view":{"game":"texas42","seat":0,"dealer":0,"dealt":["6-6"]}}"#);
    assert!(reply["error"].as_str().unwrap().contains("`dealt` must hold the 7 dominoes"), "{reply}");
    let reply = serve.ask(r#"{"id":2,"seat":0,"view":{"game":"doubles","seat":0,"opener":0,"hand":["6-6"]}}"#);
    assert!(reply["error"].as_str().unwrap().contains("bad view: missing `boneyard`"), "{reply}");
    let reply = serve.ask(r#"{"id":3,"seat":0,"view":{},"record":{}}"#);
    assert!(reply["error"].as_str().unwrap().contains("not both"), "{reply}");
    let reply = serve.ask(r#"{"id":4,"seat":0,"view":{"game":"chess"}}"#);
    assert!(reply["error"].as_str().unwrap().contains("`game` must be \"texas42\" or \"doubles\""), "{reply}");
    serve.close();
}

#[test]
fn a_served_agent_that_fails_gets_an_error_reply_naming_it_and_the_next_request_gets_a_fresh_agent() {
    let root = models("failing");
    let mark = root.join("failed-once");
    let bones = env!("CARGO_BIN_EXE_bones");
    // The program fails the first time it is started, then plays as `heuristic`.
    let program = format!(
        "if [ -e {m} ]; then exec {bones} serve --agent heuristic; else touch {m}; exit 5; fi",
        m = mark.display()
    );
    let spec = format!("exec:sh -c '{program}'");
    let mut bot = Bot::start(&root, &["--agent", &spec]);
    let record = record_after(json!({"game":"texas42","seed":4,"actions":[]}), 2);
    let (seat, legal) = next(&record);
    let reply = bot.ask(&request(json!(1), &record, seat));
    let error = reply["error"].as_str().unwrap_or_else(|| panic!("{reply}"));
    assert!(error.contains(&format!("agent `{spec}`")), "{error}");
    assert!(error.contains("the program exited"), "{error}");
    let reply = bot.ask(&request(json!(2), &record, seat));
    assert!(legal.iter().any(|a| reply["action"] == json!(a)), "{reply}");
    bot.close();
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn hostile_request_lines_get_one_line_errors_and_the_server_keeps_serving() {
    let root = models("hostile");
    let mut bot = Bot::start(&root, &["--agent", "heuristic"]);
    let record = record_after(json!({"game":"texas42","seed":9,"actions":[]}), 3);
    let (seat, legal) = next(&record);
    let huge = format!("{{\"id\":1,\"record\":\"{}\"}}", "x".repeat(3 << 20));
    let reply = bot.ask(&huge);
    assert!(reply["error"].as_str().unwrap().contains("over 1048576 bytes"), "{reply}");
    let nested = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
    assert!(bot.ask(&nested)["error"].as_str().unwrap().contains("recursion limit"));
    for (line, words) in [
        (json!({"id":2,"record":record,"seat":1e300}).to_string(), "bad `seat`"),
        (json!({"id":3,"record":record,"seat":u64::MAX}).to_string(), "is not to move"),
        (json!({"id":4,"record":{"game":"texas42","seed":-1,"actions":[]},"seat":0}).to_string(), "seed"),
        (json!({"id":5,"record":{"game":"texas42","seed":1,"actions":["9-9"]},"seat":0}).to_string(), "9-9"),
        (json!({"id":6,"record":record,"seat":seat,"extra":1}).to_string(), "unknown key `extra`"),
    ] {
        let reply = bot.ask(&line);
        let error = reply["error"].as_str().unwrap_or_else(|| panic!("{line}: {reply}"));
        assert!(error.contains(words), "{line}: {error}");
    }
    // Bytes that are not UTF-8 are refused the same way.
    bot.input.write_all(b"\xff\xfe{\n").unwrap();
    bot.input.flush().unwrap();
    let mut reply = String::new();
    bot.output.read_line(&mut reply).unwrap();
    assert!(reply.contains("not UTF-8"), "{reply}");
    // And the next request is played.
    let reply = bot.ask(&request(json!(7), &record, seat));
    assert!(legal.iter().any(|a| reply["action"] == json!(a)), "{reply}");
    bot.close();
    let _ = std::fs::remove_dir_all(&root);
}
