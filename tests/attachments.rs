//! Files sent with a mail (issue 16's pictures of the board, issue 17's calendar entries),
//! through the service as a keeper runs it: queued in a transaction, each file stored once
//! however many mails carry it, written to the outbox Maildir or sent over SMTP as
//! multipart/mixed with the text first, and read back by a mail reader byte for byte with
//! its type, disposition and file name.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::{DateTime, Duration, Utc};
use herald::config::{Config, OutboxKind};
use herald::envelope::{Attachment, Outgoing};
use herald::mail::maildir::Maildir;
use herald::service::Service;
use support::smtp::FakeSmtp;
use support::{to, SentFile, World};

/// A PNG's signature followed by every byte value (NUL, lone CR and LF among them).
fn png() -> Vec<u8> {
    b"\x89PNG\r\n\x1a\n"
        .iter()
        .copied()
        .chain((0..20_000u32).map(|i| (i * 31 % 256) as u8))
        .collect()
}

const ICS: &str = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//herald//EN\r\nEND:VCALENDAR\r\n";
const CALENDAR: &str = "text/calendar; charset=utf-8; method=PUBLISH";

fn mail(to: &str, attachments: Vec<Attachment>) -> Outgoing {
    Outgoing {
        to: to.into(),
        subject: "war: Spring 1901 results".into(),
        body: format!("Results for {to}.\n\nA Par - Bur\n"),
        in_reply_to: None,
        attachments,
    }
}

/// Ann gets the picture and the calendar, Bob the same picture (one buffer), Cat no file.
fn three_mails() -> (Vec<Outgoing>, Attachment, Attachment) {
    let board = Attachment::new("board.png", "image/png", png());
    let ics = Attachment::new("deadline.ics", CALENDAR, ICS.as_bytes().to_vec());
    let mails = vec![
        mail("ann@example.org", vec![board.clone(), ics.clone()]),
        mail("bob@example.org", vec![board.clone()]),
        mail("cat@example.org", Vec::new()),
    ];
    (mails, board, ics)
}

async fn queue(service: &Service, mails: &[Outgoing], now: DateTime<Utc>) {
    let mut tx = service.store.begin().await.unwrap();
    tx.queue_many(mails, now.timestamp()).await.unwrap();
    tx.commit().await.unwrap();
}

/// Rows in a table of the judge's database, read beside the running service.
async fn rows(dir: &std::path::Path, table: &str) -> i64 {
    let url = format!("sqlite://{}", dir.join("herald.db").display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let n = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    n
}

fn file(a: &Attachment) -> SentFile {
    SentFile {
        name: a.name.clone(),
        content_type: a.content_type.clone(),
        disposition: "attachment".into(),
        bytes: a.bytes.to_vec(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_arrive_byte_for_byte_with_their_names_and_types() {
    let mut w = World::new("attach-files").await;
    let (mails, board, ics) = three_mails();
    queue(&w.service, &mails, w.now).await;
    // The picture is stored once for Ann and Bob, the calendar once.
    assert_eq!(rows(&w.dir, "blobs").await, 2);
    assert_eq!(rows(&w.dir, "outbox_attachments").await, 3);

    let sent = w.wait(Duration::zero()).await;
    assert_eq!(sent.len(), 3);
    let ann = to(&sent, "ann@example.org");
    assert_eq!(ann.body, "Results for ann@example.org.\n\nA Par - Bur\n");
    assert_eq!(ann.attachments, [file(&board), file(&ics)]);
    assert!(
        ann.raw.contains("Content-Type: multipart/mixed;"),
        "{}",
        ann.raw
    );
    let bob = to(&sent, "bob@example.org");
    assert_eq!(bob.attachments, [file(&board)]);
    // A mail without files is the plain text mail it always was.
    let cat = to(&sent, "cat@example.org");
    assert!(cat.attachments.is_empty());
    assert!(
        cat.raw
            .contains("Content-Type: text/plain; charset=utf-8\r\n"),
        "{}",
        cat.raw
    );
    assert!(!cat.raw.contains("multipart"), "{}", cat.raw);
    assert_eq!(cat.body, "Results for cat@example.org.\n\nA Par - Bur\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_outbox_file_is_a_mail_a_reader_shows() {
    let w = World::new("attach-file").await;
    let (mails, _, _) = three_mails();
    queue(&w.service, &mails[..1], w.now).await;
    assert_eq!(w.service.deliver(w.now).await.unwrap(), 1);
    let outbox = Maildir::open(&w.dir.join("outbox")).unwrap();
    let paths = outbox.waiting().unwrap();
    assert_eq!(paths.len(), 1);
    let bytes = std::fs::read(&paths[0]).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    for line in text.split("\r\n") {
        assert!(line.len() <= 998, "a line of {} octets", line.len());
        assert!(
            !line.contains('\n') && !line.contains('\r'),
            "a bare line end"
        );
    }
    let head = text.split_once("\r\n\r\n").unwrap().0;
    for line in [
        "To: ann@example.org\r\n",
        "Auto-Submitted: auto-replied\r\n",
        "MIME-Version: 1.0\r\n",
        "Content-Type: multipart/mixed;",
    ] {
        assert!(head.contains(line), "{line:?} missing in {head}");
    }
    for part in [
        "Content-Type: image/png\r\nContent-Disposition: attachment; filename=\"board.png\"\r\nContent-Transfer-Encoding: base64\r\n",
        "Content-Disposition: attachment; filename=\"deadline.ics\"\r\nContent-Transfer-Encoding: base64\r\n",
    ] {
        assert!(text.contains(part), "{part:?} missing in {text}");
    }
    // The text comes first, then the files in their order.
    let at = |s: &str| text.find(s).unwrap();
    assert!(at("Content-Type: text/plain") < at("Content-Type: image/png"));
    assert!(at("Content-Type: image/png") < at("Content-Type: text/calendar"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_smtp_the_same_files_arrive() {
    let server = FakeSmtp::start().await;
    let port = server.port;
    let dir = std::env::temp_dir().join(format!("herald-it-attach-smtp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::default();
    config.storage.database = dir.join("herald.db");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.outbox.kind = OutboxKind::Smtp;
    config.smtp.host = "127.0.0.1".into();
    config.smtp.port = port;
    config.judge.address = "judge@herald.test".into();
    let service = Service::open(config).await.unwrap();
    let now = Utc::now();
    let (mails, board, ics) = three_mails();
    queue(&service, &mails, now).await;
    assert_eq!(service.deliver(now).await.unwrap(), 3);

    let got: Vec<Vec<u8>> = server.taken().into_iter().map(|t| t.data).collect();
    assert_eq!(got.len(), 3);
    let read: Vec<(String, Vec<SentFile>)> = got
        .iter()
        .map(|raw| {
            for line in raw.split(|b| *b == b'\n') {
                assert!(line.len() <= 999, "a line of {} octets", line.len());
            }
            let msg = mail_parser::MessageParser::default().parse(raw).unwrap();
            let to = msg.to().unwrap().first().unwrap().address().unwrap();
            (to.to_string(), support::files(&msg))
        })
        .collect();
    assert_eq!(
        read,
        [
            (
                "ann@example.org".to_string(),
                vec![file(&board), file(&ics)]
            ),
            ("bob@example.org".to_string(), vec![file(&board)]),
            ("cat@example.org".to_string(), vec![]),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
