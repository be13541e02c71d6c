//! What the crate's sets held as one bit word share
//! ([`ActionMask`](crate::action::ActionMask),
//! [`DominoSet`](crate::domino::DominoSet)): counting their members.

/// Writes `len` and `is_empty` (both `const fn`) in the `impl` of a set held as
/// one unsigned bit word in field `0`; `$what` names the members in their docs
/// ("actions", "dominoes").
macro_rules! bit_word_size {
    ($what:literal) => {
        #[doc = concat!("Number of ", $what, ".")]
        #[inline]
        pub const fn len(self) -> usize {
            self.0.count_ones() as usize
        }
        #[doc = concat!("No ", $what, ".")]
        #[inline]
        pub const fn is_empty(self) -> bool {
            self.0 == 0
        }
    };
}
pub(crate) use bit_word_size;
