//! A Doubles round from the view of the seat to move ([`crate::position`]).
//!
//! The view holds the seat's hand (with the domino it has just drawn), the
//! placements in order with who made them, the hand sizes, the boneyard's size,
//! each seat's draws and passes and what they revealed (numbers it holds none
//! of, doubles it does not hold), and the opener. The board is rebuilt from the
//! placements; the unseen dominoes are dealt to the other hands so that none
//! holds what its draws and passes showed it lacks, nor (having never drawn) a
//! double higher than the opening one, and the rest make the boneyard (in
//! ascending order: its order is hidden). [`DoublesView::world`] builds the round.

use super::actions::{decode, parse_doubles, Move};
use super::board::Board;
use super::game::Doubles;
use super::play::{Round, MAX_BONEYARD, NO_SEAT};
use super::view::DoublesView;
use crate::action::ActionMask;
use crate::domino::{Domino, DominoSet};
use crate::position::{bad, deal_into, domino, ViewError, ViewFields, ViewGame};
use crate::rules::DoublesRules;
use serde_json::Value;

/// The boneyard's place among the holders of [`deal_into`] (seats are 0..4).
const BONEYARD: usize = 4;

impl ViewGame for Doubles {
    const NAME: &'static str = "doubles";
    const KEYS: &'static [&'static str] = &[
        "game",
        "rules",
        "seat",
        "players",
        "opener",
        "hand",
        "drawn",
        "plays",
        "hand_sizes",
        "boneyard",
        "draws",
        "passes",
        "void",
        "no_double",
        "totals",
        "legal",
    ];
    const DEAL: &'static str = "round";

    fn game_of(view: &ViewFields) -> Result<Doubles, ViewError> {
        let mut rules = match view.given("rules") {
            None => DoublesRules::default(),
            Some(v) => DoublesRules::from_json(v).map_err(|e| ViewError(format!("bad `rules`: {e}")))?,
        };
        if let Some(p) = view.given("players") {
            match p.as_u64() {
                Some(n) if view.given("rules").is_none() && (2..=4).contains(&n) => rules.players = n as u8,
                Some(n) if n == u64::from(rules.players) => {}
                _ => return bad(format!("bad `players` {p}: expected {} (the rules')", rules.players)),
            }
        }
        Ok(Doubles::new(rules))
    }

    fn deal_of(&self, view: &ViewFields, seat: usize) -> Result<(Round, u32), ViewError> {
        let n = self.rules.players as usize;
        let per_seat = |key: &str, max: u64| -> Result<[u8; 4], ViewError> {
            let mut out = [0u8; 4];
            for (o, x) in out.iter_mut().zip(view.per_seat(key, n, max)?) {
                *o = x as u8;
            }
            Ok(out)
        };
        let numbers = |key: &str| -> Result<[u8; 4], ViewError> {
            let lists = view.list(key, "one list of numbers 0..=6 per seat")?;
            if lists.len() != n {
                return bad(format!("bad `{key}`: expected {n} lists of numbers 0..=6, one per seat"));
            }
            let mut out = [0u8; 4];
            for (bits, list) in out.iter_mut().zip(lists) {
                for x in
                    list.as_array().ok_or_else(|| ViewError(format!("bad `{key}` entry {list}: expected a list")))?
                {
                    match x.as_u64() {
                        Some(k @ 0..=6) => *bits |= 1 << k,
                        _ => return bad(format!("bad `{key}` entry {list}: expected numbers 0..=6")),
                    }
                }
            }
            Ok(out)
        };
        let hand = view.dominoes("hand")?;
        let drawn = match view.given("drawn") {
            None => None,
            Some(v) => match domino(v) {
                Some(d) if hand.contains(d) => Some(d),
                _ => return bad(format!("bad `drawn` {v}: expected the domino of `hand` the seat has just drawn")),
            },
        };
        let opener = view.small("opener", n as u64 - 1)? as u8;
        let mut v = DoublesView {
            seat: seat as u8,
            rules: self.rules,
            hand,
            drawn,
            just_drew: drawn.is_some(),
            to_move: Some(seat as u8),
            opener,
            board: Board::EMPTY,
            hand_sizes: per_seat("hand_sizes", 28)?,
            boneyard_len: view.small("boneyard", MAX_BONEYARD as u64)? as u8,
            played_by: [NO_SEAT; 28],
            play_index: [0; 28],
            attached_at: [NO_SEAT; 28],
            draws: per_seat("draws", 28)?,
            passes: per_seat("passes", u64::from(u8::MAX))?,
            void: numbers("void")?,
            no_double: numbers("no_double")?,
            end: None,
            scores: [0; 4],
            winner: None,
            legal: ActionMask::EMPTY,
            totals: [0; 4],
        };
        for (i, play) in view.list("plays", "a list of {\"seat\":s,\"action\":name} placements")?.iter().enumerate() {
            place(&mut v, i, play)?;
        }
        if v.hand_sizes[seat] as usize != hand.len() {
            return bad(format!(
                "`hand_sizes` gives seat {seat} {} dominoes, its `hand` {}",
                v.hand_sizes[seat],
                hand.len()
            ));
        }
        if !(v.board.placed & hand).is_empty() {
            return bad("`hand` holds a domino on the board");
        }
        if !v.board.is_open() && opener as usize != seat {
            return bad(format!("before the opening the opener (seat {opener}) is to move, not seat {seat}"));
        }
        let hidden_len: usize = (0..n).filter(|&s| s != seat).map(|s| v.hand_sizes[s] as usize).sum();
        if hidden_len + v.boneyard_len as usize != v.unseen().len() {
            return bad("the hand sizes, the boneyard and the plays do not add up to the 28 dominoes");
        }
        let round = hidden(&v).and_then(|(hands, boneyard)| v.world(hands, &boneyard)).ok_or_else(|| {
            ViewError("no deal of the unseen dominoes fits the draws, the passes and the opening".into())
        })?;
        Ok((round, 0))
    }
}

