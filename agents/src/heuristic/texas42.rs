//! The `heuristic` Texas 42 player, [`Texas42Heuristic`], and the hand
//! valuation it bids and declares from.
//!
//! # Hand valuation
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
//!
//! # Bidding (each seat bids once)
//! - A **laydown** (no losers, all trumps are top trumps, and enough top trumps to
//!   pull the rest: `k + n >= 7`, or `n >= 3` with only off doubles and walkers
//!   besides) bids `2m` (or `1m` if `2m` is not legal).
//! - Otherwise the estimate sets the highest bid ([`Texas42Heuristic::max_bid`]):
//!   pass below 22, then up to 30 / 31 / 32 / 34 / 36 from estimates 22 / 27 / 29 /
//!   31 / 34, and `1m` from 36. These thresholds were calibrated on heuristic
//!   self-play (an estimate of 22 makes 30 about 57% of the time, 31 makes 34
//!   about 65%, 36 makes all seven tricks about 93%); moving them by a few points
//!   changes the result by less than 0.01 marks per hand.
//! - It bids the cheapest legal bid within its maximum (a single round, so the
//!   cheapest bid that wins the auction is the least risk; an opening bid with a
//!   maximum of 32 or more starts at 31), never overbids its partner unless it
//!   holds a laydown, and when forced (the shaker after three passes) bids 30.
//! - Variants, when enabled: **Plunge** (or, failing that, **Splash**) when the
//!   hand is a laydown with doubles as trump (the partner then names doubles and
//!   leads); **Sevens** (`1m`) when every domino is within one pip of 7, or within
//!   two with a 7-pip domino and four within one (made about 91% of the time in
//!   self-play); **Nel-O** (the smallest mark bid that allows it) with a hand of
//!   low dominoes ([`nello_hand`]: in every suit the hand's `i`-th lowest domino
//!   has at most `i` unseen dominoes below it, give or take one for at most three
//!   dominoes, and every domino has an unseen one above it in the suit it leads;
//!   made about 85% of the time at 2 marks in self-play).
//!
//! # Declaring
//! The trump with the best estimate among pip suits, doubles and follow-me; Nel-O
//! or Sevens when the bid was made for them (and legal). After a partner's
//! Plunge/Splash: doubles (the plunger holds them), unless this hand's own best
//! pip suit is a laydown.
//!
//! # Play
//! A domino is **safe** when no opponent still to play can beat it: no unseen
//! higher domino of the led suit in the hand of an opponent who has not shown out
//! of it, and no unseen trump with an opponent who has shown out of the led suit
//! (or is likely void because few of that suit are left).
//! - **Leading, bidding team**: while trumps are out, lead a safe (top) trump to
//!   pull them; the declarer with two or more trumps and no top one leads a low
//!   trump; otherwise lead a safe walker (count first); otherwise a low, countless
//!   loser.
//! - **Leading, defenders**: a safe walker without count, else a low loser.
//! - **Following**: if partner is winning and safe (or I play last), give count;
//!   if an opponent is winning, win with a safe winner (count first, then the
//!   cheapest); trump in (or play the highest winner) when the trick holds 10 or
//!   more count; otherwise play low: the domino that costs least (no count, not a
//!   trump, not a walker, lowest rank).
//! - **Nel-O**: the bidder leads the domino the others can least duck under
//!   (fewest unseen lower dominoes in its suit, then most unseen higher), and
//!   follows with the most exposed domino that still loses (or the lowest if every
//!   one wins); defenders duck under the bidder when they can and keep their low
//!   dominoes.
//! - **Sevens**: every legal domino is equally close to 7; the first is played.

use crate::agent::{Agent, AgentRng};
use bones_env::texas42::actions::{
    BID_1M, BID_30, DOUBLES, FOLLOW_ME, NEL_O, PASS, PLAY, PLUNGE, SEVENS, SPLASH, TRUMP_BLANKS,
};
use bones_env::texas42::{bid_value, is_mark_bid, sevens_distance, Phase, SuitTable, TABLES};
use bones_env::{Action, ActionMask, Domino, DominoSet, NelloDoubles, Texas42View};

