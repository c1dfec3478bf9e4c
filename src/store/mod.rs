//! SQLite through sqlx. The schema lives in `migrations/` and is applied at start. Each
//! incoming mail is handled in one [`Tx`]: the mail's identity, every state change and every
//! outgoing mail are written together, and nothing is sent before the commit.
//!
//! A connection on which anything failed is closed, never handed out again: a database that
//! could not be written for a while (a full disk, a read-only remount, an I/O error) leaves
//! connections opened read-only, or in a transaction SQLite ended by itself, and the next
//! connection opened once the fault is gone works again. [`Tx`] begins and commits its
//! transaction itself rather than through sqlx's `Transaction`: sqlx counts the transactions
//! it opened, and when SQLite rolls one back on its own (as it does when a commit fails with
//! an I/O error) the count stays one too high, so that sqlx's next "transaction" on that
//! connection is only a savepoint, whose "commit" commits nothing and leaves the write lock
//! held.

mod bounces;
mod consent;
mod mailed;
mod migrate;
mod prune;

pub use mailed::Mailed;
pub use prune::{OutboxRow, PRUNE_BATCH};

use std::path::Path;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use sqlx::pool::PoolConnection;
use sqlx::{Connection, QueryBuilder, Row, Sqlite, SqlitePool};

use crate::envelope::{Attachment, MailKind, Outgoing};

/// A store error, with what was being done.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed.
    #[error("{what}: {source}")]
    Db {
        /// What herald was doing.
        what: &'static str,
        /// The database's error.
        source: sqlx::Error,
    },
    /// A stored game could not be read back.
    #[error("game '{name}' is stored in a form this herald cannot read: {source}")]
    Decode {
        /// The game.
        name: String,
        /// Why.
        source: serde_json::Error,
    },
    /// The schema could not be brought up to date.
    #[error("applying the migrations: {source}")]
    Migrate {
        /// The migrator's error.
        source: sqlx::migrate::MigrateError,
    },
    /// The database file's directory could not be made.
    #[error("creating {path}: {source}")]
    Dir {
        /// The directory.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

fn db(what: &'static str) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |source| StoreError::Db { what, source }
}

/// A statement's result on a pooled connection.
trait OrClose<T> {
    /// The result, or on a failure the error with what was being done, the connection
    /// closed instead of going back to the pool. The failure may have been the connection's
    /// own: one opened while the database file could not be written stays read-only, and
    /// one whose statement SQLite cut short may be left in a state herald did not ask for.
    fn or_close(
        self,
        conn: &mut PoolConnection<Sqlite>,
        what: &'static str,
    ) -> Result<T, StoreError>;
}

impl<T> OrClose<T> for Result<T, sqlx::Error> {
    fn or_close(
        self,
        conn: &mut PoolConnection<Sqlite>,
        what: &'static str,
    ) -> Result<T, StoreError> {
        self.map_err(|source| {
            conn.close_on_drop();
            StoreError::Db { what, source }
        })
    }
}

/// Lower-case hex, for digests.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored state (JSON, as written) of games, by name: see [`Tx::game_states`].
pub type StoredStates = HashMap<String, String>;

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
}

/// One transaction: everything a mail or a deadline changes, committed at once. A `Tx`
/// dropped before it committed (a statement failed, the commit failed, or the daemon stopped
/// half way) closes its connection, which rolls the transaction back: a connection is only
/// ever returned to the pool outside a transaction.
pub struct Tx {
    /// The connection, in a transaction begun with `BEGIN` (see the module's notes).
    conn: PoolConnection<Sqlite>,
    /// Whether the transaction ended (committed or rolled back), so the connection may go
    /// back to the pool.
    ended: bool,
    /// The digests of the attachment files this transaction has written to `blobs`, so a
    /// picture queued for every player is written once (the transaction uses no savepoints,
    /// so what is written here stays written until the whole transaction ends).
    blobs: HashSet<String>,
}

/// A game as stored: its name, status and JSON state.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game's name.
    pub name: String,
    /// Its status word (forming, running, paused, finished).
    pub status: String,
    /// Its state.
    pub state: String,
}

