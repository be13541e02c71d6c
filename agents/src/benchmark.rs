//! The standard benchmark (`bones benchmark`): one agent against a fixed
//! gauntlet on a fixed, versioned set of duplicate deals, summed up in a
//! [`Scorecard`].
//!
//! A benchmark is plain data ([`Benchmark`]): a version name, the game, its
//! rules and player count, the gauntlet (agent specs), the seed of the deals and
//! the amount played against each opponent. [`run`] plays the agent against each
//! opponent in turn with [`crate::arena::evaluate`] (the same duplicate deals for
//! every opponent) and returns the scorecard: per opponent the arena's figures
//! (the margin per hand or round with its 95% interval, the win rate with its
//! Wilson interval, the Elo difference) and a one-line summary.
//!
//! **Versions.** A published version ([`Benchmark::version`]: `texas42-v1`,
//! `doubles-v1`) never changes: the unit tests pin its gauntlet, seed, amount and
//! rules. A different gauntlet, seed or amount is a new version (`texas42-v2`),
//! and the old one stays, so that scorecards quoted under a version name compare.
//!
//! **The shipped network.** The gauntlet names it as `model:models/GAME`; [`run`]
//! takes the folder it is found in (`shipped`, e.g. the `bones` binary's
//! `shipped_model(game)`) so that the benchmark runs from any folder. The row
//! keeps the name `model:models/GAME`.
//!
//! ```
//! use bones_agents::benchmark::{self, Benchmark};
//! use bones_agents::arena::Amount;
//! use bones_agents::{AgentFactory, AgentSpec};
//!
//! // A reduced copy of a definition (the real ones need the shipped networks).
//! let mut b = Benchmark::version("texas42-v1").unwrap();
//! b.gauntlet = vec!["random".into()];
//! b.amount = Amount::Hands(4);
//! let card = benchmark::run(&b, &AgentSpec::Heuristic, &AgentFactory::new(), None, 1, &|_| {}).unwrap();
//! assert_eq!(card.rows.len(), 1);
//! assert_eq!(card.rows[0].hands, 4);
//! ```

use std::path::{Path, PathBuf};

use crate::arena::{self, elo_vs_field, Amount, ArenaError, EvalOptions, EvalReport};
use crate::batched::{self, Entrant};
use crate::factory::AgentFactory;
use crate::game::AgentGame;
use crate::rating::pair_elo;
use crate::spec::{AgentSpec, SpecError};
use bones_env::{AnyGame, GameError};
use serde::{Deserialize, Serialize};

/// The published benchmark versions, oldest first.
pub const VERSIONS: &[&str] = &["texas42-v1", "doubles-v1"];

/// A benchmark definition: who the agent plays, on which deals, how much.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Benchmark {
    /// The version name (`texas42-v1`): quote it with the scorecard.
    pub version: String,
    /// The game (`texas42`, `doubles`).
    pub game: String,
    /// The rules: a preset name (`standard`) or a JSON rules object.
    pub rules: String,
    /// Players at the table (`None`: the game's default).
    pub players: Option<usize>,
    /// The opponents, as agent specs (`model:models/GAME` is the shipped network).
    pub gauntlet: Vec<String>,
    /// Base seed of the duplicate deals (the same deals against every opponent).
    pub seed: u64,
    /// How much is played against each opponent (rounded up to whole deals).
    pub amount: Amount,
}

impl Benchmark {
    /// A published version by name (`texas42-v1`, `doubles-v1`).
    pub fn version(name: &str) -> Option<Benchmark> {
        let specs = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match name {
            // 500 duplicate deals, each hand played with A's team in both seat pairs.
            "texas42-v1" => Some(Benchmark {
                version: name.to_string(),
                game: "texas42".to_string(),
                rules: "standard".to_string(),
                players: None,
                gauntlet: specs(&[
                    "random",
                    "heuristic",
                    "model:models/texas42",
                    "pimc:worlds=16",
                    "search:worlds=128:pool=512:bidding=policy:weighted=on:continuation=solver",
                ]),
                seed: 42,
                amount: Amount::Hands(1000),
            }),
            // 500 duplicate deals, each round played with A in each of the 4 seats.
            "doubles-v1" => Some(Benchmark {
                version: name.to_string(),
                game: "doubles".to_string(),
                rules: "standard".to_string(),
                players: Some(4),
                gauntlet: specs(&["random", "highest", "heuristic", "pimc:worlds=32", "model:models/doubles"]),
                seed: 42,
                amount: Amount::Hands(2000),
            }),
            _ => None,
        }
    }

