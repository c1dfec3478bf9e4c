//! Played phases in rows of their own (issue 38, point 2: "an order mail rewrites only the
//! live state ... A migration moves stored games over and the stored-game fixture still
//! loads"): what a save writes stays flat as a game ages, a ROLLBACK and its replay read
//! back as they were played, and a game stored whole is moved over and loads unchanged.

use super::*;
use crate::judge::game::Game;
use crate::judge::testkit::{self, judge, GM};
use crate::judge::{process, Judge};

/// Saves `g` in a transaction of its own; returns the bytes of game state it wrote.
async fn save(store: &Store, g: &Game) -> u64 {
    let mut tx = store.begin().await.unwrap();
    tx.save_game(&g.name, g.status.word(), g, &Summary::default(), None, 1)
        .await
        .unwrap();
    let bytes = tx.game_bytes_written();
    tx.commit().await.unwrap();
    bytes
}

/// Game `name` as the store reads it back.
async fn load(store: &Store, name: &str) -> Game {
    let mut tx = store.begin_read().await.unwrap();
    let mut games: Vec<Game> = tx.games_named(&[name.to_string()]).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(games.len(), 1, "{name} is stored");
    games.remove(0)
}

/// The size in bytes of game `name`'s `state` column.
async fn state_size(store: &Store, name: &str) -> i64 {
    let mut conn = store.conn().await.unwrap();
    on!(&mut conn, |c, Db| {
        sqlx::query_scalar("SELECT CAST(LENGTH(state) AS BIGINT) FROM games WHERE name = $1")
            .bind(name)
            .fetch_one(&mut **c)
            .await
            .unwrap()
    })
}

/// A save that changes nothing of what was played (as an order mail's): orders on file for
/// one power, different each time.
fn order_mail(g: &mut Game, n: usize) {
    let entry = g.orders.entry(0).or_default();
    entry.errors = n % 2 == 1;
}

/// Plays a year (spring and fall, every unit holding) of the standard game `g`.
fn play_year(j: &Judge, g: &mut Game, now: &mut chrono::DateTime<chrono::Utc>) {
    let year = g.position.as_ref().unwrap().phase.year;
    while g.position.as_ref().unwrap().phase.year == year {
        *now += chrono::Duration::days(2);
        process::process(j, g, *now);
    }
}

