//! The review of finished hands that `bones web` shows after each hand
//! ([`review_played`]) and `bones replay --review` prints for a saved record
//! ([`Reviewer::whole`]): the same review, so the page and the terminal give
//! the same numbers for the same deal.
//!
//! Texas 42 hands are reviewed for the reviewed seat's whole side by
//! [`bones_agents::review`] (each play of the seat and of its partner against
//! the open-hand solver's best, each bid and the trump against the game's
//! shipped network, `heuristic` where there is none), with where the side lost
//! most ([`side`]). Doubles rounds are reviewed against `pimc` from the seat's
//! own view at each of its choices ([`doubles`]): Doubles has no open-hand
//! solver (the boneyard's order is part of the deal).

mod doubles;
mod side;

pub use doubles::{doubles_review, REVIEW_WORLDS};

use bones_agents::review::review_hand;
use bones_agents::{Agent, AgentFactory, AgentRng, AgentSpec, Played, PolicyLoader, Solver, ViewOf};
use bones_env::texas42::Texas42State;
use bones_env::{Action, Doubles, DoublesState, Game, GameState, Texas42, Texas42View};
use rand::SeedableRng;
use serde_json::Value;
use std::any::Any;
use std::cell::RefCell;

/// The seed of the stream the bid comparison draws from (the network plays
/// greedily and draws nothing; `heuristic` may).
const REVIEW_SEED: u64 = 0x7265_7669_6577;

/// The reviewed seat's choices in the deal in progress: its view before each
/// and the action it took there, with the action's index in the history.
pub type Decisions<G> = Vec<(ViewOf<G>, Action, usize)>;

/// Reviews finished deals for a seat (the reviews on a thread share one solver).
pub struct Reviewer {
    other: Box<dyn Agent<Texas42View>>,
    spec: String,
}

impl Reviewer {
    /// A reviewer comparing Texas 42 bids with the shipped network that
    /// `models` knows, else with `heuristic`; a shipped network that does not
    /// load is named in the spec the review shows (`bidder`), never silently
    /// replaced.
    pub fn new(models: &dyn PolicyLoader) -> Reviewer {
        let game = Texas42::default();
        let factory = AgentFactory::with_models(models);
        let heuristic = || factory.build(&AgentSpec::Heuristic, &game).expect("heuristic plays Texas 42");
        let (other, spec) = match models.shipped("texas42").map(|path| AgentSpec::Model { path }) {
            Some(spec) => match factory.build(&spec, &game) {
                Ok(agent) => (agent, spec.to_string()),
                Err(e) => (heuristic(), format!("heuristic (the shipped network did not load: {e})")),
            },
            None => (heuristic(), AgentSpec::Heuristic.to_string()),
        };
        Reviewer { other, spec }
    }

    /// The spec the bids are compared with.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The reviews for `seat` of every deal that `actions` finish from
    /// `state` (a record's game and start), each as [`review_played`] gives
    /// it; `None` for a game without a review.
    pub fn whole<G: Game>(&mut self, game: &G, state: G::State, actions: &[Action], seat: usize) -> Option<Vec<Value>> {
        if !reviewed(&state) {
            return None;
        }
        let mut state = state;
        let mut decisions: Decisions<G> = Vec::new();
        let mut reviews = Vec::new();
        for (i, &a) in actions.iter().enumerate() {
            let before = state.clone();
            if before.current_seat() == Some(seat) {
                decisions.push((before.view(seat), a, i));
            }
            state.apply(a).expect("a replayed record's actions are legal");
            if state.finished_deal().is_some() {
                reviews.push(self.deal(game, &before, a, i + 1, seat, &decisions));
                decisions.clear();
            }
        }
        Some(reviews)
    }

    /// The review (JSON, docs/interfaces.md) for `seat` of the deal that
    /// `last` ends from `before` (`end`: the history's length after it), with
    /// the seat's `decisions` in the deal; `null` for a game without a review.
    pub fn deal<G: Game>(
        &mut self,
        game: &G,
        before: &G::State,
        last: Action,
        end: usize,
        seat: usize,
        decisions: &Decisions<G>,
    ) -> Value {
        let any: &dyn Any = before;
        if let Some(before) = any.downcast_ref::<Texas42State>() {
            let game = texas42(game);
            let other = self.other.as_mut();
            let spec = &self.spec;
            return with_solver(|solver| {
                let mut review = |s: u8| {
                    let mut rng = AgentRng::seed_from_u64(REVIEW_SEED);
                    review_hand(before, last, end, s, other, &mut rng, solver).expect("a finished hand replays")
                };
                let (mine, partner) = (review(seat as u8), review((seat as u8 + 2) % 4));
                side::side_review(&game, spec, before, last, &mine, &partner, solver)
            });
        }
        let (any_game, any_decisions): (&dyn Any, &dyn Any) = (game, decisions);
        match (any_game.downcast_ref::<Doubles>(), any_decisions.downcast_ref::<Decisions<Doubles>>()) {
            (Some(game), Some(decisions)) => doubles_review(game, seat, decisions, REVIEW_SEED),
            _ => Value::Null,
        }
    }
}

/// Whether deals of the game `state` is a state of are reviewed.
fn reviewed<S: Any>(state: &S) -> bool {
    let any: &dyn Any = state;
    any.is::<Texas42State>() || any.is::<DoublesState>()
}

thread_local! {
    /// The solver of the reviews on this thread, reused (a server's blocking
    /// threads each keep one; a review then allocates no table, and the
    /// values are exact whatever the table holds).
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::with_tt_bits(12));
}

/// Runs `f` with this thread's review solver.
fn with_solver<T>(f: impl FnOnce(&mut Solver) -> T) -> T {
    SOLVER.with(|s| f(&mut s.borrow_mut()))
}

/// The review (JSON, docs/interfaces.md) for `seat` of the deal that
/// `played` finished, if it finished one (`null` for a game without a
/// review), the bids compared with the network `models` loads; `decisions`
/// are the seat's choices in the deal. A server reviews each deal as it ends,
/// keeping no reviewer per open game.
pub fn review_played<G: Game>(
    played: &Played<'_, G>,
    seat: usize,
    decisions: &Decisions<G>,
    models: &dyn PolicyLoader,
) -> Option<Value> {
    played.after.finished_deal()?;
    if !reviewed(played.before) {
        return Some(Value::Null);
    }
    let mut reviewer = Reviewer::new(models);
    Some(reviewer.deal(played.game, played.before, played.action, played.ply, seat, decisions))
}

/// The Texas 42 game `game` is (action names only depend on the game).
fn texas42<G: Game>(game: &G) -> Texas42 {
    let any: &dyn Any = game;
    any.downcast_ref::<Texas42>().cloned().unwrap_or_default()
}
