//! What one seat may know of a game: the [`SeatView`] trait.
//!
//! A seat's view is a public information state: the seat's own dominoes, the
//! public history of the hand or round and the public facts derived from it,
//! the game totals, and the legal actions when the seat is to move. It holds
//! nothing the seat cannot see (no other seat's dominoes, no boneyard order), so
//! agents acting from a view cannot cheat, and two states that differ only in
//! what is hidden from the seat give it the same view. Each game's state builds
//! its views with [`GameState::view`](crate::GameState::view), and a seat's
//! observation vector is written from the facts its view holds (by the same
//! code, whether read from the view or straight off the state).

use crate::action::ActionMask;

/// One seat's public information state (see the module docs).
pub trait SeatView: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// The seat whose view this is.
    fn seat(&self) -> usize;
    /// The legal actions of this seat (empty unless it is to move).
    fn legal(&self) -> ActionMask;
    /// Writes this seat's observation vector into `out` (the game's `obs_len`
    /// floats): the same vector as the state's
    /// [`observe`](crate::GameState::observe) for this seat.
    fn observe(&self, out: &mut [f32]);
}

/// Implements a game's seat-facts trait (what its observation writer reads)
/// for a type that holds the facts in fields of the same names, its own or
/// those of a struct it points to (`fields of |f| f.round`): `copy` facts
/// return the field, `refer` facts a reference to it; facts that are not a
/// field of their name follow as methods written out. Every method is
/// `#[inline]` (the observation writer reads facts in its inner loops).
macro_rules! facts_in_fields {
    ($facts:ident for $ty:ty, fields of |$f:ident| $fields:expr;
        copy $($c:ident: $ct:ty),* ;
        refer $($r:ident: $rt:ty),* ;
        $($(#[$attr:meta])* fn $m:ident $args:tt -> $mt:ty $body:block)*
    ) => {
        impl $facts for $ty {
            $(
                #[inline]
                fn $c(&self) -> $ct {
                    let $f = self;
                    $fields.$c
                }
            )*
            $(
                #[inline]
                fn $r(&self) -> &$rt {
                    let $f = self;
                    &$fields.$r
                }
            )*
            $(
                $(#[$attr])*
                #[inline]
                fn $m $args -> $mt $body
            )*
        }
    };
}
pub(crate) use facts_in_fields;

/// Implements [`SeatView`] and, with [`facts_in_fields`], a game's seat-facts
/// trait for a view that holds the facts in its fields: the seat is the field
/// `seat`, the legal actions `legal`, and the observation is written by `WRITE`
/// from the facts.
macro_rules! view_in_fields {
    ($ty:ty: $facts:ident, $write:path { $($facts_body:tt)* }) => {
        impl $crate::view::SeatView for $ty {
            #[inline]
            fn seat(&self) -> usize {
                self.seat as usize
            }
            #[inline]
            fn legal(&self) -> $crate::action::ActionMask {
                self.legal
            }
            fn observe(&self, out: &mut [f32]) {
                $write(self, out)
            }
        }

        $crate::view::facts_in_fields!($facts for $ty, fields of |v| v; $($facts_body)*);
    };
}
pub(crate) use view_in_fields;