impl Store {
    /// Opens (creating) the database file and applies the migrations.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
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
        migrate::apply(&pool).await?;
        Ok(Store { pool })
    }

    /// Starts a transaction that writes: it takes the database's write lock at once
    /// (`BEGIN IMMEDIATE`, waiting up to the busy timeout for another writer), so that it
    /// can never fail half way because another connection wrote first.
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        self.start("BEGIN IMMEDIATE").await
    }

    /// Starts a transaction that only reads (a consistent view of the database; it takes
    /// no lock until it writes). End it with [`Tx::rollback`].
    pub async fn begin_read(&self) -> Result<Tx, StoreError> {
        self.start("BEGIN").await
    }

    async fn start(&self, begin: &'static str) -> Result<Tx, StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query(begin)
            .execute(&mut *conn)
            .await
            .or_close(&mut conn, "starting a transaction")?;
        Ok(Tx {
            conn,
            ended: false,
            blobs: HashSet::new(),
        })
    }

    /// A connection from the pool, for a few statements or a transaction. What a
    /// statement on it returns goes through [`OrClose::or_close`], so that a connection on
    /// which a statement failed is closed rather than used again.
    async fn conn(&self) -> Result<PoolConnection<Sqlite>, StoreError> {
        self.pool
            .acquire()
            .await
            .map_err(db("connecting to the database"))
    }

    /// The names of games that need attention at or before `now`.
    pub async fn due_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let mut conn = self.conn().await?;
        let rows =
            sqlx::query("SELECT name FROM games WHERE due IS NOT NULL AND due <= ? ORDER BY due")
                .bind(now)
                .fetch_all(&mut *conn)
                .await
                .or_close(&mut conn, "finding due games")?;
        Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
    }

    /// Every game, for the keeper's listing.
    pub async fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        let mut conn = self.conn().await?;
        let rows = sqlx::query("SELECT name, status, state FROM games ORDER BY name")
            .fetch_all(&mut *conn)
            .await
            .or_close(&mut conn, "listing games")?;
        Ok(rows
            .iter()
            .map(|r| GameRow {
                name: r.get(0),
                status: r.get(1),
                state: r.get(2),
            })
            .collect())
    }

    /// Mails not yet sent and due for a try at `now`, oldest first, with their attachments
    /// (read for the whole batch at once; a file carried by several mails is read once and
    /// shared).
    pub async fn unsent(&self, now: i64, limit: i64) -> Result<Vec<(i64, Outgoing)>, StoreError> {
        let mut conn = self.conn().await?;
        let rows = sqlx::query(
            "SELECT id, recipient, subject, body, in_reply_to FROM outbox \
             WHERE sent IS NULL AND failed IS NULL AND (next_attempt IS NULL OR next_attempt <= ?) ORDER BY id LIMIT ?",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&mut *conn)
        .await
        .or_close(&mut conn, "reading the outbox")?;
        let mut mails: Vec<(i64, Outgoing)> = rows
            .iter()
            .map(|r| {
                (
                    r.get(0),
                    Outgoing {
                        to: r.get(1),
                        subject: r.get(2),
                        body: r.get(3),
                        in_reply_to: r.get(4),
                        attachments: Vec::new(),
                    },
                )
            })
            .collect();
        let ids: Vec<i64> = mails.iter().map(|(id, _)| *id).collect();
        let mut files = Store::attachments_of(&mut conn, &ids).await?;
        for (id, mail) in &mut mails {
            if let Some(list) = files.remove(id) {
                mail.attachments = list;
            }
        }
        Ok(mails)
    }

    /// The attachments of these outbox rows, each row's in order.
    async fn attachments_of(
        conn: &mut PoolConnection<Sqlite>,
        ids: &[i64],
    ) -> Result<HashMap<i64, Vec<Attachment>>, StoreError> {
        let mut links = Vec::new();
        for chunk in ids.chunks(500) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "SELECT outbox_id, name, content_type, hash, inline FROM outbox_attachments WHERE outbox_id IN (",
            );
            let mut list = q.separated(", ");
            for id in chunk {
                list.push_bind(id);
            }
            q.push(") ORDER BY outbox_id, position");
            let rows = q
                .build()
                .fetch_all(&mut **conn)
                .await
                .or_close(conn, "reading attachments")?;
            links.extend(rows.iter().map(|r| {
                (
                    r.get::<i64, _>(0),
                    r.get::<String, _>(1),
                    r.get::<String, _>(2),
                    r.get::<String, _>(3),
                    r.get::<Option<String>, _>(4),
                )
            }));
        }
        let mut hashes: Vec<&str> = links.iter().map(|l| l.3.as_str()).collect();
        hashes.sort_unstable();
        hashes.dedup();
        let mut blobs: HashMap<String, Arc<[u8]>> = HashMap::new();
        for chunk in hashes.chunks(500) {
            let mut q =
                QueryBuilder::<Sqlite>::new("SELECT hash, bytes FROM blobs WHERE hash IN (");
            let mut list = q.separated(", ");
            for h in chunk {
                list.push_bind(*h);
            }
            q.push(")");
            let rows = q
                .build()
                .fetch_all(&mut **conn)
                .await
                .or_close(conn, "reading attachment files")?;
            blobs.extend(
                rows.iter()
                    .map(|r| (r.get::<String, _>(0), Arc::from(r.get::<&[u8], _>(1)))),
            );
        }
        let mut out: HashMap<i64, Vec<Attachment>> = HashMap::new();
        for (id, name, content_type, hash, inline) in links {
            // The foreign key keeps every file a link names; were one gone, the mail still
            // goes, without it, rather than holding up the outbox.
            let Some(bytes) = blobs.get(&hash) else {
                tracing::error!(
                    id,
                    name,
                    hash,
                    "an attachment's file is missing; sent without it"
                );
                continue;
            };
            out.entry(id).or_default().push(Attachment {
                name,
                content_type,
                bytes: Arc::clone(bytes),
                inline,
            });
        }
        Ok(out)
    }

    /// Records a delivery attempt before it is made; the next try waits until `next`.
    pub async fn record_attempt(&self, id: i64, next: i64) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query_scalar("UPDATE outbox SET attempts = attempts + 1, next_attempt = ? WHERE id = ? RETURNING attempts")
            .bind(next)
            .bind(id)
            .fetch_one(&mut *conn)
            .await
            .or_close(&mut conn, "recording a delivery attempt")
    }

    /// How many attempts a queued mail has had.
    pub async fn attempts(&self, id: i64) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query_scalar("SELECT attempts FROM outbox WHERE id = ?")
            .bind(id)
            .fetch_one(&mut *conn)
            .await
            .or_close(&mut conn, "reading delivery attempts")
    }

    /// Marks a queued mail refused for good, with the server's answer.
    pub async fn mark_failed(&self, id: i64, reason: &str) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query("UPDATE outbox SET failed = ? WHERE id = ?")
            .bind(reason)
            .bind(id)
            .execute(&mut *conn)
            .await
            .or_close(&mut conn, "marking a mail failed")?;
        Ok(())
    }

    /// Marks an outbox mail sent.
    pub async fn mark_sent(&self, id: i64, now: i64) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query("UPDATE outbox SET sent = ? WHERE id = ?")
            .bind(now)
            .bind(id)
            .execute(&mut *conn)
            .await
            .or_close(&mut conn, "marking a mail sent")?;
        Ok(())
    }

    /// A value from the meta table.
    pub async fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query_scalar("SELECT value FROM meta WHERE key = ?")
            .bind(key)
            .fetch_optional(&mut *conn)
            .await
            .or_close(&mut conn, "reading meta")
    }

    /// Sets a value in the meta table.
    pub async fn set_meta(&self, key: &str, value: &str) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .bind(key)
            .bind(value)
            .execute(&mut *conn)
            .await
            .or_close(&mut conn, "writing meta")?;
        Ok(())
    }

    /// The addresses whose mail bounced.
    pub async fn bounced(&self) -> Result<Vec<String>, StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query_scalar("SELECT DISTINCT address FROM bounces ORDER BY address")
            .fetch_all(&mut *conn)
            .await
            .or_close(&mut conn, "reading bounces")
    }

    /// How many mails were ever queued (for tests and the keeper).
    pub async fn outbox_count(&self) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox")
            .fetch_one(&mut *conn)
            .await
            .or_close(&mut conn, "counting the outbox")
    }
}

