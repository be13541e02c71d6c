//! The plain-text screens of `bones play`: the status shown at each of the
//! person's decisions (built from their seat's view only, so nothing hidden is
//! shown), one line per action as it happens, and the hand/round and game
//! summaries. Seats are named relative to the person (Texas 42: You, Left,
//! Partner, Right) or by number (Doubles: You, Seat 1, …).

//!
//! This file holds what both games share (the [`Screen`] trait and the input
//! helpers); [`texas42`] and [`doubles`] hold each game's screen.

pub(super) mod doubles;
pub(super) mod texas42;

use bones_env::{Action, ActionMask, Domino, DominoSet, Game};

/// What the game loop of `bones play` needs from a game's screen.
pub trait Screen {
    /// The game.
    type Game: Game;
    /// The game (rules, action names).
    fn game(&self) -> &Self::Game;
    /// The person's seat.
    fn human(&self) -> usize;
    /// A seat's name as the person sees it.
    fn seat_name(&self, seat: usize) -> String;
    /// The status before one of the person's decisions, ending with the legal moves.
    fn status(&self, s: &StateOf<Self>) -> String;
    /// The prompt (no newline).
    fn prompt(&self, s: &StateOf<Self>) -> &'static str;
    /// Lines telling what `seat` just did (`before` → `after` by action `a`),
    /// with a trick, hand or round summary when one ended.
    fn event(&self, before: &StateOf<Self>, after: &StateOf<Self>, seat: usize, a: Action) -> String;
    /// The closing summary: the game's result, or where it stopped.
    fn finished(&self, s: &StateOf<Self>) -> String;
    /// Reads the person's input (trimmed, lower case) as a legal action, or says why not.
    fn read(&self, s: &StateOf<Self>, text: &str) -> Result<Action, String>;
}

/// The state type of a screen's game.
pub type StateOf<S> = <<S as Screen>::Game as Game>::State;

/// The legal actions by canonical name: the plays (ids below `plays_end`) high
/// domino first, like the hand, then the others in id order.
pub fn legal_list<G: Game>(game: &G, legal: ActionMask, plays_end: Action) -> String {
    let mut ids: Vec<Action> = legal.iter().filter(|&a| a < plays_end).collect();
    ids.reverse();
    ids.extend(legal.iter().filter(|&a| a >= plays_end));
    ids.iter().map(|&a| game.action_name(a)).collect::<Vec<_>>().join(" ")
}

/// Input made safe to echo: printable characters only, and not too long.
pub fn shown(text: &str) -> String {
    let mut s: String = text.chars().take(24).map(|c| if c.is_control() { '?' } else { c }).collect();
    if text.chars().count() > 24 {
        s.push('…');
    }
    s
}

/// Parses `text` with the game's action names and checks it is legal now.
pub fn read_action<G: Game>(game: &G, legal: ActionMask, plays_end: Action, text: &str) -> Result<Action, String> {
    let names = legal_list(game, legal, plays_end);
    match game.parse_action(text) {
        Ok(a) if legal.contains(a) => Ok(a),
        Ok(_) => Err(format!("`{}` is not legal now; legal: {names}", shown(text))),
        Err(_)
            if looks_like_domino(text) && text.split('@').next().and_then(|d| d.parse::<Domino>().ok()).is_none() =>
        {
            Err(format!("`{}` is not a domino (pips run 0 to 6, like `6-4`); legal: {names}", shown(text)))
        }
        Err(_) => {
            Err(format!("`{}` is not a move; legal: {names} (`help` shows them again, `quit` stops)", shown(text)))
        }
    }
}

/// `N-M`, optionally `@E` (any digits): meant as a domino.
fn looks_like_domino(text: &str) -> bool {
    let dom = text.split('@').next().unwrap_or("");
    match dom.split_once('-') {
        Some((a, b)) => {
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Dominoes high first (`6-6 6-4 … 1-0`), or `none`.
fn dominoes(set: DominoSet) -> String {
    let mut v: Vec<String> = set.iter().map(|d| d.to_string()).collect();
    if v.is_empty() {
        return "none".into();
    }
    v.reverse();
    v.join(" ")
}

/// `You pass` / `Left passes`.
fn verb(who: &str, you: &str, other: &str) -> String {
    format!("{who} {}", if who == "You" { you } else { other })
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
