//! What the page draws, per game ([`TableGame`]): the public facts of a seat's
//! view as JSON (`state.table`), the table at a finished deal's end, and how
//! that deal ended. Built from the view (or, for a finished deal, from what
//! every seat saw at its end), so it holds nothing the seat may not know.
//! Every game the web serves implements it: the web reaches games through
//! [`bones_env::on_game!`], so a game without it does not compile.

use super::how::{doubles_how, texas42_how};
use super::layout::Layout;
use bones_agents::{AgentGame, ViewOf};
use bones_env::doubles::NO_SEAT;
use bones_env::texas42::Phase;
use bones_env::{Domino, Doubles, DoublesState, DoublesView, Game, Texas42, Texas42State, Texas42View};
use serde_json::{json, Value};

/// What the page of `bones web` needs of a game, beyond what the agents do.
pub trait TableGame: AgentGame {
    /// The table of `view` (a seat's view of a state of this game).
    fn table(&self, view: &ViewOf<Self>) -> Value;

    /// The table of the deal that ended on the action leading to `after`, as
    /// `seat` sees it at that deal's end (its last trick or its whole board
    /// on the table).
    fn finished(&self, after: &Self::State, seat: usize) -> Value;

    /// How the deal that ended on the action leading to `after` ended
    /// (`how`, docs/interfaces/web.md), for the person at `seat`, and what each
    /// side took that the page lists (`count`: Texas 42's counting dominoes;
    /// `None` for a game without).
    fn how_it_ended(&self, after: &Self::State, seat: usize) -> (Value, Option<Value>);
}

impl TableGame for Texas42 {
    fn table(&self, view: &Texas42View) -> Value {
        texas42(self, view)
    }

    fn finished(&self, after: &Texas42State, seat: usize) -> Value {
        let h = if after.hand().is_done() { after.hand() } else { after.previous_hand().unwrap_or(after.hand()) };
        let mut v = Texas42View::from_hand(h, seat as u8);
        v.totals = after.totals();
        v.hands_played = after.hands_played().saturating_sub(1);
        texas42(self, &v)
    }

    fn how_it_ended(&self, after: &Texas42State, seat: usize) -> (Value, Option<Value>) {
        texas42_how(after, seat)
    }
}

impl TableGame for Doubles {
    fn table(&self, view: &DoublesView) -> Value {
        doubles(view)
    }

    fn finished(&self, after: &DoublesState, seat: usize) -> Value {
        let r = if after.round().is_done() { after.round() } else { after.previous_round().unwrap_or(after.round()) };
        doubles(&DoublesView::from_round(r, seat as u8, self.rules))
    }

    fn how_it_ended(&self, after: &DoublesState, _seat: usize) -> (Value, Option<Value>) {
        (doubles_how(after), None)
    }
}

fn name(d: Domino) -> String {
    d.to_string()
}

/// Texas 42: the auction, the contract, the trick in progress, the last trick,
/// every finished trick, points and tricks taken this hand, dominoes left per seat.
fn texas42(game: &Texas42, v: &Texas42View) -> Value {
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
