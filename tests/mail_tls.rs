//! TLS on the IMAP side of real servers (Dovecot from `scripts/test`, with a certificate for
//! localhost signed by a test CA that herald trusts through `[imap] ca_file`): herald reads
//! its mailbox over IMAPS, then over IMAP with STARTTLS, and answers a mail each time.
//! (The SMTP side's TLS is not tested here: the test OpenSMTPD 6.8 cannot do TLS on
//! OpenSSL 3.)

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

use herald::mail::security::Security;
use support::stack::{port, Daemon, Stack};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imaps_and_imap_starttls_carry_mail() {
    let stack = Stack::new("tls");
    let ca = std::env::var("HERALD_TEST_CA").expect("HERALD_TEST_CA: run scripts/test");
    let imaps = port("HERALD_TEST_IMAPS_PORT");

    let first = format!("over imaps {}", stack.game);
    let daemon = Daemon::start(&stack, "tls1", |c| {
        c.imap.host = "localhost".into();
        c.imap.port = imaps;
        c.imap.security = Security::Tls;
        c.imap.ca_file = Some(ca.clone().into());
    })
    .await;
    stack.send("p3", &first, "VERSION\n").await;
    let reply = stack.expect("p3", "pw3", &format!("Re: {first}")).await;
    assert!(reply.contains("herald"), "{reply}");
    daemon.stop().await;

    let second = format!("over imap starttls {}", stack.game);
    let daemon = Daemon::start(&stack, "tls2", |c| {
        c.imap.host = "localhost".into();
        c.imap.port = stack.imap_port;
        c.imap.security = Security::StartTls;
        c.imap.ca_file = Some(ca.clone().into());
    })
    .await;
    stack.send("p4", &second, "VERSION\n").await;
    let reply = stack.expect("p4", "pw4", &format!("Re: {second}")).await;
    assert!(reply.contains("herald"), "{reply}");
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untrusted_certificate_is_refused() {
    let stack = Stack::new("tlsno");
    let imaps = port("HERALD_TEST_IMAPS_PORT");
    let mut config = herald::config::Config::default();
    config.inbox.kind = herald::config::InboxKind::Imap;
    let dir = std::env::temp_dir().join(format!("herald-tlsno-{}", std::process::id()));
    config.storage.database = dir.join("herald.db");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.imap.host = "localhost".into();
    config.imap.port = imaps;
    config.imap.security = Security::Tls;
    config.imap.user = "judge".into();
    config.imap.password = "judgepw".into();
    let service = herald::service::Service::open(config).await.unwrap();
    let err = service
        .poll_inbox(chrono::Utc::now())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("TLS handshake") && err.contains("certificate"),
        "{err}"
    );
    let _ = stack;
    let _ = std::fs::remove_dir_all(&dir);
}
