//! The web API of `bones web` through a real socket: whole games of both games
//! played by requests, every bad input answered with a 4xx `{"error"}` while the
//! server keeps serving, the no-leak rule checked against each game's final
//! record, and idle games dropped.

use bones_env::registry::RecordVisitor;
use bones_env::replay::{load_record, replay_line};
use bones_env::{DominoSet, Game, GameState};
use bones_web::{start, WebConfig, WebServer};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::Duration;

/// A server's settings for these tests: this source tree's shipped models (the
/// tests run in cli/, where `./models` is not), given to the server itself
/// (not through the process-wide `--models`, which other tests change), and no
/// rate limit (these tests play whole games as fast as the server answers; the
/// limit has its own tests, in web_hostile).
pub(crate) fn test_config() -> WebConfig {
    let models = std::path::PathBuf::from(crate::bones_cmd::MODELS);
    WebConfig { port: 0, rate: 0, models: Some(models.clone()), shipped_models: Some(models), ..WebConfig::default() }
}

pub(crate) fn server(idle: Duration, max_games: usize) -> WebServer {
    let config = WebConfig { idle_timeout: idle, max_games, ..test_config() };
    start(config).expect("the server starts on a free port")
}

/// One HTTP/1.1 exchange (`Connection: close`): the status and the body as JSON.
pub(crate) fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.unwrap_or(b"");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read the answer");
    let text = String::from_utf8(raw).expect("utf-8 answer");
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status: u16 = head.split(' ').nth(1).and_then(|c| c.parse().ok()).expect("a status line");
    assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
    (status, serde_json::from_str(body).unwrap_or_else(|e| panic!("JSON answer ({e}): {body}")))
}

pub(crate) fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    http(addr, "POST", path, Some(body.to_string().as_bytes()))
}

/// Expects a 4xx/5xx answer `{"error"}` whose message holds every one of `words`.
pub(crate) fn expect_error(reply: (u16, Value), status: u16, words: &[&str]) {
    let (got, body) = reply;
    let msg = body["error"].as_str().unwrap_or_else(|| panic!("no `error` in {body}"));
    assert_eq!(got, status, "{msg}");
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
    for w in words {
        assert!(msg.contains(w), "`{w}` not in the error: {msg}");
    }
}

/// The dominoes named anywhere in a JSON value (`"6-4"`, `"6-4@6"` name 6-4).
pub(crate) fn dominoes_named(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            let d = s.split('@').next().unwrap_or("");
            let b = d.as_bytes();
            if b.len() == 3 && b[1] == b'-' && b[0].is_ascii_digit() && b[2].is_ascii_digit() {
                out.insert(d.to_string());
            }
        }
        Value::Array(a) => a.iter().for_each(|x| dominoes_named(x, out)),
        Value::Object(o) => o.values().for_each(|x| dominoes_named(x, out)),
        _ => {}
    }
}

fn keys(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.insert(k.clone());
            keys(x, out)
        }),
        _ => {}
    }
}

/// The person's hand and what the person cannot see (the other seats'
/// unplayed dominoes and the boneyard) after a record's actions, from the library.
struct Hidden(usize);

impl RecordVisitor for Hidden {
    type Output = (DominoSet, DominoSet, [DominoSet; 4]);
    fn visit<G: Game>(self, _: G, state: G::State) -> Self::Output {
        let hands = state.seat_hands();
        let public = state.dominoes().expect("both games keep a domino ledger").played;
        let own = hands[self.0];
        (own, DominoSet::FULL - own - public, hands)
    }
}

