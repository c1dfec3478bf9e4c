//! The daemons of tests/several_daemons.rs, started, killed and stopped, and the players
//! who mail them.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use super::{order_id, order_subject, DAEMONS, PLAYERS, SEED};
use crate::support;
use crate::support::rng::Rng;
use crate::support::stack::DOMAIN;

/// The daemons: their configurations, logs, and the processes running now.
pub(super) struct Daemons {
    pub(super) configs: Vec<PathBuf>,
    pub(super) logs: Vec<PathBuf>,
    pub(super) running: Vec<Option<Child>>,
}

impl Daemons {
    pub(super) fn start(&mut self, i: usize) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.logs[i])
            .unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(["run", "--config", self.configs[i].to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("herald starts");
        self.running[i] = Some(child);
    }

    /// SIGKILL, as `kill -9`.
    pub(super) fn kill(&mut self, i: usize) {
        if let Some(mut child) = self.running[i].take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM, and waits for the daemon to end.
    pub(super) fn stop(&mut self, i: usize) {
        let Some(mut child) = self.running[i].take() else {
            return;
        };
        let _ = Command::new("kill").arg(child.id().to_string()).status();
        let end = Instant::now() + Duration::from_secs(10);
        while child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < end, "daemon {i} did not stop on SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A test that fails leaves no daemon behind (one would go on reading the judge's mailbox
/// for a database nobody checks, and take the next test's mail).
impl Drop for Daemons {
    fn drop(&mut self) {
        for i in 0..self.running.len() {
            self.kill(i);
        }
    }
}

/// Kills a daemon every one to three seconds and starts it again after a pause of 0.1 to
/// 1.5 s, until `done`; returns how many kills it made.
pub(super) async fn killing(daemons: Arc<Mutex<Daemons>>, done: Arc<AtomicBool>) -> usize {
    let mut rng = Rng::new(SEED);
    let mut kills = 0;
    loop {
        tokio::time::sleep(Duration::from_millis(rng.range(1000, 3000) as u64)).await;
        if done.load(Ordering::SeqCst) {
            return kills;
        }
        let i = rng.below(DAEMONS);
        daemons.lock().unwrap().kill(i);
        kills += 1;
        tokio::time::sleep(Duration::from_millis(rng.range(100, 1500) as u64)).await;
        daemons.lock().unwrap().start(i);
    }
}

/// The players' mail: [`LINES`] SMTP connections kept open (OpenSMTPD here greets a new
/// connection after a name lookup that can take seconds), each sending one mail after
/// another and made anew every 90 mails (OpenSMTPD takes 100 in a session).
pub(super) struct Players {
    port: u16,
    lines: Vec<(AsyncSmtpTransport<Tokio1Executor>, usize)>,
}

/// Connections the players send on at once.
const LINES: usize = 8;

impl Players {
    pub(super) fn new(port: u16) -> Players {
        Players {
            port,
            lines: (0..LINES).map(|_| (Players::line(port), 0)).collect(),
        }
    }

    fn line(port: u16) -> AsyncSmtpTransport<Tokio1Executor> {
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
            .port(port)
            .pool_config(lettre::transport::smtp::PoolConfig::new().max_size(1))
            .build()
    }

    /// Mails the seven orders of each phase `n` of each `game`, every unit holding.
    pub(super) async fn orders(&mut self, due: &[(&str, usize)]) {
        let mut mails = Vec::new();
        for &(game, n) in due {
            for (user, _, letter) in PLAYERS {
                let body = format!(
                    "SIGNON {letter}{game} pw{letter}\n{}\n",
                    support::holds(letter)
                );
                mails.push(
                    lettre::Message::builder()
                        .from(format!("{user}@{DOMAIN}").parse().unwrap())
                        .to(format!("judge@{DOMAIN}").parse().unwrap())
                        .subject(order_subject(game, n, letter))
                        .message_id(Some(order_id(game, n, letter)))
                        .body(body.replace('\n', "\r\n"))
                        .unwrap(),
                );
            }
        }
        let port = self.port;
        let sends = self.lines.iter_mut().enumerate().map(|(i, line)| {
            let mine: Vec<&lettre::Message> = mails.iter().skip(i).step_by(LINES).collect();
            async move {
                for mail in mine {
                    if line.1 == 90 {
                        *line = (Players::line(port), 0);
                    }
                    line.1 += 1;
                    tokio::time::timeout(Duration::from_secs(60), line.0.send(mail.clone()))
                        .await
                        .expect("the SMTP server answers within a minute")
                        .expect("the SMTP server takes the mail");
                }
            }
        });
        futures_util::future::join_all(sends).await;
    }
}
