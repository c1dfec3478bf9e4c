//! Two test mail stacks on one machine (issue 24: "the test mail stack can run beside another
//! on the same machine"). Beside the stack `scripts/test` started, a second is started with
//! `scripts/mailstack/start.sh` in a directory of its own: it finds ports of its own, and
//! its OpenSMTPD runs with its own queue and control socket (OpenSMTPD's are fixed paths, so
//! a second one used to refuse to start, "already running"). A mail through each stack
//! reaches that stack's mailbox, and only that one.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use support::stack::{Stack, DOMAIN};

/// The second stack, stopped (stop.sh) and its directory removed when dropped.
struct Second {
    dir: PathBuf,
}

impl Drop for Second {
    fn drop(&mut self) {
        let _ = Command::new(script("stop.sh"))
            .env("MAILSTACK_DIR", &self.dir)
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/mailstack")
        .join(name)
}

/// A value from a stack's env file.
fn env_value(dir: &Path, key: &str) -> u16 {
    std::fs::read_to_string(dir.join("env"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("{key} in the env file"))
        .parse()
        .unwrap()
}

/// Sends a mail to `p1` through a stack's SMTP port.
async fn to_p1(smtp_port: u16, subject: &str) {
    let mailer = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
        .port(smtp_port)
        .build();
    let msg = lettre::Message::builder()
        .from(format!("p2@{DOMAIN}").parse().unwrap())
        .to(format!("p1@{DOMAIN}").parse().unwrap())
        .subject(subject)
        .body("hello\r\n".to_string())
        .unwrap();
    mailer
        .send(msg)
        .await
        .expect("the SMTP server takes the mail");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_mail_stack_runs_beside_the_first() {
    let first = Stack::new("twice");
    let dir = std::env::temp_dir().join(format!("ms-twice-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let second_stack = Second { dir: dir.clone() };
    let mut start = Command::new(script("start.sh"));
    start.env("MAILSTACK_DIR", &dir);
    for port in [
        "SMTP_PORT",
        "IMAP_PORT",
        "LMTP_PORT",
        "IMAPS_PORT",
        "SUBMISSION_PORT",
        "SUBMISSIONS_PORT",
    ] {
        start.env_remove(port);
    }
    let out = start.output().unwrap();
    assert!(
        out.status.success(),
        "the second stack starts: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let second = Stack::other(
        env_value(&dir, "HERALD_TEST_SMTP_PORT"),
        env_value(&dir, "HERALD_TEST_IMAP_PORT"),
        &first.game,
    );
    assert_ne!(second.smtp_port, first.smtp_port);
    assert_ne!(second.imap_port, first.imap_port);
    // Each stack delivers its own mail, and the other's never.
    let one = format!("through the first {}", first.game);
    let two = format!("through the second {}", first.game);
    to_p1(first.smtp_port, &one).await;
    to_p1(second.smtp_port, &two).await;
    second.expect("p1", "pw1", &two).await;
    first.expect("p1", "pw1", &one).await;
    assert_eq!(second.count("p1", "pw1", &one).await, 0);
    assert_eq!(first.count("p1", "pw1", &two).await, 0);
    drop(second_stack);
    // The first stack goes on after the second stopped.
    let three = format!("after the second stopped {}", first.game);
    to_p1(first.smtp_port, &three).await;
    first.expect("p1", "pw1", &three).await;
}
