//! Exact open-hand (double-dummy) solver for the Texas 42 play phase.
//!
//! Given a [`Hand`] in the `Playing` phase with every hand visible, the solver
//! computes exact minimax results for every declaration: the seven pip suits,
//! doubles, follow-me, Nel-O (each `nello_doubles` option, the bidder's partner
//! sitting out) and Sevens.
//!
//! Two questions are answered:
//!
//! - **Points** ([`Solver::value`], [`Solver::solve_actions`],
//!   [`Solver::best_action`]): the points (tricks + count, docs/rules.md) that the
//!   bidding team takes from here to the end of the hand, the trick in progress
//!   included, when the bidders maximise and the defenders minimise. Early end
//!   is ignored: every remaining trick is played. (Under Nel-O this is still
//!   "bidders maximise points"; the question that matters there is the
//!   contract.)
//! - **Contract** ([`Solver::contract`], [`Solver::contract_actions`]): whether
//!   the bidders make their contract with best play by both sides, history
//!   included: a point bid needs the missing points ([`Goal::Points`]), mark
//!   bids, Plunge, Splash and Sevens need every remaining trick
//!   ([`Goal::AllTricks`]), Nel-O needs the bidder to win no remaining trick
//!   ([`Goal::NoTricks`]). These are 0/1 searches that stop at the first trick
//!   that decides them (all-tricks searches also stop as soon as a defender
//!   holds the top trump), so they are much cheaper than the points search.
//!
//! Exact points are found by zero-window probes ("do the bidders get at least
//! v?") and bisection over the remaining points; each probe is a fail-soft
//! alpha-beta over single plays. A transposition table is probed at trick
//! boundaries: keyed on the four remaining hands, the leader, the declaration,
//! the bidder and the question asked, its entries hold lower/upper bounds on
//! the points still to come, so they stay valid between probes, calls and
//! deals (64-byte buckets of three entries; older calls and shallower entries
//! are replaced first). Other pruning:
//! - bounds at each trick boundary: all the points left, and the sure points
//!   of the team holding the top remaining trumps;
//! - enhanced transposition cut-offs at the last play of a trick;
//! - move ordering: the table's move, then safe winners, cheap wins, count on
//!   a partner's safe trick, low discards;
//! - equivalent dominoes are searched once: two dominoes of one hand that
//!   belong to the same single suit, carry the same count and have no other
//!   seat's domino (or current-trick play) ranked between them (Sevens: same
//!   distance from 7 and same count);
//! - the last trick is evaluated directly.
//!
//! The search does not allocate; a [`Solver`] owns its table (2 MiB by
//! default, made on its first solve) and is reused from call to call.

use std::sync::OnceLock;

use bones_env::texas42::actions::{FOLLOW_ME, NEL_O, PLAY, SEVENS, TRUMP_BLANKS};
use bones_env::texas42::{bid_value, closest_to_seven, sevens_distance, team, Hand, Phase, SuitTable, TABLES};
use bones_env::{Action, Domino, DominoSet, NelloDoubles};

const M_POINTS: u8 = 0;
const M_ALL: u8 = 1;
const M_NONE: u8 = 2;

/// Count of each domino (0, 5 or 10), 32 wide (index with `& 31`).
const COUNT: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 28 {
        t[i] = Domino::from_index(i).count();
        i += 1;
    }
    t
};

