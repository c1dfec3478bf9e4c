//! Crashes: herald's daemon (the real binary, on the real mail servers from `scripts/test`)
//! is killed without warning — `abort()`, like `kill -9` — after fetching a mail, while
//! processing it, after committing it, and after SMTP took its reply; then started again.
//! Every mail is handled once (a second handling of CREATE would answer "there is already a
//! game"), and every reply arrives, once: a resend after a crash during sending keeps its
//! Message-ID, so the player's mailbox holds one distinct reply.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use support::stack::Stack;

fn config(stack: &Stack, dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("herald.toml");
    let text = format!(
        r#"[judge]
address = "judge@herald.test"
[storage]
database = "{db}"
[inbox]
kind = "imap"
poll_seconds = 1
maildir = "{dir}/inbox"
[outbox]
kind = "smtp"
maildir = "{dir}/outbox"
[imap]
port = {imap}
user = "judge"
password = "judgepw"
[smtp]
port = {smtp}
retry_seconds = 1
"#,
        db = dir.join("herald.db").display(),
        dir = dir.display(),
        imap = stack.imap_port,
        smtp = stack.smtp_port
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn spawn(config: &std::path::Path, failpoint: Option<&str>) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_herald"));
    cmd.args(["run", "--config", config.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(fp) = failpoint {
        cmd.env("HERALD_FAILPOINT", format!("{fp}:1"));
    }
    cmd.spawn().expect("herald starts")
}

fn wait_for_exit(child: &mut Child, within: Duration) -> bool {
    let end = Instant::now() + within;
    while Instant::now() < end {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

fn stop(mut child: Child) {
    let _ = Command::new("kill").arg(child.id().to_string()).status();
    if !wait_for_exit(&mut child, Duration::from_secs(10)) {
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crashes_at_every_point_lose_nothing_and_double_nothing() {
    let stack = Stack::new("crash");
    let dir = std::env::temp_dir().join(format!("herald-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = config(&stack, &dir);
    let points = [
        "after-fetch",
        "during-processing",
        "after-commit",
        "during-sending",
    ];
    for (i, point) in points.iter().enumerate() {
        let game = format!("c{i}{}", std::process::id() % 10_000);
        let subject = format!("crash {point} {game}");
        let mut herald = spawn(&config, Some(point));
        stack
            .send("p1", &subject, &format!("CREATE ?{game} pw\n"))
            .await;
        assert!(
            wait_for_exit(&mut herald, Duration::from_secs(30)),
            "herald did not crash at {point}"
        );
        let herald = spawn(&config, None);
        let reply = stack.expect("p1", "pw1", &format!("Re: {subject}")).await;
        assert!(
            reply.contains(&format!("Game '{game}' (standard) created.")),
            "{point}: {reply}"
        );
        assert!(
            !reply.contains("already a game"),
            "{point}: handled twice: {reply}"
        );
        tokio::time::sleep(Duration::from_secs(3)).await;
        stop(herald);
        let mut ids = stack
            .message_ids("p1", "pw1", &format!("Re: {subject}"))
            .await;
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 1, "{point}: one distinct reply, got {ids:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
