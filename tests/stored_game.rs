//! Stored games (issue 26, part 2: "A stored game saved by today's herald is committed as a
//! fixture that every later version must load, and a test fails when a stored type changes
//! without a migration").
//!
//! `tests/fixtures/stored_game.db` is a judge's database as herald left it on 2026-12-02
//! (the games table keeps each game whole as JSON): game `fx`, standard with dip points,
//! after [`play`] — Spring 1901 held by all and processed, then in Fall 1901 England's
//! orders on file, England's press to France (a dip point spent), a broadcast by France, a
//! draw vote by England and an interception of England and Germany bought by France. Never rewrite it: it stands for every
//! judge already running. `tests/fixtures/stored_game.shape` is the shape of a game as
//! herald stores it today (every field's path and JSON type), re-blessed with
//! `HERALD_BLESS=1` once a change of shape has a migration or a `#[serde(default)]`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use chrono::Duration;
use herald::game::calendar::PhaseKind;
use herald::judge::Game;
use sqlx::Connection;

use crate::support::{self, order, start_game, World, SEVEN};

const GM: &str = "gm@example.org";
const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The game of the fixture, played on `w`.
pub async fn play(w: &mut World) {
    start_game(w, GM, "fx", "standard dip_points", &SEVEN).await;
    for (addr, letter) in SEVEN {
        order(w, "fx", addr, letter, support::holds(letter)).await;
    }
    w.wait(Duration::days(3)).await;
    order(
        w,
        "fx",
        ANN,
        'E',
        "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor\nPRESS TO F\nHello France.\nENDPRESS\nSET DRAW EFGIART",
    )
    .await;
    order(
        w,
        "fx",
        BOB,
        'F',
        "BROADCAST\nPeace in our time.\nENDPRESS\nINTERCEPT England Germany",
    )
    .await;
}

/// The state of game `name` as the database at `db` keeps it.
async fn stored_state(db: &Path, name: &str) -> String {
    let options =
        sqlx::sqlite::SqliteConnectOptions::from_str(&format!("sqlite://{}", db.display()))
            .unwrap()
            .read_only(true);
    let mut conn = sqlx::SqliteConnection::connect_with(&options)
        .await
        .unwrap();
    let state: String = sqlx::query_scalar("SELECT state FROM games WHERE name = ?")
        .bind(name)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    state
}

/// Every path of a JSON value with the type found there, one a line: `.seats[].member.address
/// string`. Arrays contribute the paths of all their elements, maps with numeric keys one
/// `{n}` path.
fn shape(value: &serde_json::Value) -> String {
    fn walk(v: &serde_json::Value, path: &str, out: &mut BTreeSet<String>) {
        use serde_json::Value;
        let kind = match v {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        out.insert(format!(
            "{} {kind}",
            if path.is_empty() { "." } else { path }
        ));
        match v {
            Value::Array(items) => {
                for item in items {
                    walk(item, &format!("{path}[]"), out);
                }
            }
            Value::Object(fields) => {
                for (k, item) in fields {
                    let key = if k.parse::<u64>().is_ok() { "{n}" } else { k };
                    walk(item, &format!("{path}.{key}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(value, "", &mut out);
    out.into_iter().map(|l| l + "\n").collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_stored_by_the_herald_of_december_2026_loads_and_plays_on() {
    let db = fixture("stored_game.db");
    // Its content, as this herald reads it.
    let state = stored_state(&db, "fx").await;
    let game: Game = serde_json::from_str(&state).unwrap_or_else(|e| {
        panic!("the stored game no longer loads ({e}): a stored type changed without a migration")
    });
    assert_eq!(
        (game.name.as_str(), game.variant.as_str()),
        ("fx", "standard")
    );
    assert_eq!(game.seats.len(), 7);
    assert_eq!(game.master.address, GM);
    assert!(
        game.rules.iter().any(|r| r.to_string() == "dip_points"),
        "{:?}",
        game.rules
    );
    let phase = game.position.as_ref().unwrap().phase;
    assert_eq!((phase.year, phase.season), (1901, 1), "Fall 1901");
    assert!(matches!(phase.kind, PhaseKind::Movement));
    assert_eq!(game.history.len(), 1, "Spring 1901 played");
    assert!(!game.orders.is_empty(), "England's orders are on file");
    let dips = format!("{:?}", game.dips);
    assert!(
        dips.contains("INTERCEPT England Germany") && dips.contains("Hello France."),
        "the dip-point ledger: {dips}"
    );
    assert!(
        game.archive
            .iter()
            .any(|a| format!("{a:?}").contains("Peace in our time.")),
        "the broadcast is kept for HISTORY: {:?}",
        game.archive
    );

    // And the judge runs on it: herald opens the file (migrations applied), England's
    // orders are still on file, the broadcast is in the history.
    let mut w = World::with_database("stored", &db).await;
    w.now += Duration::days(3) + Duration::hours(2);
    let reply = order(&mut w, "fx", ANN, 'E', "").await;
    for line in [
        "Dip points: 7 of 8 left this turn; spent on press to France (1).",
        "F Lon - Nth",
        "A Lvp - Yor",
        "England: orders complete.",
    ] {
        assert!(reply.contains(line), "{line} not in:\n{reply}");
    }
    let sent = w.mail(BOB, "history", "HISTORY fx\n").await;
    let history = &support::to(&sent, BOB).body;
    assert!(history.contains("Peace in our time."), "{history}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_game_keeps_its_shape() {
    let mut w = World::new("shape").await;
    play(&mut w).await;
    // The state as the store gives it back: its live part with its played phases, which
    // are kept in rows of their own.
    let mut tx = w.service.store.begin_read().await.unwrap();
    let state: Vec<serde_json::Value> = tx.games_named(&["fx".into()]).await.unwrap();
    tx.rollback().await.unwrap();
    let now = shape(&state[0]);
    let file = fixture("stored_game.shape");
    if std::env::var("HERALD_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&file, &now).unwrap();
    }
    let then = std::fs::read_to_string(&file).unwrap_or_default();
    if then != now {
        let gone: Vec<&str> = then.lines().filter(|l| !now.contains(l)).collect();
        let new: Vec<&str> = now.lines().filter(|l| !then.contains(l)).collect();
        panic!(
            "the stored game's shape changed: add a migration or #[serde(default)] (old stored \
             games must keep loading: tests/fixtures/stored_game.db) and re-bless with \
             HERALD_BLESS=1.\nGone: {gone:#?}\nNew: {new:#?}"
        );
    }
}

#[test]
fn a_shape_names_every_path_and_its_type() {
    let v = serde_json::json!({"a": [1, {"b": null}], "c": {"7": "x"}});
    assert_eq!(
        shape(&v),
        ". object\n.a array\n.a[] number\n.a[] object\n.a[].b null\n.c object\n.c.{n} string\n"
    );
}
