//! The registry of games: the one place that knows which games Bones has.
//!
//! Every tool (the CLI's commands, the trainer, the arena, the bot server, the
//! record replayer) names a game by its registry name and reaches the concrete
//! game through [`AnyGame`]: static facts directly, and generic code through
//! [`AnyGame::visit`], which calls a [`GameVisitor`] with the concrete game so
//! that hot loops stay monomorphised.
//!
//! Adding a game: implement [`Game`] and [`crate::GameState`] for it, add a
//! variant to [`AnyGame`] and to [`AnyState`] (with [`Registered`]), a line to
//! [`AnyGame::new`], [`on_game!`](crate::on_game) (which [`AnyGame::visit`],
//! the accessors and every tool use), [`AnyGame::with_reward`],
//! [`replay_record`], [`view_position`] and [`GAMES`]. The tools above this
//! crate reach games through `on_game!` with their own bounds (the agents'
//! `AgentGame`, the web page's `TableGame`, the terminal's screens), so a game
//! missing one of those impls fails to compile where it is needed
//! (docs/interfaces/library.md, "Adding a game").
//!
//! ```
//! use bones_env::registry::{AnyGame, GameVisitor};
//! use bones_env::Game;
//!
//! let game = AnyGame::new("doubles", Some(&serde_json::json!({"target": 50})), Some(3)).unwrap();
//! assert_eq!((game.name(), game.num_players()), ("doubles", 3));
//!
//! struct FirstActionName;
//! impl GameVisitor for FirstActionName {
//!     type Output = String;
//!     fn visit<G: Game>(self, game: G) -> String {
//!         game.action_name(0).to_string()
//!     }
//! }
//! assert_eq!(game.visit(FirstActionName), "0-0");
//! ```

use crate::action::ActionError;
use crate::doubles::{Doubles, DoublesState};
use crate::game::{Action, Game};
use crate::observe::Segment;
use crate::position::{position, ViewError, ViewGame};
use crate::record::json::RecordError;
use crate::rules::{parse_rules_arg, DoublesRules, RulesError, Texas42Rules};
use crate::texas42::{RewardMode, Texas42, Texas42State};
use serde_json::{Map, Value};

/// One registered game: its name and a line about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// The registry name (`--game`, a record's `game`, a model's `game`).
    pub name: &'static str,
    /// What the game is.
    pub about: &'static str,
    /// The player counts it supports.
    pub players: &'static [usize],
    /// The player count when none is given.
    pub default_players: usize,
    /// What one deal is called (`hand`, `round`).
    pub deal: &'static str,
}

/// Every game, in the order tools list them.
pub const GAMES: [GameEntry; 2] = [
    GameEntry {
        name: "texas42",
        about: "Texas 42: four players in two partnerships; bidding, trump, seven tricks",
        players: &[4],
        default_players: 4,
        deal: "hand",
    },
    GameEntry {
        name: "doubles",
        about: "Doubles: the draw game for 2-4 players, each for themself; every double a spinner",
        players: &[2, 3, 4],
        default_players: 4,
        deal: "round",
    },
];

/// The registry entry of the game `name`.
pub fn entry(name: &str) -> Option<&'static GameEntry> {
    GAMES.iter().find(|g| g.name == name)
}

/// The registry names for messages, each written by `quote`: `` `texas42` or
/// `doubles` `` (with more games: `a, b or c`).
pub fn names_or(quote: impl Fn(&str) -> String) -> String {
    let names: Vec<String> = GAMES.iter().map(|g| quote(g.name)).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// The registry names for messages: `` `texas42` or `doubles` ``.
pub fn game_names() -> String {
    names_or(|n| format!("`{n}`"))
}

/// Why a game could not be built from a name, rules and a player count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// No game of that name.
    #[error("unknown game `{0}`: expected {names}", names = game_names())]
    Unknown(String),
    /// The rules object (or preset) is not valid for the game.
    #[error("bad rules for {game}: {source}")]
    Rules {
        /// The game.
        game: &'static str,
        /// What was wrong with the rules.
        source: RulesError,
    },
    /// The game is not played by that many players.
    #[error("{game} is played by {expected}, not {got} players")]
    Players {
        /// The game.
        game: &'static str,
        /// Players asked for.
        got: usize,
        /// The counts it supports.
        expected: String,
    },
}

/// Generic code run on the concrete game of an [`AnyGame`].
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs on the concrete game.
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

/// Generic code run on a game and a state of it (a record's game and the
/// state after its actions: [`crate::replay::load_record`]).
pub trait RecordVisitor {
    /// What the visit returns.
    type Output;
    /// Runs on the concrete game and state.
    fn visit<G: Game>(self, game: G, state: G::State) -> Self::Output;
}

