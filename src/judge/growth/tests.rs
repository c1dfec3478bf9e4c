use chrono::Duration;

use super::*;
use crate::judge::testkit::{judge, mail, reply, start, started, GM};
use crate::judge::Games;

/// Issue 36: "Phase lengths under a floor (e.g. 1 h) only for the keeper's games": a
/// Master's NEXT under `[limits] shortest_phase_minutes` (60) is refused, naming the floor;
/// an hour is taken; the keeper's own game takes a minute.
#[test]
fn a_phase_shorter_than_the_floor_is_refused_but_in_the_keepers_games() {
    let j = judge();
    let mut games = started(&j);
    let before = games["g"].settings.timing.clone();
    let h = mail(
        &j,
        &mut games,
        GM,
        "SIGNON Mg gmpass\nSET MOVE NEXT 1m GRACE 1m\nSET RETREAT NEXT 59m",
        start(),
    );
    let text = &reply(&h, GM).body;
    assert!(
        text.contains("SET MOVE NEXT 1m GRACE 1m\n  *** a phase of 1 minute is shorter than 1 hour, the shortest herald runs ([limits] shortest_phase_minutes): write NEXT 60m or longer"),
        "{text}"
    );
    assert!(
        text.contains("a phase of 59 minutes is shorter than 1 hour"),
        "{text}"
    );
    assert_eq!(games["g"].settings.timing, before, "nothing changed");
    let h = mail(
        &j,
        &mut games,
        GM,
        "SIGNON Mg gmpass\nSET MOVE NEXT 1h GRACE 1m",
        start(),
    );
    assert!(!reply(&h, GM).subject.contains("[Error Flag]"));
    assert_eq!(games["g"].settings.timing[0].next, 60);

    let mut games = Games::new();
    let keeper = j.keeper.clone();
    mail(&j, &mut games, &keeper, "CREATE ?k kpass", start());
    let h = mail(
        &j,
        &mut games,
        &keeper,
        "SIGNON Mk kpass\nSET MOVE NEXT 1m",
        start(),
    );
    assert!(!reply(&h, &keeper).subject.contains("[Error Flag]"));
    assert_eq!(games["k"].settings.timing[0].next, 1);
}

/// Issue 36: "a game nobody plays (every power a dummy or in civil disorder for N phases)
/// pauses or ends, the Master told": after `[limits] idle_phases` (6) phases processed with
/// no orders from anyone it pauses, and the Master alone gets one notice; a phase with
/// orders starts the count again.
#[test]
fn a_game_nobody_plays_pauses_after_six_phases_and_its_master_is_told_once() {
    let j = judge();
    let mut games = started(&j);
    let mut now = start();
    let mut told = Vec::new();
    let mut acting_phases = 0;
    while games["g"].status == Status::Running && acting_phases < 20 {
        if !crate::judge::orders::must_act(&j, &games["g"]).is_empty() {
            acting_phases += 1;
        }
        now += Duration::days(1);
        let e = crate::judge::process::process(&j, games.get_mut("g").unwrap(), now);
        told.extend(
            e.mails
                .into_iter()
                .filter(|m| m.subject.contains("Game Paused")),
        );
    }
    let g = &games["g"];
    assert_eq!(
        acting_phases, 6,
        "paused after the sixth phase nobody played"
    );
    assert_eq!(g.status, Status::Paused);
    assert_eq!(
        g.pause_ends, None,
        "it stays paused until the Master resumes it"
    );
    assert_eq!(told.len(), 1, "{told:#?}");
    assert_eq!(told[0].to, GM);
    assert!(
        told[0]
            .body
            .contains("Nobody has played 'g' for 6 phases in a row"),
        "{}",
        told[0].body
    );
    assert_eq!(g.idle_phases, 0);
}

