//! A Texas 42 hand from one seat's view ([`crate::position`]).
//!
//! The view holds the seat's dealt dominoes and the public actions; the other
//! hands are unknown. A deal that the actions replay on is found: each domino
//! another seat plays is given to it, the rest of the unseen dominoes are shared
//! out so that no seat holds a domino it showed it did not hold (a suit it did
//! not follow, a domino closer to seven under Sevens), and doubles go to a Plunge
//! or Splash bidder. Those facts are learned by replaying with the rules engine
//! and repairing the deal where a replay stops, so no copy of the rules is kept.

use super::actions::PLAY;
use super::game::Texas42;
use super::hand::Hand;
use crate::action::Action;
use crate::domino::{Domino, DominoSet};
use crate::game::Game;
use crate::position::{bad, deal_into, ViewError, ViewFields, ViewGame};
use crate::rules::Texas42Rules;

/// Repairs tried before a view is declared inconsistent (each learns one fact).
const MAX_REPAIRS: usize = 400;

impl ViewGame for Texas42 {
    const NAME: &'static str = "texas42";
    const KEYS: &'static [&'static str] =
        &["game", "rules", "seat", "dealer", "hand", "dealt", "actions", "totals", "hands_played", "legal"];
    const DEAL: &'static str = "hand";

    fn game_of(view: &ViewFields) -> Result<Texas42, ViewError> {
        match view.given("rules") {
            None => Ok(Texas42::new(Texas42Rules::STANDARD)),
            Some(v) => Texas42Rules::from_json(v).map(Texas42::new).map_err(|e| ViewError(format!("bad `rules`: {e}"))),
        }
    }

    fn deal_of(&self, view: &ViewFields, seat: usize) -> Result<(Hand, u32), ViewError> {
        let dealer = view.small("dealer", 3)? as u8;
        let dealt = view.dominoes("dealt")?;
        if dealt.len() != 7 {
            return bad(format!("`dealt` must hold the 7 dominoes the seat was dealt, got {}", dealt.len()));
        }
        let held = view.get("hand").map(|_| view.dominoes("hand")).transpose()?;
        let actions: Vec<Action> = view
            .list("actions", "a list of action names")?
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let name = x.as_str().ok_or_else(|| ViewError(format!("action {i} is not a string: {x}")))?;
                self.parse_action(name).map_err(|e| ViewError(format!("action {i}: {e}")))
            })
            .collect::<Result<_, _>>()?;
        let hands_played = match view.given("hands_played") {
            None => 0,
            Some(_) => view.small("hands_played", u64::from(u32::MAX))? as u32,
        };
        let hand = find_deal(self.rules, dealer, seat, dealt, &actions)?;
        if held.is_some_and(|h| h != hand.hands[seat]) {
            return bad("`hand` is not `dealt` less the seat's plays in `actions`");
        }
        Ok((hand, hands_played))
    }
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
    let name = |a: Action| Texas42::new(rules).action_name(a);
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
                return bad(format!("action {i}: the seat's own action `{}` is not legal", name(a)));
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
                return bad(format!("action {i}: `{}` is not legal there", name(a)));
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
    // One slot per domino a seat still takes, filled doubles first, into the
    // seats that need them first.
    let mut rest: Vec<Domino> = (DominoSet::FULL - known).iter().collect();
    rest.sort_by_key(|d| !d.is_double());
    let mut slots: Vec<usize> = Vec::new();
    let mut by_need: Vec<usize> = (0..4).filter(|&s| s != seat).collect();
    by_need.sort_by_key(|&s| std::cmp::Reverse(facts.doubles[s]));
    for &s in &by_need {
        slots.extend(std::iter::repeat_n(s, 7usize.checked_sub(deal[s].len())?));
    }
    let dealt = deal_into(&rest, &slots, &|s, d| !facts.not[s].contains(d))?;
    for (&s, d) in slots.iter().zip(dealt) {
        deal[s].insert(d);
    }
    for &s in &by_need {
        if deal[s].len() != 7 || (deal[s] & DominoSet::DOUBLES).len() < facts.doubles[s] {
            return None;
        }
    }
    Some(deal)
}
