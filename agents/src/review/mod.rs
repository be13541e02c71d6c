//! Reviews of finished deals for one seat: what `bones web` shows after each
//! deal ([`review_played`]) and `bones replay --review` prints for a saved
//! record ([`Reviewer::whole`]): the same review, so the page and the terminal
//! give the same numbers for the same deal. Each game says how its deals are
//! reviewed ([`ReviewGame::review_deal`]).
//!
//! Texas 42 hands are reviewed for the reviewed seat's whole side ([`hand`]:
//! each play of the seat and of its partner against the open-hand solver's
//! best, each bid and the trump against the game's shipped network,
//! `heuristic` where there is none), with where the side lost most ([`side`]).
//! Doubles rounds are reviewed against `pimc` from the seat's own view at each
//! of its choices ([`doubles`]): Doubles has no open-hand solver (the
//! boneyard's order is part of the deal).

pub mod doubles;
pub mod hand;
pub mod side;

pub use doubles::{doubles_review, REVIEW_WORLDS};
pub use hand::{review_game, review_hand, ChoiceReview, HandReview, PlayReview};

use crate::agent::{Agent, AgentRng, ViewOf};
use crate::heuristic::texas42::Texas42Heuristic;
use crate::policy::{ObservingAgent, PolicyLoader, Wanted};
use crate::solver::Solver;
use crate::spec::{AgentSpec, SpecError};
use crate::table::Played;
use bones_env::texas42::Texas42State;
use bones_env::{Action, Game, GameState, Texas42, Texas42View};
use rand::SeedableRng;
use serde_json::Value;
use std::cell::RefCell;

/// The seed of the stream the bid comparison draws from (the network plays
/// greedily and draws nothing; `heuristic` may).
pub(crate) const REVIEW_SEED: u64 = 0x7265_7669_6577;

/// The reviewed seat's choices in the deal in progress: its view before each
/// and the action it took there, with the action's index in the history.
pub type Decisions<G> = Vec<(ViewOf<G>, Action, usize)>;

/// How a game's finished deals are reviewed (a supertrait of
/// [`AgentGame`](crate::AgentGame): every game the agents play says).
pub trait ReviewGame: Game {
    /// Whether deals of this game are reviewed ([`ReviewGame::review_deal`]).
    const REVIEWED: bool;

    /// The review (JSON, docs/interfaces/web.md) for `seat` of the deal that
    /// `last` ends from `before` (`end`: the history's length after it), with
    /// the seat's `decisions` in the deal; `null` when the game is not
    /// [`REVIEWED`](ReviewGame::REVIEWED).
    fn review_deal(
        &self,
        reviewer: &mut Reviewer,
        before: &Self::State,
        last: Action,
        end: usize,
        seat: usize,
        decisions: &Decisions<Self>,
    ) -> Value;
}

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
        let heuristic = || -> Box<dyn Agent<Texas42View>> { Box::new(Texas42Heuristic::default()) };
        let (other, spec) = match models.shipped("texas42") {
            Some(path) => {
                let spec = AgentSpec::Model { path: path.clone() }.to_string();
                match models.load(&path, Wanted::of(&game)) {
                    Ok(policy) => {
                        let agent: Box<dyn Agent<Texas42View>> = Box::new(ObservingAgent::new(policy, game.obs_len()));
                        (agent, spec)
                    }
                    Err(reason) => {
                        let e = SpecError::BadModel { spec, reason };
                        (heuristic(), format!("heuristic (the shipped network did not load: {e})"))
                    }
                }
            }
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
    pub fn whole<G: ReviewGame>(
        &mut self,
        game: &G,
        state: G::State,
        actions: &[Action],
        seat: usize,
    ) -> Option<Vec<Value>> {
        if !G::REVIEWED {
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

    /// The review (JSON, docs/interfaces/web.md) for `seat` of the deal that
    /// `last` ends from `before` (`end`: the history's length after it), with
    /// the seat's `decisions` in the deal; `null` for a game without a review.
    pub fn deal<G: ReviewGame>(
        &mut self,
        game: &G,
        before: &G::State,
        last: Action,
        end: usize,
        seat: usize,
        decisions: &Decisions<G>,
    ) -> Value {
        game.review_deal(self, before, last, end, seat, decisions)
    }

    /// The review of a Texas 42 hand for `seat`'s side ([`side::side_review`]):
    /// the hand that `last` ends from `before`.
    pub(crate) fn texas42_hand(
        &mut self,
        game: &Texas42,
        before: &Texas42State,
        last: Action,
        end: usize,
        seat: usize,
    ) -> Value {
        let other = self.other.as_mut();
        let spec = &self.spec;
        with_solver(|solver| {
            let mut review = |s: u8| {
                let mut rng = AgentRng::seed_from_u64(REVIEW_SEED);
                review_hand(before, last, end, s, other, &mut rng, solver).expect("a finished hand replays")
            };
            let (mine, partner) = (review(seat as u8), review((seat as u8 + 2) % 4));
            side::side_review(game, spec, before, last, &mine, &partner, solver)
        })
    }
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

/// The review (JSON, docs/interfaces/web.md) for `seat` of the deal that
/// `played` finished, if it finished one (`null` for a game without a
/// review), the bids compared with the network `models` loads; `decisions`
/// are the seat's choices in the deal. A server reviews each deal as it ends,
/// keeping no reviewer per open game.
pub fn review_played<G: ReviewGame>(
    played: &Played<'_, G>,
    seat: usize,
    decisions: &Decisions<G>,
    models: &dyn PolicyLoader,
) -> Option<Value> {
    played.after.finished_deal()?;
    if !G::REVIEWED {
        return Some(Value::Null);
    }
    let mut reviewer = Reviewer::new(models);
    Some(reviewer.deal(played.game, played.before, played.action, played.ply, seat, decisions))
}
