//! The [`Agent`] trait: a player that acts from one seat's view.
//!
//! An agent never sees a game state. The arena (or any driver) builds the view
//! of the acting seat with [`bones_env::GameState::view`] and hands the agent
//! only that view: the seat's own dominoes plus the public information of the
//! game and the legal actions (see [`bones_env::SeatView`]).

use bones_env::{Action, ActionMask, Game, GameState};
use rand_chacha::ChaCha8Rng;

/// The seat-view type of a game's states (what that game's agents act from).
pub type ViewOf<G> = <<G as Game>::State as GameState>::View;

/// The random stream an agent may draw from (seeded by the driver, so a game is
/// reproducible from its seed).
pub type AgentRng = ChaCha8Rng;

/// A player. It acts from one seat's view only and returns a legal action.
///
/// For reproducible evaluation an agent's choice must depend only on the view and
/// the random stream it is given (not on earlier games it played).
pub trait Agent<V>: Send {
    /// Chooses an action; it must be in `view.legal()`.
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action;

    /// Chooses an action as [`Agent::act`] does, or says why it cannot: an
    /// outside program that crashed, hung or replied badly. Drivers that can
    /// report a failure (the arena, the tables) call this; agents that cannot
    /// fail keep the default, which is `act`.
    fn try_act(&mut self, view: &V, rng: &mut AgentRng) -> Result<Action, AgentFailure> {
        Ok(self.act(view, rng))
    }

    /// Chooses an action as [`Agent::act`] does (the same action for the same
    /// view and stream) and says what it weighed, where it weighs the legal
    /// actions by a value (the search agents); by default nothing is said.
    fn explain(&mut self, view: &V, rng: &mut AgentRng) -> Explained {
        Explained { action: self.act(view, rng), values: None }
    }
}

impl<V, A: Agent<V> + ?Sized> Agent<V> for Box<A> {
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action {
        (**self).act(view, rng)
    }

    fn try_act(&mut self, view: &V, rng: &mut AgentRng) -> Result<Action, AgentFailure> {
        (**self).try_act(view, rng)
    }

    fn explain(&mut self, view: &V, rng: &mut AgentRng) -> Explained {
        (**self).explain(view, rng)
    }
}

/// [`Agent::try_act`] with its panics contained: an agent that panics (a bug,
/// a network that failed, an outside program whose `act` has no other way to
/// fail) is reported as failed, with the panic's message, and never replaced
/// by another action. Every driver (the arena, the tables, the servers, the
/// Python agents) asks its agents through this; the agent that panicked may
/// be left in any state, so the driver ends its game or match.
pub fn act_contained<V, A: Agent<V> + ?Sized>(
    agent: &mut A,
    view: &V,
    rng: &mut AgentRng,
) -> Result<Action, AgentFailure> {
    contain(|| agent.try_act(view, rng))?
}

/// [`Agent::explain`] with its panics contained, as [`act_contained`].
pub fn explain_contained<V, A: Agent<V> + ?Sized>(
    agent: &mut A,
    view: &V,
    rng: &mut AgentRng,
) -> Result<Explained, AgentFailure> {
    contain(|| agent.explain(view, rng))
}

/// Runs `f`, a panic in it made an [`AgentFailure`] with the panic's message.
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, AgentFailure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| AgentFailure {
        what: format!("it panicked: {}", panic_message(payload.as_ref())),
        got: "no action".to_string(),
        expected: "a legal action".to_string(),
    })
}

/// The text of a panic's payload (`panic!`'s message), or a placeholder.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// Why an agent could not choose ([`Agent::try_act`]): what happened, what
/// came back and what was expected, in words for the person running it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what}; got {got}; expected {expected}")]
pub struct AgentFailure {
    /// What went wrong (`the program exited with status 1`, `no reply within 5 s`, …).
    pub what: String,
    /// What came back (a reply line, or `nothing`), shortened.
    pub got: String,
    /// What was expected instead.
    pub expected: String,
}

/// An agent's choice with the values it chose by ([`Agent::explain`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The action chosen.
    pub action: Action,
    /// The value of each legal action it weighed, if it weighs them by one.
    pub values: Option<ActionValues>,
}

impl Explained {
    /// The choice of an agent that weighs the legal actions when it has a
    /// choice (the search agents): with one legal action, that action,
    /// unweighed; with more, what `weigh` chose. `who` names the agent in the
    /// panic when nothing is legal.
    pub fn of_choice(legal: ActionMask, who: &str, weigh: impl FnOnce() -> Explained) -> Explained {
        assert!(!legal.is_empty(), "{who} asked to act with no legal action");
        if legal.len() == 1 {
            return Explained { action: legal.nth(0), values: None };
        }
        weigh()
    }
}

/// The values an agent gave the legal actions: one number per action, higher
/// is better, in the unit `unit` names (for a person reading a hint).
#[derive(Clone, Debug, PartialEq)]
pub struct ActionValues {
    /// What the numbers are, e.g. "points your side takes from here, mean over 32 sampled worlds".
    pub unit: String,
    /// Each legal action it weighed and its value.
    pub values: Vec<(Action, f64)>,
}

// ---------------------------------------------------------------------------
