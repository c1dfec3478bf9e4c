//! Servers that stall (issue 24, part 5): "Timeouts on every IMAP and SMTP operation;
//! reading, deadlines and sending never wait on each other (a stalled mailbox does not delay
//! results; a stalled SMTP server costs one timeout per round, not one per mail); a login
//! refused (535) or any configuration fault keeps the mail queued, tells the keeper by a
//! route that does not need the same server (the log and a file), and retries".
//!
//! Small servers on loopback play the misbehaving ones: one that accepts and never says a
//! word, an SMTP server that refuses herald's login until told otherwise, an IMAP server that
//! counts the bytes it hands out. Nothing here is timed: each test waits for an event (a
//! mail written, a connection accepted) with only a generous overall limit.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use herald::config::{Config, InboxKind, OutboxKind};
use herald::mail::maildir::Maildir;
use herald::mail::security::Security;
use herald::service::Service;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use support::smtp::{FakeSmtp, Rules};

/// The overall limit on waiting for an event: generous, never the thing tested.
const PATIENCE: Duration = Duration::from_secs(90);

/// A fresh directory for one test.
fn dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("herald-stall-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Maildir in and out, in `dir`.
fn config(dir: &Path) -> Config {
    let mut config = Config::default();
    config.storage.database = dir.join("herald.db");
    config.storage.attention_file = dir.join("attention.txt");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.inbox.poll_seconds = 1;
    config.judge.address = "judge@herald.test".into();
    config.judge.keeper = "keeper@herald.test".into();
    config.timing.early_delay = "0m".into();
    config
}

/// A server that accepts connections and never sends a byte; counts what it accepted.
async fn silent_server() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            held.push(stream);
        }
    });
    (port, accepted)
}

