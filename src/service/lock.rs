//! One herald at a time reads and sends for a database. Two `herald run` on one database, or
//! `herald tick` while the daemon runs, sent replies twice (issue 24: 454 of 500); now the
//! one that reads the inbox and sends holds an exclusive lock on `<database>.lock` (an
//! advisory file lock, which the system drops when the process ends, however it ends), and
//! a second is refused with a message that says who holds it.
//!
//! On a PostgreSQL database (issue 29) several daemons share the work: each incoming mail
//! is claimed in its handling transaction, each due game and each outgoing mail by a lease
//! (`crate::store::Leases`), so a second `herald run` is no danger there. Each daemon holds
//! the server's advisory lock *shared*, on a connection of its own (the server drops it
//! when that connection ends, however the process ends): a keeper's tool that needs the
//! database to itself can take it exclusively, and `pg_locks` lists the daemons at work.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Why the lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another herald holds it.
    #[error(
        "another herald ({holder}) is already reading and sending mail for the database {}; \
         `herald {command}` would send every reply a second time, so it does not start. \
         Stop the other one first (the daemon does every round of `tick` by itself)",
        database.display()
    )]
    Held {
        /// The database.
        database: PathBuf,
        /// What the lock file says of its holder (its pid and command).
        holder: String,
        /// The command refused.
        command: &'static str,
    },
    /// The lock file cannot be made or locked.
    #[error("the lock file {}: {source}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl LockError {
    /// Whether the holder is a `herald ingest`, which lets go in a moment: worth waiting for
    /// rather than refusing to start.
    pub fn held_briefly(&self) -> bool {
        matches!(self, LockError::Held { holder, .. } if holder.ends_with("herald ingest"))
    }
}

/// The lock, held until dropped (or the process ends).
#[derive(Debug)]
pub struct RunLock {
    /// The locked file, or the server connection holding the advisory lock.
    _held: Held,
}

/// What holds a [`RunLock`].
#[derive(Debug)]
enum Held {
    /// A locked file beside the SQLite database.
    File(#[allow(dead_code)] File),
    /// A connection to the PostgreSQL server holding the advisory lock.
    Server(#[allow(dead_code)] sqlx::PgConnection),
}

/// The key of the PostgreSQL advisory lock every daemon of a database holds shared ("herald
/// run" in ASCII, apart from the store's write lock).
const SERVER_LOCK: i64 = 0x6865_7261_6c64_7275;

/// The lock file of a database.
pub fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl RunLock {
    /// Takes the lock for `command` (run, tick, ingest) on the database `[storage]
    /// database` names, a file or a server, or says who has it.
    pub async fn take_any(database: &Path, command: &'static str) -> Result<RunLock, LockError> {
        match crate::store::backend::Location::parse(database) {
            // Named without its password in what the keeper reads.
            crate::store::backend::Location::Postgres(url) => {
                let shown = PathBuf::from(crate::config::database_shown(database));
                RunLock::take_server(&shown, &url, command).await
            }
            crate::store::backend::Location::Sqlite(file) => RunLock::take(&file, command),
        }
    }

    /// Takes the advisory lock on the PostgreSQL server at `url`, shared with every other
    /// daemon on it: refused only while something holds it exclusively.
    async fn take_server(
        database: &Path,
        url: &str,
        command: &'static str,
    ) -> Result<RunLock, LockError> {
        use sqlx::{ConnectOptions, Connection};
        use std::str::FromStr;
        let io = |source: sqlx::Error| LockError::Io {
            path: database.to_path_buf(),
            source: std::io::Error::other(source),
        };
        let me = format!("pid {}, herald {command}", std::process::id());
        let mut conn = sqlx::postgres::PgConnectOptions::from_str(url)
            .map_err(io)?
            .application_name(&me)
            .connect()
            .await
            .map_err(io)?;
        let got: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock_shared($1)")
            .bind(SERVER_LOCK)
            .fetch_one(&mut conn)
            .await
            .map_err(io)?;
        if got {
            return Ok(RunLock {
                _held: Held::Server(conn),
            });
        }
        // Who holds it: its connection's name says (bounded like the file's line).
        let holder: Option<String> = sqlx::query_scalar(
            "SELECT left(a.application_name, 200) FROM pg_locks l \
             JOIN pg_stat_activity a ON a.pid = l.pid \
             WHERE l.locktype = 'advisory' AND l.granted \
             AND l.classid = ($1 >> 32)::oid AND l.objid = ($1 & 4294967295)::oid LIMIT 1",
        )
        .bind(SERVER_LOCK)
        .fetch_optional(&mut conn)
        .await
        .map_err(io)?;
        let _ = conn.close().await;
        Err(LockError::Held {
            database: database.to_path_buf(),
            holder: holder
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "its pid unknown".into()),
            command,
        })
    }

    /// Takes the lock for `command` (run, tick, ingest) on an SQLite file, or says who has
    /// it.
    pub fn take(database: &Path, command: &'static str) -> Result<RunLock, LockError> {
        let path = lock_path(database);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                // Bounded: the holder writes one short line.
                let _ = (&file).take(200).read_to_string(&mut holder);
                let holder = holder.trim();
                return Err(LockError::Held {
                    database: database.to_path_buf(),
                    holder: if holder.is_empty() {
                        "its pid unknown".into()
                    } else {
                        holder.to_string()
                    },
                    command,
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.rewind().map_err(io)?;
        writeln!(file, "pid {}, herald {command}", std::process::id()).map_err(io)?;
        Ok(RunLock {
            _held: Held::File(file),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_taker_is_refused_and_told_who_holds_it_and_whether_to_wait() {
        let dir = std::env::temp_dir().join(format!("herald-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let db = dir.join("herald.db");
        for (holder, brief) in [("ingest", true), ("run", false), ("tick", false)] {
            let held = RunLock::take(&db, holder).ok();
            assert!(held.is_some(), "{holder} takes the free lock");
            let refused = RunLock::take(&db, "run").map(|_| ()).unwrap_err();
            let text = refused.to_string();
            assert!(
                text.contains(&format!("pid {}, herald {holder}", std::process::id()))
                    && text.contains("`herald run` would send every reply a second time"),
                "{text}"
            );
            assert_eq!(refused.held_briefly(), brief, "{holder}");
            drop(held);
            assert!(RunLock::take(&db, "tick").is_ok(), "let go when dropped");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
