//! The JSON-lines bot protocol (docs/interfaces/cli.md, "bones serve"), in one
//! place: [`Server`] answers requests (one request object in, one reply
//! object out; `bones serve` is it on stdin/stdout); a seat's view as a
//! request's `view` is written by [`SeatRequest`] (what `exec:` programs are
//! sent) and read back into a position by [`position`] (what a request with a
//! `view` is played from).
//!
//! A request `{"id":…,"record":{…},"seat":s}` holds a game record so far (the
//! format `bones replay` reads) and the seat to move. The reply is
//! `{"id":…,"action":"6-4","policy":{"6-4":0.71,…},"value":0.12}`: the greedy
//! action (or a sampled one when the server samples), the probabilities of the
//! legal actions by canonical name, and the value head's estimate of the seat's
//! reward (in the game's reward units: the training `reward_scale` undone). The
//! policy sees only the seat's observation, never the other seats' dominoes.
//! A bad request gets `{"id":…,"error":"…"}` (`id` null when the line is not a
//! JSON object with an `id`); rules that differ from the model's training rules
//! are served with a `"warning"`.
//!
//! A server may instead play any agent spec ([`Server::with_agent`]: `heuristic`,
//! `pimc`, `search`, …): it acts from the seat's view (its own dominoes and the
//! public record, never the other seats' dominoes) and replies
//! `{"id":…,"action":"6-4"}`.

use crate::agent::{resolve, PolicyAgent};
use crate::folder;
pub use bones_agents::seat_request::SeatRequest;
use bones_agents::{AgentError, AgentGame, AgentRng, AgentSpec, Bare, Board, DecideError, Refusal, Table};
use bones_env::on_game;
pub use bones_env::position::{position, ViewError};
use bones_env::record::RecordError;
use bones_env::registry::{view_position, AnyGame, RecordVisitor};
use bones_env::replay::{load_record, load_record_of, record_game};
use bones_env::{Action, ActionMask, Game, GameState};
use rand::SeedableRng;
use serde_json::{json, Map, Value};
use std::collections::hash_map::{Entry, HashMap};
use std::path::{Path, PathBuf};

/// The keys of a request.
const REQUEST_KEYS: [&str; 4] = ["id", "record", "view", "seat"];

/// Where the server finds its models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelSource {
    /// `models/texas42` for Texas 42 records and `models/doubles` for Doubles records.
    Default,
    /// One model (a model, run or checkpoint folder); it serves the game it was trained for.
    Path(PathBuf),
}

impl ModelSource {
    /// Reads a `--model` argument: `default` or a path.
    pub fn parse(arg: &str) -> ModelSource {
        if arg == "default" {
            ModelSource::Default
        } else {
            ModelSource::Path(PathBuf::from(arg))
        }
    }

    /// The folder to load for `game`.
    fn path_for(&self, game: &str) -> PathBuf {
        match self {
            ModelSource::Path(p) => p.clone(),
            ModelSource::Default => default_model(game),
        }
    }
}

/// `GAME` in the shipped models' folder ([`crate::agent::models_search`]), else `models/GAME`.
pub fn default_model(game: &str) -> PathBuf {
    crate::agent::shipped_model(game).unwrap_or_else(|| Path::new("models").join(game))
}

/// Why a request got an error reply.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ServeError {
    /// The line is not JSON.
    #[error("malformed JSON: {0}; expected one request object per line: {{\"id\":…,\"record\":{{…}},\"seat\":s}}")]
    Json(String),
    /// The request is not an object, or has an unknown key.
    #[error("{0}")]
    Request(String),
    /// A required key is missing.
    #[error("missing `{0}`: a request is {{\"id\":…,\"record\":{{…}},\"seat\":s}}")]
    Missing(&'static str),
    /// The record is bad (syntax, deal, or an illegal action).
    #[error("bad record: {0}")]
    Record(String),
    /// The record's game is over.
    #[error("the record is over (the game is finished): there is nothing to play")]
    Finished,
    /// `seat` is not the seat to move.
    #[error("seat {seat} is not to move: seat {to_move} is")]
    NotToMove {
        /// The requested seat.
        seat: u64,
        /// The seat to move.
        to_move: usize,
    },
    /// The served agent cannot play the record's game (or chose an illegal action).
    #[error("no agent for {game}: {message}")]
    Agent {
        /// The record's game.
        game: &'static str,
        /// Why not.
        message: String,
    },
    /// No model for the record's game.
    #[error("no model for {game}: {message}")]
    Model {
        /// The record's game.
        game: &'static str,
        /// Why it could not be loaded.
        message: String,
    },
}

