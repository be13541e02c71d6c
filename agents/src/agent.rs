//! The [`Agent`] trait, the per-seat views agents act from, and agent specs.
//!
//! An agent never sees a game state. The arena (or any driver) builds a view of
//! the acting seat with [`ViewState::view`] and hands the agent only that view:
//! the seat's own dominoes plus the public information of the game (bids, the
//! declaration, every trick so far, points, the Doubles board, hand sizes, …) and
//! the legal actions. Views copy exactly those facts out of the state, so the
//! other seats' hidden dominoes (and the Doubles boneyard order) cannot be reached
//! through the trait. Views are `#[non_exhaustive]`: outside this crate they can
//! only be built from a state.
//!
//! Agent specs (used by `bones eval`, `play`, `serve`): `random`, `heuristic`,
//! `highest` (Doubles only), `pimc[:worlds=N]`, `model:PATH`. [`AgentSpec`]
//! parses them; [`AgentSpec::texas42`] and [`AgentSpec::doubles`] build the agent
//! for a game, or say why they cannot ([`SpecError`]).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use bones_env::action::{DOUBLES, NEL_O, PASS, TRUMP_BLANKS};
use bones_env::doubles::{Board, Round};
use bones_env::rules::DoublesRules;
use bones_env::texas42::{Hand, Phase, SuitTable, Trick};
use bones_env::{Action, ActionMask, DominoSet, DoublesState, GameState, Texas42Rules, Texas42State};
use rand_chacha::ChaCha8Rng;

/// The random stream an agent may draw from (seeded by the driver, so a game is
/// reproducible from its seed).
pub type AgentRng = ChaCha8Rng;

/// What every per-seat view offers a driver.
pub trait SeatView {
    /// The acting seat.
    fn seat(&self) -> usize;
    /// The legal actions of the acting seat.
    fn legal(&self) -> ActionMask;
}

/// A game state that can show one seat its view.
pub trait ViewState: GameState {
    /// The view type.
    type View: SeatView;
    /// The view of `seat` (normally the seat to move).
    fn view(&self, seat: usize) -> Self::View;
}

/// A player. It acts from one seat's view only and returns a legal action.
///
/// For reproducible evaluation an agent's choice must depend only on the view and
/// the random stream it is given (not on earlier games it played).
pub trait Agent<V>: Send {
    /// Chooses an action; it must be in `view.legal()`.
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action;
}

impl<V, A: Agent<V> + ?Sized> Agent<V> for Box<A> {
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action {
        (**self).act(view, rng)
    }
}

// ---------------------------------------------------------------------------
// Texas 42

/// One seat's view of a Texas 42 state: its own dominoes and everything public.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Texas42View {
    /// The acting seat (0..4; team = seat % 2).
    pub seat: u8,
    /// Rule options.
    pub rules: Texas42Rules,
    /// The shaker of this hand.
    pub dealer: u8,
    /// The hand's phase.
    pub phase: Phase,
    /// Dominoes this seat holds now.
    pub hand: DominoSet,
    /// Each seat's bid (`None` before it has bid).
    pub bids: [Option<Action>; 4],
    /// The high bid's action id (`PASS` when none yet).
    pub high_bid: Action,
    /// The high bidder (`None` while no one has bid).
    pub bidder: Option<u8>,
    /// The seat that declares/declared (`None` while bidding).
    pub declarer: Option<u8>,
    /// The declaration's action id (`None` before it is made).
    pub declaration: Option<Action>,
    /// Tricks: the completed ones, then the current one (`tricks[trick]`).
    pub tricks: [Trick; 7],
    /// Index of the current trick (7 once all are played).
    pub trick: u8,
    /// Points taken per team this hand.
    pub points: [u8; 2],
    /// Tricks won per seat.
    pub tricks_won: [u8; 4],
    /// Every domino played so far this hand.
    pub played: DominoSet,
    /// The seat sitting out (Nel-O: the bidder's partner).
    pub sitting_out: Option<u8>,
    /// Legal actions of this seat.
    pub legal: ActionMask,
    /// Game totals per team (marks, or points under `points` scoring).
    pub totals: [u32; 2],
    /// Hands finished earlier in this game.
    pub hands_played: u32,
    /// The hand as this seat could rebuild it (hidden dominoes re-dealt; see
    /// `Hand::public_for`): what the observation is computed from.
    pub public: Hand,
}

