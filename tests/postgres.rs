//! herald on the real PostgreSQL that scripts/test starts (scripts/postgres/start.sh,
//! `DATABASE_URL` in its env file; issue 29): a judge's SQLite database copied into it by
//! `herald migrate --from`, and the one-reader lock held on the server.

use std::path::PathBuf;

use herald::config::Config;
use herald::service::{RunLock, Service};

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
    // The game's played phases, moved to rows of their own when the file was opened.
    assert!(copied.rows("played") > 0, "{copied:?}");
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

/// Several daemons share a database on a server (issue 29: "several daemons on one database
/// ... do the work once"): a second and a third `run` start beside the first, each holding
/// the server's lock shared on a connection of its own, let go when it ends.
#[tokio::test]
async fn several_daemons_share_a_server_database() {
    let config = config_on_server().await;
    let db = &config.storage.database;
    let first = RunLock::take_any(db, "run").await.unwrap();
    let second = RunLock::take_any(db, "run").await.unwrap();
    let third = RunLock::take_any(db, "tick").await.unwrap();
    let mut check = Db::open(&config.storage.database).await;
    // This process's locks: their connections are named after its pid.
    let mine = "SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
                WHERE l.locktype = 'advisory' AND l.mode = 'ShareLock' AND l.granted \
                AND a.application_name LIKE $1";
    let me = format!("pid {}, herald %", std::process::id());
    assert_eq!(check.count(mine, &me).await, 3);
    drop((first, second, third));
    // The server sees the connections end a moment later.
    let mut left = 3;
    for _ in 0..100 {
        left = check.count(mine, &me).await;
        if left == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(left, 0, "each lock is let go with its connection");
    check.close().await;
}