impl ServeError {
    fn record(e: RecordError) -> ServeError {
        let mut msg = match (e.index, &e.action) {
            (Some(i), Some(a)) => format!("action {i} `{a}`: {}", e.message),
            (Some(i), None) => format!("action {i}: {}", e.message),
            _ => e.message.clone(),
        };
        if let Some(legal) = e.legal.as_ref().filter(|l| !l.is_empty()) {
            if !msg.contains("legal actions are") {
                msg.push_str(&format!(" (legal: {})", legal.join(", ")));
            }
        }
        ServeError::Record(msg)
    }
}

/// A loaded model with what the replies need from its training config.
struct Model {
    agent: PolicyAgent,
    /// The rules (with players) it was trained under (None: unreadable).
    rules: Option<Value>,
    /// Rewards were multiplied by this in training.
    reward_scale: f32,
}

impl Model {
    fn load(source: &ModelSource, game: &'static str, obs_len: usize, num_actions: usize) -> Result<Model, ServeError> {
        let path = source.path_for(game);
        let err = |message: String| ServeError::Model { game, message };
        if !path.exists() {
            return Err(err(format!("{} does not exist", path.display())));
        }
        let agent = PolicyAgent::load(&path, game, obs_len, num_actions).map_err(err)?;
        let dir = resolve(&path).map_err(err)?;
        let cfg = folder::read_model_config(&dir).map_err(|e| err(e.to_string()))?;
        let rules = cfg.game().ok().map(|g| g.rules_json());
        Ok(Model { agent, rules, reward_scale: cfg.reward_scale })
    }
}

/// What a reply needs of the record's position (the seat to move's observation
/// only: never the other seats' dominoes).
struct Position {
    game: &'static str,
    to_move: Option<usize>,
    obs: Vec<f32>,
    num_actions: usize,
    legal: ActionMask,
    names: Vec<&'static str>,
    rules: Value,
}

/// What a request gives to play from: a game record, or a seat's view.
enum Given<'a> {
    Record(&'a Value),
    View(&'a Map<String, Value>),
}

impl<'a> Given<'a> {
    /// The request's `record` or `view` (exactly one of them).
    fn of(req: &'a Map<String, Value>) -> Result<Given<'a>, ServeError> {
        match (req.get("record"), req.get("view")) {
            (Some(record), None) => Ok(Given::Record(record)),
            (None, Some(Value::Object(view))) => Ok(Given::View(view)),
            (None, Some(v)) => Err(ServeError::Request(format!(
                "bad `view` {}: expected a seat view object (docs/interfaces/cli.md, Seat views)",
                bones_env::record::kind(v)
            ))),
            (Some(_), Some(_)) => Err(ServeError::Request("a request holds `record` or `view`, not both".into())),
            (None, None) => Err(ServeError::Missing("record")),
        }
    }

    /// The registered game of the record or view (its `game`), with the
    /// messages of reading them whole.
    fn game(&self) -> Result<AnyGame, ServeError> {
        match self {
            Given::Record(record) => record_game(record).map_err(ServeError::record),
            Given::View(view) => {
                let name = view.get("game").and_then(Value::as_str).unwrap_or_default();
                AnyGame::new(name, None, None).map_err(|_| {
                    let names = bones_env::registry::names_or(|n| format!("\"{n}\""));
                    ServeError::Request(format!("`game` must be {names}"))
                })
            }
        }
    }

    /// Builds the game and state and hands them to `visitor`.
    fn visit<V: RecordVisitor>(&self, visitor: V) -> Result<V::Output, ServeError> {
        match self {
            Given::Record(record) => load_record(record, visitor).map_err(ServeError::record),
            Given::View(view) => view_position(view, visitor).map_err(|e| ServeError::Request(e.to_string())),
        }
    }
}

/// Reads a record's position into an observation buffer.
struct ReadPosition<'a>(&'a mut Vec<f32>);

impl RecordVisitor for ReadPosition<'_> {
    type Output = Position;
    fn visit<G: Game>(self, game: G, state: G::State) -> Position {
        let to_move = state.current_seat();
        let mut obs = std::mem::take(self.0);
        obs.resize(game.obs_len(), 0.0);
        if let Some(seat) = to_move {
            state.observe(seat, &mut obs);
        }
        Position {
            game: game.name(),
            to_move,
            obs,
            num_actions: game.num_actions(),
            legal: state.legal_mask(),
            names: (0..game.num_actions()).map(|a| game.action_name(a)).collect(),
            rules: game.rules_json(),
        }
    }
}