// ---------------------------------------------------------------------------
// Valuation

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
fn higher_in_suit(t: &SuitTable, led: usize, d: Domino) -> DominoSet {
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
fn nello_exposure(t: &SuitTable, d: Domino, unseen: DominoSet) -> (usize, usize) {
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

// ---------------------------------------------------------------------------
// The agent

/// The `heuristic` Texas 42 player (rules in the module docs).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Texas42Heuristic {
    /// The point estimates ([`Valuation::points`]) from which the seat bids up
    /// to 30, 31, 32, 34 and 36 (calibrated on heuristic self-play).
    pub bid_at: [f32; 5],
    /// The estimate from which it bids up to `1m` (a laydown bids `2m`).
    pub mark_at: f32,
}

impl Default for Texas42Heuristic {
    fn default() -> Self {
        Texas42Heuristic { bid_at: [22.0, 27.0, 29.0, 31.0, 34.0], mark_at: 36.0 }
    }
}

impl Texas42Heuristic {
    /// The highest bid, in points, this estimate supports (below 30: pass).
    pub fn max_bid(&self, estimate: f32) -> u32 {
        let levels = [30, 31, 32, 34, 36];
        let mut max = 0;
        for (t, b) in self.bid_at.iter().zip(levels) {
            if estimate >= *t {
                max = b;
            }
        }
        if estimate >= self.mark_at {
            max = 42;
        }
        max
    }
}

impl Agent<Texas42View> for Texas42Heuristic {
    fn act(&mut self, v: &Texas42View, _rng: &mut AgentRng) -> Action {
        let a = match v.phase {
            Phase::Bidding => bid(self, v),
            Phase::Declaring => declare(v),
            _ => play(v),
        };
        debug_assert!(v.legal.contains(a), "heuristic chose an illegal action {a}");
        if v.legal.contains(a) {
            a
        } else {
            v.legal.iter().next().expect("a legal action")
        }
    }
}

/// The lowest legal bid (point or mark) with value in `lo..=hi` points.
fn cheapest_bid(legal: ActionMask, lo: u32, hi: u32) -> Option<Action> {
    legal
        .iter()
        .filter(|&a| (BID_30..=BID_1M + 6).contains(&a))
        .filter(|&a| (lo..=hi).contains(&bid_value(a)))
        .min_by_key(|&a| bid_value(a))
}

fn bid(me: &Texas42Heuristic, v: &Texas42View) -> Action {
    let legal = v.legal;
    let hand = v.hand;
    let best = best_valuation(hand);
    let partner_high = v.bidder == Some(v.partner());
    let variants = v.rules.variants;
    let doubles_laydown = valuation(hand, 7).laydown;
    let nothing_bid = v.high_bid == PASS;

    // Special bids first (each legal only when its variant is on and it may be made).
    if doubles_laydown && legal.contains(PLUNGE) {
        return PLUNGE;
    }
    if doubles_laydown && legal.contains(SPLASH) {
        return SPLASH;
    }
    if !partner_high {
        use bones_env::Variant;
        if variants.has(Variant::Sevens) && sevens_hand(hand) && !best.laydown {
            if let Some(a) = cheapest_bid(legal, 42, 42) {
                return a;
            }
        }
        if variants.has(Variant::NelO) && nello_hand(hand, v.rules.nello_doubles) && best.points < 30.0 {
            let min = 42 * v.rules.nello_min_marks.max(1) as u32;
            if let Some(a) = cheapest_bid(legal, min, min.max(84)) {
                return a;
            }
        }
    }
    if best.laydown && !(partner_high && v.high_bid >= BID_1M) {
        if let Some(a) = cheapest_bid(legal, 84, 84).or_else(|| cheapest_bid(legal, 42, 42)) {
            return a;
        }
    }
    if legal.contains(PASS) {
        if partner_high {
            return PASS;
        }
        let max = me.max_bid(best.points);
        if max < 30 {
            return PASS;
        }
        // Make the cheapest bid that wins the auction; open a little higher to
        // shut out weaker opponents when the hand is comfortably strong.
        let floor = if nothing_bid && (32..42).contains(&max) { 31 } else { 30 };
        return cheapest_bid(legal, floor, max).or_else(|| cheapest_bid(legal, 30, max)).unwrap_or(PASS);
    }
    // Forced to bid.
    cheapest_bid(legal, 30, 30).or_else(|| legal.iter().next()).expect("a legal bid")
}

fn declare(v: &Texas42View) -> Action {
    let legal = v.legal;
    let hand = v.hand;
    let best = best_valuation(hand);
    let bid = v.high_bid;
    // Partner plunged or splashed: name doubles unless our own hand is a laydown.
    if v.bidder != Some(v.seat) && matches!(bid, PLUNGE | SPLASH) {
        if best.laydown && legal.contains(declaration_of(best.trump)) {
            return declaration_of(best.trump);
        }
        return DOUBLES;
    }
    if is_mark_bid(bid) && !best.laydown {
        if legal.contains(SEVENS) && sevens_hand(hand) {
            return SEVENS;
        }
        if legal.contains(NEL_O) && nello_hand(hand, v.rules.nello_doubles) {
            return NEL_O;
        }
    }
    let a = declaration_of(best.trump);
    if legal.contains(a) {
        a
    } else {
        legal.iter().next().expect("a legal declaration")
    }
}

/// The dominoes of a legal mask.
#[inline]
fn plays_of(legal: ActionMask) -> DominoSet {
    DominoSet(((legal.0 >> PLAY) & ((1 << 28) - 1)) as u32)
}

/// Shared facts for one play decision.
struct PlayCtx<'a> {
    v: &'a Texas42View,
    t: &'static SuitTable,
    trumps: DominoSet,
    trump_suit: Option<usize>,
    unseen: DominoSet,
    voids: [u8; 4],
}