/// One phase with orders from one power is a phase played: the count starts again.
#[test]
fn orders_from_one_power_start_the_idle_count_again() {
    let j = judge();
    let mut games = started(&j);
    let mut now = start();
    while games["g"].idle_phases < 4 {
        now += Duration::days(1);
        crate::judge::process::process(&j, games.get_mut("g").unwrap(), now);
    }
    while crate::judge::orders::must_act(&j, &games["g"]).is_empty() {
        now += Duration::days(1);
        crate::judge::process::process(&j, games.get_mut("g").unwrap(), now);
    }
    let h = mail(
        &j,
        &mut games,
        "ann@example.org",
        "SIGNON Eg pwE
F Lon H",
        now,
    );
    assert!(!reply(&h, "ann@example.org")
        .subject
        .contains("[Error Flag]"));
    now += Duration::days(1);
    crate::judge::process::process(&j, games.get_mut("g").unwrap(), now);
    assert_eq!(games["g"].idle_phases, 0);
}

/// The caps on CREATE read the store's counts: the sender's sixth of a day and the
/// judge's twenty-first of an hour are refused with the limit named, and nothing is made.
#[test]
fn create_is_refused_at_either_cap() {
    let j = judge();
    let mut games = Games::new();
    let mut standing = Standing::default();
    for _ in 0..5 {
        standing.created(GM);
    }
    let h = crate::judge::session::handle_within(
        &j,
        &crate::judge::testkit::letter(GM, "CREATE ?six gmpass"),
        crate::judge::session::parse("CREATE ?six gmpass"),
        &mut games,
        start(),
        j.limits,
        &standing,
    );
    assert!(games.is_empty());
    assert!(reply(&h, GM).body.contains("gm@example.org has created 5 games in the last 24 hours, as many as herald takes from one address in a day ([limits] creates_per_sender_day = 5): the game was not created"), "{}", reply(&h, GM).body);
    let mut standing = Standing::default();
    for i in 0..20 {
        standing.created(&format!("p{i}@example.org"));
    }
    let h = crate::judge::session::handle_within(
        &j,
        &crate::judge::testkit::letter(GM, "CREATE ?many gmpass"),
        crate::judge::session::parse("CREATE ?many gmpass"),
        &mut games,
        start(),
        j.limits,
        &standing,
    );
    assert!(games.is_empty());
    assert!(reply(&h, GM).body.contains("herald has created 20 games in the last hour, as many as it creates in an hour ([limits] creates_per_hour = 20)"), "{}", reply(&h, GM).body);
}

/// A forming game lapses a day after it was made when its Master never confirmed, and
/// after `[limits] forming_days` (14) without a join otherwise; a join starts the time
/// again; the keeper's games and started games never lapse.
#[test]
fn forming_games_lapse_by_the_rule() {
    let j = judge();
    let mut games = Games::new();
    mail(&j, &mut games, GM, "CREATE ?f gmpass", start());
    let g = &games["f"];
    assert_eq!(g.formed, Some(start()));
    let at = |d: Duration| start() + d;
    assert_eq!(lapse(&j, g, false, at(Duration::hours(23))), None);
    assert_eq!(
        lapse(&j, g, false, at(Duration::hours(24))),
        Some(Lapse::Unconfirmed)
    );
    assert_eq!(lapse(&j, g, true, at(Duration::days(13))), None);
    assert_eq!(
        lapse(&j, g, true, at(Duration::days(14))),
        Some(Lapse::NoJoin)
    );
    mail(
        &j,
        &mut games,
        "ann@example.org",
        "SIGNON ?f pw",
        at(Duration::days(10)),
    );
    assert_eq!(games["f"].formed, Some(at(Duration::days(10))));
    assert_eq!(lapse(&j, &games["f"], true, at(Duration::days(20))), None);
    let started = started(&j);
    assert_eq!(
        lapse(&j, &started["g"], false, at(Duration::days(99))),
        None
    );
    let keeper = j.keeper.clone();
    mail(&j, &mut games, &keeper, "CREATE ?k kpass", start());
    assert_eq!(lapse(&j, &games["k"], false, at(Duration::days(99))), None);
}