/// The tables of one spec's agent, by game: each game's [`Tables`].
type Agents = HashMap<&'static str, Box<dyn GameTables>>;

/// The agent's tables of one game, whatever its type.
trait GameTables: Send {
    /// The agent's move for the asked seat at the asked position (of this game).
    fn decide(&mut self, ask: Ask<'_, '_>) -> Result<&'static str, ServeError>;
}

/// What a request asks of an agent: its move for `seat` at the position
/// `given`, drawing from `rng`.
struct Ask<'a, 'g> {
    given: &'a Given<'g>,
    spec: &'a AgentSpec,
    rng: &'a mut AgentRng,
    seat: u64,
}

/// The agent's tables of the game `G`, one per rules (players included), each
/// with the agent at every seat: built on a rules' first use, then each
/// request's position is set on it and the seat's agent asked, from that
/// seat's view only.
struct Tables<G: AgentGame> {
    kind: G,
    by_rules: HashMap<String, Table<G>>,
}

impl<G: AgentGame> GameTables for Tables<G> {
    fn decide(&mut self, ask: Ask<'_, '_>) -> Result<&'static str, ServeError> {
        let Ask { given, spec, rng, seat } = ask;
        let (game, state) = match given {
            Given::Record(record) => load_record_of(&self.kind, record).map_err(ServeError::record)?,
            Given::View(view) => G::position(view).map_err(|e| ServeError::Request(e.to_string()))?,
        };
        let to_move = state.current_seat().ok_or(ServeError::Finished)?;
        if seat != to_move as u64 {
            return Err(ServeError::NotToMove { seat, to_move });
        }
        let (name, players) = (game.name(), game.num_players());
        let key = game.rules_json().to_string();
        let board = Bare::new(game, state);
        let table = match self.by_rules.entry(key.clone()) {
            Entry::Occupied(e) => {
                let table = e.into_mut();
                table.restart(board, rng.clone());
                table
            }
            Entry::Vacant(e) => {
                let agent = crate::agent::factory()
                    .build(spec, board.game())
                    .map_err(|err| ServeError::Agent { game: name, message: err.to_string() })?;
                e.insert(Table::shared(board, agent, 0..players, rng.clone()))
            }
        };
        let decided = table.decide();
        *rng = table.rng().clone();
        let message = match decided {
            Ok(a) => return Ok(table.game().action_name(a)),
            Err(DecideError::Illegal(AgentError { refusal: Refusal::Board { action, .. }, .. })) => {
                format!("agent `{spec}` chose the illegal action `{}`", table.game().action_name(action))
            }
            Err(e) => format!("agent `{spec}`: {e}"),
        };
        // An agent that failed (or panicked) may be left in any state: the
        // next request builds a fresh one.
        self.by_rules.remove(&key);
        Err(ServeError::Agent { game: name, message })
    }
}

/// An agent's move on a position: the game's tables (built on its first
/// use) set to the position and asked.
fn agent_move(agents: &mut Agents, ask: Ask<'_, '_>) -> Result<&'static str, ServeError> {
    let kind = ask.given.game()?;
    let tables = agents.entry(kind.name()).or_insert_with(
        || on_game!(kind, g => Box::new(Tables { kind: g, by_rules: HashMap::new() }) as Box<dyn GameTables>),
    );
    tables.decide(ask)
}

