//! A position from one seat's view: the `view` object of a bot-protocol request
//! (docs/interfaces/cli.md, "Seat views") read back into the game and a state whose
//! view for that seat is the view sent. It is what `bones serve` plays a `view`
//! request from.
//!
//! A view holds only the seat's own dominoes and the public record, so the
//! dominoes hidden from the seat (the other hands, Doubles' boneyard) are dealt
//! to fit everything public: no seat gets a domino the record shows it cannot
//! hold. An agent acting on the state sees the view it was sent, so it acts as
//! it would on the real game.
//!
//! One mechanism for every game played in deals ([`Series`]), in the manner of
//! [`crate::series`]: [`position`] reads what every view holds (the game, its
//! rules, the seat, the game totals) and builds the state; each game reads its
//! deal with [`ViewGame`]; `deal_into` deals the hidden dominoes for both.

use crate::domino::{Domino, DominoSet};
use crate::game::{Episode, Game};
use crate::series::{DealGame, Series};
use serde_json::{Map, Value};

/// Why a view cannot be played from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad view: {0}")]
pub struct ViewError(pub String);

/// `Err(ViewError(msg))`.
pub(crate) fn bad<T>(msg: impl Into<String>) -> Result<T, ViewError> {
    Err(ViewError(msg.into()))
}

/// A game whose seat views can be played from: what it reads of a view beyond
/// the keys every view holds.
pub trait ViewGame: DealGame + Game<State = Series<Self>> {
    /// The game's registry name (the view's `game`).
    const NAME: &'static str;
    /// Every key a view of this game may hold.
    const KEYS: &'static [&'static str];
    /// What one deal is called (`hand`, `round`).
    const DEAL: &'static str;
    /// The game under the view's `rules` (and, for Doubles, `players`).
    fn game_of(view: &ViewFields) -> Result<Self, ViewError>;
    /// The deal in progress, the hidden dominoes dealt to fit the view of
    /// `seat`, and the deals finished before it in the game.
    fn deal_of(&self, view: &ViewFields, seat: usize) -> Result<(Self::Deal, u32), ViewError>;
}

/// The game and a state of it whose view for the view's `seat` is `view` (a
/// view object of the game `G`), and that seat.
pub fn position<G: ViewGame>(view: &Map<String, Value>) -> Result<(G, Series<G>, usize), ViewError> {
    if let Some(k) = view.keys().find(|k| !G::KEYS.contains(&k.as_str())) {
        return bad(format!("unknown key `{k}` in a {} view: expected {}", G::NAME, G::KEYS.join(", ")));
    }
    if let Some(g) = view.get("game").filter(|g| g.as_str() != Some(G::NAME)) {
        return bad(format!("bad `game` {g}: expected \"{}\"", G::NAME));
    }
    let fields = ViewFields(view);
    let game = G::game_of(&fields)?;
    let seat = fields.small("seat", game.num_players() as u64 - 1)? as usize;
    let sides = game.num_sides();
    let mut totals = [0u32; 4];
    if let Some(v) = fields.given("totals") {
        match v.as_array().map(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>()) {
            Some(Some(t)) if t.len() == sides && t.iter().all(|&x| x < u64::from(u32::MAX)) => {
                for (total, x) in totals.iter_mut().zip(t) {
                    *total = x as u32;
                }
            }
            _ => return bad(format!("bad `totals` {v}: expected the {sides} game totals, one per side")),
        }
    }
    let (deal, deals_played) = game.deal_of(&fields, seat)?;
    if G::is_over(&deal) {
        return bad(format!("the {} is over: there is nothing to play", G::DEAL));
    }
    let episode = if totals == [0; 4] && deals_played == 0 { Episode::Hand } else { Episode::Game };
    let state = Series::new(game, deal, episode, crate::deal::rng_for_seed(0)).with_score(totals, deals_played);
    Ok((game, state, seat))
}

/// The keys of a view object, read with messages that name the key.
pub struct ViewFields<'a>(&'a Map<String, Value>);

