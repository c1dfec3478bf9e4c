//! The store against a temporary SQLite file, or, when `HERALD_TEST_DATABASE` names a
//! PostgreSQL server (`scripts/test` starts one), against a fresh database on it: games,
//! mails, the outbox and its shared attachments; and SQLite databases made by older
//! versions.

use super::*;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::Connection;
use std::str::FromStr;
use std::sync::Arc;

/// A database made by herald's first, hand-written migrator (both migrations applied,
/// recorded in `schema_migrations`), with a game and a queued mail in it.
async fn make_old_database(path: &Path) {
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))
        .unwrap()
        .create_if_missing(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)")
        .execute(&pool)
        .await
        .unwrap();
    for (version, sql) in [
        (1, include_str!("../../migrations/0001_init.sql")),
        (2, include_str!("../../migrations/0002_delivery.sql")),
    ] {
        sqlx::raw_sql(sql).execute(&pool).await.unwrap();
        sqlx::query(
            "INSERT INTO schema_migrations (version, applied) VALUES (?, strftime('%s','now'))",
        )
        .bind(version)
        .execute(&pool)
        .await
        .unwrap();
    }
    sqlx::raw_sql(
        "INSERT INTO games (name, state, status, due, updated) VALUES ('old', '{\"n\":1}', 'running', 5, 1);
         INSERT INTO outbox (created, recipient, subject, body) VALUES (1, 'ann@example.org', 'Results', 'text');",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
}

#[tokio::test]
async fn a_database_made_by_the_old_migrator_opens_and_works() {
    let dir = std::env::temp_dir().join(format!("herald-oldschema-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("old.db");
    std::fs::create_dir_all(&dir).unwrap();
    make_old_database(&path).await;
    // Opened twice: adopted the first time, found up to date the second.
    for _ in 0..2 {
        let store = Store::open(&path).await.unwrap();
        let games = store.games().await.unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].name, "old");
        assert_eq!(store.due_games(10).await.unwrap(), ["old"]);
        let unsent = store.unsent(10, 10).await.unwrap();
        assert_eq!(unsent.len(), 1);
        assert_eq!(unsent[0].1.to, "ann@example.org");
        // A mail queued before attachments existed has none, and is written as before.
        assert!(unsent[0].1.attachments.is_empty());
        let bytes = unsent[0]
            .1
            .render("herald", "herald@localhost", "1@h", chrono::Utc::now())
            .unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains("Content-Type: text/plain"), "{text}");
        assert!(text.ends_with("\r\n\r\ntext\r\n"), "{text}");
        let versions: Vec<i64> =
            sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
                .fetch_all(sqlite(&store))
                .await
                .unwrap();
        assert_eq!(versions, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        let old: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'schema_migrations'",
        )
        .fetch_one(sqlite(&store))
        .await
        .unwrap();
        assert_eq!(old, 0);
        store.close().await;
    }
    // It still takes new state.
    let store = Store::open(&path).await.unwrap();
    let mut tx = store.begin().await.unwrap();
    let state = serde_json::json!({"n": 2});
    tx.save_game("new", "forming", &state, &Default::default(), None, 20)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let mut tx = store.begin().await.unwrap();
    let both: Vec<serde_json::Value> = tx.games_named(&["old".into(), "new".into()]).await.unwrap();
    assert_eq!(both.len(), 2);
    drop(tx);
    store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A new empty store in an SQLite file, for what only a file can show.
