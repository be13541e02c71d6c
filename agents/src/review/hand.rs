//! A review of a finished Texas 42 hand for one seat, as a teacher gives it
//! after the hand: each of the seat's plays against the open-hand
//! [`Solver`]'s best in the real deal (bridge programs call this double-dummy
//! analysis: every hand open, best play by all four seats after the play), and
//! each of its bids and its trump against another agent's choice from the same
//! view (the network's, in `bones web` and `bones replay --review`).
//!
//! A play's worth is the points its seat's side takes from that play to the
//! end of the hand (the trick in progress included, early end ignored), with
//! every hand open and best play afterwards; the points given up by a play are
//! the best play's worth minus its own. The review reads the whole deal, so it
//! is for a hand that is over: [`review_hand`] takes the state just before the
//! hand's last action, as a driver holds it when the hand ends.
//!
//! ```
//! use bones_agents::review::review_game;
//! use bones_agents::Solver;
//! use bones_agents::heuristic::texas42::Texas42Heuristic;
//! use bones_env::{Episode, Game, GameState, Texas42, Texas42Rules};
//!
//! let game = Texas42::new(Texas42Rules::STANDARD);
//! let mut state = game.from_seed(0, 5, Episode::Hand);
//! let mut actions = Vec::new();
//! while let Some(_) = state.current_seat() {
//!     let a = state.legal_mask().iter().next().unwrap();
//!     state.apply(a).unwrap();
//!     actions.push(a);
//! }
//! let mut bidder = Texas42Heuristic::default();
//! let reviews =
//!     review_game(game.from_seed(0, 5, Episode::Hand), &actions, 0, &mut bidder, 1, &mut Solver::new()).unwrap();
//! assert_eq!(reviews.len(), 1);
//! assert!(reviews[0].plays.iter().all(|p| p.best_points >= p.played_points));
//! ```

use bones_env::texas42::{Hand, Phase, Texas42State};
use bones_env::{Action, Game, GameState, IllegalAction, Texas42, Texas42View};
use rand::SeedableRng;
use serde_json::{json, Value};

use crate::agent::{Agent, AgentRng};
use crate::solver::Solver;

/// One play of the reviewed seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayReview {
    /// The play's index in the game's history (the history's length before it).
    pub ply: usize,
    /// The trick it was played to, 1..=7.
    pub trick: u8,
    /// The domino played.
    pub action: Action,
    /// The solver's best play (the lowest id among equals, unless the play was one of them).
    pub best: Action,
    /// Points the seat's side takes from here with this play, all hands open.
    pub played_points: i32,
    /// The same for the best play.
    pub best_points: i32,
    /// Every legal play with its points, best first (ties by id).
    pub moves: Vec<(Action, i32)>,
}

impl PlayReview {
    /// Points given up by the play (0 for a best play).
    pub fn lost(&self) -> i32 {
        self.best_points - self.played_points
    }
}

/// One bid or trump choice of the reviewed seat beside the other agent's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceReview {
    /// Its index in the game's history.
    pub ply: usize,
    /// What the seat chose.
    pub action: Action,
    /// What the other agent chose from the same view.
    pub other: Action,
}

/// The review of one finished hand for one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandReview {
    /// The seat reviewed.
    pub seat: u8,
    /// Its bids (none when the others' bids ended the auction before its turn).
    pub bids: Vec<ChoiceReview>,
    /// Its trump choice, when it declared.
    pub declaration: Option<ChoiceReview>,
    /// Its plays in order.
    pub plays: Vec<PlayReview>,
}

impl HandReview {
    /// Points given up over the hand.
    pub fn lost(&self) -> i32 {
        self.plays.iter().map(PlayReview::lost).sum()
    }

    /// The index (in `plays`) of the play that gave up the most points, the
    /// first of equals; `None` when no play gave up any.
    pub fn largest(&self) -> Option<usize> {
        let most = self.plays.iter().map(PlayReview::lost).max().filter(|&m| m > 0)?;
        self.plays.iter().position(|p| p.lost() == most)
    }

