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

pub mod backend;
mod bounces;
mod consent;
mod copy;
mod growth;
mod leases;
mod mailed;
mod meta;
mod migrate;
mod outbox;
mod played;
mod prune;
mod summary;

pub use copy::{Copied, CopyError};
pub use leases::Leases;
pub use mailed::Mailed;
pub use played::LISTS;
pub use prune::{OutboxRow, PRUNE_BATCH};
pub use summary::{Head, ListMark, Listed, Summary};

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};

use sqlx::pool::PoolConnection;
use sqlx::{Database, QueryBuilder, Row};

use backend::{on, Conn, Location, Pool};

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
    fn or_close<DB: Database>(
        self,
        conn: &mut PoolConnection<DB>,
        what: &'static str,
    ) -> Result<T, StoreError>;
}

impl<T> OrClose<T> for Result<T, sqlx::Error> {
    fn or_close<DB: Database>(
        self,
        conn: &mut PoolConnection<DB>,
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
    pool: Pool,
}

/// One transaction: everything a mail or a deadline changes, committed at once. A `Tx`
/// dropped before it committed (a statement failed, the commit failed, or the daemon stopped
/// half way) closes its connection, which rolls the transaction back: a connection is only
/// ever returned to the pool outside a transaction.
pub struct Tx {
    /// The connection, in a transaction begun with `BEGIN` (see the module's notes).
    conn: Conn,
    /// Whether the transaction ended (committed or rolled back), so the connection may go
    /// back to the pool.
    ended: bool,
    /// The digests of the attachment files this transaction has written to `blobs`, so a
    /// picture queued for every player is written once (the transaction uses no savepoints,
    /// so what is written here stays written until the whole transaction ends).
    blobs: HashSet<String>,
    /// Bytes of game state this transaction wrote: live states and played rows (see
    /// [`Tx::game_bytes_written`]).
    game_bytes: u64,
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
    /// Opens the database `[storage] database` names (see [`Location::parse`]): an SQLite
    /// file, created with its directory if missing, or a PostgreSQL server; and applies the
    /// migrations.
    pub async fn open(database: &Path) -> Result<Store, StoreError> {
        let pool = match Location::parse(database) {
            Location::Sqlite(path) => Pool::sqlite(&path).await?,
            Location::Postgres(url) => Pool::postgres(&url).await?,
        };
        migrate::apply(&pool).await?;
        let store = Store { pool };
        store.move_whole_games().await?;
        Ok(store)
    }

    /// Moves the games stored whole (by a herald before played phases had rows of their
    /// own) to the layout of [`played`], a batch to a transaction; daemons opening one
    /// database together each move what the others have not.
    async fn move_whole_games(&self) -> Result<(), StoreError> {
        loop {
            let mut tx = self.begin().await?;
            let moved = tx.move_whole_games(100).await?;
            tx.commit().await?;
            if moved == 0 {
                return Ok(());
            }
        }
    }

    /// Whether the store is on a PostgreSQL server (shared by several daemons) rather than
    /// in an SQLite file.
    pub fn is_shared(&self) -> bool {
        matches!(self.pool, Pool::Pg(_))
    }

    /// Closes the store's connections.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Starts a transaction that writes: it takes the database's write lock at once
    /// (`BEGIN IMMEDIATE` on SQLite, the advisory lock [`backend::WRITE_LOCK`] on
    /// PostgreSQL, waiting for another writer), so that it can never fail half way because
    /// another connection wrote first.
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        let mut conn = self.conn().await?;
        match &mut conn {
            Conn::Sqlite(c) => {
                sqlx::query("BEGIN IMMEDIATE")
                    .execute(&mut **c)
                    .await
                    .or_close(c, "starting a transaction")?;
            }
            Conn::Pg(c) => {
                sqlx::query("BEGIN")
                    .execute(&mut **c)
                    .await
                    .or_close(c, "starting a transaction")?;
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(backend::WRITE_LOCK)
                    .execute(&mut **c)
                    .await
                    .or_close(c, "taking the write lock")?;
            }
        }
        Ok(Tx::new(conn))
    }