impl Tx {
    /// Every game.
    pub async fn all_games<T: DeserializeOwned>(&mut self) -> Result<Vec<T>, StoreError> {
        let rows = sqlx::query("SELECT name, state FROM games ORDER BY name")
            .fetch_all(&mut *self.conn)
            .await
            .map_err(db("loading games"))?;
        rows.iter()
            .map(|r| {
                serde_json::from_str(r.get::<&str, _>(1)).map_err(|source| StoreError::Decode {
                    name: r.get(0),
                    source,
                })
            })
            .collect()
    }

    /// Writes a game (inserting or replacing), with when it next needs attention.
    pub async fn save_game<T: Serialize>(
        &mut self,
        name: &str,
        status: &str,
        state: &T,
        due: Option<i64>,
        now: i64,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_string(state).map_err(|source| StoreError::Decode {
            name: name.to_string(),
            source,
        })?;
        sqlx::query(
            "INSERT INTO games (name, state, status, due, updated) VALUES (?, ?, ?, ?, ?) \
             ON CONFLICT(name) DO UPDATE SET state = excluded.state, status = excluded.status, due = excluded.due, updated = excluded.updated",
        )
        .bind(name)
        .bind(json)
        .bind(status)
        .bind(due)
        .bind(now)
        .execute(&mut *self.conn)
        .await
        .map_err(db("saving a game"))?;
        Ok(())
    }

