//! One game played in the browser: a person at one seat, bots at the others.
//!
//! [`NewGame::parse`] reads the body of `POST /api/games`; [`create`] builds the
//! game through the registry (one [`GameVisitor`], so every registered game can
//! be played) and lets the bots play up to the person's first turn. A
//! [`Session`] then takes the person's moves ([`Session::play`]) and answers the
//! state the person may see ([`Session::state`]): built from the person's seat
//! view and the public actions only, until the game is over, when the record
//! and its replayed `result` are added.

use super::error::WebError;
use super::table;
use bones_agents::{Agent, AgentFactory, AgentRng, AgentSpec, Bare, Played, PolicyLoader, Table, ViewOf};
use bones_env::record::kind;
use bones_env::registry::{AnyGame, GameVisitor};
use bones_env::replay::GameRecord;
use bones_env::{Episode, Game, GameState};
use rand::{Rng, SeedableRng};
use serde_json::{json, Map, Value};

/// The keys of a new-game request.
const NEW_GAME_KEYS: [&str; 8] = ["game", "players", "seat", "opponents", "partner", "rules", "seed", "episode"];

/// A game as it is played: the state JSON out, the person's moves in.
pub trait Session: Send {
    /// What the person may see now (see docs/interfaces.md, the web API).
    fn state(&self) -> Value;
    /// Applies the person's action (a name) and lets the bots play up to the
    /// person's next turn or the end. With `ply` (the length of the history
    /// the move was chosen at) a move for an older state is refused.
    fn play(&mut self, action: &str, ply: Option<usize>) -> Result<(), WebError>;
}

/// A parsed `POST /api/games` request.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game with its rules and player count.
    pub game: AnyGame,
    /// The person's seat.
    pub seat: usize,
    /// The bots at the other sides' seats (`None`: the server's default).
    pub opponents: Option<AgentSpec>,
    /// The bots at the person's side's other seats (`None`: the server's default).
    pub partner: Option<AgentSpec>,
    /// The seed of the deals (`None`: drawn at random, shown in the record at the end).
    pub seed: Option<u64>,
    /// A whole game (the default) or one hand/round.
    pub episode: Episode,
}

/// The bots a server plays when a request names none.
#[derive(Clone, Debug, Default)]
pub struct Defaults {
    /// `--opponents` (`None`: the game's shipped model, else `heuristic`).
    pub opponents: Option<AgentSpec>,
    /// `--partner` (`None`: the game's shipped model, else `heuristic`).
    pub partner: Option<AgentSpec>,
}

fn request(msg: impl Into<String>) -> WebError {
    WebError::Request(msg.into())
}