/// Replays a record of the game `name` ([`Game::replay_record`]): the
/// visitor's output on the record's game and final state, and the `result`.
pub fn replay_record<V: RecordVisitor>(
    name: &str,
    record: &mut Map<String, Value>,
    visitor: V,
) -> Result<(V::Output, Value), RecordError> {
    fn run<G: Game, V: RecordVisitor>(
        record: &mut Map<String, Value>,
        visitor: V,
    ) -> Result<(V::Output, Value), RecordError> {
        let (game, state, result) = G::replay_record(record)?;
        Ok((visitor.visit(game, state), result))
    }
    match name {
        "texas42" => run::<Texas42, V>(record, visitor),
        "doubles" => run::<Doubles, V>(record, visitor),
        other => Err(RecordError::record(format!("unknown game `{other}`: expected {}", game_names()))),
    }
}

/// Reads a seat's view of the game its `game` names ([`position`]): the
/// visitor's output on the view's game and a state whose view for the view's
/// seat is `view`.
pub fn view_position<V: RecordVisitor>(view: &Map<String, Value>, visitor: V) -> Result<V::Output, ViewError> {
    fn run<G: ViewGame, V: RecordVisitor>(view: &Map<String, Value>, visitor: V) -> Result<V::Output, ViewError> {
        let (game, state, _) = position::<G>(view)?;
        Ok(visitor.visit(game, state))
    }
    match view.get("game").and_then(Value::as_str) {
        Some("texas42") => run::<Texas42, V>(view, visitor),
        Some("doubles") => run::<Doubles, V>(view, visitor),
        _ => Err(ViewError(format!("`game` must be {}", names_or(|n| format!("\"{n}\""))))),
    }
}

/// `expr` on the concrete game `g` of an [`AnyGame`], whichever it is: the one
/// dispatch from a registered game to generic code. Each arm is its own
/// monomorphised copy of `expr`, so a crate whose generic code needs more of a
/// game than [`Game`] (the agents' `AgentGame`, the web's `TableGame`) calls
/// its functions here with its own bounds, and a game that lacks one of those
/// trait impls fails to compile at this call, not at run time.
///
/// ```
/// use bones_env::{on_game, AnyGame, Game};
///
/// fn first_action<G: Game>(game: &G) -> &'static str {
///     game.action_name(0)
/// }
/// let game = AnyGame::new("doubles", None, None).unwrap();
/// assert_eq!(on_game!(game, g => first_action(&g)), "0-0");
/// ```
#[macro_export]
macro_rules! on_game {
    ($any:expr, $g:ident => $e:expr) => {
        match $any {
            $crate::registry::AnyGame::Texas42($g) => $e,
            $crate::registry::AnyGame::Doubles($g) => $e,
        }
    };
}

/// A state of a registered game, borrowed: what code that holds the state of
/// one game and an agent or a view of another (Python's tables and agents)
/// compares, by game, without knowing either's type.
#[derive(Copy, Clone, Debug)]
pub enum AnyState<'a> {
    /// Texas 42.
    Texas42(&'a Texas42State),
    /// Doubles.
    Doubles(&'a DoublesState),
}

/// A game of the registry: its states to and from [`AnyState`]. Every game
/// with a variant of [`AnyGame`] implements it.
pub trait Registered: Game {
    /// `state` as a state of a registered game.
    fn any_state(state: &Self::State) -> AnyState<'_>;
    /// `state` as a state of this game; `None` when it is of another game.
    fn of_any_state(state: AnyState<'_>) -> Option<&Self::State>;
}

/// `impl Registered for $game`, whose states are `AnyState::$variant`.
macro_rules! registered {
    ($($game:ident => $variant:ident),* $(,)?) => {$(
        impl Registered for $game {
            fn any_state(state: &<$game as Game>::State) -> AnyState<'_> {
                AnyState::$variant(state)
            }
            fn of_any_state(state: AnyState<'_>) -> Option<&<$game as Game>::State> {
                match state {
                    AnyState::$variant(s) => Some(s),
                    _ => None,
                }
            }
        }
    )*};
}

registered!(Texas42 => Texas42, Doubles => Doubles);

/// A game of the registry, with its rules (and player count).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// Texas 42.
    Texas42(Texas42),
    /// Doubles.
    Doubles(Doubles),
}

impl AnyGame {
    /// The game `name` under `rules` (a rules object, `None` for the defaults)
    /// for `players` (`None` for the game's default; Doubles also reads
    /// `players` from the rules object, and the argument wins).
    pub fn new(name: &str, rules: Option<&Value>, players: Option<usize>) -> Result<AnyGame, GameError> {
        let entry = entry(name).ok_or_else(|| GameError::Unknown(name.to_string()))?;
        let bad_rules = |source| GameError::Rules { game: entry.name, source };
        if let Some(p) = players.filter(|p| !entry.players.contains(p)) {
            let counts: Vec<String> = entry.players.iter().map(usize::to_string).collect();
            return Err(GameError::Players { game: entry.name, got: p, expected: counts.join(" or ") });
        }
        let game = match entry.name {
            "texas42" => {
                let rules = rules.map(Texas42Rules::from_json).transpose().map_err(bad_rules)?;
                AnyGame::Texas42(Texas42::new(rules.unwrap_or_default()))
            }
            "doubles" => {
                let mut rules = rules.map(DoublesRules::from_json).transpose().map_err(bad_rules)?.unwrap_or_default();
                if let Some(p) = players {
                    rules.players = p as u8;
                }
                AnyGame::Doubles(Doubles::new(rules))
            }
            other => return Err(GameError::Unknown(other.to_string())),
        };
        Ok(game)
    }