/// The server: lazily loaded models (one per game) and the sampling stream, or
/// the agents of one spec.
pub struct Server {
    source: ModelSource,
    /// Sampling stream (`--sample --seed S`); None: greedy.
    rng: Option<AgentRng>,
    models: HashMap<&'static str, Model>,
    obs: Vec<f32>,
    /// The spec served instead of a model and its agents (their random
    /// stream: `rng`, else a fresh stream seeded 0 for every request).
    agent: Option<(AgentSpec, Agents)>,
}

impl Server {
    /// A server loading models from `source`; greedy, or sampling from one
    /// stream seeded by `sample_seed` (the same requests in the same order get
    /// the same replies).
    pub fn new(source: ModelSource, sample_seed: Option<u64>) -> Server {
        Server {
            source,
            rng: sample_seed.map(AgentRng::seed_from_u64),
            models: HashMap::new(),
            obs: Vec::new(),
            agent: None,
        }
    }

    /// A server playing the agent of `spec` (any spec `bones eval` takes) for
    /// every game it is asked about. Its random stream: one stream seeded by
    /// `seed` (the same requests in the same order get the same replies), or
    /// without a seed a fresh stream seeded 0 for every request (the same
    /// request always gets the same reply).
    pub fn with_agent(spec: AgentSpec, seed: Option<u64>) -> Server {
        let mut s = Server::new(ModelSource::Default, seed);
        s.agent = Some((spec, Agents::new()));
        s
    }

    /// Answers one input line (a reply object, never a panic).
    pub fn handle_line(&mut self, line: &str) -> Value {
        match serde_json::from_str::<Value>(line) {
            Ok(v) => self.handle(&v),
            Err(e) => error_reply(Value::Null, &ServeError::Json(e.to_string())),
        }
    }

    /// Answers one request object.
    pub fn handle(&mut self, request: &Value) -> Value {
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        match self.respond(request) {
            Ok(reply) => {
                let mut out = Map::new();
                out.insert("id".into(), id);
                out.extend(reply);
                Value::Object(out)
            }
            Err(e) => error_reply(id, &e),
        }
    }

    fn respond(&mut self, request: &Value) -> Result<Map<String, Value>, ServeError> {
        let req = request.as_object().ok_or_else(|| {
            ServeError::Request(format!(
                "a request must be a JSON object {{\"id\":…,\"record\":{{…}},\"seat\":s}}, got {}",
                bones_env::record::kind(request)
            ))
        })?;
        if let Some(k) = req.keys().find(|k| !REQUEST_KEYS.contains(&k.as_str())) {
            return Err(ServeError::Request(format!(
                "unknown key `{k}` in a request: expected id, record (or view), seat"
            )));
        }
        if !req.contains_key("id") {
            return Err(ServeError::Missing("id"));
        }
        let position = Given::of(req)?;
        let seat_v = req.get("seat").ok_or(ServeError::Missing("seat"))?;
        let seat = seat_v
            .as_u64()
            .ok_or_else(|| ServeError::Request(format!("bad `seat` {seat_v}: expected the seat to move, 0..=3")))?;
        if let Some((spec, agents)) = self.agent.as_mut() {
            let mut fresh = AgentRng::seed_from_u64(0);
            let rng = self.rng.as_mut().unwrap_or(&mut fresh);
            let action = agent_move(agents, Ask { given: &position, spec, rng, seat })?;
            let mut reply = Map::new();
            reply.insert("action".into(), json!(action));
            return Ok(reply);
        }
        let pos = position.visit(ReadPosition(&mut self.obs))?;
        let to_move = pos.to_move.ok_or(ServeError::Finished)?;
        if seat != to_move as u64 {
            self.obs = pos.obs;
            return Err(ServeError::NotToMove { seat, to_move });
        }
        let model = match self.models.entry(pos.game) {
            Entry::Occupied(e) => e.into_mut(),
            // A failed load is retried by the next request.
            Entry::Vacant(e) => e.insert(Model::load(&self.source, pos.game, pos.obs.len(), pos.num_actions)?),
        };
        let warning = rules_warning(&pos.rules, model.rules.clone());
        model.agent.sample = self.rng.is_some();
        let mut unused = AgentRng::seed_from_u64(0); // greedy: never drawn from
        let out = model.agent.evaluate(&pos.obs, pos.legal, self.rng.as_mut().unwrap_or(&mut unused));
        self.obs = pos.obs;
        let scale = if model.reward_scale != 0.0 { model.reward_scale } else { 1.0 };
        let name = |a: Action| pos.names[a];
        let policy: Map<String, Value> = out.policy.iter().map(|&(a, p)| (name(a).to_string(), number(p))).collect();
        let mut reply = Map::new();
        reply.insert("action".into(), json!(name(out.action)));
        reply.insert("policy".into(), Value::Object(policy));
        reply.insert("value".into(), number(out.value / scale));
        if let Some(w) = warning {
            reply.insert("warning".into(), json!(w));
        }
        Ok(reply)
    }
}