    /// The newest published version for `game`.
    pub fn latest(game: &str) -> Option<Benchmark> {
        VERSIONS.iter().rev().filter_map(|v| Benchmark::version(v)).find(|b| b.game == game)
    }

    /// The benchmark a user names: version `name`, which must be of `game` when
    /// both are given, else the newest version of `game` (default `texas42`).
    pub fn select(name: Option<&str>, game: Option<&str>) -> Result<Benchmark, BenchmarkError> {
        let unknown = |msg: String| Err(BenchmarkError::Unknown(msg));
        match (name, game) {
            (Some(name), game) => match Benchmark::version(name) {
                Some(b) if game.is_none_or(|g| g == b.game) => Ok(b),
                Some(b) => {
                    unknown(format!("benchmark {name} is a {} benchmark, not {}", b.game, game.unwrap_or_default()))
                }
                None => unknown(format!("unknown benchmark `{name}`: expected one of {}", VERSIONS.join(", "))),
            },
            (None, game) => {
                let game = game.unwrap_or("texas42");
                Benchmark::latest(game).map_or_else(|| unknown(format!("game `{game}`: no benchmark for it yet")), Ok)
            }
        }
    }

    /// The game, rules and players this benchmark is played under.
    pub fn any_game(&self) -> Result<AnyGame, BenchmarkError> {
        Ok(AnyGame::from_rules_text(&self.game, &self.rules, self.players)?)
    }

    /// The gauntlet parsed, with the shipped network `model:models/GAME` taken
    /// from `shipped` when that folder is not in the current folder.
    pub fn opponents(&self, shipped: Option<&Path>) -> Result<Vec<AgentSpec>, BenchmarkError> {
        let here = PathBuf::from("models").join(&self.game);
        self.gauntlet
            .iter()
            .map(|s| {
                let spec = AgentSpec::parse(s)?;
                Ok(match (&spec, shipped) {
                    (AgentSpec::Model { path }, Some(folder)) if *path == here && !here.is_dir() => {
                        AgentSpec::Model { path: folder.to_path_buf() }
                    }
                    _ => spec,
                })
            })
            .collect()
    }
}

/// Why a benchmark could not be run.
#[derive(Debug, thiserror::Error)]
pub enum BenchmarkError {
    /// The benchmark's game, rules or players are not valid.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A spec (the agent's or an opponent's) is bad or cannot be built for the game.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// An evaluation failed (an illegal action, nothing to play).
    #[error("against `{opponent}`: {source}")]
    Arena {
        /// The opponent's spec.
        opponent: String,
        /// What failed.
        source: Box<ArenaError>,
    },
    /// No benchmark of that name, or not of that game.
    #[error("{0}")]
    Unknown(String),
    /// The gauntlet is empty.
    #[error("the benchmark `{0}` has no opponents")]
    NoOpponents(String),
}

/// A value with its 95% interval (`lo`/`hi` are `None` when not defined).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower bound.
    pub lo: Option<f64>,
    /// Upper bound.
    pub hi: Option<f64>,
}

impl Interval {
    fn of(lo: f64, hi: f64) -> Interval {
        let finite = |x: f64| x.is_finite().then_some(x);
        Interval { lo: finite(lo), hi: finite(hi) }
    }
}

/// The agent against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreRow {
    /// The opponent, as the gauntlet names it.
    pub opponent: String,
    /// Duplicate deals played.
    pub deals: u64,
    /// Hands (Doubles: rounds) played.
    pub hands: u64,
    /// The agent's mean margin per hand: Texas 42 marks won minus lost by its
    /// team, Doubles its round score minus the mean of the other seats'.
    pub margin: f64,
    /// 95% interval of the margin.
    pub margin_ci: Interval,
    /// The agent's win rate (hands or rounds; see `bones eval --json`'s `win_rate`).
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_ci: Interval,
    /// Elo difference agent − opponent from the win rate (`None` at 0 or 1).
    pub elo: Option<f64>,
    /// The Elo of the win rate's interval bounds.
    pub elo_ci: Interval,
    /// Microseconds per decision of the agent and the opponent (wall clock: not
    /// deterministic).
    pub micros_per_decision: [f64; 2],
}

