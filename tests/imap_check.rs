//! `[imap] check_ms`: herald asks its IMAP server for news with NOOP instead of waiting to be
//! told in IDLE. Dovecot 2.3 tells an IDLE client of new mail 500 ms after it lands (most of
//! the 562 ms a reply took, issue 19, point 6), while a NOOP sees it at once. The server here
//! is a small one on loopback that, like Dovecot in those 500 ms, tells nothing in IDLE and
//! reports new mail on NOOP; herald's daemon waits an hour between rounds otherwise, so it
//! answers the mail only if it asks.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use herald::config::{Config, InboxKind};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// The mailbox: each mail's bytes and whether it is flagged \Seen; the commands heard.
#[derive(Debug, Default)]
struct Mailbox {
    mails: Vec<(Vec<u8>, bool)>,
    heard: Vec<String>,
}

/// An IMAP server speaking just what herald uses, on loopback; returns its port.
async fn server(mailbox: Arc<Mutex<Mailbox>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let mailbox = mailbox.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut read = BufReader::new(read);
                write.write_all(b"* OK fake IMAP ready\r\n").await.unwrap();
                // How many mails this session was told of.
                let mut told = 0;
                let mut line = String::new();
                loop {
                    line.clear();
                    if read.read_line(&mut line).await.unwrap_or(0) == 0 {
                        break;
                    }
                    let mut words = line.trim_end().splitn(3, ' ');
                    let tag = words.next().unwrap_or("").to_string();
                    let verb = words.next().unwrap_or("").to_ascii_uppercase();
                    let rest = words.next().unwrap_or("").to_string();
                    mailbox.lock().unwrap().heard.push(verb.clone());
                    let mut out = Vec::new();
                    match verb.as_str() {
                        "CAPABILITY" => out.extend(b"* CAPABILITY IMAP4rev1 IDLE\r\n"),
                        "SELECT" => {
                            told = mailbox.lock().unwrap().mails.len();
                            out.extend(format!(
                                "* FLAGS (\\Seen)\r\n* {told} EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 1] ok\r\n* OK [UIDNEXT {}] ok\r\n",
                                told + 1
                            ).as_bytes());
                        }
                        "NOOP" => {
                            let now = mailbox.lock().unwrap().mails.len();
                            if now != told {
                                told = now;
                                out.extend(format!("* {now} EXISTS\r\n").as_bytes());
                            }
                        }
                        "IDLE" => {
                            // Nothing is told while idling: the client must end it.
                            write.write_all(b"+ idling\r\n").await.unwrap();
                            let mut done = String::new();
                            if read.read_line(&mut done).await.unwrap_or(0) == 0 {
                                break;
                            }
                        }
                        "UID" => {
                            let box_ = mailbox.lock().unwrap();
                            let upper = rest.to_ascii_uppercase();
                            if upper.starts_with("SEARCH") {
                                let unseen: Vec<String> = box_
                                    .mails
                                    .iter()
                                    .enumerate()
                                    .filter(|(_, (_, seen))| !seen)
                                    .map(|(i, _)| (i + 1).to_string())
                                    .collect();
                                out.extend(format!("* SEARCH {}\r\n", unseen.join(" ")).as_bytes());
                            } else if upper.starts_with("FETCH") {
                                let set = rest.split(' ').nth(1).unwrap_or("");
                                for uid in set.split(',').filter_map(|u| u.parse::<usize>().ok()) {
                                    let bytes = &box_.mails[uid - 1].0;
                                    out.extend(
                                        format!(
                                            "* {uid} FETCH (UID {uid} BODY[] {{{}}}\r\n",
                                            bytes.len()
                                        )
                                        .as_bytes(),
                                    );
                                    out.extend(bytes);
                                    out.extend(b")\r\n");
                                }
                            } else if upper.starts_with("STORE") {
                                drop(box_);
                                let set = rest.split(' ').nth(1).unwrap_or("").to_string();
                                let mut box_ = mailbox.lock().unwrap();
                                for uid in set.split(',').filter_map(|u| u.parse::<usize>().ok()) {
                                    box_.mails[uid - 1].1 = true;
                                }
                            }
                        }
                        "LOGOUT" => {
                            let _ = write
                                .write_all(format!("* BYE\r\n{tag} OK bye\r\n").as_bytes())
                                .await;
                            break;
                        }
                        _ => {}
                    }
                    out.extend(format!("{tag} OK done\r\n").as_bytes());
                    if write.write_all(&out).await.is_err() {
                        break;
                    }
                }
                let mut rest = Vec::new();
                let _ = read.read_to_end(&mut rest).await;
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_check_ms_herald_asks_for_new_mail_and_answers_it() {
    let mailbox = Arc::new(Mutex::new(Mailbox::default()));
    let port = server(mailbox.clone()).await;
    let dir = std::env::temp_dir().join(format!("herald-imapcheck-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut config = Config::default();
    config.storage.database = dir.join("herald.db");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.judge.address = "judge@herald.test".into();
    config.inbox.kind = InboxKind::Imap;
    config.inbox.poll_seconds = 3600;
    config.imap.port = port;
    config.imap.user = "judge".into();
    config.imap.password = "judgepw".into();
    config.imap.check_ms = 50;
    let service = Arc::new(herald::service::Service::open(config).await.unwrap());
    let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let daemon = {
        let service = service.clone();
        tokio::spawn(async move {
            herald::daemon::run(&service, async {
                let _ = stop_rx.await;
            })
            .await
        })
    };

    // The daemon has read the empty mailbox and waits; then a mail lands.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !mailbox
        .lock()
        .unwrap()
        .heard
        .iter()
        .any(|v| v == "NOOP" || v == "IDLE")
    {
        assert!(Instant::now() < deadline, "the daemon never began to wait");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    mailbox.lock().unwrap().mails.push((
        b"From: ann@example.org\r\nTo: judge@herald.test\r\nSubject: version\r\nMessage-ID: <c1@example.org>\r\n\r\nVERSION\r\n".to_vec(),
        false,
    ));

    // It is handled (flagged \Seen) and answered, long before the hour between rounds.
    let outbox = dir.join("outbox/new");
    loop {
        let seen = mailbox.lock().unwrap().mails[0].1;
        let answered = std::fs::read_dir(&outbox).map(|d| d.count()).unwrap_or(0);
        if seen && answered == 1 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the mail was not handled: herald did not ask for news ({:?})",
            mailbox.lock().unwrap().heard
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let heard = mailbox.lock().unwrap().heard.clone();
    assert!(!heard.iter().any(|v| v == "IDLE"), "{heard:?}");
    let _ = stop.send(());
    daemon.await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
