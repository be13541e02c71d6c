//! The history of finished games: a SQLite database (`bones web --db PATH`)
//! holding one row per finished game, with its record.
//!
//! [`History::open`] checks the file before the server starts: a file that is
//! not a SQLite database, fails SQLite's integrity check, was written by a
//! newer schema, or cannot be written is one clear error, and the server does
//! not start. Each game is stored in one transaction ([`History::store`]), so
//! a crash leaves the database as it was before the game or after it, never
//! half-written (SQLite's journal).

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The schema's version (`PRAGMA user_version`).
const SCHEMA_VERSION: i64 = 1;

/// The games table.
const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    finished    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    game        TEXT    NOT NULL,
    players     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    opponents   TEXT,
    partner     TEXT,
    agents      TEXT    NOT NULL,
    scores      TEXT    NOT NULL,
    winner      INTEGER,
    result      TEXT    NOT NULL,
    hints       INTEGER NOT NULL,
    points_lost INTEGER,
    record      TEXT    NOT NULL
)";

/// Why the history cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The file cannot be opened or created.
    #[error("cannot open the game history {path}: {error} (give another file with --db PATH, or --db none)")]
    Open {
        /// The file.
        path: PathBuf,
        /// SQLite's or the system's reason.
        error: String,
    },
    /// The file is not a usable database.
    #[error("the game history {path} is damaged: {detail} (move it away to start a new one, or give --db PATH)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What SQLite found.
        detail: String,
    },
    /// The file cannot be written.
    #[error("the game history {path} cannot be written: {error} (give another file with --db PATH, or --db none)")]
    ReadOnly {
        /// The file.
        path: PathBuf,
        /// SQLite's reason.
        error: String,
    },
    /// The file was written by a newer `bones`.
    #[error("the game history {path} has schema version {found}; this bones reads version {SCHEMA_VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
    },
    /// A query failed while the server ran.
    #[error("the game history failed: {0}")]
    Query(String),
}

/// A finished game as the history stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The game's name.
    pub game: String,
    /// Its player count.
    pub players: usize,
    /// The person's seat.
    pub seat: usize,
    /// The opponents' level or spec.
    pub opponents: Option<String>,
    /// The partner's level or spec (games with partners).
    pub partner: Option<String>,
    /// Each seat's bot spec (`null` at the person's).
    pub agents: Value,
    /// Final totals per side.
    pub scores: Value,
    /// The side that won the game, if one did.
    pub winner: Option<usize>,
    /// For the person: `won`, `lost` or `tied`.
    pub result: &'static str,
    /// Hints used.
    pub hints: usize,
    /// Points given up over the reviewed hands (`None`: no review).
    pub points_lost: Option<i64>,
    /// The game's record, with its annotations.
    pub record: Value,
}

/// The game history (one connection, used by one request at a time).
pub struct History {
    conn: Mutex<Connection>,
    path: PathBuf,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History").field("path", &self.path).finish_non_exhaustive()
    }
}

/// Where `bones web` keeps its history without `--db`: `bones/history.sqlite3`
/// under the user's data directory (`$XDG_DATA_HOME`, else
/// `~/.local/share`; `%APPDATA%` on Windows; `~/Library/Application Support`
/// on macOS). `None` when no such directory is known.
pub fn default_path() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = if cfg!(windows) {
        var("APPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library").join("Application Support"))
    } else {
        var("XDG_DATA_HOME").or_else(|| var("HOME").map(|h| h.join(".local").join("share")))
    };
    base.map(|b| b.join("bones").join("history.sqlite3"))
}

