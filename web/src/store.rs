//! The open games of a server: at most `max` at once and `per_client` from
//! one address, each dropped once left idle for longer than the idle timeout
//! (swept on every access and by a periodic task), so a long-running server
//! does not grow without bound.
//!
//! A [`Game`] keeps its session under a lock, taken while a request works on
//! it (on the bots' pool), and beside it the state as of its last change, so
//! that reading the state never waits for bots that think. A session whose
//! lock was poisoned (something panicked while it was held) is never used
//! again: the request answers that the game failed, and the game is dropped.

use super::error::WebError;
use super::session::Session;
use rand::Rng;
use serde_json::Value;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One open game.
pub struct Game {
    session: Mutex<Box<dyn Session>>,
    state: Mutex<Arc<Value>>,
    /// The address that created it.
    pub owner: IpAddr,
}

impl Game {
    /// A game of `session`, created from `owner`.
    pub fn new(session: Box<dyn Session>, owner: IpAddr) -> Game {
        let state = Mutex::new(Arc::new(session.state()));
        Game { session: Mutex::new(session), state, owner }
    }

    /// The session, locked; an error when an earlier request panicked while
    /// holding it (the game is then not to be played on).
    pub fn lock(&self) -> Result<MutexGuard<'_, Box<dyn Session>>, WebError> {
        self.session.lock().map_err(|_| {
            WebError::BotFailed("an earlier request on this game failed while it played (see the server's log)".into())
        })
    }

    /// The state as of the game's last change (no waiting on the bots).
    pub fn state(&self) -> Arc<Value> {
        match self.state.lock() {
            Ok(s) => s.clone(),
            // Only `Arc` clones and stores happen under this lock: it cannot be
            // left half-written, so a poisoned one still holds a whole state.
            Err(e) => e.into_inner().clone(),
        }
    }

    /// Records the session's state now (call with the session locked, after a change).
    pub fn refresh(&self, session: &dyn Session) -> Arc<Value> {
        let now = Arc::new(session.state());
        match self.state.lock() {
            Ok(mut s) => *s = now.clone(),
            Err(e) => *e.into_inner() = now.clone(),
        }
        now
    }
}

/// One open game, shared by the requests that work on it.
pub type Slot = Arc<Game>;

struct Entry {
    slot: Slot,
    touched: Instant,
}

/// The open games by id.
pub struct Store {
    games: Mutex<HashMap<String, Entry>>,
    idle: Duration,
    max: usize,
    per_client: usize,
}

impl Store {
    /// A store dropping games idle for longer than `idle`, holding at most
    /// `max`, at most `per_client` of them from one address.
    pub fn new(idle: Duration, max: usize, per_client: usize) -> Store {
        Store { games: Mutex::new(HashMap::new()), idle, max, per_client }
    }

    /// The map, swept of idle games.
    fn games(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        // Only the map's own methods run under this lock (no game is played
        // under it), so it is never left half-changed: a poisoned lock still
        // holds a whole map.
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        games.retain(|_, e| now.duration_since(e.touched) <= self.idle);
        games
    }

    /// An error when no game can be added now for `client`.
    pub fn check_room(&self, client: IpAddr) -> Result<(), WebError> {
        Self::room(&self.games(), self.max, self.per_client, client)
    }

    fn room(games: &HashMap<String, Entry>, max: usize, per_client: usize, client: IpAddr) -> Result<(), WebError> {
        if games.len() >= max {
            return Err(WebError::Full(max));
        }
        if games.values().filter(|e| e.slot.owner == client).count() >= per_client {
            return Err(WebError::ClientFull(per_client));
        }
        Ok(())
    }

    /// Adds a game; its new id (16 random hex digits).
    pub fn insert(&self, game: Game) -> Result<String, WebError> {
        let mut games = self.games();
        Self::room(&games, self.max, self.per_client, game.owner)?;
        let mut rng = rand::rng();
        let id = loop {
            let id = format!("{:016x}", rng.random::<u64>());
            if !games.contains_key(&id) {
                break id;
            }
        };
        let slot = Arc::new(game);
        games.insert(id.clone(), Entry { slot, touched: Instant::now() });
        Ok(id)
    }

    /// The game `id` (its idle time starts again).
    pub fn get(&self, id: &str) -> Result<Slot, WebError> {
        let mut games = self.games();
        let entry = games.get_mut(id).ok_or_else(|| WebError::UnknownId(super::error::shown(id, 40)))?;
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