    /// The review as JSON (docs/interfaces/web.md, `bones web`: the review):
    /// actions by name; `other` is the spec of the agent the bids are compared
    /// with (written as `bidder`, each choice's pick as `network`).
    pub fn to_json(&self, game: &Texas42, other: &str) -> Value {
        let name = |a: Action| game.action_name(a);
        let choice = |c: &ChoiceReview| json!({"ply": c.ply, "action": name(c.action), "network": name(c.other)});
        let plays: Vec<Value> = self
            .plays
            .iter()
            .map(|p| {
                let moves: Vec<Value> =
                    p.moves.iter().map(|&(a, points)| json!({"action": name(a), "points": points})).collect();
                json!({
                    "ply": p.ply,
                    "trick": p.trick,
                    "action": name(p.action),
                    "best": name(p.best),
                    "played_points": p.played_points,
                    "best_points": p.best_points,
                    "lost": p.lost(),
                    "moves": moves,
                })
            })
            .collect();
        json!({
            "seat": self.seat,
            "open_hands": true,
            "bidder": other,
            "bids": self.bids.iter().map(choice).collect::<Vec<_>>(),
            "declaration": self.declaration.as_ref().map(choice),
            "plays": plays,
            "lost": self.lost(),
            "largest": self.largest(),
        })
    }
}

/// Reviews the hand that `last` ends for `seat`: `before` is the state just
/// before `last` (the hand's last action) and `end` the game history's length
/// after it. `other` is asked for the seat's bids and trump from the seat's
/// view at each of them (drawing from `rng`); `solver` values the plays.
pub fn review_hand(
    before: &Texas42State,
    last: Action,
    end: usize,
    seat: u8,
    other: &mut dyn Agent<Texas42View>,
    rng: &mut AgentRng,
    solver: &mut Solver,
) -> Result<HandReview, IllegalAction> {
    let now = before.hand();
    let mut actions = now.actions();
    actions.push(last);
    let first = end - actions.len();
    let mut h = Hand::new(now.rules, now.dealer, now.dealt);
    let mut review = HandReview { seat, bids: Vec::new(), declaration: None, plays: Vec::new() };
    for (i, &a) in actions.iter().enumerate() {
        if h.to_move == seat {
            let ply = first + i;
            match h.phase {
                Phase::Bidding | Phase::Declaring => {
                    let mut v = Texas42View::from_hand(&h, seat);
                    v.totals = before.totals();
                    v.hands_played = before.hands_played();
                    let choice = ChoiceReview { ply, action: a, other: other.act(&v, rng) };
                    if h.phase == Phase::Bidding {
                        review.bids.push(choice);
                    } else {
                        review.declaration = Some(choice);
                    }
                }
                Phase::Playing => {
                    let mut moves = solver.solve_actions(&h);
                    moves.sort_by_key(|&(m, points)| (std::cmp::Reverse(points), m));
                    let played_points = moves.iter().find(|&&(m, _)| m == a).map_or(0, |&(_, p)| p);
                    let best_points = moves[0].1;
                    let best = if played_points == best_points { a } else { moves[0].0 };
                    review.plays.push(PlayReview {
                        ply,
                        trick: h.trick + 1,
                        action: a,
                        best,
                        played_points,
                        best_points,
                        moves,
                    });
                }
                Phase::Done => {}
            }
        }
        h.apply(a)?;
    }
    Ok(review)
}

/// Reviews every hand of a Texas 42 game for `seat`: `state` is the state
/// the game starts from and `actions` its history; one review per hand that
/// the actions finish, in order (see [`review_hand`]; each hand's comparison
/// draws from a stream seeded with `seed`, as a driver reviewing each hand as
/// it ends would draw).
pub fn review_game(
    state: Texas42State,
    actions: &[Action],
    seat: u8,
    other: &mut dyn Agent<Texas42View>,
    seed: u64,
    solver: &mut Solver,
) -> Result<Vec<HandReview>, IllegalAction> {
    let mut state = state;
    let mut reviews = Vec::new();
    for (i, &a) in actions.iter().enumerate() {
        let before = state.clone();
        state.apply(a)?;
        if state.finished_deal().is_some() {
            let mut rng = AgentRng::seed_from_u64(seed);
            reviews.push(review_hand(&before, a, i + 1, seat, other, &mut rng, solver)?);
        }
    }
    Ok(reviews)
}
