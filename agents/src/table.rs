//! The seat driver: one game with [agents](Agent) in some seats and outside
//! players (a person at a terminal or in a browser, Python, a protocol client)
//! in the others.
//!
//! A [`Table`] owns what it plays on (a [`Board`]: a bare game state,
//! [`Bare`], or a gym-style [`Env`] with its rewards and step limit), the
//! agents, the one random stream they all draw from, and the history of the
//! actions taken. [`Table::advance`] lets the agents play until an outside
//! seat must move or the episode is over; [`Table::apply`] plays the outside
//! seat's action, refusing an illegal one with the table unchanged. A whole-game
//! episode runs across its hand (round) boundaries like any other action; the
//! `_with` variants ([`Table::advance_with`], [`Table::apply_with`]) report each
//! action with the states before and after it, which is where a caller sees a
//! deal end ([`GameState::finished_deal`] of the state after).
//!
//! **Determinism.** The agents act in move order, each from its seat's view,
//! drawing from the table's single stream (the stream is shared, as the arena,
//! the front ends and the Python tables have always shared it: the same seed and
//! the same outside actions give the same game). Nothing else draws from it.
//!
//! ```
//! use bones_agents::{Agent, AgentFactory, AgentRng, AgentSpec, Bare, Table};
//! use bones_env::{Episode, GameState, Texas42, Texas42Rules};
//! use rand::SeedableRng;
//!
//! let game = Texas42::new(Texas42Rules::STANDARD);
//! let factory = AgentFactory::new();
//! // Heuristic players in seats 1..3; seat 0 is played from outside.
//! let mut seats: Vec<Option<Box<dyn Agent<_>>>> = vec![None];
//! for _ in 1..4 {
//!     seats.push(Some(factory.build(&AgentSpec::Heuristic, &game).unwrap()));
//! }
//! let board = Bare::dealt(game, 7, Episode::Hand);
//! let mut table = Table::new(board, seats, AgentRng::seed_from_u64(7));
//! table.advance().unwrap();
//! while let Some(seat) = table.outside_to_move() {
//!     assert_eq!(seat, 0);
//!     let first = table.state().legal_mask().nth(0);
//!     table.apply(first).unwrap();
//!     table.advance().unwrap();
//! }
//! assert!(table.is_over());
//! assert!(table.history().iter().any(|&(seat, _)| seat == 0));
//! ```

use std::fmt;

use crate::agent::{Agent, AgentFailure, AgentRng, ViewOf};
use bones_env::{Action, Env, EnvError, Episode, Game, GameState, IllegalAction};

/// What a [`Table`] plays on: a game, its state, and how an action is applied.
pub trait Board {
    /// The game.
    type Game: Game;
    /// Why the board refused an action (the board is then unchanged).
    type Refusal: fmt::Debug + fmt::Display;
    /// The game.
    fn game(&self) -> &Self::Game;
    /// The current state (full information: for the table and its callers,
    /// never handed to an agent).
    fn state(&self) -> &<Self::Game as Game>::State;
    /// The seat to move, `None` once the episode is over (ended, or cut off).
    fn to_move(&self) -> Option<usize>;
    /// Applies the action of the seat to move; on a refusal nothing changes.
    fn play(&mut self, action: Action) -> Result<(), Self::Refusal>;
}

/// A bare game state and its game: the board of the front ends (terminal,
/// web, bot server), whose episodes end when the state is terminal.
#[derive(Clone)]
pub struct Bare<G: Game> {
    game: G,
    state: G::State,
}

impl<G: Game> Bare<G> {
    /// `state` of `game` (dealt from a seed, or replayed from a record).
    pub fn new(game: G, state: G::State) -> Bare<G> {
        Bare { game, state }
    }

    /// A fresh state of `game` dealt from `seed` ([`Game::new_state`]).
    pub fn dealt(game: G, seed: u64, episode: Episode) -> Bare<G> {
        let state = game.new_state(seed, episode);
        Bare { game, state }
    }

    /// The game and the state.
    pub fn into_parts(self) -> (G, G::State) {
        (self.game, self.state)
    }
}

impl<G: Game> Board for Bare<G> {
    type Game = G;
    type Refusal = IllegalAction;
    fn game(&self) -> &G {
        &self.game
    }
    fn state(&self) -> &G::State {
        &self.state
    }
    fn to_move(&self) -> Option<usize> {
        self.state.current_seat()
    }
    fn play(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.state.apply(action)
    }
}

