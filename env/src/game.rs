//! The trait both games implement (OpenSpiel-like): [`Game`] holds the static
//! facts (action count, observation shape, rules), [`GameState`] the dynamic state.

pub use crate::action::Action;
use crate::action::{ActionError, ActionMask, IllegalAction};
use crate::domino::{Domino, DominoSet};
use crate::observe::Segment;
use crate::record::json::RecordError;
use crate::view::SeatView;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What one episode covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Episode {
    /// One hand (Texas 42) or one round (Doubles).
    #[default]
    Hand,
    /// A whole game to the target; new deals come from the same random stream.
    Game,
}

/// Static facts and the constructor of states.
pub trait Game: Clone + Send + Sync + 'static {
    /// The dynamic state.
    type State: GameState;
    /// `texas42` or `doubles`.
    fn name(&self) -> &'static str;
    /// Seats at the table.
    fn num_players(&self) -> usize;
    /// The side a seat plays for (Texas 42: seats 0, 2 are team 0; Doubles: every
    /// seat for itself).
    fn team_of(&self, seat: usize) -> usize {
        seat
    }
    /// Sides competing for a win (Texas 42: 2 teams; Doubles: every player).
    fn num_sides(&self) -> usize {
        self.num_players()
    }
    /// The rules as a JSON object (what a record's `rules` holds).
    fn rules_json(&self) -> serde_json::Value;
    /// Size of the dense action space (at most 64).
    fn num_actions(&self) -> usize;
    /// Length of one seat's observation vector.
    fn obs_len(&self) -> usize;
    /// The observation layout: named segments in order.
    fn obs_segments(&self) -> &'static [Segment];
    /// Version of the observation layout.
    fn obs_version(&self) -> u32;
    /// Canonical name of an action id.
    fn action_name(&self, a: Action) -> &'static str;
    /// Parses an action name (canonical or an accepted alias).
    fn parse_action(&self, name: &str) -> Result<Action, ActionError>;
    /// The same game with one-deal rewards shaped by `reward` (games without
    /// reward shaping ignore it).
    fn with_reward(self, reward: RewardMode) -> Self {
        let _ = reward;
        self
    }
    /// A fresh state dealt from `seed`.
    fn new_state(&self, seed: u64, episode: Episode) -> Self::State;
    /// Replays a record of this game (the JSON object `bones replay` reads,
    /// whose `game` names this game): the game under the record's rules, the
    /// state after the record's actions and the replay's `result` object. A
    /// seeded single-deal record gains the dealt `hands`.
    fn replay_record(record: &mut Map<String, Value>) -> Result<(Self, Self::State, Value), RecordError>;
}

/// The dynamic state of one game.
/// States serialise with serde ([`crate::Env::save`] writes them in bincode).
pub trait GameState: Clone + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// What one seat may know of the state (what agents act from).
    type View: SeatView;
    /// The view of `seat` (its legal actions are empty unless it is to move).
    fn view(&self, seat: usize) -> Self::View;
    /// The seat to act, or `None` when the episode is over.
    fn current_seat(&self) -> Option<usize>;
    /// The legal actions as a bit mask (empty when terminal).
    fn legal_mask(&self) -> ActionMask;
    /// Applies a legal action. On error the state is unchanged.
    fn apply(&mut self, a: Action) -> Result<(), IllegalAction>;
    /// The episode is over.
    fn is_terminal(&self) -> bool;
    /// Reward earned by each seat on the last transition (zero-sum).
    fn rewards(&self) -> [f32; 4];
    /// Writes seat `seat`'s observation into `out` (length = `obs_len`): the
    /// same vector as `self.view(seat).observe(out)`.
    fn observe(&self, seat: usize, out: &mut [f32]);
    /// Every seat's current hand (full information: for oracle critics, search
    /// and tests, never for an agent's observation). Absent seats are empty.
    fn seat_hands(&self) -> [DominoSet; 4];
    /// The deal (Texas 42 hand, Doubles round) that the last action finished, if
    /// it finished one; at a terminal state, the last deal.
    fn finished_deal(&self) -> Option<DealOutcome>;
    /// The side that won the game (game episodes, once over).
    fn winning_side(&self) -> Option<usize>;
    /// Where every domino of the current deal is (full information): the
    /// hands, the table, the boneyard. `None` (the default) when the game does
    /// not say; the conformance suite ([`crate::testing`]) then skips its
    /// conservation check.
    fn dominoes(&self) -> Option<DominoLedger> {
        None
    }
    /// A state that `seat` cannot tell from this one (OpenSpiel's
    /// `ResampleFromInfostate`): what is hidden from the seat (the other hands,
    /// the boneyard's order) dealt differently from the random `seed`,
    /// consistent with everything public, its own hand unchanged. `None` when no
    /// different such state was found, and by default (a game that does not
    /// resample; the conformance suite then skips its hidden-information check).
    fn resample_hidden(&self, seat: usize, seed: u64) -> Option<Self> {
        let _ = (seat, seed);
        None
    }
}

