//! Perfect-information Monte Carlo search for Doubles (`pimc[:worlds=N]` with
//! `--game doubles`): sample the other hands and the boneyard consistently with
//! the public record, play every legal action out to the end of the round in
//! each sampled world, and pick the action with the best total.
//!
//! # Worlds
//! A *world* deals the dominoes this seat has not seen (28 minus its hand minus
//! the board) to the other seats, each getting as many as it holds now, and to
//! the boneyard, as many as it holds, in some draw order. It must agree with what
//! the public record proves ([`DoublesConstraints`]):
//! - **draws and passes**: a seat that drew or passed held nothing playable
//!   then, so it holds no domino showing a number that an open end showed while
//!   the number was unlocked, and no double of a number an open end showed (the
//!   view's `void` and `no_double`, which hold for every domino the seat holds
//!   now; when a seat draws and then passes, the facts of that pass replace its
//!   older ones, because the kept domino is hidden);
//! - **the opening**: the opener held the highest double dealt, and a seat that
//!   has never drawn holds only dealt dominoes, so it holds no double higher
//!   than the opening one (before the opening, in the opener's own view: higher
//!   than the opener's highest double);
//! - **sizes**: every hand's size and the boneyard's size.
//!
//! What the other seats' choices of play suggest about their hands is ignored.
//! These facts are the view's, so a sampled world shows this seat the same view
//! as the real round (same board, history, counts and legal actions).
//!
//! [`DoublesSampler`] draws worlds **uniformly** among the consistent
//! assignments of hands and boneyard, without rejection, with the same class
//! dealer as Texas 42's [`WorldSampler`](super::WorldSampler) (`pimc/deal.rs`):
//! the holders are the other seats and the boneyard, which may hold any unseen
//! domino. The boneyard's order is then a uniform shuffle: nothing public
//! tells it. [`DoublesView::world`] builds the world's
//! [`Round`]. Samplers are built for the view of the seat to move.
//!
//! # Objective
//! Every legal action is tried in the same `worlds` worlds: the action is applied
//! and the round is played out to its end by [`DoublesHeuristic`] at every seat
//! (each acting from its own view of that world). The action's value in a world
//! is this seat's round score minus the mean round score of all players (the
//! round reward), summed over the worlds as integers (`players × score − total`);
//! the highest sum wins, ties going to the lowest action id. A decision with one
//! legal action (the opening double, a draw, a forced pass) returns it at once.
//!
//! The usual PIMC caveats apply: the play-outs assume every seat sees the world
//! as this seat sampled it; only the heuristic's play is simulated.

use bones_env::doubles::{Round, NO_SEAT};
use bones_env::{Action, Domino, DominoSet, DoublesView};

use super::deal::{shuffled, Class, ClassDealer};
use super::stream::{Drawn, Worlds};
use crate::agent::{ActionValues, Agent, AgentRng, Explained};
use crate::heuristic::doubles::DoublesHeuristic;

/// Every domino showing one of the numbers of `mask` (bit n: number n).
fn showing(mask: u8) -> DominoSet {
    (0..7u8).filter(|n| mask >> n & 1 != 0).fold(DominoSet::EMPTY, |s, n| s | DominoSet::with_pip(n))
}

/// The doubles of the numbers of `mask`.
fn doubles_of(mask: u8) -> DominoSet {
    (0..7u8).filter(|n| mask >> n & 1 != 0).map(|n| Domino::new(n, n)).collect()
}

/// What the public record says about the hands held now and the boneyard.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DoublesConstraints {
    /// The seat whose view this is.
    pub seat: u8,
    /// Players at the table.
    pub players: u8,
    /// Dominoes whose place the seat does not know (other hands and boneyard).
    pub unseen: DominoSet,
    /// Dominoes each seat may hold now (the own seat: exactly its hand; seats
    /// beyond `players`: none).
    pub allowed: [DominoSet; 4],
    /// Dominoes each seat holds now.
    pub count: [u8; 4],
    /// Dominoes in the boneyard (it may hold any unseen domino).
    pub boneyard: u8,
}

impl DoublesConstraints {
    /// The constraints of a view (see the module docs).
    pub fn from_view(v: &DoublesView) -> DoublesConstraints {
        let me = v.seat as usize;
        let unseen = v.unseen();
        let opening = v
            .board
            .placed
            .iter()
            .find(|d| v.played_by[d.index()] != NO_SEAT && v.play_index[d.index()] == 0)
            .or_else(|| (v.to_move == Some(v.seat)).then(|| (v.hand & DominoSet::DOUBLES).last()).flatten());
        let higher: DominoSet =
            opening.map_or(DominoSet::EMPTY, |o| DominoSet::DOUBLES.iter().filter(|d| d.high() > o.high()).collect());
        let mut allowed = [DominoSet::EMPTY; 4];
        let mut count = [0u8; 4];
        for s in 0..v.players() as usize {
            count[s] = v.hand_sizes[s];
            allowed[s] = if s == me {
                v.hand
            } else {
                let mut a = unseen - showing(v.void[s]) - doubles_of(v.no_double[s]);
                if v.draws[s] == 0 {
                    a = a - higher;
                }
                a
            };
        }
        DoublesConstraints { seat: v.seat, players: v.players(), unseen, allowed, count, boneyard: v.boneyard_len }
    }