const fn count_mask(c: u8) -> u32 {
    let mut m = 0;
    let mut i = 0;
    while i < 28 {
        if COUNT[i] == c {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}
const FIVES: u32 = count_mask(5);
const TENS: u32 = count_mask(10);

/// Count held in a set of dominoes.
#[inline]
fn count_of(set: u32) -> i32 {
    5 * (set & FIVES).count_ones() as i32 + 10 * (set & TENS).count_ones() as i32
}

/// A declaration's tables, 32 wide so that indices masked with `& 31` (and
/// suits with `& 7`) need no bounds checks.
struct Tab {
    /// Suit called by each domino when led (Sevens: 0).
    lead_suit: [u8; 32],
    /// Dominoes that must follow each suit (unused in Sevens).
    members: [u32; 8],
    /// `power[led][d]`: strength of `d` on a trick where `led` was led; only a
    /// strictly higher power wins (ties go to the first played). Sevens: 8 -
    /// distance from 7.
    power: [[u8; 32]; 8],
    /// `beats[led][d]`: dominoes with a higher power than `d` on suit `led`.
    beats: [[u32; 32]; 8],
    /// Equivalence class (0: none): the single suit a domino belongs to (or its
    /// distance from 7 in Sevens) and its count.
    class: [u8; 32],
    /// Dominoes ranked above `d` in its single suit (0 in Sevens).
    above: [u32; 32],
    /// Sevens: every seat plays a domino closest to 7 pips.
    sevens: bool,
    /// The trumps, highest first (the first `num_trumps`).
    trumps: [u8; 8],
    num_trumps: u8,
}

fn build_tab(t: Option<&SuitTable>) -> Tab {
    let sevens = t.is_none();
    let mut tab = Tab {
        lead_suit: [0; 32],
        members: [DominoSet::FULL.0; 8],
        power: [[0; 32]; 8],
        beats: [[0; 32]; 8],
        class: [0; 32],
        above: [0; 32],
        sevens,
        trumps: [0; 8],
        num_trumps: 0,
    };
    for d in 0..28 {
        match t {
            Some(t) => {
                tab.lead_suit[d] = t.lead_suit[d];
                for led in 0..8 {
                    tab.power[led][d] = t.power[led][d];
                }
            }
            None => {
                for led in 0..8 {
                    tab.power[led][d] = 8 - sevens_distance(Domino::from_index(d));
                }
            }
        }
    }
    if let Some(t) = t {
        for s in 0..8 {
            tab.members[s] = t.members[s].0;
        }
    }
    for led in 0..8 {
        for d in 0..28 {
            for e in 0..28 {
                if tab.power[led][e] > tab.power[led][d] {
                    tab.beats[led][d] |= 1 << e;
                }
            }
        }
    }
    if !sevens {
        let mut trumps: Vec<usize> = (0..28).filter(|&d| tab.power[0][d] >= 32).collect();
        trumps.sort_by_key(|&d| std::cmp::Reverse(tab.power[0][d]));
        for (i, &d) in trumps.iter().enumerate() {
            tab.trumps[i] = d as u8;
        }
        tab.num_trumps = trumps.len() as u8;
    }
    for (d, &count) in COUNT.iter().enumerate().take(28) {
        let cc = match count {
            0 => 0,
            5 => 1,
            _ => 2,
        };
        if sevens {
            tab.class[d] = 1 + 3 * sevens_distance(Domino::from_index(d)) + cc;
            continue;
        }
        let suits: Vec<usize> = (0..8).filter(|&s| tab.members[s] & (1 << d) != 0).collect();
        if let [s] = suits[..] {
            tab.class[d] = 1 + 3 * s as u8 + cc;
            for e in 0..28 {
                if tab.members[s] & (1 << e) != 0 && tab.power[s][e] > tab.power[s][d] {
                    tab.above[d] |= 1 << e;
                }
            }
        }
    }
    tab
}

/// Tables by id: 0..12 as `TABLES` (pip trumps, doubles, follow-me, Nel-O
/// `own-suit`, `high`, `low`), 12 Sevens.
fn tabs() -> &'static [Tab] {
    static TABS: OnceLock<Vec<Tab>> = OnceLock::new();
    TABS.get_or_init(|| {
        let mut v: Vec<Tab> = TABLES.iter().map(|t| build_tab(Some(t))).collect();
        v.push(build_tab(None));
        v
    })
}

/// What the bidders still need to make their contract.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Already settled by the tricks taken: made (`true`) or set.
    Decided(bool),
    /// A point bid: the bidders need this many more points.
    Points(u8),
    /// Mark bids, Plunge, Splash, Sevens: the bidders must win every remaining trick.
    AllTricks,
    /// Nel-O: the bidder must win no remaining trick.
    NoTricks,
}

/// What the bidders need from here to make the contract of `hand` (a hand in
/// the `Playing` phase).
pub fn goal(hand: &Hand) -> Goal {
    let b = hand.bidder as usize;
    if hand.declaration as Action == NEL_O {
        return if hand.tricks_won[b] > 0 { Goal::Decided(false) } else { Goal::NoTricks };
    }
    let bid = bid_value(hand.high_bid as Action);
    if bid < 42 {
        let have = hand.points[team(hand.bidder)] as u32;
        return if have >= bid { Goal::Decided(true) } else { Goal::Points((bid - have) as u8) };
    }
    if hand.tricks_won[(b + 1) % 4] + hand.tricks_won[(b + 3) % 4] > 0 {
        Goal::Decided(false)
    } else {
        Goal::AllTricks
    }
}

/// Points still to be taken from here: one per remaining trick (the one in
/// progress included) plus the count still held or on the table. Under Nel-O
/// the sitting-out partner's dominoes are never played and do not count.
pub fn remaining_points(hand: &Hand) -> i32 {
    let mut held = 0u32;
    for s in 0..4u8 {
        if hand.sitting_out() != Some(s) {
            held |= hand.hands[s as usize].0;
        }
    }
    let trick = &hand.tricks[hand.trick as usize];
    let on_table: i32 = trick.played().iter().map(|d| d.count() as i32).sum();
    (7 - hand.trick as i32) + count_of(held) + on_table
}

/// Convenience: [`Solver::solve_actions`] with a fresh small (256 KiB) solver.
/// Agents that solve often should keep a [`Solver`] (one per thread).
pub fn solve_actions(hand: &Hand) -> Vec<(Action, i32)> {
    Solver::with_tt_bits(12).solve_actions(hand)
}

