//! A full Texas 42 state consistent with a seat-view request (the inverse of
//! [`crate::seat_request`]): what `bones serve` plays a `view` request from.
//!
//! The request holds the seat's dealt dominoes and the public actions; the
//! other hands are unknown. [`texas42_position`] finds a deal that the actions
//! replay on: each domino another seat plays is given to it, the rest of the
//! unseen dominoes are shared out so that no seat holds a domino it showed it
//! did not hold (a suit it did not follow, a domino closer to seven under
//! Sevens), and doubles go to a Plunge or Splash bidder. It learns those facts
//! by replaying with the rules engine and repairing the deal where a replay
//! stops, so it needs no copy of the rules. The seat's view of the state found is
//! the view the request was written from (a seat's view holds only its own
//! dominoes and the public record), so an agent acting on it acts as it would
//! on the real game.

use bones_env::texas42::{Hand, PLAY};
use bones_env::{Action, Domino, DominoSet, Episode, Game, Texas42, Texas42Rules, Texas42State};
use serde_json::{Map, Value};

/// Repairs tried before a request is declared inconsistent (each learns one fact).
const MAX_REPAIRS: usize = 400;

/// Why a view request cannot be played from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad view: {0}")]
pub struct ViewError(pub String);

fn bad<T>(msg: impl Into<String>) -> Result<T, ViewError> {
    Err(ViewError(msg.into()))
}

/// The game and a state of it whose view for the request's seat is the
/// request's `view` (a Texas 42 view object, docs/interfaces.md "Seat views").
pub fn texas42_position(view: &Map<String, Value>) -> Result<(Texas42, Texas42State, usize), ViewError> {
    const KEYS: [&str; 10] =
        ["game", "rules", "seat", "dealer", "hand", "dealt", "actions", "totals", "hands_played", "legal"];
    if let Some(k) = view.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return bad(format!("unknown key `{k}` in a texas42 view: expected {}", KEYS.join(", ")));
    }
    let rules = match view.get("rules") {
        None | Some(Value::Null) => Texas42Rules::STANDARD,
        Some(v) => Texas42Rules::from_json(v).map_err(|e| ViewError(format!("bad `rules`: {e}")))?,
    };
    let game = Texas42::new(rules);
    let small = |key: &str, max: u64| -> Result<u64, ViewError> {
        match view.get(key) {
            Some(v) => v
                .as_u64()
                .filter(|&x| x <= max)
                .ok_or_else(|| ViewError(format!("bad `{key}` {v}: expected 0..={max}"))),
            None => bad(format!("missing `{key}`")),
        }
    };
    let seat = small("seat", 3)? as usize;
    let dealer = small("dealer", 3)? as u8;
    let dealt = dominoes(view.get("dealt"), "dealt")?;
    if dealt.len() != 7 {
        return bad(format!("`dealt` must hold the 7 dominoes the seat was dealt, got {}", dealt.len()));
    }
    let held = match view.get("hand") {
        None => None,
        Some(v) => Some(dominoes(Some(v), "hand")?),
    };
    let actions: Vec<Action> = match view.get("actions") {
        Some(Value::Array(xs)) => xs
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let name = x.as_str().ok_or_else(|| ViewError(format!("action {i} is not a string: {x}")))?;
                game.parse_action(name).map_err(|e| ViewError(format!("action {i}: {e}")))
            })
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
        Some(v) => return bad(format!("bad `actions` {v}: expected a list of action names")),
    };
    let totals = match view.get("totals") {
        None | Some(Value::Null) => [0, 0],
        Some(v) => match v.as_array().map(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>()) {
            Some(Some(t)) if t.len() == 2 && t.iter().all(|&x| x < u64::from(u32::MAX)) => [t[0] as u32, t[1] as u32],
            _ => return bad(format!("bad `totals` {v}: expected [team 0, team 1]")),
        },
    };
    let hands_played = match view.get("hands_played") {
        None | Some(Value::Null) => 0,
        Some(_) => small("hands_played", u64::from(u32::MAX))? as u32,
    };
    let hand = find_deal(rules, dealer, seat, dealt, &actions)?;
    if let Some(h) = held {
        if h != hand.hands[seat] {
            return bad("`hand` is not `dealt` less the seat's plays in `actions`");
        }
    }
    if hand.is_done() {
        return bad("the hand is over: there is nothing to play");
    }
    let episode = if totals == [0, 0] && hands_played == 0 { Episode::Hand } else { Episode::Game };
    let state =
        game.from_seed(dealer, 0, episode).with_hand(hand).with_score([totals[0], totals[1], 0, 0], hands_played);
    Ok((game, state, seat))
}

fn dominoes(v: Option<&Value>, key: &str) -> Result<DominoSet, ViewError> {
    let Some(Value::Array(xs)) = v else {
        return bad(format!("missing or bad `{key}`: expected a list of domino names such as \"6-4\""));
    };
    let mut set = DominoSet::EMPTY;
    for x in xs {
        let d: Domino = x
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| ViewError(format!("bad domino {x} in `{key}`: expected a name such as \"6-4\"")))?;
        if set.contains(d) {
            return bad(format!("`{key}` holds {d} twice"));
        }
        set.insert(d);
    }
    Ok(set)
}

/// What the replays have taught about the other seats' hands.
struct Facts {
    /// Dominoes each seat was dealt for sure (it played them).
    has: [DominoSet; 4],
    /// Dominoes each seat cannot have been dealt.
    not: [DominoSet; 4],
    /// Doubles each seat must have been dealt at least.
    doubles: [usize; 4],
}