/// Plays a whole game by requests (the person takes the legal action picked
/// by `pick`); returns every state answered and the final one.
pub(crate) fn play_game(
    addr: SocketAddr,
    request: Value,
    pick: impl Fn(usize, &[Value]) -> usize,
) -> (Vec<Value>, Value) {
    let (status, created) = post(addr, "/api/games", &request);
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let mut st = created["state"].clone();
    let mut states = Vec::new();
    let mut turn = 0;
    while st["done"] == false {
        states.push(st.clone());
        let legal = st["legal"].as_array().unwrap();
        assert!(!legal.is_empty(), "the person is to move until the end: {st}");
        assert_eq!(st["to_move"], st["seat"]);
        // A hint names no domino but the person's own.
        let (status, hint) = http(addr, "GET", &format!("/api/games/{id}/hint?level=easy"), None);
        assert_eq!(status, 200, "{hint}");
        let mut named = BTreeSet::new();
        dominoes_named(&hint, &mut named);
        let hand: BTreeSet<String> =
            st["hand"].as_array().unwrap().iter().map(|d| d.as_str().unwrap().to_string()).collect();
        assert!(named.is_subset(&hand), "{hint} names a domino not in {hand:?}");
        let action = legal[pick(turn, legal)].clone();
        let ply = st["history"].as_array().unwrap().len();
        let (status, next) = post(addr, &format!("/api/games/{id}/actions"), &json!({"action": action, "ply": ply}));
        assert_eq!(status, 200, "{next}");
        let history = next["history"].as_array().unwrap();
        assert_eq!(history[ply], json!({"seat": st["seat"], "action": action}));
        st = next;
        turn += 1;
    }
    let (status, again) = http(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!((status, &again), (200, &st));
    (states, st)
}

/// Checks the final state's record and result against the library's replay,
/// and that no state before the end held what the person may not know.
pub(crate) fn check_game(states: &[Value], last: &Value) {
    let record = &last["record"];
    let (replayed, ok) = replay_line(&record.to_string(), 1);
    assert!(ok, "the record replays: {replayed}");
    assert_eq!(replayed["result"], last["result"]);
    assert_eq!(last["result"]["done"], true);
    let actions = record["actions"].as_array().unwrap();
    let history = last["history"].as_array().unwrap();
    assert_eq!(history.len(), actions.len());
    for (h, a) in history.iter().zip(actions) {
        assert_eq!(&h["action"], a);
    }
    let seat = last["seat"].as_u64().unwrap() as usize;
    for st in states {
        let mut k = BTreeSet::new();
        keys(st, &mut k);
        for secret in ["seed", "record", "result", "hands", "boneyard", "deal", "dealt"] {
            assert!(!k.contains(secret), "`{secret}` in a state before the end: {st}");
        }
        // The library's state at the same point, from the final record.
        let ply = st["history"].as_array().unwrap().len();
        let mut partial = record.clone();
        partial["actions"] = Value::Array(actions[..ply].to_vec());
        let (own, hidden, hands) = load_record(&partial, Hidden(seat)).unwrap();
        for (s, h) in hands.iter().enumerate().filter(|&(s, _)| s != seat) {
            assert!((*h - hidden).is_empty(), "seat {s}'s hand is hidden from the person");
        }
        let mut hand: Vec<String> = own.iter().map(|d| d.to_string()).collect();
        hand.reverse();
        assert_eq!(st["hand"], json!(hand));
        // What the state shows of the current deal: the person's hand and the
        // dominoes played in it, nothing else.
        let deal_start = st["deals"].as_array().unwrap().last().map_or(0, |d| d["end"].as_u64().unwrap() as usize);
        let mut played = BTreeSet::new();
        dominoes_named(&Value::Array(history[deal_start..ply].to_vec()), &mut played);
        let mut current = st.clone();
        current.as_object_mut().unwrap().remove("history");
        let deals = current.as_object_mut().unwrap().remove("deals").unwrap();
        let mut named = BTreeSet::new();
        dominoes_named(&current, &mut named);
        for d in &named {
            assert!(hand.contains(d) || played.contains(d), "{d} is neither the person's nor played: {current}");
        }
        for d in hidden.iter() {
            assert!(!named.contains(&d.to_string()), "hidden {d} shown: {current}");
        }
        // A finished deal's summary (its review included) names only dominoes
        // played in that deal or dealt to the person's side in it (Texas 42:
        // the partner's review, once the hand is over, names the partner's).
        let mut start = 0;
        for deal in deals.as_array().unwrap() {
            let end = deal["end"].as_u64().unwrap() as usize;
            let (mut in_deal, mut shown) = (BTreeSet::new(), BTreeSet::new());
            dominoes_named(&Value::Array(history[start..end].to_vec()), &mut in_deal);
            let mut dealt = record.clone();
            dealt["actions"] = Value::Array(actions[..start].to_vec());
            let (own_then, _, hands_then) = load_record(&dealt, Hidden(seat)).unwrap();
            in_deal.extend(own_then.iter().map(|d| d.to_string()));
            // What the person drew in the deal is in their hand at its end, or was played.
            dealt["actions"] = Value::Array(actions[..end - 1].to_vec());
            let (own_at_end, _, _) = load_record(&dealt, Hidden(seat)).unwrap();
            in_deal.extend(own_at_end.iter().map(|d| d.to_string()));
            if last["game"] == "texas42" {
                in_deal.extend(hands_then[(seat + 2) % 4].iter().map(|d| d.to_string()));
            }
            dominoes_named(deal, &mut shown);
            assert!(shown.is_subset(&in_deal), "{deal}");
            start = end;
        }
    }
}

#[test]
fn whole_games_of_both_games_are_played_without_showing_hidden_dominoes() {
    let srv = server(Duration::from_secs(600), 100);
    let addr = srv.addr();
    // A varying legal choice, so the person bids and declares too.
    let pick = |turn: usize, legal: &[Value]| (turn * 7 + 3) % legal.len();
    let requests = [
        json!({"game":"texas42","seat":1,"opponents":"random","partner":"heuristic","seed":7}),
        json!({"game":"doubles","players":2,"opponents":"heuristic","seed":3,"rules":{"target":60}}),
        json!({"game":"doubles","players":3,"seat":2,"opponents":"random","seed":11,"rules":{"target":40}}),
        json!({"game":"doubles","opponents":"highest","seed":5,"rules":{"target":40}}),
    ];
    for request in requests {
        let (states, last) = play_game(addr, request.clone(), pick);
        assert!(states.len() > 3, "{request}");
        check_game(&states, &last);
        assert_eq!(last["record"]["episode"], "game");
        let sides = last["scores"].as_array().unwrap().len();
        let winner = last["winner"].as_u64().expect("a whole game has a winner") as usize;
        assert!(winner < sides);
        let target = last["rules"]["target"].as_u64().unwrap();
        assert!(last["scores"][winner].as_u64().unwrap() >= target, "{last}");
        assert!(!last["deals"].as_array().unwrap().is_empty());
    }
}

#[test]
fn one_hand_and_the_default_bots() {
    let srv = server(Duration::from_secs(600), 100);
    let addr = srv.addr();
    let (states, last) = play_game(addr, json!({"game":"texas42","episode":"hand","seed":1}), |_, _| 0);
    check_game(&states, &last);
    assert_eq!(last["record"]["episode"], "hand");
    assert_eq!(last["deals"].as_array().unwrap().len(), 1);
    let marks: u64 = last["scores"].as_array().unwrap().iter().map(|m| m.as_u64().unwrap()).sum();
    assert!(marks >= 1, "a hand under the standard rules awards a mark: {last}");
    // The bots without a spec: the shipped model (this tree has models/texas42).
    let agents = &states[0]["agents"];
    assert_eq!(agents[0], Value::Null);
    assert!(agents[1].as_str().unwrap().starts_with("model:"), "{agents}");
    let (states, last) = play_game(addr, json!({"game":"doubles","players":2,"episode":"round","seed":2}), |_, _| 0);
    check_game(&states, &last);
    assert_eq!(last["deals"].as_array().unwrap().len(), 1);
}

#[test]
fn bad_requests_get_4xx_errors_and_the_server_keeps_serving() {
    let srv = server(Duration::from_secs(600), 100);
    let a = srv.addr();
    let games = "/api/games";
    expect_error(http(a, "POST", games, Some(b"{\"game\": texas42")), 400, &["malformed JSON"]);
    expect_error(post(a, games, &json!(["texas42"])), 400, &["JSON object", "list"]);
    expect_error(post(a, games, &json!({"seat": 0})), 400, &["missing `game`"]);
    expect_error(post(a, games, &json!({"game":"chess"})), 400, &["unknown game `chess`", "texas42"]);
    expect_error(post(a, games, &json!({"game":"texas42","colour":"red"})), 400, &["unknown key `colour`"]);
    expect_error(post(a, games, &json!({"game":"texas42","opponents":"alphago"})), 400, &["`opponents`", "alphago"]);
    expect_error(
        post(a, games, &json!({"game":"doubles","opponents":"search"})),
        400,
        &["`opponents`", "search", "Texas 42"],
    );
    expect_error(
        post(a, games, &json!({"game":"texas42","partner":"model:/no/such/model"})),
        400,
        &["`partner`", "/no/such/model"],
    );
    expect_error(post(a, games, &json!({"game":"doubles","partner":"random"})), 400, &["`partner`", "no partners"]);
    expect_error(post(a, games, &json!({"game":"texas42","rules":{"bogus":1}})), 400, &["bogus", "texas42"]);
    expect_error(post(a, games, &json!({"game":"texas42","rules":"fancy"})), 400, &["fancy"]);
    expect_error(post(a, games, &json!({"game":"texas42","players":3})), 400, &["texas42 is played by 4, not 3"]);
    expect_error(post(a, games, &json!({"game":"doubles","players":2,"seat":2})), 400, &["bad `seat` 2", "0..=1"]);
    expect_error(post(a, games, &json!({"game":"texas42","seed":-1})), 400, &["bad `seed` -1"]);
    expect_error(post(a, games, &json!({"game":"texas42","episode":"set"})), 400, &["bad `episode`"]);
    let big = format!("{{\"game\":\"texas42\",\"pad\":\"{}\"}}", "x".repeat(70 * 1024));
    expect_error(http(a, "POST", games, Some(big.as_bytes())), 413, &["over 65536 bytes"]);
    expect_error(http(a, "GET", "/api/games/0123456789abcdef", None), 404, &["unknown game id `0123456789abcdef`"]);
    expect_error(post(a, "/api/games/nope/actions", &json!({"action":"pass"})), 404, &["unknown game id `nope`"]);
    expect_error(http(a, "GET", "/api/nothing", None), 404, &["no such path: /api/nothing"]);
    expect_error(http(a, "PUT", games, Some(b"{}")), 405, &["method not allowed"]);

    // Bad moves in a game (the person is to move whenever a state is answered).
    let (status, created) =
        post(a, games, &json!({"game":"texas42","opponents":"heuristic","partner":"heuristic","seed":4,"seat":1}));
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let actions = format!("/api/games/{id}/actions");
    let st = &created["state"];
    assert_eq!(st["to_move"], 1);
    assert_eq!(st["table"]["phase"], "bidding");
    expect_error(http(a, "POST", &actions, Some(b"not json")), 400, &["malformed JSON"]);
    expect_error(post(a, &actions, &json!({"move":"pass"})), 400, &["unknown key `move`"]);
    expect_error(post(a, &actions, &json!({})), 400, &["missing `action`"]);
    expect_error(post(a, &actions, &json!({"action": 30})), 400, &["bad `action` 30"]);
    expect_error(post(a, &actions, &json!({"action":"6-4"})), 400, &["illegal action `6-4`", "pass"]);
    expect_error(post(a, &actions, &json!({"action":"99"})), 400, &["99", "legal actions now are pass"]);
    expect_error(post(a, &actions, &json!({"action":"pass","ply":99})), 409, &["out of turn", "ply 99"]);
    let (status, _) = http(a, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "the bad moves changed nothing");
    let ply = st["history"].as_array().unwrap().len();
    let (status, after) = post(a, &actions, &json!({"action":"pass","ply":ply}));
    assert_eq!(status, 200, "{after}");
    expect_error(post(a, &actions, &json!({"action":"pass","ply":ply})), 409, &["out of turn"]);

    // Dropped games are unknown afterwards.
    let (status, _) = http(a, "DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200);
    expect_error(post(a, &actions, &json!({"action":"pass"})), 404, &["unknown game id"]);
    // Still serving: the page and a new game.
    let (status, info) = http(a, "GET", "/api/info", None);
    assert_eq!(status, 200);
    assert_eq!(info["games"][0]["name"], "texas42");
}

#[test]
fn specs_that_run_programs_or_name_paths_outside_the_models_folder_are_refused_over_the_network() {
    let srv = server(Duration::from_secs(600), 100);
    let a = srv.addr();
    let games = "/api/games";
    let marker = std::env::temp_dir().join(format!("bones-web-exec-{}", std::process::id()));
    let exec = format!("exec:touch {}", marker.display());
    expect_error(
        post(a, games, &json!({"game":"texas42","opponents":exec})),
        400,
        &["`opponents`", "never over the network"],
    );
    expect_error(post(a, games, &json!({"game":"doubles","opponents":exec})), 400, &["never over the network"]);
    assert!(!marker.exists(), "the program ran");
    for spec in ["model:/etc", "onnx:/tmp", "search:model=/tmp", "model:models/../env"] {
        expect_error(post(a, games, &json!({"game":"texas42","partner":spec})), 400, &["`partner`", "refused"]);
    }
    // The shipped models' folder is the default models folder: its models are accepted.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/texas42");
    let (status, _) = post(a, games, &json!({"game":"texas42","partner":format!("model:{}", shipped.display())}));
    assert_eq!(status, 201);
}

#[test]
fn moves_after_the_end_are_refused() {
    let srv = server(Duration::from_secs(600), 100);
    let a = srv.addr();
    let request = json!({"game":"doubles","players":2,"episode":"hand","opponents":"random","seed":9});
    let (status, created) = post(a, "/api/games", &request);
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap();
    let mut st = created["state"].clone();
    while st["done"] == false {
        let action = st["legal"][0].clone();
        let (status, next) = post(a, &format!("/api/games/{id}/actions"), &json!({ "action": action }));
        assert_eq!(status, 200, "{next}");
        st = next;
    }
    expect_error(post(a, &format!("/api/games/{id}/actions"), &json!({"action":"pass"})), 409, &["the game is over"]);
}

#[test]
fn idle_games_are_dropped_and_open_games_are_bounded() {
    let request = json!({"game":"texas42","opponents":"random","partner":"random"});
    // Bounded: a third game is refused while two are open.
    let full = server(Duration::from_secs(600), 2);
    for _ in 0..2 {
        assert_eq!(post(full.addr(), "/api/games", &request).0, 201);
    }
    expect_error(post(full.addr(), "/api/games", &request), 503, &["too many open games (2)"]);
    // Idle: a game untouched for longer than the timeout is gone.
    let idle = server(Duration::from_millis(200), 2);
    let (status, created) = post(idle.addr(), "/api/games", &request);
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap();
    std::thread::sleep(Duration::from_millis(600));
    expect_error(http(idle.addr(), "GET", &format!("/api/games/{id}"), None), 404, &["unknown game id"]);
    assert_eq!(post(idle.addr(), "/api/games", &request).0, 201);
}

/// A plain GET of the page's file at `path`: the head (lower case) and the body.
fn get_file(addr: SocketAddr, path: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{path}: not an HTTP answer: {text}"));
    assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
    assert!(head.to_ascii_lowercase().contains("cache-control: no-cache"), "{path}: {head}");
    (head.to_ascii_lowercase(), body.to_string())
}

#[test]
fn the_page_and_every_module_it_loads_are_served() {
    let srv = server(Duration::from_secs(600), 10);
    let (head, page) = get_file(srv.addr(), "/");
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(page.contains("<script type=\"module\" src=\"main.js\">"), "{page}");
    let (head, _) = get_file(srv.addr(), "/style.css");
    assert!(head.contains("content-type: text/css"), "{head}");
    // Every module main.js imports, and theirs, as JavaScript (a browser runs no module served otherwise).
    let mut seen = BTreeSet::new();
    let mut todo = vec!["main.js".to_string()];
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let (head, script) = get_file(srv.addr(), &format!("/{name}"));
        assert!(head.contains("content-type: text/javascript"), "{name}: {head}");
        for line in script.lines().filter(|l| l.starts_with("import ")) {
            let module = line.split("from \"./").nth(1).and_then(|r| r.split('"').next());
            todo.push(module.unwrap_or_else(|| panic!("{name}: an import not of ./NAME.js: {line}")).to_string());
        }
    }
    assert!(seen.len() > 10 && seen.contains("api.js") && seen.contains("render.js"), "{seen:?}");
}

#[test]
fn the_levels_are_listed_per_game_and_a_request_names_one_or_a_spec() {
    let srv = server(Duration::from_secs(600), 10);
    let a = srv.addr();
    let (status, info) = http(a, "GET", "/api/info", None);
    assert_eq!(status, 200);
    assert_eq!(info["default_level"], "normal");
    assert_eq!(info["history"], false);
    for game in ["texas42", "doubles"] {
        let names: Vec<&str> =
            info["levels"][game].as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["easy", "normal", "hard"], "{game}");
        for l in info["levels"][game].as_array().unwrap() {
            assert!(!l["label"].as_str().unwrap().is_empty() && !l["about"].as_str().unwrap().is_empty());
        }
    }
    // This tree ships both networks: Normal plays them, Hard searches (Texas 42) or samples 512 worlds (Doubles).
    assert!(info["levels"]["texas42"][1]["spec"].as_str().unwrap().starts_with("model:"));
    assert!(info["levels"]["texas42"][2]["spec"].as_str().unwrap().starts_with("search:"));
    assert_eq!(info["levels"]["doubles"][2]["spec"], "pimc:worlds=512");
    let (status, created) =
        post(a, "/api/games", &json!({"game":"texas42","opponents":"easy","partner":"hard","seed":3}));
    assert_eq!(status, 201, "{created}");
    let st = &created["state"];
    assert_eq!(st["levels"], json!([null, "easy", "hard", "easy"]));
    assert_eq!(st["agents"][1], "heuristic");
    assert!(st["agents"][2].as_str().unwrap().starts_with("search:"), "{st}");
    let (_, created) = post(a, "/api/games", &json!({"game":"doubles","players":3,"opponents":"random"}));
    assert_eq!(created["state"]["levels"], json!([null, null, null]));
    assert_eq!(created["state"]["agents"], json!([null, "random", "random"]));
    expect_error(
        post(a, "/api/games", &json!({"game":"texas42","opponents":"expert"})),
        400,
        &["`opponents`", "`expert` is neither a level (easy, normal, hard) nor an agent spec"],
    );
    expect_error(post(a, "/api/games", &json!({"game":"texas42","partner":3})), 400, &["`partner`", "a level"]);
}

