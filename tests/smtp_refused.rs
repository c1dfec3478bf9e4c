//! A mail the SMTP server refuses (issue 19, point 7): a 5xx, or a transient failure that
//! keeps coming back past herald's limit of tries, is marked failed and reported by mail to
//! the keeper and to the Master of the game where the address plays. A small SMTP server on
//! loopback (tests/support/smtp.rs) refuses one address for good (550) and answers another "try later" (451)
//! every time; everyone else's mail is accepted and kept.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use chrono::{DateTime, Duration, Utc};
use herald::config::Config;
use herald::mail::maildir::Maildir;
use herald::mail::security::Security;
use herald::service::{Clock, Service, MAX_ATTEMPTS};

use crate::support::smtp::{FakeSmtp, Rules};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_mail_is_reported_to_the_keeper_and_the_master() {
    let server = FakeSmtp::with(Rules {
        refuse_addresses: true,
        ..Rules::default()
    })
    .await;
    let port = server.port;
    let accepted = || -> Vec<(String, String)> {
        server
            .taken()
            .into_iter()
            .map(|t| (t.rcpt.clone(), t.text()))
            .collect()
    };
    let dir = std::env::temp_dir().join(format!("herald-it-refused-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::default();
    config.storage.database = dir.join("herald.db");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.judge.address = "judge@herald.test".into();
    config.judge.keeper = "keeper@herald.test".into();
    config.outbox.kind = herald::config::OutboxKind::Smtp;
    config.smtp.host = "127.0.0.1".into();
    config.smtp.port = port;
    config.smtp.security = Security::None;
    config.smtp.retry_seconds = 1;
    let service = Service::open(config).await.unwrap();
    let inbox = Maildir::open(&dir.join("inbox")).unwrap();
    let mut now: DateTime<Utc> = "2026-12-01T10:00:00Z".parse().unwrap();
    // The Master creates the game and confirms the address as a person does, replying to
    // herald's answer (game mail, these reports included, goes only to addresses that
    // asked for it).
    let raw = "From: gm@example.org\r\nTo: judge@herald.test\r\nSubject: s0\r\nMessage-ID: <r0@test>\r\n\r\nCREATE ?rf gmpass\r\n";
    inbox.deliver(now.timestamp(), raw.as_bytes()).unwrap();
    service.poll_inbox(now).await.unwrap();
    service.deliver(now).await.unwrap();
    let answer = accepted()[0].1.clone();
    let subject = answer
        .lines()
        .find_map(|l| l.strip_prefix("Subject: "))
        .unwrap()
        .to_string();
    assert!(subject.contains("[confirm-"), "{answer}");
    let id = answer
        .lines()
        .find_map(|l| l.strip_prefix("Message-ID: "))
        .unwrap()
        .to_string();
    let raw = format!(
        "From: gm@example.org\r\nTo: judge@herald.test\r\nSubject: Re: {subject}\r\nMessage-ID: <rr@test>\r\nIn-Reply-To: {id}\r\n\r\n\r\n> quoted\r\n"
    );
    inbox.deliver(now.timestamp(), raw.as_bytes()).unwrap();
    service.poll_inbox(now).await.unwrap();
    let mails = [
        ("gone@example.org", "SIGNON ?rf pw1\n"),
        ("flaky@example.org", "SIGNON ?rf pw2\n"),
    ];
    for (i, (from, body)) in mails.iter().enumerate() {
        let i = i + 1;
        // The player's subject names what herald's own reports say ("Undeliverable Mail"):
        // herald's reply to it, refused for good, is reported all the same (issue 26: a
        // mail's kind was told from its subject text).
        let raw = format!(
            "From: {from}\r\nTo: judge@herald.test\r\nSubject: Undeliverable Mail {i}\r\nMessage-ID: <r{i}@test>\r\n\r\n{body}"
        );
        inbox.deliver(now.timestamp(), raw.as_bytes()).unwrap();
    }
    service.poll_inbox(now).await.unwrap();
    service.tick_at(now, Clock::Wall).await.unwrap();
    // The 550 is given up at once; the 451 is tried again and again, an hour apart at most.
    for _ in 0..MAX_ATTEMPTS + 2 {
        service.deliver(now).await.unwrap();
        now += Duration::hours(2);
    }
    let got = accepted();
    let to = |who: &str| -> Vec<&String> {
        got.iter()
            .filter(|(rcpt, _)| rcpt.contains(who))
            .map(|(_, text)| text)
            .collect()
    };
    assert!(to("gone@").is_empty() && to("flaky@").is_empty());
    let master: Vec<_> = to("gm@example.org")
        .into_iter()
        .filter(|t| t.contains("Undeliverable Mail"))
        .collect();
    assert_eq!(master.len(), 2, "{got:#?}");
    assert!(
        master
            .iter()
            .any(|t| t.contains(
                "herald's mail to gone@example.org (a player in 'rf') could not be delivered."
            ) && t.contains("(550): 5.1.1 <gone@example.org>: no such user here")),
        "{master:#?}"
    );
    assert!(
        master.iter().any(|t| t.contains("flaky@example.org")
            && t.contains(&format!("given up after {MAX_ATTEMPTS} tries"))),
        "{master:#?}"
    );
    let keeper = to("keeper@herald.test");
    assert_eq!(keeper.len(), 2, "{got:#?}");
    assert!(keeper
        .iter()
        .any(|t| t.contains("To: gone@example.org") || t.contains("gone@example.org")));
    std::fs::remove_dir_all(&dir).unwrap();
}
