//! What a seat may know: the [`SeatView`] trait of the per-seat views that
//! agents act from (each game's view: [`crate::Texas42View`],
//! [`crate::DoublesView`]; a state gives one with [`crate::GameState::view`]).

use crate::action::ActionMask;

/// One seat's view of a state: its own dominoes and the public information,
/// never another seat's hidden dominoes.
pub trait SeatView: Clone + Send + Sync + 'static {
    /// The seat whose view this is.
    fn seat(&self) -> usize;
    /// The seat's legal actions (empty unless it is to move).
    fn legal(&self) -> ActionMask;
    /// Writes the seat's observation vector (the encoding policies are trained
    /// on; equal to the state's observation for that seat) into `out`.
    fn observe(&self, out: &mut [f32]);
}
