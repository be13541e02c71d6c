//! `bones web` against hostile requests, through a real socket: oversized and
//! deeply nested bodies, huge numbers in every field, every spec limit at and
//! past its bound, moves out of turn, unknown and reused ids, slow and
//! vanishing clients, floods past the rate, more work than the bots' pool
//! takes, and bots that fail. Each gets a clear answer, and the server goes on
//! serving the games of everyone else.

use crate::web_api::{expect_error, http, post, test_config};
use bones_agents::Limits;
use bones_web::levels::Pick;
use bones_web::{start, Defaults, WebConfig, WebServer};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A server on a free port with the shipped models and `config`'s other settings.
fn server_with(config: WebConfig) -> WebServer {
    let models = test_config().models;
    start(WebConfig { port: 0, history: None, models: models.clone(), shipped_models: models, ..config })
        .expect("the server starts")
}

/// The default server, with no rate limit (these tests make many requests).
fn server() -> WebServer {
    server_with(WebConfig { rate: 0, ..WebConfig::default() })
}

/// A quick game: random bots, one hand, the person first to bid or not.
fn quick(addr: SocketAddr) -> (String, Value) {
    let (status, created) =
        post(addr, "/api/games", &json!({"game":"texas42","opponents":"random","partner":"random","episode":"hand"}));
    assert_eq!(status, 201, "{created}");
    (created["id"].as_str().unwrap().to_string(), created["state"].clone())
}

/// Whether the server still serves: `/api/info` and a new game answer.
fn still_serves(addr: SocketAddr) {
    assert_eq!(http(addr, "GET", "/api/info", None).0, 200);
    quick(addr);
}

