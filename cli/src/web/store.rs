//! The open games of a server: at most `max` at once, each dropped once left
//! idle for longer than the idle timeout (swept on every access and by a
//! periodic task), so a long-running server does not grow without bound.

use super::error::WebError;
use super::session::Session;
use rand::Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One open game, locked while a request works on it (on a blocking thread).
pub type Slot = Arc<Mutex<Box<dyn Session>>>;

struct Entry {
    slot: Slot,
    touched: Instant,
}

/// The open games by id.
pub struct Store {
    games: Mutex<HashMap<String, Entry>>,
    idle: Duration,
    max: usize,
}

impl Store {
    /// A store dropping games idle for longer than `idle`, holding at most `max`.
    pub fn new(idle: Duration, max: usize) -> Store {
        Store { games: Mutex::new(HashMap::new()), idle, max }
    }

    /// The map, swept of idle games.
    fn games(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        games.retain(|_, e| now.duration_since(e.touched) <= self.idle);
        games
    }

    /// An error when no game can be added now.
    pub fn check_room(&self) -> Result<(), WebError> {
        if self.games().len() >= self.max {
            return Err(WebError::Full(self.max));
        }
        Ok(())
    }

    /// Adds a game; its new id (16 random hex digits).
    pub fn insert(&self, session: Box<dyn Session>) -> Result<String, WebError> {
        let mut games = self.games();
        if games.len() >= self.max {
            return Err(WebError::Full(self.max));
        }
        let mut rng = rand::rng();
        let id = loop {
            let id = format!("{:016x}", rng.random::<u64>());
            if !games.contains_key(&id) {
                break id;
            }
        };
        let slot = Arc::new(Mutex::new(session));
        games.insert(id.clone(), Entry { slot, touched: Instant::now() });
        Ok(id)
    }

    /// The game `id` (its idle time starts again).
    pub fn get(&self, id: &str) -> Result<Slot, WebError> {
        let mut games = self.games();
        let entry = games.get_mut(id).ok_or_else(|| WebError::UnknownId(shown(id)))?;
        entry.touched = Instant::now();
        Ok(entry.slot.clone())
    }

    /// Drops the game `id`; whether it was open.
    pub fn remove(&self, id: &str) -> bool {
        self.games().remove(id).is_some()
    }

    /// Drops the idle games; the number left open.
    pub fn sweep(&self) -> usize {
        self.games().len()
    }

    /// The idle timeout.
    pub fn idle(&self) -> Duration {
        self.idle
    }
}

/// An id as it may be echoed: printable and short.
fn shown(id: &str) -> String {
    let mut s: String = id.chars().take(40).map(|c| if c.is_control() { '?' } else { c }).collect();
    if id.chars().count() > 40 {
        s.push('…');
    }
    s
}
