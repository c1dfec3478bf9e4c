//! Leases on the work that several daemons sharing one PostgreSQL database could otherwise
//! do twice (issue 29): judging a due game, which happens outside any transaction (its
//! pictures take a while), and sending an outgoing mail, which no transaction can cover.
//!
//! A lease is a session advisory lock held on a connection of the daemon's own, taken with
//! `pg_try_advisory_lock` (never waiting: work leased by another daemon is skipped, not
//! queued for), and let go once the work is recorded. The server drops every lock of a
//! connection the moment it ends, so a daemon killed half way leaves nothing for the others
//! to wait out: they take the work up at once, from what the database holds. What was
//! recorded in a transaction decides whether the work is still to do; the lease only keeps
//! two daemons from doing it at the same time.
//!
//! On SQLite one daemon does all the work (the run lock sees to that), and every lease is
//! granted at once without asking anyone.

use sqlx::Row;

use super::backend::Conn;
use super::{OrClose, Store, StoreError};

/// The first key of the leases on games ("hg" and 1), in PostgreSQL's two-key advisory lock
/// space, which never meets the one-key space of the write and run locks.
const GAMES: i32 = 0x6867_0001;

/// The first key of the leases on outgoing mails ("hg" and 2).
const MAILS: i32 = 0x6867_0002;

/// The leases one daemon holds for one round of work, let go together by
/// [`Leases::release`], or by the server if the daemon dies or drops them unreleased.
pub struct Leases {
    /// The connection holding the locks; none on SQLite.
    conn: Option<Conn>,
}

impl Store {
    /// A holder of leases for a round of work: on PostgreSQL a connection of its own.
    pub async fn leases(&self) -> Result<Leases, StoreError> {
        let conn = if self.is_shared() {
            Some(self.conn().await?)
        } else {
            None
        };
        Ok(Leases { conn })
    }
}

impl Leases {
    /// Leases the games among `names` that no other daemon holds, and returns those, in the
    /// order given.
    pub async fn games(&mut self, names: &[String]) -> Result<Vec<String>, StoreError> {
        let Some(Conn::Pg(c)) = &mut self.conn else {
            return Ok(names.to_vec());
        };
        // One statement for the batch; the lock is tried row by row, in the list's order.
        let rows = sqlx::query(
            "SELECT n FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i) \
             WHERE pg_try_advisory_lock($2, hashtext(n)) ORDER BY i",
        )
        .bind(names)
        .bind(GAMES)
        .fetch_all(&mut **c)
        .await
        .or_close(c, "leasing due games")?;
        Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
    }

    /// Leases the outgoing mail `id` unless another daemon is sending it.
    pub async fn mail(&mut self, id: i64) -> Result<bool, StoreError> {
        let Some(Conn::Pg(c)) = &mut self.conn else {
            return Ok(true);
        };
        sqlx::query_scalar("SELECT pg_try_advisory_lock($1, $2)")
            .bind(MAILS)
            .bind(mail_key(id))
            .fetch_one(&mut **c)
            .await
            .or_close(c, "leasing a mail to send")
    }

    /// Lets go of the lease on the outgoing mail `id` (it was sent and recorded, or is
    /// left for later).
    pub async fn let_go_mail(&mut self, id: i64) -> Result<(), StoreError> {
        let Some(Conn::Pg(c)) = &mut self.conn else {
            return Ok(());
        };
        sqlx::query("SELECT pg_advisory_unlock($1, $2)")
            .bind(MAILS)
            .bind(mail_key(id))
            .execute(&mut **c)
            .await
            .or_close(c, "letting go of a mail")?;
        Ok(())
    }

    /// Lets go of every lease held. Should that fail, the connection is closed, which lets
    /// go of them as surely.
    pub async fn release(mut self) {
        if let Some(Conn::Pg(c)) = &mut self.conn {
            let _ = sqlx::query("SELECT pg_advisory_unlock_all()")
                .execute(&mut **c)
                .await
                .or_close(c, "letting go of leases");
        }
        self.conn = None;
    }
}

/// The second key of a mail's lease: its outbox row, wrapped into 32 bits (two rows 2³²
/// apart sharing a lease only means one waits for the other).
fn mail_key(id: i64) -> i32 {
    id as i32
}

impl Drop for Leases {
    /// Leases dropped unreleased (a round cut short by an error or by the daemon stopping)
    /// close their connection: the server lets go of them, and no lock goes back to the
    /// pool with it.
    fn drop(&mut self) {
        if let Some(conn) = &mut self.conn {
            conn.close_on_drop();
        }
    }
}