    /// Starts a transaction that only reads (a consistent view of the database; it takes
    /// no lock). End it with [`Tx::rollback`].
    pub async fn begin_read(&self) -> Result<Tx, StoreError> {
        let mut conn = self.conn().await?;
        let begin = match conn {
            Conn::Sqlite(_) => "BEGIN",
            Conn::Pg(_) => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        };
        on!(&mut conn, |c, Db| {
            sqlx::query(begin)
                .execute(&mut **c)
                .await
                .or_close(c, "starting a transaction")?;
        });
        Ok(Tx::new(conn))
    }

    /// A connection from the pool, for a few statements or a transaction. What a
    /// statement on it returns goes through [`OrClose::or_close`], so that a connection on
    /// which a statement failed is closed rather than used again.
    async fn conn(&self) -> Result<Conn, StoreError> {
        self.pool.acquire().await
    }

    /// The names of games that need attention at or before `now`.
    pub async fn due_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            let rows = sqlx::query(
                "SELECT name FROM games WHERE due IS NOT NULL AND due <= $1 ORDER BY due",
            )
            .bind(now)
            .fetch_all(&mut **c)
            .await
            .or_close(c, "finding due games")?;
            Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
        })
    }

    /// Every game whole (the tests and benches read them; no listing does: see
    /// [`Tx::game_page`]).
    pub async fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        let mut tx = self.begin_read().await?;
        let rows: Vec<(String, String, String, Option<String>)> = on!(&mut tx.conn, |c, Db| {
            sqlx::query("SELECT name, status, state, lists FROM games ORDER BY name")
                .fetch_all(&mut **c)
                .await
                .map_err(db("listing games"))?
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
                .collect()
        });
        let mut statuses = Vec::with_capacity(rows.len());
        let mut parts = Vec::with_capacity(rows.len());
        for (name, status, state, lists) in rows {
            statuses.push(status);
            parts.push((name, state, lists));
        }
        let whole = tx.assembled(parts).await?;
        tx.rollback().await?;
        Ok(whole
            .into_iter()
            .zip(statuses)
            .map(|((name, state), status)| GameRow {
                name,
                status,
                state,
            })
            .collect())
    }

    /// The addresses whose mail bounced.
    pub async fn bounced(&self) -> Result<Vec<String>, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query_scalar("SELECT DISTINCT address FROM bounces ORDER BY address")
                .fetch_all(&mut **c)
                .await
                .or_close(c, "reading bounces")
        })
    }

    /// How many mails were ever queued (for tests and the keeper).
    pub async fn outbox_count(&self) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query_scalar("SELECT COUNT(*) FROM outbox")
                .fetch_one(&mut **c)
                .await
                .or_close(c, "counting the outbox")
        })
    }
}

impl Tx {
    /// A transaction begun on `conn`.
    fn new(conn: Conn) -> Tx {
        Tx {
            conn,
            ended: false,
            blobs: HashSet::new(),
            game_bytes: 0,
        }
    }

    /// Bytes of game state this transaction has written so far: the live states and the
    /// played rows its saves wrote (for the tests and the benchmarks: what a save costs the
    /// database).
    pub fn game_bytes_written(&self) -> u64 {
        self.game_bytes
    }