/// The environment as a board (the Python tables): its episodes end when the
/// state is terminal or `max_steps` cut them off, and it keeps each seat's
/// rewards since it last acted ([`Env::last`], through [`Table::board`]).
impl<G: Game> Board for Env<G> {
    type Game = G;
    type Refusal = EnvError;
    fn game(&self) -> &G {
        Env::game(self)
    }
    fn state(&self) -> &G::State {
        Env::state(self)
    }
    fn to_move(&self) -> Option<usize> {
        let t = self.last();
        if t.terminated || t.truncated {
            None
        } else {
            t.seat
        }
    }
    fn play(&mut self, action: Action) -> Result<(), EnvError> {
        self.step(action).map(|_| ())
    }
}

/// The agent (or outside player: `None`) of each seat, in seat order.
pub type Seats<G> = Vec<Option<Box<dyn Agent<ViewOf<G>>>>>;

/// One action taken at a table, as the `_with` methods report it.
pub struct Played<'a, G: Game> {
    /// The game.
    pub game: &'a G,
    /// The seat that acted.
    pub seat: usize,
    /// Its action.
    pub action: Action,
    /// Whether an agent chose it (else the outside player did).
    pub by_agent: bool,
    /// The length of the history with this action (its index plus one).
    pub ply: usize,
    /// The state before the action.
    pub before: &'a G::State,
    /// The state after it (its [`GameState::finished_deal`] is the deal this
    /// action ended, if it ended one).
    pub after: &'a G::State,
}

/// An agent chose an action the board refused, or could not choose (an
/// outside program that failed); the table is unchanged (the agent's seat is
/// still to move, and its draws from the stream are spent).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentError<E> {
    /// The agent's seat.
    pub seat: usize,
    /// What went wrong.
    pub refusal: Refusal<E>,
}

/// What went wrong with an agent's move ([`AgentError`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal<E> {
    /// It chose `action` and the board refused it (the board's reason).
    Board {
        /// The action chosen.
        action: Action,
        /// Why the board refused it.
        reason: E,
    },
    /// It could not choose ([`Agent::try_act`]).
    Failed(AgentFailure),
}

impl<E: fmt::Display> fmt::Display for AgentError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.refusal {
            Refusal::Board { reason, .. } => {
                write!(f, "the agent in seat {} chose an illegal action: {reason}", self.seat)
            }
            Refusal::Failed(failure) => write!(f, "the agent in seat {} failed: {failure}", self.seat),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for AgentError<E> {}

/// Why [`Table::apply`] refused an outside action; the table is unchanged.
#[derive(Debug, Clone, PartialEq)]
pub enum TableError<E> {
    /// The episode is over: nothing is to move.
    Over,
    /// The seat to move is an agent's: [`Table::advance`] plays it.
    AgentToMove {
        /// The seat to move.
        seat: usize,
    },
    /// The board refused the action (not legal now).
    Illegal(E),
}

impl<E: fmt::Display> fmt::Display for TableError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Over => f.write_str("the episode is over: no seat is to move"),
            TableError::AgentToMove { seat } => {
                write!(f, "seat {seat} is to move and an agent plays it (advance the table first)")
            }
            TableError::Illegal(e) => e.fmt(f),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for TableError<E> {}

/// Why [`Table::decide`] has no action; the table is unchanged.
#[derive(Debug, Clone, PartialEq)]
pub enum DecideError {
    /// The episode is over: nothing is to move.
    Over,
    /// The seat to move is played from outside.
    Outside {
        /// The seat to move.
        seat: usize,
    },
    /// The agent chose an action that is not legal.
    Illegal(AgentError<IllegalAction>),
}

impl fmt::Display for DecideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecideError::Over => f.write_str("the episode is over: no seat is to move"),
            DecideError::Outside { seat } => write!(f, "seat {seat} is to move and no agent plays it"),
            DecideError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DecideError {}

/// A game with agents in some seats and outside players in the others (see
/// the module docs). `B` is what it plays on: a [`Bare`] state (the default)
/// or an [`Env`].
pub struct Table<G: Game, B: Board<Game = G> = Bare<G>> {
    board: B,
    /// The agents; one may sit at several seats.
    agents: Vec<Box<dyn Agent<ViewOf<G>>>>,
    /// Each seat's agent (an index into `agents`), `None` for an outside seat.
    seating: Vec<Option<usize>>,
    /// The stream every agent draws from.
    rng: AgentRng,
    /// Every action of the episode: (seat, action).
    history: Vec<(usize, Action)>,
}

/// The callback of the `_with` methods, when there is one.
type OnPlayed<'f, 'g, G> = Option<&'f mut (dyn FnMut(&Played<'_, G>) + 'g)>;