impl NewGame {
    /// Reads a new-game request object (every key but `game` optional).
    pub fn parse(body: &Value) -> Result<NewGame, WebError> {
        let obj = body.as_object().ok_or_else(|| {
            request(format!("a new game is a JSON object {{\"game\":\"texas42\",…}}, got {}", kind(body)))
        })?;
        if let Some(k) = obj.keys().find(|k| !NEW_GAME_KEYS.contains(&k.as_str())) {
            return Err(request(format!("unknown key `{k}` in a new game: expected {}", NEW_GAME_KEYS.join(", "))));
        }
        let name = match obj.get("game") {
            Some(Value::String(s)) => s.as_str(),
            Some(v) => return Err(request(format!("bad `game` {v}: expected {}", bones_env::registry::game_names()))),
            None => {
                return Err(request(format!("missing `game`: expected {}", bones_env::registry::game_names())));
            }
        };
        let players = match obj.get("players") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .filter(|&p| p <= 64)
                    .ok_or_else(|| request(format!("bad `players` {v}: expected a player count such as 4")))?
                    as usize,
            ),
        };
        let game = match obj.get("rules") {
            None | Some(Value::Null) => AnyGame::new(name, None, players),
            Some(Value::String(text)) => AnyGame::from_rules_text(name, text, players),
            Some(v @ Value::Object(_)) => AnyGame::new(name, Some(v), players),
            Some(v) => return Err(request(format!("bad `rules` {v}: expected a rules object or a preset name"))),
        }
        .map_err(|e| WebError::Game(e.to_string()))?;
        let seat = match obj.get("seat") {
            None | Some(Value::Null) => 0,
            Some(v) => v.as_u64().filter(|&s| s < game.num_players() as u64).ok_or_else(|| {
                request(format!(
                    "bad `seat` {v}: expected a seat 0..={} ({} has {} seats)",
                    game.num_players() - 1,
                    game.name(),
                    game.num_players()
                ))
            })? as usize,
        };
        let seed = match obj.get("seed") {
            None | Some(Value::Null) => None,
            Some(v) => {
                Some(v.as_u64().ok_or_else(|| request(format!("bad `seed` {v}: expected an integer 0..=2^64-1")))?)
            }
        };
        let episode = match obj.get("episode") {
            None | Some(Value::Null) => Episode::Game,
            Some(Value::String(s)) if s == "game" => Episode::Game,
            Some(Value::String(s)) if s == "hand" || s == "round" => Episode::Hand,
            Some(v) => return Err(request(format!("bad `episode` {v}: expected \"game\" (the default) or \"hand\""))),
        };
        let spec = |key: &'static str| -> Result<Option<AgentSpec>, WebError> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) if s.is_empty() => Ok(None),
                Some(Value::String(s)) => {
                    AgentSpec::parse(s).map(Some).map_err(|e| WebError::Agent { key, message: e.to_string() })
                }
                Some(v) => {
                    Err(WebError::Agent { key, message: format!("expected an agent spec string, got {}", kind(v)) })
                }
            }
        };
        let (opponents, partner) = (spec("opponents")?, spec("partner")?);
        let has_partner = (0..game.num_players()).any(|s| s != seat && same_side(&game, s, seat));
        if partner.is_some() && !has_partner {
            return Err(WebError::Agent {
                key: "partner",
                message: format!("{} has no partners; `opponents` sets every other seat", game.name()),
            });
        }
        Ok(NewGame { game, seat, opponents, partner, seed, episode })
    }
}

/// Whether two seats play for the same side.
fn same_side(game: &AnyGame, a: usize, b: usize) -> bool {
    struct Same(usize, usize);
    impl GameVisitor for Same {
        type Output = bool;
        fn visit<G: Game>(self, game: G) -> bool {
            game.team_of(self.0) == game.team_of(self.1)
        }
    }
    game.visit(Same(a, b))
}

/// The bot a server plays when neither the request nor the server names one:
/// the game's shipped model, else `heuristic`.
fn default_spec(game: &str) -> AgentSpec {
    match bones_policy::agent::shipped_model(game) {
        Some(path) => AgentSpec::Model { path },
        None => AgentSpec::Heuristic,
    }
}

/// Builds the game of `req` with its bots (`model:PATH` loaded by `models`)
/// and lets the bots play up to the person's first turn.
pub fn create(req: NewGame, defaults: &Defaults, models: &dyn PolicyLoader) -> Result<Box<dyn Session>, WebError> {
    let game = req.game;
    game.visit(Create { req, defaults, factory: AgentFactory::with_models(models) })
}

/// The visitor of [`create`].
struct Create<'a> {
    req: NewGame,
    defaults: &'a Defaults,
    factory: AgentFactory<'a>,
}