/// Inserts `d` with score `s` into the sorted (best first) move list.
#[inline]
fn insert(scores: &mut [i32; 7], moves: &mut [u8; 7], n: &mut usize, d: u8, s: i32) {
    let mut i = *n;
    while i > 0 && scores[i - 1] < s {
        scores[i] = scores[i - 1];
        moves[i] = moves[i - 1];
        i -= 1;
    }
    scores[i] = s;
    moves[i] = d;
    *n += 1;
}

/// State of the trick in progress inside the search.
#[derive(Copy, Clone, Debug)]
struct TrickState {
    /// Seat to play.
    seat: u8,
    /// Dominoes played so far in this trick.
    k: u8,
    /// Suit led (valid when `k > 0`).
    led: u8,
    /// The winning domino so far (valid when `k > 0`).
    best: u8,
    /// Its seat.
    best_seat: u8,
    /// Count played so far in this trick.
    pts: u8,
    /// Dominoes played so far in this trick.
    played: u32,
}

/// A transposition table entry: bounds on the value to come at a trick
/// boundary, the best lead found, and (for replacement) the tricks left and the
/// generation (top-level call) that wrote it.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: [u32; 4],
    lo: u8,
    hi: u8,
    mv: u8,
    /// `left | generation << 3`.
    meta: u8,
}

/// Three entries in one cache line; a new position replaces the entry of an
/// older generation, then the one with the fewest tricks left.
#[derive(Copy, Clone, Default)]
#[repr(align(64))]
struct Bucket([Entry; 3]);

const NO_MOVE: u8 = 255;

/// An exact open-hand solver with its transposition table. Reusable across
/// positions, declarations and deals (the table's keys include all of them);
/// make one per thread.
pub struct Solver {
    tt: Vec<Bucket>,
    shift: u32,
    generation: u8,
    nodes: u64,
    // Context of the current solve.
    tab: &'static Tab,
    table_id: u8,
    size: u8,
    next: [u8; 4],
    bidder: u8,
    /// Bit `s` set: seat `s` is on the bidding team.
    bmask: u8,
    hands: [u32; 4],
    tt_move: u8,
    best_lead: u8,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with a 2^15-bucket (2 MiB, 98,304-entry) transposition table.
    pub fn new() -> Solver {
        Solver::with_tt_bits(15)
    }

    /// A solver with a 2^`bits`-bucket transposition table (64 bytes and three
    /// entries a bucket; `bits` is clamped to 8..=24).
    pub fn with_tt_bits(bits: u32) -> Solver {
        let bits = bits.clamp(8, 24);
        Solver {
            tt: Vec::new(),
            shift: 64 - bits,
            generation: 0,
            nodes: 0,
            tab: &tabs()[0],
            table_id: 0,
            size: 4,
            next: [1, 2, 3, 0],
            bidder: 0,
            bmask: 0b0101,
            hands: [0; 4],
            tt_move: NO_MOVE,
            best_lead: NO_MOVE,
        }
    }

    /// Search nodes (plays tried) since the solver was made or [`Solver::reset_nodes`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Resets the node counter.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Empties the transposition table (never needed for correctness).
    pub fn clear(&mut self) {
        self.tt.fill(Bucket::default());
    }

    /// Exact points the bidding team takes from here to the end (the trick in
    /// progress included; early end ignored), bidders maximising and defenders
    /// minimising. Panics unless the hand is in the `Playing` phase.
    pub fn value(&mut self, hand: &Hand) -> i32 {
        let (t, left) = self.setup(hand);
        let total = self.remaining_in_search(&t, left);
        self.bisect(0, total, total / 2, |s, a, b| s.search::<M_POINTS>(&t, left, a, b))
    }

    /// Every legal action of the seat to move with its exact value for the
    /// mover's team: the points that team takes from here to the end if the
    /// action is played and both sides then play optimally (early end ignored).
    /// Panics unless the hand is in the `Playing` phase.
    pub fn solve_actions(&mut self, hand: &Hand) -> Vec<(Action, i32)> {
        let mut out = Vec::with_capacity(7);
        self.solve_actions_into(hand, &mut out);
        out
    }

    /// [`Solver::solve_actions`] into a caller's buffer (cleared first).
    pub fn solve_actions_into(&mut self, hand: &Hand, out: &mut Vec<(Action, i32)>) {
        out.clear();
        let (t, left) = self.setup(hand);
        let total = self.remaining_in_search(&t, left);
        let mine = self.bmask >> t.seat & 1 != 0;
        let seat = t.seat as usize;
        let legal = self.legal(self.hands[seat], t.k, t.led);
        let others = self.others(seat, &t);
        let reps = self.reduce(legal, others);
        let mut vals = [0i32; 28];
        // The position's value first: it bounds every action's value (from
        // above for the bidders, from below for the defenders), and the first
        // probe of each action asks whether it reaches it.
        let root = self.bisect(0, total, total / 2, |s, a, b| s.search::<M_POINTS>(&t, left, a, b));
        let maxi = self.bmask >> seat & 1 != 0;
        let (lo, hi, guess) = if maxi { (0, root, root) } else { (root, total, root + 1) };
        let mut m = reps;
        while m != 0 {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            let v = self.bisect(lo, hi, guess, |s, a, b| {
                s.hands[seat] ^= 1 << d;
                let v = s.after::<M_POINTS>(&t, d, left, a, b);
                s.hands[seat] ^= 1 << d;
                v
            });
            vals[d as usize] = v;
        }
        let mut m = legal;
        while m != 0 {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            let r = if reps & (1 << d) != 0 { d } else { self.representative(reps, d, others) };
            let v = vals[r as usize];
            out.push((PLAY + d as Action, if mine { v } else { total - v }));
        }
    }

