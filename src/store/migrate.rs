//! Applies `migrations/*.sql` (SQLite) or `migrations/postgres/*.sql` (PostgreSQL, the same
//! versions written in its dialect) through sqlx's migrator, which records each in
//! `_sqlx_migrations` with the SHA-384 of its SQL and refuses a changed one. On PostgreSQL
//! the migrator holds an advisory lock, so daemons starting together apply each once.
//!
//! herald's first migrator recorded applied versions in a table of its own,
//! `schema_migrations (version, applied)`. A database it made is adopted once, in one
//! transaction: each version it lists gets the row sqlx would have written (checksum and
//! description taken from the embedded migrations themselves), and the old table goes.

use sqlx::migrate::{Migrate, Migrator};
use sqlx::SqlitePool;

use super::backend::Pool;
use super::{db, StoreError};

/// The migrations in `migrations/`, embedded at build time.
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// The same migrations for PostgreSQL, in `migrations/postgres/`.
pub static PG_MIGRATOR: Migrator = sqlx::migrate!("./migrations/postgres");

/// Brings the schema up to date.
pub async fn apply(pool: &Pool) -> Result<(), StoreError> {
    match pool {
        Pool::Sqlite(pool) => {
            adopt_old_bookkeeping(pool).await?;
            MIGRATOR.run(pool).await
        }
        Pool::Pg(pool) => PG_MIGRATOR.run(pool).await,
    }
    .map_err(|source| StoreError::Migrate { source })
}

/// Moves what herald's first migrator recorded in `schema_migrations` into sqlx's
/// `_sqlx_migrations`, when the first exists and the second does not.
async fn adopt_old_bookkeeping(pool: &SqlitePool) -> Result<(), StoreError> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' \
         AND name IN ('schema_migrations', '_sqlx_migrations')",
    )
    .fetch_all(pool)
    .await
    .map_err(db("looking for the migration records"))?;
    if !tables.iter().any(|t| t == "schema_migrations")
        || tables.iter().any(|t| t == "_sqlx_migrations")
    {
        return Ok(());
    }
    let mut tx = pool
        .begin()
        .await
        .map_err(db("adopting the old migration records"))?;
    let done: Vec<i64> = sqlx::query_scalar("SELECT version FROM schema_migrations")
        .fetch_all(&mut *tx)
        .await
        .map_err(db("reading schema_migrations"))?;
    // sqlx's own statement, so the table is exactly the one its migrator expects.
    tx.ensure_migrations_table()
        .await
        .map_err(|source| StoreError::Migrate { source })?;
    for migration in MIGRATOR.iter().filter(|m| done.contains(&m.version)) {
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (?, ?, TRUE, ?, -1)",
        )
        .bind(migration.version)
        .bind(&*migration.description)
        .bind(&*migration.checksum)
        .execute(&mut *tx)
        .await
        .map_err(db("recording an adopted migration"))?;
    }
    sqlx::query("DROP TABLE schema_migrations")
        .execute(&mut *tx)
        .await
        .map_err(db("dropping schema_migrations"))?;
    tx.commit()
        .await
        .map_err(db("adopting the old migration records"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::sqlite::SqlitePoolOptions;

    async fn memory() -> SqlitePool {
        SqlitePoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap()
    }

    /// Every file in `migrations/` is embedded: a file added without a rebuild of the
    /// library (the macro only tracks the files it saw) fails here.
    #[test]
    fn every_migration_file_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let files = std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "sql")
            })
            .count();
        assert_eq!(MIGRATOR.iter().count(), files);
        let versions: Vec<i64> = MIGRATOR.iter().map(|m| m.version).collect();
        assert_eq!(versions, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }

    /// "One schema, migrations for both backends" (issue 29): each SQLite migration has its
    /// PostgreSQL twin, of the same version and name.
    #[test]
    fn every_migration_has_its_postgres_twin() {
        let names = |m: &Migrator| -> Vec<(i64, String)> {
            m.iter()
                .map(|m| (m.version, m.description.to_string()))
                .collect()
        };
        assert_eq!(names(&MIGRATOR), names(&PG_MIGRATOR));
    }

    #[tokio::test]
    async fn a_fresh_database_gets_every_migration_once() {
        let pool = memory().await;
        apply(&Pool::Sqlite(pool.clone())).await.unwrap();
        apply(&Pool::Sqlite(pool.clone())).await.unwrap();
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(n, 10);
    }

    /// A database whose first migration only was applied by the old migrator gets the
    /// second from sqlx, once.
    #[tokio::test]
    async fn an_old_database_half_way_is_finished() {
        let pool = memory().await;
        sqlx::raw_sql(include_str!("../../migrations/0001_init.sql"))
            .execute(&pool)
            .await
            .unwrap();
        sqlx::raw_sql(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL);
             INSERT INTO schema_migrations VALUES (1, 0);",
        )
        .execute(&pool)
        .await
        .unwrap();
        apply(&Pool::Sqlite(pool.clone())).await.unwrap();
        let attempts: i64 = sqlx::query_scalar("SELECT COUNT(attempts) FROM outbox")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(attempts, 0);
        let versions: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(versions, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
}
