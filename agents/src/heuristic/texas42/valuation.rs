//! The hand valuation the Texas 42 `heuristic` bids and declares from.
//!
//! For each possible trump (the seven pip suits, `doubles`, and `follow-me` as
//! "no trump") the hand is valued as a club player would count it:
//! - **trump length** `n` and **top trumps** `k` (how many trumps it holds from the
//!   top of the suit down without a gap: the double, then the highest others);
//! - **off doubles** (a double of a non-trump suit is the top of its suit) and
//!   **walkers** (an off domino with every higher domino of its suit in hand);
//! - **losers**: the other off dominoes;
//! - **count held** (5-5, 6-4 worth 10; 5-0, 4-1, 3-2 worth 5) and whether it sits
//!   on a winner (kept) or a loser (likely lost).
//!
//! Estimated tricks: each top trump 1, each other trump 0.6 with five or more
//! trumps, 0.5 with four, 0.35 with three, 0.15 below; each off double or walker 0.8
//! with trump control (three or more trumps, or two top ones) else 0.5; plus 0.6
//! of a trick from partner. Estimated points = tricks + the count on our likely
//! winners + the others' count in proportion to our share of the tricks (see
//! [`valuation`]). The best trump is the one with the highest estimate.

use bones_env::texas42::actions::{DOUBLES, FOLLOW_ME, TRUMP_BLANKS};
use bones_env::texas42::{sevens_distance, SuitTable, TABLES};
use bones_env::{Action, Domino, DominoSet, NelloDoubles};

/// A hand's valuation for one trump choice.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Valuation {
    /// 0..6 a pip suit, 7 doubles, 8 follow-me (no trump).
    pub trump: usize,
    /// Trumps held.
    pub trumps: u32,
    /// Top trumps held (from the top of the suit, no gap).
    pub top: u32,
    /// Off-suit doubles held.
    pub off_doubles: u32,
    /// Off-suit non-doubles with every higher domino of their suit in hand.
    pub walkers: u32,
    /// Other off-suit dominoes.
    pub losers: u32,
    /// Estimated tricks for the team (partner's share included).
    pub tricks: f32,
    /// Estimated points for the team.
    pub points: f32,
    /// All seven tricks look certain.
    pub laydown: bool,
}

/// The declaration action of a trump index (0..6, 7 doubles, 8 follow-me).
#[inline]
pub fn declaration_of(trump: usize) -> Action {
    match trump {
        0..=6 => TRUMP_BLANKS + trump,
        7 => DOUBLES,
        _ => FOLLOW_ME,
    }
}

/// The suit table of a trump index (0..6, 7 doubles, 8 follow-me).
#[inline]
fn table_of(trump: usize) -> &'static SuitTable {
    &TABLES[trump.min(8)]
}

/// The trumps of a trump index.
#[inline]
fn trump_set(trump: usize) -> DominoSet {
    match trump {
        0..=6 => DominoSet::with_pip(trump as u8),
        7 => DominoSet::DOUBLES,
        _ => DominoSet::EMPTY,
    }
}

/// Members of the `led` suit above `d` (by the table's power).
#[inline]
pub(super) fn higher_in_suit(t: &SuitTable, led: usize, d: Domino) -> DominoSet {
    let p = t.power[led][d.index()];
    let mut s = DominoSet::EMPTY;
    for x in t.members[led] {
        if t.power[led][x.index()] > p {
            s.insert(x);
        }
    }
    s
}

/// Partner's expected share of tricks, added to every estimate.
const PARTNER_TRICKS: f32 = 0.6;

/// Values `hand` with `trump` (0..6, 7 doubles, 8 follow-me) as the bidder who
/// leads first.
pub fn valuation(hand: DominoSet, trump: usize) -> Valuation {
    let t = table_of(trump);
    let trumps = trump_set(trump);
    let mine = hand & trumps;
    let n = mine.len() as u32;
    // Top trumps: walk the suit from the top while held.
    let mut top = 0u32;
    if trump < 8 {
        let mut order: Vec<Domino> = trumps.iter().collect();
        order.sort_by_key(|d| std::cmp::Reverse(t.power[trump][d.index()]));
        for d in order {
            if hand.contains(d) {
                top += 1;
            } else {
                break;
            }
        }
    }
    let control = n >= 3 || top >= 2 || trump == 8;
    let other_trump = match n {
        0..=2 => 0.15,
        3 => 0.35,
        4 => 0.5,
        _ => 0.6,
    };
    let side = if control { 0.8 } else { 0.5 };
    let mut tricks = 0.0f32;
    let mut count_est = 0.0f32;
    let (mut off_doubles, mut walkers, mut losers) = (0, 0, 0);
    let top_set: DominoSet = {
        let mut s = DominoSet::EMPTY;
        if trump < 8 {
            for d in mine {
                if (higher_in_suit(t, trump, d) - hand).is_empty() {
                    s.insert(d);
                }
            }
        }
        s
    };
    for d in hand {
        let c = d.count() as f32;
        let p = if trumps.contains(d) {
            if top_set.contains(d) {
                1.0
            } else {
                other_trump
            }
        } else {
            let led = t.lead_suit[d.index()] as usize;
            if (higher_in_suit(t, led, d) - hand).is_empty() {
                if d.is_double() {
                    off_doubles += 1;
                } else {
                    walkers += 1;
                }
                side
            } else {
                losers += 1;
                0.0
            }
        };
        tricks += p;
        // Count on a loser is usually lost, though partner may win it.
        count_est += c * p.max(0.2);
    }
    let team_tricks = (tricks + PARTNER_TRICKS).min(7.0);
    let my_count: u32 = hand.iter().map(|d| d.count() as u32).sum();
    let points = team_tricks + count_est + (35 - my_count) as f32 * team_tricks / 7.0 * 0.85;
    let laydown = trump < 8 && losers == 0 && top == n && (top + n >= 7 || n >= 3);
    Valuation { trump, trumps: n, top, off_doubles, walkers, losers, tricks, points, laydown }
}