impl SeatView for Texas42View {
    fn seat(&self) -> usize {
        self.seat as usize
    }
    fn legal(&self) -> ActionMask {
        self.legal
    }
}

impl ViewState for Texas42State {
    type View = Texas42View;
    fn view(&self, seat: usize) -> Texas42View {
        let mut v = Texas42View::from_hand(self.hand(), seat as u8);
        v.totals = self.totals();
        v.hands_played = self.hands_played();
        if self.current_seat() != Some(seat) {
            v.legal = ActionMask::EMPTY;
        }
        v
    }
}

impl Texas42View {
    /// The view of `seat` of a single hand (game totals zero). Only public fields
    /// of the hand and `seat`'s own dominoes are copied.
    pub fn from_hand(h: &Hand, seat: u8) -> Texas42View {
        let seat = seat % 4;
        let has_high = h.high_bid as Action != PASS;
        // A hand ends during bidding only when thrown in (no high bid).
        let declared = h.phase == Phase::Playing || (h.phase == Phase::Done && has_high);
        let mut tricks = h.tricks;
        let mut played = DominoSet::EMPTY;
        if declared {
            for t in tricks.iter() {
                for d in t.played() {
                    played.insert(*d);
                }
            }
        } else {
            // Nothing has been played; keep the (empty) trick slots as they are.
            for t in tricks.iter_mut() {
                t.len = 0;
            }
        }
        Texas42View {
            seat,
            rules: h.rules,
            dealer: h.dealer,
            phase: h.phase,
            hand: h.hands[seat as usize],
            bids: [h.bid_of(0), h.bid_of(1), h.bid_of(2), h.bid_of(3)],
            high_bid: h.high_bid as Action,
            bidder: has_high.then_some(h.bidder),
            declarer: (h.phase != Phase::Bidding && has_high).then_some(h.declarer),
            declaration: declared.then_some(h.declaration as Action),
            tricks,
            trick: h.trick,
            points: h.points,
            tricks_won: h.tricks_won,
            played,
            sitting_out: h.sitting_out(),
            legal: if h.to_move == seat && h.phase != Phase::Done { h.legal_mask() } else { ActionMask::EMPTY },
            totals: [0; 2],
            hands_played: 0,
            public: h.public_for(seat as usize),
        }
    }

    /// This seat's observation vector (the encoding the policies are trained on).
    pub fn observe(&self, out: &mut [f32]) {
        bones_env::texas42::observe_hand(&self.public, self.totals, self.seat as usize, out)
    }

    /// This seat's team (0 or 1).
    #[inline]
    pub fn team(&self) -> usize {
        (self.seat & 1) as usize
    }
    /// This seat's partner.
    #[inline]
    pub fn partner(&self) -> u8 {
        (self.seat + 2) % 4
    }
    /// Whether this seat's team won the bid.
    #[inline]
    pub fn bidding_team(&self) -> bool {
        self.bidder.is_some_and(|b| b % 2 == self.seat % 2)
    }
    /// The trick in progress (`None` once all are played).
    #[inline]
    pub fn current_trick(&self) -> Option<&Trick> {
        self.tricks.get(self.trick as usize)
    }
    /// Nel-O is being played.
    #[inline]
    pub fn is_nello(&self) -> bool {
        self.declaration == Some(NEL_O)
    }
    /// Dominoes per trick (3 in Nel-O).
    #[inline]
    pub fn trick_size(&self) -> usize {
        if self.sitting_out.is_some() {
            3
        } else {
            4
        }
    }
    /// The seat after `seat` in play order (skipping a seat that sits out).
    #[inline]
    pub fn next_in_play(&self, seat: u8) -> u8 {
        self.public.next_in_play(seat)
    }
    /// The seat that played the `i`-th domino of trick `t`.
    pub fn seat_of_play(&self, t: usize, i: usize) -> u8 {
        self.public.seat_of_play(t, i)
    }
    /// The trump suit: 0..6 a pip suit, 7 doubles; `None` for follow-me, Nel-O,
    /// Sevens or before the declaration.
    pub fn trump_suit(&self) -> Option<usize> {
        match self.declaration? {
            d @ TRUMP_BLANKS..DOUBLES => Some(d - TRUMP_BLANKS),
            DOUBLES => Some(7),
            _ => None,
        }
    }
    /// The trump dominoes (empty without a trump suit).
    pub fn trumps(&self) -> DominoSet {
        match self.trump_suit() {
            Some(7) => DominoSet::DOUBLES,
            Some(t) => DominoSet::with_pip(t as u8),
            None => DominoSet::EMPTY,
        }
    }
    /// The suit table of the declaration (`None` for Sevens or before declaring).
    pub fn suit_table(&self) -> Option<&'static SuitTable> {
        bones_env::texas42::suit_table(self.declaration?, self.rules.nello_doubles)
    }
    /// Dominoes whose holder this seat does not know: not played, not its own.
    #[inline]
    pub fn unseen(&self) -> DominoSet {
        DominoSet::FULL - self.played - self.hand
    }
    /// For each seat, the suits (bit s: suit id 0..7 of the suit table) it has
    /// shown out of by not following a led suit.
    pub fn known_voids(&self) -> [u8; 4] {
        let mut v = [0u8; 4];
        let Some(table) = self.suit_table() else { return v };
        for t in 0..=(self.trick as usize).min(6) {
            let trick = &self.tricks[t];
            if trick.len < 2 {
                continue;
            }
            let led = table.lead_suit[trick.plays[0].index()] as usize;
            let mut seat = trick.leader;
            for d in &trick.played()[1..] {
                seat = self.next_in_play(seat);
                if !table.members[led].contains(*d) {
                    v[seat as usize] |= 1 << led;
                }
            }
        }
        v
    }
}

