//! What the store knows of bounces beyond recording them (issue 24): whether a bounce names
//! a mail herald sent to that address, and when the Masters were last told of one.

use sqlx::QueryBuilder;

use super::backend::on;
use super::{db, text, StoreError, Tx};

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
        let n: i64 = on!(&mut self.conn, |c, Db| {
            let mut q = QueryBuilder::<Db>::new("SELECT COUNT(*) FROM outbox WHERE id IN (");
            let mut list = q.separated(", ");
            for id in ids {
                list.push_bind(*id);
            }
            q.push(") AND lower(recipient) = lower(");
            q.push_bind(text(to));
            q.push(")");
            q.build_query_scalar()
                .fetch_one(&mut **c)
                .await
                .map_err(db("looking for the mail a bounce names"))?
        });
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
        let key = bounce_told_key(address);
        let at: Option<String> = on!(&mut self.conn, |c, Db| {
            sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
                .bind(text(&key))
                .fetch_optional(&mut **c)
                .await
                .map_err(db("reading when a bounce was told"))?
        });
        Ok(at
            .and_then(|at| at.parse::<i64>().ok())
            .is_some_and(|at| at > since))
    }

    /// Notes that the Masters were told of a bounce for `address` at `now`.
    pub async fn record_bounce_told(&mut self, address: &str, now: i64) -> Result<(), StoreError> {
        let key = bounce_told_key(address);
        on!(&mut self.conn, |c, Db| {
            sqlx::query(
                "INSERT INTO meta (key, value) VALUES ($1, $2) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            )
            .bind(text(&key))
            .bind(now.to_string())
            .execute(&mut **c)
            .await
            .map_err(db("recording that a bounce was told"))?;
        });
        Ok(())
    }
}