impl<G: Game, B: Board<Game = G>> Table<G, B> {
    /// A table on `board` with the agent of each seat in `seats` (`None`, and
    /// every seat past the end of `seats`: played from outside); the agents draw
    /// from `rng`. Nothing is played yet: call [`Table::advance`].
    ///
    /// # Panics
    /// When `seats` is longer than the game has players.
    pub fn new(board: B, seats: Seats<G>, rng: AgentRng) -> Table<G, B> {
        let players = board.game().num_players();
        assert!(seats.len() <= players, "{} seats given for a table of {players}", seats.len());
        let mut table = Table { board, agents: Vec::new(), seating: vec![None; players], rng, history: Vec::new() };
        for (seat, agent) in seats.into_iter().enumerate() {
            if let Some(agent) = agent {
                table.seating[seat] = Some(table.agents.len());
                table.agents.push(agent);
            }
        }
        table
    }

    /// A table on `board` with one agent sitting at every seat of `seats`
    /// (the others played from outside), e.g. a bot server's agent at every
    /// seat; it draws from `rng`.
    ///
    /// # Panics
    /// When a seat is not one of the game's.
    pub fn shared(
        board: B,
        agent: Box<dyn Agent<ViewOf<G>>>,
        seats: impl IntoIterator<Item = usize>,
        rng: AgentRng,
    ) -> Table<G, B> {
        let mut table = Table::new(board, Vec::new(), rng);
        table.agents.push(agent);
        let players = table.seating.len();
        for seat in seats {
            assert!(seat < players, "no seat {seat} at a table of {players}");
            table.seating[seat] = Some(0);
        }
        table
    }

    /// The same table with `history` as the actions that led to its board
    /// (what a restored table had played; not checked against the board).
    pub fn with_history(mut self, history: Vec<(usize, Action)>) -> Table<G, B> {
        self.history = history;
        self
    }

    /// Starts again on `board` (a new deal, a record's position) with the
    /// stream `rng` and an empty history; the agents stay in their seats.
    /// Nothing is played yet: call [`Table::advance`].
    pub fn restart(&mut self, board: B, rng: AgentRng) {
        self.board = board;
        self.rng = rng;
        self.history.clear();
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.board.game()
    }

    /// The current state (full information: not for an outside player's eyes).
    pub fn state(&self) -> &G::State {
        self.board.state()
    }

    /// What the table plays on (an [`Env`] board answers its `last()` time step,
    /// its rewards and `save()`).
    pub fn board(&self) -> &B {
        &self.board
    }

    /// The agents' stream as it is now (what a saved table keeps).
    pub fn rng(&self) -> &AgentRng {
        &self.rng
    }

    /// Every action of the episode in order: (seat, action).
    pub fn history(&self) -> &[(usize, Action)] {
        &self.history
    }

