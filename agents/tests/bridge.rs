//! Outside engines on walt's bridge line protocol (`bridge:`): what a request
//! holds (only the seat's own dealt dominoes and the public plays), and
//! evaluations under `dropped30` against stand-in programs written for the test
//! (a Python script that replays the record and plays its lowest legal domino):
//! a good one plays to the end, and a bad reply, a misread record, a hang and a
//! crash each stop it with one error. The spec's own rules are checked too.

use std::path::{Path, PathBuf};

use bones_agents::arena::{evaluate, Amount, ArenaError, EvalOptions};
use bones_agents::bridge::request;
use bones_agents::spec::DEFAULT_BRIDGE_LIMIT_MS;
use bones_agents::{AgentFactory, AgentSpec, EvalReport, SpecError};
use bones_env::rules::DoublesRules;
use bones_env::texas42::Phase;
use bones_env::{Doubles, Episode, Game, GameState, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The integers of a request line.
fn numbers(line: &str) -> Vec<usize> {
    line.split_whitespace().map(|t| t.parse().unwrap()).collect()
}

#[test]
fn a_request_holds_the_seats_dealt_dominoes_and_the_plays_in_order_and_nothing_else() {
    let game = Texas42::new(Texas42Rules::DROPPED30);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut asked = 0;
    for seed in 0..30 {
        let mut st = game.new_state(seed, Episode::Hand);
        let mut plays: Vec<(usize, usize)> = Vec::new();
        while let Some(seat) = st.current_seat() {
            let v = st.view(seat);
            let legal: Vec<_> = st.legal_mask().iter().collect();
            if v.phase == Phase::Playing {
                let x = numbers(&request(&v).unwrap());
                let h = st.hand();
                let trump = h.declaration as usize - bones_env::texas42::TRUMP_BLANKS;
                assert_eq!(&x[..3], &[seat, trump, h.declarer as usize], "seed {seed}");
                let mut dealt: Vec<usize> = h.dealt[seat].iter().map(|d| d.index()).collect();
                dealt.sort_unstable();
                assert_eq!(x[3..10], dealt[..], "seed {seed}: the seat's own deal");
                assert_eq!(x[10], plays.len());
                let sent: Vec<(usize, usize)> = x[11..].chunks(2).map(|c| (c[0], c[1])).collect();
                assert_eq!(sent, plays, "seed {seed}: the plays so far, in order");
                asked += 1;
            } else {
                assert!(request(&v).unwrap_err().contains("only plays dominoes"));
            }
            let a = legal[rng.random_range(0..legal.len())];
            if v.phase == Phase::Playing {
                plays.push((seat, a));
            }
            st.apply(a).unwrap();
        }
    }
    assert_eq!(asked, 30 * 28);
}

// ---------------------------------------------------------------------------
// Stand-in programs

/// A stand-in engine: it reads each request, logs it to `requests.txt`, replays
/// the plays (pip trumps: the trick's winner, each team's points) and prints
/// `domino leader points0 points1` for its lowest legal domino, or what
/// `misbehave` (Python, with `n` the requests before this one) prints instead.
fn stand_in(name: &str, misbehave: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("bones-bridge-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("bridge.py");
    let log = dir.join("requests.txt");
    let _ = std::fs::remove_file(&log);
    let text = format!(
        r#"import sys, time
D = [(h, l) for h in range(7) for l in range(h + 1)]
def count(i):
    s = D[i][0] + D[i][1]
    return 10 if s == 10 else 5 if s == 5 else 0
def suit(i, t):
    return 'T' if t in D[i] else D[i][0]
def follows(i, t, s):
    return t in D[i] if s == 'T' else (s in D[i] and t not in D[i])
def rank(i, t, s):
    h, l = D[i]
    top = s if s != 'T' else t
    if t in D[i]:
        return (2, 7 if h == l else (l if h == t else h))
    if follows(i, t, s):
        return (1, 7 if h == l else (l if h == top else h))
    return (0, 0)
log = open({log:?}, 'a')
n = 0
for line in sys.stdin:
    log.write(line); log.flush()
    x = [int(w) for w in line.split()]
    seat, t, leader = x[0], x[1], x[2]
    hand = set(x[3:10])
    hist = [(x[11 + 2 * k], x[12 + 2 * k]) for k in range(x[10])]
    pts = [0, 0]
    trick = []
    for a, d in hist:
        hand.discard(d)
        trick.append((a, d))
        if len(trick) == 4:
            s = suit(trick[0][1], t)
            w = max(trick, key=lambda p: rank(p[1], t, s))[0]
            pts[w % 2] += 1 + sum(count(d) for _, d in trick)
            leader = w
            trick = []
    legal = sorted(d for d in hand if trick and follows(d, t, suit(trick[0][1], t))) or sorted(hand)
    reply = '%d %d %d %d' % (legal[0], leader, pts[0], pts[1])
{misbehave}
    print(reply)
    sys.stdout.flush()
    n += 1
"#,
        misbehave = misbehave.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
    );
    std::fs::write(&script, text).unwrap();
    (dir, format!("python3 {}", script.display()))
}

fn eval_vs_heuristic(rules: Texas42Rules, spec: &str, hands: u64) -> Result<EvalReport, ArenaError> {
    let spec: AgentSpec = spec.parse().unwrap();
    let game = Texas42::new(rules);
    let opts = EvalOptions { amount: Amount::Hands(hands), seed: 3, threads: 2 };
    evaluate(&game, [&spec, &AgentSpec::Heuristic], &AgentFactory::new(), &opts, &|_| {})
}

fn logged(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("requests.txt")).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn a_good_stand_in_plays_whole_dropped30_evaluations_and_is_asked_only_plays_with_a_choice() {
    let (dir, cmd) = stand_in("good", "");
    let r = eval_vs_heuristic(Texas42Rules::DROPPED30, &format!("bridge:{cmd}"), 8).unwrap();
    assert_eq!(r.hands, 8);
    let requests = logged(&dir);
    assert!(!requests.is_empty() && (requests.len() as u64) < r.decisions[0], "forced decisions are not sent");
    for line in &requests {
        let x = numbers(line);
        assert!(x[0] < 4 && x[1] < 7 && x[2] < 4, "{line}");
        assert_eq!(x.len(), 11 + 2 * x[10], "{line}");
    }
}

/// The failure of a dropped30 evaluation against a stand-in that misbehaves
/// so, after checking that it is one line naming the seat.
fn failure(name: &str, misbehave: &str, limit: &str) -> String {
    let (_dir, cmd) = stand_in(name, misbehave);
    let err = eval_vs_heuristic(Texas42Rules::DROPPED30, &format!("bridge:{limit}{cmd}"), 4).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("at seat "), "{text}");
    assert!(!text.contains('\n'), "one line: {text}");
    text
}

#[test]
fn a_bad_reply_a_misread_record_an_illegal_domino_or_a_crash_stops_the_evaluation_in_one_line() {
    let cases: [(&str, &str, &[&str]); 5] = [
        ("garbage", "reply = 'hello'", &["the reply is not four integers", "got `hello`"]),
        ("short", "reply = reply.split()[0]", &["the reply is 1 integers, not four"]),
        (
            "misread",
            "w = reply.split(); reply = ' '.join([w[0], w[1], str(int(w[2]) + 1), w[3]])",
            &["the program reads the record otherwise", "Bones says seat"],
        ),
        ("illegal", "reply = '99 0 0 0'", &["domino 99 is not a legal play now"]),
        (
            "crash",
            "sys.stderr.write('bridge: out of dominoes\\n'); sys.stderr.flush(); sys.exit(3)",
            &["the program exited (exit status: 3)", "out of dominoes"],
        ),
    ];
    for (name, misbehave, says) in cases {
        let text = failure(name, misbehave, "");
        for said in says {
            assert!(text.contains(said), "{name}: {text}");
        }
    }
}

#[test]
fn a_hanging_stand_in_is_stopped_at_the_time_limit() {
    let t0 = std::time::Instant::now();
    let text = failure("hang", "time.sleep(60)", "limit=0.5:");
    assert!(text.contains("no reply within 0.5 s (the time limit; `bridge:limit=SECONDS:…` sets it)"), "{text}");
    assert!(t0.elapsed().as_secs() < 30, "the hang was not cut off: {:?}", t0.elapsed());
}

// ---------------------------------------------------------------------------
// The spec

#[test]
fn bridge_specs_parse_print_and_are_refused_outside_dropped30_doubles_and_the_network() {
    let s: AgentSpec = "bridge:walt/target/release/walt_bridge 50 8 120".parse().unwrap();
    match &s {
        AgentSpec::Bridge { argv, limit_ms, .. } => {
            assert_eq!(argv, &["walt/target/release/walt_bridge", "50", "8", "120"]);
            assert_eq!(*limit_ms, DEFAULT_BRIDGE_LIMIT_MS);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.to_string(), "bridge:walt/target/release/walt_bridge 50 8 120");
    let s: AgentSpec = "bridge:limit=2.5:./walt_bridge".parse().unwrap();
    assert!(matches!(&s, AgentSpec::Bridge { limit_ms: 2500, .. }));
    assert_eq!(s.to_string().parse::<AgentSpec>().unwrap(), s);
    for (bad, says) in [
        ("bridge:", "`bridge` needs a command line"),
        ("bridge:limit=0:./walt_bridge", "`limit` must be a number of seconds"),
        ("bridge:walt 'open", "a `'` is not closed"),
    ] {
        let e = bad.parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // The program is never started where it cannot play: the standard rules,
    // Doubles, or a spec that came over the network.
    let never = "bridge:/no/such/walt_bridge".parse::<AgentSpec>().unwrap();
    let e = AgentFactory::new().build(&never, &Texas42::new(Texas42Rules::STANDARD)).err().unwrap();
    assert!(matches!(e, SpecError::WrongRules { .. }), "{e}");
    assert!(e.to_string().contains("plays only dropped-30 deals (`--rules dropped30`)"), "{e}");
    let e = AgentFactory::new().build(&never, &Doubles::new(DoublesRules::default())).err().unwrap();
    assert!(matches!(e, SpecError::WrongGame { .. }), "{e}");
    let e = AgentFactory::new().build(&never, &Texas42::new(Texas42Rules::DROPPED30)).err().unwrap();
    assert!(e.to_string().contains("cannot start the program: `/no/such/walt_bridge`"), "{e}");
    let e = never.check_remote(None).unwrap_err();
    assert!(matches!(e, SpecError::Refused { .. }) && e.to_string().contains("never over the network"), "{e}");
}
