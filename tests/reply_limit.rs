//! The hourly reply limit (`[limits] replies_per_hour`) is not silence: the first reply it
//! leaves out in an hour brings the player one notice saying so, and no more that hour
//! (issue 19, point 8).

// (An address that has not confirmed gets its answers but not this notice: see
// tests/asked_mail.rs.)

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{Sent, World};

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

/// The mails to `to`, by subject.
fn subjects(sent: &[Sent], to: &str) -> Vec<String> {
    sent.iter()
        .filter(|m| m.to == to)
        .map(|m| m.subject.clone())
        .collect()
}

/// `addresses` write to herald and confirm they want its mail, as a person does (a reply
/// to herald's answer), and the clock moves on an hour so that those replies no longer
/// count: herald sends the notice below only to an address that asked for its mail.
async fn confirmed(w: &mut World, addresses: &[&str]) {
    for a in addresses {
        let sent = w.mail(a, "hello", "VERSION\n").await;
        assert_eq!(w.confirm(a, &sent).await.len(), 1);
    }
    w.wait(Duration::minutes(61)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_past_the_hourly_limit_is_told_once_an_hour() {
    let mut w = World::new("reply-limit").await;
    confirmed(&mut w, &[ANN, BOB]).await;
    w.service.config.limits.replies_per_hour = 3;
    for i in 1..=3 {
        let sent = w.mail(ANN, &format!("v{i}"), "VERSION\n").await;
        assert_eq!(subjects(&sent, ANN), [format!("Re: v{i}")]);
    }

    // The fourth mail in the hour gets no reply, but a notice.
    let sent = w.mail(ANN, "v4", "VERSION\n").await;
    assert_eq!(subjects(&sent, ANN), ["Reply limit reached (3 an hour)"]);
    let notice = &sent[0];
    for words in [
        "herald has answered 3 of your mails in the last hour",
        "Your mails are still read and what they say is done",
        "at most once an hour",
    ] {
        assert!(
            notice.body.contains(words),
            "{words:?} in:\n{}",
            notice.body
        );
    }
    assert!(
        !notice.raw.contains("In-Reply-To:"),
        "the notice is no reply (it is not counted as one):\n{}",
        notice.raw
    );

    // More within the hour, one by one and together: nothing, not even another notice.
    let mut sent = w.mail(ANN, "v5", "VERSION\n").await;
    sent.extend(
        w.mails(&[(ANN, "v6", "VERSION\n"), (ANN, "v7", "VERSION\n")])
            .await,
    );
    assert_eq!(subjects(&sent, ANN), Vec::<String>::new());
    // Someone else is not held back.
    let sent = w.mail(BOB, "b1", "VERSION\n").await;
    assert_eq!(subjects(&sent, BOB), ["Re: b1"]);

    // An hour on, replies come again, and passing the limit again brings a new notice.
    w.wait(Duration::minutes(61)).await;
    let mut sent = Vec::new();
    for i in 8..=11 {
        sent.extend(w.mail(ANN, &format!("v{i}"), "VERSION\n").await);
    }
    assert_eq!(
        subjects(&sent, ANN),
        [
            "Re: v8",
            "Re: v9",
            "Re: v10",
            "Reply limit reached (3 an hour)"
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_past_the_limit_in_one_batch_brings_one_notice() {
    let mut w = World::new("reply-limit-batch").await;
    confirmed(&mut w, &[ANN]).await;
    w.service.config.limits.replies_per_hour = 2;
    let burst: Vec<(String, String)> = (1..=6)
        .map(|i| (format!("o{i}"), "VERSION\n".into()))
        .collect();
    let mails: Vec<(&str, &str, &str)> = burst
        .iter()
        .map(|(s, b)| (ANN, s.as_str(), b.as_str()))
        .collect();
    let sent = w.mails(&mails).await;
    assert_eq!(
        subjects(&sent, ANN),
        ["Re: o1", "Re: o2", "Reply limit reached (2 an hour)"]
    );
}
