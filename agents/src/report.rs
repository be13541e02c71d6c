//! The JSON form of an [`EvalReport`]: the object `bones eval --json` prints and
//! the Python package's `bones.evaluate` returns (docs/interfaces/cli.md describes
//! every key). One definition, so the two cannot drift apart.
//!
//! ```
//! use bones_agents::arena::{evaluate, Amount, EvalOptions};
//! use bones_agents::{AgentFactory, AgentSpec};
//! use bones_env::{Texas42, Texas42Rules};
//!
//! let game = Texas42::new(Texas42Rules::STANDARD);
//! let opts = EvalOptions { amount: Amount::Hands(4), seed: 1, threads: 1 };
//! let (a, b) = (AgentSpec::Heuristic, AgentSpec::Random);
//! let report = evaluate(&game, [&a, &b], &AgentFactory::new(), &opts, &|_| {}).unwrap();
//! let json = report.to_json(1);
//! assert_eq!(json["agents"], serde_json::json!(["heuristic", "random"]));
//! assert_eq!(json["hands"], 4);
//! ```

use crate::arena::{Contracts, Estimate, EvalReport};
use serde_json::{json, Value};

/// A float for JSON, rounded to 6 decimals; NaN and infinities become null.
pub fn num(x: f64) -> Value {
    if x.is_finite() {
        json!((x * 1e6).round() / 1e6)
    } else {
        Value::Null
    }
}

/// An estimate's interval `[lo, hi]`.
fn ci(e: &Estimate) -> Value {
    json!([num(e.lo), num(e.hi)])
}

impl EvalReport {
    /// The report as `bones eval --json` prints it, for deals drawn from `seed`
    /// (the keys in their documented order; no wall-clock timings, so the same
    /// seed and amount always give the same object).
    pub fn to_json(&self, seed: u64) -> Value {
        let r = self;
        let mut v = json!({
            "agents": r.agents,
            "game": r.game,
            "players": r.players,
            "seed": seed,
            "deals": r.deals,
            "games": r.games,
            "hands": r.hands,
            "win_unit": r.win_unit,
            "win_rate": num(r.win_rate),
            "win_ci": [num(r.win_ci.0), num(r.win_ci.1)],
        });
        let obj = v.as_object_mut().expect("an object");
        if let (Some(m), Some(p)) = (&r.marks_per_hand, &r.points_per_hand) {
            obj.insert("marks_per_hand".into(), num(m.mean));
            obj.insert("marks_ci".into(), ci(m));
            obj.insert("points_per_hand".into(), num(p.mean));
            obj.insert("points_ci".into(), ci(p));
        }
        if let Some(p) = &r.points_per_round {
            obj.insert("points_per_round".into(), num(p.mean));
            obj.insert("points_ci".into(), ci(p));
        }
        if let Some(c) = &r.contracts {
            let side = |c: &Contracts| json!({"declared": c.declared, "made": c.made, "made_rate": num(c.made_rate()), "mean_bid": num(c.mean_bid())});
            obj.insert("contracts".into(), json!({"a": side(&c[0]), "b": side(&c[1])}));
        }
        obj.insert("elo".into(), r.elo.map_or(Value::Null, |e| num((e * 10.0).round() / 10.0)));
        obj.insert("decisions".into(), json!(r.decisions));
        v
    }
}