// ---------------------------------------------------------------------------
// Doubles

/// One seat's view of a Doubles state: its own dominoes and everything public.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DoublesView {
    /// The acting seat.
    pub seat: u8,
    /// Rule options (players, blocked tie, target).
    pub rules: DoublesRules,
    /// Dominoes this seat holds now (a just-drawn domino included).
    pub hand: DominoSet,
    /// The domino this seat has just drawn and must play or pass on.
    pub drawn: Option<bones_env::Domino>,
    /// The board (open ends per number, unlocked numbers, dominoes placed).
    pub board: Board,
    /// Dominoes held per seat (unused seats 0).
    pub hand_sizes: [u8; 4],
    /// Dominoes left in the boneyard (its order is hidden).
    pub boneyard_len: u8,
    /// For each domino, the seat that played it (`NO_SEAT` if not on the board).
    pub played_by: [u8; 28],
    /// Draws per seat this round.
    pub draws: [u8; 4],
    /// Passes per seat this round.
    pub passes: [u8; 4],
    /// Per seat, bit n: publicly known to hold no domino showing n.
    pub void: [u8; 4],
    /// Per seat, bit n: publicly known not to hold n-n.
    pub no_double: [u8; 4],
    /// Legal actions of this seat.
    pub legal: ActionMask,
    /// Game totals per seat.
    pub totals: [u32; 4],
    /// The round as this seat could rebuild it (hidden dominoes re-dealt; see
    /// `Round::public_for`): what the observation is computed from.
    pub public: Round,
}

impl SeatView for DoublesView {
    fn seat(&self) -> usize {
        self.seat as usize
    }
    fn legal(&self) -> ActionMask {
        self.legal
    }
}

impl ViewState for DoublesState {
    type View = DoublesView;
    fn view(&self, seat: usize) -> DoublesView {
        let mut v = DoublesView::from_round(self.round(), seat as u8, self.game().rules);
        v.totals = self.totals();
        if self.current_seat() != Some(seat) {
            v.legal = ActionMask::EMPTY;
        }
        v
    }
}

impl DoublesView {
    /// The view of `seat` of one round (game totals zero).
    pub fn from_round(r: &Round, seat: u8, rules: DoublesRules) -> DoublesView {
        let s = seat as usize;
        let mut hand_sizes = [0u8; 4];
        for (n, h) in hand_sizes.iter_mut().zip(&r.hands[..r.players as usize]) {
            *n = h.len() as u8;
        }
        let mine = r.to_move == seat && !r.is_done();
        DoublesView {
            seat,
            rules,
            hand: r.hands[s],
            drawn: if mine { r.drawn } else { None },
            board: r.board,
            hand_sizes,
            boneyard_len: r.boneyard_len() as u8,
            played_by: r.played_by,
            draws: r.draws,
            passes: r.passes,
            void: r.void,
            no_double: r.no_double,
            legal: if mine { r.legal_mask() } else { ActionMask::EMPTY },
            totals: [0; 4],
            public: r.public_for(s),
        }
    }

