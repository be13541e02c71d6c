//! The review of finished hands that `bones web` shows after each hand
//! ([`review_played`]) and `bones replay --review` prints for a saved record
//! ([`Reviewer::whole`]): the same review, so the page and the terminal give
//! the same numbers for the same deal.
//!
//! Texas 42 hands are reviewed by [`bones_agents::review`] (each play against
//! the open-hand solver's best, each bid and the trump against the game's
//! shipped network, `heuristic` where there is none). Doubles has no
//! open-hand solver: its rounds get no review (`null`).

use bones_agents::review::{review_game, review_hand};
use bones_agents::{Agent, AgentFactory, AgentRng, AgentSpec, Played, PolicyLoader, Solver};
use bones_env::texas42::Texas42State;
use bones_env::{Action, Game, GameState, Texas42, Texas42View};
use rand::SeedableRng;
use serde_json::Value;
use std::any::Any;
use std::cell::RefCell;

/// The seed of the stream the bid comparison draws from (the network plays
/// greedily and draws nothing; `heuristic` may).
const REVIEW_SEED: u64 = 0x7265_7669_6577;

/// Reviews finished Texas 42 hands for a seat (the reviews on a thread share
/// one solver).
pub struct Reviewer {
    other: Box<dyn Agent<Texas42View>>,
    spec: String,
}

impl Reviewer {
    /// A reviewer comparing bids with the shipped Texas 42 network that
    /// `models` knows, else with `heuristic`.
    pub fn new(models: &dyn PolicyLoader) -> Reviewer {
        let game = Texas42::default();
        let factory = AgentFactory::with_models(models);
        let shipped = models.shipped("texas42").map(|path| AgentSpec::Model { path });
        let (other, spec) =
            shipped.and_then(|spec| factory.build(&spec, &game).ok().map(|a| (a, spec))).unwrap_or_else(|| {
                let agent = factory.build(&AgentSpec::Heuristic, &game).expect("heuristic plays Texas 42");
                (agent, AgentSpec::Heuristic)
            });
        Reviewer { other, spec: spec.to_string() }
    }

    /// The spec the bids are compared with.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The reviews for `seat` of every deal that `actions` finish from
    /// `state` (a record's game and start), each as [`review_played`] gives
    /// it; `None` for a game without a review.
    pub fn whole<G: Game>(&mut self, game: &G, state: G::State, actions: &[Action], seat: usize) -> Option<Vec<Value>> {
        let any: &dyn Any = &state;
        let start = any.downcast_ref::<Texas42State>()?.clone();
        let game = texas42(game);
        let other = self.other.as_mut();
        let reviews = with_solver(|solver| review_game(start, actions, seat as u8, other, REVIEW_SEED, solver))
            .expect("a replayed record's actions are legal");
        Some(reviews.iter().map(|r| r.to_json(&game, &self.spec)).collect())
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

/// The review (JSON, docs/interfaces.md) for `seat` of the deal that `played`
/// finished, if it finished one (`null` for a game without a review: Doubles),
/// the bids compared with the network `models` loads. A server reviews each
/// hand as it ends, keeping no reviewer per open game.
pub fn review_played<G: Game>(played: &Played<'_, G>, seat: usize, models: &dyn PolicyLoader) -> Option<Value> {
    played.after.finished_deal()?;
    let any: &dyn Any = played.before;
    let Some(before) = any.downcast_ref::<Texas42State>() else { return Some(Value::Null) };
    let mut reviewer = Reviewer::new(models);
    let mut rng = AgentRng::seed_from_u64(REVIEW_SEED);
    let other = reviewer.other.as_mut();
    let review =
        with_solver(|solver| review_hand(before, played.action, played.ply, seat as u8, other, &mut rng, solver))
            .expect("a finished hand replays");
    Some(review.to_json(&texas42(played.game), &reviewer.spec))
}

/// The Texas 42 game `game` is (action names only depend on the game).
fn texas42<G: Game>(game: &G) -> Texas42 {
    let any: &dyn Any = game;
    any.downcast_ref::<Texas42>().cloned().unwrap_or_default()
}