/// Where every domino of a deal is, for [`GameState::dominoes`]: each one is in
/// exactly one hand, on the table or in the boneyard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DominoLedger {
    /// Each seat's hand (absent seats empty).
    pub hands: [DominoSet; 4],
    /// The dominoes played so far in this deal (tricks, the board).
    pub played: DominoSet,
    /// The dominoes still to be drawn, in draw order (empty for games without a
    /// boneyard).
    pub boneyard: Vec<Domino>,
    /// Every domino of the deal (the 28 in both games).
    pub set: DominoSet,
}

/// How one finished deal came out, per side (a team in Texas 42, a seat in
/// Doubles): what the arena and the trainer's evaluation count.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DealOutcome {
    /// Each side's score for the deal (Texas 42: marks awarded, or game points
    /// under `points` scoring; Doubles: the round score). Absent sides 0.
    pub score: [f64; 4],
    /// Each side's share of the deal's win (1 to the winner; Texas 42 splits a
    /// hand nobody scores in halves; a tied Doubles round counts for no one).
    pub win: [f64; 4],
    /// Points taken in play per side (Texas 42's counting points), if the game
    /// has them.
    pub points: Option<[f64; 4]>,
    /// The contract of a game with bidding, once a side declared.
    pub contract: Option<Contract>,
}

impl DealOutcome {
    /// `side`'s score minus the mean of the other sides' (of `sides`): the
    /// deal's margin as the arena and the trainer's evaluation count it.
    pub fn score_margin(&self, side: usize, sides: usize) -> f64 {
        margin(&self.score, side, sides)
    }
    /// The same margin over the points taken in play, if the game has them.
    pub fn points_margin(&self, side: usize, sides: usize) -> Option<f64> {
        self.points.map(|p| margin(&p, side, sides))
    }
}

/// `values[side]` minus the mean of the other `sides - 1` values.
fn margin(values: &[f64; 4], side: usize, sides: usize) -> f64 {
    let others: f64 = (0..sides).filter(|&s| s != side).map(|s| values[s]).sum();
    values[side] - others / (sides - 1) as f64
}

/// A declared contract (Texas 42).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    /// The declaring side.
    pub side: usize,
    /// The contract was made.
    pub made: bool,
    /// The winning bid in points (a mark is 42).
    pub bid_points: u32,
}

/// How hand rewards are shaped (game episodes always pay +1/-1 at the end).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum RewardMode {
    /// Marks won minus marks lost (under `points` scoring: game points / 42).
    #[default]
    Marks,
    /// Points taken minus points conceded, divided by 42.
    Points,
    /// `Marks` plus `Points`: the hand's result plus how well it was played, a
    /// denser signal for learning play (each part is 0 for a tied hand).
    MarksAndPoints,
}

impl RewardMode {
    /// Parses `marks`, `points` or `marks+points`.
    pub fn parse(s: &str) -> Option<RewardMode> {
        match s {
            "marks" => Some(RewardMode::Marks),
            "points" => Some(RewardMode::Points),
            "marks+points" => Some(RewardMode::MarksAndPoints),
            _ => None,
        }
    }
}