/// "The stored state grows ~12 KB a game-year even when every unit holds (249 KB at 20
/// years), the whole history rewritten by every order mail": a game saved after every
/// phase for 21 years writes, at an order mail in year 21, no more than 1.5 times what it
/// wrote in year 1, its state column keeps no more than the live state, and it reads back
/// as it was saved.
#[tokio::test]
async fn an_order_mail_of_a_game_twenty_years_old_writes_what_one_of_year_one_does() {
    let (store, dir) = fresh("played-flat").await;
    let j = judge();
    let mut g = testkit::running_game();
    let mut now = testkit::start();
    save(&store, &g).await;
    play_year(&j, &mut g, &mut now);
    save(&store, &g).await;
    order_mail(&mut g, 1);
    let whole_one = serde_json::to_string(&g).unwrap().len();
    let year_one = save(&store, &g).await;
    let state_one = state_size(&store, "g").await;
    let mut phase_saves = Vec::new();
    for _ in 0..20 {
        let year = g.position.as_ref().unwrap().phase.year;
        while g.position.as_ref().unwrap().phase.year == year {
            now += chrono::Duration::days(2);
            process::process(&j, &mut g, now);
            phase_saves.push(save(&store, &g).await);
        }
    }
    assert!(g.history.len() >= 42, "{} phases played", g.history.len());
    order_mail(&mut g, 2);
    let whole_twenty = serde_json::to_string(&g).unwrap().len();
    let year_twenty = save(&store, &g).await;
    let state_twenty = state_size(&store, "g").await;
    println!(
        "an order mail's save: {year_one} bytes in year 1, {year_twenty} in year 21 (the \
         whole state: {whole_one} / {whole_twenty}); state column {state_one} / \
         {state_twenty} bytes; phase saves {:?}",
        (phase_saves.first(), phase_saves.last())
    );
    assert!(
        year_twenty * 2 <= year_one * 3,
        "an order mail wrote {year_one} bytes in year 1 and {year_twenty} in year 21"
    );
    assert!(
        state_twenty * 2 <= state_one * 3,
        "the stored state grew from {state_one} to {state_twenty} bytes"
    );
    // A phase's save writes the live state and that phase's rows, not the history.
    let (first, last) = (phase_saves[0], *phase_saves.last().unwrap());
    assert!(
        last * 2 <= first * 3,
        "a phase's save: {first} then {last} bytes"
    );
    assert_eq!(load(&store, "g").await, g);
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ROLLBACK cuts the history back; the phases played again after it are new items at
/// old places. Saved after the ROLLBACK and after the replay, the game reads back as it is
/// in memory each time, and no row of the first playing is left.
#[tokio::test]
async fn a_rollback_and_its_replay_read_back_as_played() {
    let (store, dir) = fresh("played-rollback").await;
    let j = judge();
    let mut games = testkit::started(&j);
    let mut now = testkit::start();
    for _ in 0..3 {
        play_year(&j, games.get_mut("g").unwrap(), &mut now);
    }
    save(&store, &games["g"]).await;
    let played = games["g"].history.len();
    let h = testkit::mail(&j, &mut games, GM, "SIGNON Mg gmpass\nROLLBACK F1901M", now);
    assert!(
        testkit::reply(&h, GM)
            .body
            .contains("Rolled back to F1901M"),
        "{}",
        testkit::reply(&h, GM).body
    );
    assert_eq!(games["g"].history.len(), 1);
    save(&store, &games["g"]).await;
    assert_eq!(load(&store, "g").await, games["g"]);
    // Played again, otherwise: England moves where it held, for a year and more.
    let (ann, letter) = testkit::SEVEN[0];
    let body = format!("SIGNON {letter}g pw{letter}\nF Lon-Nth\nA Lvp-Yor");
    testkit::mail(&j, &mut games, ann, &body, now);
    let g = games.get_mut("g").unwrap();
    for _ in 0..4 {
        play_year(&j, g, &mut now);
    }
    assert!(g.history.len() > played, "played past where it was");
    save(&store, g).await;
    let back = load(&store, "g").await;
    assert_eq!(back.history, g.history);
    assert_eq!(back.archive, g.archive);
    assert_eq!(back, *g);
    let rows = count(&store, "played").await;
    assert_eq!(rows as usize, g.history.len() + g.archive.len());
    // Cut back again and saved: the rows past the end go.
    let h = testkit::mail(&j, &mut games, GM, "SIGNON Mg gmpass\nROLLBACK S1901M", now);
    assert!(testkit::reply(&h, GM)
        .body
        .contains("Rolled back to S1901M"));
    save(&store, &games["g"]).await;
    assert_eq!(load(&store, "g").await, games["g"]);
    let rows = count(&store, "played").await;
    assert_eq!(rows as usize, games["g"].archive.len());
    // A game removed takes its rows along.
    let mut tx = store.begin().await.unwrap();
    tx.delete_games(&["g".into()]).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(count(&store, "played").await, 0);
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game stored whole, as every herald before this one stored it (its lists in its
/// state, `lists` empty), is moved over when the store opens: its lists go to rows, its
/// state keeps the live part, its version stays, and it loads as it was. A record that is
/// not JSON is left whole and reported by name when read, as before; it does not stop the
/// move, nor the store from opening.
#[tokio::test]
async fn a_game_stored_whole_is_moved_over_and_loads_unchanged() {
    let (store, dir) = fresh("played-move").await;
    let j = judge();
    let mut g = testkit::running_game();
    let mut now = testkit::start();
    play_year(&j, &mut g, &mut now);
    let whole = serde_json::to_string(&g).unwrap();
    {
        let mut conn = store.conn().await.unwrap();
        on!(&mut conn, |c, Db| {
            sqlx::query(
                "INSERT INTO games (name, state, status, updated, version) \
                 VALUES ('g', $1, 'running', 1, 7)",
            )
            .bind(whole.as_str())
            .execute(&mut **c)
            .await
            .unwrap();
            // And one whose record cannot be read at all.
            sqlx::query(
                "INSERT INTO games (name, state, status, updated) \
                 VALUES ('bad', 'not json', 'running', 1)",
            )
            .execute(&mut **c)
            .await
            .unwrap();
        });
    }
    assert_eq!(
        load(&store, "g").await,
        g,
        "a game stored whole loads as it is"
    );
    store.move_whole_games().await.unwrap();
    assert_eq!(load(&store, "g").await, g);
    let live = state_size(&store, "g").await as usize;
    assert!(live < whole.len(), "{live} of {} bytes", whole.len());
    let rows = count(&store, "played").await;
    assert_eq!(rows as usize, g.history.len() + g.archive.len());
    // The daily line of the largest games counts the rows with the state.
    let largest = store.largest_changed(0, 1).await.unwrap();
    assert_eq!(largest[0].0, "g");
    let size = largest[0].1 as usize;
    assert!(
        size > live && size <= whole.len(),
        "{size} of {live} / {}",
        whole.len()
    );
    // The unreadable one is left whole, and reported by name when it is read.
    let mut tx = store.begin_read().await.unwrap();
    let err = tx.games_named::<Game>(&["bad".into()]).await.unwrap_err();
    assert!(err.to_string().contains("'bad'"), "{err}");
    tx.rollback().await.unwrap();
    let mut tx = store.begin_read().await.unwrap();
    let page = tx.game_page("", &["running"], 10).await.unwrap();
    tx.rollback().await.unwrap();
    let row = page.iter().find(|p| p.name == "g").unwrap();
    assert_eq!(row.version, 7, "moving changes nothing a reader sees");
    // Moved once: a second pass finds nothing to move.
    let mut tx = store.begin().await.unwrap();
    assert_eq!(tx.move_whole_games(10).await.unwrap(), 0);
    tx.commit().await.unwrap();
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The stored-game fixture (a database of December 2026, its game stored whole) opens,
/// its game moved over, and loads as the game its old state decodes to.
#[tokio::test]
async fn the_stored_game_fixture_is_moved_over_and_loads_unchanged() {
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stored_game.db");
    let dir = std::env::temp_dir().join(format!("herald-played-fixture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("h.db");
    std::fs::copy(&fixture, &path).unwrap();
    let old: Game = {
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))
            .unwrap()
            .read_only(true);
        let mut conn = sqlx::SqliteConnection::connect_with(&options)
            .await
            .unwrap();
        let state: String = sqlx::query_scalar("SELECT state FROM games WHERE name = 'fx'")
            .fetch_one(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
        serde_json::from_str(&state).unwrap()
    };
    assert!(!old.history.is_empty() && !old.archive.is_empty());
    let store = Store::open(&path).await.unwrap();
    assert_eq!(load(&store, "fx").await, old);
    let lists: Option<String> = sqlx::query_scalar("SELECT lists FROM games WHERE name = 'fx'")
        .fetch_one(sqlite(&store))
        .await
        .unwrap();
    assert_eq!(lists.as_deref(), Some("history archive"));
    let rows = count(&store, "played").await;
    assert_eq!(rows as usize, old.history.len() + old.archive.len());
    store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
