//! A Doubles round's review for a seat: each of its choices (a play, and on
//! which end) against `pimc` asked from the seat's own view at that moment,
//! the way [`review_hand`](super::review_hand) sets a Texas 42
//! play against the open-hand solver. Doubles has no open-hand solver (the
//! boneyard's order is part of the deal and a round can go on drawing), so the
//! review weighs each legal move over sampled worlds, as the Hard level does:
//! nothing hidden from the seat is used, and a forced move (one legal action)
//! is not reviewed.

use crate::agent::{Agent, AgentRng};
use crate::pimc::doubles::DoublesPimc;
use bones_env::seed::mix64;
use bones_env::{Action, Doubles, DoublesView, Game};
use rand::SeedableRng;
use serde_json::{json, Value};

/// Worlds `pimc` samples at each reviewed choice.
pub const REVIEW_WORLDS: u32 = 64;

/// `x` to one decimal.
fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The review (JSON, docs/interfaces/web.md) of the round in which `seat` made
/// `decisions` (its view before each choice, the action, its index in the
/// history): each choice with more than one legal move, valued by `pimc` with
/// [`REVIEW_WORLDS`] worlds (the seat's round score minus the table's
/// average, mean over the worlds), drawing from a stream seeded by `seed` and
/// the choice's place in the history, so a replay gives the same review.
pub fn doubles_review(game: &Doubles, seat: usize, decisions: &[(DoublesView, Action, usize)], seed: u64) -> Value {
    let mut pimc = DoublesPimc::new(REVIEW_WORLDS);
    let mut plays = Vec::new();
    let mut unit = None;
    let mut lost_total = 0.0;
    let mut largest: Option<(usize, f64)> = None;
    for (turn, (view, action, ply)) in decisions.iter().enumerate() {
        let mut rng = AgentRng::seed_from_u64(seed ^ mix64(*ply as u64));
        let Some(values) = pimc.explain(view, &mut rng).values else { continue };
        let moves: Vec<(_, f64)> = values.values.iter().map(|&(a, v)| (a, tenth(v))).collect();
        let Some(&(_, played)) = moves.iter().find(|(a, _)| a == action) else { continue };
        let best_points = moves.iter().map(|&(_, v)| v).fold(f64::MIN, f64::max);
        let best = if played == best_points {
            *action
        } else {
            moves.iter().find(|m| m.1 == best_points).map_or(*action, |m| m.0)
        };
        let lost = tenth(best_points - played);
        lost_total += lost;
        if lost > 0.0 && largest.is_none_or(|(_, most)| lost > most) {
            largest = Some((plays.len(), lost));
        }
        unit.get_or_insert(values.unit);
        let listed: Vec<Value> =
            moves.iter().map(|&(a, v)| json!({"action": game.action_name(a), "points": v})).collect();
        plays.push(json!({
            "ply": ply,
            "turn": turn + 1,
            "action": game.action_name(*action),
            "best": game.action_name(best),
            "played_points": played,
            "best_points": best_points,
            "lost": lost,
            "moves": listed,
        }));
    }
    json!({
        "seat": seat,
        "open_hands": false,
        "reviewer": format!("pimc:worlds={REVIEW_WORLDS}"),
        "unit": unit,
        "bids": [],
        "declaration": null,
        "plays": plays,
        "lost": tenth(lost_total),
        "largest": largest.map(|(i, _)| i),
    })
}
