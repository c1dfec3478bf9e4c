//! Nothing grows without bound (issue 36, point 6): "Phase lengths under a floor (e.g. 1 h)
//! only for the keeper's games ...; a game nobody plays (every power a dummy or in civil
//! disorder for N phases) pauses or ends, the Master told; CREATE capped per sender per day
//! and judge-wide per hour in the store (so `herald ingest` obeys it too); a game whose
//! Master never confirmed is not listed and lapses after a day; forming games lapse after N
//! days without a join." Done means "at most 25 listed forming games from the 400 CREATEs".

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use herald::service::Service;
use support::*;

const GM: &str = "gm@example.org";
const ANN: &str = "ann@example.org";

/// The names of the stored games.
async fn stored(w: &World) -> Vec<String> {
    w.service
        .store
        .games()
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.name)
        .collect()
}

/// The games a LIST from `from` shows as forming: the lines of that section.
async fn listed_forming(w: &mut World, from: &str) -> Vec<String> {
    let sent = w.mail(from, "list", "LIST\n").await;
    let body = reply(&sent, from).body.clone();
    body.lines()
        .skip_while(|l| !l.starts_with("Forming"))
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// `[limits] creates_per_sender_day` (5): the sixth CREATE from one address in a day is
/// refused, naming the limit; a day later it is taken again.
#[tokio::test]
async fn the_sixth_create_from_one_sender_in_a_day_is_refused() {
    let mut w = World::new("growth-sender").await;
    for i in 1..=5 {
        let sent = w.mail(GM, "new", &format!("CREATE ?a{i} gmpass\n")).await;
        assert!(
            reply(&sent, GM)
                .body
                .contains(&format!("Game 'a{i}' (standard) created")),
            "{}",
            reply(&sent, GM).body
        );
        w.confirm(GM, &sent).await;
    }
    let sent = w.mail(GM, "new", "CREATE ?a6 gmpass\n").await;
    let text = &reply(&sent, GM).body;
    assert!(
        text.contains("gm@example.org has created 5 games in the last 24 hours, as many as herald takes from one address in a day ([limits] creates_per_sender_day = 5): the game was not created"),
        "{text}"
    );
    assert_eq!(stored(&w).await.len(), 5);
    w.wait(Duration::hours(24) + Duration::minutes(1)).await;
    let sent = w.mail(GM, "new", "CREATE ?a7 gmpass\n").await;
    assert!(reply(&sent, GM)
        .body
        .contains("Game 'a7' (standard) created"));
}

/// The cap is counted in the database, not in the process: mails handled by two judges on
/// one database (as `herald ingest` runs one process a mail) share it.
#[tokio::test]
async fn the_create_cap_holds_across_two_judges_on_one_database() {
    let mut w = World::new("growth-two").await;
    for i in 1..=3 {
        let sent = w.mail(GM, "new", &format!("CREATE ?a{i} gmpass\n")).await;
        w.confirm(GM, &sent).await;
    }
    let mut config = w.service.config.clone();
    config.inbox.maildir = w.dir.join("b-inbox");
    config.outbox.maildir = w.dir.join("b-outbox");
    config.storage.attention_file = w.dir.join("b-attention.txt");
    let other = Service::open(config).await.unwrap();
    for i in 4..=6 {
        let raw = format!(
            "From: {GM}\r\nTo: judge@herald.test\r\nSubject: new\r\nMessage-ID: <b{i}@test>\r\n\r\nCREATE ?b{i} gmpass\r\n"
        );
        other.ingest(raw.as_bytes(), w.now).await.unwrap();
    }
    let names = stored(&w).await;
    assert_eq!(
        names,
        ["a1", "a2", "a3", "b4", "b5"],
        "the sixth was refused"
    );
    // The other judge's answers went into the shared outbox, and out through this one.
    let sent = w.mail(GM, "new", "CREATE ?a7 gmpass\n").await;
    let answers: Vec<&Sent> = find(&sent, GM, "Re:");
    assert_eq!(answers.len(), 4, "three from the other judge, this one's");
    let refused: Vec<&&Sent> = answers
        .iter()
        .filter(|m| m.body.contains("([limits] creates_per_sender_day = 5)"))
        .collect();
    assert_eq!(refused.len(), 2, "b6 and a7: {answers:#?}");
    assert_eq!(stored(&w).await.len(), 5);
    other.store.close().await;
}

/// `[limits] creates_per_hour` (20): the judge's twenty-first CREATE in an hour is refused,
/// whoever sends it; an hour later CREATE works again.
#[tokio::test]
async fn the_twenty_first_create_of_an_hour_is_refused() {
    let mut w = World::new("growth-hour").await;
    let senders: Vec<(String, String)> = (0..20)
        .map(|i| (format!("p{i}@example.org"), format!("CREATE ?h{i} pw\n")))
        .collect();
    let mails: Vec<(&str, &str, &str)> = senders
        .iter()
        .map(|(from, body)| (from.as_str(), "new", body.as_str()))
        .collect();
    w.mails(&mails).await;
    assert_eq!(stored(&w).await.len(), 20);
    w.wait(Duration::minutes(30)).await;
    let sent = w.mail(GM, "new", "CREATE ?late gmpass\n").await;
    let text = &reply(&sent, GM).body;
    assert!(
        text.contains("herald has created 20 games in the last hour, as many as it creates in an hour ([limits] creates_per_hour = 20): the game was not created"),
        "{text}"
    );
    assert_eq!(stored(&w).await.len(), 20);
    w.wait(Duration::minutes(31)).await;
    let sent = w.mail(GM, "new", "CREATE ?late gmpass\n").await;
    assert!(reply(&sent, GM)
        .body
        .contains("Game 'late' (standard) created"));
}

/// The replay: 400 CREATEs from 400 forged addresses leave at most 25 listed
/// forming games (none: their Masters never confirmed, and at most 20 were made), and a
/// day later none is left.
#[tokio::test]
async fn four_hundred_forged_creates_leave_at_most_25_listed_forming_games() {
    let mut w = World::new("growth-400").await;
    let forged: Vec<(String, String)> = (0..400)
        .map(|i| (format!("f{i}@forged.example"), format!("CREATE ?f{i} pw\n")))
        .collect();
    let mails: Vec<(&str, &str, &str)> = forged
        .iter()
        .map(|(from, body)| (from.as_str(), "new", body.as_str()))
        .collect();
    w.mails(&mails).await;
    let made = stored(&w).await.len();
    assert!(made <= 20, "{made} games made");
    let sent = w.mail(ANN, "hello", "LIST\n").await;
    w.confirm(ANN, &sent).await;
    let listed = listed_forming(&mut w, ANN).await;
    assert!(listed.len() <= 25, "{listed:?}");
    assert!(listed.is_empty(), "no forged Master confirmed: {listed:?}");
    w.wait(Duration::hours(25)).await;
    assert!(stored(&w).await.is_empty(), "{:?}", stored(&w).await);
}

/// A game whose Master never confirmed the address is not in LIST, and a day later it is
/// gone and its name free; its Master is not mailed about it. A confirmed Master's game is
/// listed and stays.
#[tokio::test]
async fn an_unconfirmed_masters_game_is_not_listed_and_gone_after_a_day() {
    let mut w = World::new("growth-ghost").await;
    let ghost = "ghost@forged.example";
    w.mail(ghost, "new", "CREATE ?ghost pw\n").await;
    let sent = w.mail(GM, "new", "CREATE ?real gmpass\n").await;
    w.confirm(GM, &sent).await;
    assert_eq!(stored(&w).await, ["ghost", "real"]);
    assert_eq!(listed_forming(&mut w, GM).await, ["real"]);
    let mut after = w.wait(Duration::hours(23)).await;
    assert_eq!(stored(&w).await, ["ghost", "real"], "not yet a day");
    after.extend(w.wait(Duration::hours(2)).await);
    assert_eq!(stored(&w).await, ["real"]);
    assert!(find(&after, ghost, "").is_empty(), "{after:#?}");
    let sent = w.mail(GM, "new", "CREATE ?ghost gmpass\n").await;
    assert!(
        reply(&sent, GM)
            .body
            .contains("Game 'ghost' (standard) created"),
        "the name is free: {}",
        reply(&sent, GM).body
    );
}

/// `[limits] forming_days` (14): a forming game nobody joins lapses after 14 days and its
/// (confirmed) Master is told; a join starts the 14 days again.
#[tokio::test]
async fn a_forming_game_with_no_join_lapses_after_fourteen_days() {
    let mut w = World::new("growth-lonely").await;
    let sent = w.mail(GM, "new", "CREATE ?lonely gmpass\n").await;
    w.confirm(GM, &sent).await;
    w.wait(Duration::minutes(1)).await;
    w.mail(GM, "new", "CREATE ?joined gmpass\n").await;
    w.wait(Duration::days(10)).await;
    let sent = w.mail(ANN, "join", "SIGNON ?joined pwa\n").await;
    w.confirm(ANN, &sent).await;
    let before = w.wait(Duration::days(3) + Duration::hours(23)).await;
    assert!(find(&before, GM, "Lapsed").is_empty());
    assert_eq!(stored(&w).await, ["joined", "lonely"]);
    let after = w.wait(Duration::hours(2)).await;
    assert_eq!(stored(&w).await, ["joined"]);
    let told = find(&after, GM, "Game Lapsed");
    assert_eq!(told.len(), 1, "{after:#?}");
    assert!(
        told[0]
            .body
            .contains("Game 'lonely' has lapsed before it started: nobody joined it for 14 days ([limits] forming_days)"),
        "{}",
        told[0].body
    );
    let later = w.wait(Duration::days(11)).await;
    assert!(stored(&w).await.is_empty());
    assert_eq!(
        find(&later, ANN, "Game Lapsed").len(),
        1,
        "the player who joined is told"
    );
}

/// A FORCE BEGIN game of dummies and one player who never orders, NMR, phases of an hour
/// (the floor): after 6 phases nobody played it pauses, its Master is told once, and it
/// stays paused: no more results.
#[tokio::test]
async fn a_game_of_dummies_pauses_after_six_phases_and_the_master_is_told_once() {
    let mut w = World::new("growth-idle").await;
    let sent = w.mail(GM, "new", "CREATE ?idle gmpass\n").await;
    w.confirm(GM, &sent).await;
    let sent = w.mail(ANN, "join", "SIGNON ?idle pwa\n").await;
    w.confirm(ANN, &sent).await;
    let sent = w
        .mail(
            GM,
            "go",
            "SIGNON Midle gmpass\nSET NMR\nSET MOVE NEXT 1h GRACE 1h\nSET RETREAT NEXT 1h GRACE 1h\nSET ADJUST NEXT 1h GRACE 1h\nFORCE BEGIN\n",
        )
        .await;
    assert!(
        reply(&sent, GM).body.contains("The game has started."),
        "{}",
        reply(&sent, GM).body
    );
    let mut all = Vec::new();
    for _ in 0..48 {
        all.extend(w.wait(Duration::hours(1)).await);
        if !find(&all, GM, "Game Paused").is_empty() {
            break;
        }
    }
    let paused = find(&all, GM, "Game Paused");
    assert_eq!(
        paused.len(),
        1,
        "{:#?}",
        all.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
    );
    assert!(
        paused[0]
            .body
            .contains("Nobody has played 'idle' for 6 phases in a row"),
        "{}",
        paused[0].body
    );
    let results = find(&all, GM, "Results").len();
    assert!((6..=8).contains(&results), "{results} phases processed");
    let later = w.wait_until(w.now + Duration::days(2)).await;
    assert!(find(&later, GM, "Results").is_empty(), "it stays paused");
    assert!(find(&later, GM, "Game Paused").is_empty(), "told once");
    let rows = w.service.store.games().await.unwrap();
    assert_eq!(rows[0].status, "paused");
}
