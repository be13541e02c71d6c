//! Uniform deals under per-domino constraints: the engine of both games' world
//! samplers ([`WorldSampler`](super::WorldSampler) for Texas 42,
//! [`DoublesSampler`](super::doubles::DoublesSampler)).
//!
//! Some dominoes go to up to four *holders* (seats, or the boneyard), each
//! holder receiving a fixed number, each domino only to the holders allowed to
//! hold it; optionally one holder must receive at least `k` of the *marked*
//! dominoes (the doubles a Plunge/Splash bidder still holds). The dominoes fall
//! into classes with the same allowed holders (and marking); a dynamic programme
//! counts the completions of every split of every class (state: the class, the
//! room left in every holder but the last, which takes the rest, and the marked
//! dominoes still owed), and a deal is drawn class by class, each split in
//! proportion to its completions, the class's dominoes shuffled into the chosen
//! counts. Every admissible deal is equally likely, and nothing is rejected.

use bones_env::{Domino, DominoSet};
use rand::Rng;

use crate::agent::AgentRng;

/// Binomial coefficients up to 28.
fn binom(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k.min(n - k) {
        r = r * (n - i) as u64 / (i + 1) as u64;
    }
    r
}

/// One class of dominoes: the holders allowed to hold them (bit h: holder h),
/// the dominoes, and whether they are marked.
pub(crate) type Class = (u8, DominoSet, bool);

/// Draws deals uniformly; see the module docs.
#[derive(Clone, Debug)]
pub(crate) struct ClassDealer {
    /// Holders (2..=4); the last takes what the others leave.
    holders: usize,
    classes: Vec<Class>,
    /// The holder owed marked dominoes, and how many.
    need: Option<(usize, usize)>,
    /// Room dimensions of holders `0..holders - 1` (size + 1; 1 when absent),
    /// then of the marked dominoes owed.
    dims: [usize; 4],
    /// `suffix[i]`: dominoes in classes `i..`.
    suffix: Vec<usize>,
    /// Completions: `table[idx(i, rooms, owed)]`.
    table: Vec<u64>,
}

impl ClassDealer {
    /// A dealer of `classes` to holders of sizes `sizes` (2 to 4 holders), the
    /// holder `need.0` owed at least `need.1` marked dominoes. A deal that cannot
    /// be made has [`ClassDealer::count`] 0.
    pub(crate) fn new(sizes: &[usize], classes: Vec<Class>, need: Option<(usize, usize)>) -> ClassDealer {
        let holders = sizes.len();
        assert!((2..=4).contains(&holders), "2 to 4 holders");
        let mut dims = [1usize; 4];
        for h in 0..holders - 1 {
            dims[h] = sizes[h] + 1;
        }
        dims[3] = need.map_or(1, |(_, k)| k + 1);
        let n = classes.len();
        let mut suffix = vec![0usize; n + 1];
        for i in (0..n).rev() {
            suffix[i] = suffix[i + 1] + classes[i].1.len();
        }
        let size = (n + 1) * dims.iter().product::<usize>();
        let mut d = ClassDealer { holders, classes, need, dims, suffix, table: vec![0; size] };
        if d.suffix[0] != sizes.iter().sum::<usize>() {
            return d; // no deal: count() is 0
        }
        let end = d.idx(n, [0; 3], 0);
        d.table[end] = 1;
        for i in (0..n).rev() {
            for r0 in 0..dims[0] {
                for r1 in 0..dims[1] {
                    for r2 in 0..dims[2] {
                        for owed in 0..dims[3] {
                            let mut total = 0u64;
                            d.each_split(i, [r0, r1, r2], owed, |_, w, next| total += w * next);
                            let at = d.idx(i, [r0, r1, r2], owed);
                            d.table[at] = total;
                        }
                    }
                }
            }
        }
        d
    }

