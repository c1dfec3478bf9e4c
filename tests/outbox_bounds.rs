//! The outbox is bounded (issue 24, point 1): "a mail whose reply cannot be rendered is
//! marked failed with its reason, never retried forever", and "The database keeps every
//! outbox body forever (one mail added 400 MB)": the text and files of a mail sent or failed
//! `[limits] keep_outbox_days` (30) ago are dropped, its row kept.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use herald::envelope::Outgoing;
use support::World;

const ANN: &str = "ann@example.org";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_too_large_to_send_is_failed_with_its_reason_once() {
    let mut w = World::new("outbox-too-large").await;
    w.service.config.limits.send_bytes = 10_000;
    let ts = w.now.timestamp();
    let mut tx = w.service.store.begin().await.unwrap();
    let big = Outgoing {
        to: ANN.into(),
        subject: "Results".into(),
        body: "x\n".repeat(10_000),
        in_reply_to: None,
        attachments: Vec::new(),
    };
    tx.queue(&big, ts).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(w.service.deliver(w.now).await.unwrap(), 0);
    let rows = w.service.store.outbox_rows().await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].failed.as_deref(),
        Some("the mail is 20000 bytes, text and files; herald sends mails of at most 10000 bytes")
    );
    assert_eq!(rows[0].sent, None);
    // Not tried again, at the next round or a day later.
    assert!(w.wait(Duration::minutes(1)).await.is_empty());
    assert!(w.wait(Duration::days(1)).await.is_empty());
    assert!(w
        .service
        .store
        .unsent(w.now.timestamp(), 10)
        .await
        .unwrap()
        .is_empty());
}

/// A mail keeps its files only until it is sent (issue 38, point 3: "the mail keeps what it
/// sent only until sent"; issue 36: a game of one-minute phases stored 260 MB of pictures in
/// a simulated day); its text until `keep_outbox_days` (30) after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_outbox_drops_files_once_sent_and_text_thirty_days_after() {
    let mut w = World::new("outbox-prune").await;
    // Ann has confirmed (an answer to an address that has not carries no picture).
    let mut tx = w.service.store.begin().await.unwrap();
    tx.confirm(ANN, "in this test", w.now.timestamp())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    // A reply with a picture (the opening of the standard map): its text and its file.
    let sent = w.mail(ANN, "map", "GET MAP standard\n").await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].attachments.len(), 1);
    // A minute on, the mail went: its file is gone from the database, its text kept.
    w.wait(Duration::minutes(1)).await;
    let rows = w.service.store.outbox_rows().await.unwrap();
    assert_eq!(rows.len(), 1);
    assert!(rows[0].sent.is_some());
    assert!(rows[0].body_bytes > 0 && rows[0].pruned.is_none());
    assert_eq!(rows[0].attachments, 0);
    assert_eq!(w.service.store.blob_count().await.unwrap(), 0);
    // Twenty days on, the same picture again, drawn anew, in another mail; it goes too.
    w.wait(Duration::days(20)).await;
    let sent = w.mail(ANN, "map again", "GET MAP standard\n").await;
    assert_eq!(sent[0].attachments.len(), 1);
    w.wait(Duration::minutes(1)).await;
    assert_eq!(w.service.store.blob_count().await.unwrap(), 0);
    // Day 29: every text kept.
    w.wait(Duration::days(9)).await;
    let rows = w.service.store.outbox_rows().await.unwrap();
    assert!(rows.iter().all(|r| r.pruned.is_none() && r.body_bytes > 0));
    // Day 31: the first mail's text is dropped, its row kept; the second's stays.
    w.wait(Duration::days(2)).await;
    let rows = w.service.store.outbox_rows().await.unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].body_bytes, rows[0].attachments), (0, 0));
    assert_eq!(rows[0].pruned, Some(w.now.timestamp()));
    assert!(rows[0].sent.is_some());
    assert!(rows[1].pruned.is_none() && rows[1].body_bytes > 0);
    // Day 51: the second mail's text too.
    w.wait(Duration::days(20)).await;
    let rows = w.service.store.outbox_rows().await.unwrap();
    assert!(rows
        .iter()
        .all(|r| r.pruned.is_some() && r.body_bytes == 0 && r.attachments == 0));
}
