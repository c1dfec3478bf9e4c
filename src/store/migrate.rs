//! Applies `migrations/*.sql` in order, once each, recording them in `schema_migrations`.

use sqlx::SqlitePool;

use super::{db, StoreError};

/// The migrations, embedded in the binary, in order.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/0001_init.sql")),
    (2, include_str!("../../migrations/0002_delivery.sql")),
];

/// Brings the schema up to date.
pub async fn apply(pool: &SqlitePool) -> Result<(), StoreError> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)")
        .execute(pool)
        .await
        .map_err(db("creating schema_migrations"))?;
    for &(version, sql) in MIGRATIONS {
        let done: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM schema_migrations WHERE version = ?")
                .bind(version)
                .fetch_one(pool)
                .await
                .map_err(db("reading schema_migrations"))?;
        if done > 0 {
            continue;
        }
        let mut tx = pool.begin().await.map_err(db("starting a migration"))?;
        sqlx::raw_sql(sql)
            .execute(&mut *tx)
            .await
            .map_err(db("applying a migration"))?;
        sqlx::query(
            "INSERT INTO schema_migrations (version, applied) VALUES (?, strftime('%s','now'))",
        )
        .bind(version)
        .execute(&mut *tx)
        .await
        .map_err(db("recording a migration"))?;
        tx.commit().await.map_err(db("committing a migration"))?;
    }
    Ok(())
}
