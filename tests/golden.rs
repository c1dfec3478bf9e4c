//! Golden mails (issue 26, part 4: "golden mails — `NNN.eml` in, the exact `NNN.reply`
//! out, a failed comparison writing the actual reply beside it — for the mail language's
//! scenarios").
//!
//! Each `tests/golden/NNN.eml` is a mail as a player's program sends it. Its first line may
//! be `X-Golden-Setup: <setup>`, naming the judge it reaches (see [`setup`]); that line is
//! taken off before the mail is delivered. A file may hold several mails, each after a line
//! `%% next mail`; the clock moves on an hour before each. The judge answers on its own
//! clock (tests/support's `World`), so the answer is the same on every run.
//!
//! `NNN.reply` is every mail herald wrote in answer, in the order written: for each its
//! `To:`, its `Subject:`, the names and types of its files, a blank line and its text. The
//! confirmation code, a keyed digest whose key each judge draws at random, reads
//! `confirm-XXXXXXXXXXXXXXXX`. On a mismatch the test writes `NNN.reply.actual` beside it
//! and fails; `HERALD_BLESS=1 cargo test --test mail golden` rewrites the `.reply` files
//! (read each one before committing it).
//!
//! Every mail is delivered twice, in two tests, each time to a judge of its own: with CRLF
//! line ends, as SMTP carries it, and with bare LF, as a Maildir or a local mailer may hand
//! it over. Both must get the one `.reply`; an LF run that differs writes
//! `NNN.lf.reply.actual`.

use std::path::{Path, PathBuf};

use chrono::Duration;

use crate::support::{self, order, start_game, Sent, World, SEVEN};

const GM: &str = "gm@example.org";

/// Classical's five powers' players: Macedon A, Carthage C, Egypt E, Rome R, Syria S.
const CLASSICAL: [(&str, char); 5] = [
    ("ann@example.org", 'A'),
    ("bob@example.org", 'C'),
    ("cat@example.org", 'E'),
    ("dan@example.org", 'R'),
    ("eve@example.org", 'S'),
];

/// The judges a golden mail can reach, by the name its `X-Golden-Setup:` line gives.
///
/// - `none`: a new judge with no games.
/// - `forming`: game `g` (standard) created by gm@example.org with password `gmpass`, and
///   ann@example.org joined it (password `pwE`, asking for England); both confirmed.
/// - `started`: game `g` (standard) started, the seven of tests/support's `SEVEN` playing
///   (passwords `pw<letter>`), every address confirmed.
/// - `played`: `started`, then every power held and Spring 1901 processed early (all
///   orders in), the clock an hour on: the game stands at Fall 1901.
/// - `dips`: like `started`, with the switches `dip_points` (8 dips a turn).
/// - `grey`: like `started`, with grey press allowed (`SET PRESS GREY` by the Master).
/// - `classical`: game `g` (classical) started, the five of [`CLASSICAL`] playing
///   (passwords `pw<letter>`): the game stands at Spring 273 B.C.
/// - `deluge`: game `g` (deluge) started as `started` is: the game stands at Winter 1900.
/// - `several`: like `started`, with the switch `several_powers`; dan@example.org resigned
///   Italy and bob@example.org (France, `pwF`) took it over with the password `bobpw2`.
async fn setup(name: &str, w: &mut World) {
    match name {
        "none" => {}
        "forming" => {
            let sent = w.mail(GM, "new", "CREATE ?g gmpass standard\n").await;
            w.confirm(GM, &sent).await;
            let sent = w
                .mail(
                    "ann@example.org",
                    "join",
                    "SIGNON ?g pwE\nSET PREFERENCE E\n",
                )
                .await;
            w.confirm("ann@example.org", &sent).await;
        }
        "started" | "played" => {
            start_game(w, GM, "g", "standard", &SEVEN).await;
            if name == "played" {
                for (addr, letter) in SEVEN {
                    order(w, "g", addr, letter, support::holds(letter)).await;
                }
                let processed = w.now + Duration::hours(1);
                w.wait_until(processed).await;
            }
        }
        "dips" => {
            start_game(w, GM, "g", "standard dip_points", &SEVEN).await;
        }
        "classical" => {
            start_game(w, GM, "g", "classical", &CLASSICAL).await;
        }
        "deluge" => {
            start_game(w, GM, "g", "deluge", &SEVEN).await;
        }
        "grey" => {
            start_game(w, GM, "g", "standard", &SEVEN).await;
            w.mail(GM, "grey", "SIGNON Mg gmpass\nSET PRESS GREY\n")
                .await;
        }
        "several" => {
            start_game(w, GM, "g", "standard several_powers", &SEVEN).await;
            w.mail("dan@example.org", "bye", "SIGNON Ig pwI\nRESIGN\n")
                .await;
            w.mail("bob@example.org", "take", "SIGNON Ig bobpw2\n")
                .await;
        }
        other => panic!("no setup '{other}'"),
    }
}

/// The mails herald wrote, as a `.reply` file holds them.
fn render(sent: &[Sent]) -> String {
    let mut out = String::new();
    for (i, m) in sent.iter().enumerate() {
        if i > 0 {
            out.push_str("\n----------------------------------------------------------------\n");
        }
        out.push_str(&format!("To: {}\nSubject: {}\n", m.to, m.subject));
        for f in &m.attachments {
            out.push_str(&format!("File: {} ({})\n", f.name, f.content_type));
        }
        out.push('\n');
        out.push_str(&m.body);
    }
    hide_codes(&out)
}