/// Sends raw bytes and reads the whole answer (status and headers as text).
fn raw(addr: SocketAddr, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(bytes).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn oversized_and_deeply_nested_bodies_are_refused_in_one_line() {
    let s = server();
    let big = format!("{{\"game\":\"texas42\",\"seed\":\"{}\"}}", "9".repeat(100_000));
    expect_error(http(s.addr(), "POST", "/api/games", Some(big.as_bytes())), 413, &["over 65536 bytes"]);
    let nested = format!("{}{}", "[".repeat(20_000), "]".repeat(20_000));
    expect_error(http(s.addr(), "POST", "/api/games", Some(nested.as_bytes())), 400, &["recursion limit"]);
    let nested_obj = format!("{}1{}", "{\"a\":".repeat(5_000), "}".repeat(5_000));
    expect_error(http(s.addr(), "POST", "/api/replay", Some(nested_obj.as_bytes())), 400, &["recursion limit"]);
    expect_error(http(s.addr(), "POST", "/api/games", Some(b"\xff\xfe")), 400, &["malformed JSON"]);
    still_serves(s.addr());
}

#[test]
fn huge_numbers_in_every_field_get_a_clear_error() {
    let s = server();
    let a = s.addr();
    for (key, value, words) in [
        ("seat", json!(1e300), &["bad `seat`"][..]),
        ("seat", json!(u64::MAX), &["bad `seat`", "expected a seat 0..=3"]),
        ("players", json!(u64::MAX), &["bad `players`"]),
        ("players", json!(-1), &["bad `players`"]),
        ("seed", json!(-1), &["bad `seed`", "0..=2^64-1"]),
        ("seed", json!(1.5e30), &["bad `seed`"]),
    ] {
        let mut req = json!({"game": "texas42"});
        req[key] = value;
        expect_error(post(a, "/api/games", &req), 400, words);
    }
    // A seed of 2^64-1 is a seed: accepted.
    let (status, _) =
        post(a, "/api/games", &json!({"game":"texas42","seed":u64::MAX,"opponents":"random","partner":"random"}));
    assert_eq!(status, 201);
    let (id, st) = quick(a);
    let legal = st["legal"][0].clone();
    expect_error(
        post(a, &format!("/api/games/{id}/actions"), &json!({"action": legal, "ply": -5})),
        400,
        &["bad `ply`"],
    );
    expect_error(
        post(a, &format!("/api/games/{id}/actions"), &json!({"action": legal, "ply": 1e300})),
        400,
        &["bad `ply`"],
    );
    let out = post(a, &format!("/api/games/{id}/actions"), &json!({"action": legal, "ply": u64::MAX}));
    expect_error(out, 409, &["out of turn"]);
    expect_error(
        http(a, "GET", &format!("/api/games/{id}/review/99999999999999999999999"), None),
        400,
        &["bad hand number"],
    );
    expect_error(http(a, "GET", &format!("/api/games/{id}/review/{}", u64::MAX), None), 404, &["no hand"]);
    expect_error(http(a, "GET", "/api/history?limit=99999999999999999999", None), 400, &["bad `limit`"]);
    expect_error(http(a, "GET", "/api/history/99999999999999999999999", None), 404, &["no stored game"]);
    still_serves(a);
}

#[test]
fn every_spec_limit_is_accepted_at_its_bound_and_refused_past_it_naming_the_limit() {
    let s =
        server_with(WebConfig { rate: 0, limits: Limits { worlds: 8, pool: 16, exact: 2 }, ..WebConfig::default() });
    let a = s.addr();
    let game = |spec: &str| json!({"game":"texas42","opponents":spec,"partner":"random","episode":"hand"});
    for spec in ["pimc:worlds=8", "search:worlds=8:pool=16:exact=2", "search:worlds=4:pool=16:continuation=solver"] {
        let (status, body) = post(a, "/api/games", &game(spec));
        assert_eq!(status, 201, "{spec}: {body}");
    }
    for (spec, words) in [
        ("pimc:worlds=9", &["`worlds` is 9, at most 8 here", "--max-worlds"][..]),
        ("pimc:worlds=4000000000", &["`worlds` is 4000000000, at most 8"]),
        ("search:worlds=9:pool=16", &["`worlds` is 9, at most 8"]),
        ("search:worlds=8:pool=17", &["`pool` is 17, at most 16", "--max-pool"]),
        ("search:worlds=8:pool=16:exact=3", &["`exact` is 3, at most 2", "--max-exact"]),
        ("search:worlds=4096", &["`worlds` is 4096"]),
    ] {
        expect_error(post(a, "/api/games", &game(spec)), 400, words);
        let partner = json!({"game":"texas42","opponents":"random","partner":spec});
        expect_error(post(a, "/api/games", &partner), 400, &["`partner`"]);
    }
    // Doubles' pimc is bounded the same way.
    let doubles = json!({"game":"doubles","opponents":"pimc:worlds=9"});
    expect_error(post(a, "/api/games", &doubles), 400, &["`worlds` is 9, at most 8"]);
    // The limits are listed for the page.
    let (_, info) = http(a, "GET", "/api/info", None);
    assert_eq!(info["limits"]["worlds"], 8);
    assert_eq!(info["limits"]["pool"], 16);
    assert_eq!(info["limits"]["exact"], 2);
    // The default limits admit every level the page offers.
    let d = server();
    for level in ["easy", "normal", "hard"] {
        for g in ["texas42", "doubles"] {
            let (status, body) =
                post(d.addr(), "/api/games", &json!({"game": g, "opponents": level, "episode":"hand"}));
            assert_eq!(status, 201, "{g} {level}: {body}");
        }
    }
}

#[test]
fn moves_for_another_seat_out_of_turn_and_on_unknown_or_dropped_ids_are_refused() {
    let s = server();
    let a = s.addr();
    let (id, st) = quick(a);
    let ply = st["history"].as_array().unwrap().len();
    let legal = st["legal"].as_array().unwrap();
    if legal.is_empty() {
        panic!("the person is to move after creation: {st}");
    }
    let stale = json!({"action": legal[0], "ply": ply + 3});
    expect_error(post(a, &format!("/api/games/{id}/actions"), &stale), 409, &["out of turn", "ply"]);
    expect_error(post(a, &format!("/api/games/{id}/actions"), &json!({"action": "9-9"})), 400, &["9-9"]);
    expect_error(
        post(a, &format!("/api/games/{id}/actions"), &json!({"action": "6-4", "seat": 2})),
        400,
        &["unknown key `seat`"],
    );
    for bad in ["0000000000000000", "../../etc/passwd", "%00", &"f".repeat(5000)] {
        let (status, body) = http(a, "GET", &format!("/api/games/{bad}"), None);
        assert!(status == 404 || status == 400, "{status} {body}");
        assert!(body["error"].as_str().unwrap().len() < 300, "{body}");
    }
    // Path parts that are not UTF-8 get a JSON error too, never the router's plain text.
    for path in
        ["/api/games/%ff%fe", "/api/games/%c3%28/hint", &format!("/api/games/{id}/review/%ff"), "/api/history/%ff"]
    {
        expect_error(http(a, "GET", path, None), 400, &["bad path", "UTF-8"]);
    }
    assert_eq!(http(a, "DELETE", &format!("/api/games/{id}"), None).0, 200);
    expect_error(http(a, "GET", &format!("/api/games/{id}"), None), 404, &["unknown game id"]);
    expect_error(post(a, &format!("/api/games/{id}/actions"), &json!({"action": legal[0]})), 404, &["unknown game id"]);
    expect_error(http(a, "DELETE", &format!("/api/games/{id}"), None), 404, &["unknown game id"]);
    still_serves(a);
}

#[test]
fn slow_and_vanishing_clients_do_not_hold_the_server() {
    let s = server_with(WebConfig {
        rate: 0,
        per_client_connections: 4,
        connection_idle: Duration::from_millis(800),
        body_timeout: Duration::from_millis(300),
        ..WebConfig::default()
    });
    let a = s.addr();
    // Slow clients: four connections that send half a request and stall.
    let mut stalled: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut c = TcpStream::connect(a).unwrap();
            c.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n").unwrap();
            c
        })
        .collect();
    // A fifth from the same address is closed at once, without an answer.
    std::thread::sleep(Duration::from_millis(100));
    let fifth = raw(a, b"GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert!(fifth.is_empty(), "{fifth}");
    // Once idle, the stalled connections are closed by the server.
    std::thread::sleep(Duration::from_millis(1000));
    for c in stalled.iter_mut() {
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 64];
        let n = c.read(&mut buf).unwrap_or(0);
        assert_eq!(n, 0, "a stalled connection was not closed");
    }
    still_serves(a);
    // A body that never arrives whole: 408 once the body timeout passes.
    let answer = raw(a, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"game\":");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 0.3 s"), "{answer}");
    // A client that vanishes mid-request, and one that vanishes while the bots think.
    {
        let mut c = TcpStream::connect(a).unwrap();
        c.write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{\"ga").unwrap();
    }
    let (id, st) = quick(a);
    {
        let body = json!({"action": st["legal"][0]}).to_string();
        let mut c = TcpStream::connect(a).unwrap();
        let head =
            format!("POST /api/games/{id}/actions HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}", body.len());
        c.write_all(head.as_bytes()).unwrap();
    }
    // The move went through or not, but the game is whole: its state reads and it plays on.
    std::thread::sleep(Duration::from_millis(200));
    let (status, now) = http(a, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200);
    let history = now["history"].as_array().unwrap().len();
    assert!(history >= st["history"].as_array().unwrap().len(), "{now}");
    if !now["legal"].as_array().unwrap().is_empty() {
        let next = json!({"action": now["legal"][0], "ply": history});
        assert_eq!(post(a, &format!("/api/games/{id}/actions"), &next).0, 200);
    }
    still_serves(a);
}