impl ScoreRow {
    /// The row of an arena report, under the opponent name `opponent`.
    pub fn from_report(opponent: &str, r: &EvalReport) -> ScoreRow {
        let margin = r.marks_per_hand.or(r.points_per_round).unwrap_or(arena::Estimate {
            mean: f64::NAN,
            lo: f64::NAN,
            hi: f64::NAN,
        });
        let elo = |p: f64| elo_vs_field(p, r.sides).unwrap_or(f64::NAN);
        ScoreRow {
            opponent: opponent.to_string(),
            deals: r.deals,
            hands: r.hands,
            margin: margin.mean,
            margin_ci: Interval::of(margin.lo, margin.hi),
            win_rate: r.win_rate,
            win_ci: Interval::of(r.win_ci.0, r.win_ci.1),
            elo: r.elo,
            elo_ci: Interval::of(elo(r.win_ci.0), elo(r.win_ci.1)),
            micros_per_decision: r.micros_per_decision(),
        }
    }

    /// Beaten: the margin's interval lies above 0.
    pub fn beaten(&self) -> bool {
        self.margin_ci.lo.is_some_and(|lo| lo > 0.0)
    }

    /// Lost to: the margin's interval lies below 0.
    pub fn lost(&self) -> bool {
        self.margin_ci.hi.is_some_and(|hi| hi < 0.0)
    }
}

/// The scorecard's one-line summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Mean of the rows' Elo over the gauntlet (a row whose win rate is 0 or 1
    /// counts the Elo of its win rate shrunk by half a win and half a loss).
    pub mean_elo: f64,
    /// Opponents beaten: the margin's 95% interval above 0.
    pub beaten: usize,
    /// Opponents lost to: the margin's 95% interval below 0.
    pub lost: usize,
    /// Opponents in the gauntlet.
    pub opponents: usize,
}

/// What [`run`] gives: the benchmark, the agent, a row per opponent, the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scorecard {
    /// The benchmark's version name.
    pub benchmark: String,
    /// The game.
    pub game: String,
    /// The rules as the benchmark gives them.
    pub rules: String,
    /// Players at the table.
    pub players: usize,
    /// Base seed of the deals.
    pub seed: u64,
    /// The agent benchmarked (canonical spec, or a batched player's name).
    pub agent: String,
    /// What `margin` counts: `marks_per_hand` (Texas 42) or `points_per_round` (Doubles).
    pub margin_unit: String,
    /// What `win_rate` counts: `hand` (Texas 42) or `round` (Doubles).
    pub win_unit: String,
    /// One row per opponent, in gauntlet order.
    pub rows: Vec<ScoreRow>,
    /// The summary.
    pub summary: Summary,
}

impl Scorecard {
    /// The summary as one line of text.
    pub fn summary_line(&self) -> String {
        let s = &self.summary;
        format!(
            "{} on {}: mean Elo {:+.0} over {} opponents; beats {} and loses to {} (margin's 95% interval above / below 0)",
            self.agent, self.benchmark, s.mean_elo, s.opponents, s.beaten, s.lost
        )
    }
}

