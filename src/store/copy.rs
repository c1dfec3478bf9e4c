//! `herald migrate --from sqlite:PATH` (issue 29, point 3): a judge's SQLite database copied
//! into an empty one (PostgreSQL), table by table in one transaction, and the copy checked
//! row count by row count.

use sqlx::{QueryBuilder, Row};

use super::backend::{on, Conn};
use super::{db, Store, StoreError};

/// How one column is read and written.
#[derive(Clone, Copy)]
enum Kind {
    /// An integer (or NULL).
    Int,
    /// Text (or NULL).
    Text,
    /// Bytes.
    Bytes,
}

/// A value on its way.
enum Value {
    Int(Option<i64>),
    Text(Option<String>),
    Bytes(Vec<u8>),
}

/// Every table herald keeps, with its columns, in an order where each row's references
/// exist before it (files before the links naming them).
const TABLES: &[(&str, &[(&str, Kind)])] = {
    use Kind::{Bytes, Int, Text};
    &[
        (
            "games",
            &[
                ("name", Text),
                ("state", Text),
                ("status", Text),
                ("due", Int),
                ("updated", Int),
                ("version", Int),
                ("variant", Text),
                ("phase", Text),
                ("phase_shown", Text),
                ("deadline", Int),
                ("deadline_shown", Text),
                ("listed", Int),
                ("master", Text),
                ("members", Text),
                ("seats", Int),
                ("powers", Int),
                ("comment", Text),
                ("lists", Text),
            ],
        ),
        (
            "played",
            &[
                ("game", Text),
                ("list", Text),
                ("seq", Int),
                ("digest", Text),
                ("body", Text),
            ],
        ),
        (
            "mails",
            &[
                ("message_id", Text),
                ("body_hash", Text),
                ("sender", Text),
                ("received", Int),
                ("outcome", Text),
            ],
        ),
        (
            "quarantine",
            &[
                ("id", Int),
                ("received", Int),
                ("reason", Text),
                ("raw", Bytes),
            ],
        ),
        (
            "outbox",
            &[
                ("id", Int),
                ("created", Int),
                ("recipient", Text),
                ("subject", Text),
                ("body", Text),
                ("in_reply_to", Text),
                ("sent", Int),
                ("attempts", Int),
                ("next_attempt", Int),
                ("failed", Text),
                ("pruned", Int),
                ("kind", Text),
            ],
        ),
        (
            "actions",
            &[
                ("id", Int),
                ("at", Int),
                ("game", Text),
                ("actor", Text),
                ("action", Text),
            ],
        ),
        ("replies", &[("address", Text), ("at", Int)]),
        ("meta", &[("key", Text), ("value", Text)]),
        (
            "bounces",
            &[("address", Text), ("at", Int), ("reason", Text)],
        ),
        ("blobs", &[("hash", Text), ("bytes", Bytes)]),
        (
            "outbox_attachments",
            &[
                ("outbox_id", Int),
                ("position", Int),
                ("name", Text),
                ("content_type", Text),
                ("hash", Text),
                ("inline", Text),
            ],
        ),
        (
            "confirmed",
            &[("address", Text), ("at", Int), ("how", Text)],
        ),
        (
            "held",
            &[
                ("address", Text),
                ("mails", Int),
                ("first", Int),
                ("last", Int),
                ("subject", Text),
            ],
        ),
        ("volume", &[("key", Text), ("at", Int), ("n", Int)]),
    ]
};

/// The tables whose `id` the database numbers: after a copy, the next number follows the
/// copied ones.
const NUMBERED: [&str; 3] = ["quarantine", "outbox", "actions"];

/// Rows read and written at a time.
const PAGE: i64 = 200;

/// What a copy did: each table's rows, as counted in both databases afterwards.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    /// (table, rows in the source, rows in the copy).
    pub tables: Vec<(&'static str, i64, i64)>,
}

impl Copied {
    /// Every table with as many rows in the copy as in the source, or the first that has
    /// not.
    pub fn check(&self) -> Result<(), CopyError> {
        match self.tables.iter().find(|(_, from, to)| from != to) {
            None => Ok(()),
            Some(&(table, from, to)) => Err(CopyError::Mismatch { table, from, to }),
        }
    }

    /// The rows of `table` in the source.
    pub fn rows(&self, table: &str) -> i64 {
        self.tables
            .iter()
            .find(|(t, _, _)| *t == table)
            .map_or(0, |(_, from, _)| *from)
    }
}

/// Why a copy was not made.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The source is not an SQLite file.
    #[error("herald copies from an SQLite database (--from sqlite:PATH)")]
    NotAFile,
    /// A table of the copy holds other than its source's rows.
    #[error("the copy does not match: {table} has {from} rows in the source, {to} in the copy")]
    Mismatch {
        /// The table.
        table: &'static str,
        /// Its rows in the source.
        from: i64,
        /// Its rows in the copy.
        to: i64,
    },
    /// A game of the copy did not load, or not every game did.
    #[error("the copy's games do not all load: {loaded} of {stored}")]
    Games {
        /// How many loaded.
        loaded: usize,
        /// How many the source keeps.
        stored: i64,
    },
    /// The target already holds a judge's data.
    #[error("the database to copy into is not empty ({table} has rows): copy into a new database")]
    NotEmpty {
        /// The first table found with rows.
        table: &'static str,
    },
}

