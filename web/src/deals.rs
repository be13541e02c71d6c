//! The finished deals of a game as the page and the API show them: the
//! scores, the table at the deal's end, how and why it ended, and the review
//! for the person ([`DealLog`]; docs/interfaces/web.md, the state's `deals`).
//! A live game ([`super::session`]) and a replay ([`super::replay`]) log their
//! deals the same way, so a replayed game shows what was shown when it was played.

use super::table::TableGame;
use bones_agents::review::{review_played, Decisions};
use bones_agents::{Played, PolicyLoader};
use bones_env::{DealOutcome, GameState};
use serde_json::{json, Value};

/// The deals a game finished so far, for the person at one seat.
pub struct DealLog<G: TableGame> {
    seat: usize,
    /// Each finished deal (JSON).
    pub deals: Vec<Value>,
    /// Game totals per side (the finished deals' scores summed).
    pub totals: Vec<f64>,
    /// The person's choices in the deal in progress (a Doubles round's review).
    decisions: Decisions<G>,
}

impl<G: TableGame> DealLog<G> {
    /// An empty log for the person at `seat` of a game with `sides` sides.
    pub fn new(seat: usize, sides: usize) -> DealLog<G> {
        DealLog { seat, deals: Vec::new(), totals: vec![0.0; sides], decisions: Vec::new() }
    }

    /// Notes one action; when it ended a deal, the deal is added: its scores,
    /// facts and the person's review (the bids compared with the network
    /// `models` loads).
    pub fn observe(&mut self, played: &Played<'_, G>, models: &dyn PolicyLoader) {
        if played.seat == self.seat {
            self.decisions.push((played.before.view(self.seat), played.action, played.ply - 1));
        }
        let Some(deal) = played.after.finished_deal() else { return };
        let review = review_played(played, self.seat, &self.decisions, models).unwrap_or(Value::Null);
        self.decisions.clear();
        let sides = self.totals.len();
        for (total, score) in self.totals.iter_mut().zip(deal.score) {
            *total += score;
        }
        let mut out = summary(&deal, sides);
        out["end"] = json!(played.ply);
        out["totals"] = numbers(&self.totals);
        out["table"] = played.game.finished(played.after, self.seat);
        let (how, tricks) = played.game.how_it_ended(played.after, self.seat);
        out["how"] = how;
        if let Some(tricks) = tricks {
            out["count"] = tricks;
        }
        out["review"] = review;
        self.deals.push(out);
    }

    /// The points the person gave up over the deals reviewed with all hands
    /// open (Texas 42; `None`: none reviewed so).
    pub fn points_lost(&self) -> Option<i64> {
        let open = |d: &&Value| d["review"]["open_hands"] == true;
        let lost: Vec<i64> = self.deals.iter().filter(open).filter_map(|d| d["review"]["lost"].as_i64()).collect();
        (!lost.is_empty()).then(|| lost.iter().sum())
    }
}

/// A deal's outcome: `scores`, `points`, `contract`, `winner`.
fn summary(deal: &DealOutcome, sides: usize) -> Value {
    let winner = (0..sides).find(|&s| deal.win[s] == 1.0);
    let contract = deal.contract.map(|c| json!({"side": c.side, "bid_points": c.bid_points, "made": c.made}));
    json!({
        "scores": numbers(&deal.score[..sides]),
        "points": deal.points.map(|p| numbers(&p[..sides])),
        "contract": contract,
        "winner": winner,
    })
}

/// Numbers as JSON, whole ones as integers (`3`, not `3.0`).
pub fn numbers(values: &[f64]) -> Value {
    Value::Array(
        values.iter().map(|&x| if x.fract() == 0.0 && x.abs() < 1e15 { json!(x as i64) } else { json!(x) }).collect(),
    )
}
