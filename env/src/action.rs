//! Action ids, action sets and the errors about actions, shared by every game.
//!
//! This module is a leaf: it depends on nothing else in the crate but the
//! bit-word helpers of `bits`. Each game's dense action space (ids, names,
//! parsing) lives with the game:
//! [`crate::texas42::actions`] and [`crate::doubles::actions`].

use serde::{Deserialize, Serialize};
/// An action id in a game's dense action space.
pub type Action = usize;

/// A set of action ids (every game's action space has at most 64 actions).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ActionMask(pub u64);

impl ActionMask {
    /// No actions.
    pub const EMPTY: ActionMask = ActionMask(0);
    /// Whether `a` is in the set.
    #[inline]
    pub const fn contains(self, a: Action) -> bool {
        a < 64 && self.0 & (1 << a) != 0
    }
    /// Adds `a`.
    #[inline]
    pub fn insert(&mut self, a: Action) {
        self.0 |= 1 << a;
    }
    crate::bits::bit_word_size!("actions");
    /// The `n`-th action in id order (`n < len`).
    #[inline]
    pub fn nth(self, n: usize) -> Action {
        let mut m = self.0;
        for _ in 0..n {
            m &= m - 1;
        }
        m.trailing_zeros() as Action
    }
    /// Iterates the ids in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Action> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            if m == 0 {
                None
            } else {
                let a = m.trailing_zeros() as Action;
                m &= m - 1;
                Some(a)
            }
        })
    }
    /// Writes the mask as 0/1 floats into `out[..n]`.
    pub fn write_f32(self, out: &mut [f32]) {
        out.fill(0.0);
        for a in self.iter() {
            if let Some(o) = out.get_mut(a) {
                *o = 1.0;
            }
        }
    }
}

impl std::fmt::Debug for ActionMask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// An action name that is not in the game's action space.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown action `{name}` for {game}: expected {expected}")]
pub struct ActionError {
    /// The name given.
    pub name: String,
    /// The game.
    pub game: &'static str,
    /// A description of the valid names.
    pub expected: &'static str,
}

/// An action that is not legal in the current state (the state is unchanged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal action id {action}; legal ids: {legal:?}")]
pub struct IllegalAction {
    /// The action tried.
    pub action: Action,
    /// The legal actions.
    pub legal: ActionMask,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_nth_and_iter_agree() {
        let m = ActionMask(0b1011_0010);
        let v: Vec<_> = m.iter().collect();
        assert_eq!(v, vec![1, 4, 5, 7]);
        for (i, a) in v.iter().enumerate() {
            assert_eq!(m.nth(i), *a);
        }
    }
}
