//! The edges of herald's mail, through the real binary on a Maildir inbox and outbox:
//! a mail written just before a crash (`kill -9` after the file, before it is marked
//! sent) is not written again; half-written files in `outbox/tmp` are cleared at start;
//! a mail whose From is no address gets no answer; a qmail bounce marks its address.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh directory with a config for a judge on Maildirs.
fn setup(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("herald-edges-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("herald.toml");
    std::fs::write(
        &config,
        format!(
            "[judge]\naddress = \"judge@herald.test\"\n[storage]\ndatabase = \"{0}/h.db\"\n[inbox]\nmaildir = \"{0}/in\"\n[outbox]\nmaildir = \"{0}/out\"\n",
            dir.display()
        ),
    )
    .unwrap();
    (dir, config)
}

/// Runs `herald <args> --config <config> --now …` with `stdin` and, if given, a failpoint.
fn herald(config: &Path, args: &[&str], stdin: &str, failpoint: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_herald"));
    cmd.args(args)
        .args(["--config", config.to_str().unwrap()])
        .args(["--now", "2026-12-01T10:00:00Z"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(point) = failpoint {
        cmd.env("HERALD_FAILPOINT", format!("{point}:1"));
    }
    let mut child = cmd.spawn().expect("herald starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    all.sort();
    all
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_mail_written_just_before_a_crash_is_not_written_twice() {
    // The file stays in new/, or a reader takes it to cur/ while herald is down.
    for taken in [false, true] {
        let (dir, config) = setup(&format!("once-{taken}"));
        let mail =
            "From: ann@example.org\nSubject: new\nMessage-ID: <once1@x>\n\nCREATE ?onceg secret\n";
        // Killed after the reply's file is written, before it is marked sent.
        let crashed = herald(&config, &["ingest"], mail, Some("after-writing"));
        assert!(
            !crashed.status.success() && text(&crashed).contains("failpoint after-writing"),
            "herald did not stop at the failpoint: {}",
            text(&crashed)
        );
        let written = files(&dir.join("out/new"));
        assert_eq!(written.len(), 1, "{written:?}");
        let name = written[0]
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        if taken {
            std::fs::rename(&written[0], dir.join("out/cur").join(format!("{name}:2,S"))).unwrap();
        }
        // Started again, it sends what is not marked sent: the same mail, found written.
        let again = herald(&config, &["tick"], "", None);
        assert!(again.status.success(), "{}", text(&again));
        assert!(
            text(&again).contains("1 mail(s) written"),
            "{}",
            text(&again)
        );
        let mut all = files(&dir.join("out/new"));
        all.extend(files(&dir.join("out/cur")));
        assert_eq!(all.len(), 1, "{all:?}");
        let reply = std::fs::read_to_string(&all[0]).unwrap();
        assert!(reply.contains("To: ann@example.org\r\n"), "{reply}");
        assert!(
            reply.contains("Message-ID: <outbox-1.") && reply.contains("@herald.test>\r\n"),
            "{reply}"
        );
        // Nothing is left to send.
        let later = herald(&config, &["tick"], "", None);
        assert!(
            text(&later).contains("0 mail(s) written"),
            "{}",
            text(&later)
        );
        assert_eq!(files(&dir.join("out/new")).len(), usize::from(!taken));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn half_written_outbox_files_are_cleared_at_start() {
    let (dir, config) = setup("tmp");
    let migrated = herald(&config, &["tick"], "", None);
    assert!(migrated.status.success(), "{}", text(&migrated));
    let half = dir.join("out/tmp/outbox-000000000001.herald.4242_0");
    std::fs::write(&half, "From: herald <judge@herald.test>\r\nTo: ann@exa").unwrap();
    let again = herald(&config, &["tick"], "", None);
    assert!(again.status.success(), "{}", text(&again));
    assert!(files(&dir.join("out/tmp")).is_empty());
    assert!(files(&dir.join("out/new")).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_from_that_is_no_address_gets_no_answer() {
    let (dir, config) = setup("from");
    let mail =
        "From: <gm@master.example>@evil.example\nSubject: help\nMessage-ID: <evil1@x>\n\nHELP\n";
    let out = herald(&config, &["ingest"], mail, None);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("Quarantined(\"not a readable mail\"); 0 mail(s) written"),
        "{}",
        text(&out)
    );
    assert!(files(&dir.join("out/new")).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_qmail_bounce_is_read_as_a_bounce_and_not_answered() {
    let (dir, config) = setup("qmail");
    let bounce = "Return-Path: <>
From: MAILER-DAEMON@mail.example.net
To: judge@herald.test
Subject: failure notice
Message-ID: <20261201095905.4711.qmail@mail.example.net>

Hi. This is the qmail-send program at mail.example.net.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<gone@example.org>:
Sorry, no mailbox here by that name. (#5.1.1)

--- Below this line is a copy of the message.

From: herald <judge@herald.test>
To: gone@example.org
Subject: Re: orders
";
    let out = herald(&config, &["ingest"], bounce, None);
    // herald sent nothing to gone@ here, so the bounce names no mail of its own (the text
    // "bounce for gone@example.org" said the same of both kinds of bounce).
    assert!(
        text(&out).contains("Ignored(StrayBounce(\"gone@example.org\")); 0 mail(s) written"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_judge_address_that_is_no_address_keeps_mail_queued() {
    let (dir, config) = setup("judge");
    let text_of = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text_of.replace("judge@herald.test", "judge at herald.test"),
    )
    .unwrap();
    let mail = "From: ann@example.org\nSubject: help\nMessage-ID: <judge1@x>\n\nHELP\n";
    let out = herald(&config, &["ingest"], mail, None);
    assert!(
        !out.status.success()
            && text(&out)
                .contains("[judge] address = 'judge at herald.test': write a mail address"),
        "{}",
        text(&out)
    );
    assert!(files(&dir.join("out/new")).is_empty());
    // Put right, the reply goes out.
    std::fs::write(&config, text_of).unwrap();
    let again = herald(&config, &["tick"], "", None);
    assert!(
        text(&again).contains("1 mail(s) written"),
        "{}",
        text(&again)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