    /// Writes a game (inserting or replacing), with its summary and when it next needs
    /// attention.
    pub async fn save_game<T: Serialize>(
        &mut self,
        name: &str,
        status: &str,
        state: &T,
        summary: &Summary,
        due: Option<i64>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.save_games(&[(name, status, state, summary.clone(), due)], now)
            .await
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
        on!(&mut self.conn, |c, Db| {
            sqlx::query("INSERT INTO actions (at, game, actor, action) VALUES ($1, $2, $3, $4)")
                .bind(now)
                .bind(game.map(text))
                .bind(text(actor))
                .bind(text(action))
                .execute(&mut **c)
                .await
                .map_err(db("logging an action"))?;
        });
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
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new(
                    "SELECT message_id, body_hash, sender FROM mails WHERE message_id IN (",
                );
                let mut list = q.separated(", ");
                for id in chunk {
                    list.push_bind(text(id));
                }
                q.push(")");
                let rows = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .map_err(db("checking Message-IDs"))?;
                seen.extend(rows.iter().map(|r| {
                    (
                        r.get::<String, _>(0),
                        (r.get::<String, _>(1), r.get::<String, _>(2)),
                    )
                }));
            });
        }
        // Keyed as asked (an identity with a NUL is stored without it, see `text`).
        Ok(ids
            .iter()
            .filter_map(|id| seen.get(&*text(id)).map(|v| (id.clone(), v.clone())))
            .collect())
    }

    /// The games with these names (those that exist).
    pub async fn games_named<T: DeserializeOwned>(
        &mut self,
        names: &[String],
    ) -> Result<Vec<T>, StoreError> {
        decode_all(self.states(names, None).await?)
    }

    /// The stored state of each of these games that exists, as written (JSON), by name: to
    /// judge games outside a transaction and check, in the one that writes them, that no
    /// one changed them meanwhile.
    pub async fn game_states(&mut self, names: &[String]) -> Result<StoredStates, StoreError> {
        Ok(self.states(names, None).await?.into_iter().collect())
    }

    /// [`Tx::game_states`] of those of these games that are due at `now`: another daemon
    /// may have judged one since the list of due games was read.
    pub async fn due_game_states(
        &mut self,
        names: &[String],
        now: i64,
    ) -> Result<StoredStates, StoreError> {
        Ok(self.states(names, Some(now)).await?.into_iter().collect())
    }

    /// (name, state) of each of these games that exists (and is due by `due_by`, if given).
    async fn states(
        &mut self,
        names: &[String],
        due_by: Option<i64>,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let mut out: Vec<(String, String, Option<String>)> = Vec::new();
        for chunk in names.chunks(500) {
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new("SELECT name, state, lists FROM games WHERE ");
                if let Some(now) = due_by {
                    q.push("due IS NOT NULL AND due <= ")
                        .push_bind(now)
                        .push(" AND ");
                }
                q.push("name IN (");
                let mut list = q.separated(", ");
                for n in chunk {
                    list.push_bind(text(n));
                }
                q.push(")");
                let rows = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .map_err(db("loading games"))?;
                out.extend(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))));
            });
        }
        self.assembled(out).await
    }

    /// Writes several games at once: (name, status, state, summary, due). Each save takes
    /// a new version, the largest so far plus one.
    pub async fn save_games<T: Serialize>(
        &mut self,
        games: &[(&str, &str, &T, Summary, Option<i64>)],
        now: i64,
    ) -> Result<(), StoreError> {
        for chunk in games.chunks(200) {
            let mut rows = Vec::with_capacity(chunk.len());
            for (name, status, state, summary, due) in chunk {
                rows.push((name, status, played::split(name, state)?, summary, due));
            }
            let splits: Vec<(&str, &played::Split)> = rows.iter().map(|r| (*r.0, &r.2)).collect();
            self.game_bytes += self.write_played(&splits).await?;
            self.game_bytes += rows.iter().map(|r| r.2.live.len() as u64).sum::<u64>();
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new(format!(
                    "INSERT INTO games (name, state, lists, status, due, updated, {}) ",
                    summary::WRITTEN
                ));
                q.push_values(&rows, |mut b, (name, status, split, s, due)| {
                    b.push_bind(**name)
                        .push_bind(split.live.as_str())
                        .push_bind(split.keys.as_str())
                        .push_bind(**status)
                        .push_bind(**due)
                        .push_bind(now);
                    summary::bind_summary!(b, s);
                    b.push(summary::NEXT_VERSION);
                });
                q.push(format!(
                    " ON CONFLICT(name) DO UPDATE SET state = excluded.state, lists = excluded.lists, \
                     status = excluded.status, \
                     due = excluded.due, updated = excluded.updated, {}",
                    summary::UPDATED
                ));
                q.build()
                    .execute(&mut **c)
                    .await
                    .map_err(db("saving games"))?;
            });
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
            let with_files = chunk.iter().any(|m| !m.attachments.is_empty());
            let mut ids: Vec<i64> = on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new(
                    "INSERT INTO outbox (created, recipient, subject, body, in_reply_to, kind) ",
                );
                q.push_values(chunk, |mut b, m| {
                    b.push_bind(now)
                        .push_bind(text(&m.to))
                        .push_bind(text(&m.subject))
                        .push_bind(text(&m.body))
                        .push_bind(m.in_reply_to.as_deref().map(text))
                        .push_bind(kind.word());
                });
                if with_files {
                    q.push(" RETURNING id");
                    q.build_query_scalar()
                        .fetch_all(&mut **c)
                        .await
                        .map_err(db("queueing mails"))?
                } else {
                    q.build()
                        .execute(&mut **c)
                        .await
                        .map_err(db("queueing mails"))?;
                    Vec::new()
                }
            });
            if !with_files {
                continue;
            }
            // One statement numbers its rows in the order of its VALUES (AUTOINCREMENT on
            // SQLite, the identity's sequence on PostgreSQL, where the write lock keeps
            // every other writer out); RETURNING may list them in any order.
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
                on!(&mut self.conn, |c, Db| {
                    let mut q = QueryBuilder::<Db>::new("INSERT INTO blobs (hash, bytes) ");
                    q.push_values(part, |mut b, (hash, bytes)| {
                        b.push_bind(hash.as_str()).push_bind(*bytes);
                    });
                    q.push(" ON CONFLICT (hash) DO NOTHING");
                    q.build()
                        .execute(&mut **c)
                        .await
                        .map_err(db("storing attachment files"))?;
                });
            }
            for part in links.chunks(200) {
                on!(&mut self.conn, |c, Db| {
                    let mut q = QueryBuilder::<Db>::new(
                        "INSERT INTO outbox_attachments (outbox_id, position, name, content_type, hash, inline) ",
                    );
                    q.push_values(part, |mut b, (id, position, file, hash)| {
                        b.push_bind(*id)
                            .push_bind(*position as i64)
                            .push_bind(text(&file.name))
                            .push_bind(text(&file.content_type))
                            .push_bind(hash.as_str())
                            .push_bind(file.inline.as_deref().map(text));
                    });
                    q.build()
                        .execute(&mut **c)
                        .await
                        .map_err(db("queueing attachments"))?;
                });
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
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new(
                    "INSERT INTO mails (message_id, body_hash, sender, received, outcome) ",
                );
                q.push_values(chunk, |mut b, (id, hash, sender, outcome)| {
                    b.push_bind(text(id))
                        .push_bind(text(hash))
                        .push_bind(text(sender))
                        .push_bind(now)
                        .push_bind(text(outcome));
                });
                q.build()
                    .execute(&mut **c)
                    .await
                    .map_err(db("recording mails"))?;
            });
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
            on!(&mut self.conn, |c, Db| {
                let mut q =
                    QueryBuilder::<Db>::new("INSERT INTO actions (at, game, actor, action) ");
                q.push_values(chunk, |mut b, (game, actor, action)| {
                    b.push_bind(now)
                        .push_bind(game.as_deref().map(text))
                        .push_bind(text(actor))
                        .push_bind(text(action));
                });
                q.build()
                    .execute(&mut **c)
                    .await
                    .map_err(db("logging actions"))?;
            });
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
            on!(&mut self.conn, |c, Db| {
                let mut q =
                    QueryBuilder::<Db>::new("SELECT address, COUNT(*) FROM replies WHERE at >= ");
                q.push_bind(since);
                q.push(" AND address IN (");
                let mut list = q.separated(", ");
                for a in chunk {
                    list.push_bind(text(a));
                }
                q.push(") GROUP BY address");
                let rows = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .map_err(db("counting replies"))?;
                out.extend(
                    rows.iter()
                        .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1))),
                );
            });
        }
        Ok(addresses
            .iter()
            .filter_map(|a| out.get(&*text(a)).map(|n| (a.clone(), *n)))
            .collect())
    }

    /// Records replies (for the rate limit).
    pub async fn record_replies(
        &mut self,
        addresses: &[String],
        now: i64,
    ) -> Result<(), StoreError> {
        for chunk in addresses.chunks(500) {
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new("INSERT INTO replies (address, at) ");
                q.push_values(chunk, |mut b, a| {
                    b.push_bind(text(a)).push_bind(now);
                });
                q.build()
                    .execute(&mut **c)
                    .await
                    .map_err(db("recording replies"))?;
            });
        }
        Ok(())
    }

    /// Marks an outbox mail failed for good, with the reason (in this transaction), and
    /// says what kind of mail it was (ordinary if there is no such row).
    pub async fn mark_failed(&mut self, id: i64, reason: &str) -> Result<MailKind, StoreError> {
        let kind: Option<String> = on!(&mut self.conn, |c, Db| {
            sqlx::query_scalar("UPDATE outbox SET failed = $1 WHERE id = $2 RETURNING kind")
                .bind(text(reason))
                .bind(id)
                .fetch_optional(&mut **c)
                .await
                .map_err(db("marking a mail failed"))?
        });
        Ok(kind.map_or(MailKind::Ordinary, |k| MailKind::from_word(&k)))
    }

    /// Records that mail to an address bounced.
    pub async fn record_bounce(
        &mut self,
        address: &str,
        reason: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        on!(&mut self.conn, |c, Db| {
            sqlx::query("INSERT INTO bounces (address, at, reason) VALUES ($1, $2, $3)")
                .bind(text(address))
                .bind(now)
                .bind(text(reason))
                .execute(&mut **c)
                .await
                .map_err(db("recording a bounce"))?;
        });
        Ok(())
    }

    /// Keeps a mail that could not be handled, with the reason, in this transaction.
    pub async fn quarantine(
        &mut self,
        raw: &[u8],
        reason: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        on!(&mut self.conn, |c, Db| {
            sqlx::query("INSERT INTO quarantine (received, reason, raw) VALUES ($1, $2, $3)")
                .bind(now)
                .bind(text(reason))
                .bind(raw)
                .execute(&mut **c)
                .await
                .map_err(db("quarantining a mail"))?;
        });
        Ok(())
    }

    /// Commits everything. When this returns `Ok` the transaction is in the database; when
    /// it fails, nothing of it is (the connection is closed, which rolls back what the
    /// database did not already).
    pub async fn commit(mut self) -> Result<(), StoreError> {
        on!(&mut self.conn, |c, Db| {
            sqlx::query("COMMIT")
                .execute(&mut **c)
                .await
                .map_err(db("committing"))?;
        });
        self.ended = true;
        Ok(())
    }

    /// Ends the transaction without changing anything.
    pub async fn rollback(mut self) -> Result<(), StoreError> {
        on!(&mut self.conn, |c, Db| {
            sqlx::query("ROLLBACK")
                .execute(&mut **c)
                .await
                .map_err(db("ending a transaction"))?;
        });
        self.ended = true;
        Ok(())
    }
}

/// Each (name, state) decoded, or the error naming the game that does not decode.
fn decode_all<T: DeserializeOwned>(states: Vec<(String, String)>) -> Result<Vec<T>, StoreError> {
    states
        .into_iter()
        .map(|(name, state)| {
            serde_json::from_str(&state).map_err(|source| StoreError::Decode { name, source })
        })
        .collect()
}

/// Text as the database keeps it: PostgreSQL refuses a NUL in text, which a stranger's mail
/// may carry (an order line, a subject quoted back), so it is written as U+FFFD on both
/// backends, the one database reading as the other would.
fn text(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains('\0') {
        std::borrow::Cow::Owned(s.replace('\0', "\u{fffd}"))
    } else {
        std::borrow::Cow::Borrowed(s)
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
