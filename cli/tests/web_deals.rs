//! What `bones web` says about finished deals and finished games, through a
//! real socket: how and why each deal ended (the counting dominoes each Texas
//! 42 side took, the pips left in each Doubles hand), the side's review with
//! the partner and where the side lost most, the Doubles review against pimc,
//! and the replay of a record, position by position, as the game was played.

use crate::web_api::{check_game, expect_error, http, play_game, post, server};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// The count a domino carries.
fn count_of(d: &str) -> i64 {
    match d {
        "5-5" | "6-4" => 10,
        "5-0" | "4-1" | "3-2" => 5,
        _ => 0,
    }
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

/// Plays a whole game, picking a varying legal move; every state answered and the last.
fn play_whole(addr: SocketAddr, request: Value) -> (Vec<Value>, Value) {
    let (states, last) = play_game(addr, request, |turn, legal| (turn * 5 + 1) % legal.len());
    check_game(&states, &last);
    (states, last)
}

/// [`play_whole`] on a server of its own.
fn whole(request: Value) -> (Vec<Value>, Value) {
    let srv = server(Duration::from_secs(600), 10);
    play_whole(srv.addr(), request)
}

/// `bones replay ARGS FILE` with `record` written to FILE (a folder named by
/// `name`): what it printed.
pub(crate) fn replay_cli(record: &Value, name: &str, args: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("bones-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.json");
    std::fs::write(&file, format!("{record}\n")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bones"))
        .env("BONES_MODELS", crate::bones_cmd::MODELS)
        .arg("replay")
        .args(args)
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(out.stdout).unwrap()
}

/// `bones replay --review --json` of `record`: the replayed record with its `reviews`.
pub(crate) fn cli_review(record: &Value, name: &str) -> Value {
    serde_json::from_str(&replay_cli(record, name, &["--review", "--json"])).unwrap()
}

#[test]
fn a_finished_hand_says_how_and_why_it_ended_and_which_count_each_side_took() {
    let (states, last) = whole(
        json!({"game":"texas42","seat":1,"opponents":"random","partner":"random","seed":21,"rules":{"target":4}}),
    );
    let us = 1;
    for deal in last["deals"].as_array().unwrap() {
        let how = &deal["how"];
        let table = &deal["table"];
        let tricks = table["tricks"].as_array().unwrap();
        match how["ended"].as_str().unwrap() {
            "thrown-in" => assert_eq!(deal["contract"], Value::Null, "{deal}"),
            result => {
                assert_eq!(deal["contract"]["made"], result == "made", "{deal}");
                assert_eq!(int(&how["tricks"]) as usize, tricks.len(), "{deal}");
                assert_eq!(how["early"], tricks.len() < 7);
                assert_eq!(table["last_trick"], tricks[tricks.len() - 1], "the final trick is left on the table");
            }
        }
        // Each side's points are its tricks and the count it took in them.
        for side in 0..2usize {
            let won = tricks.iter().filter(|t| int(&t["winner"]) as usize % 2 == side).count() as i64;
            let count: i64 =
                deal["count"][side].as_array().unwrap().iter().map(|d| count_of(d.as_str().unwrap())).sum();
            assert!(count > 0 || deal["count"][side].as_array().unwrap().is_empty());
            assert_eq!(int(&deal["points"][side]), won + count, "side {side}: {deal}");
            let points: i64 =
                tricks.iter().filter(|t| int(&t["winner"]) as usize % 2 == side).map(|t| int(&t["points"])).sum();
            assert_eq!(points, won + count);
        }
        let reason = how["reason"].as_str().unwrap();
        if let (Some(bid), Some(made)) = (deal["contract"]["bid_points"].as_i64(), deal["contract"]["made"].as_bool()) {
            let bidders = int(&deal["contract"]["side"]) as usize;
            let name = |side: usize| if side == us % 2 { "Us" } else { "Them" };
            if bid < 42 && !made && table["trump"] != "nel-o" {
                let taken = int(&deal["points"][1 - bidders]);
                assert_eq!(
                    reason,
                    format!(
                        "{} took {taken}{}; a bid of {bid} allows {}",
                        name(1 - bidders),
                        if tricks.len() < 7 { format!(" by trick {}", tricks.len()) } else { String::new() },
                        42 - bid
                    )
                );
            }
            if bid < 42 && made && table["trump"] != "nel-o" {
                assert!(reason.ends_with(&format!("a bid of {bid} needs {bid}")), "{reason}");
            }
        }
    }
    // While a hand is played its table lists the tricks finished so far.
    for st in &states {
        let t = &st["table"];
        if t["phase"] == "playing" {
            let done = t["tricks"].as_array().unwrap();
            assert_eq!(done.last().unwrap_or(&Value::Null), &t["last_trick"]);
            assert!(done.iter().all(|x| x["plays"].as_array().unwrap().len() >= 3));
        }
    }
}

#[test]
fn a_finished_doubles_round_says_who_went_out_or_that_it_blocked_and_the_pips_left() {
    let (_, last) =
        whole(json!({"game":"doubles","players":4,"seat":2,"opponents":"heuristic","seed":9,"rules":{"target":60}}));
    let mut ends = Vec::new();
    for deal in last["deals"].as_array().unwrap() {
        let how = &deal["how"];
        let pips: Vec<i64> = how["pips"].as_array().unwrap().iter().map(int).collect();
        assert_eq!(pips.len(), 4);
        assert_eq!(how["held"].as_array().unwrap().len(), 4);
        let total: i64 = pips.iter().sum();
        match how["ended"].as_str().unwrap() {
            "domino" => {
                let w = int(&how["went_out"]) as usize;
                assert_eq!(deal["winner"], json!(w));
                assert_eq!((pips[w], int(&how["held"][w])), (0, 0), "{deal}");
                assert_eq!(int(&deal["scores"][w]), total, "{deal}");
            }
            "blocked" => {
                assert_eq!(how["went_out"], Value::Null);
                if let Some(w) = deal["winner"].as_u64() {
                    let low = pips[w as usize];
                    assert!(pips.iter().all(|&p| p >= low));
                    assert_eq!(int(&deal["scores"][w as usize]), total - low, "{deal}");
                }
            }
            other => panic!("a round ended by {other}"),
        }
        ends.push(how["ended"].clone());
        // The board as it lay at the end: every domino placed, laid out from the spinner.
        let table = &deal["table"];
        let tiles = table["layout"]["tiles"].as_array().unwrap();
        assert_eq!(tiles.len(), table["board"].as_array().unwrap().len());
        for (tile, placed) in tiles.iter().zip(table["board"].as_array().unwrap()) {
            assert_eq!(tile["domino"], placed["domino"]);
        }
        assert_eq!(table["end"], how["ended"]);
    }
    assert!(!ends.is_empty());
}

#[test]
fn the_review_covers_the_partner_and_says_where_the_side_lost_most() {
    let (_, last) = whole(
        json!({"game":"texas42","seat":0,"opponents":"heuristic","partner":"random","seed":12,"rules":{"target":3}}),
    );
    let history = last["history"].as_array().unwrap();
    let mut whats = Vec::new();
    for deal in last["deals"].as_array().unwrap() {
        let r = &deal["review"];
        let partner = &r["partner"];
        assert_eq!((r["seat"].as_u64(), partner["seat"].as_u64()), (Some(0), Some(2)));
        let mut most = 0;
        for (seat, plays) in [(0, &r["plays"]), (2, &partner["plays"])] {
            for p in plays.as_array().unwrap() {
                assert_eq!(history[p["ply"].as_u64().unwrap() as usize], json!({"seat": seat, "action": p["action"]}));
                most = most.max(int(&p["lost"]));
            }
        }
        for b in partner["bids"].as_array().unwrap() {
            assert_eq!(history[b["ply"].as_u64().unwrap() as usize]["seat"], 2);
        }
        let side = &r["side"];
        let lost_most = &side["lost_most"];
        let text = lost_most["text"].as_str().unwrap();
        match lost_most["what"].as_str().unwrap() {
            "bid" => {
                assert_eq!((side["declarers"].as_u64(), deal["contract"]["made"].as_bool()), (Some(0), Some(false)));
                assert!(int(&side["best_points"]) < int(&side["needed"]), "{side}");
                assert_eq!(text, format!("the bid: with these hands the best play makes {}", side["best_points"]));
            }
            "play" => {
                assert_eq!(int(&lost_most["lost"]), most, "{r}");
                let whose = if lost_most["seat"] == 0 { "your" } else { "partner's" };
                assert!(text.starts_with(&format!("{whose} trick {}: ", lost_most["trick"])), "{text}");
            }
            "none" => assert_eq!(most, 0, "{r}"),
            other => panic!("lost most at {other}"),
        }
        if deal["contract"] != Value::Null {
            let best = int(&side["best_points"]);
            assert!((0..=42).contains(&best), "{side}");
        }
        whats.push(lost_most["what"].as_str().unwrap().to_string());
    }
    assert!(whats.iter().any(|w| w != "none"), "a random partner gives something up: {whats:?}");
}

#[test]
fn a_doubles_round_is_reviewed_against_pimc_from_the_persons_view_and_the_cli_agrees() {
    let (_, last) =
        whole(json!({"game":"doubles","players":3,"seat":1,"opponents":"heuristic","seed":4,"rules":{"target":40}}));
    let history = last["history"].as_array().unwrap();
    let mut reviewed = 0;
    for deal in last["deals"].as_array().unwrap() {
        let r = &deal["review"];
        assert_eq!((r["seat"].as_u64(), &r["open_hands"]), (Some(1), &json!(false)));
        assert!(r["reviewer"].as_str().unwrap().starts_with("pimc:worlds="));
        let plays = r["plays"].as_array().unwrap();
        let mut total = 0.0;
        for p in plays {
            assert_eq!(history[p["ply"].as_u64().unwrap() as usize], json!({"seat": 1, "action": p["action"]}));
            let (played, best, lost) =
                (p["played_points"].as_f64().unwrap(), p["best_points"].as_f64().unwrap(), p["lost"].as_f64().unwrap());
            assert!(lost >= 0.0 && (best - played - lost).abs() < 1e-9, "{p}");
            assert!(p["moves"].as_array().unwrap().len() >= 2, "a forced move is not reviewed: {p}");
            total += lost;
        }
        assert!((r["lost"].as_f64().unwrap() - total).abs() < 1e-6, "{r}");
        reviewed += plays.len();
    }
    assert!(reviewed > 0, "the person had a choice in some round");
    let cli = cli_review(&last["record"], "doubles-review");
    assert_eq!(cli["reviews"], last["record"]["annotations"]["reviews"], "the CLI's review is the page's");
}

#[test]
fn a_replay_steps_through_a_finished_game_as_it_was_played() {
    let srv = server(Duration::from_secs(600), 10);
    let a = srv.addr();
    for request in [
        json!({"game":"texas42","seat":3,"opponents":"heuristic","partner":"heuristic","seed":5,"rules":{"target":2}}),
        json!({"game":"doubles","players":2,"opponents":"heuristic","seed":8,"rules":{"target":30}}),
    ] {
        let (states, last) = play_whole(a, request);
        let (status, replay) = post(a, "/api/replay", &last["record"]);
        assert_eq!(status, 200, "{replay}");
        let history = last["history"].as_array().unwrap();
        let steps = replay["steps"].as_array().unwrap();
        assert_eq!(steps.len(), history.len() + 1);
        assert_eq!(&replay["history"], &last["history"]);
        assert_eq!(replay["deals"], last["deals"], "the deals, their facts and reviews, as they were shown");
        assert_eq!(
            (&replay["seat"], &replay["scores"], &replay["winner"]),
            (&last["seat"], &last["scores"], &last["winner"])
        );
        assert_eq!(replay["levels"], last["record"]["annotations"]["levels"]);
        let seat = last["seat"].as_u64().unwrap() as usize;
        for st in &states {
            let ply = st["history"].as_array().unwrap().len();
            assert_eq!(steps[ply]["table"], st["table"], "the table at ply {ply}");
            assert_eq!(steps[ply]["hands"][seat], st["hand"], "the person's hand at ply {ply}");
            assert_eq!(steps[ply]["scores"], st["scores"]);
        }
        assert_eq!(steps[history.len()]["to_move"], Value::Null);
    }
    // A bad record is refused with what was wrong.
    expect_error(post(a, "/api/replay", &json!(["texas42"])), 400, &["a replay takes a game record", "list"]);
    expect_error(post(a, "/api/replay", &json!({"game":"texas42","seed":1,"actions":["6-6"]})), 400, &["bad record"]);
    let bad_seat = json!({"game":"doubles","players":2,"seed":1,"actions":[],"annotations":{"seat":3}});
    expect_error(post(a, "/api/replay", &bad_seat), 400, &["bad `annotations.seat` 3", "0..=1"]);
    expect_error(http(a, "GET", "/api/replay", None), 405, &["method not allowed"]);
}