impl ViewFields<'_> {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    /// The value of `key`, absent when missing or `null`.
    pub fn given(&self, key: &str) -> Option<&Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    /// A number `0..=max` (required).
    pub fn small(&self, key: &str, max: u64) -> Result<u64, ViewError> {
        match self.0.get(key) {
            Some(v) => small(v, max).ok_or_else(|| ViewError(format!("bad `{key}` {v}: expected 0..={max}"))),
            None => bad(format!("missing `{key}`")),
        }
    }

    /// A list of distinct dominoes by name (required).
    pub fn dominoes(&self, key: &str) -> Result<DominoSet, ViewError> {
        let Some(Value::Array(xs)) = self.0.get(key) else {
            return bad(format!("missing or bad `{key}`: expected a list of domino names such as \"6-4\""));
        };
        let mut set = DominoSet::EMPTY;
        for x in xs {
            let d = domino(x)
                .ok_or_else(|| ViewError(format!("bad domino {x} in `{key}`: expected a name such as \"6-4\"")))?;
            if set.contains(d) {
                return bad(format!("`{key}` holds {d} twice"));
            }
            set.insert(d);
        }
        Ok(set)
    }

    /// A list of `len` numbers `0..=max`, one per seat (absent: all 0).
    pub fn per_seat(&self, key: &str, len: usize, max: u64) -> Result<Vec<u64>, ViewError> {
        let Some(v) = self.given(key) else { return Ok(vec![0; len]) };
        match v.as_array().map(|a| a.iter().map(|x| small(x, max)).collect::<Option<Vec<u64>>>()) {
            Some(Some(xs)) if xs.len() == len => Ok(xs),
            _ => bad(format!("bad `{key}` {v}: expected {len} numbers 0..={max}, one per seat")),
        }
    }

    /// The list of `key` (absent: empty).
    pub fn list(&self, key: &str, expected: &str) -> Result<&[Value], ViewError> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(xs)) => Ok(xs),
            Some(v) => bad(format!("bad `{key}` {v}: expected {expected}")),
        }
    }
}

/// A number `0..=max`.
fn small(v: &Value, max: u64) -> Option<u64> {
    v.as_u64().filter(|&x| x <= max)
}

/// A domino by name.
pub(crate) fn domino(v: &Value) -> Option<Domino> {
    v.as_str().and_then(|s| s.parse().ok())
}

/// Deals `dominoes`, in this order, into `slots` (each names the holder whose
/// domino it will be), each to a slot whose holder `may_hold` it: a free slot
/// when one is allowed (the earliest, so that nothing placed moves without
/// need), else one freed along an augmenting path (Kuhn's matching). The
/// domino of each slot, or `None` when no such deal exists.
pub(crate) fn deal_into(
    dominoes: &[Domino],
    slots: &[usize],
    may_hold: &dyn Fn(usize, Domino) -> bool,
) -> Option<Vec<Domino>> {
    if dominoes.len() != slots.len() {
        return None;
    }
    let fits = |k: usize, i: usize| may_hold(slots[k], dominoes[i]);
    let mut holder: Vec<Option<usize>> = vec![None; slots.len()];
    for i in 0..dominoes.len() {
        let mut seen = vec![false; slots.len()];
        if !augment(i, &fits, &mut holder, &mut seen) {
            return None;
        }
    }
    holder.iter().map(|h| h.map(|i| dominoes[i])).collect()
}

/// Finds domino `i` a slot (a free one first), moving the dominoes in the way
/// along an augmenting path; false when there is none.
fn augment(i: usize, fits: &dyn Fn(usize, usize) -> bool, holder: &mut [Option<usize>], seen: &mut [bool]) -> bool {
    if let Some(k) = (0..holder.len()).find(|&k| holder[k].is_none() && fits(k, i)) {
        holder[k] = Some(i);
        return true;
    }
    for k in 0..holder.len() {
        if seen[k] || !fits(k, i) {
            continue;
        }
        seen[k] = true;
        if holder[k].is_none_or(|j| augment(j, fits, holder, seen)) {
            holder[k] = Some(i);
            return true;
        }
    }
    false
}