/// Puts the `i`-th placement of `plays` on the board of `v`.
fn place(v: &mut DoublesView, i: usize, play: &Value) -> Result<(), ViewError> {
    let n = v.rules.players;
    let expected = || format!("placement {i} {play}: expected {{\"seat\":s,\"action\":name}} with s below {n}");
    let (Some(seat), Some(name)) =
        (play.get("seat").and_then(Value::as_u64), play.get("action").and_then(Value::as_str))
    else {
        return bad(expected());
    };
    if seat >= u64::from(n) || play.as_object().is_some_and(|m| m.len() != 2) {
        return bad(expected());
    }
    let a = parse_doubles(name).map_err(|e| ViewError(format!("placement {i}: {e}")))?;
    let (d, end) = match decode(a) {
        Some(Move::Open(d)) if i == 0 && seat == u64::from(v.opener) => (d, NO_SEAT),
        Some(Move::Attach(d, e)) if i > 0 && v.board.can_attach(d, e) => (d, e),
        _ => return bad(format!("placement {i} `{name}` by seat {seat} does not fit the board (the opener opens)")),
    };
    if end == NO_SEAT {
        v.board.open_with(d.high());
    } else {
        v.board.attach(d, end);
    }
    v.played_by[d.index()] = seat as u8;
    v.play_index[d.index()] = i as u8;
    v.attached_at[d.index()] = end;
    Ok(())
}

/// The other seats' hands and the boneyard, dealt from the unseen dominoes to
/// fit what `v` shows (see the module docs).
fn hidden(v: &DoublesView) -> Option<([DominoSet; 4], Vec<Domino>)> {
    let opening = match v.board.placed.iter().find(|d| v.play_index[d.index()] == 0) {
        Some(d) => Some(d),
        None => (v.hand & DominoSet::DOUBLES).last(),
    };
    let higher: DominoSet =
        DominoSet::DOUBLES.iter().filter(|d| opening.is_some_and(|o| d.high() > o.high())).collect();
    let lacks: [DominoSet; 4] = std::array::from_fn(|s| {
        let numbers = |bits: u8| (0..7u8).filter(move |k| bits >> k & 1 != 0);
        let mut not = numbers(v.void[s]).fold(DominoSet::EMPTY, |acc, k| acc | DominoSet::with_pip(k));
        not |= numbers(v.no_double[s]).map(|k| Domino::new(k, k)).collect();
        if v.draws[s] == 0 {
            not |= higher;
        }
        not
    });
    let mut slots: Vec<usize> = Vec::new();
    for s in (0..v.players() as usize).filter(|&s| s != v.seat as usize) {
        slots.extend(std::iter::repeat_n(s, v.hand_sizes[s] as usize));
    }
    slots.extend(std::iter::repeat_n(BONEYARD, v.boneyard_len as usize));
    let unseen: Vec<Domino> = v.unseen().iter().collect();
    let dealt = deal_into(&unseen, &slots, &|s, d| s == BONEYARD || !lacks[s].contains(d))?;
    let mut hands = [DominoSet::EMPTY; 4];
    hands[v.seat as usize] = v.hand;
    let mut boneyard = Vec::new();
    for (&s, d) in slots.iter().zip(dealt) {
        if s == BONEYARD {
            boneyard.push(d);
        } else {
            hands[s].insert(d);
        }
    }
    boneyard.sort();
    Some((hands, boneyard))
}