impl Store {
    /// Copies every row of `source` into this store, which must be empty, in one
    /// transaction, and counts both afterwards.
    pub async fn copy_from(&self, source: &Store) -> Result<Copied, CopyError> {
        if !matches!(source.pool, super::backend::Pool::Sqlite(_)) {
            return Err(CopyError::NotAFile);
        }
        for (table, _) in TABLES {
            if self.count_rows(table).await? > 0 {
                return Err(CopyError::NotEmpty { table });
            }
        }
        let mut tx = self.begin().await?;
        let mut from = source.conn().await?;
        for (table, columns) in TABLES {
            let mut after: i64 = i64::MIN;
            loop {
                let (rows, last) = read_page(&mut from, table, columns, after).await?;
                if rows.is_empty() {
                    break;
                }
                write_page(&mut tx.conn, table, columns, rows).await?;
                after = last;
            }
        }
        if let Conn::Pg(c) = &mut tx.conn {
            for table in NUMBERED {
                sqlx::query(&format!(
                    "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                     COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                ))
                .execute(&mut **c)
                .await
                .map_err(db("numbering the copied rows"))?;
            }
        }
        tx.commit().await?;
        let mut copied = Copied::default();
        for (table, _) in TABLES {
            copied.tables.push((
                table,
                source.count_rows(table).await?,
                self.count_rows(table).await?,
            ));
        }
        Ok(copied)
    }

    /// How many rows `table` (one of [`TABLES`]) holds.
    async fn count_rows(&self, table: &str) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
                .fetch_one(&mut **c)
                .await
                .map_err(db("counting rows"))
        })
    }
}

/// A page of `table` from the SQLite source, in the order of its rows' `rowid` (after
/// `after`), and the last `rowid` read. `outbox_attachments`, kept without a rowid, is read
/// in the order of its key, which the page's last `outbox_id` ends only at a whole mail.
async fn read_page(
    from: &mut Conn,
    table: &str,
    columns: &[(&str, Kind)],
    after: i64,
) -> Result<(Vec<Vec<Value>>, i64), StoreError> {
    let names: Vec<&str> = columns.iter().map(|(n, _)| *n).collect();
    let sql = if table == "outbox_attachments" {
        format!(
            "SELECT outbox_id, {} FROM {table} WHERE outbox_id IN \
             (SELECT DISTINCT outbox_id FROM {table} WHERE outbox_id > $1 ORDER BY outbox_id LIMIT $2) \
             ORDER BY outbox_id, position",
            names.join(", ")
        )
    } else {
        format!(
            "SELECT rowid, {} FROM {table} WHERE rowid > $1 ORDER BY rowid LIMIT $2",
            names.join(", ")
        )
    };
    on!(from, |c, Db| {
        let rows = sqlx::query(&sql)
            .bind(after)
            .bind(PAGE)
            .fetch_all(&mut **c)
            .await
            .map_err(db("reading the database to copy"))?;
        let mut last = after;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            last = r.try_get(0).map_err(db("reading the database to copy"))?;
            let mut values = Vec::with_capacity(columns.len());
            for (i, (_, kind)) in columns.iter().enumerate() {
                let got = match kind {
                    Kind::Int => r.try_get(i + 1).map(Value::Int),
                    Kind::Text => r.try_get(i + 1).map(Value::Text),
                    Kind::Bytes => r.try_get(i + 1).map(Value::Bytes),
                };
                values.push(got.map_err(db("reading the database to copy"))?);
            }
            out.push(values);
        }
        Ok((out, last))
    })
}

/// Writes rows into `table` of the copy.
async fn write_page(
    to: &mut Conn,
    table: &str,
    columns: &[(&str, Kind)],
    rows: Vec<Vec<Value>>,
) -> Result<(), StoreError> {
    let names: Vec<&str> = columns.iter().map(|(n, _)| *n).collect();
    on!(to, |c, Db| {
        let mut q = QueryBuilder::<Db>::new(format!("INSERT INTO {table} ({}) ", names.join(", ")));
        q.push_values(rows, |mut b, row| {
            for value in row {
                match value {
                    Value::Int(v) => b.push_bind(v),
                    Value::Text(v) => b.push_bind(v.map(|t| super::text(&t).into_owned())),
                    Value::Bytes(v) => b.push_bind(v),
                };
            }
        });
        q.build()
            .execute(&mut **c)
            .await
            .map_err(db("writing the copy"))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Issue 38, point 5: `herald migrate --from` "copies every table of the schema, held
    /// to it by a test": every table of a fresh store (but the migrator's own and SQLite's)
    /// is in [`TABLES`] with every one of its columns, and nothing else is.
    #[tokio::test]
    async fn every_table_and_column_of_the_schema_is_copied() {
        let dir = std::env::temp_dir().join(format!("herald-copy-schema-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir.join("h.db")).await.unwrap();
        let pool = match &store.pool {
            super::super::backend::Pool::Sqlite(pool) => pool,
            super::super::backend::Pool::Pg(_) => panic!("a file was opened"),
        };
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations'",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        let mut schema: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for table in tables {
            let mut columns: Vec<String> =
                sqlx::query_scalar("SELECT name FROM pragma_table_info($1)")
                    .bind(&table)
                    .fetch_all(pool)
                    .await
                    .unwrap();
            columns.sort();
            schema.insert(table, columns);
        }
        let copied: BTreeMap<String, Vec<String>> = TABLES
            .iter()
            .map(|(table, columns)| {
                let mut names: Vec<String> = columns.iter().map(|(c, _)| c.to_string()).collect();
                names.sort();
                (table.to_string(), names)
            })
            .collect();
        assert!(schema.contains_key("games") && schema["games"].contains(&"version".into()));
        assert_eq!(copied, schema);
        store.close().await;
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
