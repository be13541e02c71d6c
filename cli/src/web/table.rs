//! What the page draws on the table, per game: the public facts of a seat's
//! view as JSON (`state.table`). Built from the view only, so it holds nothing
//! the seat may not know. The games with a table are found by their view's type
//! (as the agent factory finds the agents written for a game); any other game
//! gets `null` and is still playable from the generic state (hand, legal
//! actions, history, scores).

use super::layout::Layout;
use bones_agents::ViewOf;
use bones_env::doubles::NO_SEAT;
use bones_env::texas42::Phase;
use bones_env::{Domino, Doubles, DoublesState, DoublesView, Game, Texas42State, Texas42View};
use serde_json::{json, Value};
use std::any::Any;

/// The table of `view` (a seat's view of a state of `game`), or `null` for a
/// game without one.
pub fn table<G: Game>(game: &G, view: &ViewOf<G>) -> Value {
    let any: &dyn Any = view;
    if let Some(v) = any.downcast_ref::<Texas42View>() {
        return texas42(game, v);
    }
    if let Some(v) = any.downcast_ref::<DoublesView>() {
        return doubles(v);
    }
    Value::Null
}

/// The table of the deal that ended on the action leading to `after`, as
/// `seat` sees it at that deal's end (its last trick or its whole board on
/// the table), or `null` for a game without one.
pub fn finished<G: Game>(game: &G, after: &G::State, seat: usize) -> Value {
    let any: &dyn Any = after;
    if let Some(s) = any.downcast_ref::<Texas42State>() {
        let h = if s.hand().is_done() { s.hand() } else { s.previous_hand().unwrap_or(s.hand()) };
        let mut v = Texas42View::from_hand(h, seat as u8);
        v.totals = s.totals();
        v.hands_played = s.hands_played().saturating_sub(1);
        return texas42(game, &v);
    }
    if let Some(s) = any.downcast_ref::<DoublesState>() {
        let r = if s.round().is_done() { s.round() } else { s.previous_round().unwrap_or(s.round()) };
        let any: &dyn Any = game;
        let rules = any.downcast_ref::<Doubles>().map(|g| g.rules).unwrap_or_default();
        return doubles(&DoublesView::from_round(r, seat as u8, rules));
    }
    Value::Null
}

fn name(d: Domino) -> String {
    d.to_string()
}

/// Texas 42: the auction, the contract, the trick in progress, the last trick,
/// every finished trick, points and tricks taken this hand, dominoes left per seat.
fn texas42<G: Game>(game: &G, v: &Texas42View) -> Value {
    let phase = match v.phase {
        Phase::Bidding => "bidding",
        Phase::Declaring => "declaring",
        Phase::Playing => "playing",
        Phase::Done => "done",
    };
    let played_tricks = (v.trick as usize + 1).min(7);
    let trick = |t: usize, complete: bool| -> Value {
        let tr = &v.tricks[t];
        let plays: Vec<Value> = tr
            .played()
            .iter()
            .enumerate()
            .map(|(i, &d)| json!({"seat": v.seat_of_play(t, i), "domino": name(d)}))
            .collect();
        if complete {
            json!({"leader": tr.leader, "plays": plays, "winner": tr.winner, "points": tr.points})
        } else {
            json!({"leader": tr.leader, "plays": plays})
        }
    };
    let mut left = [7u8; 4];
    if v.declaration.is_some() {
        for t in 0..played_tricks {
            for i in 0..v.tricks[t].len as usize {
                left[v.seat_of_play(t, i) as usize] -= 1;
            }
        }
    }
    let current = (v.phase == Phase::Playing && v.trick < 7).then(|| trick(v.trick as usize, false));
    let last = (v.declaration.is_some() && v.trick > 0).then(|| trick(v.trick as usize - 1, true));
    let done: Vec<Value> =
        if v.declaration.is_some() { (0..v.trick as usize).map(|t| trick(t, true)).collect() } else { Vec::new() };
    json!({
        "phase": phase,
        "shaker": v.dealer,
        "bids": v.bids.map(|b| b.map(|a| game.action_name(a))),
        "high_bid": v.bidder.map(|_| game.action_name(v.high_bid)),
        "bidder": v.bidder,
        "declarer": v.declarer,
        "trump": v.declaration.map(|a| game.action_name(a)),
        "trick": current,
        "last_trick": last,
        "tricks": done,
        "tricks_won": v.tricks_won,
        "points": v.points,
        "sitting_out": v.sitting_out,
        "hand_sizes": left,
        "hands_played": v.hands_played,
    })
}

/// Doubles: the dominoes on the board in play order (who played each and the
/// number it was set on) and where each lies ([`Layout`]), the numbers
/// showing on the open ends, dominoes held per seat, the boneyard's size,
/// draws and passes, and how the round ended.
fn doubles(v: &DoublesView) -> Value {
    let players = v.players() as usize;
    let mut placed: Vec<Domino> = v.board.placed.iter().collect();
    placed.sort_by_key(|d| v.play_index[d.index()]);
    let board: Vec<Value> = placed
        .iter()
        .map(|d| {
            let on = v.attached_at[d.index()];
            json!({"domino": name(*d), "seat": v.played_by[d.index()], "on": (on != NO_SEAT).then_some(on)})
        })
        .collect();
    let layout = Layout::of(
        &placed
            .iter()
            .map(|d| {
                let on = v.attached_at[d.index()];
                (*d, (on != NO_SEAT).then_some(on))
            })
            .collect::<Vec<_>>(),
    );
    let ends: Vec<u8> = (0..7u8).flat_map(|n| std::iter::repeat_n(n, v.board.open[n as usize] as usize)).collect();
    let unlocked: Vec<u8> = (0..7u8).filter(|&n| v.board.is_unlocked(n)).collect();
    let ended = v.end.is_some();
    json!({
        "opener": v.opener,
        "board": board,
        "layout": layout.to_json(),
        "ends": ends,
        "unlocked": unlocked,
        "hand_sizes": &v.hand_sizes[..players],
        "boneyard_size": v.boneyard_len,
        "draws": &v.draws[..players],
        "passes": &v.passes[..players],
        "drawn": v.drawn.map(name),
        "end": v.end.map(|e| e.name()),
        "round_scores": ended.then_some(&v.scores[..players]),
        "round_winner": v.winner,
    })
}
