//! herald on the real PostgreSQL that scripts/test starts (scripts/postgres/start.sh,
//! `DATABASE_URL` in its env file; issue 29): a judge's SQLite database copied into it by
//! `herald migrate --from`, and the one-reader lock held on the server.

use std::path::PathBuf;

use herald::config::Config;
use herald::service::{LockError, RunLock, Service};

use crate::support::{scratch_dir, scratch_postgres, Db};

/// The server scripts/test started.
fn server() -> String {
    std::env::var("DATABASE_URL").unwrap_or_else(|_| {
        panic!(
            "DATABASE_URL is not set: run the tests with scripts/test, which starts PostgreSQL \
             (scripts/postgres/start.sh)"
        )
    })
}

/// A configuration on a fresh database of the server.
async fn config_on_server() -> Config {
    let mut config = Config::default();
    config.storage.database = PathBuf::from(scratch_postgres(&server()).await);
    config
}

/// "herald migrate --from sqlite:PATH copies a judge's SQLite database into PostgreSQL and
/// checks the copy (every game loads, counts match)" (issue 29, point 3): the stored judge
/// of December 2026 copied, every table's rows in both, and the copy carries on as the
/// judge; a second copy into the same database is refused rather than mixed in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_sqlite_judge_is_copied_into_postgres_and_checked() {
    let dir = scratch_dir("pg-copy");
    let file = dir.join("old.db");
    std::fs::copy(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stored_game.db"),
        &file,
    )
    .unwrap();
    let source = PathBuf::from(format!("sqlite:{}", file.display()));
    let config = config_on_server().await;
    let copied = Service::migrate_from(&config, &source).await.unwrap();
    assert_eq!(copied.rows("games"), 1, "{copied:?}");
    assert!(copied.rows("outbox") > 0, "{copied:?}");
    assert!(copied.rows("mails") > 0, "{copied:?}");
    for (table, from, to) in &copied.tables {
        assert_eq!(from, to, "{table}");
    }
    // The same rows, read on the server by a connection of the test's own.
    let mut db = Db::open(&config.storage.database).await;
    let state = db
        .text("SELECT state FROM games WHERE name = $1", "fx")
        .await;
    assert!(state.contains("\"fx\""), "{state}");
    // New mail is numbered after the copied (the identity follows the copied ids).
    let before = db
        .count("SELECT MAX(id) FROM outbox WHERE $1 = $1", "")
        .await;
    db.close().await;
    let service = Service::open(config.clone()).await.unwrap();
    let mut tx = service.store.begin().await.unwrap();
    tx.queue(
        &herald::envelope::Outgoing {
            to: "ann@example.org".into(),
            subject: "after the copy".into(),
            body: "text\n".into(),
            in_reply_to: None,
            attachments: Vec::new(),
        },
        1,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let rows = service.store.outbox_rows().await.unwrap();
    assert_eq!(rows.last().map(|r| r.id), Some(before + 1));
    service.store.close().await;
    // Copying again would mix two judges: refused, nothing written.
    let again = Service::migrate_from(&config, &source).await;
    assert!(
        again
            .as_ref()
            .is_err_and(|e| e.to_string().contains("not empty")),
        "{again:?}"
    );
    let mut db = Db::open(&config.storage.database).await;
    assert_eq!(
        db.count("SELECT COUNT(*) FROM games WHERE $1 = $1", "")
            .await,
        1
    );
    db.close().await;
}

/// One herald at a time reads and sends for a database on a server too: a second `run` is
/// refused, told who holds the lock, and takes it once the first lets go.
#[tokio::test]
async fn a_second_reader_of_a_server_database_is_refused() {
    let config = config_on_server().await;
    let db = &config.storage.database;
    let held = RunLock::take_any(db, "run").await.unwrap();
    let refused = RunLock::take_any(db, "tick").await.unwrap_err();
    assert!(
        matches!(&refused, LockError::Held { holder, .. }
            if holder == &format!("pid {}, herald run", std::process::id())),
        "{refused}"
    );
    // The keeper reads which database, without its password.
    let told = refused.to_string();
    assert!(
        told.contains("herald:***@") && !told.contains(":herald@"),
        "{told}"
    );
    drop(held);
    // The server sees the connection end a moment later.
    let mut taken = None;
    for _ in 0..100 {
        if let Ok(lock) = RunLock::take_any(db, "tick").await {
            taken = Some(lock);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(taken.is_some(), "the lock is let go with its connection");
}