async fn fresh_file(name: &str) -> (Store, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("herald-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::open(&dir.join("h.db")).await.unwrap();
    (store, dir)
}

/// A new empty store: an SQLite file in a fresh directory, or a fresh database on the
/// PostgreSQL server `HERALD_TEST_DATABASE` names.
pub(super) async fn fresh(name: &str) -> (Store, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("herald-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let database = match std::env::var("HERALD_TEST_DATABASE") {
        Ok(server) if !server.is_empty() => scratch_postgres(&server, name).await.into(),
        _ => dir.join("h.db"),
    };
    let store = Store::open(&database).await.unwrap();
    (store, dir)
}

/// A new database on the PostgreSQL server at `server` (a URL naming a database the user
/// may create others from), its URL.
pub(crate) async fn scratch_postgres(server: &str, name: &str) -> String {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(server).await.unwrap();
    let db = format!(
        "herald_{}_{}_{}",
        name.to_ascii_lowercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
        std::process::id(),
        chrono::Utc::now().timestamp_nanos_opt().unwrap_or_default()
    );
    sqlx::query(&format!("CREATE DATABASE {db}"))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let (base, _) = server.rsplit_once('/').unwrap();
    format!("{base}/{db}")
}

async fn count(store: &Store, table: &str) -> i64 {
    let mut conn = store.conn().await.unwrap();
    on!(&mut conn, |c, Db| {
        sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&mut **c)
            .await
            .unwrap()
    })
}

pub(super) fn mail(to: &str, attachments: Vec<Attachment>) -> Outgoing {
    Outgoing {
        to: to.into(),
        subject: "Results".into(),
        body: format!("for {to}\n"),
        in_reply_to: None,
        attachments,
    }
}

