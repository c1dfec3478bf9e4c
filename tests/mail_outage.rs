//! Outages of the real mail servers while herald runs (servers from `scripts/test`):
//! the SMTP server stops while a reply is due and comes back — the reply arrives, once;
//! Dovecot stops and comes back — herald reconnects by itself and answers new mail.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use std::os::unix::fs::chown;
use std::process::{Command, Stdio};
use std::time::Duration;

use support::stack::{Daemon, Stack, DOMAIN};

fn pid_file(name: &str) -> std::path::PathBuf {
    Stack::dir().join(format!("{name}.pid"))
}

fn stop(name: &str) {
    let pid: i32 = std::fs::read_to_string(pid_file(name))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    Command::new("kill").arg(pid.to_string()).status().unwrap();
    for _ in 0..100 {
        if !Command::new("kill")
            .args(["-0", &pid.to_string()])
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success()
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
}

// The restarted server runs on after this function, like the one start.sh started; stop.sh
// ends it by its pid file.
#[allow(clippy::zombie_processes)]
fn start(name: &str, program: &str, args: &[&str], port: u16, greeting: &str) {
    let d = Stack::dir();
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(d.join(format!("{name}.restart.log")))
        .unwrap();
    let child = Command::new(program)
        .args(args)
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap();
    std::fs::write(pid_file(name), child.id().to_string()).unwrap();
    for _ in 0..100 {
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            use std::io::Read;
            s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
            let mut buf = [0u8; 64];
            if let Ok(n) = s.read(&mut buf) {
                if String::from_utf8_lossy(&buf[..n]).starts_with(greeting) {
                    return;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{program} did not come back on port {port}");
}

/// Puts a mail straight into the judge's Maildir on the Dovecot side (no SMTP needed).
fn inject(from: &str, subject: &str, body: &str) {
    let d = Stack::dir();
    let passwd = std::fs::read_to_string(d.join("passwd")).unwrap();
    let fields: Vec<&str> = passwd
        .lines()
        .find(|l| l.starts_with("judge:"))
        .unwrap()
        .split(':')
        .collect();
    let (uid, gid): (u32, u32) = (fields[2].parse().unwrap(), fields[3].parse().unwrap());
    let maildir = d.join("mail/judge/Maildir");
    for sub in ["tmp", "new", "cur"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
        chown(maildir.join(sub), Some(uid), Some(gid)).unwrap();
    }
    let name = format!(
        "{}.{}.inject",
        std::process::id(),
        subject.replace(' ', "_")
    );
    let tmp = maildir.join("tmp").join(&name);
    let text = format!("From: {from}\r\nTo: judge@{DOMAIN}\r\nSubject: {subject}\r\nMessage-ID: <{name}@test>\r\n\r\n{body}\r\n");
    std::fs::write(&tmp, text).unwrap();
    chown(&tmp, Some(uid), Some(gid)).unwrap();
    std::fs::rename(&tmp, maildir.join("new").join(&name)).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_and_imap_outages_lose_nothing_and_send_nothing_twice() {
    let stack = Stack::new("out");
    let daemon = Daemon::start(&stack, "out", |c| c.smtp.retry_seconds = 1).await;
    let d = Stack::dir();

    // SMTP down while a reply is due (subjects carry this run's token: mailboxes outlive runs).
    let during = format!("during the smtp outage {}", stack.game);
    let after = format!("after the imap outage {}", stack.game);
    let re_during = format!("Re: {during}");
    stop("smtp");
    inject(&format!("p1@{DOMAIN}"), &during, "LIST");
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(stack.count("p1", "pw1", &re_during).await, 0);
    assert!(
        daemon.service.store.outbox_count().await.unwrap() >= 1,
        "the reply is queued"
    );
    // start.sh's own way: in a mount namespace with this stack's queue and control socket.
    start(
        "smtp",
        d.join("smtpd.sh").to_str().unwrap(),
        &[],
        stack.smtp_port,
        "220",
    );
    let reply = stack.expect("p1", "pw1", &re_during).await;
    assert!(reply.contains(":: Judge: judge@herald.test"), "{reply}");
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        stack.count("p1", "pw1", &re_during).await,
        1,
        "delivered once"
    );

    // Dovecot down: herald keeps running, reconnects, answers mail sent after it is back.
    let dovecot_conf = d.join("dovecot.conf");
    stop("dovecot");
    tokio::time::sleep(Duration::from_secs(3)).await;
    start(
        "dovecot",
        "dovecot",
        &["-F", "-c", dovecot_conf.to_str().unwrap()],
        stack.imap_port,
        "* OK",
    );
    stack.send("p2", &after, "LIST\n").await;
    let reply = stack.expect("p2", "pw2", &format!("Re: {after}")).await;
    assert!(reply.contains(":: Judge: judge@herald.test"), "{reply}");

    daemon.stop().await;
}
