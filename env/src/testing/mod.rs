//! One conformance suite for every game, in the spirit of OpenSpiel's
//! `RandomSimTest`: [`check_game`] plays random seeded episodes of a game and
//! checks, at every state and transition, what every game of Bones must keep:
//!
//! - the legal mask is exactly the set of actions `apply` accepts (every other
//!   id refused with an error naming it and the mask, the state unchanged);
//! - a state is terminal exactly when no seat acts, and then has a finished
//!   deal (and, in a whole game, a winner);
//! - every domino is in exactly one place and moves only as played or drawn
//!   (where the game accounts for them: [`GameState::dominoes`](crate::GameState::dominoes));
//! - rewards are finite, zero for absent seats, and zero-sum per side
//!   ([`Game::team_of`]: Texas 42's partners are paid alike) when
//!   [`SuiteConfig::zero_sum`];
//! - the same seed and actions give the same trajectory, bit for bit;
//! - a state saved mid-episode (serde + bincode), an `Env` (`Env::save`) and a
//!   `VecEnv` continue identically after a restore;
//! - a seat's view observes what the state shows it;
//! - a seat's observation does not change when what it cannot see is dealt
//!   differently ([`GameState::resample_hidden`](crate::GameState::resample_hidden));
//! - `Env` and `VecEnv` (one or two threads) show the states they wrap, and
//!   pay every reward exactly once;
//! - optionally, the digest of fixed trajectories is a pinned one ([`Golden`]).
//!
//! A game without [`GameState::dominoes`](crate::GameState::dominoes) or [`GameState::resample_hidden`](crate::GameState::resample_hidden)
//! (both default to `None`) skips those two checks; the [`SuiteReport`] says
//! what was checked. [`check_registry`] runs the suite for every game of the
//! registry at every player count. A failure is a [`SuiteFailure`] (an error,
//! not a panic) naming the game, the [`Check`], where and what was seen.
//!
//! ```
//! use bones_env::testing::{check_game, SuiteConfig};
//! use bones_env::{Doubles, Game};
//!
//! let config = SuiteConfig { hand_episodes: 2, game_episodes: 0, ..SuiteConfig::default() };
//! let report = check_game(&Doubles::default(), &config).unwrap();
//! assert!(report.states > 0 && report.resamples > 0);
//! ```
//!
//! Modules: `report` (the configuration, report and failure types),
//! `digest` (the observation digest and state fingerprints), `state` (the
//! per-state and per-transition checks), `episodes` (an episode end to end,
//! `Env`, `VecEnv`).

mod digest;
mod episodes;
mod report;
mod state;

pub use digest::{observation_digest, ObservationDigest};
pub use report::{Check, Golden, SuiteConfig, SuiteFailure, SuiteReport};
pub use state::{check_state, check_transition};

use crate::env::game_label;
use crate::game::{Episode, Game};
use crate::registry::{AnyGame, GameVisitor, GAMES};

/// `VecEnv` steps per episode kind.
const VEC_ENV_STEPS: usize = 60;

/// Runs the conformance suite on `game` (see the module docs): `Ok` with what
/// was checked, or the first invariant broken.
pub fn check_game<G: Game>(game: &G, config: &SuiteConfig) -> Result<SuiteReport, SuiteFailure> {
    let label = game_label(game);
    let mut report = SuiteReport { game: label.clone(), ..SuiteReport::default() };
    let kinds = [(Episode::Hand, "hand", config.hand_episodes), (Episode::Game, "game", config.game_episodes)];
    for (episode, name, count) in kinds {
        for k in 0..count {
            let deal_seed = config.seed.wrapping_add(k);
            episodes::run_episode(game, episode, deal_seed, config, &mut report).map_err(|(check, m, step)| {
                SuiteFailure::new(&label, check, m)
                    .at(format_args!("{name} episode {k} (deal seed {deal_seed}), step {step}"))
            })?;
        }
        if count > 0 {
            episodes::run_vec_env(game, episode, config.seed, VEC_ENV_STEPS).map_err(|(check, m, step)| {
                SuiteFailure::new(&label, check, m).at(format_args!("a VecEnv of {name} episodes, step {step}"))
            })?;
        }
    }
    if let Some(g) = config.golden {
        let mut d = ObservationDigest::new();
        observation_digest(game, g.episode, g.episodes, &mut d);
        report.digest = Some(d.0);
        if d.0 != g.digest {
            let m = format!(
                "the digest of {} {:?} episodes is {:#018x}, not the pinned {:#018x} (the observation, the deal or the \
                 rules changed: bump the observation version and re-pin when that is meant)",
                g.episodes, g.episode, d.0, g.digest
            );
            return Err(SuiteFailure::new(&label, Check::Golden, m));
        }
    }
    Ok(report)
}

/// Runs [`check_game`] on every game of the registry ([`GAMES`]) under its
/// default rules, at every player count it supports.
pub fn check_registry(config: &SuiteConfig) -> Result<Vec<SuiteReport>, SuiteFailure> {
    struct Suite<'a>(&'a SuiteConfig);
    impl GameVisitor for Suite<'_> {
        type Output = Result<SuiteReport, SuiteFailure>;
        fn visit<G: Game>(self, game: G) -> Self::Output {
            check_game(&game, self.0)
        }
    }
    let mut reports = Vec::new();
    for entry in GAMES {
        for &players in entry.players {
            let game = AnyGame::new(entry.name, None, Some(players))
                .map_err(|e| SuiteFailure::new(entry.name, Check::Termination, e.to_string()))?;
            reports.push(game.visit(Suite(config))?);
        }
    }
    Ok(reports)
}
