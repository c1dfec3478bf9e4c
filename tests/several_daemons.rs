//! Several daemons on one database, killed at random (issue 29, point 2: "a test runs three
//! daemons on one PostgreSQL and one IMAP mailbox, sends 2,000 order mails while games fall
//! due, kills daemons with SIGKILL at random moments and restarts them, and checks that
//! every mail was answered exactly once and every phase processed exactly once").
//!
//! Three `herald run` processes share a fresh PostgreSQL database and the judge's mailbox on
//! the real mail servers from `scripts/test`. [`GAMES`] standard-board games (on a copy of
//! the standard map without drawing, so results carry no pictures) are set up in the
//! database beforehand; then the seven players of every game mail their orders (every unit
//! holds, so every phase is a movement phase and no winter has anything to adjust) phase by
//! phase, each game as soon as its last phase was processed, [`PHASES`] phases each. All the
//! while one daemon after another is killed with SIGKILL and started again after a pause
//! (one at a time: two always run), on a schedule drawn from [`SEED`]. At the end: every
//! order mail has exactly one answer and every phase of every game exactly one results
//! mail to each member, counted by distinct Message-IDs (a mail sent again after a kill
//! keeps its Message-ID: a second copy of the same mail, which `tests/mail_crash.rs` allows
//! too, but only one for each kill), the games' records hold each phase once, and
//! the database recorded each order mail once, queued each answer and each results mail
//! once, and left nothing unsent.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod checks;
mod fleet;

use crate::support;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use fleet::{Daemons, Players};
use herald::config::{Config, InboxKind, OutboxKind};
use herald::service::Service;
use support::stack::{Stack, DOMAIN, PLAYERS};

/// Games played at once.
const GAMES: usize = 16;
/// Movement phases each game plays: `GAMES * PHASES * 7` order mails (2,016).
const PHASES: usize = 18;
/// Daemons sharing the database and the mailbox.
const DAEMONS: usize = 3;
/// The seed of the kill schedule (which daemon, when, how long it stays down).
const SEED: u64 = 29;
/// How long nothing may move before the test gives up and says where it stands.
const STALL: Duration = Duration::from_secs(180);

/// The phase codes the games play, in order: Spring and Fall from 1901, no winter (nothing
/// changes hands, so nothing is adjusted).
fn codes() -> Vec<String> {
    (0..=PHASES)
        .map(|i| {
            let season = if i % 2 == 0 { 'S' } else { 'F' };
            format!("{season}{}M", 1901 + i / 2)
        })
        .collect()
}

/// The subject of a power's orders for phase `n` of `game`: unique over the whole test.
fn order_subject(game: &str, n: usize, letter: char) -> String {
    format!("orders {game} {n} {letter}")
}

/// The Message-ID of that mail.
fn order_id(game: &str, n: usize, letter: char) -> String {
    format!("<{game}.{n}.{letter}@players.{DOMAIN}>")
}

/// The configuration every daemon shares but for its own Maildirs and log.
fn config_text(stack: &Stack, database: &str, maps: &Path, dir: &Path) -> String {
    format!(
        r#"[judge]
address = "judge@{DOMAIN}"
[storage]
database = "{database}"
attention_file = "{dir}/attention.txt"
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
check_ms = 100
[smtp]
port = {smtp}
retry_seconds = 1
[timing]
early_delay = "0m"
[limits]
replies_per_hour = 1000000
[maps]
dir = "{maps}"
"#,
        dir = dir.display(),
        maps = maps.display(),
        imap = stack.imap_port,
        smtp = stack.smtp_port
    )
}