    /// The history's actions by canonical name (a record's `actions`).
    pub fn action_names(&self) -> Vec<&'static str> {
        let game = self.board.game();
        self.history.iter().map(|&(_, a)| game.action_name(a)).collect()
    }

    /// The seat to move, `None` once the episode is over.
    pub fn to_move(&self) -> Option<usize> {
        self.board.to_move()
    }

    /// The seat to move when it is played from outside (after
    /// [`Table::advance`], the seat whose move the table waits for).
    pub fn outside_to_move(&self) -> Option<usize> {
        self.board.to_move().filter(|&seat| !self.has_agent(seat))
    }

    /// The episode is over (ended, or cut off).
    pub fn is_over(&self) -> bool {
        self.board.to_move().is_none()
    }

    /// Whether an agent plays `seat` (false for outside seats and seats the
    /// game does not have).
    pub fn has_agent(&self, seat: usize) -> bool {
        self.seating.get(seat).is_some_and(|a| a.is_some())
    }

    /// Plays the agents' seats until an outside seat must move or the episode
    /// is over. An agent's refused action stops it with the table as it was
    /// before that action.
    pub fn advance(&mut self) -> Result<(), AgentError<B::Refusal>> {
        self.run_agents(None)
    }

    /// [`Table::advance`], reporting each agent's action to `on` once it is
    /// applied.
    pub fn advance_with(&mut self, mut on: impl FnMut(&Played<'_, G>)) -> Result<(), AgentError<B::Refusal>> {
        self.run_agents(Some(&mut on))
    }

    /// Plays `action` for the outside seat to move; refused (the table
    /// unchanged) when the episode is over, when an agent's seat is to move, or
    /// when the board refuses the action. It does not advance the agents.
    pub fn apply(&mut self, action: Action) -> Result<(), TableError<B::Refusal>> {
        self.apply_outside(action, None)
    }

    /// [`Table::apply`], reporting the action to `on` once it is applied.
    pub fn apply_with(
        &mut self,
        action: Action,
        mut on: impl FnMut(&Played<'_, G>),
    ) -> Result<(), TableError<B::Refusal>> {
        self.apply_outside(action, Some(&mut on))
    }

    /// What the agent of the seat to move chooses now, without playing it
    /// (a bot server's answer): it acts from its seat's view and draws from the
    /// stream as [`Table::advance`] would; a choice outside the legal actions is
    /// an error.
    pub fn decide(&mut self) -> Result<Action, DecideError> {
        let seat = self.board.to_move().ok_or(DecideError::Over)?;
        let agent = self.seating[seat].ok_or(DecideError::Outside { seat })?;
        let state = self.board.state();
        let action = crate::agent::act_contained(&mut self.agents[agent], &state.view(seat), &mut self.rng)
            .map_err(|f| DecideError::Illegal(AgentError { seat, refusal: Refusal::Failed(f) }))?;
        let legal = state.legal_mask();
        if !legal.contains(action) {
            let refusal = Refusal::Board { action, reason: IllegalAction { action, legal } };
            return Err(DecideError::Illegal(AgentError { seat, refusal }));
        }
        Ok(action)
    }

    fn run_agents(&mut self, mut on: OnPlayed<'_, '_, G>) -> Result<(), AgentError<B::Refusal>> {
        loop {
            let Some(seat) = self.board.to_move() else { return Ok(()) };
            let Some(agent) = self.seating[seat] else { return Ok(()) };
            let view = self.board.state().view(seat);
            let action = crate::agent::act_contained(&mut self.agents[agent], &view, &mut self.rng)
                .map_err(|f| AgentError { seat, refusal: Refusal::Failed(f) })?;
            self.play(seat, action, true, on.as_deref_mut())
                .map_err(|reason| AgentError { seat, refusal: Refusal::Board { action, reason } })?;
        }
    }

    fn apply_outside(&mut self, action: Action, on: OnPlayed<'_, '_, G>) -> Result<(), TableError<B::Refusal>> {
        let seat = self.board.to_move().ok_or(TableError::Over)?;
        if self.has_agent(seat) {
            return Err(TableError::AgentToMove { seat });
        }
        self.play(seat, action, false, on).map_err(TableError::Illegal)
    }

    /// Applies `action` for `seat` (the seat to move) and records it.
    fn play(&mut self, seat: usize, action: Action, by_agent: bool, on: OnPlayed<'_, '_, G>) -> Result<(), B::Refusal> {
        match on {
            None => {
                self.board.play(action)?;
                self.history.push((seat, action));
            }
            Some(on) => {
                let before = self.board.state().clone();
                self.board.play(action)?;
                self.history.push((seat, action));
                on(&Played {
                    game: self.board.game(),
                    seat,
                    action,
                    by_agent,
                    ply: self.history.len(),
                    before: &before,
                    after: self.board.state(),
                });
            }
        }
        Ok(())
    }
}

impl<G: Game> Table<G, Env<G>> {
    /// Starts a new episode of the environment dealt from `seed` ([`Env::reset`])
    /// with the stream `rng` and an empty history. Nothing is played yet: call
    /// [`Table::advance`].
    pub fn reset(&mut self, seed: u64, rng: AgentRng) {
        self.board.reset(seed);
        self.rng = rng;
        self.history.clear();
    }
}

impl<G: Game, B: Board<Game = G>> fmt::Debug for Table<G, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seats: Vec<&str> = self.seating.iter().map(|a| if a.is_some() { "agent" } else { "outside" }).collect();
        f.debug_struct("Table")
            .field("game", &self.game().name())
            .field("seats", &seats)
            .field("to_move", &self.to_move())
            .field("history", &self.history.len())
            .finish_non_exhaustive()
    }
}