#[tokio::test]
async fn a_file_shared_by_many_mails_is_stored_once_and_read_back_shared() {
    let (store, dir) = fresh("blobs").await;
    let png = Attachment::new("board.png", "image/png", (0..=255u8).collect::<Vec<_>>());
    let ics = Attachment::new("due.ics", "text/calendar", b"BEGIN:VCALENDAR\r\n".to_vec());
    // The same picture again, in a buffer of its own: found by its digest.
    let mut copy = Attachment::new("copy.png", "image/png", png.bytes.to_vec());
    // Shown in the body of its mail (issue 27, point 5), with its alt text.
    copy.inline = Some("war: Spring 1901".into());
    let mut tx = store.begin().await.unwrap();
    tx.queue_many(
        &[
            mail("ann@x.org", vec![png.clone(), ics.clone()]),
            mail("bob@x.org", vec![png.clone()]),
            mail("cat@x.org", Vec::new()),
        ],
        1,
    )
    .await
    .unwrap();
    tx.queue(&mail("dan@x.org", vec![copy.clone()]), 1)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    // And in a later transaction.
    let mut tx = store.begin().await.unwrap();
    tx.queue(&mail("eve@x.org", vec![ics.clone(), png.clone()]), 2)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(count(&store, "blobs").await, 2);
    assert_eq!(count(&store, "outbox_attachments").await, 6);

    let unsent = store.unsent(10, 10).await.unwrap();
    let got: Vec<(&str, Vec<&str>)> = unsent
        .iter()
        .map(|(_, m)| {
            (
                m.to.as_str(),
                m.attachments.iter().map(|a| a.name.as_str()).collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("ann@x.org", vec!["board.png", "due.ics"]),
            ("bob@x.org", vec!["board.png"]),
            ("cat@x.org", vec![]),
            ("dan@x.org", vec!["copy.png"]),
            ("eve@x.org", vec!["due.ics", "board.png"]),
        ]
    );
    let shown: Vec<Option<&str>> = unsent
        .iter()
        .flat_map(|(_, m)| m.attachments.iter().map(|a| a.inline.as_deref()))
        .collect();
    assert_eq!(
        shown,
        [None, None, None, Some("war: Spring 1901"), None, None]
    );
    assert_eq!(unsent[0].1.attachments, [png.clone(), ics.clone()]);
    assert_eq!(unsent[3].1.attachments, [copy]);
    assert_eq!(unsent[4].1.attachments, [ics, png]);
    // One buffer for the batch, however many mails carry the file.
    let first = &unsent[0].1.attachments[0].bytes;
    for (_, m) in &unsent[1..] {
        for a in m
            .attachments
            .iter()
            .filter(|a| a.content_type == "image/png")
        {
            assert!(Arc::ptr_eq(first, &a.bytes));
        }
    }
    store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Batches are written 200 rows at a time: each mail gets its own files, wherever it
/// falls, mails without files among them.
#[tokio::test]
async fn each_mail_of_a_large_batch_keeps_its_own_files() {
    let (store, dir) = fresh("batch").await;
    let mails: Vec<Outgoing> = (0..450)
        .map(|i| {
            let files = if i % 3 == 0 {
                vec![Attachment::new(
                    format!("{i}.txt"),
                    "text/plain",
                    format!("file {i}").into_bytes(),
                )]
            } else {
                Vec::new()
            };
            mail(&format!("p{i}@x.org"), files)
        })
        .collect();
    let mut tx = store.begin().await.unwrap();
    tx.queue_many(&mails, 1).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(count(&store, "blobs").await, 150);
    let unsent = store.unsent(10, 1000).await.unwrap();
    let back: Vec<Outgoing> = unsent.into_iter().map(|(_, m)| m).collect();
    assert_eq!(back, mails);
    store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_changed_migration_is_refused() {
    let dir = std::env::temp_dir().join(format!("herald-changed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("h.db");
    let store = Store::open(&path).await.unwrap();
    sqlx::query("UPDATE _sqlx_migrations SET checksum = x'00' WHERE version = 2")
        .execute(sqlite(&store))
        .await
        .unwrap();
    store.close().await;
    let err = Store::open(&path).await.unwrap_err();
    assert!(matches!(err, StoreError::Migrate { .. }), "{err}");
    assert!(
        err.to_string().starts_with("applying the migrations"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// These files made immutable (`chattr +i`, as root) while alive, writable again when
/// dropped, also when the test fails on the way.
struct Immutable(Vec<std::path::PathBuf>);

impl Immutable {
    fn new(files: &[std::path::PathBuf]) -> Immutable {
        for file in files {
            let out = std::process::Command::new("chattr")
                .arg("+i")
                .arg(file)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "chattr +i {}: {} (this test needs root and a file system with the immutable \
                 attribute)",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Immutable(files.to_vec())
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        for file in &self.0 {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(file)
                .status();
        }
    }
}

/// Commits that failed because the database could not be written (its file and log made
/// immutable, as a full disk or an I/O error would) leave no connection in a transaction:
/// once the database is writable again, every commit that succeeds is in the database, as
/// another connection reads it, and takes no lock it keeps. (sqlx's own transactions lost
/// count after the second failed commit on a connection: from then on a "commit" was the
/// release of a savepoint inside a transaction left open, reported as success and never
/// written, holding the write lock.)
#[tokio::test]
async fn commits_after_the_database_was_unwritable_for_a_while_are_in_the_database() {
    let (store, dir) = fresh_file("unwritable").await;
    let path = dir.join("h.db");
    store.set_meta("before", "1").await.unwrap();
    {
        let _fault = Immutable::new(&[path.clone(), dir.join("h.db-wal")]);
        // Any step may fail: a connection opened now is read-only.
        for i in 0..4 {
            let tried = async {
                let mut tx = store.begin().await?;
                tx.log(None, "test", &format!("lost {i}"), 1).await?;
                tx.commit().await
            };
            assert!(tried.await.is_err(), "a commit to an immutable file");
            assert!(store.set_meta("during", "1").await.is_err());
        }
    }
    for i in 0..3 {
        let mut tx = store.begin().await.unwrap();
        tx.log(None, "test", &format!("kept {i}"), 2).await.unwrap();
        tx.commit().await.unwrap();
    }
    store.set_meta("after", "1").await.unwrap();
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))
        .unwrap()
        .busy_timeout(std::time::Duration::from_secs(10));
    let mut other = sqlx::SqliteConnection::connect_with(&options)
        .await
        .unwrap();
    let actions: Vec<String> = sqlx::query_scalar("SELECT action FROM actions ORDER BY id")
        .fetch_all(&mut other)
        .await
        .unwrap();
    assert_eq!(actions, ["kept 0", "kept 1", "kept 2"]);
    let keys: Vec<String> = sqlx::query_scalar("SELECT key FROM meta ORDER BY key")
        .fetch_all(&mut other)
        .await
        .unwrap();
    assert!(
        keys.contains(&"after".to_string()) && !keys.contains(&"during".to_string()),
        "{keys:?}"
    );
    // No connection of the store holds the write lock.
    sqlx::query("INSERT INTO meta (key, value) VALUES ('other', '1')")
        .execute(&mut other)
        .await
        .unwrap();
    other.close().await.unwrap();
    store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 26: "give_up tells a non-delivery report from other mail by its subject text — a
/// mail kind carried in a header string". The outbox keeps each mail's kind, and marking a
/// mail failed says which it was, whatever its subject says.
#[tokio::test]
async fn a_failed_mail_says_its_kind_whatever_its_subject() {
    let (store, dir) = fresh("kind").await;
    let mut reply = mail("a@example.org", Vec::new());
    reply.subject = "Re: Undeliverable Mail".into();
    let report = mail("gm@example.org", Vec::new());
    let mut tx = store.begin().await.unwrap();
    tx.queue_many(&[reply], 1).await.unwrap();
    tx.queue_kind(&[report], MailKind::Undeliverable, 1)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let unsent = store.unsent(10, 10).await.unwrap();
    assert_eq!(unsent.len(), 2);
    let mut tx = store.begin().await.unwrap();
    let kinds = [
        tx.mark_failed(unsent[0].0, "550").await.unwrap(),
        tx.mark_failed(unsent[1].0, "550").await.unwrap(),
    ];
    tx.commit().await.unwrap();
    assert_eq!(kinds, [MailKind::Ordinary, MailKind::Undeliverable]);
    store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The SQLite pool of a store opened on a file.
fn sqlite(store: &Store) -> &sqlx::SqlitePool {
    match &store.pool {
        Pool::Sqlite(pool) => pool,
        Pool::Pg(_) => panic!("a file was opened"),
    }
}

/// A stranger's mail may carry a NUL (in its Message-ID, a line quoted back), which
/// PostgreSQL refuses in text: stored as U+FFFD on both backends, the mail is still
/// recorded, found again by the identity it came with, and its reply queued.
#[tokio::test]
async fn text_with_a_nul_is_stored_and_found_again() {
    let (store, dir) = fresh("nul").await;
    let id = "<a\0b@x.org>".to_string();
    let mut tx = store.begin().await.unwrap();
    tx.record_mails(
        &[(id.clone(), "h".into(), "ann@x.org".into(), "handled".into())],
        1,
    )
    .await
    .unwrap();
    let mut reply = mail("ann@x.org", Vec::new());
    reply.body = "you wrote: MOVE\0 A PAR\n".into();
    tx.queue(&reply, 1).await.unwrap();
    tx.log(Some("g\0"), "ann@x.org", "ORDERS\0", 1)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let mut tx = store.begin().await.unwrap();
    let seen = tx.seen_among(std::slice::from_ref(&id)).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(
        seen.get(&id),
        Some(&("h".to_string(), "ann@x.org".to_string()))
    );
    let unsent = store.unsent(10, 10).await.unwrap();
    assert_eq!(unsent[0].1.body, "you wrote: MOVE\u{fffd} A PAR\n");
    store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

mod leases;
mod played;

/// Issue 38, point 1: a save writes the game's summary with its state, and a version that
/// grows with every save; a page of games reads the summaries in name order from a name,
/// and an address is found among a game's people whatever its characters.
#[tokio::test]
async fn a_save_writes_the_summary_and_a_new_version() {
    let (store, dir) = fresh("summary").await;
    let state = serde_json::json!({"n": 1});
    let summary = |variant: &str, members: &[&str]| Summary {
        variant: variant.into(),
        phase: Some("S1901M".into()),
        listed: true,
        master: "gm@x.test".into(),
        members: members.iter().map(|m| m.to_string()).collect(),
        seats: 3,
        powers: 7,
        ..Summary::default()
    };
    let mut tx = store.begin().await.unwrap();
    tx.save_game(
        "b",
        "running",
        &state,
        &summary("standard", &["m gm@x.test"]),
        None,
        1,
    )
    .await
    .unwrap();
    tx.save_game(
        "a",
        "forming",
        &state,
        &summary("deluge", &["p 50%_a!@x.test"]),
        None,
        1,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let first = store.list_mark().await.unwrap();
    assert_eq!(first.version, 2);
    let mut tx = store.begin().await.unwrap();
    tx.save_game("b", "running", &state, &summary("classical", &[]), None, 2)
        .await
        .unwrap();
    let page = tx.game_page("", &["forming", "running"], 10).await.unwrap();
    let seen: Vec<(&str, &str, i64)> = page
        .iter()
        .map(|g| (g.name.as_str(), g.summary.variant.as_str(), g.version))
        .collect();
    assert_eq!(seen, [("a", "deluge", 2), ("b", "classical", 3)]);
    assert_eq!(page[0].summary.members, ["p 50%_a!@x.test"]);
    assert_eq!(tx.game_page("b", &["running"], 10).await.unwrap().len(), 1);
    assert!(tx
        .game_page("a", &["finished"], 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(tx.games_with_member("50%_A!@x.test").await.unwrap(), ["a"]);
    assert!(tx
        .games_with_member("50xxa!@x.test")
        .await
        .unwrap()
        .is_empty());
    assert!(tx.games_with_member("gm@x.test").await.unwrap().is_empty());
    tx.commit().await.unwrap();
    let second = store.list_mark().await.unwrap();
    assert!(second.version > first.version);
    assert_eq!(second.changes, first.changes);
    // A removal and a confirmation change the mark though no game was saved.
    let mut tx = store.begin().await.unwrap();
    tx.delete_games(&["b".to_string()]).await.unwrap();
    tx.commit().await.unwrap();
    let third = store.list_mark().await.unwrap();
    assert_ne!(third, second);
    let mut tx = store.begin().await.unwrap();
    tx.confirm("new@x.test", "a test", 3).await.unwrap();
    tx.confirm("new@x.test", "again", 4).await.unwrap();
    tx.commit().await.unwrap();
    let fourth = store.list_mark().await.unwrap();
    assert_eq!(
        fourth.changes,
        third.changes + 1,
        "one new address, counted once"
    );
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_list_page_passes_over_games_no_reader_may_see() {
    // LIST shows a game whose Master never confirmed to that Master alone, and an
    // unlisted game to its people: the page a batch reads holds those for its readers and
    // none of the others, however many there are.
    let (store, dir) = fresh("list-page").await;
    let state = serde_json::json!({"n": 1});
    let game = |master: &str, listed: bool, members: &[&str]| Summary {
        variant: "standard".into(),
        listed,
        master: master.into(),
        members: members.iter().map(|m| m.to_string()).collect(),
        ..Summary::default()
    };
    let mut tx = store.begin().await.unwrap();
    tx.confirm("gm@x.test", "a test", 1).await.unwrap();
    let games = [
        ("a-public", game("gm@x.test", true, &[])),
        ("b-unconfirmed", game("new@x.test", true, &[])),
        ("c-private", game("gm@x.test", false, &["p pat@x.test"])),
        ("d-keepers", game("keeper@x.test", true, &[])),
    ];
    for (name, summary) in &games {
        tx.save_game(name, "running", &state, summary, None, 1)
            .await
            .unwrap();
    }
    for i in 0..300 {
        let name = format!("e-unconfirmed-{i:03}");
        tx.save_game(
            &name,
            "running",
            &state,
            &game("x@y.test", true, &[]),
            None,
            1,
        )
        .await
        .unwrap();
    }
    let names = |rows: Vec<crate::store::Listed>| -> Vec<String> {
        rows.into_iter().map(|r| r.name).collect()
    };
    let stranger = tx
        .list_page(
            "",
            &["running"],
            "keeper@x.test",
            &["who@x.test".into()],
            50,
        )
        .await
        .unwrap();
    assert_eq!(names(stranger), ["a-public", "d-keepers"]);
    let readers = ["pat@x.test".to_string(), "NEW@x.test".to_string()];
    let members = tx
        .list_page("", &["running"], "keeper@x.test", &readers, 50)
        .await
        .unwrap();
    assert_eq!(
        names(members),
        ["a-public", "b-unconfirmed", "c-private", "d-keepers"]
    );
    tx.commit().await.unwrap();
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
