//! The arena with batched players: A or B (or both) may be a [`BatchPlayer`],
//! a policy that decides many seats at once from their observation vectors and
//! legal masks (a Python callable over numpy arrays, a network on a GPU), next
//! to the agents of specs.
//!
//! **Lock step.** The deals are played as [`crate::arena`] plays them (the same
//! deal seeds, seatings, agents' random streams and sums), but many games at once:
//! up to [`WINDOW`] games are in play, each round every game is advanced by its
//! spec agents (split over the worker threads) until a batched player's seat is
//! to move or it ends, then each batched player is asked once for all of its
//! seats to move. A batched player does not draw from the agents' random
//! stream, so a batched policy that chooses as a spec agent does gives exactly
//! that agent's report (the tests check it with `highest`).
//!
//! **Results.** A deal's seatings are added in side order once all are done
//! ([`crate::arena`]'s `add_seating`), so a report or shard is the same to the
//! bit as the arena's whatever the order the games finished in, and shards
//! from here and from the arena merge. A batch's wall-clock time is shared out
//! evenly over its decisions.
//!
//! ```
//! use bones_agents::batched::{self, Batch, BatchPlayer, Entrant};
//! use bones_agents::{AgentFactory, AgentFailure, AgentSpec, Amount, EvalOptions};
//! use bones_env::{Texas42, Texas42Rules};
//!
//! /// Plays the lowest legal action of every row.
//! struct Lowest;
//! impl BatchPlayer for Lowest {
//!     fn decide(&mut self, batch: &Batch<'_>) -> Result<Vec<usize>, AgentFailure> {
//!         Ok((0..batch.rows).map(|r| batch.mask(r).iter().position(|&m| m).unwrap()).collect())
//!     }
//! }
//!
//! let opts = EvalOptions { amount: Amount::Hands(4), seed: 1, threads: 1 };
//! let entrants = [Entrant::Batched { name: "lowest".into(), policy: &mut Lowest }, Entrant::Spec(&AgentSpec::Random)];
//! let r = batched::evaluate(&Texas42::new(Texas42Rules::STANDARD), entrants, &AgentFactory::new(), &opts, &|_| {}).unwrap();
//! assert_eq!((r.hands, r.agents[0].as_str()), (4, "lowest"));
//! ```

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Instant;

use crate::agent::{Agent, AgentFailure, AgentRng, ViewOf};
use crate::arena::{self, ArenaError, DealResult, EvalOptions, EvalReport, Pooled, Seating, Shard};
use crate::factory::AgentFactory;
use crate::game::AgentGame;
use crate::spec::AgentSpec;
use bones_env::{Action, Episode, Game, GameState, SeatView};

/// Games in play at once: the most rows a batch can have.
pub const WINDOW: usize = 1024;

/// The seats a batched player is asked to decide for at once, row by row:
/// each row is one game's seat to move.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a> {
    /// Rows (seats to decide for).
    pub rows: usize,
    /// Floats per observation (the game's `obs_len`).
    pub obs_len: usize,
    /// Actions of the game (the mask's width).
    pub num_actions: usize,
    /// The seats' observation vectors, `rows × obs_len`, row after row (the
    /// game's current observation version, as `VecEnv` writes it).
    pub observations: &'a [f32],
    /// The seats' legal actions, `rows × num_actions`, row after row.
    pub masks: &'a [bool],
    /// The seat of each row.
    pub seats: &'a [usize],
}

impl Batch<'_> {
    /// Row `r`'s observation.
    pub fn observation(&self, r: usize) -> &[f32] {
        &self.observations[r * self.obs_len..(r + 1) * self.obs_len]
    }

    /// Row `r`'s legal mask.
    pub fn mask(&self, r: usize) -> &[bool] {
        &self.masks[r * self.num_actions..(r + 1) * self.num_actions]
    }
}

/// A player that decides many seats at once.
pub trait BatchPlayer {
    /// One action id per row of `batch`, each legal in its row; a failure
    /// when it cannot (it raised, or returned something else).
    fn decide(&mut self, batch: &Batch<'_>) -> Result<Vec<Action>, AgentFailure>;
}

/// One side of an evaluation: an agent spec, built once per worker thread, or a
/// batched player under a name (the report's name for it).
pub enum Entrant<'a> {
    /// The agent of a spec.
    Spec(&'a AgentSpec),
    /// A batched player.
    Batched {
        /// Its name in reports.
        name: String,
        /// The player.
        policy: &'a mut dyn BatchPlayer,
    },
}

impl Entrant<'_> {
    /// Its name in reports: the spec's canonical form, or the batched player's name.
    pub fn name(&self) -> String {
        match self {
            Entrant::Spec(s) => s.to_string(),
            Entrant::Batched { name, .. } => name.clone(),
        }
    }

    /// The same entrant, borrowed again (to play it in several evaluations).
    pub fn reborrow(&mut self) -> Entrant<'_> {
        match self {
            Entrant::Spec(s) => Entrant::Spec(s),
            Entrant::Batched { name, policy } => Entrant::Batched { name: name.clone(), policy: &mut **policy },
        }
    }
}

