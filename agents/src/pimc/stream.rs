//! Worlds without keeping them: [`Drawn`] holds the point of the random
//! stream that `n` worlds are drawn from and draws them again on each pass,
//! so a decision over many worlds holds one world in memory at a time, however
//! large `worlds=N` is, and sees the same worlds in the same order as a
//! collected list would (the caller's stream moves past them as collecting
//! them moved it). [`Worlds`] is what the scoring functions read: a slice of
//! worlds or a [`Drawn`] stream.

use crate::agent::AgentRng;

/// A set of worlds the scoring functions pass over, once or more.
pub trait Worlds<T> {
    /// Calls `f` with each world, in order.
    fn for_each_world(&self, f: impl FnMut(&T));
}

impl<T> Worlds<T> for [T] {
    fn for_each_world(&self, f: impl FnMut(&T)) {
        self.iter().for_each(f)
    }
}

impl<T> Worlds<T> for Vec<T> {
    fn for_each_world(&self, f: impl FnMut(&T)) {
        self.iter().for_each(f)
    }
}

/// `n` worlds drawn by `draw` from one point of a random stream, drawn again
/// (the same worlds) on every pass; a draw of `None` (a world the view does
/// not admit) is left out, as collecting leaves it out.
pub struct Drawn<F> {
    start: AgentRng,
    n: u32,
    len: usize,
    draw: F,
}

impl<T, F: Fn(&mut AgentRng) -> Option<T>> Drawn<F> {
    /// The `n` worlds `draw` makes from `rng`'s present point; `rng` moves past
    /// them, to where drawing them into a list would have left it.
    pub fn new(n: u32, rng: &mut AgentRng, draw: F) -> Drawn<F> {
        let start = rng.clone();
        let len = (0..n).filter(|_| draw(rng).is_some()).count();
        Drawn { start, n, len, draw }
    }

    /// How many worlds a pass sees.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether a pass sees no world.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T, F: Fn(&mut AgentRng) -> Option<T>> Worlds<T> for Drawn<F> {
    fn for_each_world(&self, mut f: impl FnMut(&T)) {
        let mut rng = self.start.clone();
        for _ in 0..self.n {
            if let Some(w) = (self.draw)(&mut rng) {
                f(&w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn a_drawn_stream_sees_the_collected_worlds_on_every_pass_and_leaves_the_stream_where_collecting_did() {
        let draw = |r: &mut AgentRng| {
            let x: u32 = r.random_range(0..10);
            (x != 3).then_some(x)
        };
        let mut collected_rng = AgentRng::seed_from_u64(7);
        let collected: Vec<u32> = (0..50).filter_map(|_| draw(&mut collected_rng)).collect();
        let mut rng = AgentRng::seed_from_u64(7);
        let drawn = Drawn::new(50, &mut rng, draw);
        for _ in 0..2 {
            let mut seen = Vec::new();
            drawn.for_each_world(|&w| seen.push(w));
            assert_eq!(seen, collected);
        }
        assert_eq!(drawn.len(), collected.len());
        assert!(collected.len() < 50, "the test should leave some draws out");
        assert_eq!(rng.random::<u64>(), collected_rng.random::<u64>());
    }
}
