//! A database that cannot be written for a while, under load, by the real daemon: herald's
//! database file and its write-ahead log are made immutable (`chattr +i`, as a full disk, a
//! read-only remount or an I/O error would do) while mail keeps arriving in its Maildir, then
//! writable again. herald must come back by itself and answer every mail exactly once, with
//! every mail, game and reply committed to the database; a mail is moved out of `new/` only
//! once its transaction committed.
//!
//! Needs root and a file system with the immutable attribute (ext4, xfs, btrfs), as CI has.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::support;

use herald::mail::maildir::Maildir;
use sqlx::{Connection, Row};
use support::World;

/// A connection of the test's own to a judge's database.
async fn open(db: &Path) -> sqlx::SqliteConnection {
    let options =
        sqlx::sqlite::SqliteConnectOptions::from_str(&format!("sqlite://{}", db.display()))
            .unwrap()
            .busy_timeout(Duration::from_secs(10));
    sqlx::SqliteConnection::connect_with(&options)
        .await
        .unwrap()
}

/// The database file and its write-ahead log, made immutable while alive and writable again
/// when dropped, even when the test fails on the way (so its directory can be removed).
struct Unwritable(Vec<PathBuf>);

impl Unwritable {
    fn new(db: &Path) -> Unwritable {
        let files = vec![
            db.to_path_buf(),
            PathBuf::from(format!("{}-wal", db.display())),
        ];
        for file in &files {
            assert!(file.exists(), "{} is not there", file.display());
            let out = Command::new("chattr").arg("+i").arg(file).output().unwrap();
            assert!(
                out.status.success(),
                "chattr +i {}: {} (this test needs root and a file system with the immutable \
                 attribute)",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Unwritable(files)
    }
}

impl Drop for Unwritable {
    fn drop(&mut self) {
        for file in &self.0 {
            let _ = Command::new("chattr").arg("-i").arg(file).status();
        }
    }
}

fn config(dir: &Path) -> PathBuf {
    let path = dir.join("herald.toml");
    let text = format!(
        r#"[judge]
address = "judge@herald.test"
[storage]
database = "{dir}/herald.db"
[inbox]
poll_seconds = 1
maildir = "{dir}/inbox"
[outbox]
maildir = "{dir}/outbox"
# The load is 700 CREATEs in a few seconds: the judge-wide cap on CREATE (issue 36) lifted.
[limits]
creates_per_hour = 100000
"#,
        dir = dir.display(),
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn spawn(config: &Path, log: &Path) -> Child {
    let log = std::fs::File::create(log).unwrap();
    Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["run", "--config", config.to_str().unwrap()])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("herald starts")
}

/// Waits for `done` to hold, looking every 200 ms, for at most `within`.
fn wait_for(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + within;
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    done()
}

/// Every reply herald wrote so far, by the Message-ID it answers: (file name, body) of each.
fn replies(outbox: &Path) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for sub in ["new", "cur"] {
        for entry in std::fs::read_dir(outbox.join(sub)).unwrap() {
            let entry = entry.unwrap();
            let bytes = std::fs::read(entry.path()).unwrap();
            let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
            let answers = msg.in_reply_to().as_text().unwrap_or("").to_string();
            let body = msg.body_text(0).unwrap_or_default().to_string();
            let name = entry.file_name().to_string_lossy().into_owned();
            out.entry(answers).or_default().push((name, body));
        }
    }
    out
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

/// Mail `i`: a player creating a game of their own, so that handling it twice would be
/// seen (the second CREATE is answered "there is already a game").
fn mail(i: usize) -> (String, String) {
    let id = format!("fault{i}@players.test");
    let raw = format!(
        "From: p{i}@players.test\r\nTo: judge@herald.test\r\nSubject: new game {i}\r\n\
         Message-ID: <{id}>\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\n\r\nCREATE ?f{i} pw{i}\r\n"
    );
    (id, raw)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_unwritable_for_a_while_under_load_loses_no_mail_and_doubles_none() {
    let dir = std::env::temp_dir().join(format!("herald-dbfault-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = config(&dir);
    let db = dir.join("herald.db");
    let log = dir.join("herald.log");
    let inbox = Maildir::open(&dir.join("inbox")).unwrap();
    let mut herald = spawn(&config, &log);
    let show_log = || std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        wait_for(Duration::from_secs(60), || PathBuf::from(format!(
            "{}-wal",
            db.display()
        ))
        .exists()),
        "herald did not open its database: {}",
        show_log()
    );

    // Mail arrives steadily: some before the fault, all through it, some after.
    let mut ids = Vec::new();
    let deliver = |n: usize, ids: &mut Vec<String>| {
        for _ in 0..n {
            let (id, raw) = mail(ids.len());
            inbox.deliver(0, raw.as_bytes()).unwrap();
            ids.push(id);
        }
    };
    for _ in 0..10 {
        deliver(10, &mut ids);
        std::thread::sleep(Duration::from_millis(200));
    }
    {
        let _fault = Unwritable::new(&db);
        for _ in 0..100 {
            deliver(5, &mut ids);
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    for _ in 0..10 {
        deliver(10, &mut ids);
        std::thread::sleep(Duration::from_millis(200));
    }
    let sent = ids.len();

    // herald comes back by itself: every mail is answered, without a restart.
    let outbox = dir.join("outbox");
    let answered = wait_for(Duration::from_secs(240), || {
        let got = replies(&outbox);
        ids.iter().all(|id| got.contains_key(id)) && files_in(&dir.join("inbox/new")) == 0
    });
    let got = replies(&outbox);
    let missing: Vec<&String> = ids.iter().filter(|id| !got.contains_key(*id)).collect();
    assert!(
        answered,
        "{} of {sent} mails unanswered (e.g. {:?}), {} left in new/, after the database was \
         writable again; log:\n{}",
        missing.len(),
        missing.iter().take(5).collect::<Vec<_>>(),
        files_in(&dir.join("inbox/new")),
        show_log()
    );
    // A few more rounds, in which nothing may be sent again.
    std::thread::sleep(Duration::from_secs(3));
    let _ = Command::new("kill")
        .arg(herald.id().to_string())
        .status()
        .unwrap();
    let stopped = wait_for(Duration::from_secs(60), || {
        herald.try_wait().unwrap().is_some()
    });
    if !stopped {
        let _ = herald.kill();
    }
    let _ = herald.wait();
    assert!(
        stopped,
        "herald did not stop on SIGTERM; log:\n{}",
        show_log()
    );

    // Each mail answered exactly once, as a first CREATE.
    let got = replies(&outbox);
    let wanted: BTreeSet<&String> = ids.iter().collect();
    for (answers, list) in &got {
        assert!(
            wanted.contains(answers),
            "a reply to an unknown mail {answers:?}: {list:?}"
        );
        assert_eq!(list.len(), 1, "{answers} answered {} times", list.len());
        let body = &list[0].1;
        assert!(
            body.contains("created") && !body.contains("already a game"),
            "{answers}: {body}"
        );
    }
    assert_eq!(got.len(), sent, "replies");
    assert_eq!(files_in(&dir.join("inbox/new")), 0);
    assert_eq!(files_in(&dir.join("inbox/cur")), sent);

    // ... and everything is in the database, committed: each mail, each game, each reply
    // queued once and recorded as sent.
    let mut conn = open(&db).await;
    let recorded: BTreeSet<String> = sqlx::query("SELECT message_id FROM mails")
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<String, _>(0))
        .collect();
    let unrecorded: Vec<&&String> = wanted
        .iter()
        .filter(|id| !recorded.contains(id.as_str()))
        .collect();
    assert!(
        unrecorded.is_empty(),
        "{} of {sent} answered mails are not in the database (e.g. {:?})",
        unrecorded.len(),
        unrecorded.iter().take(5).collect::<Vec<_>>()
    );
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(games as usize, sent, "games in the database");
    let (queued, unsent): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), COUNT(*) FILTER (WHERE sent IS NULL) FROM outbox")
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert_eq!(
        (queued as usize, unsent),
        (sent, 0),
        "outbox rows, and those not recorded as sent"
    );
    conn.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A mail that went out but could not be recorded as sent (the database refusing that one
/// write, through a trigger) is recorded once the database takes it, and is not sent again
/// meanwhile: a second sending would be a second attempt. (herald used to send it again at
/// every round until the record went through: over SMTP, a copy each time.)
#[tokio::test]
async fn a_mail_sent_whose_record_failed_is_recorded_later_not_sent_again() {
    let mut w = World::new("unrecorded").await;
    let db = w.dir.join("herald.db");
    let mut conn = open(&db).await;
    sqlx::query(
        "CREATE TRIGGER refuse_sent BEFORE UPDATE OF sent ON outbox \
         BEGIN SELECT RAISE(ABORT, 'the disk is full'); END",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let (id, raw) = mail(1);
    Maildir::open(&w.dir.join("inbox"))
        .unwrap()
        .deliver(0, raw.as_bytes())
        .unwrap();
    assert_eq!(w.service.poll_inbox(w.now).await.unwrap(), 1);
    // Written to the outbox, not recorded; then rounds later, the record still refused.
    for _ in 0..3 {
        let sent = w.service.deliver(w.now).await;
        assert!(sent.is_err(), "{sent:?}");
        w.now += chrono::Duration::hours(1);
    }
    sqlx::query("DROP TRIGGER refuse_sent")
        .execute(&mut conn)
        .await
        .unwrap();
    assert_eq!(
        w.service.deliver(w.now).await.unwrap(),
        0,
        "the mail was sent again"
    );
    let (attempts, sent): (i64, Option<i64>) = sqlx::query_as("SELECT attempts, sent FROM outbox")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(attempts, 1, "the mail was sent again");
    assert!(sent.is_some(), "the mail is not recorded as sent");
    let got = replies(&w.dir.join("outbox"));
    assert_eq!(got.len(), 1);
    assert_eq!(got[&id].len(), 1);
    conn.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&w.dir);
}