impl History {
    /// Opens (or creates, with its folder) the history at `path` and checks it
    /// (see the module docs).
    pub fn open(path: &Path) -> Result<History, HistoryError> {
        let open = |error: String| HistoryError::Open { path: path.to_path_buf(), error };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| open(format!("cannot create the folder {}: {e}", dir.display())))?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| open(e.to_string()))?;
        let corrupt = |detail: String| HistoryError::Corrupt { path: path.to_path_buf(), detail };
        // A file that is not a database fails here ("file is not a database").
        let check: String =
            conn.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(|e| corrupt(e.to_string()))?;
        if check != "ok" {
            return Err(corrupt(check));
        }
        let version: i64 =
            conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(|e| corrupt(e.to_string()))?;
        if version > SCHEMA_VERSION {
            return Err(HistoryError::Version { path: path.to_path_buf(), found: version });
        }
        let read_only = |e: rusqlite::Error| HistoryError::ReadOnly { path: path.to_path_buf(), error: e.to_string() };
        if conn.is_readonly(rusqlite::MAIN_DB).map_err(read_only)? {
            return Err(HistoryError::ReadOnly { path: path.to_path_buf(), error: "opened read-only".into() });
        }
        // The schema, in one write transaction: also proves the file writable.
        conn.execute_batch(&format!("BEGIN IMMEDIATE; {SCHEMA}; PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"))
            .map_err(|e| {
                let _ = conn.execute_batch("ROLLBACK");
                read_only(e)
            })?;
        if version == SCHEMA_VERSION {
            // A file of this schema must have the games table as written.
            conn.prepare("SELECT id, finished, game, players, seat, opponents, partner, agents, scores, winner, result, hints, points_lost, record FROM games LIMIT 0")
                .map_err(|e| corrupt(format!("its games table is not the one bones writes: {e}")))?;
        }
        Ok(History { conn: Mutex::new(conn), path: path.to_path_buf() })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // Only SQLite calls run under this lock, each in its own transaction:
        // a panic between them leaves the file whole (SQLite rolls an
        // unfinished transaction back), so a poisoned lock still holds a
        // usable connection.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a finished game in one transaction; its id.
    pub fn store(&self, g: &Finished) -> Result<i64, HistoryError> {
        let q = |e: rusqlite::Error| HistoryError::Query(e.to_string());
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(q)?;
        tx.execute(
            "INSERT INTO games (game, players, seat, opponents, partner, agents, scores, winner, result, hints, points_lost, record)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                g.game,
                g.players as i64,
                g.seat as i64,
                g.opponents,
                g.partner,
                g.agents.to_string(),
                g.scores.to_string(),
                g.winner.map(|w| w as i64),
                g.result,
                g.hints as i64,
                g.points_lost,
                g.record.to_string(),
            ],
        )
        .map_err(q)?;
        let id = tx.last_insert_rowid();
        tx.commit().map_err(q)?;
        Ok(id)
    }

    /// The stored games, newest first, at most `limit` (without their records).
    pub fn list(&self, limit: usize) -> Result<Vec<Value>, HistoryError> {
        let q = |e: rusqlite::Error| HistoryError::Query(e.to_string());
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT id, finished, game, players, seat, opponents, partner, agents, scores, winner, result, hints, points_lost
                 FROM games ORDER BY id DESC LIMIT ?1",
            )
            .map_err(q)?;
        let rows = stmt
            .query_map([limit as i64], |r| {
                let parse = |s: String| serde_json::from_str::<Value>(&s).unwrap_or(Value::Null);
                Ok(json!({
                    "id": r.get::<_, i64>(0)?,
                    "finished": r.get::<_, String>(1)?,
                    "game": r.get::<_, String>(2)?,
                    "players": r.get::<_, i64>(3)?,
                    "seat": r.get::<_, i64>(4)?,
                    "levels": {"opponents": r.get::<_, Option<String>>(5)?, "partner": r.get::<_, Option<String>>(6)?},
                    "agents": parse(r.get(7)?),
                    "scores": parse(r.get(8)?),
                    "winner": r.get::<_, Option<i64>>(9)?,
                    "result": r.get::<_, String>(10)?,
                    "hints": r.get::<_, i64>(11)?,
                    "points_lost": r.get::<_, Option<i64>>(12)?,
                }))
            })
            .map_err(q)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(q)
    }

    /// The record of game `id`, if it is stored.
    pub fn record(&self, id: i64) -> Result<Option<Value>, HistoryError> {
        let q = |e: rusqlite::Error| HistoryError::Query(e.to_string());
        let text: Option<String> = self
            .conn()
            .query_row("SELECT record FROM games WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .map_err(q)?;
        text.map(|t| serde_json::from_str(&t).map_err(|e| HistoryError::Query(format!("game {id}'s record: {e}"))))
            .transpose()
    }

    /// How many games are stored.
    pub fn count(&self) -> Result<usize, HistoryError> {
        let n: i64 = self
            .conn()
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
            .map_err(|e| HistoryError::Query(e.to_string()))?;
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bones-history-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("history.sqlite3")
    }

    fn game(n: usize) -> Finished {
        Finished {
            game: "texas42".into(),
            players: 4,
            seat: 0,
            opponents: Some("hard".into()),
            partner: Some("easy".into()),
            agents: json!([null, "heuristic", "heuristic", "heuristic"]),
            scores: json!([7, n]),
            winner: Some(0),
            result: "won",
            hints: n,
            points_lost: Some(3),
            record: json!({"game": "texas42", "seed": n, "actions": []}),
        }
    }

    #[test]
    fn stored_games_survive_a_reopen_newest_first_with_their_records() {
        let path = temp("reopen");
        let h = History::open(&path).unwrap();
        let a = h.store(&game(1)).unwrap();
        let b = h.store(&game(2)).unwrap();
        drop(h);
        let h = History::open(&path).unwrap();
        assert_eq!(h.count().unwrap(), 2);
        let list = h.list(10).unwrap();
        assert_eq!(list[0]["id"], json!(b));
        assert_eq!(list[1]["id"], json!(a));
        assert_eq!(list[0]["levels"], json!({"opponents": "hard", "partner": "easy"}));
        assert_eq!(list[0]["hints"], json!(2));
        assert!(list[0]["finished"].as_str().unwrap().ends_with('Z'));
        assert_eq!(h.record(a).unwrap(), Some(json!({"game": "texas42", "seed": 1, "actions": []})));
        assert_eq!(h.record(999).unwrap(), None);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_and_left_as_it_was() {
        let path = temp("garbage");
        let junk = b"this is not a database, it is a note about dominoes\n".repeat(200);
        std::fs::write(&path, &junk).unwrap();
        let e = History::open(&path).unwrap_err().to_string();
        assert!(e.contains("is damaged") && e.contains("not a database"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), junk);
    }

    #[test]
    fn a_truncated_database_is_refused() {
        let path = temp("truncated");
        let h = History::open(&path).unwrap();
        for n in 0..200 {
            h.store(&game(n)).unwrap();
        }
        drop(h);
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() > 8192, "{}", bytes.len());
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        let e = History::open(&path).unwrap_err().to_string();
        assert!(e.contains("is damaged"), "{e}");
    }

    #[test]
    fn a_place_that_cannot_be_written_is_refused() {
        let dir = temp("unwritable");
        // Its folder is a file: nothing can be created there (as root too).
        let blocker = dir.parent().unwrap().join("a-file");
        std::fs::write(&blocker, b"x").unwrap();
        let e = History::open(&blocker.join("history.sqlite3")).unwrap_err().to_string();
        assert!(e.contains("cannot open the game history") && e.contains("cannot create the folder"), "{e}");
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let path = temp("newer");
        drop(History::open(&path).unwrap());
        Connection::open(&path).unwrap().execute_batch("PRAGMA user_version = 9").unwrap();
        let e = History::open(&path).unwrap_err().to_string();
        assert!(e.contains("schema version 9"), "{e}");
    }
}
