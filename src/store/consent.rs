//! Who asked for herald's mail: the addresses that confirmed they want game mail, the game
//! mail held back from those that did not, and the counters of the volume limits
//! (`migrations/0005_consent.sql`).

use std::collections::{HashMap, HashSet};

use sqlx::{QueryBuilder, Row, Sqlite};

use super::{db, OrClose, Store, StoreError, Tx};

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
            let mut q =
                QueryBuilder::<Sqlite>::new("SELECT address FROM confirmed WHERE address IN (");
            let mut list = q.separated(", ");
            for a in chunk {
                list.push_bind(a);
            }
            q.push(")");
            let rows = q
                .build()
                .fetch_all(&mut *self.conn)
                .await
                .map_err(db("reading confirmed addresses"))?;
            out.extend(rows.iter().map(|r| r.get::<String, _>(0)));
        }
        Ok(out)
    }

    /// Records that `address` confirmed (kept as first confirmed).
    pub async fn confirm(&mut self, address: &str, how: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT OR IGNORE INTO confirmed (address, at, how) VALUES (?, ?, ?)")
            .bind(address)
            .bind(now)
            .bind(how)
            .execute(&mut *self.conn)
            .await
            .map_err(db("recording a confirmed address"))?;
        Ok(())
    }

    /// Counts mails held back, by address, with the subject of the last one held.
    pub async fn record_held(
        &mut self,
        held: &[(String, i64, String)],
        now: i64,
    ) -> Result<(), StoreError> {
        for (address, n, subject) in held {
            sqlx::query(
                "INSERT INTO held (address, mails, first, last, subject) VALUES (?, ?, ?, ?, ?) \
                 ON CONFLICT(address) DO UPDATE SET mails = mails + excluded.mails, \
                 last = excluded.last, subject = excluded.subject",
            )
            .bind(address)
            .bind(n)
            .bind(now)
            .bind(now)
            .bind(subject)
            .execute(&mut *self.conn)
            .await
            .map_err(db("recording held mail"))?;
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
            let mut q = QueryBuilder::<Sqlite>::new("SELECT key, SUM(n) FROM volume WHERE at >= ");
            q.push_bind(since);
            q.push(" AND key IN (");
            let mut list = q.separated(", ");
            for k in chunk {
                list.push_bind(k);
            }
            q.push(") GROUP BY key");
            let rows = q
                .build()
                .fetch_all(&mut *self.conn)
                .await
                .map_err(db("counting mail volume"))?;
            out.extend(
                rows.iter()
                    .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1))),
            );
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
        sqlx::query("DELETE FROM volume WHERE at < ?")
            .bind(now - VOLUME_KEPT)
            .execute(&mut *self.conn)
            .await
            .map_err(db("forgetting old mail volume"))?;
        for chunk in events.chunks(300) {
            let mut q = QueryBuilder::<Sqlite>::new("INSERT INTO volume (key, at, n) ");
            q.push_values(chunk, |mut b, (k, n)| {
                b.push_bind(k).push_bind(now).push_bind(*n);
            });
            q.build()
                .execute(&mut *self.conn)
                .await
                .map_err(db("counting mail volume"))?;
        }
        Ok(())
    }
}

impl Store {
    /// Whether `address` confirmed that it wants game mail (for the keeper and tests).
    pub async fn is_confirmed(&self, address: &str) -> Result<bool, StoreError> {
        let mut conn = self.conn().await?;
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM confirmed WHERE address = ?")
            .bind(address)
            .fetch_one(&mut *conn)
            .await
            .or_close(&mut conn, "reading confirmed addresses")?;
        Ok(n > 0)
    }

    /// How many game mails were held back from `address` because it had not confirmed.
    pub async fn held_count(&self, address: &str) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        let n: Option<i64> = sqlx::query_scalar("SELECT mails FROM held WHERE address = ?")
            .bind(address)
            .fetch_optional(&mut *conn)
            .await
            .or_close(&mut conn, "reading held mail")?;
        Ok(n.unwrap_or(0))
    }
}
