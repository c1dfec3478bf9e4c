//! Bounded work and reply (issue 24, point 1): "Every mail costs bounded CPU, memory and
//! output: a limit on the reply (bytes, lines, attachments, with a notice saying what was
//! cut), repeated info commands answered once, one picture per distinct map". `HELP` on
//! every line of a 256 KB mail built a 397 MB reply; 1,000 `GET MAP world1880 SVG` lines a
//! 499 MB one.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use support::{reply, Sent, World};

const ANN: &str = "ann@example.org";

/// The default limits (`[limits] reply_bytes`, `reply_lines`, `reply_attachments`).
const BYTES: usize = 256 * 1024;
const LINES: usize = 5_000;
const FILES: usize = 5;

/// A judge where ann has confirmed her address: these are the limits of a confirmed
/// address's replies (an address that has not confirmed gets short text only, issue 36;
/// `tests/stranger_mail.rs`).
async fn confirmed(name: &str) -> World {
    let mut w = World::new(name).await;
    let sent = w.mail(ANN, "hello", "VERSION\n").await;
    w.confirm(ANN, &sent).await;
    w
}

/// Every mail sent is within the limits, and the one reply to ann is returned.
fn within_limits(sent: &[Sent]) -> &Sent {
    for m in sent {
        assert!(
            m.body.len() <= BYTES,
            "{} bytes: {}",
            m.body.len(),
            m.subject
        );
        assert!(
            m.body.lines().count() <= LINES,
            "{} lines",
            m.body.lines().count()
        );
        let pictures = m
            .attachments
            .iter()
            .filter(|f| f.content_type.starts_with("image/"))
            .count();
        assert!(pictures <= FILES, "{pictures} pictures");
    }
    reply(sent, ANN)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_on_every_line_is_answered_once() {
    let mut w = confirmed("bounded-help").await;
    let body = "HELP\n".repeat(2_000);
    let sent = w.mail(ANN, "help", &body).await;
    let r = within_limits(&sent);
    // The HELP text once (its first line, as HELP alone gives it), each repeat a short line.
    let alone = w.mail(ANN, "help once", "HELP\n").await;
    let first = reply(&alone, ANN)
        .body
        .lines()
        .find(|l| l.len() > 20)
        .unwrap()
        .to_string();
    assert_eq!(r.body.matches(first.as_str()).count(), 1, "{first}");
    assert_eq!(r.body.matches("HELP: answered above.").count(), 1_999);
    assert!(
        r.body.len() < reply(&alone, ANN).body.len() + 2_000 * 30,
        "{} bytes",
        r.body.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_past_its_limit_is_cut_with_a_notice() {
    let mut w = confirmed("bounded-cut").await;
    // 3,000 different questions, two lines of answer each: 6,000 lines.
    let body: String = (0..3_000).map(|i| format!("HISTORY nosuch{i}\n")).collect();
    let sent = w.mail(ANN, "many", &body).await;
    let r = within_limits(&sent);
    assert!(
        r.body.contains("HISTORY nosuch0\n  *** there is no game"),
        "{}",
        r.body
    );
    assert!(!r.body.contains("HISTORY nosuch2999\n"));
    for words in [
        "*** This reply was cut: herald's replies hold at most 262144 bytes, 5000 lines and 5 attached files.",
        "lines of it were left out",
        "information commands (HELP, GET, LIST, HISTORY, SUMMARY, ...) were not answered",
        "*** Everything else in your mail was read and done",
    ] {
        assert!(r.body.contains(words), "{words:?} in the reply's end:\n{}", &r.body[r.body.len() - 600..]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_the_reply_is_full_no_information_command_runs() {
    let mut w = confirmed("bounded-stop").await;
    w.service.judge.limits.bytes = 12 * 1024;
    let body = "GET syntax\nGET variants\nGET press\nGET master\nVERSION\nLIST\nSIGNON Xnone pw\n";
    let sent = w.mail(ANN, "topics", body).await;
    let r = reply(&sent, ANN);
    assert!(r.body.len() <= 12 * 1024, "{} bytes", r.body.len());
    // syntax (6.5 KB) fits, variants (9.4 KB) does not: the four commands after it are
    // not run; the SIGNON after them, no information command, still is.
    assert!(
        r.body.contains(
            "4 information commands (HELP, GET, LIST, HISTORY, SUMMARY, ...) were not answered"
        ),
        "{}",
        r.body
    );
    assert!(
        !r.body.contains("herald 0."),
        "VERSION was not run: {}",
        r.body
    );
    assert!(
        r.subject.contains("[Error Flag]"),
        "the SIGNON was read: {}",
        r.subject
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_svg_maps_give_one_picture() {
    let mut w = confirmed("bounded-svg").await;
    let body = "GET MAP world1880 SVG\n".repeat(1_000);
    let sent = w.mail(ANN, "maps", &body).await;
    let r = within_limits(&sent);
    let names: Vec<&str> = r.attachments.iter().map(|f| f.name.as_str()).collect();
    // One drawing of the board: the world is five pictures (the overview and four
    // regions, issue 27 point 5), each a PNG and its SVG; the reply holds five files (the
    // PNGs shown in the body come first), and says so.
    assert_eq!(
        names,
        [
            "world1880-opening.png",
            "world1880-opening-europe.png",
            "world1880-opening-africa.png",
            "world1880-opening.svg",
            "world1880-opening-europe.svg"
        ]
    );
    assert!(
        r.body
            .contains("Only 5 of the 10 files of this board's pictures are attached: a reply carries at most 5 files."),
        "{}",
        r.body
    );
    assert_eq!(
        r.body
            .matches("GET MAP world1880 SVG: answered above.")
            .count(),
        999
    );
    // The same map named another way is described again but not drawn again.
    let sent = w
        .mail(ANN, "maps", "GET MAP world1880 SVG\nGET MAP worl svg\n")
        .await;
    let r = within_limits(&sent);
    assert_eq!(r.attachments.len(), 5, "the one drawing, cut to five files");
    assert!(
        r.body
            .contains("The picture of this board is attached once, above."),
        "{}",
        r.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pictures_beyond_the_limit_are_not_drawn() {
    let mut w = confirmed("bounded-files").await;
    // Six files, then a drawing with no room left at all.
    let body = "GET MAP standard SVG\nGET MAP classical SVG\nGET MAP deluge SVG\nGET MAP portage\n";
    let sent = w.mail(ANN, "maps", body).await;
    let r = within_limits(&sent);
    assert_eq!(
        r.attachments.len(),
        FILES,
        "{:?}",
        r.attachments.iter().map(|f| &f.name).collect::<Vec<_>>()
    );
    assert!(
        r.body
            .contains("Only 1 of the 2 files of this board's pictures are attached: a reply carries at most 5 files."),
        "{}",
        r.body
    );
    assert!(
        r.body
            .contains("No picture: a reply carries at most 5 files."),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("2 pictures were not attached"),
        "{}",
        r.body
    );
}