/// The best valuation of a hand among the pip suits, doubles and follow-me.
pub fn best_valuation(hand: DominoSet) -> Valuation {
    let mut best = valuation(hand, 0);
    for trump in 1..=8 {
        let v = valuation(hand, trump);
        // Follow-me only when clearly better (it gives up trump control).
        let bonus = if trump == 8 { -1.5 } else { 0.0 };
        let key = |v: &Valuation| (v.laydown as u8 as f32) * 100.0 + v.points;
        if key(&v) + bonus > key(&best) {
            best = v;
        }
    }
    best
}

/// A hand for Nel-O: low dominoes that others must beat (ranks as
/// `nello_doubles` says). In every suit, the `i`-th lowest domino the hand holds
/// may have at most `i` unseen dominoes below it (the others cannot duck under
/// the hand more often than it can duck under them), and every domino must have
/// an unseen domino above it in the suit it calls when led.
pub fn nello_hand(hand: DominoSet, doubles: NelloDoubles) -> bool {
    let t = nello_table(doubles);
    let unseen = DominoSet::FULL - hand;
    let mut exposed = 0;
    for s in 0..8 {
        let mut mine: Vec<Domino> = (t.members[s] & hand).iter().collect();
        mine.sort_by_key(|d| t.power[s][d.index()]);
        for (i, d) in mine.iter().enumerate() {
            let (lower, _) = suit_exposure(t, s, *d, unseen);
            if lower > i + 1 {
                return false;
            }
            if lower > i {
                exposed += 1;
            }
        }
    }
    if exposed > 3 {
        return false;
    }
    hand.iter().all(|d| nello_exposure(t, d, unseen).1 >= 1)
}

/// Unseen dominoes of `d`'s suit (the suit it calls when led) below and above it.
pub(super) fn nello_exposure(t: &SuitTable, d: Domino, unseen: DominoSet) -> (usize, usize) {
    suit_exposure(t, t.lead_suit[d.index()] as usize, d, unseen)
}

/// Unseen dominoes of suit `s` below and above `d`.
fn suit_exposure(t: &SuitTable, s: usize, d: Domino, unseen: DominoSet) -> (usize, usize) {
    let p = t.power[s][d.index()];
    let mut lower = 0;
    let mut higher = 0;
    for x in t.members[s] & unseen {
        if t.power[s][x.index()] < p {
            lower += 1;
        } else if t.power[s][x.index()] > p {
            higher += 1;
        }
    }
    (lower, higher)
}

/// The suit table of Nel-O under a `nello_doubles` option.
fn nello_table(doubles: NelloDoubles) -> &'static SuitTable {
    &TABLES[match doubles {
        NelloDoubles::OwnSuit => 9,
        NelloDoubles::High => 10,
        NelloDoubles::Low => 11,
    }]
}

/// A hand for Sevens: every domino close to 7 pips.
pub fn sevens_hand(hand: DominoSet) -> bool {
    let dist: Vec<u8> = hand.iter().map(sevens_distance).collect();
    let max = dist.iter().copied().max().unwrap_or(9);
    let zeros = dist.iter().filter(|&&d| d == 0).count();
    let near = dist.iter().filter(|&&d| d <= 1).count();
    max <= 1 || (max <= 2 && zeros >= 1 && near >= 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> DominoSet {
        s.split_whitespace().map(|x| x.parse::<Domino>().unwrap()).collect()
    }

    #[test]
    fn valuation_counts_trumps_tops_and_losers() {
        let h = set("6-6 6-5 6-4 6-2 5-5 3-1 2-0");
        let v = valuation(h, 6);
        assert_eq!((v.trumps, v.top, v.off_doubles, v.walkers, v.losers), (4, 3, 1, 0, 2));
        assert!(!v.laydown);
        assert_eq!(best_valuation(h).trump, 6);
        let lay = set("6-6 6-5 6-4 6-3 6-2 5-5 4-4");
        let v = valuation(lay, 6);
        assert!(v.laydown, "{v:?}");
        let weak = set("6-1 5-3 4-2 3-1 2-0 1-0 4-0");
        assert!(best_valuation(weak).points < 30.0, "{:?}", best_valuation(weak));
    }

    #[test]
    fn special_hands() {
        assert!(nello_hand(set("1-0 2-0 2-1 3-0 3-1 4-0 1-1"), NelloDoubles::OwnSuit));
        assert!(!nello_hand(set("6-6 2-0 2-1 3-0 3-1 4-0 1-1"), NelloDoubles::OwnSuit));
        assert!(sevens_hand(set("6-1 5-2 4-3 6-0 5-1 4-2 3-3")));
        assert!(!sevens_hand(set("6-6 5-2 4-3 6-0 5-1 4-2 3-3")));
    }
}