    /// A best action of the seat to move and its value for the mover's team
    /// (points from here to the end). Cheaper than [`Solver::solve_actions`]:
    /// after the position's value, each action is only asked whether it
    /// reaches it. Panics unless the hand is in the `Playing` phase.
    pub fn best_action(&mut self, hand: &Hand) -> (Action, i32) {
        let (t, left) = self.setup(hand);
        let total = self.remaining_in_search(&t, left);
        let root = self.bisect(0, total, total / 2, |s, a, b| s.search::<M_POINTS>(&t, left, a, b));
        let seat = t.seat as usize;
        let maxi = self.bmask >> seat & 1 != 0;
        let legal = self.legal(self.hands[seat], t.k, t.led);
        let others = self.others(seat, &t);
        let legal = self.reduce(legal, others);
        let mut moves = [0u8; 7];
        self.tt_move = if t.k == 0 { self.stored_move(t.seat, M_POINTS) } else { NO_MOVE };
        let n = self.order::<M_POINTS>(&t, legal, &mut moves);
        let value = if maxi { root } else { total - root };
        for &d in &moves[..n] {
            self.hands[seat] ^= 1 << d;
            let reaches = if maxi {
                self.after::<M_POINTS>(&t, d, left, root - 1, root) >= root
            } else {
                self.after::<M_POINTS>(&t, d, left, root, root + 1) <= root
            };
            self.hands[seat] ^= 1 << d;
            if reaches {
                return (PLAY + d as Action, value);
            }
        }
        unreachable!("some action reaches the position's value")
    }

    /// Whether the bidders make their contract from here with best play by both
    /// sides (the tricks already taken included; see [`goal`]). Panics unless
    /// the hand is in the `Playing` phase.
    pub fn contract(&mut self, hand: &Hand) -> bool {
        let g = goal(hand);
        let (t, left) = self.setup(hand);
        self.contract_search(g, &t, left)
    }

    /// Every legal action of the seat to move and whether the mover's team then
    /// wins the contract fight (bidders: the contract is made; defenders: it is
    /// set), with best play by both sides afterwards. Panics unless the hand is
    /// in the `Playing` phase.
    pub fn contract_actions(&mut self, hand: &Hand) -> Vec<(Action, bool)> {
        let g = goal(hand);
        let (t, left) = self.setup(hand);
        let mine = self.bmask >> t.seat & 1 != 0;
        let mut out = Vec::with_capacity(7);
        let mut push = |d: u8, made: bool| out.push((PLAY + d as Action, made == mine));
        match g {
            Goal::Decided(made) => {
                let legal = self.legal(self.hands[t.seat as usize], t.k, t.led);
                let mut m = legal;
                while m != 0 {
                    push(m.trailing_zeros() as u8, made);
                    m &= m - 1;
                }
            }
            Goal::Points(need) => {
                let need = need as i32;
                self.each_action::<M_POINTS>(&t, left, need - 1, need, |d, v| push(d, v >= need))
            }
            Goal::AllTricks => self.each_action::<M_ALL>(&t, left, 0, 1, |d, v| push(d, v >= 1)),
            Goal::NoTricks => self.each_action::<M_NONE>(&t, left, 0, 1, |d, v| push(d, v >= 1)),
        }
        out
    }

    // -----------------------------------------------------------------------
    // Set-up from a `Hand`

