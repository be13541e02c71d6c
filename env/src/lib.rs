//! Bones environment: Texas 42 and Doubles as deterministic, seeded,
//! multi-agent turn-based environments.
//!
//! ```
//! use bones_env::{Episode, Game, GameState, Texas42, Texas42Rules};
//!
//! let game = Texas42::new(Texas42Rules::STANDARD);
//! let mut state = game.new_state(7, Episode::Hand);
//! // Play the first legal action until the hand is over.
//! while let Some(_seat) = state.current_seat() {
//!     let a = state.legal_mask().iter().next().unwrap();
//!     state.apply(a).unwrap();
//! }
//! let marks = state.hand().award();
//! assert_eq!(marks[0] + marks[1], 1); // the forced bid of 30 is worth one mark
//! ```

#![warn(missing_docs)]

pub mod action;
pub mod bench;
mod bits;
pub mod deal;
pub mod domino;
pub mod doubles;
pub mod env;
pub mod game;
pub mod observe;
pub mod position;
pub mod record;
pub mod registry;
pub mod render;
pub mod replay;
pub mod rules;
pub mod seed;
pub mod series;
pub mod testing;
pub mod texas42;
pub mod vec_env;
pub mod view;

pub use action::{Action, ActionError, ActionMask, IllegalAction};
pub use domino::{Domino, DominoSet, ParseDominoError};
pub use doubles::{Doubles, DoublesRecord, DoublesState, DoublesView};
pub use env::{Env, EnvError, RestoreError, TimeStep};
pub use game::{Contract, DealOutcome, DominoLedger, Episode, Game, GameState, RewardMode};
pub use observe::Segment;
pub use record::typed::TypedRecord;
pub use registry::{AnyGame, AnyState, GameError, GameVisitor, Registered, GAMES};
pub use rules::{AllPass, NelloDoubles, RulesError, Scoring, Texas42Rules, Variant, Variants};
pub use texas42::{Texas42, Texas42Record, Texas42State, Texas42View};
pub use vec_env::{VecEnv, VecEnvError};
pub use view::SeatView;