    /// Whether `hands` (held now) and `boneyard` (its dominoes, in any order)
    /// satisfy every constraint.
    pub fn admits(&self, hands: &[DominoSet; 4], boneyard: DominoSet) -> bool {
        let mut all = DominoSet::EMPTY;
        for (s, &h) in hands.iter().enumerate() {
            if h - self.allowed[s] != DominoSet::EMPTY || h.len() != self.count[s] as usize || !(all & h).is_empty() {
                return false;
            }
            all |= h;
        }
        boneyard.len() == self.boneyard as usize
            && (all & boneyard).is_empty()
            && all | boneyard == self.unseen | self.allowed[self.seat as usize]
    }

    /// The other seats, in order, and how many there are.
    fn others(&self) -> ([u8; 3], usize) {
        let mut others = [0u8; 3];
        let mut k = 0;
        for s in 0..self.players {
            if s != self.seat {
                others[k] = s;
                k += 1;
            }
        }
        (others, k)
    }
}

/// A sampled world before it is built into a round: the hands held now and the
/// boneyard's dominoes (its order is drawn separately).
pub type Holding = ([DominoSet; 4], DominoSet);

/// Draws worlds uniformly among the hands and boneyards consistent with a
/// view's [`DoublesConstraints`]. Build it once per decision and draw many.
#[derive(Clone, Debug)]
pub struct DoublesSampler {
    cons: DoublesConstraints,
    /// The other seats (the first `k`): the dealer's first holders; the
    /// boneyard is its last.
    others: [u8; 3],
    k: usize,
    dealer: ClassDealer,
    relaxed: bool,
}

impl DoublesSampler {
    /// A sampler for the view of the seat to move.
    pub fn new(v: &DoublesView) -> DoublesSampler {
        DoublesSampler::from_constraints(DoublesConstraints::from_view(v))
    }

    /// A sampler for explicit constraints. If no assignment satisfies them, the
    /// draw, pass and opening constraints are dropped
    /// ([`DoublesSampler::relaxed`]).
    pub fn from_constraints(cons: DoublesConstraints) -> DoublesSampler {
        let s = DoublesSampler::build(cons);
        if s.count() > 0 {
            return s;
        }
        let mut loose = cons;
        let (others, k) = cons.others();
        for &o in &others[..k] {
            loose.allowed[o as usize] = cons.unseen;
        }
        let mut s = DoublesSampler::build(loose);
        s.relaxed = true;
        assert!(s.count() > 0, "the sizes of the hidden hands and the boneyard do not add up to the unseen dominoes");
        s
    }

    fn build(cons: DoublesConstraints) -> DoublesSampler {
        let (others, k) = cons.others();
        // Classes by the other seats allowed to hold them; the boneyard (holder
        // k) may hold any.
        let mut by_mask = [DominoSet::EMPTY; 8];
        for d in cons.unseen {
            let mask = (0..k).filter(|&i| cons.allowed[others[i] as usize].contains(d)).fold(0usize, |m, i| m | 1 << i);
            by_mask[mask].insert(d);
        }
        let classes: Vec<Class> =
            (0..8).filter(|&m| !by_mask[m].is_empty()).map(|m| ((m | 1 << k) as u8, by_mask[m], false)).collect();
        let mut sizes: Vec<usize> = others[..k].iter().map(|&o| cons.count[o as usize] as usize).collect();
        sizes.push(cons.boneyard as usize);
        DoublesSampler { cons, others, k, dealer: ClassDealer::new(&sizes, classes, None), relaxed: false }
    }

    /// The number of consistent assignments of hands and boneyard (0: none;
    /// the boneyard's order not counted).
    pub fn count(&self) -> u64 {
        self.dealer.count()
    }

    /// Whether the constraints had to be dropped (no consistent assignment).
    pub fn relaxed(&self) -> bool {
        self.relaxed
    }

    /// The constraints sampled from.
    pub fn constraints(&self) -> &DoublesConstraints {
        &self.cons
    }

    /// Draws the hands held now and the boneyard's dominoes, every consistent
    /// assignment equally likely (the own hand included as it is).
    pub fn sample(&self, rng: &mut AgentRng) -> Holding {
        let mut hands = [DominoSet::EMPTY; 4];
        let me = self.cons.seat as usize;
        hands[me] = self.cons.allowed[me];
        let dealt = self.dealer.deal(rng);
        for (i, &o) in self.others[..self.k].iter().enumerate() {
            hands[o as usize] = dealt[i];
        }
        (hands, dealt[self.k])
    }

