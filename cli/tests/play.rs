//! `bones play` driven through its stdin like a person at the terminal: each
//! prompt is answered from the legal moves it printed, with some bad input on
//! the way; the saved record must replay (`bones replay`) to a finished game.

use serde_json::Value;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

const BONES: &str = env!("CARGO_BIN_EXE_bones");

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("bones-play-{name}-{}.jsonl", std::process::id()))
}

/// A running `bones play` with its stdout read on a thread.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Vec<u8>>,
    out: Vec<u8>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(BONES)
            .env("BONES_MODELS", crate::bones_cmd::MODELS)
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start bones play");
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                if tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session { child, stdin, rx, out: Vec::new() }
    }

    /// `bones play ARGS --save FILE` (a temporary file named after `name`),
    /// its output up to the first prompt, and the file.
    fn saving(name: &str, args: &[&str]) -> (Session, String, std::path::PathBuf) {
        let save = tmp(name);
        let mut s = Session::start(&[args, &["--save", save.to_str().unwrap()]].concat());
        let (first, prompt) = s.next();
        assert!(prompt, "{first}");
        (s, first, save)
    }

    /// The output up to the next prompt (`true`) or to the end of output (`false`).
    fn next(&mut self) -> (String, bool) {
        let start = self.out.len();
        loop {
            if self.out[start..].ends_with(b"> ") {
                return (String::from_utf8_lossy(&self.out[start..]).into_owned(), true);
            }
            match self.rx.recv_timeout(Duration::from_secs(60)) {
                Ok(chunk) => self.out.extend_from_slice(&chunk),
                Err(RecvTimeoutError::Disconnected) => {
                    return (String::from_utf8_lossy(&self.out[start..]).into_owned(), false)
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no prompt within 60 s; output:\n{}", String::from_utf8_lossy(&self.out))
                }
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin.as_mut().unwrap(), "{line}").unwrap();
    }

    /// Sends `line` and returns the output up to the next prompt.
    fn answer(&mut self, line: &str) -> String {
        self.send(line);
        let (seg, prompt) = self.next();
        assert!(prompt, "no prompt after `{line}`:\n{seg}");
        seg
    }

    /// Closes stdin and waits for a clean exit; all of stdout.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        while self.next().1 {}
        let mut err = String::new();
        self.child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert_eq!(self.child.wait().unwrap().code(), Some(0), "{err}");
        String::from_utf8_lossy(&self.out).into_owned()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The moves of the last `Legal: …` line.
fn legal(seg: &str) -> Vec<String> {
    let line = seg.rsplit_once("Legal: ").unwrap_or_else(|| panic!("no legal moves in:\n{seg}")).1;
    line.lines().next().unwrap().split_whitespace().map(String::from).collect()
}

/// Answers every prompt with `pick(move number, legal moves)` until the program ends.
fn play_out(s: &mut Session, mut seg: String, mut pick: impl FnMut(usize, &[String]) -> String) -> usize {
    let mut n = 0;
    loop {
        let moves = legal(&seg);
        assert!(!moves.is_empty(), "a prompt without legal moves:\n{seg}");
        s.send(&pick(n, &moves));
        n += 1;
        assert!(n < 3000, "the game does not end");
        let (next, prompt) = s.next();
        assert!(!next.contains("is not legal") && !next.contains("is not a"), "a legal move was refused:\n{next}");
        if !prompt {
            return n;
        }
        seg = next;
    }
}

/// `bones replay FILE`: exit status and the one result line.
fn replay(path: &std::path::Path) -> Value {
    let out = Command::new(BONES).arg("replay").arg(path).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "bones replay failed:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(text.trim()).unwrap()
}

fn hand_of(seg: &str) -> Vec<String> {
    let line = seg.rsplit_once("Your hand: ").unwrap().1.lines().next().unwrap();
    let mut v: Vec<String> = line.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

#[test]
fn a_whole_texas42_game_through_stdin_saves_a_record_that_replays() {
    let (mut s, first, save) =
        Session::saving("texas42", &["--partner", "heuristic", "--opponents", "random", "--seed", "3"]);
    assert!(first.contains("Texas 42, standard rules, first to 7 marks. Seed 3"), "{first}");
    assert!(first.contains("--- Hand 1 (You shook)."), "{first}");
    assert!(first.contains("Bids: Left "), "{first}");
    assert!(first.ends_with("Your bid> "), "{first}");
    let dealt = hand_of(&first);
    assert_eq!(dealt.len(), 7);

    // Bad input gets a short message and the prompt again.
    let seg = s.answer("7-7");
    assert!(seg.contains("`7-7` is not a domino"), "{seg}");
    assert!(seg.ends_with("Your bid> "), "{seg}");
    let seg = s.answer("hello");
    assert!(seg.contains("`hello` is not a move; legal: "), "{seg}");
    let seg = s.answer(&dealt[0]); // a domino while bidding
    assert!(seg.contains(&format!("`{}` is not legal now; legal: ", dealt[0])), "{seg}");
    let seg = s.answer("");
    assert!(seg.ends_with("Your bid> "), "{seg}");
    let seg = s.answer("?");
    assert!(seg.contains("Your hand: ") && seg.contains("Legal: "), "{seg}");
    let seg = s.answer("HELP");
    assert_eq!(legal(&seg), legal(&first));

    // Play the game out: vary the choices, write some dominoes low end first.
    let mut saw_play = false;
    let moves = play_out(&mut s, seg, |n, legal| {
        let m = legal[(n * 7 + 3) % legal.len()].clone();
        match m.split_once('-') {
            Some((a, b)) if n % 3 == 0 && a != b => {
                saw_play = true;
                format!("{b}-{a}")
            }
            _ => m,
        }
    });
    assert!(saw_play);
    let out = s.finish();
    for needle in ["Left bids", "Partner", "Right", "Trick 1 of 7", "== Hand 1 over", "Points: Us "] {
        assert!(out.contains(needle), "no `{needle}` in the output:\n{out}");
    }
    let tail = out.rsplit_once("== Game over after ").unwrap_or_else(|| panic!("no game over:\n{out}")).1;
    assert!(tail.contains("You and Partner win!") || tail.contains("Left and Right win."), "{tail}");
    assert!(out.contains("Saved the game to"), "{out}");
    assert!(!out.contains('\x1b'), "control codes in the output");

    // The record replays to the same finished game.
    let record = replay(&save);
    assert_eq!(record["game"], "texas42");
    assert_eq!(record["seed"], 3);
    assert_eq!(record["episode"], "game");
    assert_eq!(record["annotations"], serde_json::json!({"seat": 0}), "the person's seat, for --review");
    let result = &record["result"];
    assert_eq!(result["done"], true, "{result}");
    let winner = result["winner"].as_u64().expect("a winning team");
    let marks = result["marks"][winner as usize].as_u64().unwrap();
    assert!(marks >= 7, "{result}");
    // Every move typed at a prompt is seat 0's step in the record.
    let mine = result["hand_results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h["steps"].as_array().unwrap())
        .filter(|st| st["seat"] == 0)
        .count();
    assert_eq!(mine, moves);
    assert!(tail.contains(if winner == 0 { "You and Partner win!" } else { "Left and Right win." }), "{tail}");
    let mut first_hand: Vec<String> = result["hand_results"][0]["hands"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect();
    first_hand.sort();
    assert_eq!(first_hand, dealt, "the hand shown is the one dealt");
    let _ = std::fs::remove_file(&save);
}

#[test]
fn a_whole_doubles_game_against_highest() {
    let args = ["--game", "doubles", "--players", "2", "--opponents", "highest", "--seed", "5"];
    let (mut s, first, save) = Session::saving("doubles", &args);
    assert!(first.contains("Doubles, 2 players, first to 100 points. Seed 5"), "{first}");
    assert!(first.ends_with("Your move> "), "{first}");
    let seg = s.answer("7-7@7");
    assert!(seg.contains("`7-7@7` is not a domino"), "{seg}");
    let seg = s.answer("dance");
    assert!(seg.contains("`dance` is not a move; legal: "), "{seg}");
    let seg = s.answer("help");

    // First legal move (a play before `draw`); a bare domino when it fits one end only.
    let mut bare = 0;
    play_out(&mut s, seg, |_, legal| {
        let m = legal[0].clone();
        match m.split_once('@') {
            Some((d, _)) if legal.iter().filter(|l| l.starts_with(&format!("{d}@"))).count() == 1 => {
                bare += 1;
                d.to_string()
            }
            _ => m,
        }
    });
    assert!(bare > 0);
    let out = s.finish();
    for needle in ["Seat 1 ", "== Round 1 over", "Left in hands: ", "Open ends: "] {
        assert!(out.contains(needle), "no `{needle}` in the output:\n{out}");
    }
    let tail = out.rsplit_once("== Game over after ").unwrap_or_else(|| panic!("no game over:\n{out}")).1;
    let record = replay(&save);
    assert_eq!(record["game"], "doubles");
    assert_eq!(record["players"], 2);
    let result = &record["result"];
    assert_eq!(result["done"], true, "{result}");
    let winner = result["winner"].as_u64().expect("a winner");
    assert!(result["scores"][winner as usize].as_u64().unwrap() >= 100, "{result}");
    assert!(tail.contains(if winner == 0 { "You win with" } else { "Seat 1 wins with" }), "{tail}");
    let _ = std::fs::remove_file(&save);
}

#[test]
fn search_bots_play_a_whole_game() {
    // `search` (the shipped model with sampled, weighted worlds) as partner and
    // opponents: a whole game through stdin, every bot move legal (the saved
    // record replays).
    let args = ["--partner", "search:worlds=2:pool=4", "--opponents", "search:worlds=2:weighted=off", "--seed", "5"];
    let (mut s, first, save) = Session::saving("search", &args);
    play_out(&mut s, first, |n, moves| moves[n % moves.len()].clone());
    let out = s.finish();
    assert!(out.contains("== Game over after "), "{out}");
    assert_eq!(replay(&save)["result"]["done"], true);
    let _ = std::fs::remove_file(&save);
}

#[test]
fn quit_and_end_of_input_stop_cleanly_and_save_the_game_so_far() {
    // `quit` at the first prompt.
    let (mut s, _, save) = Session::saving("quit", &["--partner", "random", "--opponents", "random", "--seed", "9"]);
    s.send("quit");
    let out = s.finish();
    assert!(out.contains("== Game stopped after 0 hands"), "{out}");
    let result = &replay(&save)["result"];
    assert_eq!(result["done"], false, "{result}");
    assert_eq!(result["next"]["seat"], 0, "{result}");

    // End of input right away (Doubles, 3 players, seat 2).
    let save2 = tmp("eof");
    let out = Command::new(BONES)
        .env("BONES_MODELS", crate::bones_cmd::MODELS)
        .args(["play", "--game", "doubles", "--players", "3", "--seat", "2", "--opponents", "random", "--seed", "4"])
        .arg("--save")
        .arg(&save2)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("== Game stopped after"));
    let record = replay(&save2);
    assert_eq!(record["players"], 3);
    assert_eq!(record["result"]["done"], false);
    let _ = std::fs::remove_file(&save);
    let _ = std::fs::remove_file(&save2);
}

#[test]
fn bad_usage_exits_2_with_a_message() {
    for (args, needle) in [
        (&["--game", "doubles", "--partner", "random"][..], "--partner"),
        (&["--opponents", "highest"][..], "--opponents"),
        (&["--partner", "nonsense"][..], "unknown agent `nonsense`"),
        (&["--seat", "4", "--partner", "random", "--opponents", "random"][..], "--seat"),
        (&["--game", "doubles", "--players", "2", "--seat", "2", "--opponents", "random"][..], "--seat"),
        (&["--players", "3", "--partner", "random", "--opponents", "random"][..], "--players"),
        (&["--rules", "{\"early_end\":1}", "--partner", "random", "--opponents", "random"][..], "--rules"),
        (&["--partner", "random", "--opponents", "model:/nonexistent/model"][..], "--opponents"),
        (&["--partner", "random", "--opponents", "random", "--save", "/nonexistent/dir/x.jsonl"][..], "--save"),
    ] {
        let out = Command::new(BONES)
            .env("BONES_MODELS", crate::bones_cmd::MODELS)
            .arg("play")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
    }
}
