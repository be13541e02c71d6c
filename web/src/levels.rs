//! Strength levels: the bots a person picks by name (Easy, Normal, Hard)
//! instead of typing an agent spec. Each game has the same three names; what
//! each plays depends on the game and on what this server has (the shipped
//! models). A request's `opponents` or `partner` is a level's name or a spec
//! ([`Pick`]).

use bones_agents::AgentGame;
use bones_agents::{Agent, AgentFactory, AgentSpec, PolicyLoader, SearchOptions, ViewOf};

/// The level a request names when it names none, and the hint's level in a
/// game whose opponents are a custom spec.
pub const DEFAULT_LEVEL: &str = "normal";

/// One strength level of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Its name in requests (`easy`, `normal`, `hard`).
    pub name: &'static str,
    /// Its name on the page.
    pub label: &'static str,
    /// One line on how it plays.
    pub about: &'static str,
    /// The bot it plays here.
    pub spec: AgentSpec,
}

/// The level names, weakest first.
pub const LEVEL_NAMES: [&str; 3] = ["easy", "normal", "hard"];

/// The levels of `game`, weakest first: Easy is `heuristic`; Normal the
/// game's shipped network (`heuristic` where there is none); Hard `search`
/// over the shipped network for Texas 42 (`pimc:worlds=16` without one) and
/// `pimc:worlds=512` for Doubles.
pub fn levels(game: &str, models: &dyn PolicyLoader) -> Vec<Level> {
    let shipped = models.shipped(game);
    let network = match &shipped {
        Some(path) => (AgentSpec::Model { path: path.clone() }, "the shipped network: quick, plays from experience"),
        None => (AgentSpec::Heuristic, "rules of thumb (no trained network on this server)"),
    };
    let hard = match (game, &shipped) {
        ("texas42", Some(_)) => (
            AgentSpec::Search(SearchOptions::default()),
            "the network and the open-hand solver over sampled deals: the strongest bot, a moment per move",
        ),
        ("texas42", None) => (AgentSpec::Pimc { worlds: 16 }, "the open-hand solver over 16 sampled deals"),
        _ => (AgentSpec::Pimc { worlds: 512 }, "plays each move out in 512 sampled deals: the strongest bot"),
    };
    vec![
        Level {
            name: "easy",
            label: "Easy",
            about: "rules of thumb: plays sensibly, never deep",
            spec: AgentSpec::Heuristic,
        },
        Level { name: "normal", label: "Normal", about: network.1, spec: network.0 },
        Level { name: "hard", label: "Hard", about: hard.1, spec: hard.0 },
    ]
}

/// The level `name` of `game`.
pub fn level(game: &str, name: &str, models: &dyn PolicyLoader) -> Option<Level> {
    levels(game, models).into_iter().find(|l| l.name == name)
}

/// The bot of a level's `spec` in `game`; the reason, naming the level, when
/// it cannot be built here (a damaged or missing model): a level never plays
/// another bot in its place.
pub fn level_bot<G: AgentGame>(
    factory: &AgentFactory<'_>,
    level: &str,
    spec: &AgentSpec,
    game: &G,
) -> Result<Box<dyn Agent<ViewOf<G>>>, String> {
    factory.build(spec, game).map_err(|e| unavailable(level, &e.to_string()))
}

/// The message of a level that cannot play here.
pub fn unavailable(level: &str, why: &str) -> String {
    format!("the level `{level}` is unavailable on this server: {why}")
}

/// Why each level of each registered game cannot play here (a level missing
/// from the map plays): every level's bot is built once, as the server starts.
pub fn check_all(models: &dyn PolicyLoader) -> std::collections::HashMap<(&'static str, &'static str), String> {
    struct Check<'a>(&'a dyn PolicyLoader);
    impl Check<'_> {
        fn visit<G: AgentGame>(self, game: G) -> Vec<(&'static str, String)> {
            let factory = AgentFactory::with_models(self.0);
            levels(game.name(), self.0)
                .into_iter()
                .filter_map(|l| factory.build(&l.spec, &game).err().map(|e| (l.name, e.to_string())))
                .collect()
        }
    }
    let mut out = std::collections::HashMap::new();
    for g in bones_env::GAMES.iter() {
        if let Ok(game) = bones_env::registry::AnyGame::new(g.name, None, None) {
            for (level, why) in bones_env::on_game!(game, g => Check(models).visit(g)) {
                out.insert((g.name, level), why);
            }
        }
    }
    out
}

