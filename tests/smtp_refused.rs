//! A mail the SMTP server refuses (issue 19, point 7): a 5xx, or a transient failure that
//! keeps coming back past herald's limit of tries, is marked failed and reported by mail to
//! the keeper and to the Master of the game where the address plays. A small SMTP server on
//! loopback refuses one address for good (550) and answers another "try later" (451)
//! every time; everyone else's mail is accepted and kept.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use herald::config::Config;
use herald::mail::maildir::Maildir;
use herald::mail::security::Security;
use herald::service::{Clock, Service, MAX_ATTEMPTS};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// The mails the server accepted: (recipient, the mail's text).
type Accepted = Arc<Mutex<Vec<(String, String)>>>;

/// A server on loopback: RCPT TO a `gone@` address is refused with 550, a `flaky@` one
/// with 451; other mails are accepted and kept.
async fn server() -> (u16, Accepted) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted: Accepted = Arc::default();
    let shared = accepted.clone();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let accepted = shared.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                let mut rcpt = String::new();
                write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
                while let Ok(Some(line)) = lines.next_line().await {
                    let upper = line.to_ascii_uppercase();
                    let answer: &[u8] = if upper.starts_with("EHLO") {
                        b"250-fake\r\n250 8BITMIME\r\n"
                    } else if upper.starts_with("RCPT") {
                        rcpt = line.clone();
                        if upper.contains("GONE@") {
                            b"550 5.1.1 <gone@example.org>: no such user here\r\n"
                        } else if upper.contains("FLAKY@") {
                            b"451 4.3.0 mailbox busy, try later\r\n"
                        } else {
                            b"250 ok\r\n"
                        }
                    } else if upper.starts_with("DATA") {
                        write.write_all(b"354 go on\r\n").await.unwrap();
                        let mut text = String::new();
                        while let Ok(Some(l)) = lines.next_line().await {
                            if l == "." {
                                break;
                            }
                            text.push_str(&l);
                            text.push('\n');
                        }
                        // Quoted-printable soft line breaks joined, as a reader sees the text.
                        let text = text.replace("=\n", "");
                        accepted.lock().unwrap().push((rcpt.clone(), text));
                        b"250 queued\r\n"
                    } else if upper.starts_with("QUIT") {
                        let _ = write.write_all(b"221 bye\r\n").await;
                        break;
                    } else {
                        b"250 ok\r\n"
                    };
                    if write.write_all(answer).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    (port, accepted)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_mail_is_reported_to_the_keeper_and_the_master() {
    let (port, accepted) = server().await;
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
    let answer = accepted.lock().unwrap()[0].1.clone();
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
        let raw = format!(
            "From: {from}\r\nTo: judge@herald.test\r\nSubject: s{i}\r\nMessage-ID: <r{i}@test>\r\n\r\n{body}"
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
    let got = accepted.lock().unwrap().clone();
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