    /// This seat's observation vector (the encoding the policies are trained on).
    pub fn observe(&self, out: &mut [f32]) {
        bones_env::doubles::observe_round(&self.public, &self.rules, self.totals, self.seat as usize, out)
    }
    /// Players at the table.
    #[inline]
    pub fn players(&self) -> u8 {
        self.rules.players
    }
    /// Dominoes whose holder this seat does not know (other hands and boneyard).
    #[inline]
    pub fn unseen(&self) -> DominoSet {
        DominoSet::FULL - self.board.placed - self.hand
    }
}

// ---------------------------------------------------------------------------
// Specs

/// The valid agent specs, for error messages and `--help`.
pub const VALID_SPECS: &str =
    "`random`, `heuristic`, `highest` (Doubles only), `pimc[:worlds=N]`, `model:PATH` (a model directory or checkpoint)";

/// Worlds sampled per decision by `pimc` without `worlds=N`.
pub const DEFAULT_PIMC_WORLDS: u32 = 32;

/// A parsed agent spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// Uniform over the legal actions.
    Random,
    /// The rule-based player of [`crate::heuristic`].
    Heuristic,
    /// Doubles: the legal play with the highest pip total.
    Highest,
    /// Perfect-information Monte Carlo search over sampled worlds.
    Pimc {
        /// Worlds sampled per decision.
        worlds: u32,
    },
    /// A trained policy loaded from a model directory or checkpoint.
    Model {
        /// The path given.
        path: PathBuf,
    },
}

/// Why an agent spec was rejected or cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Not one of the known agents.
    #[error("unknown agent `{spec}`: expected one of {VALID_SPECS}")]
    Unknown {
        /// The text given.
        spec: String,
    },
    /// A known agent with a bad option.
    #[error("bad agent spec `{spec}`: {reason}; expected one of {VALID_SPECS}")]
    BadOption {
        /// The text given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// The agent does not play this game.
    #[error("agent `{spec}` does not play {game}: {reason}")]
    WrongGame {
        /// The spec.
        spec: String,
        /// The game asked for.
        game: &'static str,
        /// Why not, and what to use instead.
        reason: &'static str,
    },
    /// The agent is specified correctly but not built yet.
    /// A `model:PATH` that could not be loaded.
    #[error("agent `{spec}`: {reason}")]
    BadModel {
        /// The spec as given.
        spec: String,
        /// What was wrong (missing files, another game, …).
        reason: String,
    },
    #[error("agent `{spec}` is not available yet: {reason}")]
    NotAvailable {
        /// The spec.
        spec: String,
        /// What is missing.
        reason: &'static str,
    },
}

impl FromStr for AgentSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let s = text.trim();
        let bad = |reason: String| SpecError::BadOption { spec: s.to_string(), reason };
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (s, None),
        };
        match name {
            "random" | "heuristic" | "highest" => {
                if rest.is_some() {
                    return Err(bad(format!("`{name}` takes no options")));
                }
                Ok(match name {
                    "random" => AgentSpec::Random,
                    "heuristic" => AgentSpec::Heuristic,
                    _ => AgentSpec::Highest,
                })
            }
            "pimc" => {
                let mut worlds = DEFAULT_PIMC_WORLDS;
                if let Some(opts) = rest {
                    for opt in opts.split(',') {
                        match opt.split_once('=') {
                            Some(("worlds", n)) => {
                                worlds =
                                    n.parse::<u32>().ok().filter(|&w| w >= 1).ok_or_else(|| {
                                        bad(format!("`worlds` must be a whole number >= 1, got `{n}`"))
                                    })?;
                            }
                            _ => return Err(bad(format!("unknown pimc option `{opt}` (pimc takes `worlds=N`)"))),
                        }
                    }
                }
                Ok(AgentSpec::Pimc { worlds })
            }
            "model" => match rest {
                Some(p) if !p.trim().is_empty() => Ok(AgentSpec::Model { path: PathBuf::from(p.trim()) }),
                _ => Err(bad("`model` needs a path: `model:PATH`".to_string())),
            },
            _ => Err(SpecError::Unknown { spec: s.to_string() }),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Heuristic => f.write_str("heuristic"),
            AgentSpec::Highest => f.write_str("highest"),
            AgentSpec::Pimc { worlds } => write!(f, "pimc:worlds={worlds}"),
            AgentSpec::Model { path } => write!(f, "model:{}", path.display()),
        }
    }
}