/// Plays the person's turns with `pick` until `stop` says so or the game ends; the last state.
pub(crate) fn play_until(a: SocketAddr, id: &str, mut st: Value, stop: impl Fn(&Value) -> bool) -> Value {
    while st["done"] == false && !stop(&st) {
        let action = st["legal"][0].clone();
        let ply = st["history"].as_array().unwrap().len();
        let (status, next) = post(a, &format!("/api/games/{id}/actions"), &json!({"action": action, "ply": ply}));
        assert_eq!(status, 200, "{next}");
        st = next;
    }
    st
}

#[test]
fn a_hint_says_what_a_level_would_play_from_the_persons_view_and_changes_nothing() {
    let srv = server(Duration::from_secs(600), 10);
    let a = srv.addr();
    let (status, created) = post(
        a,
        "/api/games",
        &json!({"game":"texas42","opponents":"easy","partner":"easy","seed":21,"episode":"hand"}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let st = created["state"].clone();
    let hint_path = format!("/api/games/{id}/hint");
    let (status, hint) = http(a, "GET", &hint_path, None);
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["level"], "easy", "the opponents' level by default");
    assert_eq!(hint["spec"], "heuristic");
    assert_eq!(hint["ply"], json!(st["history"].as_array().unwrap().len()));
    assert!(st["legal"].as_array().unwrap().contains(&hint["action"]), "{hint}");
    let moves = hint["moves"].as_array().unwrap();
    let names: Vec<&Value> = moves.iter().map(|m| &m["action"]).collect();
    assert_eq!(names, st["legal"].as_array().unwrap().iter().collect::<Vec<_>>());
    let total: f64 = moves.iter().map(|m| m["prob"].as_f64().expect("the shipped network's probability")).sum();
    assert!((total - 1.0).abs() < 1e-3, "{total}");
    assert_eq!(hint["hints"], 1);
    // The game did not move; asking again at the same position counts once and says the same.
    let (_, now) = http(a, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(now["history"], st["history"]);
    assert_eq!(now["hints"], 1);
    let (_, again) = http(a, "GET", &format!("{hint_path}?level=easy"), None);
    assert_eq!(again, hint);
    let (_, normal) = http(a, "GET", &format!("{hint_path}?level=normal"), None);
    assert_eq!(normal["level"], "normal");
    assert_eq!(normal["hints"], 1);
    // In the play: Hard (search) also gives its value of each move.
    let st = play_until(a, &id, st, |s| s["table"]["phase"] == "playing" && s["legal"].as_array().unwrap().len() > 1);
    assert_eq!(st["done"], false, "the person plays a domino with a choice in this deal");
    let (status, hard) = http(a, "GET", &format!("{hint_path}?level=hard"), None);
    assert_eq!(status, 200, "{hard}");
    assert!(hard["value_unit"].as_str().unwrap().contains("sampled worlds"), "{hard}");
    assert!(hard["moves"].as_array().unwrap().iter().all(|m| m["value"].is_number()), "{hard}");
    assert!(st["hand"].as_array().unwrap().contains(&hard["action"]));
    assert_eq!(hard["hints"], 2);
    expect_error(
        http(a, "GET", &format!("{hint_path}?level=expert"), None),
        400,
        &["unknown level `expert`", "easy, normal, hard"],
    );
    expect_error(http(a, "GET", &format!("{hint_path}?colour=red"), None), 400, &["unknown parameter `colour`"]);
    expect_error(http(a, "GET", "/api/games/nope/hint", None), 404, &["unknown game id"]);
    // The record counts the hints; none is given once the game is over.
    let last = play_until(a, &id, st, |_| false);
    let hints = &last["record"]["annotations"]["hints"];
    assert_eq!(hints.as_array().unwrap().len(), 2, "{hints}");
    assert_eq!(hints[1]["level"], "hard");
    assert_eq!(last["hints"], 2);
    expect_error(http(a, "GET", &hint_path, None), 409, &["the game is over", "no move to hint"]);
    // Doubles: the shipped Doubles network's probabilities.
    let (_, created) = post(a, "/api/games", &json!({"game":"doubles","players":2,"opponents":"easy","seed":4}));
    let (status, hint) = http(a, "GET", &format!("/api/games/{}/hint", created["id"].as_str().unwrap()), None);
    assert_eq!(status, 200, "{hint}");
    assert!(hint["moves"][0]["prob"].is_number(), "{hint}");
}

#[test]
fn each_finished_hand_carries_its_review_the_record_its_annotations_and_the_cli_agrees() {
    let srv = server(Duration::from_secs(600), 10);
    let a = srv.addr();
    let request = json!({"game":"texas42","seat":2,"opponents":"easy","partner":"easy","seed":8,"rules":{"target":2}});
    let (status, created) = post(a, "/api/games", &request);
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    expect_error(http(a, "GET", &format!("/api/games/{id}/review/0"), None), 409, &["hand 1 is not over yet"]);
    expect_error(http(a, "GET", &format!("/api/games/{id}/review/x"), None), 400, &["bad hand number `x`"]);
    let last = play_until(a, &id, created["state"].clone(), |_| false);
    let deals = last["deals"].as_array().unwrap();
    assert!(!deals.is_empty());
    let mut reviewed_plays = 0;
    for (i, deal) in deals.iter().enumerate() {
        let r = &deal["review"];
        assert_eq!(r["seat"], 2);
        assert_eq!(r["open_hands"], true);
        let plays = r["plays"].as_array().unwrap();
        let mut lost = 0;
        for p in plays {
            let moves = p["moves"].as_array().unwrap();
            assert_eq!(moves[0]["points"], p["best_points"], "{p}");
            assert!(moves.iter().any(|m| m["action"] == p["action"] && m["points"] == p["played_points"]), "{p}");
            assert_eq!(
                p["lost"].as_i64().unwrap(),
                p["best_points"].as_i64().unwrap() - p["played_points"].as_i64().unwrap()
            );
            assert!(p["lost"].as_i64().unwrap() >= 0);
            lost += p["lost"].as_i64().unwrap();
            // The play is the person's, at its ply.
            let ply = p["ply"].as_u64().unwrap() as usize;
            assert_eq!(last["history"][ply], json!({"seat": 2, "action": p["action"]}));
        }
        reviewed_plays += plays.len();
        assert_eq!(r["lost"], json!(lost));
        match r["largest"].as_u64() {
            Some(k) => assert_eq!(
                plays[k as usize]["lost"],
                json!(plays.iter().map(|p| p["lost"].as_i64().unwrap()).max().unwrap())
            ),
            None => assert_eq!(lost, 0),
        }
        for b in r["bids"].as_array().unwrap() {
            assert_eq!(last["history"][b["ply"].as_u64().unwrap() as usize]["seat"], 2);
        }
        let (status, one) = http(a, "GET", &format!("/api/games/{id}/review/{i}"), None);
        assert_eq!(status, 200);
        assert_eq!(one["review"], *r);
    }
    assert!(reviewed_plays > 0, "the person played in some hand");
    expect_error(http(a, "GET", &format!("/api/games/{id}/review/{}", deals.len()), None), 404, &["no hand"]);
    let record = &last["record"];
    let notes = &record["annotations"];
    assert_eq!(notes["seat"], 2);
    assert_eq!(notes["levels"], json!({"opponents": "easy", "partner": "easy"}));
    let reviews: Vec<&Value> = deals.iter().map(|d| &d["review"]).collect();
    assert_eq!(notes["reviews"], json!(reviews));
    // `bones replay --review --json` on the saved record gives the page's numbers.
    let cli = crate::web_deals::cli_review(record, "review");
    assert_eq!(cli["reviews"], notes["reviews"], "the CLI's review is the page's");
    assert_eq!(cli["result"], last["result"]);
    let text = crate::web_deals::replay_cli(record, "review-text", &["--review"]);
    assert!(text.contains("seat 2") && text.contains("with all hands open") && text.contains("hand 1:"), "{text}");
}

fn temp_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bones-web-db-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("history.sqlite3")
}

fn server_with_db(db: Option<std::path::PathBuf>) -> Result<WebServer, bones_web::StartError> {
    start(WebConfig { history: db, ..test_config() })
}

#[test]
fn finished_games_are_stored_and_listed_after_a_restart() {
    let db = temp_db("restart");
    let srv = server_with_db(Some(db.clone())).unwrap();
    let a = srv.addr();
    let (_, info) = http(a, "GET", "/api/info", None);
    assert_eq!(info["history"], true);
    let (_, list) = http(a, "GET", "/api/history", None);
    assert_eq!(list, json!({"enabled": true, "total": 0, "games": []}));
    let (_, created) = post(
        a,
        "/api/games",
        &json!({"game":"texas42","episode":"hand","opponents":"easy","partner":"random","seed":5}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    http(a, "GET", &format!("/api/games/{id}/hint"), None);
    let last = play_until(a, &id, created["state"].clone(), |_| false);
    // Asking for the state again stores nothing twice.
    http(a, "GET", &format!("/api/games/{id}"), None);
    let (_, created) =
        post(a, "/api/games", &json!({"game":"doubles","players":2,"episode":"hand","opponents":"random","seed":6}));
    let doubles = play_until(a, created["id"].as_str().unwrap(), created["state"].clone(), |_| false);
    srv.stop();
    let srv = server_with_db(Some(db.clone())).unwrap();
    let a = srv.addr();
    let (status, list) = http(a, "GET", "/api/history", None);
    assert_eq!(status, 200);
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{list}");
    assert_eq!(list["total"], 2);
    assert_eq!(games[0]["game"], "doubles", "newest first");
    assert_eq!(games[0]["points_lost"], Value::Null);
    let g = &games[1];
    assert_eq!(g["game"], "texas42");
    assert_eq!(g["hints"], 1);
    assert_eq!(g["levels"], json!({"opponents": "easy", "partner": "random"}));
    assert_eq!(g["scores"], last["scores"]);
    assert_eq!(g["points_lost"], last["deals"][0]["review"]["lost"]);
    let mine = last["scores"][0].as_u64().unwrap();
    let theirs = last["scores"][1].as_u64().unwrap();
    assert_eq!(g["result"], if mine > theirs { "won" } else { "lost" });
    let (status, record) = http(a, "GET", &format!("/api/history/{}", g["id"]), None);
    assert_eq!(status, 200);
    assert_eq!(record, last["record"]);
    let (_, record) = http(a, "GET", &format!("/api/history/{}", games[0]["id"]), None);
    assert_eq!(record, doubles["record"]);
    let (replayed, ok) = replay_line(&record.to_string(), 1);
    assert!(ok, "{replayed}");
    expect_error(http(a, "GET", "/api/history/999", None), 404, &["no stored game `999`"]);
    expect_error(http(a, "GET", "/api/history/abc", None), 404, &["no stored game `abc`"]);
    expect_error(http(a, "GET", "/api/history?limit=0", None), 400, &["bad `limit` 0"]);
    let (_, one) = http(a, "GET", "/api/history?limit=1", None);
    assert_eq!(one["games"].as_array().unwrap().len(), 1);
    // Without a history: nothing stored, and said so.
    let none = server_with_db(None).unwrap();
    let (_, list) = http(none.addr(), "GET", "/api/history", None);
    assert_eq!(list, json!({"enabled": false, "total": 0, "games": []}));
    expect_error(http(none.addr(), "GET", "/api/history/1", None), 404, &["keeps no game history"]);
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[test]
fn a_damaged_or_unwritable_history_stops_the_server_from_starting() {
    let db = temp_db("damaged");
    std::fs::write(&db, b"SQLite format 3\0 but then nothing sensible at all, just words about dominoes").unwrap();
    let before = std::fs::read(&db).unwrap();
    let e = server_with_db(Some(db.clone())).err().expect("a damaged file is refused").to_string();
    assert!(e.contains("is damaged") && e.contains(&db.display().to_string()), "{e}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "the file is left as it was");
    let blocked = db.parent().unwrap().join("a-file");
    std::fs::write(&blocked, b"x").unwrap();
    let e = server_with_db(Some(blocked.join("h.sqlite3"))).err().expect("an unwritable place is refused").to_string();
    assert!(e.contains("cannot open the game history"), "{e}");
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}
