//! The one fake SMTP server of the tests: a server on loopback speaking just enough SMTP for
//! herald's sender, keeping every mail it takes. It can want a login and refuse it (535)
//! while told to, and can refuse addresses: RCPT TO a `gone@` address is refused for good
//! (550), a `flaky@` one is told "try later" (451) every time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// A mail the server took.
#[derive(Clone, Debug)]
pub struct Taken {
    /// The RCPT TO line, as sent.
    pub rcpt: String,
    /// What DATA carried, dot-stuffing undone, lines ending in CRLF.
    pub data: Vec<u8>,
}

impl Taken {
    /// The mail as text, lines ending in LF, quoted-printable soft line breaks joined (as a
    /// reader sees the text).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.data)
            .replace("\r\n", "\n")
            .replace("=\n", "")
    }
}

/// How the server behaves.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    /// Wants AUTH before MAIL; refuses it with 535 while the flag is set.
    pub login: Option<Arc<AtomicBool>>,
    /// Refuses `gone@` addresses with 550 and `flaky@` ones with 451.
    pub refuse_addresses: bool,
}

/// A running server: its port and what it took.
pub struct FakeSmtp {
    /// The loopback port it listens on.
    pub port: u16,
    /// The mails it took, in order.
    pub taken: Arc<Mutex<Vec<Taken>>>,
}

impl FakeSmtp {
    /// A server that takes every mail.
    pub async fn start() -> FakeSmtp {
        FakeSmtp::with(Rules::default()).await
    }

    /// A server behaving by `rules`.
    pub async fn with(rules: Rules) -> FakeSmtp {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let taken: Arc<Mutex<Vec<Taken>>> = Arc::default();
        let shared = taken.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(session(stream, rules.clone(), shared.clone()));
            }
        });
        FakeSmtp { port, taken }
    }

    /// What the server took so far.
    pub fn taken(&self) -> Vec<Taken> {
        self.taken.lock().unwrap().clone()
    }
}

async fn session(stream: tokio::net::TcpStream, rules: Rules, taken: Arc<Mutex<Vec<Taken>>>) {
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    let mut line = Vec::new();
    let mut rcpt = String::new();
    let mut authed = rules.login.is_none();
    if write.write_all(b"220 fake ESMTP\r\n").await.is_err() {
        return;
    }
    loop {
        line.clear();
        if read.read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let upper = text.to_ascii_uppercase();
        let answer: &[u8] = if upper.starts_with("EHLO") {
            if rules.login.is_some() {
                b"250-fake\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n"
            } else {
                b"250-fake\r\n250 8BITMIME\r\n"
            }
        } else if upper.starts_with("AUTH") {
            match &rules.login {
                Some(refuse) if refuse.load(Ordering::SeqCst) => {
                    b"535 5.7.8 Error: authentication failed\r\n"
                }
                _ => {
                    authed = true;
                    b"235 2.7.0 Authentication successful\r\n"
                }
            }
        } else if upper.starts_with("MAIL") && !authed {
            b"530 5.7.0 Authentication required\r\n"
        } else if upper.starts_with("RCPT") {
            rcpt = text.clone();
            if rules.refuse_addresses && upper.contains("GONE@") {
                b"550 5.1.1 <gone@example.org>: no such user here\r\n"
            } else if rules.refuse_addresses && upper.contains("FLAKY@") {
                b"451 4.3.0 mailbox busy, try later\r\n"
            } else {
                b"250 ok\r\n"
            }
        } else if upper.starts_with("DATA") {
            if write.write_all(b"354 go on\r\n").await.is_err() {
                return;
            }
            let mut data = Vec::new();
            loop {
                line.clear();
                if read.read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
                    return;
                }
                if line == b".\r\n" || line == b".\n" {
                    break;
                }
                let from = usize::from(line.starts_with(b".."));
                data.extend_from_slice(&line[from..]);
            }
            taken.lock().unwrap().push(Taken {
                rcpt: rcpt.clone(),
                data,
            });
            b"250 queued\r\n"
        } else if upper.starts_with("QUIT") {
            let _ = write.write_all(b"221 bye\r\n").await;
            return;
        } else {
            b"250 ok\r\n"
        };
        if write.write_all(answer).await.is_err() {
            return;
        }
    }
}