    /// Loads the hand's context and hands; returns the trick state and the
    /// number of tricks left (the one in progress included).
    fn setup(&mut self, hand: &Hand) -> (TrickState, u8) {
        assert_eq!(hand.phase, Phase::Playing, "the solver needs a hand in the Playing phase");
        if self.tt.is_empty() {
            // The table is made on the first solve: an agent that never reaches the play costs nothing.
            self.tt = vec![Bucket::default(); 1 << (64 - self.shift)];
        }
        self.generation = (self.generation + 1) & 31;
        let decl = hand.declaration as Action;
        let id = match decl {
            TRUMP_BLANKS..=FOLLOW_ME => decl - TRUMP_BLANKS,
            NEL_O => match hand.rules.nello_doubles {
                NelloDoubles::OwnSuit => 9,
                NelloDoubles::High => 10,
                NelloDoubles::Low => 11,
            },
            SEVENS => 12,
            _ => panic!("unknown declaration id {decl}"),
        };
        self.table_id = id as u8;
        self.tab = &tabs()[id];
        self.size = hand.trick_size();
        for s in 0..4u8 {
            self.next[s as usize] = hand.next_in_play(s);
        }
        self.bidder = hand.bidder;
        let bt = team(hand.bidder);
        self.bmask = (0..4).filter(|&s| team(s) == bt).fold(0, |m, s| m | 1 << s);
        for s in 0..4u8 {
            self.hands[s as usize] = if hand.sitting_out() == Some(s) { 0 } else { hand.hands[s as usize].0 };
        }
        let trick = &hand.tricks[hand.trick as usize];
        let mut t =
            TrickState { seat: hand.to_move, k: 0, led: 0, best: 0, best_seat: trick.leader, pts: 0, played: 0 };
        let mut seat = trick.leader;
        for (i, d) in trick.played().iter().enumerate() {
            let d = d.index() as u8;
            if i == 0 {
                t.led = self.tab.lead_suit[d as usize & 31];
                t.best = d;
                t.best_seat = seat;
            } else if self.power(t.led, d) > self.power(t.led, t.best) {
                t.best = d;
                t.best_seat = seat;
            }
            t.pts += COUNT[d as usize & 31];
            t.played |= 1 << d;
            t.k += 1;
            seat = self.next[seat as usize];
        }
        debug_assert_eq!(seat, hand.to_move);
        (t, 7 - hand.trick)
    }

    fn remaining_in_search(&self, t: &TrickState, left: u8) -> i32 {
        let all = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        left as i32 + count_of(all) + t.pts as i32
    }

    fn contract_search(&mut self, g: Goal, t: &TrickState, left: u8) -> bool {
        match g {
            Goal::Decided(made) => made,
            Goal::Points(need) => {
                let need = need as i32;
                self.search::<M_POINTS>(t, left, need - 1, need) >= need
            }
            Goal::AllTricks => self.search::<M_ALL>(t, left, 0, 1) >= 1,
            Goal::NoTricks => self.search::<M_NONE>(t, left, 0, 1) >= 1,
        }
    }

    /// Value of a search state (bidders' points to come, or 0/1) in a window.
    fn search<const MODE: u8>(&mut self, t: &TrickState, left: u8, alpha: i32, beta: i32) -> i32 {
        if t.k == 0 {
            self.trick_start::<MODE>(t.seat, left, alpha, beta)
        } else {
            self.play::<MODE>(t, left, alpha, beta)
        }
    }

    /// Solves each legal action (equivalent dominoes share one search) with the
    /// window `(alpha, beta)` and reports `(domino, value)` in domino order.
    fn each_action<const MODE: u8>(
        &mut self,
        t: &TrickState,
        left: u8,
        alpha: i32,
        beta: i32,
        mut report: impl FnMut(u8, i32),
    ) {
        let seat = t.seat as usize;
        let legal = self.legal(self.hands[seat], t.k, t.led);
        let others = self.others(seat, t);
        let reps = self.reduce(legal, others);
        let mut vals = [0i32; 28];
        let mut m = reps;
        while m != 0 {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            self.hands[seat] ^= 1 << d;
            vals[d as usize] = self.after::<MODE>(t, d, left, alpha, beta);
            self.hands[seat] ^= 1 << d;
        }
        let mut m = legal;
        while m != 0 {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            let v = if reps & (1 << d) != 0 {
                vals[d as usize]
            } else {
                let r = self.representative(reps, d, others);
                vals[r as usize]
            };
            report(d, v);
        }
    }

    /// The exact value of a search known to lie in `lo..=hi`, by zero-window
    /// probes (the first at `guess`, then bisection); `probe(self, alpha, beta)`
    /// runs one fail-soft search.
    fn bisect(&mut self, mut lo: i32, mut hi: i32, guess: i32, probe: impl Fn(&mut Self, i32, i32) -> i32) -> i32 {
        let mut mid = guess.clamp(lo + 1, hi.max(lo + 1));
        while lo < hi {
            let v = probe(self, mid - 1, mid);
            if v < mid {
                hi = v.max(lo);
            } else {
                lo = v.min(hi);
            }
            mid = (lo + hi + 1) / 2;
        }
        lo
    }

    fn representative(&self, reps: u32, d: u8, others: u32) -> u8 {
        let aux = self.tab;
        let mut k = reps;
        while k != 0 {
            let r = k.trailing_zeros() as usize;
            k &= k - 1;
            if aux.class[r & 31] == aux.class[d as usize & 31]
                && (aux.above[r & 31] ^ aux.above[d as usize & 31]) & others == 0
            {
                return r as u8;
            }
        }
        unreachable!("every legal domino has a representative")
    }

    // -----------------------------------------------------------------------
    // The search

    #[inline]
    fn power(&self, led: u8, d: u8) -> u8 {
        self.tab.power[led as usize & 7][d as usize & 31]
    }

