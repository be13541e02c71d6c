//! The runner: A against B on the deals of an evaluation, whole
//! ([`evaluate`]) or a range of them ([`evaluate_shard`]), every deal once per
//! seating, over the worker threads.

use std::ops::Range;
use std::time::Instant;

use super::error::ArenaError;
use super::eval_report::EvalReport;
use super::options::{deal_count, episode_of, Amount, EvalOptions};
use super::pool::{run_pool, MakeAgent, Pair, Pooled};
use super::shard::Shard;
use super::summary::{add_seating, summarise, DealResult, Seating};
use crate::agent::{AgentFailure, AgentRng, ViewOf};
use crate::factory::AgentFactory;
use crate::game::AgentGame;
use crate::spec::AgentSpec;
use bones_env::seed::{deal_seed, seating_seed};
use bones_env::{Episode, Game, GameState};
use rand::SeedableRng;

/// The agents' random stream for one seating of a deal.
#[inline]
pub(crate) fn agent_rng(deal_seed: u64, seating: usize) -> AgentRng {
    AgentRng::seed_from_u64(seating_seed(deal_seed, seating))
}

/// Evaluates A (`specs[0]`) against B (`specs[1]`) on duplicate deals of `game`:
/// every deal is played once with A on each side (a team in Texas 42, a seat in
/// Doubles) and B on every other. `progress` is called with the number of
/// games (or hands) finished after each deal.
pub fn evaluate<G: AgentGame>(
    game: &G,
    specs: [&AgentSpec; 2],
    factory: &AgentFactory,
    opts: &EvalOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<EvalReport, ArenaError> {
    let make = |who: usize| factory.build(specs[who], game);
    evaluate_with(game, [specs[0].to_string(), specs[1].to_string()], &make, opts, progress)
}

/// [`evaluate`] with agents built by `make` (A is `make(0)`, B `make(1)`, once
/// per worker thread) and reported under `names`.
pub fn evaluate_with<G: AgentGame>(
    game: &G,
    names: [String; 2],
    make: &MakeAgent<ViewOf<G>>,
    opts: &EvalOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<EvalReport, ArenaError> {
    let deals = deal_count(opts.amount, game.num_sides())?;
    let pooled = play_deals(game, &names, make, opts, 0..deals, progress)?;
    report_of(game, names, opts.amount, pooled)
}

/// The report of the deals played, or the failure that stopped them (with the
/// report of those finished, if any).
pub(crate) fn report_of<G: AgentGame>(
    game: &G,
    names: [String; 2],
    amount: Amount,
    pooled: Pooled,
) -> Result<EvalReport, ArenaError> {
    let finished: Vec<DealResult> = pooled.results.into_iter().flatten().collect();
    let report = summarise(game.name(), names, game.num_players(), game.num_sides(), amount, &finished);
    match pooled.failure {
        None => Ok(report),
        Some(cause) if finished.is_empty() => Err(cause),
        Some(cause) => Err(ArenaError::Stopped { cause: Box::new(cause), finished: Box::new(report) }),
    }
}

/// Plays the deals `range` (indices into the evaluation's seeded sequence of
/// [`deal_count`] deals) of the evaluation of A (`specs[0]`) against B
/// (`specs[1]`) that [`evaluate`] would run with `opts`; `opts.threads` threads.
pub fn evaluate_shard<G: AgentGame>(
    game: &G,
    specs: [&AgentSpec; 2],
    factory: &AgentFactory,
    opts: &EvalOptions,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Shard, ArenaError> {
    let make = |who: usize| factory.build(specs[who], game);
    evaluate_shard_with(game, [specs[0].to_string(), specs[1].to_string()], &make, opts, range, progress)
}

/// [`evaluate_shard`] with agents built by `make` and reported under `names`.
pub fn evaluate_shard_with<G: AgentGame>(
    game: &G,
    names: [String; 2],
    make: &MakeAgent<ViewOf<G>>,
    opts: &EvalOptions,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Shard, ArenaError> {
    let start = range.start;
    let pooled = play_deals(game, &names, make, opts, range, progress)?;
    shard_of(game, names, opts, start, pooled)
}

/// The shard of the deals from `start` played, or the failure that stopped them.
pub(crate) fn shard_of<G: AgentGame>(
    game: &G,
    names: [String; 2],
    opts: &EvalOptions,
    start: u64,
    pooled: Pooled,
) -> Result<Shard, ArenaError> {
    if let Some(e) = pooled.failure {
        return Err(e);
    }
    Ok(Shard {
        game: game.name().to_string(),
        agents: names,
        players: game.num_players(),
        sides: game.num_sides(),
        amount: opts.amount,
        seed: opts.seed,
        start,
        deals: pooled.results.into_iter().map(|g| g.expect("every deal played when none failed")).collect(),
    })
}

/// The record of a game so far, dealt from `seed`, as one JSON line.
pub(crate) fn record_so_far<G: Game>(game: &G, seed: u64, episode: Episode, actions: &[bones_env::Action]) -> String {
    let names: Vec<&str> = actions.iter().map(|&a| game.action_name(a)).collect();
    let episode = if episode == Episode::Game { "game" } else { "hand" };
    serde_json::json!({"game": game.name(), "rules": game.rules_json(), "seed": seed, "episode": episode,
                       "actions": names})
    .to_string()
}

/// Plays the deals `range` of an evaluation (see [`evaluate_shard_with`]).
fn play_deals<G: AgentGame>(
    game: &G,
    names: &[String; 2],
    make: &MakeAgent<ViewOf<G>>,
    opts: &EvalOptions,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Pooled, ArenaError> {
    let sides = game.num_sides();
    check_range(game, opts, &range)?;
    let episode = episode_of(opts.amount);
    let play = |i: u64, agents: &mut Pair<ViewOf<G>>| -> Result<DealResult, ArenaError> {
        let seed = deal_seed(opts.seed, i);
        let mut g = DealResult::default();
        let mut actions = Vec::new();
        for a_side in 0..sides {
            let mut rng = agent_rng(seed, a_side);
            let mut st = game.new_state(seed, episode);
            let mut s = Seating::default();
            actions.clear();
            while let Some(seat) = st.current_seat() {
                let who = usize::from(game.team_of(seat) != a_side);
                let view = st.view(seat);
                let t0 = Instant::now();
                let a = crate::agent::act_contained(&mut agents[who], &view, &mut rng).map_err(|failure| {
                    ArenaError::Failed {
                        agent: names[who].clone(),
                        seat,
                        failure: Box::new(failure),
                        record: record_so_far(game, seed, episode, &actions),
                    }
                })?;
                s.nanos[who] += t0.elapsed().as_nanos() as u64;
                s.decisions[who] += 1;
                apply_action(game, &mut st, &mut s, &mut actions, a, &names[who], (seed, episode))?;
            }
            s.won = st.winning_side() == Some(a_side);
            add_seating(&mut g, &s, a_side, sides, episode);
        }
        Ok(g)
    };
    run_pool(make, range, opts.threads, progress, &play)
}

/// Checks that `range` is a range of the evaluation's deals.
pub(crate) fn check_range<G: Game>(game: &G, opts: &EvalOptions, range: &Range<u64>) -> Result<(), ArenaError> {
    let deals = deal_count(opts.amount, game.num_sides())?;
    if range.start > range.end || range.end > deals {
        return Err(ArenaError::Range { start: range.start, end: range.end, deals });
    }
    Ok(())
}

/// Plays action `a` of agent `agent` in the game dealt from `seed` (an
/// `episode`): it joins
/// the record, and a deal it finishes joins the seating's outcomes. An illegal
/// action is an error naming it and the legal ones (the state is unchanged).
pub(crate) fn apply_action<G: Game>(
    game: &G,
    st: &mut G::State,
    s: &mut Seating,
    actions: &mut Vec<bones_env::Action>,
    a: bones_env::Action,
    agent: &str,
    (seed, episode): (u64, Episode),
) -> Result<(), ArenaError> {
    let seat = st.current_seat().unwrap_or(0);
    if a >= game.num_actions() {
        return Err(ArenaError::Failed {
            agent: agent.to_string(),
            seat,
            failure: Box::new(AgentFailure {
                what: format!("chose action id {a}, which is not an action of {}", game.name()),
                got: a.to_string(),
                expected: format!("an action id below {} that is legal here", game.num_actions()),
            }),
            record: record_so_far(game, seed, episode, actions),
        });
    }
    st.apply(a).map_err(|e| ArenaError::Illegal {
        agent: agent.to_string(),
        seat,
        action: game.action_name(a).to_string(),
        legal: e.legal.iter().map(|l| game.action_name(l).to_string()).collect(),
        deal_seed: seed,
    })?;
    actions.push(a);
    if let Some(d) = st.finished_deal() {
        s.outcomes.push(d);
    }
    Ok(())
}