    #[inline]
    fn idx(&self, i: usize, r: [usize; 3], owed: usize) -> usize {
        (((i * self.dims[0] + r[0]) * self.dims[1] + r[1]) * self.dims[2] + r[2]) * self.dims[3] + owed
    }

    /// The state before the first class.
    fn start(&self) -> ([usize; 3], usize) {
        ([self.dims[0] - 1, self.dims[1] - 1, self.dims[2] - 1], self.dims[3] - 1)
    }

    /// Calls `f(x, ways, completions)` for each split `x` of class `i` among the
    /// holders (the last gets the rest) with room `r` left in the others and
    /// `owed` marked dominoes owed, always in the same order: `ways` splits the
    /// class that way, `completions` deal the classes after it.
    fn each_split(&self, i: usize, r: [usize; 3], owed: usize, mut f: impl FnMut([usize; 4], u64, u64)) {
        let used: usize = r.iter().sum();
        if used > self.suffix[i] {
            return;
        }
        let last = self.holders - 1;
        let last_room = self.suffix[i] - used;
        let (mask, set, marked) = self.classes[i];
        let c = set.len();
        let max = |h: usize, room: usize| if h < last && mask >> h & 1 != 0 { c.min(room) } else { 0 };
        for x0 in 0..=max(0, r[0]) {
            for x1 in 0..=max(1, r[1]).min(c - x0) {
                for x2 in 0..=max(2, r[2]).min(c - x0 - x1) {
                    let rest = c - x0 - x1 - x2;
                    if rest > last_room || (rest > 0 && mask >> last & 1 == 0) {
                        continue;
                    }
                    let mut x = [x0, x1, x2, 0];
                    x[last] = rest;
                    let owed_next = match self.need {
                        Some((h, _)) if marked => owed.saturating_sub(x[h]),
                        _ => owed,
                    };
                    let next = self.table[self.idx(i + 1, [r[0] - x0, r[1] - x1, r[2] - x2], owed_next)];
                    if next == 0 {
                        continue;
                    }
                    f(x, binom(c, x0) * binom(c - x0, x1) * binom(c - x0 - x1, x2), next);
                }
            }
        }
    }

    /// The number of admissible deals (0: none).
    pub(crate) fn count(&self) -> u64 {
        let (r, owed) = self.start();
        self.table[self.idx(0, r, owed)]
    }

    /// Draws a deal, every admissible deal equally likely: the dominoes of
    /// each holder (by index; unused entries empty).
    pub(crate) fn deal(&self, rng: &mut AgentRng) -> [DominoSet; 4] {
        let mut out = [DominoSet::EMPTY; 4];
        let (mut r, mut owed) = self.start();
        for i in 0..self.classes.len() {
            let total = self.table[self.idx(i, r, owed)];
            debug_assert!(total > 0);
            let mut pick = rng.random_range(0..total);
            let mut chosen = None;
            self.each_split(i, r, owed, |x, w, next| {
                if chosen.is_some() {
                    return;
                }
                let weight = w * next;
                if pick < weight {
                    chosen = Some(x);
                } else {
                    pick -= weight;
                }
            });
            let x = chosen.expect("a split with completions");
            let doms = shuffled(self.classes[i].1, rng);
            let mut at = 0;
            for (h, &xh) in x.iter().enumerate().take(self.holders) {
                out[h] |= doms[at..at + xh].iter().copied().collect::<DominoSet>();
                at += xh;
            }
            if let (Some((h, _)), true) = (self.need, self.classes[i].2) {
                owed = owed.saturating_sub(x[h]);
            }
            for h in 0..self.holders - 1 {
                r[h] -= x[h];
            }
        }
        out
    }
}

/// The dominoes of `set` in a uniformly random order.
pub(crate) fn shuffled(set: DominoSet, rng: &mut AgentRng) -> Vec<Domino> {
    let mut doms: Vec<Domino> = set.iter().collect();
    for j in (1..doms.len()).rev() {
        let k = rng.random_range(0..=j);
        doms.swap(j, k);
    }
    doms
}
