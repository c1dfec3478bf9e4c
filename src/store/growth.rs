//! What the growth limits read and remove (issue 36, point 6): the forming games, which
//! lapse; the games that changed lately, largest first, for the daily log line.

use serde::de::DeserializeOwned;
use sqlx::{QueryBuilder, Row};

use super::backend::on;
use super::{db, text, OrClose, Store, StoreError, Tx};

impl Tx {
    /// Every forming game.
    pub async fn forming_games<T: DeserializeOwned>(&mut self) -> Result<Vec<T>, StoreError> {
        let rows: Vec<(String, String, Option<String>)> = on!(&mut self.conn, |c, Db| {
            sqlx::query(
                "SELECT name, state, lists FROM games WHERE status = 'forming' ORDER BY name",
            )
            .fetch_all(&mut **c)
            .await
            .map_err(db("loading forming games"))?
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect()
        });
        super::decode_all(self.assembled(rows).await?)
    }

    /// Removes these games: their names are free again.
    pub async fn delete_games(&mut self, names: &[String]) -> Result<(), StoreError> {
        if !names.is_empty() {
            self.count_meta(super::summary::LISTING_CHANGES).await?;
        }
        self.delete_played(names).await?;
        for chunk in names.chunks(500) {
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new("DELETE FROM games WHERE name IN (");
                let mut list = q.separated(", ");
                for n in chunk {
                    list.push_bind(text(n));
                }
                q.push(")");
                q.build()
                    .execute(&mut **c)
                    .await
                    .map_err(db("removing games"))?;
            });
        }
        Ok(())
    }
}

impl Store {
    /// The `n` largest games (name, bytes of stored state, its played rows included) of
    /// those written since `since`: one query, which reads sizes, not states.
    pub async fn largest_changed(
        &self,
        since: i64,
        n: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            let rows = sqlx::query(
                "SELECT name, CAST(octet_length(state) + COALESCE((SELECT SUM(octet_length(body)) \
                 FROM played WHERE game = name), 0) AS BIGINT) AS size FROM games \
                 WHERE updated >= $1 ORDER BY size DESC, name LIMIT $2",
            )
            .bind(since)
            .bind(n)
            .fetch_all(&mut **c)
            .await
            .or_close(c, "finding the largest games")?;
            Ok(rows
                .iter()
                .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1)))
                .collect())
        })
    }
}
