//! herald's SMTP client against a small SMTP server on loopback that counts connections and
//! mails and, when a mail begins, looks at the client's own socket (the same process holds
//! both ends) to see whether TCP_NODELAY is set. Without it, the end-of-data marker that
//! lettre writes on its own waited for the server's delayed ACK, about 40 ms a mail
//! (issue 19, point 5).

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use herald::mail::security::Security;
use herald::mail::smtp::{SmtpOutbox, SmtpSettings};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// What the server saw.
#[derive(Debug, Default)]
struct Seen {
    /// Connections opened.
    connections: usize,
    /// Mails received in full.
    mails: usize,
    /// For each mail, whether the client's socket had TCP_NODELAY set when it began.
    nodelay: Vec<Option<bool>>,
}

/// Whether the socket in this process whose local address is `addr` has TCP_NODELAY set;
/// `None` if no such socket is found.
fn nodelay_of_own_socket(addr: SocketAddr) -> Option<bool> {
    use std::os::fd::FromRawFd;
    for entry in std::fs::read_dir("/proc/self/fd").ok()?.flatten() {
        let Some(fd) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let is_socket = std::fs::read_link(entry.path())
            .map(|l| l.to_string_lossy().starts_with("socket:"))
            .unwrap_or(false);
        if !is_socket {
            continue;
        }
        // SAFETY: the descriptor is open (listed just now) and is only borrowed: the
        // ManuallyDrop keeps it from being closed here.
        let socket = std::mem::ManuallyDrop::new(unsafe { std::net::TcpStream::from_raw_fd(fd) });
        if socket.local_addr().ok() == Some(addr) {
            return socket.nodelay().ok();
        }
    }
    None
}

/// A server on loopback speaking just enough SMTP; returns its port and what it saw. With
/// `close_after`, it ends each session after that many mails without a word, as a server's
/// idle timeout does.
async fn server(close_after: Option<usize>) -> (u16, Arc<Mutex<Seen>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let shared = seen.clone();
    tokio::spawn(async move {
        loop {
            let (stream, client) = listener.accept().await.unwrap();
            shared.lock().unwrap().connections += 1;
            let seen = shared.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                let mut mails = 0;
                write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
                while let Ok(Some(line)) = lines.next_line().await {
                    let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                    let answer: &[u8] = match verb.as_str() {
                        "EHLO" => b"250-fake\r\n250-PIPELINING\r\n250 8BITMIME\r\n",
                        "MAIL" => {
                            let nodelay = nodelay_of_own_socket(client);
                            seen.lock().unwrap().nodelay.push(nodelay);
                            b"250 ok\r\n"
                        }
                        "DATA" => {
                            write.write_all(b"354 go on\r\n").await.unwrap();
                            while let Ok(Some(l)) = lines.next_line().await {
                                if l == "." {
                                    break;
                                }
                            }
                            seen.lock().unwrap().mails += 1;
                            mails += 1;
                            if Some(mails) == close_after {
                                let _ = write.write_all(b"250 queued\r\n").await;
                                break;
                            }
                            b"250 queued\r\n"
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            break;
                        }
                        _ => b"250 ok\r\n",
                    };
                    if write.write_all(answer).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    (port, seen)
}

fn outbox(port: u16) -> SmtpOutbox {
    SmtpOutbox::new(&SmtpSettings {
        host: "127.0.0.1".into(),
        port,
        security: Security::None,
        user: String::new(),
        password: String::new(),
        ca_file: None,
    })
    .unwrap()
}

const MAIL: &[u8] =
    b"From: judge@herald.test\r\nTo: p1@herald.test\r\nSubject: Re: orders\r\n\r\nA Par - Bur\r\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mails_go_over_one_connection_with_tcp_nodelay_set() {
    let (port, seen) = server(None).await;
    let smtp = outbox(port);
    for _ in 0..60 {
        smtp.send("judge@herald.test", "p1@herald.test", MAIL)
            .await
            .unwrap();
    }
    let seen = seen.lock().unwrap();
    assert_eq!(seen.mails, 60, "{seen:?}");
    assert_eq!(seen.connections, 1, "{seen:?}");
    assert!(
        seen.nodelay.iter().all(|n| *n == Some(true)),
        "TCP_NODELAY not set on every mail's socket: {:?}",
        seen.nodelay
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_the_server_closed_is_replaced() {
    let (port, seen) = server(Some(1)).await;
    let smtp = outbox(port);
    smtp.send("judge@herald.test", "p1@herald.test", MAIL)
        .await
        .unwrap();
    // The server ended the session after that mail; a while later herald finds it gone
    // before sending into it, and opens a new one.
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    smtp.send("judge@herald.test", "p1@herald.test", MAIL)
        .await
        .unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!((seen.mails, seen.connections), (2, 2), "{seen:?}");
}
