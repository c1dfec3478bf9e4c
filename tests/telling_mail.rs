//! Telling people what happened (issue 18, point 5): the start notice tells each player
//! which power is theirs; the Master's ROLLBACK is confirmed and HISTORY notes it; an
//! abandoned player hears of it; the join notice says "Waiting for 1 more player"; a reply
//! carries one `:: Judge:` line; a PREVIEW's subject names its phase once; `herald game
//! list` gives deadlines to the minute.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::{Duration, TimeZone, Utc};
use herald::service::GameSummary;
use support::{holds, order, reply, start_game, World, SEVEN};

const GM: &str = "gm@example.org";

#[tokio::test]
async fn players_are_told_their_power_the_master_the_rollback_and_everyone_once() {
    let mut w = World::new("telling").await;
    // Six of seven join (START is refused: not everyone is in), then the seventh.
    let (_, refused) = start_game(&mut w, GM, "tel", "standard", &SEVEN[..6]).await;
    assert!(
        reply(&refused, GM)
            .body
            .contains("6 of 7 players have joined"),
        "{refused:#?}"
    );
    let sent = w
        .mail(
            "guy@example.org",
            "join",
            "SIGNON ?tel pwT\nSET PREFERENCE T\n",
        )
        .await;
    w.confirm("guy@example.org", &sent).await;
    assert!(sent
        .iter()
        .any(|m| m.to == GM && m.subject.ends_with("Ready to Start")));
    // The Master is told, in plain words, that one more player is needed.
    let mut w2 = World::new("telling-wait").await;
    let sent = w2.mail(GM, "new", "CREATE ?few gmpass\n").await;
    assert!(!sent.is_empty());
    // The Master confirms the address (game mail goes only to addresses that asked).
    w2.confirm(GM, &sent).await;
    let mut last = Vec::new();
    for (addr, letter) in &SEVEN[..6] {
        last = w2
            .mail(addr, "join", &format!("SIGNON ?few pw{letter}\n"))
            .await;
    }
    let note = last.iter().find(|m| m.to == GM).unwrap();
    assert!(
        note.subject.ends_with("Waiting for 1 more player"),
        "{}",
        note.subject
    );

    let sent = w.mail(GM, "start", "SIGNON Mtel gmpass\nSTART\n").await;
    for (addr, letter) in SEVEN {
        let notice = sent
            .iter()
            .find(|m| m.to == addr && m.subject.contains("Game Starting"))
            .unwrap_or_else(|| panic!("{sent:#?}"));
        let line = format!("sign on with SIGNON {letter}tel <your password>.");
        let mine = notice
            .body
            .lines()
            .find(|l| l.starts_with("You play "))
            .unwrap_or("");
        assert!(mine.ends_with(&line), "{}", notice.body);
    }
    let gm = sent
        .iter()
        .find(|m| m.to == GM && m.subject.contains("Game Starting"))
        .unwrap();
    assert!(!gm.body.contains("You play "), "{}", gm.body);

    // One `:: Judge:` line in a reply, LIST of a game included.
    let sent = w
        .mail("ann@example.org", "l", "SIGNON Etel pwE\nLIST tel\n")
        .await;
    let body = &reply(&sent, "ann@example.org").body;
    assert_eq!(body.matches(":: Judge:").count(), 1, "{body}");
    assert!(body.contains("Deadline: "), "{body}");

    // A PREVIEW names its phase once in the subject.
    let sent = w.mail(GM, "p", "SIGNON Mtel gmpass\nPREVIEW\n").await;
    let preview = sent.iter().find(|m| m.subject.contains("Preview")).unwrap();
    assert_eq!(preview.subject, "JUDGE:tel - S1901M Preview");

    // Spring is played; the Master rolls it back, is told so, and HISTORY shows where.
    for (addr, letter) in SEVEN {
        order(&mut w, "tel", addr, letter, holds(letter)).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    assert!(sent.iter().any(|m| m.subject.contains("S1901M Results")));
    let sent = w
        .mail(GM, "rb", "SIGNON Mtel gmpass\nROLLBACK S1901M\n")
        .await;
    let body = &reply(&sent, GM).body;
    assert!(body.contains("Rolled back to S1901M"), "{body}");
    let sent = w.mail("stranger@example.org", "h", "HISTORY tel\n").await;
    let body = &reply(&sent, "stranger@example.org").body;
    let results = body
        .find("S1901M Results")
        .unwrap_or_else(|| panic!("{body}"));
    let undone = body
        .find("The results of S1901M and after, above this note, were undone.")
        .unwrap_or_else(|| panic!("{body}"));
    assert!(results < undone, "{body}");
}

#[tokio::test]
async fn an_abandoned_player_hears_of_it() {
    let mut w = World::new("telling-abandoned").await;
    start_game(&mut w, GM, "ab", "standard", &SEVEN).await;
    // NoNMR (the default): at the end of grace a late power is abandoned.
    for (addr, letter) in SEVEN.iter().filter(|(_, l)| *l != 'T') {
        order(&mut w, "ab", addr, *letter, holds(*letter)).await;
    }
    let grace = w.now + Duration::days(9) + Duration::hours(1);
    let sent = w.wait_until(grace).await;
    let told = sent
        .iter()
        .find(|m| m.to == "guy@example.org" && m.subject.contains("Your Power Is Abandoned"))
        .unwrap_or_else(|| {
            panic!(
                "{:#?}",
                sent.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
            )
        });
    assert!(
        told.body.contains("your power is declared abandoned"),
        "{}",
        told.body
    );
}

#[test]
fn the_keepers_game_list_gives_deadlines_to_the_minute() {
    let line = GameSummary {
        name: "war".into(),
        variant: "standard".into(),
        status: "running".into(),
        phase: Some("S1901M".into()),
        deadline: Some(Utc.with_ymd_and_hms(2026, 12, 8, 10, 0, 0).unwrap()),
    }
    .to_string();
    assert!(line.ends_with("S1901M   2026-12-08 10:00 UTC"), "{line}");
}

// Issue 25, point 17: ""The game waits … its units hold" in one notice": the abandoned
// player is told nothing is adjudicated while the game waits, and what happens if the
// Master processes the phase first.
#[tokio::test]
async fn an_abandoned_players_notice_does_not_say_both_that_the_game_waits_and_the_units_hold() {
    let mut w = World::new("telling-abandoned-waits").await;
    start_game(&mut w, GM, "aw", "standard", &SEVEN).await;
    for (addr, letter) in SEVEN.iter().filter(|(_, l)| *l != 'T') {
        order(&mut w, "aw", addr, *letter, holds(*letter)).await;
    }
    let grace = w.now + Duration::days(9) + Duration::hours(1);
    let sent = w.wait_until(grace).await;
    let told = sent
        .iter()
        .find(|m| m.to == "guy@example.org" && m.subject.contains("Your Power Is Abandoned"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(told.body.contains("The game waits;"), "{}", told.body);
    assert!(
        !told
            .body
            .lines()
            .any(|l| l.trim() == "It has no orders on file: its units hold."),
        "{}",
        told.body
    );
    assert!(
        told.body.contains("Nothing is adjudicated until a new player takes your power over or the Master processes the phase; if the Master does first: It has no orders on file: its units hold."),
        "{}",
        told.body
    );
}
