//! Mail on real servers, end to end: herald's daemon reads its mailbox over IMAP and answers
//! over SMTP, on the private Dovecot and OpenSMTPD. Needs the mail stack:
//! `scripts/bench-latency` starts it, runs this, and stops it.
//!
//! - `smtp_to_reply_in_imap`: one mail at a time, from the moment the SMTP server accepts a
//!   player's mail to the moment herald's reply is in the player's IMAP inbox; herald
//!   waiting in IDLE (`idle`), and asking with NOOP every 50 ms (`check_50ms`,
//!   `[imap] check_ms = 50`).
//! - `smtp_send`: herald's sending alone, to OpenSMTPD (until it answers 250 to each
//!   mail): 200 mails one after the other over herald's SMTP client (`herald`), and the
//!   same over lettre's pooled transport as herald used it before (`lettre_pool`, no
//!   TCP_NODELAY); criterion reports mails a second.
//! - `burst`: 500 mails sent at once (over one SMTP connection with TCP_NODELAY, as fast as
//!   the server takes them), from the first mail sent to the 500th reply in the player's
//!   IMAP inbox, herald waiting in IDLE (`idle`) or asking every 50 ms (`check_50ms`);
//!   criterion reports it as replies a second. `stack_only` sends the same mails straight
//!   to the player, without herald: what the servers deliver alone.

// Bench code throughout: a panic is a failed run with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use herald::config::Config;
use herald::mail::security::Security;
use herald::mail::smtp::{SmtpOutbox, SmtpSettings};
use herald::service::Service;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

/// Mails in one burst.
const BURST: usize = 500;

fn port(var: &str) -> u16 {
    std::env::var(var)
        .unwrap_or_else(|_| panic!("{var} is not set: run scripts/bench-latency"))
        .parse()
        .unwrap()
}

/// herald's daemon on the stack, until `stop` is sent.
struct Daemon {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
    dir: std::path::PathBuf,
}

fn start(rt: &tokio::runtime::Runtime, tag: &str, check_ms: u64) -> Daemon {
    let dir = std::env::temp_dir().join(format!("herald-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut config = Config::default();
    config.storage.database = dir.join("herald.db");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.judge.address = "judge@herald.test".into();
    config.inbox.kind = herald::config::InboxKind::Imap;
    config.inbox.poll_seconds = 30;
    config.imap.port = port("HERALD_TEST_IMAP_PORT");
    config.imap.user = "judge".into();
    config.imap.password = "judgepw".into();
    config.imap.check_ms = check_ms;
    config.outbox.kind = herald::config::OutboxKind::Smtp;
    config.smtp.port = port("HERALD_TEST_SMTP_PORT");
    config.limits.replies_per_hour = u32::MAX;
    let service = Arc::new(rt.block_on(Service::open(config)).unwrap());
    let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let task = rt.spawn(async move {
        herald::daemon::run(&service, async {
            let _ = stop_rx.await;
        })
        .await
    });
    Daemon { stop, task, dir }
}

fn stop(rt: &tokio::runtime::Runtime, daemon: Daemon) {
    let _ = daemon.stop.send(());
    rt.block_on(daemon.task).unwrap();
    let _ = std::fs::remove_dir_all(&daemon.dir);
}

async fn login(user: &str, password: &str) -> async_imap::Session<tokio::net::TcpStream> {
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port("HERALD_TEST_IMAP_PORT")))
        .await
        .unwrap();
    let mut client = async_imap::Client::new(tcp);
    client.read_response().await.unwrap();
    let mut s = client
        .login(user, password)
        .await
        .map_err(|(e, _)| e)
        .unwrap();
    s.select("INBOX").await.unwrap();
    s
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn latency(c: &mut Criterion) {
    let smtp_port = port("HERALD_TEST_SMTP_PORT");
    let rt = runtime();
    let _guard = rt.enter();
    let mut session = rt.block_on(login("p7", "pw7"));
    let mut n = 0u64;
    let mut group = c.benchmark_group("smtp_to_reply_in_imap");
    group
        .sample_size(100)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(60));
    for (name, check_ms) in [("idle", 0), ("check_50ms", 50)] {
        let daemon = start(&rt, name, check_ms);
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    n += 1;
                    let token = format!("lat{}x{n}", std::process::id());
                    let msg = lettre::Message::builder()
                        .from("p7@herald.test".parse().unwrap())
                        .to("judge@herald.test".parse().unwrap())
                        .subject(&token)
                        .body("VERSION\r\n".to_string())
                        .unwrap();
                    total += rt.block_on(async {
                        // A player's client connects for each mail.
                        let mailer =
                            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
                                .port(smtp_port)
                                .build();
                        mailer.send(msg).await.unwrap();
                        let accepted = Instant::now();
                        loop {
                            session.select("INBOX").await.unwrap();
                            let found = session
                                .uid_search(format!("SUBJECT \"Re: {token}\""))
                                .await
                                .unwrap();
                            if !found.is_empty() {
                                return accepted.elapsed();
                            }
                            assert!(
                                accepted.elapsed() < Duration::from_secs(30),
                                "no reply within 30 s"
                            );
                            tokio::time::sleep(Duration::from_millis(5)).await;
                        }
                    });
                }
                total
            })
        });
        stop(&rt, daemon);
    }
    group.finish();
}

