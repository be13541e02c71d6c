//! One game played in the browser: a person at one seat, bots at the others.
//!
//! [`NewGame::parse`] reads the body of `POST /api/games`; [`create`] builds the
//! game through the registry ([`bones_env::on_game!`]: every registered game is a
//! [`TableGame`], so every one can be played) and lets the bots play up to the person's first turn. A
//! [`Session`] then takes the person's moves ([`Session::play`]) and answers the
//! state the person may see ([`Session::state`]): built from the person's seat
//! view and the public actions only, until the game is over, when the record
//! and its replayed `result` are added. While the person is to move it gives
//! hints ([`Session::hint`]: what a level would play, from the person's view
//! only); each finished hand carries its review ([`bones_agents::review`]), and a
//! finished game is handed once to the history ([`Session::finished`]).

use super::deals::{numbers, DealLog};
use super::error::WebError;
use super::history::Finished;
use super::levels::{self, Pick, DEFAULT_LEVEL, LEVEL_NAMES};
use super::table::TableGame;
use bones_agents::{
    explain_contained, legal_prob, Agent, AgentFactory, AgentRng, Bare, PolicyLoader, Refusal, Table, ViewOf,
};
use bones_env::record::kind;
use bones_env::registry::{AnyGame, GameVisitor};
use bones_env::replay::GameRecord;
use bones_env::seed::mix64;
use bones_env::{Episode, Game, GameState, SeatView};
use rand::{Rng, SeedableRng};
use serde_json::{json, Map, Value};

/// The keys of a new-game request.
const NEW_GAME_KEYS: [&str; 8] = ["game", "players", "seat", "opponents", "partner", "rules", "seed", "episode"];

/// A game as it is played: the state JSON out, the person's moves in.
pub trait Session: Send {
    /// What the person may see now (see docs/interfaces/web.md, the web API).
    fn state(&self) -> Value;
    /// Applies the person's action (a name) and lets the bots play up to the
    /// person's next turn or the end. With `ply` (the length of the history
    /// the move was chosen at) a move for an older state is refused.
    /// The review of a hand that ends compares the bids with the network
    /// that `models` loads.
    fn play(&mut self, action: &str, ply: Option<usize>, models: &dyn PolicyLoader) -> Result<(), WebError>;
    /// What the level `level` (default: the opponents' level, else
    /// `normal`) would play now, with the network's probability of each legal
    /// move (and the level's values where it weighs moves by one); the game is
    /// not changed, but the hint is counted (once per position).
    fn hint(&mut self, level: Option<&str>, models: &dyn PolicyLoader) -> Result<Value, WebError>;
    /// The finished game for the history: once, the first time it is asked
    /// after the game is over.
    fn finished(&mut self) -> Option<Finished>;
}

/// A parsed `POST /api/games` request.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game with its rules and player count.
    pub game: AnyGame,
    /// The person's seat.
    pub seat: usize,
    /// The bots at the other sides' seats (`None`: the server's default).
    pub opponents: Option<Pick>,
    /// The bots at the person's side's other seats (`None`: the server's default).
    pub partner: Option<Pick>,
    /// The seed of the deals (`None`: drawn at random, shown in the record at the end).
    pub seed: Option<u64>,
    /// A whole game (the default) or one hand/round.
    pub episode: Episode,
}

impl NewGame {
    /// Refuses the specs a request named that may not be built from the
    /// network: `exec:` and `bridge:`, model paths outside `models_dir`
    /// ([`AgentSpec::check_remote`](bones_agents::AgentSpec::check_remote)),
    /// and specs that ask for more than `limits`
    /// ([`AgentSpec::check_limits`](bones_agents::AgentSpec::check_limits)).
    pub fn check_remote(
        &self,
        models_dir: Option<&std::path::Path>,
        limits: &bones_agents::Limits,
    ) -> Result<(), WebError> {
        for (key, pick) in [("opponents", &self.opponents), ("partner", &self.partner)] {
            if let Some(Pick::Spec(spec)) = pick {
                let checked = spec.check_remote(models_dir).and_then(|()| spec.check_limits(limits));
                checked.map_err(|e| WebError::Agent { key, message: e.to_string() })?;
            }
        }
        Ok(())
    }
}

