//! Issue 36, point 2: "The web edge protects the mail path. A header-read timeout and an
//! idle keep-alive timeout (seconds), a cap on web connections well below the descriptor
//! limit … the mail workers keep descriptors of their own whatever the web does."
//!
//! Each test serves the pages with small limits and plays the attack of the review (idle
//! connections held open, a request sent in pieces) on loopback. The bounds are generous:
//! a connection the server must close is read until it ends, for at most ten seconds, where
//! the limit is one.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::World;
use crate::{serve, Site};

/// How long a connection the server must close is given to be closed.
const BOUND: Duration = Duration::from_secs(10);

/// The pages of an empty judge with these `[web]` limits.
async fn limited(name: &str, header: u64, idle: u64, cap: usize) -> Site {
    let mut w = World::new(name).await;
    w.service.config.web = Some(herald::config::WebSection {
        listen: "127.0.0.1:0".into(),
        header_timeout_seconds: header,
        idle_timeout_seconds: idle,
        max_connections: cap,
        ..Default::default()
    });
    serve(w).await
}

/// Whether the server closes `s` within [`BOUND`] (what it sends first is read and dropped).
async fn closed(mut s: TcpStream) -> bool {
    let mut buf = [0u8; 4096];
    tokio::time::timeout(BOUND, async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// Opens `n` connections that send nothing.
async fn idle(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(TcpStream::connect(addr).await.unwrap());
    }
    out
}

/// One GET on a kept-alive connection; returns the status line.
async fn get_kept_alive(s: &mut TcpStream) -> String {
    s.write_all(b"GET / HTTP/1.1\r\nHost: herald.test\r\n\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        let n = tokio::time::timeout(BOUND, s.read(&mut chunk))
            .await
            .expect("an answer")
            .unwrap();
        assert!(n > 0, "closed before answering");
        buf.extend_from_slice(&chunk[..n]);
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .map(|v| v.trim().parse().unwrap())
            .expect("a content-length");
        if buf.len() >= end + 4 + length {
            return head.lines().next().unwrap().to_string();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_cap_are_closed_at_once() {
    // The header timeout is long: only the cap closes anything here.
    let site = limited("web-edge-cap", 300, 300, 8).await;
    let held = idle(site.addr, 20).await;
    let mut reads = tokio::task::JoinSet::new();
    for (i, s) in held.into_iter().enumerate() {
        reads.spawn(async move { (i, closed(s).await) });
    }
    let mut closed_now = 0;
    while closed_now < 12 {
        let (i, was_closed) = reads.join_next().await.unwrap().unwrap();
        assert!(was_closed, "connection {i} was neither served nor closed");
        closed_now += 1;
    }
    // The eight within the cap are still open, and while they are, the web takes no more.
    assert!(
        reads.try_join_next().is_none(),
        "one within the cap was closed"
    );
    let refused = TcpStream::connect(site.addr).await.unwrap();
    assert!(closed(refused).await, "a ninth connection is closed");
    assert!(
        reads.try_join_next().is_none(),
        "one within the cap was closed"
    );
    assert_eq!(reads.len(), 8);
    reads.abort_all();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_time_out_and_the_pages_are_served_again() {
    let site = limited("web-edge-idle", 1, 1, 8).await;
    let held = idle(site.addr, 20).await;
    let mut reads = tokio::task::JoinSet::new();
    for s in held {
        reads.spawn(closed(s));
    }
    // Every one is closed: eight by the header timeout, twelve by the cap.
    while let Some(was_closed) = reads.join_next().await {
        assert!(was_closed.unwrap(), "an idle connection stayed open");
    }
    let a = site.get("/").await;
    assert_eq!(a.status, 200, "{}", a.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_a_request_line_is_closed_after_the_header_timeout() {
    let site = limited("web-edge-half", 1, 30, 8).await;
    let mut s = TcpStream::connect(site.addr).await.unwrap();
    s.write_all(b"GET / HT").await.unwrap();
    assert!(closed(s).await, "half a request line kept the connection");
    // A request's headers sent a line at a time, never finished (the review's slowloris),
    // are closed too: the time counts from connecting, not from the last line.
    let mut s = TcpStream::connect(site.addr).await.unwrap();
    s.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    let lines = async {
        for i in 0..40 {
            if s.write_all(format!("X-{i}: a\r\n").as_bytes())
                .await
                .is_err()
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        false
    };
    assert!(
        lines.await,
        "a header line every 250 ms kept the connection"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_alive_connection_waits_the_idle_timeout_not_the_header_one() {
    // Header time 1 s, idle time 30 s: a connection idle 3 s after an answer is still served.
    let site = limited("web-edge-keep", 1, 30, 8).await;
    let mut s = TcpStream::connect(site.addr).await.unwrap();
    assert_eq!(get_kept_alive(&mut s).await, "http/1.1 200 ok");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(get_kept_alive(&mut s).await, "http/1.1 200 ok");
    // Idle time 1 s: after its answer, an idle connection is closed.
    let site = limited("web-edge-keep-short", 30, 1, 8).await;
    let mut s = TcpStream::connect(site.addr).await.unwrap();
    assert_eq!(get_kept_alive(&mut s).await, "http/1.1 200 ok");
    assert!(closed(s).await, "an idle kept-alive connection stayed open");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_body_sent_too_slowly_is_not_waited_for() {
    let site = limited("web-edge-body", 1, 30, 8).await;
    let mut s = TcpStream::connect(site.addr).await.unwrap();
    s.write_all(
        b"POST /signin HTTP/1.1\r\nHost: herald.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ngame=g",
    )
    .await
    .unwrap();
    assert!(
        closed(s).await,
        "a body that never came kept the connection"
    );
}