fn burst(c: &mut Criterion) {
    let rt = runtime();
    let _guard = rt.enter();
    let sender = SmtpOutbox::new(&SmtpSettings {
        host: "127.0.0.1".into(),
        port: port("HERALD_TEST_SMTP_PORT"),
        security: Security::None,
        user: String::new(),
        password: String::new(),
        ca_file: None,
    })
    .unwrap();
    let mut session = rt.block_on(login("p6", "pw6"));
    let mut round = 0u64;
    let mut group = c.benchmark_group("burst");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(30))
        .throughput(Throughput::Elements(BURST as u64));
    // `stack_only`: the same 500 mails sent straight to the player, no herald: what the
    // servers deliver alone, once a mail (a reply needs two deliveries, in and out).
    for (name, check_ms) in [
        ("stack_only", None),
        ("idle", Some(0)),
        ("check_50ms", Some(50)),
    ] {
        let daemon = check_ms.map(|ms| start(&rt, &format!("burst-{name}"), ms));
        let to = if daemon.is_some() {
            "judge@herald.test"
        } else {
            "p6@herald.test"
        };
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    round += 1;
                    total += rt.block_on(async {
                        let before = session.select("INBOX").await.unwrap().exists as usize;
                        let start = Instant::now();
                        for i in 0..BURST {
                            let mail = format!(
                                "From: p6@herald.test\r\nTo: {to}\r\nSubject: burst{}x{round}x{i}\r\nMessage-ID: <burst{}x{round}x{i}@herald.test>\r\n\r\nVERSION\r\n",
                                std::process::id(),
                                std::process::id()
                            );
                            sender
                                .send("p6@herald.test", to, mail.as_bytes())
                                .await
                                .unwrap();
                        }
                        loop {
                            let exists = session.select("INBOX").await.unwrap().exists as usize;
                            if exists >= before + BURST {
                                return start.elapsed();
                            }
                            assert!(
                                start.elapsed() < Duration::from_secs(120),
                                "{} of {BURST} within 120 s",
                                exists - before
                            );
                            tokio::time::sleep(Duration::from_millis(5)).await;
                        }
                    });
                }
                total
            })
        });
        if let Some(daemon) = daemon {
            stop(&rt, daemon);
        }
    }
    group.finish();
}

fn smtp_send(c: &mut Criterion) {
    const MAILS: usize = 200;
    let rt = runtime();
    let _guard = rt.enter();
    let smtp_port = port("HERALD_TEST_SMTP_PORT");
    let herald = SmtpOutbox::new(&SmtpSettings {
        host: "127.0.0.1".into(),
        port: smtp_port,
        security: Security::None,
        user: String::new(),
        password: String::new(),
        ca_file: None,
    })
    .unwrap();
    let envelope = lettre::address::Envelope::new(
        Some("judge@herald.test".parse().unwrap()),
        vec!["p5@herald.test".parse().unwrap()],
    )
    .unwrap();
    let mail = b"From: judge@herald.test\r\nTo: p5@herald.test\r\nSubject: smtp_send bench\r\n\r\nA Par - Bur\r\n";
    let mut group = c.benchmark_group("smtp_send");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(MAILS as u64));
    group.bench_function("herald", |b| {
        b.iter(|| {
            rt.block_on(async {
                for _ in 0..MAILS {
                    herald
                        .send("judge@herald.test", "p5@herald.test", mail)
                        .await
                        .unwrap();
                }
            })
        })
    });
    group.bench_function("lettre_pool", |b| {
        b.iter(|| {
            rt.block_on(async {
                // A new transport every 50 mails, as herald made it (OpenSMTPD takes 100 a
                // session).
                for _ in 0..MAILS / 50 {
                    let pool = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
                        .port(smtp_port)
                        .build();
                    for _ in 0..50 {
                        pool.send_raw(&envelope, mail).await.unwrap();
                    }
                }
            })
        })
    });
    group.finish();
}

criterion_group!(benches, latency, smtp_send, burst);
criterion_main!(benches);