    /// Legal plays from `hand` as the `k`-th play of a trick led in `led`.
    #[inline]
    fn legal(&self, hand: u32, k: u8, led: u8) -> u32 {
        if self.tab.sevens {
            closest_to_seven(DominoSet(hand)).0
        } else if k == 0 {
            hand
        } else {
            let f = hand & self.tab.members[led as usize & 7];
            if f != 0 {
                f
            } else {
                hand
            }
        }
    }

    /// Dominoes held by the other seats or already on the table this trick.
    #[inline]
    fn others(&self, seat: usize, t: &TrickState) -> u32 {
        let all = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        (all & !self.hands[seat]) | t.played
    }

    /// Keeps one domino of each equivalence class of `legal`.
    #[inline]
    fn reduce(&self, legal: u32, others: u32) -> u32 {
        if legal & legal.wrapping_sub(1) == 0 {
            return legal;
        }
        let aux = self.tab;
        let mut kept = 0u32;
        let mut m = legal;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let c = aux.class[d & 31];
            if c != 0 {
                let mut k = kept;
                let mut dup = false;
                while k != 0 {
                    let r = k.trailing_zeros() as usize;
                    k &= k - 1;
                    if aux.class[r & 31] == c && (aux.above[r & 31] ^ aux.above[d & 31]) & others == 0 {
                        dup = true;
                        break;
                    }
                }
                if dup {
                    continue;
                }
            }
            kept |= 1 << d;
        }
        kept
    }

    /// Union of the legal plays, on a trick where `led` was led, of the
    /// opponents in `opp` (seats, `n` of them).
    #[inline]
    fn opp_legal(&self, opp: &[u8; 3], n: usize, led: u8) -> u32 {
        let mut u = 0;
        for &o in &opp[..n] {
            u |= self.legal(self.hands[o as usize], 1, led);
        }
        u
    }

    /// Orders the legal plays (best first); returns how many.
    fn order<const MODE: u8>(&self, t: &TrickState, legal: u32, moves: &mut [u8; 7]) -> usize {
        if legal & legal.wrapping_sub(1) == 0 {
            moves[0] = legal.trailing_zeros() as u8;
            return 1;
        }
        let tab = self.tab;
        let seat = t.seat;
        let my = self.bmask >> seat & 1;
        let mut scores = [0i32; 7];
        let mut n = 0;
        let mut m = legal;
        if MODE == M_NONE {
            // Nel-O's contract: the bidder wants to lose every trick, the
            // defenders want it to win one. Both try low plays first; the bidder
            // ducks under the winner with its highest domino that stays under.
            while m != 0 {
                let d = m.trailing_zeros() as u8;
                m &= m - 1;
                let s = if t.k == 0 {
                    if d == self.tt_move {
                        1 << 20
                    } else {
                        -(self.power(tab.lead_suit[d as usize & 31], d) as i32)
                    }
                } else {
                    let p = self.power(t.led, d) as i32;
                    if self.bidder == seat && p <= self.power(t.led, t.best) as i32 {
                        100 + p
                    } else {
                        -p
                    }
                };
                insert(&mut scores, moves, &mut n, d, s);
            }
            return n;
        }
        // The opponents still to play in this trick.
        let mut opp = [0u8; 3];
        let mut no = 0;
        let mut s = seat;
        for _ in 0..self.size - t.k - 1 {
            s = self.next[s as usize];
            if self.bmask >> s & 1 != my {
                opp[no] = s;
                no += 1;
            }
        }
        if t.k == 0 {
            // Leads: a domino no opponent can beat first (with count, strong),
            // then the others low and without count first.
            let mut cache = [u32::MAX; 8];
            while m != 0 {
                let d = m.trailing_zeros() as u8;
                m &= m - 1;
                let s = if d == self.tt_move {
                    1 << 20
                } else {
                    let c = COUNT[d as usize & 31] as i32;
                    let led = tab.lead_suit[d as usize & 31];
                    let p = self.power(led, d) as i32;
                    let slot = &mut cache[led as usize & 7];
                    if *slot == u32::MAX {
                        *slot = self.opp_legal(&opp, no, led);
                    }
                    if *slot & tab.beats[led as usize & 7][d as usize & 31] == 0 {
                        1000 + 10 * c - p
                    } else {
                        p - 10 * c
                    }
                };
                insert(&mut scores, moves, &mut n, d, s);
            }
            return n;
        }
        // Follows.
        let ol = self.opp_legal(&opp, no, t.led);
        let beats = &tab.beats[t.led as usize & 7];
        let best_p = self.power(t.led, t.best) as i32;
        let ours = (self.bmask >> t.best_seat & 1) == my;
        let ours_safe = ours && ol & beats[t.best as usize & 31] == 0;
        while m != 0 {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            let c = COUNT[d as usize & 31] as i32;
            let p = self.power(t.led, d) as i32;
            let wins = p > best_p;
            let s = if ours_safe {
                // Partner's trick is safe: give it count, keep the high ones.
                1000 + 10 * c - p / 4
            } else if wins {
                if ol & beats[d as usize & 31] == 0 {
                    // A safe win: the cheapest, with count.
                    1000 + 10 * c - p
                } else {
                    500 - 10 * c + p
                }
            } else if ours {
                300 - 10 * c - p
            } else {
                // Losing anyway: discard low, no count.
                100 - 10 * c - p
            };
            insert(&mut scores, moves, &mut n, d, s);
        }
        n
    }

    #[inline]
    fn key(&self, leader: u8, mode: u8) -> [u32; 4] {
        [
            self.hands[0] | (leader as u32) << 28 | (mode as u32) << 30,
            self.hands[1] | (self.table_id as u32) << 28,
            self.hands[2] | (self.bidder as u32) << 28,
            self.hands[3],
        ]
    }

    #[inline]
    fn index(&self, key: &[u32; 4]) -> usize {
        let a = key[0] as u64 | (key[1] as u64) << 32;
        let b = key[2] as u64 | (key[3] as u64) << 32;
        let h = (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (h >> self.shift) as usize
    }

    /// Enhanced transposition cut-off at the last play of a trick: if the table
    /// already bounds one of the trick boundaries the plays lead to tightly
    /// enough to cut, returns that bound.
    #[inline]
    fn etc<const MODE: u8>(&mut self, t: &TrickState, moves: &[u8], maxi: bool, alpha: i32, beta: i32) -> Option<i32> {
        let seat = t.seat as usize;
        for &d in moves {
            let winner = if self.power(t.led, d) > self.power(t.led, t.best) { t.seat } else { t.best_seat };
            let g = self.trick_value::<MODE>(winner, 1 + (t.pts + COUNT[d as usize & 31]) as i32);
            if MODE != M_POINTS && g == 0 {
                if !maxi {
                    return Some(0);
                }
                continue;
            }
            let g = if MODE == M_POINTS { g } else { 0 };
            self.hands[seat] ^= 1 << d;
            let key = self.key(winner, MODE);
            self.hands[seat] ^= 1 << d;
            let bucket = &self.tt[self.index(&key)].0;
            if let Some(e) = bucket.iter().find(|e| e.key == key) {
                if maxi && g + e.lo as i32 >= beta {
                    return Some(g + e.lo as i32);
                }
                if !maxi && g + e.hi as i32 <= alpha {
                    return Some(g + e.hi as i32);
                }
            }
        }
        None
    }

    /// Sure points from the top trumps: the team holding the highest remaining
    /// trumps (one seat or both partners, down to the first trump the other
    /// team holds) wins each of them whenever it is played, so it takes at least
    /// their count plus one trick per domino of the seat holding most of them.
    /// Returns `(bidders' team, points)`.
    #[inline]
    fn top_trumps(&self) -> Option<(bool, i32)> {
        let tab = self.tab;
        let mut team = None;
        let mut count = 0;
        let mut per_seat = [0i32; 4];
        for &d in &tab.trumps[..tab.num_trumps as usize] {
            let bit = 1u32 << d;
            let Some(owner) = (0..4).find(|&s| self.hands[s] & bit != 0) else {
                continue;
            };
            let t = self.bmask >> owner & 1 != 0;
            match team {
                None => team = Some(t),
                Some(x) if x != t => break,
                _ => {}
            }
            count += COUNT[d as usize & 31] as i32;
            per_seat[owner] += 1;
        }
        team.map(|t| (t, count + per_seat.iter().max().copied().unwrap_or(0)))
    }

    /// The best lead stored for a trick boundary (`NO_MOVE` if none).
    fn stored_move(&self, leader: u8, mode: u8) -> u8 {
        let key = self.key(leader, mode);
        let bucket = &self.tt[self.index(&key)].0;
        bucket.iter().find(|e| e.key == key).map_or(NO_MOVE, |e| e.mv)
    }

    /// The last trick: every playing seat holds one domino.
    fn last_trick<const MODE: u8>(&mut self, leader: u8) -> i32 {
        self.nodes += 1;
        let mut seat = leader;
        let first = self.hands[seat as usize].trailing_zeros() as u8;
        let led = self.tab.lead_suit[first as usize & 31];
        let (mut best, mut best_seat) = (first, seat);
        let mut pts = 1 + COUNT[first as usize & 31] as i32;
        for _ in 1..self.size {
            seat = self.next[seat as usize];
            let d = self.hands[seat as usize].trailing_zeros() as u8;
            if self.power(led, d) > self.power(led, best) {
                best = d;
                best_seat = seat;
            }
            pts += COUNT[d as usize & 31] as i32;
        }
        self.trick_value::<MODE>(best_seat, pts)
    }

    /// What a finished trick won by `winner` is worth: points for the bidders,
    /// or 0/1 in the contract searches (0: the contract is lost).
    #[inline]
    fn trick_value<const MODE: u8>(&self, winner: u8, pts: i32) -> i32 {
        match MODE {
            M_POINTS => {
                if self.bmask >> winner & 1 != 0 {
                    pts
                } else {
                    0
                }
            }
            M_ALL => (self.bmask >> winner & 1) as i32,
            _ => (winner != self.bidder) as i32,
        }
    }

    /// A position at a trick boundary: `leader` to lead, `left` tricks to play.
    fn trick_start<const MODE: u8>(&mut self, leader: u8, left: u8, alpha: i32, beta: i32) -> i32 {
        if left == 0 {
            return if MODE == M_POINTS { 0 } else { 1 };
        }
        if left == 1 {
            return self.last_trick::<MODE>(leader);
        }
        let (mut lo, mut hi) = if MODE == M_POINTS {
            let all = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
            let total = left as i32 + count_of(all);
            match self.top_trumps() {
                Some((true, sure)) => (sure, total),
                Some((false, sure)) => (0, total - sure),
                None => (0, total),
            }
        } else if MODE == M_ALL && matches!(self.top_trumps(), Some((false, _))) {
            // A defender holds the top trump: it wins a trick whenever played.
            return 0;
        } else {
            (0, 1)
        };
        if hi <= alpha {
            return hi;
        }
        if lo >= beta {
            return lo;
        }
        let key = self.key(leader, MODE);
        let idx = self.index(&key);
        let bucket = &self.tt[idx].0;
        let slot = bucket.iter().position(|e| e.key == key);
        let mut tt_move = NO_MOVE;
        if let Some(i) = slot {
            let e = bucket[i];
            lo = lo.max(e.lo as i32);
            hi = hi.min(e.hi as i32);
            tt_move = e.mv;
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
        }
        let a = alpha.max(lo);
        let b = beta.min(hi);
        let t = TrickState { seat: leader, k: 0, led: 0, best: 0, best_seat: leader, pts: 0, played: 0 };
        self.tt_move = tt_move;
        let v = self.play::<MODE>(&t, left, a, b);
        let mv = self.best_lead;
        if v <= a {
            hi = v.max(lo);
        } else if v >= b {
            lo = v.min(hi);
        } else {
            lo = v;
            hi = v;
        }
        let generation = self.generation;
        let bucket = &mut self.tt[idx].0;
        let i = slot.unwrap_or_else(|| {
            let age = |e: &Entry| ((e.meta >> 3 == generation) as u8) << 4 | (e.meta & 7);
            (0..3).min_by_key(|&i| age(&bucket[i])).unwrap_or(0)
        });
        bucket[i] = Entry { key, lo: lo as u8, hi: hi as u8, mv, meta: left | generation << 3 };
        v
    }

    /// The seat `t.seat` plays (fail-soft alpha-beta over its legal plays).
    fn play<const MODE: u8>(&mut self, t: &TrickState, left: u8, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let seat = t.seat as usize;
        let legal = self.legal(self.hands[seat], t.k, t.led);
        let others = self.others(seat, t);
        let legal = self.reduce(legal, others);
        let mut moves = [0u8; 7];
        let n = self.order::<MODE>(t, legal, &mut moves);
        let maxi = self.bmask >> seat & 1 != 0;
        if t.k + 1 == self.size && left > 2 {
            if let Some(v) = self.etc::<MODE>(t, &moves[..n], maxi, alpha, beta) {
                return v;
            }
        }
        let mut best = if maxi { i32::MIN } else { i32::MAX };
        let mut best_mv = moves[0];
        for &d in &moves[..n] {
            self.hands[seat] ^= 1 << d;
            let v = self.after::<MODE>(t, d, left, alpha, beta);
            self.hands[seat] ^= 1 << d;
            if maxi {
                if v > best {
                    best = v;
                    best_mv = d;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            } else if v < best {
                best = v;
                best_mv = d;
                if v < beta {
                    beta = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if t.k == 0 {
            self.best_lead = best_mv;
        }
        best
    }

    /// Value after `t.seat` played `d` (already removed from its hand).
    #[inline]
    fn after<const MODE: u8>(&mut self, t: &TrickState, d: u8, left: u8, alpha: i32, beta: i32) -> i32 {
        let seat = t.seat;
        let (led, best, best_seat) = if t.k == 0 {
            (self.tab.lead_suit[d as usize & 31], d, seat)
        } else if self.power(t.led, d) > self.power(t.led, t.best) {
            (t.led, d, seat)
        } else {
            (t.led, t.best, t.best_seat)
        };
        let pts = t.pts + COUNT[d as usize & 31];
        if t.k + 1 == self.size {
            let g = self.trick_value::<MODE>(best_seat, 1 + pts as i32);
            match MODE {
                M_POINTS => g + self.trick_start::<MODE>(best_seat, left - 1, alpha - g, beta - g),
                _ if g == 0 => 0,
                _ => self.trick_start::<MODE>(best_seat, left - 1, alpha, beta),
            }
        } else {
            let next = TrickState {
                seat: self.next[seat as usize],
                k: t.k + 1,
                led,
                best,
                best_seat,
                pts,
                played: t.played | 1 << d,
            };
            self.play::<MODE>(&next, left, alpha, beta)
        }
    }
}
