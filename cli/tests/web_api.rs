//! The web API of `bones web` through a real socket: whole games of both games
//! played by requests, every bad input answered with a 4xx `{"error"}` while the
//! server keeps serving, the no-leak rule checked against each game's final
//! record, and idle games dropped.

use bones_cli::web::{start, WebConfig, WebServer};
use bones_env::registry::RecordVisitor;
use bones_env::replay::{load_record, replay_line};
use bones_env::{DominoSet, DoublesView, Game, GameState, Texas42View};
use serde_json::{json, Value};
use std::any::Any;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

fn server(idle: Duration, max_games: usize) -> WebServer {
    let config = WebConfig { port: 0, idle_timeout: idle, max_games, ..WebConfig::default() };
    start(config).expect("the server starts on a free port")
}

/// One HTTP/1.1 exchange (`Connection: close`): the status and the body as JSON.
fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> (u16, Value) {
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

fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    http(addr, "POST", path, Some(body.to_string().as_bytes()))
}

/// Expects a 4xx/5xx answer `{"error"}` whose message holds every one of `words`.
fn expect_error(reply: (u16, Value), status: u16, words: &[&str]) {
    let (got, body) = reply;
    let msg = body["error"].as_str().unwrap_or_else(|| panic!("no `error` in {body}"));
    assert_eq!(got, status, "{msg}");
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
    for w in words {
        assert!(msg.contains(w), "`{w}` not in the error: {msg}");
    }
}

/// The dominoes named anywhere in a JSON value (`"6-4"`, `"6-4@6"` name 6-4).
fn dominoes_named(v: &Value, out: &mut BTreeSet<String>) {
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
        let view = state.view(self.0);
        let any: &dyn Any = &view;
        let public = if let Some(v) = any.downcast_ref::<Texas42View>() {
            v.played
        } else if let Some(v) = any.downcast_ref::<DoublesView>() {
            v.board.placed
        } else {
            panic!("a game without a table")
        };
        let own = hands[self.0];
        (own, DominoSet::FULL - own - public, hands)
    }
}

/// Plays a whole game by requests (the person takes the legal action picked
/// by `pick`); returns every state answered and the final one.
fn play_game(addr: SocketAddr, request: Value, pick: impl Fn(usize, &[Value]) -> usize) -> (Vec<Value>, Value) {
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
fn check_game(states: &[Value], last: &Value) {
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
        // A finished deal's summary names only dominoes played in that deal.
        let mut start = 0;
        for deal in deals.as_array().unwrap() {
            let end = deal["end"].as_u64().unwrap() as usize;
            let (mut in_deal, mut shown) = (BTreeSet::new(), BTreeSet::new());
            dominoes_named(&Value::Array(history[start..end].to_vec()), &mut in_deal);
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

#[test]
fn the_page_is_served() {
    let srv = server(Duration::from_secs(600), 10);
    let mut s = TcpStream::connect(srv.addr()).unwrap();
    write!(s, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut page = String::new();
    s.read_to_string(&mut page).unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("text/html") && page.contains("<script src=\"app.js\">"));
    for file in ["app.js", "style.css"] {
        let mut s = TcpStream::connect(srv.addr()).unwrap();
        write!(s, "GET /{file} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        assert!(text.starts_with("HTTP/1.1 200"), "{file}: {text}");
    }
}
