//! Issue 38, point 1: "LIST ... read[s] the summary only, with pagination (`LIST` pages by
//! `LIST FROM <name>`)", and "finding one game is a point lookup by name everywhere".

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use support::*;

const GM: &str = "gm@example.org";
const STRANGER: &str = "p9@x.test";

/// A judge with 120 forming games, `g000` to `g119`, of a confirmed Master.
async fn judge_of_120_games(name: &str) -> World {
    let mut w = World::new(name).await;
    let sent = w.mail(GM, "new", "CREATE ?g000 gmpass\n").await;
    w.confirm(GM, &sent).await;
    let names: Vec<String> = (1..120).map(|i| format!("g{i:03}")).collect();
    copies(&w.service, "g000", &names).await;
    w
}

/// The games a LIST reply shows: the first word of each line of the table.
fn games_shown(body: &str) -> Vec<String> {
    body.lines()
        .filter(|l| l.starts_with('g') && l.contains("standard"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// LIST of 120 games prints the first 50 by name and how to get the next page; that page
/// and the last follow, the last without a next page.
#[tokio::test]
async fn a_list_of_120_games_prints_one_page_and_names_the_next() {
    let mut w = judge_of_120_games("paged-list").await;
    let names =
        |r: std::ops::Range<usize>| -> Vec<String> { r.map(|i| format!("g{i:03}")).collect() };
    let sent = w.mail(STRANGER, "list", "LIST\n").await;
    let body = &reply(&sent, STRANGER).body;
    assert_eq!(games_shown(body), names(0..50), "{body}");
    assert!(body.contains("LIST FROM g050"), "{body}");
    let sent = w.mail(STRANGER, "list", "LIST FROM g050\n").await;
    let body = &reply(&sent, STRANGER).body;
    assert_eq!(games_shown(body), names(50..100), "{body}");
    assert!(body.contains("LIST FROM g100"), "{body}");
    let sent = w.mail(STRANGER, "list", "list from G100\n").await;
    let body = &reply(&sent, STRANGER).body;
    assert_eq!(games_shown(body), names(100..120), "{body}");
    assert!(!body.contains("LIST FROM"), "{body}");
}

/// The help names the form (the help's lines are what a player reads).
#[tokio::test]
async fn the_help_names_list_from() {
    let mut w = World::new("paged-help").await;
    let sent = w.mail(STRANGER, "help", "HELP\n").await;
    assert!(
        reply(&sent, STRANGER).body.contains("LIST FROM <game>"),
        "{}",
        reply(&sent, STRANGER).body
    );
}

/// One game is found by its name alone: another game whose stored state this herald cannot
/// read does not stop `herald game show` / `herald export` (Service::game) finding it, nor
/// the keeper's listing, which reads summaries only.
#[tokio::test]
async fn one_game_is_found_with_another_games_state_unreadable() {
    let mut w = World::new("paged-point").await;
    let sent = w.mail(GM, "new", "CREATE ?war gmpass\n").await;
    w.confirm(GM, &sent).await;
    copies(&w.service, "war", &["broken".to_string()]).await;
    let mut db = Db::open(&w.service.config.storage.database).await;
    db.execute("UPDATE games SET state = '{\"not\": \"a game\"' WHERE name = 'broken'")
        .await;
    db.close().await;
    let war = w.service.game("WAR").await.unwrap().unwrap();
    assert_eq!(war.name, "war");
    assert!(w.service.game_view("war").await.unwrap().is_some());
    let listed: Vec<String> = w
        .service
        .game_list()
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.name)
        .collect();
    assert_eq!(listed, ["broken", "war"]);
}

/// A game stored before summaries were kept (its columns empty, as migration 0008 leaves
/// them) is summarised from its state when herald opens the database.
#[tokio::test]
async fn a_game_stored_without_a_summary_gets_one_at_the_open() {
    let mut w = World::new("paged-backfill").await;
    let sent = w.mail(GM, "new", "CREATE ?old gmpass deluge\n").await;
    w.confirm(GM, &sent).await;
    let mut db = Db::open(&w.service.config.storage.database).await;
    db.execute("UPDATE games SET variant = NULL, master = '', members = '', powers = 0")
        .await;
    db.close().await;
    let service = herald::service::Service::open(w.service.config.clone())
        .await
        .unwrap();
    let listed = service.game_list().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].name.as_str(), listed[0].variant.as_str()),
        ("old", "deluge")
    );
    let mut db = Db::open(&w.service.config.storage.database).await;
    assert_eq!(
        db.text("SELECT master FROM games WHERE name = $1", "old")
            .await,
        GM
    );
    db.close().await;
}