/// Waits until `done` holds, checking every 50 ms, at most [`PATIENCE`].
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let end = tokio::time::Instant::now() + PATIENCE;
    while !done() {
        assert!(tokio::time::Instant::now() < end, "never happened: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The texts of the files in a Maildir outbox.
fn written(outbox: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        if let Ok(entries) = std::fs::read_dir(outbox.join(sub)) {
            for e in entries.flatten() {
                out.push(String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned());
            }
        }
    }
    out
}

/// A raw mail.
fn mail(from: &str, subject: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: judge@herald.test\r\nSubject: {subject}\r\nMessage-ID: <{id}@test>\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

/// herald's daemon on `service` until the returned sender is used.
fn daemon(
    service: Arc<Service>,
) -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        herald::daemon::run(&service, async {
            let _ = stop_rx.await;
        })
        .await
    });
    (stop, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_imap_server_does_not_hold_up_a_deadlines_results() {
    // A game whose seven powers all ordered an hour ago (early processing, no delay): due as
    // soon as a sweep looks. Set up over the Maildir inbox, without a sweep.
    let dir = dir("imap");
    let t0 = Utc::now() - chrono::Duration::hours(1);
    {
        let service = Service::open(config(&dir)).await.unwrap();
        let mut n = 0;
        let mut send = |from: &str, body: String| {
            n += 1;
            mail(from, "s", &format!("g{n}"), &body)
        };
        let mut mails = vec![send("gm@example.org", "CREATE ?stall gmpass\n".into())];
        for (addr, letter) in support::SEVEN {
            mails.push(send(
                addr,
                format!("SIGNON ?stall pw{letter}\nSET PREFERENCE {letter}\n"),
            ));
        }
        mails.push(send(
            "gm@example.org",
            "SIGNON Mstall gmpass\nSTART\n".into(),
        ));
        for (addr, letter) in support::SEVEN {
            mails.push(send(
                addr,
                format!(
                    "SIGNON {letter}stall pw{letter}\n{}\n",
                    support::holds(letter)
                ),
            ));
        }
        for raw in &mails {
            service.ingest(raw, t0).await.unwrap();
        }
        // The Master and players confirmed their addresses long ago (game mail goes only
        // to addresses that asked for it): this test is about the IMAP server alone.
        let mut tx = service.store.begin().await.unwrap();
        for addr in std::iter::once("gm@example.org").chain(support::SEVEN.map(|(a, _)| a)) {
            tx.confirm(addr, "a reply", t0.timestamp()).await.unwrap();
        }
        tx.commit().await.unwrap();
    }
    // The inbox is now an IMAP server that accepts and never answers, with a timeout far
    // longer than this test waits: only a sweep that does not wait for reading can send.
    let (port, accepted) = silent_server().await;
    let mut c = config(&dir);
    c.inbox.kind = InboxKind::Imap;
    c.imap.port = port;
    c.imap.user = "judge".into();
    c.imap.password = "pw".into();
    c.imap.timeout_seconds = 3600;
    let service = Arc::new(Service::open(c).await.unwrap());
    let (stop, task) = daemon(service);
    let outbox = dir.join("outbox");
    until("the results are written", || {
        written(&outbox)
            .iter()
            .any(|m| m.contains("Results of S1901M in 'stall'"))
    })
    .await;
    assert!(
        accepted.load(Ordering::SeqCst) >= 1,
        "the reader was connected (and waiting) all along"
    );
    stop.send(()).unwrap();
    task.await.unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imap_server_that_never_answers_costs_one_timeout_and_the_keeper_is_told() {
    let dir = dir("imap-timeout");
    let (port, accepted) = silent_server().await;
    let mut c = config(&dir);
    c.inbox.kind = InboxKind::Imap;
    c.imap.port = port;
    c.imap.user = "judge".into();
    c.imap.password = "pw".into();
    c.imap.timeout_seconds = 1;
    let service = Service::open(c).await.unwrap();
    // Each look at the inbox ends, with why, after one connection: no operation waits
    // for ever.
    for round in 1..=2 {
        let err = tokio::time::timeout(PATIENCE, service.poll_inbox(Utc::now()))
            .await
            .expect("a look at the inbox ends")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("reading the greeting") && err.contains("no answer within 1 s"),
            "{err}"
        );
        assert_eq!(accepted.load(Ordering::SeqCst), round);
    }
    let told = std::fs::read_to_string(dir.join("attention.txt")).unwrap();
    assert!(
        told.contains("herald cannot go on reading") && told.contains("no answer within 1 s"),
        "{told}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_smtp_server_does_not_hold_up_reading() {
    let dir = dir("smtp-read");
    let (port, accepted) = silent_server().await;
    let mut c = config(&dir);
    c.outbox.kind = OutboxKind::Smtp;
    c.smtp.port = port;
    c.smtp.security = Security::None;
    // Far longer than this test waits: reading must not wait for sending at all.
    c.smtp.timeout_seconds = 3600;
    let service = Arc::new(Service::open(c).await.unwrap());
    let inbox = Maildir::open(&dir.join("inbox")).unwrap();
    let now = Utc::now().timestamp();
    for i in 0..5 {
        let raw = mail(
            &format!("p{i}@example.org"),
            "help",
            &format!("h{i}"),
            "HELP",
        );
        inbox.deliver(now, &raw).unwrap();
    }
    let (stop, task) = daemon(service.clone());
    // The sender is stuck in the silent server's greeting with five replies queued...
    until("the sender connects", || {
        accepted.load(Ordering::SeqCst) >= 1
    })
    .await;
    // ...and a new mail is still read and answered (its reply queued) meanwhile.
    inbox
        .deliver(now, &mail("late@example.org", "help", "late", "HELP"))
        .unwrap();
    let end = tokio::time::Instant::now() + PATIENCE;
    while service.store.outbox_count().await.unwrap() < 6 {
        assert!(
            tokio::time::Instant::now() < end,
            "the late mail was never read"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        accepted.load(Ordering::SeqCst),
        1,
        "still the one stalled connection"
    );
    stop.send(()).unwrap();
    task.await.unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Queues one reply for each of `n` mails, through `service`.
async fn queue_replies(service: &Service, n: usize, now: DateTime<Utc>) {
    for i in 0..n {
        let raw = mail(
            &format!("p{i}@example.org"),
            "help",
            &format!("q{i}"),
            "HELP",
        );
        service.ingest(&raw, now).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_smtp_server_costs_one_timeout_a_round_not_one_a_mail() {
    let dir = dir("smtp-round");
    let (port, accepted) = silent_server().await;
    let mut c = config(&dir);
    c.outbox.kind = OutboxKind::Smtp;
    c.smtp.port = port;
    c.smtp.timeout_seconds = 1;
    let service = Service::open(c).await.unwrap();
    let now = Utc::now();
    queue_replies(&service, 20, now).await;
    let round = tokio::time::timeout(PATIENCE, service.deliver(now))
        .await
        .expect("a round of sending ends");
    assert!(
        round
            .unwrap_err()
            .to_string()
            .contains("the SMTP server cannot take mail now"),
        "the round says why it stopped"
    );
    // One connection waited for (one timeout), not twenty; every mail still due, untried.
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
    let due = service.store.unsent(now.timestamp(), 100).await.unwrap();
    assert_eq!(due.len(), 20);
    for (id, _) in &due {
        assert_eq!(service.store.attempts(*id).await.unwrap(), 0);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

static LOG: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct LogWriter;

impl std::io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        LOG.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_login_keeps_the_mail_queued_tells_the_keeper_and_sends_once_put_right() {
    // The log of this test's thread only: the tests of many files share this process, and
    // the runtime's work that logs here runs on this thread (the test's own future).
    let _log = tracing::subscriber::set_default(
        tracing_subscriber::fmt()
            .with_writer(|| LogWriter)
            .with_ansi(false)
            .finish(),
    );
    let dir = dir("smtp-535");
    let refuse = Arc::new(AtomicBool::new(true));
    let server = FakeSmtp::with(Rules {
        login: Some(refuse.clone()),
        ..Rules::default()
    })
    .await;
    let port = server.port;
    let taken = || -> Vec<String> { server.taken().into_iter().map(|t| t.rcpt).collect() };
    let mut c = config(&dir);
    c.outbox.kind = OutboxKind::Smtp;
    c.smtp.port = port;
    c.smtp.user = "judge".into();
    c.smtp.password = "changed".into();
    let attention = c.storage.attention_file.clone();
    let service = Service::open(c).await.unwrap();
    let now = Utc::now();
    queue_replies(&service, 3, now).await;
    // A changed password: every round ends at the login, and nothing is given up.
    for _ in 0..3 {
        let err = service.deliver(now).await.unwrap_err().to_string();
        assert!(err.contains("535"), "{err}");
    }
    assert!(taken().is_empty());
    let due = service.store.unsent(now.timestamp(), 100).await.unwrap();
    assert_eq!(due.len(), 3, "every reply still queued, none failed");
    // The keeper is told without mail: in the attention file and in the log.
    let told = std::fs::read_to_string(&attention).expect("the attention file is written");
    assert!(
        told.contains("herald cannot go on sending") && told.contains("535"),
        "{told}"
    );
    let log = String::from_utf8_lossy(&LOG.lock().unwrap()).into_owned();
    assert!(
        log.contains("the keeper must put this right") && log.contains("535"),
        "{log}"
    );
    // Put right: the next round sends every reply, once, and the file goes.
    refuse.store(false, Ordering::SeqCst);
    assert_eq!(service.deliver(now).await.unwrap(), 3);
    assert_eq!(service.deliver(now).await.unwrap(), 0);
    let mut got = taken();
    got.sort();
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got.iter().all(|r| r.contains("@example.org")), "{got:?}");
    assert!(
        !attention.exists(),
        "the attention file goes once mail goes out"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What the fake IMAP server handed out: for each FETCH of bodies, the bytes it sent.
#[derive(Debug, Default)]
struct Handed {
    /// Bytes of mail sent in answer to each FETCH of bodies.
    batches: Vec<usize>,
    /// The UIDs flagged \Seen.
    seen: Vec<u32>,
}

/// An IMAP server that speaks just enough for herald: LOGIN, CAPABILITY (no IDLE), SELECT,
/// UID SEARCH UNSEEN, UID FETCH of sizes and of (partial) bodies, UID STORE, NOOP, LOGOUT.
async fn imap_server(mails: Vec<Vec<u8>>) -> (u16, Arc<Mutex<Handed>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let handed: Arc<Mutex<Handed>> = Arc::default();
    let shared = handed.clone();
    let mails = Arc::new(mails);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (handed, mails) = (shared.clone(), mails.clone());
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut read = BufReader::new(read);
                let _ = write.write_all(b"* OK fake IMAP ready\r\n").await;
                loop {
                    let mut line = String::new();
                    if read.read_line(&mut line).await.unwrap_or(0) == 0 {
                        break;
                    }
                    let line = line.trim_end().to_string();
                    let (tag, rest) = line.split_once(' ').unwrap_or((&line, ""));
                    let upper = rest.to_ascii_uppercase();
                    let mut out: Vec<u8> = Vec::new();
                    if upper.starts_with("CAPABILITY") {
                        out.extend_from_slice(b"* CAPABILITY IMAP4rev1\r\n");
                    } else if upper.starts_with("SELECT") {
                        out.extend(
                            format!("* {} EXISTS\r\n* FLAGS (\\Seen)\r\n", mails.len()).bytes(),
                        );
                    } else if upper.starts_with("UID SEARCH") {
                        let seen = handed.lock().unwrap().seen.clone();
                        let unseen: Vec<String> = (1..=mails.len() as u32)
                            .filter(|u| !seen.contains(u))
                            .map(|u| u.to_string())
                            .collect();
                        out.extend(format!("* SEARCH {}\r\n", unseen.join(" ")).bytes());
                    } else if upper.starts_with("UID FETCH") {
                        let words: Vec<&str> = rest.splitn(4, ' ').collect();
                        let uids: Vec<u32> =
                            words[2].split(',').map(|u| u.parse().unwrap()).collect();
                        let what = words[3].to_ascii_uppercase();
                        let mut bytes = 0;
                        for uid in uids {
                            let m = &mails[uid as usize - 1];
                            if what.contains("RFC822.SIZE") {
                                out.extend(
                                    format!(
                                        "* {uid} FETCH (UID {uid} RFC822.SIZE {})\r\n",
                                        m.len()
                                    )
                                    .bytes(),
                                );
                                continue;
                            }
                            // BODY.PEEK[] or BODY.PEEK[]<0.n>
                            let (name, part) = match what.split_once("<0.") {
                                Some((_, n)) => {
                                    let n: usize = n.trim_end_matches(">)").parse().unwrap();
                                    ("BODY[]<0>", &m[..n.min(m.len())])
                                }
                                None => ("BODY[]", &m[..]),
                            };
                            bytes += part.len();
                            out.extend(
                                format!("* {uid} FETCH (UID {uid} {name} {{{}}}\r\n", part.len())
                                    .bytes(),
                            );
                            out.extend_from_slice(part);
                            out.extend_from_slice(b")\r\n");
                        }
                        if !what.contains("RFC822.SIZE") {
                            handed.lock().unwrap().batches.push(bytes);
                        }
                    } else if upper.starts_with("UID STORE") {
                        let set = rest.split(' ').nth(2).unwrap();
                        let mut h = handed.lock().unwrap();
                        h.seen
                            .extend(set.split(',').map(|u| u.parse::<u32>().unwrap()));
                    } else if upper.starts_with("LOGOUT") {
                        let _ = write
                            .write_all(format!("* BYE\r\n{tag} OK bye\r\n").as_bytes())
                            .await;
                        break;
                    }
                    out.extend(format!("{tag} OK done\r\n").bytes());
                    if write.write_all(&out).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    (port, handed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imap_mail_over_max_bytes_is_not_downloaded_and_batches_are_bounded() {
    let dir = dir("imap-size");
    let pad = |n: usize| ("x".repeat(70) + "\r\n").repeat(n / 72);
    let big = mail(
        "big@example.org",
        "big",
        "big",
        &format!(
            "HELP\r\n{}",
            (0..5).map(|_| pad(100_000)).collect::<String>()
        ),
    );
    let mid = |i: usize| {
        mail(
            &format!("mid{i}@example.org"),
            "mid",
            &format!("mid{i}"),
            &format!("HELP\r\n{}", pad(100_000)),
        )
    };
    let small = mail("small@example.org", "small", "small", "HELP");
    let big_size = big.len();
    assert!(big_size > 400_000);
    let (port, handed) = imap_server(vec![small, big, mid(1), mid(2), mid(3)]).await;
    let mut c = config(&dir);
    c.inbox.kind = InboxKind::Imap;
    c.imap.port = port;
    c.imap.user = "judge".into();
    c.imap.password = "pw".into();
    c.imap.batch_bytes = 150_000;
    let max = c.inbox.max_bytes;
    let service = Service::open(c).await.unwrap();
    let now = Utc::now();
    assert_eq!(service.poll_inbox(now).await.unwrap(), 5);
    let (batches, mut seen) = {
        let h = handed.lock().unwrap();
        (h.batches.clone(), h.seen.clone())
    };
    // The big mail was never downloaded: no more than its head left the server for it, and
    // no batch held more than batch_bytes (or one mail).
    let total: usize = batches.iter().sum();
    assert!(
        total < big_size,
        "sent {total} bytes, the big mail alone is {big_size}: {batches:?}"
    );
    assert!(
        batches.iter().all(|b| *b <= 150_000.max(max)),
        "{batches:?}"
    );
    assert!(batches.len() >= 3, "{batches:?}");
    seen.sort_unstable();
    assert_eq!(seen, vec![1, 2, 3, 4, 5], "every mail marked handled");
    // Its sender is told it was too large, with its size.
    service.deliver(now).await.unwrap();
    let out = written(&dir.join("outbox"));
    let refusal = out
        .iter()
        .find(|m| m.contains("To: big@example.org"))
        .expect("a reply to the big mail");
    assert!(
        refusal.contains(&format!("Your mail is {big_size} bytes")),
        "{refusal}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A configuration file for the `herald` command in `dir`: Maildir in and out, then `extra`.
fn config_file(dir: &Path, extra: &str) -> PathBuf {
    let path = dir.join("herald.toml");
    let text = format!(
        "[judge]\naddress = \"judge@herald.test\"\n\
         [storage]\ndatabase = \"{0}/herald.db\"\nattention_file = \"{0}/attention.txt\"\n\
         [inbox]\nmaildir = \"{0}/inbox\"\npoll_seconds = 1\n\
         [outbox]\nmaildir = \"{0}/outbox\"\n{extra}",
        dir.display()
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `herald --config <file> <args>`; returns whether it succeeded, and its stderr.
fn herald(file: &Path, args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("--config")
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Starts `herald run` in the background.
fn daemon_process(file: &Path) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("--config")
        .arg(file)
        .arg("run")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Sends SIGTERM and waits (at most [`PATIENCE`], a generous bound) for the process to end.
fn terminate(child: &mut std::process::Child) -> std::process::ExitStatus {
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let end = std::time::Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > end {
            let _ = child.kill();
            panic!("herald did not stop on SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_second_daemon_or_a_tick_on_the_same_database_is_refused_with_a_clear_message() {
    // "Two `herald run` on one database, or `herald tick` while the daemon runs, send
    // replies twice": the second is refused, and says why and who holds the database.
    let dir = dir("lock");
    let file = config_file(&dir, "");
    let mut first = daemon_process(&file);
    let lock = herald::service::lock_path(&dir.join("herald.db"));
    let end = std::time::Instant::now() + PATIENCE;
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.contains("herald run")) {
        assert!(std::time::Instant::now() < end, "the daemon never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = format!("pid {}", first.id());
    for command in ["tick", "run"] {
        let (ok, err) = herald(&file, &[command]);
        assert!(!ok, "herald {command} must not start beside the daemon");
        assert!(
            err.contains("another herald")
                && err.contains(&pid)
                && err.contains(&format!(
                    "`herald {command}` would send every reply a second time"
                )),
            "{err}"
        );
    }
    assert!(terminate(&mut first).success());
    // The daemon gone, its lock went with it.
    let (ok, err) = herald(&file, &["tick"]);
    assert!(ok, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sigterm_is_obeyed_while_the_imap_server_stalls() {
    let dir = dir("sigterm");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let file = config_file(
        &dir,
        &format!(
            "[imap]\nport = {port}\nuser = \"judge\"\npassword = \"pw\"\ntimeout_seconds = 3600\n"
        ),
    );
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("[inbox]\n", "[inbox]\nkind = \"imap\"\n");
    std::fs::write(&file, text).unwrap();
    let mut child = daemon_process(&file);
    // The reader connected and waits for a greeting that never comes.
    let (_held, _) = listener.accept().unwrap();
    let status = terminate(&mut child);
    assert!(status.success(), "{status:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