impl GameVisitor for Create<'_> {
    type Output = Result<Box<dyn Session>, WebError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let NewGame { seat, opponents, partner, seed, episode, .. } = self.req;
        let players = game.num_players();
        let mut bots: Vec<Option<Box<dyn Agent<ViewOf<G>>>>> = (0..players).map(|_| None).collect();
        let mut agents: Vec<Option<String>> = vec![None; players];
        for s in (0..players).filter(|&s| s != seat) {
            let (key, asked, server) = if game.team_of(s) == game.team_of(seat) {
                ("partner", &partner, &self.defaults.partner)
            } else {
                ("opponents", &opponents, &self.defaults.opponents)
            };
            let chosen = asked.clone().or_else(|| server.clone());
            let (bot, spec) = match chosen {
                Some(spec) => {
                    let bot = self
                        .factory
                        .build(&spec, &game)
                        .map_err(|e| WebError::Agent { key, message: e.to_string() })?;
                    (bot, spec)
                }
                // The default bot: a shipped model that fails to load falls back to heuristic.
                None => {
                    let spec = default_spec(game.name());
                    match self.factory.build(&spec, &game) {
                        Ok(bot) => (bot, spec),
                        Err(_) => {
                            let bot = self
                                .factory
                                .build(&AgentSpec::Heuristic, &game)
                                .map_err(|e| WebError::Agent { key, message: e.to_string() })?;
                            (bot, AgentSpec::Heuristic)
                        }
                    }
                }
            };
            bots[s] = Some(bot);
            agents[s] = Some(spec.to_string());
        }
        let seed = seed.unwrap_or_else(|| rand::rng().random());
        let sides = vec![0.0; game.num_sides()];
        let rng = AgentRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x7765_6221);
        let table = Table::new(Bare::dealt(game, seed, episode), bots, rng);
        let mut play = Play { table, seat, agents, seed, episode, deals: Vec::new(), sides };
        play.run_bots()?;
        Ok(Box::new(play))
    }
}

/// A game in progress: the generic [`Session`].
struct Play<G: Game> {
    /// The game, its state, the bots at every seat but the person's (drawing
    /// from one stream), and every action so far.
    table: Table<G>,
    /// The person's seat.
    seat: usize,
    /// The spec of each seat's bot, canonical (`None` at the person's).
    agents: Vec<Option<String>>,
    seed: u64,
    episode: Episode,
    /// The finished deals.
    deals: Vec<Value>,
    /// Game totals per side (the finished deals' scores summed).
    sides: Vec<f64>,
}

/// Counts the deal `played` ended, if it ended one: the totals, and its
/// summary for the page (the table as the person at `seat` last saw it, before
/// the deal's last action).
fn count_deal<G: Game>(played: &Played<'_, G>, seat: usize, deals: &mut Vec<Value>, totals: &mut [f64]) {
    let Some(deal) = played.after.finished_deal() else { return };
    let table = table::table(played.game, &played.before.view(seat));
    let sides = totals.len();
    for (total, score) in totals.iter_mut().zip(deal.score) {
        *total += score;
    }
    let winner = (0..sides).find(|&s| deal.win[s] == 1.0);
    let contract = deal.contract.map(|c| json!({"side": c.side, "bid_points": c.bid_points, "made": c.made}));
    deals.push(json!({
        "end": played.ply,
        "scores": numbers(&deal.score[..sides]),
        "points": deal.points.map(|p| numbers(&p[..sides])),
        "contract": contract,
        "winner": winner,
        "totals": numbers(totals),
        "table": table,
    }));
}

impl<G: Game> Play<G> {
    /// Lets the bots play until the person is to move or the game is over.
    fn run_bots(&mut self) -> Result<(), WebError> {
        let Play { table, seat, deals, sides, agents, .. } = self;
        table.advance_with(|p| count_deal(p, *seat, deals, sides)).map_err(|e| {
            let who = agents[e.seat].as_deref().unwrap_or("?");
            WebError::Internal(format!("the bot at seat {} ({who}) chose an illegal action: {}", e.seat, e.refusal))
        })
    }