/// The standard map under the name `plain`, without its `draw` lines: a board that has no
/// picture, so that the thousands of results mails carry none.
fn plain_map(maps: &Path) {
    std::fs::create_dir_all(maps).unwrap();
    let text: String = herald::game::map::builtin::STANDARD
        .lines()
        .filter(|l| !l.starts_with("draw"))
        .map(|l| {
            if l == "map standard" {
                "map plain\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(maps.join("plain.map"), text).unwrap();
}

/// Sets the games up in the database, through mail read by a judge of the test's own (no
/// daemon runs yet): the members' addresses confirmed, one game created, joined and
/// started by mail, then copied under the other names; what that queued is written to the
/// setup's Maildir outbox, so the daemons find nothing to send. Returns the judge (kept to
/// read the database) and the games' names.
async fn set_up(config: Config, tag: &str) -> (Service, Vec<String>) {
    let service = Service::open(config).await.unwrap();
    let now = Utc::now();
    let ts = now.timestamp();
    let mut tx = service.store.begin().await.unwrap();
    for user in PLAYERS.iter().map(|p| p.0).chain(["gm"]) {
        tx.confirm(&format!("{user}@{DOMAIN}"), "the test", ts)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let games: Vec<String> = (0..GAMES).map(|k| format!("{tag}g{k:02}")).collect();
    let first = &games[0];
    let mut mails = vec![("gm", format!("CREATE ?{first} gmpass plain"))];
    for (user, _, letter) in PLAYERS {
        mails.push((
            user,
            format!("SIGNON ?{first} pw{letter}\nSET PREFERENCE {letter}"),
        ));
    }
    mails.push(("gm", format!("SIGNON M{first} gmpass\nSTART")));
    for (i, (user, body)) in mails.iter().enumerate() {
        let raw = format!(
            "From: {user}@{DOMAIN}\r\nTo: judge@{DOMAIN}\r\nSubject: setup {i}\r\nMessage-ID: <setup{i}.{tag}@{DOMAIN}>\r\n\r\n{}\r\n",
            body.replace('\n', "\r\n")
        );
        service.ingest(raw.as_bytes(), now).await.unwrap();
    }
    let template = service.game(first).await.unwrap().expect("the game exists");
    assert_eq!(template.status.word(), "running", "{template:?}");
    let map = &service.judge.variant(&template).map;
    for seat in &template.seats {
        let user = seat.member.address.trim_end_matches(&format!("@{DOMAIN}"));
        let letter = map.power(seat.power.unwrap()).letter;
        let asked = PLAYERS.iter().find(|p| p.0 == user).map(|p| p.2);
        assert_eq!(asked, Some(letter), "{user} plays {letter}");
    }
    let due = service.judge.next_due(&template).map(|d| d.timestamp());
    let mut tx = service.store.begin().await.unwrap();
    for name in &games[1..] {
        let mut g = template.clone();
        g.name = name.clone();
        let summary = herald::service::summary_of(&service.judge, &g);
        tx.save_game(name, g.status.word(), &g, &summary, due, ts)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    service.deliver(now).await.unwrap();
    (service, games)
}

/// Every game as the database holds it now, by name.
async fn games_now(service: &Service) -> HashMap<String, herald::judge::Game> {
    service
        .store
        .games()
        .await
        .unwrap()
        .into_iter()
        .map(|row| (row.name, serde_json::from_str(&row.state).unwrap()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_daemons_killed_at_random_answer_each_mail_and_play_each_phase_once() {
    let stack = Stack::new("daemons");
    let started = Instant::now();
    let server = std::env::var("DATABASE_URL")
        .expect("DATABASE_URL is not set: run the tests with scripts/test");
    let database = support::scratch_postgres(&server).await;
    let dir = support::scratch_dir("daemons");
    let maps = dir.join("maps");
    plain_map(&maps);
    let tag = format!(
        "k{}{:02}",
        std::process::id() % 100_000,
        Utc::now().timestamp() % 100
    );
    let mut configs = Vec::new();
    for i in 0..=DAEMONS {
        let own = dir.join(format!("d{i}"));
        std::fs::create_dir_all(&own).unwrap();
        let path = own.join("herald.toml");
        std::fs::write(&path, config_text(&stack, &database, &maps, &own)).unwrap();
        let config = Config::load(&path, true).unwrap();
        Service::check_config(&config).unwrap();
        configs.push((path, config));
    }
    // The test's own judge reads the last configuration, with Maildirs for mail.
    let (_, mut config) = configs.pop().unwrap();
    config.inbox.kind = InboxKind::Maildir;
    config.outbox.kind = OutboxKind::Maildir;
    let (service, games) = set_up(config, &tag).await;
    let codes = codes();

    let daemons = Arc::new(Mutex::new(Daemons {
        logs: (0..DAEMONS)
            .map(|i| dir.join(format!("d{i}.log")))
            .collect(),
        configs: configs.into_iter().map(|c| c.0).collect(),
        running: (0..DAEMONS).map(|_| None).collect(),
    }));
    for i in 0..DAEMONS {
        daemons.lock().unwrap().start(i);
    }
    let done = Arc::new(AtomicBool::new(false));
    let killer = tokio::spawn(fleet::killing(daemons.clone(), done.clone()));

    // Traffic: each game's next orders as soon as its last phase was played.
    let mut players = Players::new(stack.smtp_port);
    let mut sent = vec![0usize; GAMES];
    let mut moved = Instant::now();
    let mut last = vec![usize::MAX; GAMES];
    loop {
        let now = games_now(&service).await;
        let mut finished = 0;
        let mut due = Vec::new();
        for (k, game) in games.iter().enumerate() {
            let played = now[game].history.len();
            assert!(
                played <= sent[k],
                "{game} played {played} phases, but orders went for {} only",
                sent[k]
            );
            if played != last[k] {
                last[k] = played;
                moved = Instant::now();
            }
            if played == PHASES {
                finished += 1;
            } else if played == sent[k] {
                due.push((game.as_str(), played));
                sent[k] += 1;
            }
        }
        players.orders(&due).await;
        if finished == GAMES {
            break;
        }
        assert!(
            moved.elapsed() < STALL,
            "stalled: phases played {last:?}, orders sent {sent:?}; logs in {}",
            dir.display()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    done.store(true, Ordering::SeqCst);
    let kills = killer.await.unwrap();
    let played_at = started.elapsed();

    // Quiet: every daemon runs until the outbox is empty and every mail expected arrived.
    let mut db = support::Db::open(Path::new(&database)).await;
    let unsent = "SELECT COUNT(*) FROM outbox WHERE sent IS NULL AND failed IS NULL AND $1 = $1";
    let expected = checks::expected(GAMES);
    let quiet_from = Instant::now();
    loop {
        let waiting = db.count(unsent, "").await;
        let arrived = match waiting {
            0 => checks::arrived(&stack, &tag).await,
            _ => 0,
        };
        if arrived >= expected {
            break;
        }
        assert!(
            quiet_from.elapsed() < STALL,
            "mail still missing: {waiting} unsent, {arrived} of {expected} distinct mails \
             arrived; logs in {}",
            dir.display()
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    db.close().await;
    // A little longer, for any second copy on its way; then SIGTERM.
    tokio::time::sleep(Duration::from_secs(3)).await;
    for i in 0..DAEMONS {
        daemons.lock().unwrap().stop(i);
    }
    tokio::time::sleep(Duration::from_secs(1)).await;

    let mut wrong: Vec<String> = Vec::new();
    let (distinct, copies) = checks::mailboxes(&stack, &tag, &games, &codes, &mut wrong).await;
    // A daemon sends one mail at a time and records it as sent at once: a kill can make
    // one mail go twice (sent, not yet recorded), and nothing else can.
    if copies > distinct + kills {
        wrong.push(format!(
            "{copies} copies of {distinct} distinct mails: {} second copies, more than the \
             {kills} kills explain",
            copies - distinct
        ));
    }
    let finals = games_now(&service).await;
    checks::records(&service, &finals, &games, &codes, &mut wrong);
    checks::database(&database, &tag, &games, &codes, &mut wrong).await;
    eprintln!(
        "several daemons: {} order mails, {} phases, {kills} kills (seed {SEED}); {distinct} \
         distinct mails checked, {copies} copies in the mailboxes; played in {played_at:?}, \
         all in {:?}",
        GAMES * PHASES * PLAYERS.len(),
        GAMES * PHASES,
        started.elapsed()
    );
    assert!(
        wrong.is_empty(),
        "{} problems (logs in {}), the first:\n{}",
        wrong.len(),
        dir.display(),
        wrong
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    service.store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