/// `{"id":…,"error":"…"}`.
pub fn error_reply(id: Value, e: &ServeError) -> Value {
    json!({ "id": id, "error": e.to_string() })
}

/// An `f32` as its shortest decimal (`0.71`, not `0.7099999785423279`); null if not finite.
fn number(x: f32) -> Value {
    format!("{x}").parse::<f64>().ok().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
}

/// A warning naming the rules that differ from the model's training rules.
fn rules_warning(record: &Value, trained: Option<Value>) -> Option<String> {
    let Some(trained) = trained else {
        return Some("the model's training rules cannot be read; the record's rules may differ".into());
    };
    let (Some(r), Some(t)) = (record.as_object(), trained.as_object()) else {
        return None;
    };
    let diffs: Vec<String> = r
        .iter()
        .filter(|(k, v)| t.get(k.as_str()) != Some(v))
        .map(|(k, v)| format!("{k} {v} (model: {})", t.get(k.as_str()).unwrap_or(&Value::Null)))
        .collect();
    (!diffs.is_empty())
        .then(|| format!("the record's rules differ from the model's training rules: {}", diffs.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bones_env::Texas42Rules;

    #[test]
    fn numbers_print_short() {
        assert_eq!(number(0.71).to_string(), "0.71");
        assert_eq!(number(f32::NAN), Value::Null);
    }

    #[test]
    fn bad_lines_get_errors_without_a_model() {
        let mut s = Server::new(ModelSource::Path("/nonexistent/model".into()), None);
        let r = s.handle_line("{not json");
        assert_eq!(r["id"], Value::Null);
        assert!(r["error"].as_str().unwrap().starts_with("malformed JSON"));
        let r = s.handle_line(r#"{"id":3,"seat":0}"#);
        assert_eq!(r["id"], 3);
        assert!(r["error"].as_str().unwrap().contains("missing `record`"), "{r}");
        let r = s.handle_line(r#"{"id":4,"seat":0,"record":{"game":"texas42","seed":1},"x":1}"#);
        assert!(r["error"].as_str().unwrap().contains("unknown key `x`"), "{r}");
        let r = s.handle_line(r#"{"id":5,"seat":3,"record":{"game":"texas42","seed":1,"actions":["pass","9-9"]}}"#);
        let e = r["error"].as_str().unwrap();
        assert!(e.contains("action 1 `9-9`") && e.contains("legal: pass, 30"), "{e}");
        let r = s.handle_line(r#"{"id":6,"seat":2,"record":{"game":"texas42","seed":1,"actions":["pass"]}}"#);
        assert!(r["error"].as_str().unwrap().starts_with("no model for texas42"), "{r}");
    }

    #[test]
    fn warnings_name_the_differing_rules() {
        let std = Texas42Rules::STANDARD.to_json();
        assert_eq!(rules_warning(&std, Some(std.clone())), None);
        let mut r = Texas42Rules::STANDARD;
        r.early_end = !r.early_end;
        let w = rules_warning(&r.to_json(), Some(std)).unwrap();
        assert!(w.contains("early_end"), "{w}");
    }
}
