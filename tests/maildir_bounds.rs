//! The Maildir reader is bounded (issue 24, point 1: "a mail's size is checked before it is
//! read; the reader never holds more than a bounded number of bytes"; "a 50 MB mail is read
//! whole (2.4 s, 290 MB) before being refused as too large"). A mail over `[inbox]
//! max_bytes` is answered from its headers alone: here one of a terabyte (a sparse file, no
//! disk used), which reading whole would not even fit in memory.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use support::{reply, World};

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terabyte_mail_is_refused_from_its_headers() {
    let mut w = World::new("maildir-huge").await;
    let new = w.dir.join("inbox").join("new");
    let huge = new.join("1.huge.eml");
    std::fs::write(
        &huge,
        "From: ann@example.org\r\nTo: judge@herald.test\r\nSubject: my orders\r\nMessage-ID: <huge@test>\r\n\r\nHELP\r\n",
    )
    .unwrap();
    std::fs::File::options()
        .write(true)
        .open(&huge)
        .unwrap()
        .set_len(1 << 40)
        .unwrap();
    // Bob's mail, read in the same round, is answered as ever.
    let sent = w.mail(BOB, "v", "VERSION\n").await;
    let r = reply(&sent, ANN);
    // Ann has not confirmed her address, so the answer also asks her to (issue 24, part 2).
    assert!(
        r.subject
            .starts_with("Re: my orders [Error Flag] [confirm-"),
        "{}",
        r.subject
    );
    assert!(
        r.body.contains(
            "Your mail is 1099511627776 bytes; herald reads mails of at most 262144 bytes, so it was not read."
        ),
        "{}",
        r.body
    );
    assert!(reply(&sent, BOB).body.contains("herald 0."));
    // Taken out of new/, never read again.
    assert_eq!(std::fs::read_dir(&new).unwrap().count(), 0);
    assert!(w.wait(chrono::Duration::minutes(1)).await.is_empty());
}