    /// Draws a world ([`DoublesSampler::sample`], the boneyard in a uniformly
    /// shuffled order) and builds it into a round with [`DoublesView::world`].
    /// `None` only if the view does not admit it, which cannot happen for the
    /// view the sampler was built from unless it is
    /// [`relaxed`](DoublesSampler::relaxed) or another seat is deciding on its
    /// drawn domino.
    pub fn world(&self, v: &DoublesView, rng: &mut AgentRng) -> Option<Round> {
        let (hands, boneyard) = self.sample(rng);
        v.world(hands, &shuffled(boneyard, rng))
    }

    /// Draws `n` worlds ([`DoublesSampler::world`]; one the view does not admit
    /// is left out).
    pub fn worlds(&self, v: &DoublesView, n: u32, rng: &mut AgentRng) -> Vec<Round> {
        (0..n).filter_map(|_| self.world(v, rng)).collect()
    }
}

/// The PIMC agent for Doubles. See the module docs for the objective.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DoublesPimc {
    /// Worlds per decision (at least 1).
    pub worlds: u32,
    /// The player of every seat in the play-outs.
    pub playout: DoublesHeuristic,
}

impl Default for DoublesPimc {
    fn default() -> Self {
        DoublesPimc::new(crate::spec::DEFAULT_PIMC_WORLDS)
    }
}

impl DoublesPimc {
    /// An agent with `worlds` worlds per decision and the default heuristic in
    /// the play-outs.
    pub fn new(worlds: u32) -> DoublesPimc {
        DoublesPimc { worlds: worlds.max(1), playout: DoublesHeuristic::default() }
    }

    /// Every legal action with its summed value over `worlds` fresh worlds,
    /// the best first (see the module docs).
    pub fn scores(&self, v: &DoublesView, rng: &mut AgentRng) -> Vec<(Action, i64)> {
        let sampler = DoublesSampler::new(v);
        let worlds = Drawn::new(self.worlds, rng, |r| sampler.world(v, r));
        self.score_actions(v, &worlds, rng)
    }

    /// [`DoublesPimc::scores`] over the given worlds (rounds in which the
    /// view's seat is to move; a world given twice counts twice).
    pub fn score_actions<W: Worlds<Round> + ?Sized>(
        &self,
        v: &DoublesView,
        worlds: &W,
        rng: &mut AgentRng,
    ) -> Vec<(Action, i64)> {
        let seat = v.seat as usize;
        let mut out: Vec<(Action, i64)> = v.legal.iter().map(|a| (a, 0)).collect();
        worlds.for_each_world(|w| {
            for (a, total) in out.iter_mut() {
                let mut r = *w;
                r.apply(*a).expect("an action legal in the view is legal in its worlds");
                self.play_out(&mut r, v, rng);
                let n = r.players as i64;
                let sum: i64 = r.scores.iter().map(|&s| s as i64).sum();
                *total += n * r.scores[seat] as i64 - sum;
            }
        });
        // Stable sort: ties keep the lowest id first.
        out.sort_by_key(|x| std::cmp::Reverse(x.1));
        out
    }

    /// Plays `r` to the end of its round with the play-out heuristic at every
    /// seat, each acting from its own view.
    pub fn play_out(&self, r: &mut Round, v: &DoublesView, rng: &mut AgentRng) {
        let mut player = self.playout;
        while !r.is_done() {
            let view = DoublesView::from_round(r, r.to_move, v.rules);
            let a = player.act(&view, rng);
            r.apply(a).expect("the play-out heuristic plays legal actions");
        }
    }
}

impl Agent<DoublesView> for DoublesPimc {
    fn act(&mut self, v: &DoublesView, rng: &mut AgentRng) -> Action {
        self.explain(v, rng).action
    }

    /// The action with, when there was a choice, each legal action's mean
    /// value over the worlds: the seat's round score minus the table's
    /// average round score.
    fn explain(&mut self, v: &DoublesView, rng: &mut AgentRng) -> Explained {
        Explained::of_choice(v.legal, "pimc agent", || {
            let sampler = DoublesSampler::new(v);
            let worlds = Drawn::new(self.worlds, rng, |r| sampler.world(v, r));
            let scores = self.score_actions(v, &worlds, rng);
            let per = (worlds.len().max(1) * v.players() as usize) as f64;
            let values = ActionValues {
                unit: format!(
                    "your round score minus the table's average, mean over {} sampled worlds played out",
                    worlds.len()
                ),
                values: scores.iter().map(|&(a, total)| (a, total as f64 / per)).collect(),
            };
            Explained { action: scores[0].0, values: Some(values) }
        })
    }
}
