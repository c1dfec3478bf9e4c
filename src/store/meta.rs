//! The meta table: the database's own values (its instance mark, the confirmation key, when
//! the deadlines were last swept), read and written alone or inside a transaction.

use super::backend::{on, Conn};
use super::{OrClose, Store, StoreError, Tx};

/// A value of the meta table, read on `conn`.
async fn read(conn: &mut Conn, key: &str) -> Result<Option<String>, StoreError> {
    on!(conn, |c, Db| {
        sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
            .bind(key)
            .fetch_optional(&mut **c)
            .await
            .or_close(c, "reading meta")
    })
}

/// Writes a value of the meta table on `conn`: replacing the one there, or only where
/// there is none.
async fn write(conn: &mut Conn, key: &str, value: &str, replace: bool) -> Result<(), StoreError> {
    let sql = if replace {
        "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
    } else {
        "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT(key) DO NOTHING"
    };
    on!(conn, |c, Db| {
        sqlx::query(sql)
            .bind(key)
            .bind(value)
            .execute(&mut **c)
            .await
            .or_close(c, "writing meta")?;
    });
    Ok(())
}

impl Store {
    /// A value from the meta table.
    pub async fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        read(&mut self.conn().await?, key).await
    }

    /// Sets a value in the meta table.
    pub async fn set_meta(&self, key: &str, value: &str) -> Result<(), StoreError> {
        write(&mut self.conn().await?, key, value, true).await
    }

    /// Sets a value in the meta table unless it has one, and returns the value it keeps:
    /// of several daemons starting at once on one database, the first one's.
    pub async fn meta_or_set(&self, key: &str, value: &str) -> Result<String, StoreError> {
        let mut conn = self.conn().await?;
        write(&mut conn, key, value, false).await?;
        Ok(read(&mut conn, key)
            .await?
            .unwrap_or_else(|| value.to_string()))
    }
}

impl Tx {
    /// A value from the meta table, as this transaction sees it: in a writing transaction,
    /// no other daemon changes it before the commit.
    pub async fn meta(&mut self, key: &str) -> Result<Option<String>, StoreError> {
        read(&mut self.conn, key).await
    }

    /// Sets a value in the meta table, with the transaction.
    pub async fn set_meta(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        write(&mut self.conn, key, value, true).await
    }

    /// Adds one to a counter of the meta table (from 1 when there is none), with the
    /// transaction.
    pub async fn count_meta(&mut self, key: &str) -> Result<(), StoreError> {
        on!(&mut self.conn, |c, Db| {
            sqlx::query(
                "INSERT INTO meta (key, value) VALUES ($1, '1') ON CONFLICT(key) DO UPDATE \
                 SET value = CAST(CAST(meta.value AS BIGINT) + 1 AS TEXT)",
            )
            .bind(key)
            .execute(&mut **c)
            .await
            .or_close(c, "counting in meta")?;
        });
        Ok(())
    }
}