/// The bots a server plays when a request names none.
#[derive(Clone, Debug, Default)]
pub struct Defaults {
    /// `--opponents` (`None`: the `normal` level).
    pub opponents: Option<Pick>,
    /// `--partner` (`None`: the `normal` level).
    pub partner: Option<Pick>,
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
        let spec = |key: &'static str| -> Result<Option<Pick>, WebError> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) if s.is_empty() => Ok(None),
                Some(Value::String(s)) => Pick::parse(s).map(Some).map_err(|message| WebError::Agent { key, message }),
                Some(v) => Err(WebError::Agent {
                    key,
                    message: format!(
                        "expected a level ({}) or an agent spec string, got {}",
                        LEVEL_NAMES.join(", "),
                        kind(v)
                    ),
                }),
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

/// The review of finished deal `deal` (0-based) of a game whose state is
/// `state` (the finished deals and their reviews are part of it, so a review
/// is read without waiting for the bots).
pub fn review_of(state: &Value, deal: usize) -> Result<Value, WebError> {
    let deals = state["deals"].as_array().map_or(&[][..], |d| d.as_slice());
    if let Some(d) = deals.get(deal) {
        return Ok(json!({"deal": deal, "review": d["review"]}));
    }
    if deal == deals.len() && state["done"] == json!(false) {
        return Err(WebError::NotYet(format!("hand {} is not over yet: its review comes once it is over", deal + 1)));
    }
    Err(WebError::Http {
        status: 404,
        message: format!("no hand {} in this game: {} finished so far", deal.saturating_add(1), deals.len()),
    })
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

/// Builds the game of `req` with its bots (`model:PATH` loaded by `models`)
/// and lets the bots play up to the person's first turn.
pub fn create(req: NewGame, defaults: &Defaults, models: &dyn PolicyLoader) -> Result<Box<dyn Session>, WebError> {
    let game = req.game;
    let create = Create { req, defaults, models };
    bones_env::on_game!(game, g => create.visit(g))
}

/// The visitor of [`create`].
struct Create<'a> {
    req: NewGame,
    defaults: &'a Defaults,
    models: &'a dyn PolicyLoader,
}

impl Create<'_> {
    fn visit<G: TableGame>(self, game: G) -> Result<Box<dyn Session>, WebError> {
        let NewGame { seat, opponents, partner, seed, episode, .. } = self.req;
        let factory = AgentFactory::with_models(self.models);
        let players = game.num_players();
        let default = Pick::Level(DEFAULT_LEVEL);
        let opponents = opponents.or_else(|| self.defaults.opponents.clone()).unwrap_or_else(|| default.clone());
        let partner = partner.or_else(|| self.defaults.partner.clone()).unwrap_or(default);
        let has_partner = (0..players).any(|s| s != seat && game.team_of(s) == game.team_of(seat));
        let mut bots: Vec<Option<Box<dyn Agent<ViewOf<G>>>>> = (0..players).map(|_| None).collect();
        let mut agents: Vec<Option<String>> = vec![None; players];
        let mut levels: Vec<Option<&'static str>> = vec![None; players];
        for s in (0..players).filter(|&s| s != seat) {
            let (key, pick) =
                if game.team_of(s) == game.team_of(seat) { ("partner", &partner) } else { ("opponents", &opponents) };
            let spec = pick.spec(game.name(), self.models);
            let bot = match pick {
                Pick::Level(level) => levels::level_bot(&factory, level, &spec, &game)
                    .map_err(|message| WebError::Agent { key, message })?,
                Pick::Spec(_) => {
                    factory.build(&spec, &game).map_err(|e| WebError::Agent { key, message: e.to_string() })?
                }
            };
            bots[s] = Some(bot);
            agents[s] = Some(spec.to_string());
            levels[s] = pick.level();
        }
        let seed = seed.unwrap_or_else(|| rand::rng().random());
        let sides = game.num_sides();
        let rng = AgentRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x7765_6221);
        let table = Table::new(Bare::dealt(game, seed, episode), bots, rng);
        let picked = |p: &Pick| match p {
            Pick::Level(name) => name.to_string(),
            Pick::Spec(spec) => spec.to_string(),
        };
        let mut play = Play {
            table,
            seat,
            agents,
            levels,
            opponents: picked(&opponents),
            partner: has_partner.then(|| picked(&partner)),
            hint_level: opponents.level().unwrap_or(DEFAULT_LEVEL),
            seed,
            episode,
            log: DealLog::new(seat, sides),
            hints: Vec::new(),
            stored: false,
        };
        play.run_bots(self.models)?;
        Ok(Box::new(play))
    }
}

