//! A finished game replayed for the page (`POST /api/replay`): every position
//! from the deal to the last action, each with the table as the person saw it
//! and every hand open, and the finished deals as a live game shows them (how
//! each ended, the review), so the page steps through it hand by hand and play
//! by play. A record is a game that is over, so nothing in it is hidden.

use super::deals::{numbers, DealLog};
use super::error::WebError;
use super::table::TableGame;
use bones_agents::{Played, PolicyLoader};
use bones_env::on_game;
use bones_env::registry::RecordVisitor;
use bones_env::replay::{load_record, load_record_of, record_game};
use bones_env::{Action, Game, GameState};
use serde_json::{json, Value};

/// The annotations a replay reads and answers (the person's seat, the levels and the bots).
const ANNOTATION_KEYS: [&str; 3] = ["seat", "levels", "agents"];

/// The replay of `record` (a game record as `bones replay` reads it; its
/// `annotations.seat` is the person, else seat 0): docs/interfaces/web.md.
pub fn replay(record: &Value, models: &dyn PolicyLoader) -> Result<Value, WebError> {
    let bad = |e: bones_env::record::RecordError| WebError::Request(format!("bad record: {e}"));
    if !record.is_object() {
        return Err(WebError::Request(format!(
            "a replay takes a game record (a JSON object), got {}",
            bones_env::record::kind(record)
        )));
    }
    let notes = &record["annotations"];
    let seat = match &notes["seat"] {
        Value::Null => 0,
        v => v.as_u64().filter(|&s| s < 64).ok_or_else(|| {
            WebError::Request(format!("bad `annotations.seat` {v}: expected the person's seat, such as 0"))
        })? as usize,
    };
    // The whole record first: its actions must replay (the same checks and messages as `bones replay`).
    load_record(record, Check(seat)).map_err(bad)??;
    let names: Vec<String> = record["actions"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
        .unwrap_or_default();
    let mut start = record.clone();
    start["actions"] = json!([]);
    let steps = Steps { names, seat, models };
    let kind = record_game(&start).map_err(bad)?;
    let mut out = on_game!(kind, g => {
        let (game, state) = load_record_of(&g, &start).map_err(bad)?;
        steps.visit(game, state)
    })?;
    for key in ANNOTATION_KEYS.iter().filter(|&&k| k != "seat") {
        out[*key] = notes.get(*key).cloned().unwrap_or(Value::Null);
    }
    out["episode"] = json!(if record["episode"] == "game" { "game" } else { "hand" });
    Ok(out)
}

/// Checks the person's seat against the record's game.
struct Check(usize);

impl RecordVisitor for Check {
    type Output = Result<(), WebError>;
    fn visit<G: Game>(self, game: G, _: G::State) -> Self::Output {
        if self.0 >= game.num_players() {
            return Err(WebError::Request(format!(
                "bad `annotations.seat` {}: expected a seat 0..={} ({} has {} seats)",
                self.0,
                game.num_players() - 1,
                game.name(),
                game.num_players()
            )));
        }
        Ok(())
    }
}

/// Steps through a record's actions from its start.
struct Steps<'a> {
    names: Vec<String>,
    seat: usize,
    models: &'a dyn PolicyLoader,
}

impl Steps<'_> {
    fn visit<G: TableGame>(self, game: G, state: G::State) -> Result<Value, WebError> {
        let Steps { names, seat, models } = self;
        let mut state = state;
        let mut log: DealLog<G> = DealLog::new(seat, game.num_sides());
        let mut steps = vec![step(&game, &state, seat, &log)];
        let mut history = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let a: Action = game.parse_action(name).map_err(|e| WebError::Request(format!("bad record: {e}")))?;
            let before = state.clone();
            let mover =
                before.current_seat().ok_or_else(|| WebError::Request("bad record: moves after the end".into()))?;
            state.apply(a).map_err(|e| WebError::Request(format!("bad record: action {}: {e}", i + 1)))?;
            let played = Played {
                game: &game,
                seat: mover,
                action: a,
                by_agent: false,
                ply: i + 1,
                before: &before,
                after: &state,
            };
            log.observe(&played, models);
            history.push(json!({"seat": mover, "action": game.action_name(a)}));
            steps.push(step(&game, &state, seat, &log));
        }
        let players = game.num_players();
        Ok(json!({
            "game": game.name(),
            "players": players,
            "seat": seat,
            "rules": game.rules_json(),
            "sides": (0..players).map(|s| game.team_of(s)).collect::<Vec<_>>(),
            "history": history,
            "steps": steps,
            "deals": log.deals,
            "scores": numbers(&log.totals),
            "winner": state.winning_side(),
        }))
    }
}

/// One position: the seat to move, the table as the person sees it, every
/// hand (high first) and the game totals.
fn step<G: TableGame>(game: &G, state: &G::State, seat: usize, log: &DealLog<G>) -> Value {
    let hands: Vec<Vec<String>> = state.seat_hands()[..game.num_players()]
        .iter()
        .map(|h| {
            let mut names: Vec<String> = h.iter().map(|d| d.to_string()).collect();
            names.reverse();
            names
        })
        .collect();
    json!({
        "to_move": state.current_seat(),
        "table": game.table(&state.view(seat)),
        "hands": hands,
        "scores": numbers(&log.totals),
    })
}
