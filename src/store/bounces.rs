//! What the store knows of bounces beyond recording them (issue 24): whether a bounce names
//! a mail herald sent to that address, and when the Masters were last told of one.

use sqlx::{QueryBuilder, Sqlite};

use super::{db, StoreError, Tx};

/// The `meta` key under which the last bounce notice for `address` is kept.
fn bounce_told_key(address: &str) -> String {
    format!("bounce told: {}", address.to_ascii_lowercase())
}

impl Tx {
    /// Whether any of these outbox rows is a mail herald queued to `to` (a bounce for `to`
    /// that names one is about herald's own mail, not a forgery).
    pub async fn queued_to(&mut self, ids: &[i64], to: &str) -> Result<bool, StoreError> {
        if ids.is_empty() {
            return Ok(false);
        }
        let mut q = QueryBuilder::<Sqlite>::new("SELECT COUNT(*) FROM outbox WHERE id IN (");
        let mut list = q.separated(", ");
        for id in ids {
            list.push_bind(id);
        }
        q.push(") AND lower(recipient) = lower(");
        q.push_bind(to);
        q.push(")");
        let n: i64 = q
            .build_query_scalar()
            .fetch_one(&mut *self.conn)
            .await
            .map_err(db("looking for the mail a bounce names"))?;
        Ok(n > 0)
    }

    /// Whether a Master was told of a bounce for `address` after `since`. Kept in the
    /// `meta` table under `bounce told: <address>` (one row per address that ever bounced,
    /// which only addresses herald mailed can be).
    pub async fn bounce_told_since(
        &mut self,
        address: &str,
        since: i64,
    ) -> Result<bool, StoreError> {
        let at: Option<String> = sqlx::query_scalar("SELECT value FROM meta WHERE key = ?")
            .bind(bounce_told_key(address))
            .fetch_optional(&mut *self.conn)
            .await
            .map_err(db("reading when a bounce was told"))?;
        Ok(at
            .and_then(|at| at.parse::<i64>().ok())
            .is_some_and(|at| at > since))
    }

    /// Notes that the Masters were told of a bounce for `address` at `now`.
    pub async fn record_bounce_told(&mut self, address: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO meta (key, value) VALUES (?, ?) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(bounce_told_key(address))
        .bind(now.to_string())
        .execute(&mut *self.conn)
        .await
        .map_err(db("recording that a bounce was told"))?;
        Ok(())
    }
}
