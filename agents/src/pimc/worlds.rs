//! The worlds of Texas 42 PIMC (and of `search`, which samples its worlds
//! here): deals of the hidden dominoes consistent with a seat's view.
//!
//! A *world* is a deal of the dominoes this seat has not seen (28 minus its own
//! hand minus the dominoes played) to the other three seats, each getting as
//! many as it holds now (7 minus its plays; the Nel-O partner keeps 7), that is
//! consistent with the public record ([`Constraints`]):
//! - **voids**: a seat that did not follow a led suit (under the declaration's
//!   suit table) held none of that suit's members then, so it holds none now;
//! - **Sevens**: a seat that played a domino at distance k from 7 pips (leads
//!   included) held nothing closer then, so it holds nothing closer now;
//! - **Plunge/Splash**: the seat that bid it held at least 4/3 doubles when it
//!   bid (its doubles played since count towards that).
//!
//! Inferences from ordinary bids and from play choices are ignored. These
//! constraints are exactly the conditions under which the public record is legal
//! for a deal, so every sampled world replays it ([`WorldSampler::world`]
//! rebuilds each world as a [`Hand`] from the original deal through
//! `Hand::new`/`apply`, bids, declaration and plays in order). One rule adds a
//! condition they do not hold: under `dropped30` the declaration is forced to
//! the bidder's best pip by a static key, so it is legal only in the deals whose
//! bidder has that best pip; [`WorldSampler::world`] draws again (up to
//! [`DECLARATION_TRIES`] times) until the replay is legal, which keeps the draw
//! uniform among those deals. The forced bids say nothing (they are legal in
//! every deal).
//!
//! [`WorldSampler`] draws worlds **uniformly** among all consistent deals,
//! without rejection (the class dealer of `pimc/deal.rs`): the unseen dominoes
//! fall into classes by the set of seats allowed to hold them (and whether they
//! are doubles, when a Plunge/Splash bound applies); a small dynamic programme
//! counts the completions of every split of every class (state: the room left in
//! two seats, the doubles still owed); each class's split is then drawn in
//! proportion to its completions, and its dominoes are shuffled into the chosen
//! counts. The draw uses only the
//! agent's random stream, so it is deterministic for a seed. If no consistent
//! deal existed (impossible for a view of a real game) the sampler would drop
//! the constraints and deal by counts alone ([`WorldSampler::relaxed`]).

use bones_env::texas42::actions::{PLAY, PLUNGE, SEVENS, SPLASH};
use bones_env::texas42::{sevens_distance, Hand};
use bones_env::{Action, Domino, DominoSet, IllegalAction, Texas42View};

use super::deal::{Class, ClassDealer};
use crate::agent::AgentRng;

/// Draws a `dropped30` world is given before it is left out: the
/// declaration there is a condition on the bidder's hand that the
/// [`Constraints`] do not hold, so a draw whose bidder would have declared
/// another trump is drawn again (on a real hand about 3 in 10 draws keep,
/// rarely under 1 in 20).
pub const DECLARATION_TRIES: u32 = 256;

/// Dominoes at distance `k` or more from 7 pips.
fn sevens_at_least(k: u8) -> DominoSet {
    Domino::ALL.iter().filter(|d| sevens_distance(**d) >= k).copied().collect()
}

// ---------------------------------------------------------------------------
// Constraints

/// What the public record says about the hands held now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Constraints {
    /// The seat whose view this is.
    pub seat: u8,
    /// Dominoes whose holder the seat does not know.
    pub unseen: DominoSet,
    /// Dominoes each seat may hold now (the own seat: exactly its hand).
    pub allowed: [DominoSet; 4],
    /// Dominoes each seat holds now.
    pub count: [u8; 4],
    /// Doubles each seat must still hold now (a Plunge/Splash bidder's bound,
    /// less the doubles it has played).
    pub min_doubles: [u8; 4],
    /// Dominoes each seat has played this hand.
    pub played_by: [DominoSet; 4],
}

