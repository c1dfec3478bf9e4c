//! The web face under load (issue 28: "a criterion benchmark serves the game page at ≥ 2,000
//! requests/s on this machine while the daemon handles mail"): GET /games/g, the full page
//! (200, not 304), over four keep-alive connections at once, while a task feeds the service
//! order mails for another game without pause, each one transaction as the daemon's inbox
//! worker runs them. Criterion's throughput is the requests served per second.

// Bench code throughout: a panic is a failed run with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use herald::config::Config;
use herald::service::Service;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const PLAYERS: [(&str, char); 7] = [
    ("ann@example.org", 'E'),
    ("bob@example.org", 'F'),
    ("cat@example.org", 'G'),
    ("dan@example.org", 'I'),
    ("eve@example.org", 'A'),
    ("fay@example.org", 'R'),
    ("guy@example.org", 'T'),
];

/// Connections asking at once.
const CLIENTS: u64 = 4;

static ID: AtomicU64 = AtomicU64::new(0);

fn raw(from: &str, body: &str) -> Vec<u8> {
    let id = ID.fetch_add(1, Ordering::Relaxed);
    format!("From: {from}\r\nTo: judge@herald.test\r\nSubject: s\r\nMessage-ID: <w{id}@bench>\r\n\r\n{}", body.replace('\n', "\r\n")).into_bytes()
}

async fn start_game(service: &Service, name: &str, now: DateTime<Utc>) {
    service
        .ingest(
            &raw("gm@example.org", &format!("CREATE ?{name} gmpass\n")),
            now,
        )
        .await
        .unwrap();
    for (addr, letter) in PLAYERS {
        let body = format!("SIGNON ?{name} pw{letter}\nSET PREFERENCE {letter}\n");
        service.ingest(&raw(addr, &body), now).await.unwrap();
    }
    service
        .ingest(
            &raw("gm@example.org", &format!("SIGNON M{name} gmpass\nSTART\n")),
            now,
        )
        .await
        .unwrap();
}

/// One keep-alive connection asking for `path` `n` times, reading each whole answer.
async fn ask(addr: SocketAddr, path: &str, n: u64) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n");
    let mut buf = Vec::with_capacity(64 * 1024);
    let mut chunk = vec![0u8; 64 * 1024];
    for _ in 0..n {
        s.write_all(request.as_bytes()).await.unwrap();
        buf.clear();
        loop {
            let got = s.read(&mut chunk).await.unwrap();
            assert!(got > 0, "the server closed the connection");
            buf.extend_from_slice(&chunk[..got]);
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                assert!(head.starts_with("http/1.1 200"), "{head}");
                let len: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .unwrap()
                    .trim()
                    .parse()
                    .unwrap();
                if buf.len() >= end + 4 + len {
                    break;
                }
            }
        }
    }
}

fn game_page(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dir = std::env::temp_dir().join(format!("herald-bench-web-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut config = Config::default();
    config.storage.database = dir.join("herald.db");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.judge.address = "judge@herald.test".into();
    config.limits.replies_per_hour = u32::MAX;
    let now: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let service = Arc::new(rt.block_on(Service::open(config)).unwrap());
    rt.block_on(start_game(&service, "g", now));
    rt.block_on(start_game(&service, "busy", now));
    let web =
        Arc::new(herald::web::Web::with_clock(service.clone(), Arc::new(move || now)).unwrap());
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    rt.spawn(herald::web::serve(web, listener, std::future::pending()));
    // The daemon's mail meanwhile: Austria's orders in game "busy", one mail after another.
    let mailer = service.clone();
    let mails = Arc::new(AtomicU64::new(0));
    let counted = mails.clone();
    rt.spawn(async move {
        loop {
            let body = "SIGNON Abusy pwA\nA Vie-Gal\nA Bud-Ser\nF Tri-Alb\n";
            mailer
                .ingest(&raw("eve@example.org", body), now)
                .await
                .unwrap();
            counted.fetch_add(1, Ordering::Relaxed);
        }
    });
    let mut group = c.benchmark_group("web");
    group.throughput(Throughput::Elements(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("game page, 4 connections, mail handled meanwhile", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                let each = iters.div_ceil(CLIENTS);
                let tasks: Vec<_> = (0..CLIENTS)
                    .map(|_| tokio::spawn(ask(addr, "/games/g", each)))
                    .collect();
                for t in tasks {
                    t.await.unwrap();
                }
                start.elapsed()
            })
        })
    });
    group.finish();
    println!(
        "mails handled during the run: {}",
        mails.load(Ordering::Relaxed)
    );
    drop(rt);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, game_page);
criterion_main!(benches);
