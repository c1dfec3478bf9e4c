//! The two databases herald keeps its store in (issue 29): an SQLite file on the judge's own
//! machine (the default), or a PostgreSQL server that several daemons share.
//!
//! The store holds a pool of one kind or the other, and each statement is written once and
//! expanded for both by [`on!`]: sqlx's native driver on each side (no `Any` driver, whose
//! rows are copied value by value, and whose placeholders neither backend shares), so the
//! SQLite path is what it was. Fixed statements number their parameters `$1, $2, ...`,
//! which sqlx's SQLite driver reads as PostgreSQL does; a `QueryBuilder` writes each
//! backend's own placeholders.
//!
//! A writing transaction on PostgreSQL takes one advisory lock for its whole length, the
//! single writer SQLite's `BEGIN IMMEDIATE` gives: daemons sharing the database never
//! interleave their writes, so whatever one daemon reads and checks in a transaction stays
//! true until it commits, as on SQLite.

use std::path::Path;
use std::str::FromStr;

use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Connection, PgPool, Postgres, Sqlite, SqlitePool};

use super::{db, StoreError};

/// The key of the advisory lock every writing transaction on PostgreSQL holds ("herald"
/// in ASCII).
pub const WRITE_LOCK: i64 = 0x6865_7261_6c64;

/// Where the store is, as `[storage] database` gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An SQLite file (a path, or a `sqlite:` URL naming one).
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL server (`postgres://` or `postgresql://`).
    Postgres(String),
}

impl Location {
    /// Reads `[storage] database`: a `postgres://` (or `postgresql://`) URL names a server,
    /// a `sqlite:` URL or anything else an SQLite file.
    pub fn parse(database: &Path) -> Location {
        let text = database.to_string_lossy();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Location::Postgres(text.into_owned());
        }
        let file = text
            .strip_prefix("sqlite://")
            .or_else(|| text.strip_prefix("sqlite:"))
            .map(|rest| rest.split('?').next().unwrap_or(rest));
        match file {
            Some(path) => Location::Sqlite(path.into()),
            None => Location::Sqlite(database.to_path_buf()),
        }
    }

    /// Whether `database` names a server rather than a file (a URL the configuration
    /// must not read as a path relative to its own directory).
    pub fn is_url(database: &Path) -> bool {
        let text = database.to_string_lossy();
        text.starts_with("postgres://")
            || text.starts_with("postgresql://")
            || text.starts_with("sqlite:")
    }
}

/// A pool of connections to one database.
#[derive(Clone, Debug)]
pub enum Pool {
    /// An SQLite file.
    Sqlite(SqlitePool),
    /// A PostgreSQL server.
    Pg(PgPool),
}

/// A connection from a [`Pool`].
pub enum Conn {
    /// To an SQLite file.
    Sqlite(PoolConnection<Sqlite>),
    /// To a PostgreSQL server.
    Pg(PoolConnection<Postgres>),
}

/// Runs `$body` on a [`Conn`] whatever its backend: `$c` is the pooled connection (use
/// `&mut **$c` as the executor) and `$db` names the backend (`QueryBuilder::<$db>`).
macro_rules! on {
    ($conn:expr, |$c:ident, $db:ident| $body:expr) => {
        match $conn {
            $crate::store::backend::Conn::Sqlite($c) => {
                #[allow(dead_code)]
                type $db = sqlx::Sqlite;
                $body
            }
            $crate::store::backend::Conn::Pg($c) => {
                #[allow(dead_code)]
                type $db = sqlx::Postgres;
                $body
            }
        }
    };
}
pub(crate) use on;

impl Conn {
    /// Closes the connection when it is dropped instead of returning it to the pool.
    pub fn close_on_drop(&mut self) {
        match self {
            Conn::Sqlite(c) => c.close_on_drop(),
            Conn::Pg(c) => c.close_on_drop(),
        }
    }
}

impl Pool {
    /// Opens an SQLite file (creating it and its directory).
    pub async fn sqlite(path: &Path) -> Result<Pool, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Dir {
                path: dir.display().to_string(),
                source,
            })?;
        }
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))
            .map_err(db("reading the database path"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(std::time::Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            // A local file needs no liveness ping before each use; it would cost a round
            // trip to the connection's thread per transaction. A connection on which a
            // statement failed is closed instead (see `Store::conn` and `Tx`).
            .test_before_acquire(false)
            // sqlx's own transactions (the migrator's) must have ended on a connection that
            // goes back to the pool; one left open is closed, which rolls it back.
            .after_release(|conn, _| Box::pin(async move { Ok(!conn.is_in_transaction()) }))
            .connect_with(options)
            .await
            .map_err(db("opening the database"))?;
        Ok(Pool::Sqlite(pool))
    }

    /// Connects to a PostgreSQL server.
    pub async fn postgres(url: &str) -> Result<Pool, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(db("reading the database URL"))?
            .application_name("herald")
            // The server's notices ("relation ... already exists, skipping" at every start)
            // are not the keeper's business; its warnings are.
            .options([("client_min_messages", "warning")]);
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(std::time::Duration::from_secs(30))
            .after_release(|conn, _| Box::pin(async move { Ok(!conn.is_in_transaction()) }))
            .connect_with(options)
            .await
            .map_err(db("connecting to the database server"))?;
        Ok(Pool::Pg(pool))
    }

    /// A connection.
    pub async fn acquire(&self) -> Result<Conn, StoreError> {
        match self {
            Pool::Sqlite(p) => p.acquire().await.map(Conn::Sqlite),
            Pool::Pg(p) => p.acquire().await.map(Conn::Pg),
        }
        .map_err(db("connecting to the database"))
    }

    /// Closes every connection (the pool's users are done).
    pub async fn close(&self) {
        match self {
            Pool::Sqlite(p) => p.close().await,
            Pool::Pg(p) => p.close().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_or_a_path_names_its_backend() {
        assert_eq!(
            Location::parse(Path::new("var/herald.db")),
            Location::Sqlite("var/herald.db".into())
        );
        assert_eq!(
            Location::parse(Path::new("sqlite:///srv/h.db")),
            Location::Sqlite("/srv/h.db".into())
        );
        assert_eq!(
            Location::parse(Path::new("sqlite:h.db?mode=rwc")),
            Location::Sqlite("h.db".into())
        );
        assert_eq!(
            Location::parse(Path::new("postgres://u:p@db/herald")),
            Location::Postgres("postgres://u:p@db/herald".into())
        );
        assert!(Location::is_url(Path::new("postgresql://db/h")));
        assert!(!Location::is_url(Path::new("/srv/postgres://x")));
    }
}
