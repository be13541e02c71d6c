//! The same mistake gets the same exit status in every subcommand: bad usage
//! (a bad `--rules`, `--players` or `--game`, a bad config) exits 2 with a
//! message naming the flag; nothing panics.

use std::process::{Command, Stdio};

fn bones(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bones"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the bones binary runs");
    (out.status.code().expect("an exit status, not a signal"), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_bad_rules_flag_exits_2_in_every_subcommand_that_takes_one() {
    for cmd in [
        &["bench", "--seconds", "0.01"][..],
        &["eval", "--agents", "random,random", "--hands", "2"],
        &["play", "--seed", "1"],
    ] {
        for (flag, value, says) in [
            ("--rules", "{not json", "--rules: bad rules for texas42"),
            ("--rules", "fancy", "expected one of `standard`, `full`"),
            ("--players", "3", "--players: texas42 is played by 4, not 3 players"),
        ] {
            let mut args = cmd.to_vec();
            args.extend([flag, value]);
            let (code, err) = bones(&args);
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(err.contains(says) && !err.contains("panicked"), "{args:?}: {err}");
        }
    }
}

#[test]
fn a_bad_config_or_game_exits_2_from_train() {
    let dir = std::env::temp_dir().join(format!("bones-cli-usage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("bad.toml");
    std::fs::write(&cfg, "game = \"texas42\"\nrules = \"fancy\"\n").unwrap();
    let (code, err) = bones(&["train", "--config", cfg.to_str().unwrap(), "--out", dir.join("run").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("fancy"), "{err}");
    std::fs::write(&cfg, "[ppo]\nlearning_rat = 0.1\n").unwrap();
    let (code, err) = bones(&["train", "--config", cfg.to_str().unwrap(), "--out", dir.join("run").to_str().unwrap()]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("unknown key `ppo.learning_rat` (did you mean `ppo.learning_rate`?)"), "{err}");
    let (code, err) = bones(&["train", "--game", "chess"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("texas42") && err.contains("doubles"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bones_web_on_a_damaged_history_exits_1_with_one_line_and_leaves_the_file() {
    let dir = std::env::temp_dir().join(format!("bones-cli-web-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("history.sqlite3");
    std::fs::write(&db, "not a database: a list of dominoes\n".repeat(100)).unwrap();
    let before = std::fs::read(&db).unwrap();
    let (code, err) = bones(&["web", "--port", "0", "--db", db.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: the game history") && err.contains("is damaged"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
    let (code, err) = bones(&["web", "--port", "0", "--db", ""]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--db: expected a file path, or `none`"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_review_flags_need_review() {
    let (code, err) = bones(&["replay", "--seat", "1", "-"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--review"), "{err}");
}

#[test]
fn eval_json_prints_the_finished_deals_when_an_outside_program_fails_and_exits_1() {
    let dir = std::env::temp_dir().join(format!("bones-eval-late-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bot = dir.join("late.py");
    std::fs::write(
        &bot,
        "import json, sys\nfor n, line in enumerate(sys.stdin):\n    req = json.loads(line)\n    \
         a = req['view']['legal'][0] if n < 30 else 'nonsense'\n    \
         print(json.dumps({'id': req['id'], 'action': a}), flush=True)\n",
    )
    .unwrap();
    let agents = format!("exec:python3 {},heuristic", bot.display());
    let out = Command::new(env!("CARGO_BIN_EXE_bones"))
        .args(["eval", "--agents", &agents, "--hands", "40", "--threads", "1", "--json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("at seat 0 failed: `nonsense` is not a legal action now"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert!(report["deals"].as_u64().unwrap() >= 1, "{report}");
    assert!(report["stopped"].as_str().unwrap().contains("the record so far"), "{report}");
}