    /// Queues a mail to send once this transaction commits.
    pub async fn queue(&mut self, mail: &Outgoing, now: i64) -> Result<(), StoreError> {
        self.queue_many(std::slice::from_ref(mail), now).await
    }

    /// Logs an action (every Master action, among others).
    pub async fn log(
        &mut self,
        game: Option<&str>,
        actor: &str,
        action: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO actions (at, game, actor, action) VALUES (?, ?, ?, ?)")
            .bind(now)
            .bind(game)
            .bind(actor)
            .bind(action)
            .execute(&mut *self.conn)
            .await
            .map_err(db("logging an action"))?;
        Ok(())
    }

    /// Which of these mail identities were handled before, each with the body hash and
    /// sender it was recorded with.
    pub async fn seen_among(
        &mut self,
        ids: &[String],
    ) -> Result<HashMap<String, (String, String)>, StoreError> {
        let mut seen = HashMap::new();
        for chunk in ids.chunks(500) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "SELECT message_id, body_hash, sender FROM mails WHERE message_id IN (",
            );
            let mut list = q.separated(", ");
            for id in chunk {
                list.push_bind(id);
            }
            q.push(")");
            let rows = q
                .build()
                .fetch_all(&mut *self.conn)
                .await
                .map_err(db("checking Message-IDs"))?;
            seen.extend(rows.iter().map(|r| {
                (
                    r.get::<String, _>(0),
                    (r.get::<String, _>(1), r.get::<String, _>(2)),
                )
            }));
        }
        Ok(seen)
    }

    /// The games with these names (those that exist).
    pub async fn games_named<T: DeserializeOwned>(
        &mut self,
        names: &[String],
    ) -> Result<Vec<T>, StoreError> {
        self.states(names)
            .await?
            .into_iter()
            .map(|(name, state)| {
                serde_json::from_str(&state).map_err(|source| StoreError::Decode { name, source })
            })
            .collect()
    }

    /// The stored state of each of these games that exists, as written (JSON), by name: to
    /// judge games outside a transaction and check, in the one that writes them, that no
    /// one changed them meanwhile.
    pub async fn game_states(&mut self, names: &[String]) -> Result<StoredStates, StoreError> {
        Ok(self.states(names).await?.into_iter().collect())
    }

    /// (name, state) of each of these games that exists.
    async fn states(&mut self, names: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        let mut out = Vec::new();
        for chunk in names.chunks(500) {
            let mut q =
                QueryBuilder::<Sqlite>::new("SELECT name, state FROM games WHERE name IN (");
            let mut list = q.separated(", ");
            for n in chunk {
                list.push_bind(n);
            }
            q.push(")");
            let rows = q
                .build()
                .fetch_all(&mut *self.conn)
                .await
                .map_err(db("loading games"))?;
            out.extend(
                rows.iter()
                    .map(|r| (r.get::<String, _>(0), r.get::<String, _>(1))),
            );
        }
        Ok(out)
    }

    /// Writes several games at once: (name, status, state, due).
    pub async fn save_games<T: Serialize>(
        &mut self,
        games: &[(&str, &str, &T, Option<i64>)],
        now: i64,
    ) -> Result<(), StoreError> {
        for chunk in games.chunks(200) {
            let mut rows = Vec::with_capacity(chunk.len());
            for (name, status, state, due) in chunk {
                let json = serde_json::to_string(state).map_err(|source| StoreError::Decode {
                    name: name.to_string(),
                    source,
                })?;
                rows.push((name, status, json, due));
            }
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO games (name, state, status, due, updated) ",
            );
            q.push_values(rows, |mut b, (name, status, json, due)| {
                b.push_bind(*name)
                    .push_bind(json)
                    .push_bind(*status)
                    .push_bind(*due)
                    .push_bind(now);
            });
            q.push(" ON CONFLICT(name) DO UPDATE SET state = excluded.state, status = excluded.status, due = excluded.due, updated = excluded.updated");
            q.build()
                .execute(&mut *self.conn)
                .await
                .map_err(db("saving games"))?;
        }
        Ok(())
    }

    /// Queues several mails at once. Their attachments' files are written once each, by
    /// digest (a file shared by many mails, or already stored, is not written again), and
    /// each mail's list of attachments names them.
    pub async fn queue_many(&mut self, mails: &[Outgoing], now: i64) -> Result<(), StoreError> {
        self.queue_kind(mails, MailKind::Ordinary, now).await
    }

    /// [`Tx::queue_many`] for mails of one kind (reports of undeliverable mail).
    pub async fn queue_kind(
        &mut self,
        mails: &[Outgoing],
        kind: MailKind,
        now: i64,
    ) -> Result<(), StoreError> {
        // The digest of each file, computed once per shared buffer: a picture queued for
        // every player is one `Arc`, hashed once.
        let mut digests: HashMap<(usize, usize), String> = HashMap::new();
        for chunk in mails.chunks(200) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO outbox (created, recipient, subject, body, in_reply_to, kind) ",
            );
            q.push_values(chunk, |mut b, m| {
                b.push_bind(now)
                    .push_bind(&m.to)
                    .push_bind(&m.subject)
                    .push_bind(&m.body)
                    .push_bind(&m.in_reply_to)
                    .push_bind(kind.word());
            });
            if chunk.iter().all(|m| m.attachments.is_empty()) {
                q.build()
                    .execute(&mut *self.conn)
                    .await
                    .map_err(db("queueing mails"))?;
                continue;
            }
            q.push(" RETURNING id");
            let mut ids: Vec<i64> = q
                .build_query_scalar()
                .fetch_all(&mut *self.conn)
                .await
                .map_err(db("queueing mails"))?;
            // One statement numbers its rows in the order of its VALUES (AUTOINCREMENT);
            // RETURNING may list them in any order.
            ids.sort_unstable();
            let mut blobs: Vec<(String, &[u8])> = Vec::new();
            let mut links: Vec<(i64, usize, &Attachment, String)> = Vec::new();
            for (id, mail) in ids.iter().zip(chunk) {
                for (position, file) in mail.attachments.iter().enumerate() {
                    let key = (file.bytes.as_ptr() as usize, file.bytes.len());
                    let hash = digests
                        .entry(key)
                        .or_insert_with(|| hex(&Sha256::digest(&file.bytes[..])))
                        .clone();
                    if self.blobs.insert(hash.clone()) {
                        blobs.push((hash.clone(), &file.bytes[..]));
                    }
                    links.push((*id, position, file, hash));
                }
            }
            for part in blobs.chunks(100) {
                let mut q = QueryBuilder::<Sqlite>::new("INSERT INTO blobs (hash, bytes) ");
                q.push_values(part, |mut b, (hash, bytes)| {
                    b.push_bind(hash).push_bind(*bytes);
                });
                q.push(" ON CONFLICT (hash) DO NOTHING");
                q.build()
                    .execute(&mut *self.conn)
                    .await
                    .map_err(db("storing attachment files"))?;
            }
            for part in links.chunks(200) {
                let mut q = QueryBuilder::<Sqlite>::new(
                    "INSERT INTO outbox_attachments (outbox_id, position, name, content_type, hash, inline) ",
                );
                q.push_values(part, |mut b, (id, position, file, hash)| {
                    b.push_bind(*id)
                        .push_bind(*position as i64)
                        .push_bind(&file.name)
                        .push_bind(&file.content_type)
                        .push_bind(hash)
                        .push_bind(&file.inline);
                });
                q.build()
                    .execute(&mut *self.conn)
                    .await
                    .map_err(db("queueing attachments"))?;
            }
        }
        Ok(())
    }

    /// Records several handled mails at once: (Message-ID, body hash, sender, outcome).
    pub async fn record_mails(
        &mut self,
        mails: &[(String, String, String, String)],
        now: i64,
    ) -> Result<(), StoreError> {
        for chunk in mails.chunks(200) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO mails (message_id, body_hash, sender, received, outcome) ",
            );
            q.push_values(chunk, |mut b, (id, hash, sender, outcome)| {
                b.push_bind(id)
                    .push_bind(hash)
                    .push_bind(sender)
                    .push_bind(now)
                    .push_bind(outcome);
            });
            q.build()
                .execute(&mut *self.conn)
                .await
                .map_err(db("recording mails"))?;
        }
        Ok(())
    }

    /// Logs several actions at once: (game, actor, action).
    pub async fn log_many(
        &mut self,
        actions: &[(Option<String>, String, String)],
        now: i64,
    ) -> Result<(), StoreError> {
        for chunk in actions.chunks(200) {
            let mut q =
                QueryBuilder::<Sqlite>::new("INSERT INTO actions (at, game, actor, action) ");
            q.push_values(chunk, |mut b, (game, actor, action)| {
                b.push_bind(now)
                    .push_bind(game)
                    .push_bind(actor)
                    .push_bind(action);
            });
            q.build()
                .execute(&mut *self.conn)
                .await
                .map_err(db("logging actions"))?;
        }
        Ok(())
    }

    /// How many replies each of these addresses got since `since`.
    pub async fn replies_counts(
        &mut self,
        addresses: &[String],
        since: i64,
    ) -> Result<HashMap<String, i64>, StoreError> {
        let mut out = HashMap::new();
        for chunk in addresses.chunks(500) {
            let mut q =
                QueryBuilder::<Sqlite>::new("SELECT address, COUNT(*) FROM replies WHERE at >= ");
            q.push_bind(since);
            q.push(" AND address IN (");
            let mut list = q.separated(", ");
            for a in chunk {
                list.push_bind(a);
            }
            q.push(") GROUP BY address");
            let rows = q
                .build()
                .fetch_all(&mut *self.conn)
                .await
                .map_err(db("counting replies"))?;
            out.extend(
                rows.iter()
                    .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1))),
            );
        }
        Ok(out)
    }

    /// Records replies (for the rate limit).
    pub async fn record_replies(
        &mut self,
        addresses: &[String],
        now: i64,
    ) -> Result<(), StoreError> {
        for chunk in addresses.chunks(500) {
            let mut q = QueryBuilder::<Sqlite>::new("INSERT INTO replies (address, at) ");
            q.push_values(chunk, |mut b, a| {
                b.push_bind(a).push_bind(now);
            });
            q.build()
                .execute(&mut *self.conn)
                .await
                .map_err(db("recording replies"))?;
        }
        Ok(())
    }

    /// Marks an outbox mail failed for good, with the reason (in this transaction), and
    /// says what kind of mail it was (ordinary if there is no such row).
    pub async fn mark_failed(&mut self, id: i64, reason: &str) -> Result<MailKind, StoreError> {
        let kind: Option<String> =
            sqlx::query_scalar("UPDATE outbox SET failed = ? WHERE id = ? RETURNING kind")
                .bind(reason)
                .bind(id)
                .fetch_optional(&mut *self.conn)
                .await
                .map_err(db("marking a mail failed"))?;
        Ok(kind.map_or(MailKind::Ordinary, |k| MailKind::from_word(&k)))
    }

    /// Records that mail to an address bounced.
    pub async fn record_bounce(
        &mut self,
        address: &str,
        reason: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO bounces (address, at, reason) VALUES (?, ?, ?)")
            .bind(address)
            .bind(now)
            .bind(reason)
            .execute(&mut *self.conn)
            .await
            .map_err(db("recording a bounce"))?;
        Ok(())
    }

    /// Keeps a mail that could not be handled, with the reason, in this transaction.
    pub async fn quarantine(
        &mut self,
        raw: &[u8],
        reason: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO quarantine (received, reason, raw) VALUES (?, ?, ?)")
            .bind(now)
            .bind(reason)
            .bind(raw)
            .execute(&mut *self.conn)
            .await
            .map_err(db("quarantining a mail"))?;
        Ok(())
    }

    /// Commits everything. When this returns `Ok` the transaction is in the database; when
    /// it fails, nothing of it is (the connection is closed, which rolls back what SQLite did
    /// not already).
    pub async fn commit(mut self) -> Result<(), StoreError> {
        sqlx::query("COMMIT")
            .execute(&mut *self.conn)
            .await
            .map_err(db("committing"))?;
        self.ended = true;
        Ok(())
    }

    /// Ends the transaction without changing anything.
    pub async fn rollback(mut self) -> Result<(), StoreError> {
        sqlx::query("ROLLBACK")
            .execute(&mut *self.conn)
            .await
            .map_err(db("ending a transaction"))?;
        self.ended = true;
        Ok(())
    }
}

impl Drop for Tx {
    fn drop(&mut self) {
        if !self.ended {
            self.conn.close_on_drop();
        }
    }
}

#[cfg(test)]
mod tests;