/// [`arena::evaluate`] where either side may be a batched player: the same
/// report (for a batched player that chooses as a spec agent, the same to the
/// bit except the timings).
pub fn evaluate<G: AgentGame>(
    game: &G,
    entrants: [Entrant<'_>; 2],
    factory: &AgentFactory,
    opts: &EvalOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<EvalReport, ArenaError> {
    if let [Entrant::Spec(a), Entrant::Spec(b)] = entrants {
        return arena::evaluate(game, [a, b], factory, opts, progress);
    }
    let names = entrants.each_ref().map(Entrant::name);
    let deals = arena::deal_count(opts.amount, game.num_sides())?;
    let pooled = play(game, &names, entrants, factory, opts, 0..deals, progress)?;
    arena::report_of(game, names, opts.amount, pooled)
}

/// [`arena::evaluate_shard`] where either side may be a batched player.
pub fn evaluate_shard<G: AgentGame>(
    game: &G,
    entrants: [Entrant<'_>; 2],
    factory: &AgentFactory,
    opts: &EvalOptions,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Shard, ArenaError> {
    if let [Entrant::Spec(a), Entrant::Spec(b)] = entrants {
        return arena::evaluate_shard(game, [a, b], factory, opts, range, progress);
    }
    let names = entrants.each_ref().map(Entrant::name);
    let start = range.start;
    let pooled = play(game, &names, entrants, factory, opts, range, progress)?;
    arena::shard_of(game, names, opts, start, pooled)
}

/// One game in play: seating `a_side` of deal `deal` (an offset in the range).
struct Slot<S> {
    deal: usize,
    a_side: usize,
    seed: u64,
    state: S,
    rng: AgentRng,
    actions: Vec<Action>,
    seating: Seating,
}

/// A worker thread's spec agents, A then B (`None` for a batched side).
type Crew<V> = [Option<Box<dyn Agent<V>>>; 2];

/// What the games share while they are played.
struct Rules<'a, G: Game> {
    game: &'a G,
    names: &'a [String; 2],
    episode: Episode,
}

impl<G: Game> Rules<'_, G> {
    /// Which entrant plays `seat` in a game with A on side `a_side` (0: A, 1: B).
    fn who(&self, a_side: usize, seat: usize) -> usize {
        usize::from(self.game.team_of(seat) != a_side)
    }

    /// Plays the game's spec agents until a batched side is to move or it ends.
    fn advance(&self, slot: &mut Slot<G::State>, crew: &mut Crew<ViewOf<G>>) -> Result<(), ArenaError> {
        while let Some(seat) = slot.state.current_seat() {
            let who = self.who(slot.a_side, seat);
            let Some(agent) = crew[who].as_mut() else { return Ok(()) };
            let view = slot.state.view(seat);
            let t0 = Instant::now();
            let a = crate::agent::act_contained(agent, &view, &mut slot.rng).map_err(|failure| ArenaError::Failed {
                agent: self.names[who].clone(),
                seat,
                failure: Box::new(failure),
                record: arena::record_so_far(self.game, slot.seed, self.episode, &slot.actions),
            })?;
            slot.seating.nanos[who] += t0.elapsed().as_nanos() as u64;
            slot.seating.decisions[who] += 1;
            self.apply(slot, who, a)?;
        }
        Ok(())
    }

    fn apply(&self, slot: &mut Slot<G::State>, who: usize, a: Action) -> Result<(), ArenaError> {
        let Slot { state, seating, actions, seed, .. } = slot;
        arena::apply_action(self.game, state, seating, actions, a, &self.names[who], (*seed, self.episode))
    }

    /// Advances every game of `live`, split over the crews' threads; the first
    /// failure in game order.
    fn advance_all(&self, live: &mut [Slot<G::State>], crews: &mut [Crew<ViewOf<G>>]) -> Result<(), ArenaError> {
        if crews.len() == 1 || live.len() < 2 {
            return live.iter_mut().try_for_each(|s| self.advance(s, &mut crews[0]));
        }
        let chunk = live.len().div_ceil(crews.len());
        std::thread::scope(|scope| {
            let handles: Vec<_> = live
                .chunks_mut(chunk)
                .zip(crews.iter_mut())
                .map(|(slots, crew)| scope.spawn(move || slots.iter_mut().try_for_each(|s| self.advance(s, crew))))
                .collect();
            handles.into_iter().try_for_each(|h| h.join().expect("an arena thread panicked"))
        })
    }

    /// Asks batched player `who` once for every game of `live` where it is to move.
    fn decide(&self, live: &mut [Slot<G::State>], who: usize, policy: &mut dyn BatchPlayer) -> Result<(), ArenaError> {
        let (ol, na) = (self.game.obs_len(), self.game.num_actions());
        let rows: Vec<usize> = (0..live.len())
            .filter(|&i| live[i].state.current_seat().is_some_and(|seat| self.who(live[i].a_side, seat) == who))
            .collect();
        if rows.is_empty() {
            return Ok(());
        }
        let mut observations = vec![0f32; rows.len() * ol];
        let mut masks = vec![false; rows.len() * na];
        let mut seats = Vec::with_capacity(rows.len());
        for (k, &i) in rows.iter().enumerate() {
            let seat = live[i].state.current_seat().expect("a seat to move");
            let view = live[i].state.view(seat);
            view.observe(&mut observations[k * ol..(k + 1) * ol]);
            for a in view.legal().iter() {
                masks[k * na + a] = true;
            }
            seats.push(seat);
        }
        let batch = Batch {
            rows: rows.len(),
            obs_len: ol,
            num_actions: na,
            observations: &observations,
            masks: &masks,
            seats: &seats,
        };
        let t0 = Instant::now();
        let actions = policy.decide(&batch).map_err(|failure| ArenaError::BatchFailed {
            agent: self.names[who].clone(),
            rows: rows.len(),
            failure: Box::new(failure),
        })?;
        let nanos = t0.elapsed().as_nanos() as u64 / rows.len() as u64;
        if actions.len() != rows.len() {
            return Err(ArenaError::BatchFailed {
                agent: self.names[who].clone(),
                rows: rows.len(),
                failure: Box::new(AgentFailure {
                    what: format!("returned {} actions for a batch of {} seats", actions.len(), rows.len()),
                    got: format!("{} actions", actions.len()),
                    expected: format!("one action id per row: {}", rows.len()),
                }),
            });
        }
        for (&i, a) in rows.iter().zip(actions) {
            let slot = &mut live[i];
            slot.seating.nanos[who] += nanos;
            slot.seating.decisions[who] += 1;
            self.apply(slot, who, a)?;
        }
        Ok(())
    }
}

/// Plays the deals `range` in lock step (see the module's doc).
fn play<G: AgentGame>(
    game: &G,
    names: &[String; 2],
    entrants: [Entrant<'_>; 2],
    factory: &AgentFactory,
    opts: &EvalOptions,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Pooled, ArenaError> {
    arena::check_range(game, opts, &range)?;
    let sides = game.num_sides();
    let rules = Rules { game, names, episode: arena::episode_of(opts.amount) };
    let mut policies: [Option<&mut dyn BatchPlayer>; 2] = [None, None];
    let mut specs: [Option<&AgentSpec>; 2] = [None, None];
    for (who, e) in entrants.into_iter().enumerate() {
        match e {
            Entrant::Spec(s) => specs[who] = Some(s),
            Entrant::Batched { policy, .. } => policies[who] = Some(policy),
        }
    }
    let threads = opts.threads.max(1);
    let mut crews: Vec<Crew<ViewOf<G>>> = Vec::with_capacity(threads);
    for _ in 0..threads {
        let mut crew: Crew<ViewOf<G>> = [None, None];
        for who in 0..2 {
            if let Some(s) = specs[who] {
                crew[who] = Some(factory.build(s, game)?);
            }
        }
        crews.push(crew);
    }

    let deals = (range.end - range.start) as usize;
    let mut results: Vec<Option<DealResult>> = vec![None; deals];
    // The seatings of the deals in play, by deal offset.
    let mut open: BTreeMap<usize, Vec<Option<Seating>>> = BTreeMap::new();
    let mut next = 0usize;
    let mut live: Vec<Slot<G::State>> = Vec::new();
    let failure = loop {
        while live.len() < WINDOW && next < deals * sides {
            let (deal, a_side) = (next / sides, next % sides);
            let seed = arena::deal_seed(opts.seed, range.start + deal as u64);
            live.push(Slot {
                deal,
                a_side,
                seed,
                state: game.new_state(seed, rules.episode),
                rng: arena::agent_rng(seed, a_side),
                actions: Vec::new(),
                seating: Seating::default(),
            });
            next += 1;
        }
        if live.is_empty() {
            break None;
        }
        if let Err(e) = rules.advance_all(&mut live, &mut crews) {
            break Some(e);
        }
        // Finished games leave; a deal whose seatings are all done is counted.
        let (finished, playing): (Vec<_>, Vec<_>) = live.drain(..).partition(|s| s.state.current_seat().is_none());
        live = playing;
        for slot in finished {
            let mut seating = slot.seating;
            seating.won = slot.state.winning_side() == Some(slot.a_side);
            let done = open.entry(slot.deal).or_insert_with(|| vec![None; sides]);
            done[slot.a_side] = Some(seating);
            if done.iter().all(Option::is_some) {
                let done = open.remove(&slot.deal).expect("an open deal");
                let mut g = DealResult::default();
                for (a_side, s) in done.iter().enumerate() {
                    arena::add_seating(&mut g, s.as_ref().expect("done"), a_side, sides, rules.episode);
                }
                progress(if g.games > 0 { g.games } else { g.hands });
                results[slot.deal] = Some(g);
            }
        }
        let mut failed = None;
        for (who, p) in policies.iter_mut().enumerate() {
            if let Some(p) = p {
                if let Err(e) = rules.decide(&mut live, who, &mut **p) {
                    failed = Some(e);
                    break;
                }
            }
        }
        if failed.is_some() {
            break failed;
        }
    };
    Ok(Pooled { results, failure })
}
