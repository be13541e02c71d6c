//! The one replay loop for records of games played in deals ([`Series`]):
//! every action is applied by name with its seat and legal actions recorded, a
//! whole-game record gets one result per finished deal, and the `result`
//! object is assembled the same way for every game. Each game says what a
//! deal's result holds ([`DealRecords`]).

use super::json::RecordError;
use crate::game::{Action, Episode, Game, GameState};
use crate::series::{DealGame, Series};
use serde_json::{json, Map, Value};

/// What a game writes about its deals in a replay's `result`.
pub trait DealRecords: DealGame + Game<State = Series<Self>> {
    /// The result of one deal from its `steps`: the auction, tricks, board,
    /// scores… and `done` (without `next`).
    fn deal_result(&self, deal: &Self::Deal, steps: Vec<Value>) -> Map<String, Value>;
    /// Adds what a whole-game record does not otherwise show of a deal (its
    /// shaker, the dealt hands, the boneyard) to its result.
    fn with_deal(&self, deal: &Self::Deal, result: Map<String, Value>) -> Map<String, Value>;
    /// The game totals' key and value in a whole-game `result`.
    fn totals_json(&self, state: &Series<Self>) -> (&'static str, Value);
}

/// Applies `actions` to `state` and returns the `result` object: for a one-deal
/// record the deal's result, for a whole-game record `hand_results` (one per
/// deal so far), the totals, `winner` and `done`; `next` (the seat to act and
/// its legal actions) while the record is not over.
pub fn replay_deals<G: DealRecords>(game: &G, state: &mut Series<G>, actions: &[String]) -> Result<Value, RecordError> {
    let mut steps = Vec::with_capacity(actions.len());
    let mut deals = Vec::new();
    let whole_game = state.episode() == Episode::Game;
    for (i, name) in actions.iter().enumerate() {
        let seat = state.current_seat().unwrap_or(0);
        let legal = legal_names(game, state);
        let a = apply_named(game, state, i, name)?;
        steps.push(step_json(seat, game.action_name(a), legal));
        if whole_game {
            if let Some(d) = state.previous_deal().copied().or_else(|| state.is_terminal().then(|| *state.deal())) {
                deals.push(Value::Object(game.with_deal(&d, game.deal_result(&d, std::mem::take(&mut steps)))));
            }
        }
    }
    let mut result = if whole_game {
        if !state.is_terminal() {
            deals.push(Value::Object(game.with_deal(state.deal(), game.deal_result(state.deal(), steps))));
        }
        let mut m = Map::new();
        m.insert("hand_results".into(), Value::Array(deals));
        let (key, totals) = game.totals_json(state);
        m.insert(key.into(), totals);
        m.insert("winner".into(), json!(state.winning_side()));
        m.insert("done".into(), json!(state.is_terminal()));
        m
    } else {
        game.deal_result(state.deal(), steps)
    };
    if !state.is_terminal() {
        result.insert("next".into(), json!({ "seat": state.current_seat(), "legal": legal_names(game, state) }));
    }
    Ok(Value::Object(result))
}

/// Legal action names of a state, in id order.
pub fn legal_names<G: Game>(game: &G, state: &G::State) -> Vec<String> {
    state.legal_mask().iter().map(|a| game.action_name(a).to_string()).collect()
}

/// Applies the `i`-th action (by name) to `state`, or explains why it cannot.
pub fn apply_named<G: Game>(game: &G, state: &mut G::State, i: usize, name: &str) -> Result<Action, RecordError> {
    if state.is_terminal() {
        return Err(RecordError {
            index: Some(i),
            action: Some(name.to_string()),
            message: format!("action `{name}` comes after the record is over"),
            legal: Some(Vec::new()),
        });
    }
    let legal = || Some(legal_names(game, state));
    let a = game.parse_action(name).map_err(|e| RecordError {
        index: Some(i),
        action: Some(name.to_string()),
        message: e.to_string(),
        legal: legal(),
    })?;
    if let Err(e) = state.apply(a) {
        let names: Vec<String> = e.legal.iter().map(|a| game.action_name(a).to_string()).collect();
        return Err(RecordError {
            index: Some(i),
            action: Some(name.to_string()),
            message: format!("illegal action `{name}`: the legal actions are {}", names.join(", ")),
            legal: Some(names),
        });
    }
    Ok(a)
}

/// A `{"seat":s,"action":…,"legal":[…]}` step.
pub fn step_json(seat: usize, action: &str, legal: Vec<String>) -> Value {
    json!({ "seat": seat, "action": action, "legal": legal })
}