const PIMC_MISSING: &str =
    "the PIMC search agent (sampled worlds solved by the open-hand solver) has not been built yet; \
     use `random` or `heuristic`";
/// Loads a trained policy from a model or checkpoint folder as an agent; the
/// reason on failure.
pub type ModelLoader<V> = fn(&std::path::Path) -> Result<Box<dyn Agent<V>>, String>;

static MODEL_LOADERS_42: std::sync::OnceLock<ModelLoader<Texas42View>> = std::sync::OnceLock::new();
static MODEL_LOADERS_DOUBLES: std::sync::OnceLock<ModelLoader<DoublesView>> = std::sync::OnceLock::new();

/// Installs the loaders behind `model:PATH` (the trainer crate provides them; this
/// crate does not depend on the network library). Later calls are ignored.
pub fn register_model_loaders(texas42: ModelLoader<Texas42View>, doubles: ModelLoader<DoublesView>) {
    let _ = MODEL_LOADERS_42.set(texas42);
    let _ = MODEL_LOADERS_DOUBLES.set(doubles);
}

fn load_model<V>(
    loader: &std::sync::OnceLock<ModelLoader<V>>,
    path: &std::path::Path,
    spec: &AgentSpec,
) -> Result<Box<dyn Agent<V>>, SpecError> {
    match loader.get() {
        Some(load) => load(path).map_err(|reason| SpecError::BadModel { spec: spec.to_string(), reason }),
        None => Err(SpecError::NotAvailable { spec: spec.to_string(), reason: MODEL_MISSING }),
    }
}

const MODEL_MISSING: &str = "this program cannot load trained policies (the `bones` binary can)";

impl AgentSpec {
    /// Parses a spec (same as `str::parse`).
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        text.parse()
    }

    /// Parses a comma-separated list of specs (`heuristic,random`).
    pub fn parse_list(text: &str) -> Result<Vec<AgentSpec>, SpecError> {
        text.split(',').map(AgentSpec::parse).collect()
    }

    /// The Texas 42 agent of this spec.
    pub fn texas42(&self) -> Result<Box<dyn Agent<Texas42View>>, SpecError> {
        match self {
            AgentSpec::Random => Ok(Box::new(crate::random::RandomAgent)),
            AgentSpec::Heuristic => Ok(Box::new(crate::heuristic::Texas42Heuristic::default())),
            AgentSpec::Highest => Err(SpecError::WrongGame {
                spec: self.to_string(),
                game: "texas42",
                reason: "`highest` is the Doubles baseline (highest pip total); use `random` or `heuristic`",
            }),
            AgentSpec::Pimc { worlds } => Ok(Box::new(crate::pimc::PimcAgent::new(*worlds))),
            AgentSpec::Model { path } => load_model(&MODEL_LOADERS_42, path, self),
        }
    }

    /// The Doubles agent of this spec.
    pub fn doubles(&self) -> Result<Box<dyn Agent<DoublesView>>, SpecError> {
        match self {
            AgentSpec::Random => Ok(Box::new(crate::random::RandomAgent)),
            AgentSpec::Heuristic => Ok(Box::new(crate::heuristic::DoublesHeuristic::default())),
            AgentSpec::Highest => Ok(Box::new(crate::heuristic::HighestAgent)),
            AgentSpec::Pimc { .. } => Err(SpecError::NotAvailable { spec: self.to_string(), reason: PIMC_MISSING }),
            AgentSpec::Model { path } => load_model(&MODEL_LOADERS_DOUBLES, path, self),
        }
    }
}

/// A view type that has agents for every spec (implemented by both games'
/// views), so generic drivers can build agents.
pub trait SpecGame: SeatView + Sized + 'static {
    /// Builds the agent of `spec` for this game.
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, SpecError>;
}

impl SpecGame for Texas42View {
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, SpecError> {
        spec.texas42()
    }
}

impl SpecGame for DoublesView {
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, SpecError> {
        spec.doubles()
    }
}