/// A hand dealt so that `actions` replay on it, with `seat` dealt `dealt`.
fn find_deal(
    rules: Texas42Rules,
    dealer: u8,
    seat: usize,
    dealt: DominoSet,
    actions: &[Action],
) -> Result<Hand, ViewError> {
    let mut facts = Facts { has: [DominoSet::EMPTY; 4], not: [DominoSet::EMPTY; 4], doubles: [0; 4] };
    facts.has[seat] = dealt;
    for _ in 0..MAX_REPAIRS {
        let Some(deal) = share_out(seat, &facts) else {
            return bad("no deal of the other hands fits the actions (they contradict each other)");
        };
        let mut hand = Hand::new(rules, dealer, deal);
        let mut learned = false;
        for (i, &a) in actions.iter().enumerate() {
            if hand.is_done() {
                return bad(format!("action {i}: the hand is already over"));
            }
            let mover = hand.to_move as usize;
            if (PLAY..PLAY + 28).contains(&a) {
                let d = Domino::from_index(a - PLAY);
                if !hand.hands[mover].contains(d) {
                    if mover == seat
                        || (0..4).any(|s| s != mover && facts.has[s].contains(d))
                        || facts.not[mover].contains(d)
                    {
                        return bad(format!("action {i} `{d}`: seat {mover} cannot hold {d}"));
                    }
                    facts.has[mover].insert(d);
                    learned = true;
                    break;
                }
            }
            if hand.apply(a).is_ok() {
                continue;
            }
            if mover == seat {
                return bad(format!(
                    "action {i}: the seat's own action `{}` is not legal",
                    Texas42::new(rules).action_name(a)
                ));
            }
            if (PLAY..PLAY + 28).contains(&a) {
                // It played against the rules for the hand guessed: the dominoes it
                // should have played instead were not in its hand.
                let forced: DominoSet =
                    hand.legal_mask().iter().filter(|&x| x < PLAY + 28).map(|x| Domino::from_index(x - PLAY)).collect();
                let wrong = forced - facts.has[mover];
                if wrong.is_empty() {
                    return bad(format!("action {i}: seat {mover} could not have played that"));
                }
                facts.not[mover] |= wrong;
            } else if facts.doubles[mover] < 4 {
                // A bid its hand does not allow: Plunge and Splash need doubles.
                facts.doubles[mover] += 1;
            } else {
                return bad(format!("action {i}: `{}` is not legal there", Texas42::new(rules).action_name(a)));
            }
            learned = true;
            break;
        }
        if !learned {
            return Ok(hand);
        }
    }
    bad("no deal of the other hands fits the actions")
}

/// A deal with what `facts` require: each other seat's known dominoes, then
/// the unseen ones shared out (doubles first to seats that need them) so that
/// no seat gets one it cannot hold. `None` when they cannot be shared out.
fn share_out(seat: usize, facts: &Facts) -> Option<[DominoSet; 4]> {
    let mut deal = facts.has;
    let known = deal.iter().fold(DominoSet::EMPTY, |a, &h| a | h);
    if known.len() != deal.iter().map(|h| h.len()).sum::<usize>() || deal.iter().any(|h| h.len() > 7) {
        return None;
    }
    // A Plunge or Splash bidder's doubles are given first, and kept.
    let mut known = known;
    for s in (0..4).filter(|&s| s != seat) {
        for d in (DominoSet::DOUBLES - known - facts.not[s]).iter() {
            if (deal[s] & DominoSet::DOUBLES).len() >= facts.doubles[s] || deal[s].len() >= 7 {
                break;
            }
            deal[s].insert(d);
            known.insert(d);
        }
    }
    let rest: Vec<Domino> = (DominoSet::FULL - known).iter().collect();
    // One slot per domino a seat still takes; dominoes matched to slots by
    // augmenting paths (Kuhn), doubles first, into the seats that need them first.
    let mut slots: Vec<usize> = Vec::new();
    let mut by_need: Vec<usize> = (0..4).filter(|&s| s != seat).collect();
    by_need.sort_by_key(|&s| std::cmp::Reverse(facts.doubles[s]));
    for &s in &by_need {
        slots.extend(std::iter::repeat_n(s, 7usize.checked_sub(deal[s].len())?));
    }
    if slots.len() != rest.len() {
        return None;
    }
    let mut order: Vec<usize> = (0..rest.len()).collect();
    order.sort_by_key(|&i| !rest[i].is_double());
    let mut holder: Vec<Option<usize>> = vec![None; slots.len()];
    for &i in &order {
        let mut seen = vec![false; slots.len()];
        if !augment(i, &rest, &slots, facts, &mut holder, &mut seen) {
            return None;
        }
    }
    for (k, h) in holder.iter().enumerate() {
        deal[slots[k]].insert(rest[(*h)?]);
    }
    for &s in &by_need {
        if deal[s].len() != 7 || (deal[s] & DominoSet::DOUBLES).len() < facts.doubles[s] {
            return None;
        }
    }
    Some(deal)
}

/// Finds domino `i` a slot, moving the dominoes in the way along an
/// augmenting path; false when there is none.
fn augment(
    i: usize,
    rest: &[Domino],
    slots: &[usize],
    facts: &Facts,
    holder: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    // A free slot first (the earliest: the seats that need doubles), so that
    // nothing placed moves without need.
    if let Some(k) = (0..slots.len()).find(|&k| holder[k].is_none() && !facts.not[slots[k]].contains(rest[i])) {
        holder[k] = Some(i);
        return true;
    }
    for k in 0..slots.len() {
        if seen[k] || facts.not[slots[k]].contains(rest[i]) {
            continue;
        }
        seen[k] = true;
        if holder[k].is_none_or(|j| augment(j, rest, slots, facts, holder, seen)) {
            holder[k] = Some(i);
            return true;
        }
    }
    false
}
