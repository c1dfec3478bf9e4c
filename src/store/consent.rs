//! Who asked for herald's mail: the addresses that confirmed they want game mail, the game
//! mail held back from those that did not, and the counters of the volume limits
//! (`migrations/0005_consent.sql`).

use std::collections::{HashMap, HashSet};

use sqlx::{QueryBuilder, Row};

use super::backend::on;
use super::{db, text, OrClose, Store, StoreError, Tx};

/// Counters older than this are deleted as new ones are written: every limit counts over an
/// hour at most.
const VOLUME_KEPT: i64 = 86_400;

impl Tx {
    /// Those of `addresses` that confirmed they want game mail.
    pub async fn confirmed_among(
        &mut self,
        addresses: &[String],
    ) -> Result<HashSet<String>, StoreError> {
        let mut out = HashSet::new();
        for chunk in addresses.chunks(500) {
            on!(&mut self.conn, |c, Db| {
                let mut q =
                    QueryBuilder::<Db>::new("SELECT address FROM confirmed WHERE address IN (");
                let mut list = q.separated(", ");
                for a in chunk {
                    list.push_bind(text(a));
                }
                q.push(")");
                let rows = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .map_err(db("reading confirmed addresses"))?;
                out.extend(rows.iter().map(|r| r.get::<String, _>(0)));
            });
        }
        Ok(out)
    }

    /// Records that `address` confirmed (kept as first confirmed).
    pub async fn confirm(&mut self, address: &str, how: &str, now: i64) -> Result<(), StoreError> {
        let added = on!(&mut self.conn, |c, Db| {
            sqlx::query(
                "INSERT INTO confirmed (address, at, how) VALUES ($1, $2, $3) ON CONFLICT (address) DO NOTHING",
            )
            .bind(text(address))
            .bind(now)
            .bind(text(how))
            .execute(&mut **c)
            .await
            .map_err(db("recording a confirmed address"))?
            .rows_affected()
        });
        if added > 0 {
            // A Master's games may be listed now.
            self.count_meta(super::summary::LISTING_CHANGES).await?;
        }
        Ok(())
    }

    /// Counts mails held back, by address, with the subject of the last one held.
    pub async fn record_held(
        &mut self,
        held: &[(String, i64, String)],
        now: i64,
    ) -> Result<(), StoreError> {
        for (address, n, subject) in held {
            on!(&mut self.conn, |c, Db| {
                sqlx::query(
                    "INSERT INTO held (address, mails, first, last, subject) VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT(address) DO UPDATE SET mails = held.mails + excluded.mails, \
                     last = excluded.last, subject = excluded.subject",
                )
                .bind(text(address))
                .bind(*n)
                .bind(now)
                .bind(now)
                .bind(text(subject))
                .execute(&mut **c)
                .await
                .map_err(db("recording held mail"))?;
            });
        }
        Ok(())
    }

    /// How many events each key counted since `since`.
    pub async fn volume_since(
        &mut self,
        keys: &[String],
        since: i64,
    ) -> Result<HashMap<String, i64>, StoreError> {
        let mut out = HashMap::new();
        for chunk in keys.chunks(500) {
            on!(&mut self.conn, |c, Db| {
                // SUM of a BIGINT is a NUMERIC on PostgreSQL.
                let mut q = QueryBuilder::<Db>::new(
                    "SELECT key, CAST(SUM(n) AS BIGINT) FROM volume WHERE at >= ",
                );
                q.push_bind(since);
                q.push(" AND key IN (");
                let mut list = q.separated(", ");
                for k in chunk {
                    list.push_bind(text(k));
                }
                q.push(") GROUP BY key");
                let rows = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .map_err(db("counting mail volume"))?;
                out.extend(
                    rows.iter()
                        .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1))),
                );
            });
        }
        Ok(out)
    }

    /// Counts events under their keys, and forgets counts older than a day.
    pub async fn record_volume(
        &mut self,
        events: &[(String, i64)],
        now: i64,
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        on!(&mut self.conn, |c, Db| {
            sqlx::query("DELETE FROM volume WHERE at < $1")
                .bind(now - VOLUME_KEPT)
                .execute(&mut **c)
                .await
                .map_err(db("forgetting old mail volume"))?;
        });
        for chunk in events.chunks(300) {
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new("INSERT INTO volume (key, at, n) ");
                q.push_values(chunk, |mut b, (k, n)| {
                    b.push_bind(text(k)).push_bind(now).push_bind(*n);
                });
                q.build()
                    .execute(&mut **c)
                    .await
                    .map_err(db("counting mail volume"))?;
            });
        }
        Ok(())
    }
}

impl Store {
    /// Whether `address` confirmed that it wants game mail (for the keeper and tests).
    pub async fn is_confirmed(&self, address: &str) -> Result<bool, StoreError> {
        let mut conn = self.conn().await?;
        let n: i64 = on!(&mut conn, |c, Db| {
            sqlx::query_scalar("SELECT COUNT(*) FROM confirmed WHERE address = $1")
                .bind(text(address))
                .fetch_one(&mut **c)
                .await
                .or_close(c, "reading confirmed addresses")?
        });
        Ok(n > 0)
    }

    /// How many game mails were held back from `address` because it had not confirmed.
    pub async fn held_count(&self, address: &str) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        let n: Option<i64> = on!(&mut conn, |c, Db| {
            sqlx::query_scalar("SELECT mails FROM held WHERE address = $1")
                .bind(text(address))
                .fetch_optional(&mut **c)
                .await
                .or_close(c, "reading held mail")?
        });
        Ok(n.unwrap_or(0))
    }
}