impl Constraints {
    /// The constraints of a view (see the module docs).
    pub fn from_view(v: &Texas42View) -> Constraints {
        let seat = v.seat as usize;
        let mut played_by = [DominoSet::EMPTY; 4];
        let mut forbid = [DominoSet::EMPTY; 4];
        if v.declaration.is_some() {
            let sevens = v.declaration == Some(SEVENS);
            for t in 0..=(v.trick as usize).min(6) {
                for (i, d) in v.tricks[t].played().iter().enumerate() {
                    let s = v.seat_of_play(t, i) as usize;
                    played_by[s].insert(*d);
                    if sevens {
                        // Held nothing closer to 7 than `d` when it was played.
                        forbid[s] |= DominoSet::FULL - sevens_at_least(sevens_distance(*d));
                    }
                }
            }
            if let Some(table) = v.suit_table() {
                for (s, voids) in v.known_voids().iter().enumerate() {
                    for (suit, members) in table.members.iter().enumerate() {
                        if voids >> suit & 1 != 0 {
                            forbid[s] |= *members;
                        }
                    }
                }
            }
        }
        let unseen = v.unseen();
        let mut allowed = [DominoSet::EMPTY; 4];
        let mut count = [0u8; 4];
        let mut min_doubles = [0u8; 4];
        for s in 0..4 {
            count[s] = 7 - played_by[s].len() as u8;
            if s == seat {
                allowed[s] = v.hand;
                continue;
            }
            allowed[s] = unseen - forbid[s];
            let bound = match v.bids[s] {
                Some(PLUNGE) => 4,
                Some(SPLASH) => 3,
                _ => 0,
            };
            min_doubles[s] = (bound as u8).saturating_sub((played_by[s] & DominoSet::DOUBLES).len() as u8);
        }
        Constraints { seat: v.seat, unseen, allowed, count, min_doubles, played_by }
    }

    /// Whether `hands` (the hands held now) satisfies every constraint.
    pub fn admits(&self, hands: &[DominoSet; 4]) -> bool {
        let mut all = DominoSet::EMPTY;
        for (s, &h) in hands.iter().enumerate() {
            if h - self.allowed[s] != DominoSet::EMPTY
                || h.len() != self.count[s] as usize
                || (h & DominoSet::DOUBLES).len() < self.min_doubles[s] as usize
                || !(all & h).is_empty()
            {
                return false;
            }
            all |= h;
        }
        all == self.unseen | self.allowed[self.seat as usize]
    }
}

// ---------------------------------------------------------------------------
// Sampling

/// Draws worlds (the hidden hands) uniformly among the deals consistent with a
/// view's [`Constraints`]. Build it once per decision and draw many worlds.
#[derive(Clone, Debug)]
pub struct WorldSampler {
    cons: Constraints,
    /// The other three seats: the dealer's holders.
    others: [u8; 3],
    dealer: ClassDealer,
    relaxed: bool,
}

impl WorldSampler {
    /// A sampler for the view of the seat to move (or any seat's view).
    pub fn new(v: &Texas42View) -> WorldSampler {
        WorldSampler::from_constraints(Constraints::from_view(v))
    }

    /// A sampler for explicit constraints. If no deal satisfies them, the
    /// void/Sevens/doubles constraints are dropped ([`WorldSampler::relaxed`]).
    pub fn from_constraints(cons: Constraints) -> WorldSampler {
        let s = WorldSampler::build(cons);
        if s.count() > 0 {
            return s;
        }
        let mut loose = cons;
        for o in 0..4 {
            if o != cons.seat as usize {
                loose.allowed[o] = cons.unseen;
                loose.min_doubles[o] = 0;
            }
        }
        let mut s = WorldSampler::build(loose);
        s.relaxed = true;
        assert!(s.count() > 0, "the counts of the hidden hands do not add up to the unseen dominoes");
        s
    }

