//! `bones bench --agent`: one agent's time per decision.

use crate::bones_cmd::bones;

#[test]
fn bench_agent_counts_the_decisions_of_every_seat_and_prints_their_quantiles() {
    let (code, out, err) = bones(&["bench", "--agent", "heuristic", "--hands", "3", "--seed", "5", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["game"].as_str(), v["agent"].as_str(), v["hands"].as_u64()),
        (Some("texas42"), Some("heuristic"), Some(3))
    );
    // Three hands of Texas 42: each 4 bids and a declaration, then up to 28 plays (a
    // decided hand ends early); some decisions forced.
    let all = v["decisions"].as_u64().unwrap() + v["forced"].as_u64().unwrap();
    assert!((3 * 5..=3 * 33).contains(&all) && v["forced"].as_u64() > Some(0), "{v}");
    let ms = |k: &str| v[k].as_f64().unwrap();
    assert!(ms("median_ms") <= ms("p90_ms") && ms("p90_ms") <= ms("max_ms"), "{v}");
    let (code, out, _) = bones(&["bench", "--agent", "random", "--hands", "2", "--game", "doubles"]);
    assert_eq!(code, 0);
    assert!(out.contains("median") && out.contains("decisions with a choice"), "{out}");
}

#[test]
fn bench_agent_refuses_bad_usage_with_status_2() {
    for (args, says) in [
        (&["bench", "--agent", "serch"][..], "unknown agent `serch` (did you mean `search`?"),
        (&["bench", "--agent", "search", "--game", "doubles"], "does not play doubles"),
        (&["bench", "--agent", "random", "--hands", "0"], "--hands must be at least 1"),
    ] {
        let (code, _, err) = bones(args);
        assert_eq!((code, err.lines().count()), (2, 1), "{args:?}: {err}");
        assert!(err.contains(says) && !err.contains("panicked"), "{args:?}: {err}");
    }
    // Flags of the other measurement, or of --agent without it: clap's usage error.
    for (args, says) in [
        (
            &["bench", "--agent", "random", "--threads", "2"][..],
            "'--agent <AGENT>' cannot be used with '--threads <THREADS>'",
        ),
        (&["bench", "--hands", "5"], "required arguments were not provided"),
    ] {
        let (code, _, err) = bones(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.lines().next().unwrap().contains(says), "{args:?}: {err}");
    }
}
