//! The worker threads: duplicate deals handed out by index to threads, each
//! with its own pair of agents, the results kept in deal order.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::error::ArenaError;
use super::summary::DealResult;
use crate::agent::Agent;
use crate::spec::SpecError;

/// A thread's two agents, A then B.
pub(crate) type Pair<V> = [Box<dyn Agent<V>>; 2];

/// Plays one duplicate group with a thread's agents.
pub(crate) type PlayGroup<'a, V> = dyn Fn(u64, &mut Pair<V>) -> Result<DealResult, ArenaError> + Sync + 'a;

/// Builds agent A (`0`) or B (`1`) for one worker thread.
pub type MakeAgent<'a, V> = dyn Fn(usize) -> Result<Box<dyn Agent<V>>, SpecError> + Sync + 'a;

/// What was played of a range of deals: each deal's result in deal order
/// (`None` for the deals not finished), and the failure that stopped the play,
/// if one did.
pub(crate) struct Pooled {
    pub(crate) results: Vec<Option<DealResult>>,
    pub(crate) failure: Option<ArenaError>,
}

/// Runs the duplicate groups `range` over `threads` threads; `play(i, agents)`
/// plays group `i` with this thread's agents. Results come back in group order;
/// after a failure no new group is started and the finished ones are kept.
pub(crate) fn run_pool<V>(
    make: &MakeAgent<V>,
    range: Range<u64>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    play: &PlayGroup<V>,
) -> Result<Pooled, ArenaError> {
    let groups = range.end - range.start;
    // Build once here so that a bad spec fails before any thread starts.
    make(0)?;
    make(1)?;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<DealResult>>> = Mutex::new(vec![None; groups as usize]);
    let failure: Mutex<Option<ArenaError>> = Mutex::new(None);
    let threads = threads.clamp(1, groups.max(1) as usize);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut agents = match (make(0), make(1)) {
                    (Ok(a), Ok(b)) => [a, b],
                    (Err(e), _) | (_, Err(e)) => {
                        failure.lock().expect("lock").get_or_insert(e.into());
                        return;
                    }
                };
                loop {
                    if failure.lock().expect("lock").is_some() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                    if i >= groups {
                        return;
                    }
                    match play(range.start + i, &mut agents) {
                        Ok(g) => {
                            progress(if g.games > 0 { g.games } else { g.hands });
                            results.lock().expect("lock")[i as usize] = Some(g);
                        }
                        Err(e) => {
                            failure.lock().expect("lock").get_or_insert(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    Ok(Pooled { results: results.into_inner().expect("lock"), failure: failure.into_inner().expect("lock") })
}