/// Plays `agent` against each opponent of `bench` with [`arena::evaluate`] on
/// the benchmark's deals, `threads` threads, and returns the scorecard. `shipped`
/// is the folder of the game's shipped network (see [`Benchmark::opponents`]);
/// `progress` is called with the hands (rounds) finished, summed over the
/// gauntlet ([`hands_in_all`] in all). Every spec is built once before anything
/// is played, so a bad one fails at once.
pub fn run(
    bench: &Benchmark,
    agent: &AgentSpec,
    factory: &AgentFactory,
    shipped: Option<&Path>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Scorecard, BenchmarkError> {
    run_entrant(bench, Entrant::Spec(agent), factory, shipped, threads, progress)
}

/// [`run`] for an agent that may be a batched player ([`crate::batched`]: a
/// Python callable, for `bones.benchmark`); its row names are the same.
pub fn run_entrant(
    bench: &Benchmark,
    agent: Entrant<'_>,
    factory: &AgentFactory,
    shipped: Option<&Path>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Scorecard, BenchmarkError> {
    let opponents = bench.opponents(shipped)?;
    if opponents.is_empty() {
        return Err(BenchmarkError::NoOpponents(bench.version.clone()));
    }
    let runner = Runner { bench, agent, opponents: &opponents, factory, threads, progress };
    bones_env::on_game!(bench.any_game()?, g => runner.visit(g))
}

/// Hands (rounds) a run of `bench` plays in all, over the whole gauntlet.
pub fn hands_in_all(bench: &Benchmark) -> Result<u64, BenchmarkError> {
    let sides = bench.any_game()?.num_sides() as u64;
    let deals = arena::deal_count(bench.amount, sides as usize)
        .map_err(|e| BenchmarkError::Arena { opponent: String::new(), source: Box::new(e) })?;
    Ok(deals * sides * bench.gauntlet.len() as u64)
}

struct Runner<'a, 'e> {
    bench: &'a Benchmark,
    agent: Entrant<'e>,
    opponents: &'a [AgentSpec],
    factory: &'a AgentFactory<'a>,
    threads: usize,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl Runner<'_, '_> {
    fn visit<G: AgentGame>(self, game: G) -> Result<Scorecard, BenchmarkError> {
        let b = self.bench;
        let mut agent = self.agent;
        if let Entrant::Spec(spec) = agent {
            self.factory.build(spec, &game)?;
        }
        for o in self.opponents {
            self.factory.build(o, &game)?;
        }
        let opts = EvalOptions { amount: b.amount, seed: b.seed, threads: self.threads.max(1) };
        let mut rows = Vec::with_capacity(self.opponents.len());
        let mut elo_sum = 0.0;
        let mut texas = false;
        for (name, o) in b.gauntlet.iter().zip(self.opponents) {
            let report =
                batched::evaluate(&game, [agent.reborrow(), Entrant::Spec(o)], self.factory, &opts, self.progress)
                    .map_err(|e| BenchmarkError::Arena { opponent: name.clone(), source: Box::new(e) })?;
            texas = report.marks_per_hand.is_some();
            elo_sum += report.elo.unwrap_or_else(|| pair_elo(&report));
            rows.push(ScoreRow::from_report(name, &report));
        }
        let summary = Summary {
            mean_elo: elo_sum / rows.len().max(1) as f64,
            beaten: rows.iter().filter(|r| r.beaten()).count(),
            lost: rows.iter().filter(|r| r.lost()).count(),
            opponents: rows.len(),
        };
        Ok(Scorecard {
            benchmark: b.version.clone(),
            game: game.name().to_string(),
            rules: b.rules.clone(),
            players: game.num_players(),
            seed: b.seed,
            agent: agent.name(),
            margin_unit: if texas { "marks_per_hand" } else { "points_per_round" }.to_string(),
            win_unit: match b.amount {
                Amount::Games(_) => "game",
                Amount::Hands(_) if texas => "hand",
                Amount::Hands(_) => "round",
            }
            .to_string(),
            rows,
            summary,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published versions never change: a change is a new version.
    #[test]
    fn published_versions_are_pinned() {
        let t = Benchmark::version("texas42-v1").unwrap();
        assert_eq!(
            (t.game.as_str(), t.rules.as_str(), t.players, t.seed, t.amount),
            ("texas42", "standard", None, 42, Amount::Hands(1000))
        );
        assert_eq!(
            t.gauntlet,
            [
                "random",
                "heuristic",
                "model:models/texas42",
                "pimc:worlds=16",
                "search:worlds=128:pool=512:bidding=policy:weighted=on:continuation=solver"
            ]
        );
        let d = Benchmark::version("doubles-v1").unwrap();
        assert_eq!(
            (d.game.as_str(), d.rules.as_str(), d.players, d.seed, d.amount),
            ("doubles", "standard", Some(4), 42, Amount::Hands(2000))
        );
        assert_eq!(d.gauntlet, ["random", "highest", "heuristic", "pimc:worlds=32", "model:models/doubles"]);
        assert_eq!(VERSIONS, ["texas42-v1", "doubles-v1"]);
        assert_eq!(Benchmark::latest("texas42").unwrap(), t);
        assert_eq!(Benchmark::latest("doubles").unwrap(), d);
        assert_eq!(Benchmark::version("texas42-v0"), None);
    }

    #[test]
    fn published_gauntlets_parse_in_canonical_form() {
        for v in VERSIONS {
            let b = Benchmark::version(v).unwrap();
            assert_eq!(&b.version, v);
            let specs = b.opponents(None).unwrap();
            for (s, spec) in b.gauntlet.iter().zip(&specs) {
                assert_eq!(s, &spec.to_string());
            }
            b.any_game().unwrap();
        }
        assert_eq!(hands_in_all(&Benchmark::version("texas42-v1").unwrap()).unwrap(), 5000);
        assert_eq!(hands_in_all(&Benchmark::version("doubles-v1").unwrap()).unwrap(), 10000);
    }

    #[test]
    fn the_shipped_network_is_found_elsewhere() {
        let b = Benchmark::version("doubles-v1").unwrap();
        let elsewhere = Path::new("/somewhere/models/doubles");
        let specs = b.opponents(Some(elsewhere)).unwrap();
        let expect = if Path::new("models/doubles").is_dir() { Path::new("models/doubles") } else { elsewhere };
        assert_eq!(specs[4], AgentSpec::Model { path: expect.to_path_buf() });
    }
}