/// A hint the person asked for: where, of which level, and what it said.
#[derive(Clone, Debug)]
struct HintUse {
    ply: usize,
    level: &'static str,
    action: &'static str,
}

/// A game in progress: the generic [`Session`].
struct Play<G: TableGame> {
    /// The game, its state, the bots at every seat but the person's (drawing
    /// from one stream), and every action so far.
    table: Table<G>,
    /// The person's seat.
    seat: usize,
    /// The spec of each seat's bot, canonical (`None` at the person's).
    agents: Vec<Option<String>>,
    /// The level of each seat's bot (`None`: a spec, or the person).
    levels: Vec<Option<&'static str>>,
    /// What was picked for the opponents and the partner (a level's name or a spec).
    opponents: String,
    partner: Option<String>,
    /// The level a hint asks by default.
    hint_level: &'static str,
    seed: u64,
    episode: Episode,
    /// The finished deals and the game totals.
    log: DealLog<G>,
    /// The hints asked, one per position.
    hints: Vec<HintUse>,
    /// Whether the finished game was handed to the history.
    stored: bool,
}

impl<G: TableGame> Play<G> {
    /// Lets the bots play until the person is to move or the game is over.
    fn run_bots(&mut self, models: &dyn PolicyLoader) -> Result<(), WebError> {
        let Play { table, log, agents, .. } = self;
        table.advance_with(|p| log.observe(p, models)).map_err(|e| {
            let who = agents[e.seat].as_deref().unwrap_or("?");
            WebError::BotFailed(match &e.refusal {
                Refusal::Failed(f) => format!("the bot `{who}` at seat {} failed: {f}", e.seat),
                Refusal::Board { reason, .. } => {
                    format!("the bot `{who}` at seat {} chose an illegal action: {reason}", e.seat)
                }
            })
        })
    }

    /// The legal action names of the person (empty when not to move).
    fn legal(&self) -> Vec<&'static str> {
        if self.table.to_move() != Some(self.seat) {
            return Vec::new();
        }
        self.table.state().legal_mask().iter().map(|a| self.table.game().action_name(a)).collect()
    }

    /// The front end's notes on the game (the record's `annotations`).
    fn annotations(&self) -> Value {
        let hints: Vec<Value> =
            self.hints.iter().map(|h| json!({"ply": h.ply, "level": h.level, "action": h.action})).collect();
        let reviews: Vec<&Value> = self.log.deals.iter().map(|d| &d["review"]).collect();
        json!({
            "seat": self.seat,
            "levels": {"opponents": self.opponents, "partner": self.partner},
            "agents": self.agents,
            "hints": hints,
            "reviews": reviews,
        })
    }

    /// The record of the game so far (it names the seed: shown only at the end).
    fn record(&self) -> Value {
        let actions = self.table.action_names().into_iter().map(String::from).collect();
        match GameRecord::seeded(self.table.game(), self.seed, self.episode, actions) {
            Ok(record) => record.with_annotations(self.annotations()).to_json(),
            Err(e) => json!({ "error": e.to_string() }),
        }
    }

    /// The network's probability of each legal action of `view`, in id order
    /// (`None` when the game has no shipped network here).
    fn network_probs(&self, view: &ViewOf<G>, models: &dyn PolicyLoader) -> Option<Vec<f32>> {
        let game = self.table.game();
        let path = models.shipped(game.name())?;
        let mut policy = models.load(&path, bones_agents::policy::Wanted::of(game)).ok()?;
        let mut obs = vec![0.0; game.obs_len()];
        view.observe(&mut obs);
        let logits = policy.logits(&obs, 1);
        let legal = view.legal();
        Some(legal.iter().map(|a| legal_prob(&logits, legal, a)).collect())
    }
}

