//! The meta table: the database's own values (its instance mark, the confirmation key, when
//! the deadlines were last swept), read and written alone or inside a transaction.

use super::backend::on;
use super::{db, OrClose, Store, StoreError, Tx};

impl Store {
    /// A value from the meta table.
    pub async fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
                .bind(key)
                .fetch_optional(&mut **c)
                .await
                .or_close(c, "reading meta")
        })
    }

    /// Sets a value in the meta table.
    pub async fn set_meta(&self, key: &str, value: &str) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            )
            .bind(key)
            .bind(value)
            .execute(&mut **c)
            .await
            .or_close(c, "writing meta")?;
        });
        Ok(())
    }

    /// Sets a value in the meta table unless it has one, and returns the value it keeps:
    /// of several daemons starting at once on one database, the first one's.
    pub async fn meta_or_set(&self, key: &str, value: &str) -> Result<String, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT(key) DO NOTHING",
            )
            .bind(key)
            .bind(value)
            .execute(&mut **c)
            .await
            .or_close(c, "writing meta")?;
            sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
                .bind(key)
                .fetch_one(&mut **c)
                .await
                .or_close(c, "reading meta")
        })
    }
}

impl Tx {
    /// A value from the meta table, as this transaction sees it: in a writing transaction,
    /// no other daemon changes it before the commit.
    pub async fn meta(&mut self, key: &str) -> Result<Option<String>, StoreError> {
        on!(&mut self.conn, |c, Db| {
            sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
                .bind(key)
                .fetch_optional(&mut **c)
                .await
                .map_err(db("reading meta"))
        })
    }

    /// Sets a value in the meta table, with the transaction.
    pub async fn set_meta(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        on!(&mut self.conn, |c, Db| {
            sqlx::query(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            )
            .bind(key)
            .bind(value)
            .execute(&mut **c)
            .await
            .map_err(db("writing meta"))?;
        });
        Ok(())
    }
}
