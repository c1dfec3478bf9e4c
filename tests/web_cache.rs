//! The web's caches keyed by the stored version: "a cached page or a `304` decodes
//! nothing; an LRU bounded by bytes, boards apart from pages, no Host header or unknown
//! query in any key; gzip … for SVG and HTML; played phases' boards `immutable`."

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::io::Read;

use crate::serve;
use crate::support::Db;
use crate::web_pages::played_game;

/// The `?at=` digest the phase page links its board with.
fn board_at(page: &str) -> String {
    let (_, rest) = page.split_once("map.svg?at=").expect("the board's link");
    rest.chars().take_while(char::is_ascii_hexdigit).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_page_and_a_304_read_no_state() {
    let w = played_game("web-cache-state").await;
    let database = w.service.config.storage.database.clone();
    let site = serve(w).await;
    let phase = site.get("/games/g/phases/S1901M").await.text();
    let board = format!("/games/g/phases/S1901M/map.svg?at={}", board_at(&phase));
    let paths = [
        "/games/g",
        "/games/g/map.svg",
        "/games/g/map.png",
        "/games/g/phases/S1901M",
        board.as_str(),
        "/games/g/press",
    ];
    let mut first = Vec::new();
    for path in paths {
        let a = site.get(path).await;
        assert_eq!(a.status, 200, "{path}");
        first.push(a);
    }
    // The stored state made unreadable, its version left as it was: whatever is answered
    // now was not read from it.
    let mut db = Db::open(&database).await;
    db.execute("UPDATE games SET state = 'not a game' WHERE name = 'g'")
        .await;
    db.close().await;
    for (path, before) in paths.iter().zip(&first) {
        let again = site.get(path).await;
        assert_eq!(again.status, 200, "{path}: kept, so not read");
        assert_eq!(again.body, before.body, "{path}");
        let etag = before.header("etag");
        let tagged = site.get_with(path, &[("If-None-Match", etag)]).await;
        assert_eq!(tagged.status, 304, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_and_boards_come_gzipped_to_who_takes_gzip() {
    let w = played_game("web-cache-gzip").await;
    let site = serve(w).await;
    for path in ["/games/g", "/games/g/map.svg", "/", "/variants/standard"] {
        let plain = site.get(path).await;
        assert_eq!(plain.header("content-encoding"), "", "{path}");
        assert!(plain.header("vary").contains("Accept-Encoding"), "{path}");
        let packed = site
            .get_with(path, &[("Accept-Encoding", "br;q=1.0, gzip;q=0.8")])
            .await;
        assert_eq!(packed.status, 200, "{path}");
        assert_eq!(packed.header("content-encoding"), "gzip", "{path}");
        assert!(packed.body.len() < plain.body.len(), "{path}");
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(&packed.body[..])
            .read_to_end(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, plain.body, "{path}");
        let refused = site
            .get_with(path, &[("Accept-Encoding", "gzip;q=0")])
            .await;
        assert_eq!(refused.header("content-encoding"), "", "{path}");
    }
    let png = site
        .get_with("/games/g/map.png", &[("Accept-Encoding", "gzip")])
        .await;
    assert_eq!(
        png.header("content-encoding"),
        "",
        "a PNG is packed already"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_played_phases_board_at_its_digest_is_kept_for_good() {
    let w = played_game("web-cache-forever").await;
    let site = serve(w).await;
    let phase = site.get("/games/g/phases/S1901M").await.text();
    let at = board_at(&phase);
    assert_eq!(at.len(), 24, "{phase}");
    let named = site
        .get(&format!("/games/g/phases/S1901M/map.svg?at={at}"))
        .await;
    assert_eq!(named.status, 200);
    assert!(
        named.header("cache-control").contains("immutable"),
        "{:?}",
        named.headers
    );
    // Any other address of the same board may change (a ROLLBACK and another game from
    // there): kept a minute only. An unknown query is not a new entry.
    for other in [
        "/games/g/phases/S1901M/map.svg".to_string(),
        format!("/games/g/phases/S1901M/map.svg?at={}", "0".repeat(24)),
        format!("/games/g/phases/S1901M/map.svg?at={at}x"),
        "/games/g/phases/S1901M/map.svg?x=1".to_string(),
    ] {
        let a = site.get(&other).await;
        assert_eq!(a.status, 200, "{other}");
        assert_eq!(a.body, named.body, "{other}");
        assert_eq!(a.header("etag"), named.header("etag"), "{other}");
        assert!(
            !a.header("cache-control").contains("immutable"),
            "{other}: {}",
            a.header("cache-control")
        );
    }
    // The game's board now changes with the game: never kept for good.
    let now = site.get("/games/g/map.svg").await;
    assert!(!now.header("cache-control").contains("immutable"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_feed_never_shows_one_readers_host_to_another() {
    let w = played_game("web-cache-host").await;
    let site = serve(w).await;
    let ask = |host: &'static str| {
        let req =
            format!("GET /games/g/feed.atom HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let site = &site;
        async move { site.raw(req.as_bytes()).await.text() }
    };
    let first = ask("evil.example").await;
    assert!(first.contains("http://evil.example/games/g"), "{first}");
    let second = ask("herald.example").await;
    assert!(second.contains("http://herald.example/games/g"), "{second}");
    assert!(!second.contains("evil.example"), "{second}");
}