impl PlayCtx<'_> {
    /// Whether opponent `seat` might hold a domino that beats `power` on a trick
    /// where `led` was led.
    fn opponent_threat(&self, seat: u8, led: usize, power: u8) -> bool {
        let void = self.voids[seat as usize];
        let void_led = void & (1 << led) != 0;
        let led_left = (self.t.members[led] & self.unseen).len();
        for x in self.unseen {
            let p = self.t.power[led][x.index()];
            if p <= power {
                continue;
            }
            if self.t.members[led].contains(x) {
                if !void_led {
                    return true;
                }
            } else if let Some(ts) = self.trump_suit {
                // A trump: only from a seat out of the led suit.
                let void_trump = void & (1 << ts) != 0;
                if !void_trump && (void_led || led_left < 2) {
                    return true;
                }
            }
        }
        false
    }

    /// No opponent among `seats` can beat `power`.
    fn safe(&self, seats: &[u8], led: usize, power: u8) -> bool {
        seats.iter().filter(|&&s| s % 2 != self.v.seat % 2).all(|&s| !self.opponent_threat(s, led, power))
    }

    /// The cost of giving up `d` on a lost trick (lower is better to throw).
    fn discard_cost(&self, d: Domino) -> f32 {
        let led = self.t.lead_suit[d.index()] as usize;
        let mut c = d.count() as f32 * 3.0;
        if self.trumps.contains(d) {
            c += 20.0 + self.t.power[led][d.index()] as f32 * 0.5;
        }
        if (higher_in_suit(self.t, led, d) & self.unseen).is_empty() {
            c += 8.0; // a walker
        }
        if d.is_double() {
            c += 2.0;
        }
        c + d.pips() as f32 * 0.1
    }
}

fn play(v: &Texas42View) -> Action {
    let legal = plays_of(v.legal);
    let Some(t) = v.suit_table() else {
        // Sevens: every legal domino is as close to 7 as any other.
        return PLAY + legal.first().expect("a legal play").index();
    };
    let ctx =
        PlayCtx { v, t, trumps: v.trumps(), trump_suit: v.trump_suit(), unseen: v.unseen(), voids: v.known_voids() };
    let d = if v.is_nello() { play_nello(&ctx, legal) } else { play_trumps(&ctx, legal) };
    PLAY + d.index()
}

