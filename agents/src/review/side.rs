//! A Texas 42 hand's review for the reviewed seat's side: the seat's review,
//! its partner's, the most the declaring side could take with all hands open,
//! and where the side lost most (the bid, or one play) in a sentence.

use super::hand::{HandReview, PlayReview};
use crate::solver::Solver;
use bones_env::texas42::{bid_value, team, Hand, Phase, Texas42State, NEL_O};
use bones_env::{Action, Game, Texas42};
use serde_json::{json, Value};

/// `mine` (the reviewed seat's review, as JSON) with its partner's review
/// (`partner`) and the side's summary (`side`: `declarers`, the declaring
/// team; `best_points`, the most it takes from the first lead with all hands
/// open and best play by all four, `null` for a hand thrown in; `needed`; and
/// `lost_most`): docs/interfaces/web.md. `before` is the state before the hand's
/// `last` action.
pub fn side_review(
    game: &Texas42,
    spec: &str,
    before: &Texas42State,
    last: Action,
    mine: &HandReview,
    partner: &HandReview,
    solver: &mut Solver,
) -> Value {
    let mut out = mine.to_json(game, spec);
    out["partner"] = partner.to_json(game, spec);
    let mut done = *before.hand();
    if done.apply(last).is_err() {
        return out;
    }
    let us = team(mine.seat);
    let start = at_first_lead(before, last);
    let best = start.as_ref().and_then(|h| {
        let value = solver.solve_actions(h).iter().map(|&(_, p)| p).max()?;
        (team(h.to_move) == team(h.bidder)).then_some(value as i64)
    });
    let declarers = start.as_ref().map(|h| team(h.bidder));
    let made = matches!(done.outcome, Some(bones_env::texas42::Outcome::Settled { made: true }));
    let bid = bid_value(done.high_bid as Action) as i64;
    let nello = done.declaration as Action == NEL_O;
    // What the declarers need from all 42 points: the bid, or every trick.
    let needed = if bid < 42 { bid } else { 42 };
    let lost_most = match (declarers, best) {
        (Some(d), Some(best)) if d == us && !made && !nello && best < needed => json!({
            "what": "bid", "seat": done.bidder, "trick": null, "lost": needed - best,
            "text": format!("the bid: with these hands the best play makes {best}"),
        }),
        _ => largest_play(game, mine, partner),
    };
    out["side"] =
        json!({"declarers": declarers, "best_points": best, "needed": start.map(|_| needed), "lost_most": lost_most});
    out
}

/// The hand as play begins (after the declaration), if it got there.
fn at_first_lead(before: &Texas42State, last: Action) -> Option<Hand> {
    let now = before.hand();
    let mut h = Hand::new(now.rules, now.dealer, now.dealt);
    for a in now.actions().into_iter().chain([last]) {
        if h.phase == Phase::Playing {
            return Some(h);
        }
        h.apply(a).ok()?;
    }
    (h.phase == Phase::Playing).then_some(h)
}

/// `n point(s)`.
fn points(n: i64) -> String {
    format!("{n} point{}", if n == 1 { "" } else { "s" })
}

/// The play of the seat or its partner that gave up the most (the seat's first
/// among equals, then the earlier).
fn largest_play(game: &Texas42, mine: &HandReview, partner: &HandReview) -> Value {
    let plays = mine.plays.iter().map(|p| (mine.seat, p)).chain(partner.plays.iter().map(|p| (partner.seat, p)));
    let mut most: Option<(u8, &PlayReview)> = None;
    for (seat, p) in plays {
        if p.lost() > 0 && most.is_none_or(|(_, m)| p.lost() > m.lost()) {
            most = Some((seat, p));
        }
    }
    match most {
        Some((seat, p)) => {
            let whose = if seat == mine.seat { "your" } else { "partner's" };
            let (action, lost) = (game.action_name(p.action), points(p.lost() as i64));
            json!({
                "what": "play", "seat": seat, "trick": p.trick, "lost": p.lost(),
                "text": format!("{whose} trick {}: {action} gave up {lost}", p.trick),
            })
        }
        None => json!({
            "what": "none", "seat": null, "trick": null, "lost": 0,
            "text": "nowhere: every play of your side was a best play with all hands open",
        }),
    }
}