    /// Like [`AnyGame::new`], with the rules as command-line text: a preset name
    /// (`standard`, `full`) or a JSON rules object.
    pub fn from_rules_text(name: &str, rules: &str, players: Option<usize>) -> Result<AnyGame, GameError> {
        let entry = entry(name).ok_or_else(|| GameError::Unknown(name.to_string()))?;
        let v = parse_rules_arg(rules).map_err(|source| GameError::Rules { game: entry.name, source })?;
        AnyGame::new(name, Some(&v), players)
    }

    /// The same game with hand rewards shaped by `reward` (games without
    /// reward shaping ignore it).
    pub fn with_reward(self, reward: RewardMode) -> AnyGame {
        match self {
            AnyGame::Texas42(g) => AnyGame::Texas42(g.with_reward(reward)),
            AnyGame::Doubles(g) => AnyGame::Doubles(g.with_reward(reward)),
        }
    }

    /// Runs `visitor` on the concrete game.
    pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
        on_game!(*self, g => visitor.visit(g))
    }

    /// The registry entry of this game.
    pub fn entry(&self) -> &'static GameEntry {
        let name = self.name();
        entry(name).expect("every variant is registered")
    }

    /// Registry name.
    pub fn name(&self) -> &'static str {
        on_game!(self, g => g.name())
    }
    /// Seats at the table.
    pub fn num_players(&self) -> usize {
        on_game!(self, g => g.num_players())
    }
    /// Sides competing for a win.
    pub fn num_sides(&self) -> usize {
        on_game!(self, g => g.num_sides())
    }
    /// Size of the dense action space.
    pub fn num_actions(&self) -> usize {
        on_game!(self, g => g.num_actions())
    }
    /// Length of one seat's observation.
    pub fn obs_len(&self) -> usize {
        on_game!(self, g => g.obs_len())
    }
    /// The observation's named segments.
    pub fn obs_segments(&self) -> &'static [Segment] {
        on_game!(self, g => g.obs_segments())
    }
    /// The observation layout's version.
    pub fn obs_version(&self) -> u32 {
        on_game!(self, g => g.obs_version())
    }
    /// Canonical name of an action id.
    pub fn action_name(&self, a: Action) -> &'static str {
        on_game!(self, g => g.action_name(a))
    }
    /// Every action name in id order.
    pub fn action_names(&self) -> Vec<&'static str> {
        (0..self.num_actions()).map(|a| self.action_name(a)).collect()
    }
    /// Parses an action name.
    pub fn parse_action(&self, name: &str) -> Result<Action, ActionError> {
        on_game!(self, g => g.parse_action(name))
    }
    /// The rules as a JSON object.
    pub fn rules_json(&self) -> Value {
        on_game!(self, g => g.rules_json())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn games_are_built_by_name_with_rules_and_players() {
        let g = AnyGame::new("texas42", Some(&json!({"preset": "full"})), None).unwrap();
        assert_eq!(g, AnyGame::Texas42(Texas42::new(Texas42Rules::FULL)));
        assert_eq!((g.num_players(), g.num_sides(), g.num_actions()), (4, 2, 61));
        let d = AnyGame::from_rules_text("doubles", "standard", Some(2)).unwrap();
        assert_eq!((d.num_players(), d.num_sides(), d.num_actions()), (2, 2, 58));
        assert_eq!(d.action_names().len(), 58);
        for entry in GAMES {
            let g = AnyGame::new(entry.name, None, None).unwrap();
            assert_eq!((g.name(), g.num_players()), (entry.name, entry.default_players));
            assert_eq!(g.entry(), &entry);
            let total: usize = g.obs_segments().iter().map(|s| s.len).sum();
            assert_eq!(total, g.obs_len());
        }
    }

    #[test]
    fn bad_names_rules_and_player_counts_say_what_was_expected() {
        let e = AnyGame::new("chess", None, None).unwrap_err().to_string();
        assert!(e.contains("chess") && e.contains("`texas42`") && e.contains("`doubles`"), "{e}");
        let e = AnyGame::new("texas42", None, Some(3)).unwrap_err().to_string();
        assert!(e.contains("texas42 is played by 4, not 3"), "{e}");
        let e = AnyGame::new("doubles", Some(&json!({"early_end": true})), None).unwrap_err().to_string();
        assert!(e.contains("early_end"), "{e}");
        let e = AnyGame::from_rules_text("texas42", "{not json", None).unwrap_err().to_string();
        assert!(e.contains("bad rules for texas42"), "{e}");
    }
}