/// `confirm-` and sixteen hex digits read `confirm-XXXXXXXXXXXXXXXX`.
fn hide_codes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("confirm-") {
        let (head, tail) = rest.split_at(at + "confirm-".len());
        out.push_str(head);
        let code: String = tail.chars().take(16).collect();
        if code.len() == 16 && code.chars().all(|c| c.is_ascii_hexdigit()) {
            out.push_str("XXXXXXXXXXXXXXXX");
            rest = &tail[16..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// A mail's line ends as delivered.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ends {
    Crlf,
    Lf,
}

/// Runs one `.eml` with its lines ended by `ends` and returns its `.reply` text.
async fn run(eml: &Path, ends: Ends) -> String {
    let text = std::fs::read_to_string(eml).unwrap();
    let (setup_name, text) = match text.strip_prefix("X-Golden-Setup:") {
        Some(rest) => {
            let (name, mails) = rest.split_once('\n').unwrap();
            (name.trim().to_string(), mails.to_string())
        }
        None => ("none".to_string(), text),
    };
    let stem = eml.file_stem().unwrap().to_string_lossy().into_owned();
    let mut w = World::new(&format!("golden-{stem}-{ends:?}")).await;
    setup(&setup_name, &mut w).await;
    let mut out = String::new();
    for (i, mail) in text.split("\n%% next mail\n").enumerate() {
        if i > 0 {
            out.push_str("\n================================================================\n");
            w.now += Duration::hours(1);
        }
        let lf = mail.replace("\r\n", "\n");
        let raw = match ends {
            Ends::Crlf => lf.replace('\n', "\r\n"),
            Ends::Lf => lf,
        };
        out.push_str(&render(&w.deliver_raw(raw.as_bytes()).await));
    }
    out
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_golden_mail_gets_its_golden_reply() {
    every_mail_with(Ends::Crlf).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_golden_mail_with_bare_lf_gets_its_golden_reply() {
    every_mail_with(Ends::Lf).await;
}

/// Runs every golden mail with its lines ended by `ends` and compares each reply with its
/// `.reply` file (the CRLF run rewrites them under `HERALD_BLESS=1`).
async fn every_mail_with(ends: Ends) {
    let bless = ends == Ends::Crlf && std::env::var("HERALD_BLESS").is_ok_and(|v| v == "1");
    let mut emls: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    emls.sort();
    // "golden mails for at least 40 scenarios covering every command family"
    assert!(emls.len() >= 40, "only {} golden mails", emls.len());
    // Each scenario on a judge of its own, several at once: at most `AT_ONCE` judges of a
    // run open together, so that the two runs (LF and CRLF) and the tests beside them stay
    // within the PostgreSQL server's connections when the suite runs on it.
    const AT_ONCE: usize = 8;
    let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(AT_ONCE));
    let runs: Vec<_> = emls
        .iter()
        .cloned()
        .map(|eml| {
            let gate = gate.clone();
            tokio::spawn(async move {
                let _turn = gate.acquire_owned().await.unwrap();
                (run(&eml, ends).await, eml)
            })
        })
        .collect();
    let beside = match ends {
        Ends::Crlf => "reply.actual",
        Ends::Lf => "lf.reply.actual",
    };
    let mut failed = Vec::new();
    for r in runs {
        let (actual, eml) = r.await.unwrap();
        let reply = eml.with_extension("reply");
        let beside = eml.with_extension(beside);
        if bless {
            std::fs::write(&reply, &actual).unwrap();
        }
        let expected = std::fs::read_to_string(&reply).unwrap_or_default();
        if expected == actual {
            let _ = std::fs::remove_file(&beside);
        } else {
            std::fs::write(&beside, &actual).unwrap();
            failed.push(beside.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "replies differ from their .reply files; what herald wrote is beside each (diff them; \
         HERALD_BLESS=1 rewrites the .reply files once you have read them):\n{}",
        failed.join("\n")
    );
}

#[test]
fn a_confirmation_code_reads_the_same_on_every_judge() {
    assert_eq!(
        hide_codes("[confirm-0123456789abcdef] confirm-xyz confirm-0123"),
        "[confirm-XXXXXXXXXXXXXXXX] confirm-xyz confirm-0123"
    );
}

/// "Golden mails for at least 40 scenarios covering every command family" (issue 26): every
/// family of commands has a line in some golden mail, and so do three in four of the
/// commands' rows.
#[test]
fn the_golden_mails_cover_every_command_family() {
    use herald::judge::cmd::{keywords, parse};
    let mut families = std::collections::BTreeSet::new();
    let mut rows = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(golden_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "eml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let body = text.split_once("\n\n").map_or("", |(_, b)| b);
        for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let parsed = parse(line);
            let debug = format!("{:?}", parsed.command);
            families.insert(debug.split('(').next().unwrap_or("").to_string());
            rows.insert(parsed.def.name);
        }
    }
    for family in [
        "Info", "Signon", "Orders", "Player", "Press", "Dips", "Timing", "Life", "Settings",
        "Privacy", "Signoff",
    ] {
        assert!(families.contains(family), "no golden mail for {family}");
    }
    let all: Vec<&str> = keywords().map(|d| d.name).collect();
    let missing: Vec<&&str> = all.iter().filter(|n| !rows.contains(**n)).collect();
    assert!(
        missing.len() * 4 <= all.len(),
        "{} of {} commands have no golden mail: {missing:?}",
        missing.len(),
        all.len()
    );
}