    fn build(cons: Constraints) -> WorldSampler {
        let me = cons.seat as usize;
        let mut others = [0u8; 3];
        let mut n = 0;
        for s in 0..4u8 {
            if s as usize != me {
                others[n] = s;
                n += 1;
            }
        }
        let need = (0..3)
            .find(|&i| cons.min_doubles[others[i] as usize] > 0)
            .map(|i| (i, cons.min_doubles[others[i] as usize].min(4) as usize));
        // Classes by allowed-seat mask (and doubleness when doubles are owed).
        let mut by_key = [DominoSet::EMPTY; 16];
        for d in cons.unseen {
            let mut mask = 0u8;
            for (i, &o) in others.iter().enumerate() {
                if cons.allowed[o as usize].contains(d) {
                    mask |= 1 << i;
                }
            }
            let key = mask as usize | if need.is_some() && d.is_double() { 8 } else { 0 };
            by_key[key].insert(d);
        }
        let classes: Vec<Class> =
            (0..16).filter(|&k| !by_key[k].is_empty()).map(|k| ((k & 7) as u8, by_key[k], k & 8 != 0)).collect();
        let sizes = others.map(|o| cons.count[o as usize] as usize);
        WorldSampler { cons, others, dealer: ClassDealer::new(&sizes, classes, need), relaxed: false }
    }

    /// The number of consistent deals of the unseen dominoes (0: none).
    pub fn count(&self) -> u64 {
        self.dealer.count()
    }

    /// Whether the constraints had to be dropped (no consistent deal existed).
    pub fn relaxed(&self) -> bool {
        self.relaxed
    }

    /// The constraints sampled from.
    pub fn constraints(&self) -> &Constraints {
        &self.cons
    }

    /// Draws the hands held now, every consistent deal equally likely (the own
    /// seat's hand included as it is).
    pub fn sample(&self, rng: &mut AgentRng) -> [DominoSet; 4] {
        let mut hands = [DominoSet::EMPTY; 4];
        let me = self.cons.seat as usize;
        hands[me] = self.cons.allowed[me];
        let dealt = self.dealer.deal(rng);
        for (i, &o) in self.others.iter().enumerate() {
            hands[o as usize] = dealt[i];
        }
        hands
    }

    /// The original deal of a sample of the hands held now (the played dominoes
    /// given back to the seats that played them).
    pub fn deal_of(&self, now: &[DominoSet; 4]) -> [DominoSet; 4] {
        let mut dealt = *now;
        for (d, p) in dealt.iter_mut().zip(self.cons.played_by) {
            *d |= p;
        }
        dealt
    }

    /// Draws `n` worlds ([`WorldSampler::world`]; one that fails to replay is
    /// left out).
    pub fn worlds(&self, v: &Texas42View, n: u32, rng: &mut AgentRng) -> Vec<Hand> {
        (0..n).filter_map(|_| self.world(v, rng)).collect()
    }

    /// Draws a world and rebuilds it as a [`Hand`] by replaying the view's public
    /// actions from its original deal. `None` only if the replay fails, which
    /// cannot happen unless the sampler is [`relaxed`](WorldSampler::relaxed),
    /// or under `dropped30` (see the module docs) when
    /// [`DECLARATION_TRIES`] draws in a row had a bidder that declares
    /// otherwise.
    pub fn world(&self, v: &Texas42View, rng: &mut AgentRng) -> Option<Hand> {
        let tries = if v.rules.dropped30 && v.declaration.is_some() { DECLARATION_TRIES } else { 1 };
        (0..tries).find_map(|_| {
            let now = self.sample(rng);
            replay(v, self.deal_of(&now)).ok()
        })
    }
}

/// The public actions of a view's hand so far, in order: the bids (from the
/// seat left of the shaker), the declaration, the plays.
pub fn public_actions(v: &Texas42View) -> Vec<Action> {
    let mut out = Vec::with_capacity(40);
    for i in 0..4u8 {
        match v.bids[((v.dealer + 1 + i) % 4) as usize] {
            Some(b) => out.push(b),
            None => break,
        }
    }
    if let Some(d) = v.declaration {
        out.push(d);
        for t in 0..=(v.trick as usize).min(6) {
            out.extend(v.tricks[t].played().iter().map(|d| PLAY + d.index()));
        }
    }
    out
}

/// A hand dealt `dealt` (the original deal) with the view's public actions
/// applied, or the first action the deal makes illegal.
pub fn replay(v: &Texas42View, dealt: [DominoSet; 4]) -> Result<Hand, IllegalAction> {
    let mut h = Hand::new(v.rules, v.dealer, dealt);
    for a in public_actions(v) {
        h.apply(a)?;
    }
    Ok(h)
}

// ---------------------------------------------------------------------------
