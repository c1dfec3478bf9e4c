//! Issue 13's trust points that live in the judge's core: no value a Master sets can stop
//! the judge, a fault in one game never stops the others, a refused line never pushes out a
//! player who ordered, PHASE applies to the lines after it, a reused Message-ID is never a
//! reason to drop a mail, and a clock the keeper sets is not an outage.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::{DateTime, Duration, Utc};
use herald::judge::game::Status;
use herald::service::Clock;
use support::{find, order, start_game, to, World, SEVEN};

const GM: &str = "gm@example.org";
const KEEPER: &str = "postmaster@localhost";

fn who(letter: char) -> &'static str {
    SEVEN.iter().find(|(_, l)| *l == letter).expect("a power").0
}

/// The game as stored.
async fn stored(w: &World, name: &str) -> herald::judge::Game {
    let mut tx = w.service.store.begin().await.unwrap();
    let mut games = tx
        .games_named::<herald::judge::Game>(&[name.into()])
        .await
        .unwrap();
    games.pop().unwrap()
}

/// The reply to the Master's mail with this subject.
fn reply<'a>(sent: &'a [support::Sent], subject: &str) -> &'a str {
    &find(sent, GM, &format!("Re: {subject}"))[0].body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_duration_or_date_a_master_sets_can_stop_the_judge() {
    let mut w = World::new("trust-limits").await;
    start_game(&mut w, GM, "big", "standard", &SEVEN).await;
    let sent = w
        .mail(
            GM,
            "limits",
            "SIGNON Mbig gmpass\nSET NMR\nSET MOVE NEXT 99999999999d\nSET MOVE GRACE 99999999999d\nSET RETREAT NEXT 366d\nSET ADJUST GRACE 0m\nSET DEADLINE +99999999999d\nSET DEADLINE 1970-01-01\nSET DEADLINE 2029-01-01\nSET GRACE 99999-01-01\nSET START 2026-11-30\nSET MOVE NEXT 9223372036854775807d1m\n",
        )
        .await;
    let body = reply(&sent, "limits");
    for refusal in [
        "SET MOVE NEXT 99999999999d\n  *** '99999999999d' is too long: at most 365 days",
        "SET MOVE GRACE 99999999999d\n  *** '99999999999d' is too long: at most 365 days",
        "SET RETREAT NEXT 366d\n  *** '366d' is too long: at most 365 days",
        "SET ADJUST GRACE 0m\n  *** '0m' is too short: at least 1 minute",
        "SET DEADLINE +99999999999d\n  *** '+99999999999d' is too far ahead",
        "SET DEADLINE 1970-01-01\n  *** Thu Jan 01 1970 23:59 UTC has passed",
        "SET DEADLINE 2029-01-01\n  *** Mon Jan 01 2029 23:59 UTC is more than 365 days ahead",
        "SET START 2026-11-30\n  *** Mon Nov 30 2026 23:59 UTC has passed",
    ] {
        assert!(body.contains(refusal), "missing «{refusal}» in:\n{body}");
    }
    assert!(body.contains("SET GRACE 99999-01-01\n  *** "), "{body}");
    assert!(
        body.contains("SET MOVE NEXT 9223372036854775807d1m\n  *** "),
        "{body}"
    );
    // The game goes on with its old timing: at the end of grace every power is in civil
    // disorder, the phase is played, and the next deadline is a week on.
    let sent = w.wait_until(w.now + Duration::days(9)).await;
    assert!(!find(&sent, GM, "Results").is_empty(), "{sent:#?}");
    let g = stored(&w, "big").await;
    assert_eq!(g.status, Status::Running);
    assert_eq!(
        g.deadline.unwrap(),
        at("2026-12-17T10:00:00Z"),
        "a week after the results"
    );
}

fn at(t: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(t).unwrap().with_timezone(&Utc)
}