    /// The legal action names of the person (empty when not to move).
    fn legal(&self) -> Vec<&'static str> {
        if self.table.to_move() != Some(self.seat) {
            return Vec::new();
        }
        self.table.state().legal_mask().iter().map(|a| self.table.game().action_name(a)).collect()
    }

    /// The record of the game so far (it names the seed: shown only at the end).
    fn record(&self) -> Value {
        let actions = self.table.action_names().into_iter().map(String::from).collect();
        match GameRecord::seeded(self.table.game(), self.seed, self.episode, actions) {
            Ok(record) => record.to_json(),
            Err(e) => json!({ "error": e.to_string() }),
        }
    }
}

impl<G: Game> Session for Play<G> {
    fn state(&self) -> Value {
        let (game, state) = (self.table.game(), self.table.state());
        let players = game.num_players();
        let view = state.view(self.seat);
        let to_move = self.table.to_move();
        let done = to_move.is_none();
        let mut hand: Vec<String> = state.seat_hands()[self.seat].iter().map(|d| d.to_string()).collect();
        hand.reverse();
        let history: Vec<Value> =
            self.table.history().iter().map(|&(s, a)| json!({"seat": s, "action": game.action_name(a)})).collect();
        let mut out = Map::new();
        out.insert("game".into(), json!(game.name()));
        out.insert("players".into(), json!(players));
        out.insert("seat".into(), json!(self.seat));
        out.insert("rules".into(), game.rules_json());
        out.insert("episode".into(), json!(if self.episode == Episode::Game { "game" } else { "hand" }));
        out.insert("sides".into(), json!((0..players).map(|s| game.team_of(s)).collect::<Vec<_>>()));
        out.insert("agents".into(), json!(self.agents));
        out.insert("to_move".into(), json!(to_move));
        out.insert("legal".into(), json!(self.legal()));
        out.insert("history".into(), Value::Array(history));
        out.insert("hand".into(), json!(hand));
        out.insert("scores".into(), numbers(&self.sides));
        out.insert("deals".into(), Value::Array(self.deals.clone()));
        out.insert("table".into(), table::table(game, &view));
        out.insert("done".into(), json!(done));
        if done {
            out.insert("winner".into(), json!(state.winning_side()));
            let record = self.record();
            let (replayed, ok) = bones_env::replay::replay_line(&record.to_string(), 1);
            let result = if ok { replayed.get("result").cloned() } else { replayed.get("error").cloned() };
            out.insert("result".into(), result.unwrap_or(Value::Null));
            out.insert("record".into(), record);
        }
        Value::Object(out)
    }

    fn play(&mut self, name: &str, ply: Option<usize>) -> Result<(), WebError> {
        let to_move = self.table.to_move().ok_or(WebError::Over)?;
        let plies = self.table.history().len();
        if let Some(p) = ply.filter(|&p| p != plies) {
            return Err(WebError::OutOfTurn(format!(
                "the move was chosen at ply {p}, but the game is at ply {plies} (get the state again)"
            )));
        }
        if to_move != self.seat {
            return Err(WebError::OutOfTurn(format!("seat {to_move} is to move, not your seat {}", self.seat)));
        }
        let legal = self.legal().join(", ");
        let shown: String = name.chars().take(40).collect();
        let a = (self.table.game().parse_action(name))
            .map_err(|e| WebError::Action(format!("{e}; the legal actions now are {legal}")))?;
        if !self.table.state().legal_mask().contains(a) {
            return Err(WebError::Action(format!("illegal action `{shown}`: the legal actions now are {legal}")));
        }
        let Play { table, seat, deals, sides, .. } = self;
        table.apply_with(a, |p| count_deal(p, *seat, deals, sides)).map_err(|e| WebError::Action(e.to_string()))?;
        self.run_bots()
    }
}

/// Numbers as JSON, whole ones as integers (`3`, not `3.0`).
fn numbers(values: &[f64]) -> Value {
    Value::Array(
        values.iter().map(|&x| if x.fract() == 0.0 && x.abs() < 1e15 { json!(x as i64) } else { json!(x) }).collect(),
    )
}
