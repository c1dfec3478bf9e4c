//! Mail latency on real servers: from the moment the SMTP server accepts a player's mail to
//! the moment herald's reply is in the player's IMAP inbox, with herald's daemon reading
//! its mailbox with IDLE. Needs the mail stack: `scripts/bench-latency` starts it, runs
//! this, and stops it.

// Bench code throughout: a panic is a failed run with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use herald::config::Config;
use herald::service::Service;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

fn port(var: &str) -> u16 {
    std::env::var(var)
        .unwrap_or_else(|_| panic!("{var} is not set: run scripts/bench-latency"))
        .parse()
        .unwrap()
}

fn latency(c: &mut Criterion) {
    let (smtp_port, imap_port) = (port("HERALD_TEST_SMTP_PORT"), port("HERALD_TEST_IMAP_PORT"));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let _guard = rt.enter();
    let dir = std::env::temp_dir().join(format!("herald-latency-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut config = Config::default();
    config.storage.database = dir.join("herald.db");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.judge.address = "judge@herald.test".into();
    config.inbox.kind = herald::config::InboxKind::Imap;
    config.inbox.poll_seconds = 30;
    config.imap.port = imap_port;
    config.imap.user = "judge".into();
    config.imap.password = "judgepw".into();
    config.outbox.kind = herald::config::OutboxKind::Smtp;
    config.smtp.port = smtp_port;
    config.limits.replies_per_hour = u32::MAX;
    let service = Arc::new(rt.block_on(Service::open(config)).unwrap());
    let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let daemon = {
        let service = service.clone();
        rt.spawn(async move {
            herald::daemon::run(&service, async {
                let _ = stop_rx.await;
            })
            .await
        })
    };
    let mut session = rt.block_on(async {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", imap_port))
            .await
            .unwrap();
        let mut client = async_imap::Client::new(tcp);
        client.read_response().await.unwrap();
        let mut s = client.login("p7", "pw7").await.map_err(|(e, _)| e).unwrap();
        s.select("INBOX").await.unwrap();
        s
    });
    let mut n = 0u64;
    let mut group = c.benchmark_group("smtp_to_reply_in_imap");
    group
        .sample_size(100)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(60));
    group.bench_function("one_mail", |b| {
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
    group.finish();
    let _ = stop.send(());
    rt.block_on(daemon).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, latency);
criterion_main!(benches);