impl<G: TableGame> Session for Play<G> {
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
        out.insert("levels".into(), json!(self.levels));
        out.insert("to_move".into(), json!(to_move));
        out.insert("legal".into(), json!(self.legal()));
        out.insert("history".into(), Value::Array(history));
        out.insert("hand".into(), json!(hand));
        out.insert("scores".into(), numbers(&self.log.totals));
        out.insert("hints".into(), json!(self.hints.len()));
        out.insert("deals".into(), Value::Array(self.log.deals.clone()));
        out.insert("table".into(), game.table(&view));
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

    fn play(&mut self, name: &str, ply: Option<usize>, models: &dyn PolicyLoader) -> Result<(), WebError> {
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
        let Play { table, log, .. } = self;
        table.apply_with(a, |p| log.observe(p, models)).map_err(|e| WebError::Action(e.to_string()))?;
        self.run_bots(models)
    }

    fn hint(&mut self, level: Option<&str>, models: &dyn PolicyLoader) -> Result<Value, WebError> {
        let name = match level {
            None => self.hint_level,
            Some(l) => *LEVEL_NAMES.iter().find(|&&n| n == l).ok_or_else(|| {
                WebError::Request(format!(
                    "unknown level `{}`: expected {}",
                    l.chars().take(40).collect::<String>(),
                    LEVEL_NAMES.join(", ")
                ))
            })?,
        };
        if self.table.to_move().is_none() {
            return Err(WebError::Finished("there is no move to hint".into()));
        }
        let game = self.table.game();
        let level = levels::level(game.name(), name, models).expect("every game has every level");
        let factory = AgentFactory::with_models(models);
        let spec = level.spec;
        let mut agent = levels::level_bot(&factory, name, &spec, game)
            .map_err(|message| WebError::Agent { key: "level", message })?;
        let view = self.table.state().view(self.seat);
        let ply = self.table.history().len();
        let mut rng = AgentRng::seed_from_u64(mix64(self.seed ^ mix64(ply as u64 ^ 0x6869_6e74)));
        let explained = explain_contained(&mut agent, &view, &mut rng)
            .map_err(|f| WebError::BotFailed(format!("the hint's bot `{spec}` failed: {f}")))?;
        let probs = self.network_probs(&view, models);
        let values = explained.values.as_ref();
        let moves: Vec<Value> = view
            .legal()
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let value = values.and_then(|v| v.values.iter().find(|&&(b, _)| b == a)).map(|&(_, x)| x);
                json!({
                    "action": game.action_name(a),
                    "prob": probs.as_ref().map(|p| p[i]),
                    "value": value,
                })
            })
            .collect();
        let action = game.action_name(explained.action);
        if self.hints.last().is_none_or(|h| h.ply != ply) {
            self.hints.push(HintUse { ply, level: name, action });
        }
        Ok(json!({
            "ply": ply,
            "level": name,
            "label": level.label,
            "spec": spec.to_string(),
            "action": action,
            "moves": moves,
            "value_unit": values.map(|v| v.unit.clone()),
            "hints": self.hints.len(),
        }))
    }

    fn finished(&mut self) -> Option<Finished> {
        if self.stored || self.table.to_move().is_some() {
            return None;
        }
        self.stored = true;
        let game = self.table.game();
        let winner = self.table.state().winning_side();
        let mine = game.team_of(self.seat);
        let sides = &self.log.totals;
        let best_other = (0..sides.len()).filter(|&s| s != mine).map(|s| sides[s]).fold(f64::MIN, f64::max);
        let result = match winner {
            Some(w) if w == mine => "won",
            Some(_) => "lost",
            None if sides[mine] > best_other => "won",
            None if sides[mine] < best_other => "lost",
            None => "tied",
        };
        Some(Finished {
            game: game.name().to_string(),
            players: game.num_players(),
            seat: self.seat,
            opponents: Some(self.opponents.clone()),
            partner: self.partner.clone(),
            agents: json!(self.agents),
            scores: numbers(sides),
            winner,
            result,
            hints: self.hints.len(),
            points_lost: self.log.points_lost(),
            record: self.record(),
        })
    }
}