/// What a request picked for a role: a level by name, or an agent spec.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// A level (one of [`LEVEL_NAMES`]).
    Level(&'static str),
    /// A spec typed by the person ("custom").
    Spec(AgentSpec),
}

impl Pick {
    /// Reads a request's value: a level name, else an agent spec; the message
    /// names both kinds when it is neither.
    pub fn parse(text: &str) -> Result<Pick, String> {
        if let Some(name) = LEVEL_NAMES.iter().find(|&&n| n == text) {
            return Ok(Pick::Level(name));
        }
        AgentSpec::parse(text).map(Pick::Spec).map_err(|e| {
            format!(
                "`{}` is neither a level ({}) nor an agent spec: {e}",
                super::error::shown(text, 60),
                LEVEL_NAMES.join(", ")
            )
        })
    }

    /// The level's name, `None` for a spec.
    pub fn level(&self) -> Option<&'static str> {
        match self {
            Pick::Level(name) => Some(name),
            Pick::Spec(_) => None,
        }
    }

    /// The spec it plays in `game`.
    pub fn spec(&self, game: &str, models: &dyn PolicyLoader) -> AgentSpec {
        match self {
            Pick::Level(name) => level(game, name, models).expect("a parsed level exists in every game").spec,
            Pick::Spec(spec) => spec.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    struct Models(Option<PathBuf>);
    impl PolicyLoader for Models {
        fn load(&self, _: &Path, _: bones_agents::policy::Wanted<'_>) -> Result<Box<dyn bones_agents::Policy>, String> {
            Err("not in this test".into())
        }
        fn shipped(&self, _: &str) -> Option<PathBuf> {
            self.0.clone()
        }
    }

    #[test]
    fn every_game_has_the_three_levels_weakest_first() {
        for game in ["texas42", "doubles"] {
            for models in [Models(None), Models(Some("models/x".into()))] {
                let names: Vec<_> = levels(game, &models).iter().map(|l| l.name).collect();
                assert_eq!(names, LEVEL_NAMES);
            }
        }
    }

    #[test]
    fn the_levels_play_the_shipped_network_and_search_where_there_is_one() {
        let with = Models(Some("models/texas42".into()));
        let specs: Vec<String> = levels("texas42", &with).iter().map(|l| l.spec.to_string()).collect();
        assert_eq!(
            specs,
            [
                "heuristic",
                "model:models/texas42",
                "search:worlds=128:pool=512:bidding=policy:weighted=on:continuation=infoset:exact=3"
            ]
        );
        let specs: Vec<String> = levels("texas42", &Models(None)).iter().map(|l| l.spec.to_string()).collect();
        assert_eq!(specs, ["heuristic", "heuristic", "pimc:worlds=16"]);
        let specs: Vec<String> =
            levels("doubles", &Models(Some("models/doubles".into()))).iter().map(|l| l.spec.to_string()).collect();
        assert_eq!(specs, ["heuristic", "model:models/doubles", "pimc:worlds=512"]);
    }

    #[test]
    fn a_pick_is_a_level_name_or_a_spec_and_the_error_names_both() {
        assert_eq!(Pick::parse("hard"), Ok(Pick::Level("hard")));
        assert_eq!(Pick::parse("heuristic"), Ok(Pick::Spec(AgentSpec::Heuristic)));
        let e = Pick::parse("expert").unwrap_err();
        assert!(e.contains("`expert` is neither a level (easy, normal, hard) nor an agent spec"), "{e}");
    }
}