/// Spoils a stored game so that processing it fails: every unit stands on a region the map
/// does not have (what a bug in herald could leave behind).
async fn spoil(w: &World, name: &str) {
    let mut tx = w.service.store.begin().await.unwrap();
    let mut state = tx
        .games_named::<serde_json::Value>(&[name.into()])
        .await
        .unwrap()
        .pop()
        .unwrap();
    for unit in state["position"]["units"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .filter(|u| !u.is_null())
    {
        unit["region"] = serde_json::json!(60000);
    }
    let due = w.now.timestamp();
    // A state this herald cannot judge (a unit on no region), with a summary of its own.
    let summary = herald::store::Summary::default();
    tx.save_game(name, "running", &state, &summary, Some(due), due)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_fails_is_set_aside_and_the_others_go_on() {
    let mut w = World::new("trust-aside").await;
    start_game(&mut w, GM, "good", "standard", &SEVEN).await;
    start_game(&mut w, GM, "bad", "standard", &SEVEN).await;
    for game in ["good", "bad"] {
        w.mail(GM, "nmr", &format!("SIGNON M{game} gmpass\nSET NMR\n"))
            .await;
    }
    spoil(&w, "bad").await;
    // Every round ticks without an error (World unwraps each), through both deadlines.
    let sent = w.wait_until(w.now + Duration::days(10)).await;
    let aside: Vec<_> = sent
        .iter()
        .filter(|s| s.subject.contains("Game Set Aside"))
        .collect();
    assert_eq!(
        aside.iter().map(|s| s.to.as_str()).collect::<Vec<_>>(),
        [GM, KEEPER],
        "{sent:#?}"
    );
    assert!(
        aside[0].subject.contains("JUDGE:bad"),
        "{}",
        aside[0].subject
    );
    assert!(
        aside[0]
            .body
            .contains("herald failed while processing game 'bad'"),
        "{}",
        aside[0].body
    );
    assert!(
        sent.iter()
            .any(|s| s.subject.contains("JUDGE:good") && s.subject.contains("Results")),
        "the good game was played: {sent:#?}"
    );
    let bad = stored(&w, "bad").await;
    assert_eq!(bad.status, Status::Paused);
    assert!(
        bad.pause_reason
            .as_deref()
            .is_some_and(|r| r.starts_with("set aside by herald")),
        "{:?}",
        bad.pause_reason
    );
    // Mail still flows.
    let sent = w.mail(GM, "list", "LIST good\n").await;
    assert!(to(&sent, GM).body.contains("Game 'good'"), "{sent:#?}");
    // A mail that trips over the spoiled game is kept, its sender gets an apology, and the
    // keeper is told; the next mail is read as usual.
    let sent = w.mail(GM, "list", "LIST bad\n").await;
    assert!(
        to(&sent, GM).body.contains("an error of its own"),
        "{sent:#?}"
    );
    assert!(
        to(&sent, KEEPER)
            .body
            .contains("herald failed while handling a mail from gm@example.org"),
        "{sent:#?}"
    );
    let sent = w.mail(GM, "help", "HELP\n").await;
    assert_eq!(sent.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_line_never_makes_a_player_late() {
    let mut w = World::new("trust-typo").await;
    start_game(&mut w, GM, "typo", "standard", &SEVEN).await;
    w.mail(GM, "nmr", "SIGNON Mtypo gmpass\nSET NMR\n").await;
    // England orders every unit, plus one line herald cannot read.
    let r = order(
        &mut w,
        "typo",
        who('E'),
        'E',
        "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor\nF Nth-Xyz",
    )
    .await;
    assert!(
        r.contains("England: orders complete. The lines marked *** were refused and ignored"),
        "{r}"
    );
    // France orders one unit of three: late and incomplete, not in civil disorder (issue
    // 36, point 7: "Civil disorder means no orders at all (a power with some orders is
    // 'late, incomplete': its unordered units hold, said to it and the Master only)").
    order(&mut w, "typo", who('F'), 'F', "A Par-Bur").await;
    let sent = w.wait_until(w.now + Duration::days(9)).await;
    let notice = &find(&sent, GM, "Civil Disorder")[0].body;
    assert!(!notice.contains("England"), "{notice}");
    assert!(!notice.contains("France"), "{notice}");
    assert!(
        notice.contains("Germany is in civil disorder: grace ended without orders from it. It has no orders on file: its units hold."),
        "{notice}"
    );
    // The power concerned hears it by itself, with exactly the orders used.
    let own = find(&sent, who('F'), "Late, Incomplete Orders");
    assert_eq!(own.len(), 1, "{sent:#?}");
    assert!(own[0].body.contains("  A Par - Bur\n"), "{}", own[0].body);
    assert!(own[0].body.contains("A Mar: No order"), "{}", own[0].body);
    assert!(find(&sent, who('F'), "You Are In Civil Disorder").is_empty());
    assert!(find(&sent, who('E'), "You Are In Civil Disorder").is_empty());
    // England's orders were adjudicated.
    let results = &find(&sent, who('E'), "Results")[0].body;
    assert!(results.contains("Fleet London -> North Sea."), "{results}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_nmr_a_refused_line_does_not_abandon_and_the_late_player_is_told() {
    let mut w = World::new("trust-nonmr").await;
    start_game(&mut w, GM, "nonmr", "standard", &SEVEN).await;
    for (addr, letter) in SEVEN {
        let orders = match letter {
            'E' => "F Lon H\nF Edi H\nA Lvp H\nBogus line",
            'F' => "A Par H",
            _ => continue,
        };
        order(&mut w, "nonmr", addr, letter, orders).await;
    }
    let sent = w.wait_until(w.now + Duration::days(9)).await;
    let notice = &find(&sent, GM, "Abandoned Power")[0].body;
    assert!(!notice.contains("England"), "{notice}");
    assert!(notice.contains("France is abandoned"), "{notice}");
    let own = find(&sent, who('F'), "Your Power Is Abandoned");
    assert_eq!(own.len(), 1, "{sent:#?}");
    assert!(own[0].body.contains("  A Par H\n"), "{}", own[0].body);
    assert!(
        find(&sent, who('E'), "Your Power Is Abandoned").is_empty(),
        "{sent:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn phase_applies_to_the_lines_after_it() {
    let mut w = World::new("trust-phase").await;
    start_game(&mut w, GM, "ph", "standard", &SEVEN).await;
    let r = order(
        &mut w,
        "ph",
        who('E'),
        'E',
        "F Lon-Nth\nPHASE F1901M\nF Edi-Nwg\nPHASE S1901M\nA Lvp-Yor",
    )
    .await;
    assert!(r.contains("  F Lon - Nth\n"), "{r}");
    // Orders for a later phase are kept for it (issue 18, point 4), not filed for Spring.
    assert!(
        r.contains("Orders for F1901M, kept until F1901M comes") && r.contains("  F Edi - Nwg\n"),
        "{r}"
    );
    assert!(r.contains("  A Lvp - Yor\n"), "{r}");
    assert!(r.contains("F Edi: No order"), "{r}");
    // A Fall order after the last PHASE line is not filed for Spring.
    let r = order(
        &mut w,
        "ph",
        who('F'),
        'F',
        "PHASE S1901M\nA Par-Bur\nPHASE F1901M\nA Mar-Spa",
    )
    .await;
    assert!(r.contains("  A Par - Bur\n"), "{r}");
    assert!(
        r.contains("Orders for F1901M, kept until F1901M comes"),
        "{r}"
    );
    assert!(r.contains("A Mar: No order"), "{r}");
    // After a PHASE line herald cannot read, nothing is filed.
    let r = order(&mut w, "ph", who('G'), 'G', "PHASE Someday\nA Ber-Kie").await;
    assert!(
        r.contains("A Ber-Kie\n    *** the PHASE line above was not understood"),
        "{r}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reused_message_id_is_read_as_a_new_mail_and_a_true_duplicate_once() {
    let mut w = World::new("trust-msgid").await;
    let ann = "ann@example.org";
    assert_eq!(w.mail(ann, "one", "HELP\n").await.len(), 1);
    // The same mail again: nothing.
    assert!(w.redeliver_last(ann, "one", "HELP\n").await.is_empty());
    // Another mail under the same Message-ID (a careless client, or someone who wants
    // Ann's mail dropped) is read and answered.
    let sent = w.redeliver_last(ann, "two", "LIST\n").await;
    assert!(to(&sent, ann).body.contains("No games"), "{sent:#?}");
    // ...exactly once.
    assert!(w.redeliver_last(ann, "two", "LIST\n").await.is_empty());
    // The same body from someone else is someone else's mail.
    let bob = "bob@example.org";
    let sent = w.redeliver_last(bob, "two", "LIST\n").await;
    // Bob's own answer (asking him to confirm his address, as he never did).
    assert!(
        to(&sent, bob).subject.starts_with("Re: two [confirm-"),
        "{sent:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_the_keeper_sets_is_not_an_outage() {
    let mut w = World::new("trust-clock").await;
    w.clock = Clock::Set;
    start_game(&mut w, GM, "clk", "standard", &SEVEN).await;
    w.mail(GM, "nmr", "SIGNON Mclk gmpass\nSET NMR\n").await;
    // `herald tick --now` ten days on: the deadline and grace passed on purpose, so the
    // phase is played, and nobody is told of an outage.
    let sent = w.jump_to(w.now + Duration::days(10)).await;
    assert!(
        sent.iter().all(|s| !s.subject.contains("Outage Recovery")),
        "{sent:#?}"
    );
    assert!(!find(&sent, GM, "Results").is_empty(), "{sent:#?}");
    // The daemon's own wall clock still tells an outage (tests/mail_game.rs checks what
    // follows): a wall-clock tick long after the last one moves deadlines.
    w.clock = Clock::Wall;
    w.jump_to(w.now + Duration::hours(1)).await;
    let sent = w.jump_to(w.now + Duration::days(10)).await;
    assert!(!find(&sent, GM, "Outage Recovery").is_empty(), "{sent:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nobody_can_send_their_mail_to_herald_itself() {
    let mut w = World::new("trust-address").await;
    start_game(&mut w, GM, "adr", "standard", &SEVEN).await;
    let r = order(
        &mut w,
        "adr",
        who('E'),
        'E',
        "SET ADDRESS Judge@Herald.test",
    )
    .await;
    assert!(
        r.contains(
            "SET ADDRESS Judge@Herald.test\n  *** judge@herald.test is herald's own address"
        ),
        "{r}"
    );
    let sent = w
        .mail(
            GM,
            "addr",
            "SIGNON Madr gmpass\nSET ADDRESS judge@herald.test\n",
        )
        .await;
    assert!(to(&sent, GM).body.contains("is herald's own address"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_to_naming_herald_is_not_followed() {
    let mut w = World::new("trust-replyto").await;
    let sent = w
        .mail_with_headers(
            "ann@example.org",
            "loop",
            "Reply-To: Judge <JUDGE@herald.test>\r\n",
            "HELP\n",
        )
        .await;
    assert_eq!(
        sent.iter().map(|s| s.to.as_str()).collect::<Vec<_>>(),
        ["ann@example.org"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outage_recovery_never_shortens_grace() {
    // Issue 19, point 4: after an outage across the deadline, a later end of grace that the
    // Master set stands.
    let mut w = World::new("trust-outage-grace").await;
    start_game(&mut w, GM, "og", "standard", &SEVEN).await;
    // The deadline is Tue Dec 08 10:00; the Master gives grace until Dec 30.
    w.mail(
        GM,
        "grace",
        "SIGNON Mog gmpass\nSET GRACE 2026-12-30 10:00\n",
    )
    .await;
    w.jump_to(w.now + Duration::hours(1)).await;
    // herald is down from then until Dec 09, across the deadline.
    let sent = w.jump_to(at("2026-12-09T10:00:00Z")).await;
    let note = to(&sent, GM);
    assert!(note.subject.contains("Outage Recovery"), "{}", note.subject);
    let g = stored(&w, "og").await;
    assert_eq!(g.deadline, Some(at("2026-12-10T10:00:00Z")));
    assert_eq!(g.grace, Some(at("2026-12-30T10:00:00Z")), "{}", note.body);
}

/// The Message-ID of each mail herald wrote.
fn message_ids(sent: &[support::Sent]) -> Vec<String> {
    sent.iter()
        .filter_map(|s| {
            s.raw
                .lines()
                .find_map(|l| l.strip_prefix("Message-ID: "))
                .map(str::to_string)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn message_ids_never_repeat_across_databases() {
    // Issue 19, point 3: outbox row numbers start again in every database, Message-IDs don't.
    let mut first = World::new("trust-msgid-a").await;
    let mut second = World::new("trust-msgid-b").await;
    let a = message_ids(&first.mail("ann@example.org", "one", "HELP\n").await);
    let b = message_ids(&second.mail("ann@example.org", "one", "HELP\n").await);
    assert_eq!((a.len(), b.len()), (1, 1));
    assert!(a[0].starts_with("<outbox-1."), "{a:?}");
    assert_ne!(a, b);
    // The same database keeps its mark: the next mail's ID differs only by its row.
    let c = message_ids(&first.mail("ann@example.org", "two", "HELP\n").await);
    let mark = |id: &str| id.split_once('.').map(|(_, rest)| rest.to_string());
    assert_eq!(mark(&a[0]), mark(&c[0]));
}