fn play_trumps(c: &PlayCtx, legal: DominoSet) -> Domino {
    let v = c.v;
    let t = c.t;
    let trick = v.current_trick().expect("a trick in progress");
    let pos = trick.len as usize;
    let size = v.trick_size();
    // Seats still to play after me.
    let mut after = Vec::with_capacity(3);
    let mut s = v.seat;
    for _ in pos + 1..size {
        s = v.next_in_play(s);
        after.push(s);
    }
    let others: Vec<u8> = (1..size as u8)
        .scan(v.seat, |s, _| {
            *s = v.next_in_play(*s);
            Some(*s)
        })
        .collect();
    let lowest = |set: DominoSet| set.iter().min_by(|a, b| c.discard_cost(*a).total_cmp(&c.discard_cost(*b)));
    let out_trumps = c.trumps & c.unseen;

    if pos == 0 {
        let lead_safe = |d: Domino| {
            let led = t.lead_suit[d.index()] as usize;
            c.safe(&others, led, t.power[led][d.index()])
        };
        let my_trumps = legal & c.trumps;
        if v.bidding_team() {
            if !out_trumps.is_empty() && !my_trumps.is_empty() {
                let boss = my_trumps
                    .iter()
                    .filter(|d| lead_safe(*d))
                    .max_by_key(|d| t.power[c.trump_suit.unwrap_or(8).min(7)][d.index()]);
                if let Some(d) = boss {
                    return d;
                }
                if v.declarer == Some(v.seat) && my_trumps.len() >= 2 {
                    if let Some(d) = lowest(my_trumps) {
                        return d;
                    }
                }
            }
            let walkers = (legal - c.trumps).iter().filter(|d| lead_safe(*d));
            if let Some(d) = walkers.max_by_key(|d| (d.count(), d.is_double(), d.pips())) {
                return d;
            }
            if out_trumps.is_empty() {
                // Trumps are gone: a remaining trump is a winner too.
                if let Some(d) = my_trumps.iter().max_by_key(|d| d.count()) {
                    if lead_safe(d) {
                        return d;
                    }
                }
            }
        } else {
            let walkers = (legal - c.trumps).iter().filter(|d| lead_safe(*d));
            if let Some(d) = walkers.min_by_key(|d| (d.count(), std::cmp::Reverse(d.is_double()))) {
                return d;
            }
            if let Some(d) = my_trumps.iter().filter(|d| lead_safe(*d)).max_by_key(|d| d.count()) {
                return d;
            }
        }
        return lowest(legal - c.trumps).or_else(|| lowest(legal)).expect("a legal play");
    }

    // Following.
    let played = trick.played();
    let led = t.lead_suit[played[0].index()] as usize;
    let power = &t.power[led];
    let best_i = v.winning_play(played);
    let best_power = power[played[best_i].index()];
    let winner = v.seat_of_play(v.trick as usize, best_i);
    let trick_count: u32 = played.iter().map(|d| d.count() as u32).sum();
    let winners: DominoSet = legal.iter().filter(|d| power[d.index()] > best_power).collect();
    let safe_winners: DominoSet = winners.iter().filter(|d| c.safe(&after, led, power[d.index()])).collect();
    let cheapest_win = |set: DominoSet| set.iter().max_by_key(|d| (d.count(), std::cmp::Reverse(power[d.index()])));

    if winner % 2 == v.seat % 2 {
        // Partner is winning.
        if c.safe(&after, led, best_power) {
            // Give count; otherwise throw the cheapest.
            let smear = legal.iter().filter(|d| d.count() > 0 && !c.trumps.contains(*d) || legal.len() == 1);
            if let Some(d) = smear.max_by_key(|d| d.count()) {
                return d;
            }
            // Count on a trump: only if it is not a top trump we need later.
            return lowest(legal).expect("a legal play");
        }
        if trick_count >= 5 {
            if let Some(d) = cheapest_win(safe_winners) {
                return d;
            }
        }
        return lowest(legal).expect("a legal play");
    }

    // An opponent is winning.
    if let Some(d) = cheapest_win(safe_winners) {
        return d;
    }
    let void_in_led = (legal & t.members[led]).is_empty();
    if !winners.is_empty() && (trick_count >= 10 || (void_in_led && trick_count >= 5)) {
        // Trump in on count with the highest winner we have.
        if let Some(d) = winners.iter().max_by_key(|d| power[d.index()]) {
            return d;
        }
    }
    lowest(legal).expect("a legal play")
}

fn play_nello(c: &PlayCtx, legal: DominoSet) -> Domino {
    let v = c.v;
    let t = c.t;
    let trick = v.current_trick().expect("a trick in progress");
    let bidder = v.bidder.expect("a bidder");
    let unseen_higher = |d: Domino| {
        let led = t.lead_suit[d.index()] as usize;
        (higher_in_suit(t, led, d) & c.unseen).len()
    };
    let rank = |d: Domino| {
        let led = t.lead_suit[d.index()] as usize;
        t.power[led][d.index()]
    };
    if trick.len == 0 {
        return if v.seat == bidder {
            // The domino that the others can least duck under.
            legal
                .iter()
                .min_by_key(|d| {
                    let (lower, higher) = nello_exposure(t, *d, c.unseen);
                    (lower, std::cmp::Reverse(higher), rank(*d))
                })
                .expect("a legal play")
        } else {
            // Lead low so the bidder has to go over.
            legal.iter().min_by_key(|d| (rank(*d), d.pips())).expect("a legal play")
        };
    }
    let played = trick.played();
    let led = t.lead_suit[played[0].index()] as usize;
    let power = &t.power[led];
    let best_i = v.winning_play(played);
    let best_power = power[played[best_i].index()];
    let under: DominoSet = legal.iter().filter(|d| power[d.index()] < best_power).collect();
    if v.seat == bidder {
        // Shed the most dangerous domino that still loses; if every one wins,
        // play the lowest and hope to be overtaken.
        if let Some(d) = under.iter().min_by_key(|d| (unseen_higher(*d), std::cmp::Reverse(d.pips()))) {
            return d;
        }
        return legal.iter().min_by_key(|d| power[d.index()]).expect("a legal play");
    }
    let bidder_played = (0..played.len()).any(|i| v.seat_of_play(v.trick as usize, i) == bidder);
    let bidder_winning = v.seat_of_play(v.trick as usize, best_i) == bidder;
    if bidder_played {
        if bidder_winning {
            // Stay under the bidder, shedding the highest domino that does.
            if let Some(d) = under.iter().max_by_key(|d| (power[d.index()], d.pips())) {
                return d;
            }
        }
        // Cannot help this trick: shed a high domino, keep the low ones.
        return legal.iter().max_by_key(|d| (rank(*d), d.pips())).expect("a legal play");
    }
    // The bidder plays after me: play low.
    legal.iter().min_by_key(|d| (power[d.index()], d.pips())).expect("a legal play")
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
