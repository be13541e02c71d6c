//! A seat's view as the `view` of a bot-protocol request (docs/interfaces/cli.md,
//! "Seat views"): what an outside program (`exec:`) is sent when its seat is to
//! move. It is written from the seat's view only ([`bones_env::SeatView`]), so
//! it cannot hold what the seat may not know: no seed, no other hand, no
//! boneyard order, no other seat's draws. `bones serve` reads such a view back
//! into a position to play from ([`bones_env::position`]).
//!
//! - **Texas 42**: the seat's dominoes now and at the deal, the public actions of
//!   the hand in order (the bids from the seat left of the shaker, the
//!   declaration, the plays), the game totals and hands played, the legal actions.
//! - **Doubles**: the seat's dominoes (with the one it has just drawn), the
//!   placements in order with who made them, the hand sizes, the boneyard's
//!   size, each seat's draws and passes and what they revealed (numbers it has
//!   none of, doubles it does not hold), the totals, the legal actions.

use crate::pimc::public_actions;
use bones_env::doubles::{NAMES_DOUBLES, NO_SEAT};
use bones_env::texas42::NAMES_42;
use bones_env::{Action, ActionMask, Domino, DominoSet, Doubles, DoublesView, Game, SeatView, Texas42, Texas42View};
use serde_json::{json, Value};

/// A view that can be written as a request's `view` object.
pub trait SeatRequest: SeatView {
    /// The game's registry name.
    const GAME: &'static str;

    /// The `view` object of a request for this view's seat.
    fn to_request(&self) -> Value;

    /// The canonical name of an action of this game.
    fn action_name(a: Action) -> &'static str;
}

fn names(set: DominoSet) -> Vec<String> {
    set.iter().map(|d| d.to_string()).collect()
}

fn legal_names(mask: ActionMask, name: fn(Action) -> &'static str) -> Vec<&'static str> {
    mask.iter().map(name).collect()
}

impl SeatRequest for Texas42View {
    const GAME: &'static str = "texas42";

    fn to_request(&self) -> Value {
        let mut dealt = self.hand;
        if self.declaration.is_some() {
            for t in 0..=(self.trick as usize).min(6) {
                for (i, d) in self.tricks[t].played().iter().enumerate() {
                    if self.seat_of_play(t, i) == self.seat {
                        dealt.insert(*d);
                    }
                }
            }
        }
        let actions: Vec<&str> = public_actions(self).into_iter().map(Self::action_name).collect();
        json!({
            "game": Self::GAME,
            "rules": Texas42::new(self.rules).rules_json(),
            "seat": self.seat,
            "dealer": self.dealer,
            "hand": names(self.hand),
            "dealt": names(dealt),
            "actions": actions,
            "totals": self.totals,
            "hands_played": self.hands_played,
            "legal": legal_names(self.legal, Self::action_name),
        })
    }

    fn action_name(a: Action) -> &'static str {
        NAMES_42.get(a).copied().unwrap_or("?")
    }
}

impl SeatRequest for DoublesView {
    const GAME: &'static str = "doubles";

    fn to_request(&self) -> Value {
        let n = self.players() as usize;
        let mut placed: Vec<Domino> = self.board.placed.iter().collect();
        placed.sort_by_key(|d| self.play_index[d.index()]);
        let plays: Vec<Value> = placed
            .iter()
            .map(|&d| {
                let at = self.attached_at[d.index()];
                let action = if at == NO_SEAT { format!("{}", d) } else { format!("{d}@{at}") };
                debug_assert!(at != NO_SEAT || d.is_double(), "only the opening double covers no end");
                json!({"seat": self.played_by[d.index()], "action": action})
            })
            .collect();
        let numbers = |bits: u8| (0..7u8).filter(|k| bits >> k & 1 != 0).collect::<Vec<u8>>();
        json!({
            "game": Self::GAME,
            "rules": Doubles::new(self.rules).rules_json(),
            "seat": self.seat,
            "players": n,
            "opener": self.opener,
            "hand": names(self.hand),
            "drawn": self.drawn.map(|d| d.to_string()),
            "plays": plays,
            "hand_sizes": &self.hand_sizes[..n],
            "boneyard": self.boneyard_len,
            "draws": &self.draws[..n],
            "passes": &self.passes[..n],
            "void": self.void[..n].iter().map(|&b| numbers(b)).collect::<Vec<_>>(),
            "no_double": self.no_double[..n].iter().map(|&b| numbers(b)).collect::<Vec<_>>(),
            "totals": &self.totals[..n],
            "legal": legal_names(self.legal, Self::action_name),
        })
    }

    fn action_name(a: Action) -> &'static str {
        NAMES_DOUBLES.get(a).copied().unwrap_or("?")
    }
}