#[test]
fn a_flood_from_one_address_is_told_to_wait_and_other_addresses_are_served() {
    let s = server_with(WebConfig { rate: 5, burst: 10, ..WebConfig::default() });
    let a = s.addr();
    let mut refused = None;
    for _ in 0..30 {
        let answer = raw(a, b"GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        if answer.starts_with("HTTP/1.1 429") {
            refused = Some(answer);
            break;
        }
    }
    let refused = refused.expect("the flood was never refused");
    assert!(refused.to_ascii_lowercase().contains("retry-after: 1"), "{refused}");
    assert!(refused.contains("too many requests from your address (at most 5 a second)"), "{refused}");
    // The page's files are not counted; another loopback address has its own allowance.
    let page = raw(a, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert!(page.starts_with("HTTP/1.1 200"), "{}", &page[..page.len().min(200)]);
    let other = SocketAddr::from(([127, 0, 0, 2], 0));
    let mut sock = socket_from(other, a);
    sock.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    sock.read_to_string(&mut out).unwrap();
    assert!(out.starts_with("HTTP/1.1 200"), "{out}");
    // After a second's wait the first address is served again.
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(http(a, "GET", "/api/info", None).0, 200);
}

/// A connection to `to` from the loopback address `from` (its own client address).
fn socket_from(from: SocketAddr, to: SocketAddr) -> TcpStream {
    let sock = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    sock.bind(&from.into()).unwrap();
    sock.connect(&to.into()).unwrap();
    let s: TcpStream = sock.into();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s
}

#[test]
fn games_per_address_are_bounded() {
    let s = server_with(WebConfig { rate: 0, per_client_games: 2, ..WebConfig::default() });
    let a = s.addr();
    let (first, _) = quick(a);
    quick(a);
    let req = json!({"game":"texas42","opponents":"random","partner":"random"});
    expect_error(post(a, "/api/games", &req), 429, &["too many open games from your address (2)"]);
    assert_eq!(http(a, "DELETE", &format!("/api/games/{first}"), None).0, 200);
    assert_eq!(post(a, "/api/games", &req).0, 201);
}

#[test]
fn more_work_than_the_bots_pool_takes_is_answered_503_and_reads_answer_meanwhile() {
    // One thread, one waiting request, a short wait: slow bots fill it at once.
    let s = server_with(WebConfig {
        rate: 0,
        think_threads: 1,
        think_queue: 1,
        think_wait: Duration::from_millis(300),
        ..WebConfig::default()
    });
    let a = s.addr();
    let (id, st) = quick(a);
    let slow = json!({"game":"texas42","opponents":"pimc:worlds=512","partner":"pimc:worlds=512","episode":"hand"});
    let makers: Vec<_> = (0..4)
        .map(|_| {
            let slow = slow.clone();
            std::thread::spawn(move || post(a, "/api/games", &slow))
        })
        .collect();
    // While they think, the quick game's state reads answer at once.
    std::thread::sleep(Duration::from_millis(50));
    for _ in 0..5 {
        let t0 = Instant::now();
        let (status, now) = http(a, "GET", &format!("/api/games/{id}"), None);
        assert_eq!(status, 200);
        assert_eq!(now["history"], st["history"]);
        assert!(t0.elapsed() < Duration::from_secs(1), "a read waited {:?} for the bots", t0.elapsed());
    }
    let answers: Vec<(u16, Value)> = makers.into_iter().map(|h| h.join().unwrap()).collect();
    let busy: Vec<&(u16, Value)> = answers.iter().filter(|(s, _)| *s == 503).collect();
    assert!(!busy.is_empty(), "{answers:?}");
    for (_, body) in busy {
        assert!(body["error"].as_str().unwrap().contains("the bots are busy"), "{body}");
    }
    for (status, body) in &answers {
        assert!(*status == 201 || *status == 503, "{status} {body}");
    }
    still_serves(a);
}

#[test]
fn a_bot_that_fails_ends_its_game_naming_it_and_the_server_goes_on() {
    // A server whose default opponents are a program that exits at once (the
    // person starting a server may seat one; a page may not).
    let failing = Pick::parse("exec:sh -c 'exit 3'").unwrap();
    let s = server_with(WebConfig {
        rate: 0,
        defaults: Defaults { opponents: Some(failing), partner: Some(Pick::Level("easy")) },
        ..WebConfig::default()
    });
    let a = s.addr();
    // Seat the person so that an opponent bids first or soon after: the game ends in one line naming it.
    let mut ended = None;
    for seat in 0..4 {
        let (status, body) = post(a, "/api/games", &json!({"game":"texas42","seat":seat,"seed":7,"episode":"hand"}));
        if status == 201 {
            let id = body["id"].as_str().unwrap().to_string();
            let legal = body["state"]["legal"][0].clone();
            let (status, body) = post(a, &format!("/api/games/{id}/actions"), &json!({"action": legal}));
            if status == 500 {
                expect_error(http(a, "GET", &format!("/api/games/{id}"), None), 404, &["unknown game id"]);
                ended = Some(body);
            }
        } else {
            ended = Some(body);
        }
        if let Some(body) = &ended {
            let msg = body["error"].as_str().unwrap();
            assert!(msg.contains("a bot failed and this game is ended"), "{msg}");
            assert!(msg.contains("exec:sh -c 'exit 3'"), "{msg}");
            assert!(msg.contains("the program exited"), "{msg}");
            break;
        }
    }
    assert!(ended.is_some(), "no seat let the failing bot play");
    // Everyone else's games go on.
    let (status, _) = post(a, "/api/games", &json!({"game":"texas42","opponents":"random","partner":"random"}));
    assert_eq!(status, 201);
}

#[test]
fn a_level_that_cannot_play_is_listed_as_unavailable_and_refused_never_replaced() {
    // A models folder whose texas42 model is damaged: the levels built on it say why.
    let dir = std::env::temp_dir().join(format!("bones-web-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("texas42")).unwrap();
    let shipped = std::path::Path::new(crate::bones_cmd::MODELS).join("texas42");
    for f in std::fs::read_dir(&shipped).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), dir.join("texas42").join(f.file_name())).unwrap();
    }
    for f in std::fs::read_dir(dir.join("texas42")).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "bpk" || e == "safetensors" || e == "onnx") {
            std::fs::write(&p, b"damaged").unwrap();
        }
    }
    let s = start(WebConfig {
        port: 0,
        rate: 0,
        history: None,
        models: Some(dir.clone()),
        shipped_models: Some(dir.clone()),
        ..WebConfig::default()
    })
    .unwrap();
    let a = s.addr();
    let (_, info) = http(a, "GET", "/api/info", None);
    let normal = info["levels"]["texas42"].as_array().unwrap().iter().find(|l| l["name"] == "normal").unwrap();
    assert_eq!(normal["available"], false, "{normal}");
    assert!(normal["unavailable"].as_str().unwrap().contains("texas42"), "{normal}");
    let easy = info["levels"]["texas42"].as_array().unwrap().iter().find(|l| l["name"] == "easy").unwrap();
    assert_eq!(easy["available"], true);
    expect_error(
        post(a, "/api/games", &json!({"game":"texas42","opponents":"normal"})),
        400,
        &["the level `normal` is unavailable on this server"],
    );
    assert_eq!(post(a, "/api/games", &json!({"game":"texas42","opponents":"easy","partner":"easy"})).0, 201);
    let _ = std::fs::remove_dir_all(&dir);
}
