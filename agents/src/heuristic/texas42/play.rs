//! How the Texas 42 `heuristic` plays a domino.
//!
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

use super::valuation::{higher_in_suit, nello_exposure};
use bones_env::texas42::actions::PLAY;
use bones_env::texas42::SuitTable;
use bones_env::{Action, ActionMask, Domino, DominoSet, Texas42View};

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

/// The heuristic's play (the rules in the module docs).
pub(super) fn play(v: &Texas42View) -> Action {
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
