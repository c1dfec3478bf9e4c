//! Every page kind over HTTP (issue 28, points 1 and 2): the game list, a game page with
//! its board, a phase page, the press, a variant's rules page, the pictures; ETag and
//! Cache-Control so a page is rendered once per phase; and nothing a stranger sends (a
//! path, a query, a body) makes more than a refusal.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support::{self, World, SEVEN};
use crate::{links, serve};

const GM: &str = "gm@example.org";

/// A standard game `g` whose Spring 1901 was played, with a broadcast, in Fall 1901.
pub async fn played_game(name: &str) -> World {
    let mut w = World::new(name).await;
    support::start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    support::order(
        &mut w,
        "g",
        "bob@example.org",
        'F',
        "A Par-Bur\nBROADCAST\nPeace to all.\nENDPRESS",
    )
    .await;
    support::order(&mut w, "g", "eve@example.org", 'A', "A Vie-Gal").await;
    w.mail(GM, "go", "SIGNON Mg gmpass\nPROCESS!\n").await;
    w
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_kind_is_served_over_http() {
    let w = played_game("web-pages").await;
    let site = serve(w).await;

    let list = site.get("/").await;
    assert_eq!(list.status, 200);
    assert_eq!(list.header("content-type"), "text/html; charset=utf-8");
    let text = list.text();
    assert!(text.contains("<title>herald: games</title>"), "{text}");
    assert!(text.contains("href=\"/games/g\""), "{text}");
    assert!(text.contains("href=\"/variants/standard\""), "{text}");
    assert!(
        text.contains("name=\"viewport\""),
        "reads well on a phone: {text}"
    );
    assert!(
        !text.contains("<script"),
        "no JavaScript needed to read a page"
    );

    let game = site.get("/games/g").await;
    assert_eq!(game.status, 200);
    let text = game.text();
    assert!(
        text.contains("Fall of 1901") || text.contains("1901"),
        "{text}"
    );
    assert!(text.contains("id=\"deadline\""), "{text}");
    assert!(text.contains("End of grace"), "{text}");
    assert!(text.contains("src=\"/games/g/map.png\""), "{text}");
    assert!(text.contains("srcset=\"/games/g/map.svg\""), "{text}");
    assert!(text.contains("href=\"/games/g/phases/S1901M\""), "{text}");
    assert!(text.contains("href=\"/games/g/press\""), "{text}");
    for feed in ["feed.atom", "deadlines.ics", "export.json"] {
        assert!(
            text.contains(&format!("href=\"/games/g/{feed}\"")),
            "{text}"
        );
    }
    let atom = site.get("/games/g/feed.atom").await.text();
    assert!(
        atom.contains("<entry>") && atom.contains("S1901M"),
        "{atom}"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&site.get("/games/g/export.json").await.body).unwrap();
    assert_eq!(json["schema"], "herald-game/1");
    // The deadline in the game's zone, and in the viewer's when asked.
    let zoned = site.get("/games/g?tz=Asia/Tokyo").await.text();
    assert!(zoned.contains("JST"), "{zoned}");
    assert_eq!(site.get("/games/g?tz=Not/AZone").await.status, 200);

    let phase = site.get("/games/g/phases/S1901M").await;
    assert_eq!(phase.status, 200);
    let text = phase.text();
    assert!(
        text.contains("Army Paris -&gt; Burgundy") || text.contains("Paris"),
        "{text}"
    );
    assert!(
        text.contains("src=\"/games/g/phases/S1901M/map.png?at="),
        "{text}"
    );
    // Codes are read as the mail language reads them.
    assert_eq!(site.get("/games/g/phases/s1901m").await.status, 200);

    let press = site.get("/games/g/press").await;
    assert_eq!(press.status, 200);
    assert!(press.text().contains("Peace to all."), "{}", press.text());
    // The page shows what was said, not the mail's header lines (the fourth review read
    // ":: Judge: ..." above every broadcast).
    assert!(!press.text().contains(":: Judge:"), "{}", press.text());
    assert!(!press.text().contains(":: Deadline:"), "{}", press.text());

    let variant = site.get("/variants/standard").await;
    assert_eq!(variant.status, 200);
    let text = variant.text();
    assert!(text.contains("England"), "{text}");
    assert!(
        text.contains("src=\"/variants/standard/map.png\""),
        "{text}"
    );

    for (path, kind, magic) in [
        ("/games/g/map.png", "image/png", &b"\x89PNG"[..]),
        ("/games/g/map.svg", "image/svg+xml", &b"<"[..]),
        (
            "/games/g/phases/S1901M/map.png",
            "image/png",
            &b"\x89PNG"[..],
        ),
        ("/games/g/phases/S1901M/map.svg", "image/svg+xml", &b"<"[..]),
        ("/variants/standard/map.png", "image/png", &b"\x89PNG"[..]),
        ("/variants/standard/map.svg", "image/svg+xml", &b"<"[..]),
        // Issue 28, point 3: the feeds and the export, as the judge's export writes them.
        (
            "/games/g/feed.atom",
            "application/atom+xml; charset=utf-8",
            &b"<?xml"[..],
        ),
        (
            "/games/g/deadlines.ics",
            "text/calendar; charset=utf-8",
            &b"BEGIN:VCALENDAR\r\n"[..],
        ),
        ("/games/g/export.json", "application/json", &b"{"[..]),
    ] {
        let a = site.get(path).await;
        assert_eq!(a.status, 200, "{path}");
        assert_eq!(a.header("content-type"), kind, "{path}");
        assert!(a.body.starts_with(magic), "{path}");
    }

    // Every link of every page leads somewhere.
    for page in [
        "/",
        "/games/g",
        "/games/g/phases/S1901M",
        "/games/g/press",
        "/variants/standard",
    ] {
        let html = site.get(page).await.text();
        for link in links(&html) {
            let path = link.split('?').next().unwrap();
            if path == "/signin" || path == "/signout" || path == "/seat" {
                continue;
            }
            assert_eq!(site.get(path).await.status, 200, "{link} on {page}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_is_rendered_once_per_state_and_answered_304() {
    let w = played_game("web-cache").await;
    let now = w.now;
    let site = serve(w).await;
    for path in [
        "/",
        "/games/g",
        "/games/g/phases/S1901M",
        "/games/g/press",
        "/variants/standard",
        "/games/g/map.png",
    ] {
        let first = site.get(path).await;
        let etag = first.header("etag").to_string();
        assert!(etag.starts_with('"') && etag.len() > 10, "{path}: {etag}");
        assert!(first.header("cache-control").contains("max-age"), "{path}");
        let again = site.get(path).await;
        assert_eq!(
            again.header("etag"),
            etag,
            "{path}: the same state, the same tag"
        );
        let cached = site.get_with(path, &[("If-None-Match", &etag)]).await;
        assert_eq!(cached.status, 304, "{path}");
        assert!(cached.body.is_empty());
    }
    // A new state (orders on file) is a new tag for the game page, not for the phase page.
    let game_tag = site.get("/games/g").await.header("etag").to_string();
    let phase_tag = site
        .get("/games/g/phases/S1901M")
        .await
        .header("etag")
        .to_string();
    let raw = "From: eve@example.org\r\nTo: judge@herald.test\r\nSubject: o\r\nMessage-ID: <cache-1@test>\r\n\r\nSIGNON Ag pwA\r\nA Gal H\r\n";
    site.service.ingest(raw.as_bytes(), now).await.unwrap();
    assert_ne!(site.get("/games/g").await.header("etag"), game_tag);
    assert_eq!(
        site.get("/games/g/phases/S1901M").await.header("etag"),
        phase_tag
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn odd_requests_get_refusals_not_panics() {
    let w = played_game("web-odd").await;
    let site = serve(w).await;
    for path in [
        "/games/nope",
        "/games/g/phases/F1901M",
        "/games/g/phases/S1999M",
        "/games/g/phases/%00%ff",
        "/games/g/phases/S1901M/map.gif",
        "/games/%2e%2e%2fetc",
        "/variants/nope",
        "/variants/nope/map.png",
        "/games/nope/map.png",
        "/nothing",
        "/games/",
        &format!("/games/{}", "x".repeat(5000)),
    ] {
        let a = site.get(path).await;
        assert!((400..500).contains(&a.status), "{path}: {}", a.status);
    }
    assert_eq!(site.get("/games/g?tz=%ff%fe").await.status, 200);
    // A body over the limit is refused before it is read in full.
    let big = "x".repeat(herald::web::MAX_BODY + 10);
    let a = site
        .post("/seat", &[("text", &big), ("csrf", "x")], &[])
        .await;
    assert_eq!(a.status, 413);
    // Garbage is not HTTP: the server closes or refuses, and goes on serving.
    {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = tokio::net::TcpStream::connect(site.addr).await.unwrap();
        s.write_all(b"\x00\x01\x02 garbage\r\n\r\n").await.unwrap();
        let mut buf = Vec::new();
        let _ = s.read_to_end(&mut buf).await;
        assert!(
            !buf.starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&buf)
        );
    }
    assert_eq!(site.get("/").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mails_link_to_the_game_page_when_the_base_url_is_set() {
    // Issue 28: "the public base URL (mails link to the game page when it is set)".
    let mut w = played_game("web-link").await;
    let before = support::order(&mut w, "g", "eve@example.org", 'A', "A Gal H").await;
    assert!(!before.contains(":: Web:"), "{before}");
    w.service.judge.web = Some("https://judge.example.org".into());
    let reply = support::order(&mut w, "g", "eve@example.org", 'A', "A Gal H").await;
    assert!(
        reply.contains("\n:: Web: https://judge.example.org/games/g\n"),
        "{reply}"
    );
}

/// Issue 36: "a game whose Master never confirmed is not listed": the front page leaves out
/// the game of a Master who never confirmed, and shows a confirmed Master's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_leaves_out_a_game_whose_master_never_confirmed() {
    let mut w = World::new("web-unlisted").await;
    w.mail("ghost@forged.example", "new", "CREATE ?ghost pw\n")
        .await;
    let sent = w.mail(GM, "new", "CREATE ?real gmpass\n").await;
    w.confirm(GM, &sent).await;
    let site = serve(w).await;
    let text = site.get("/").await.text();
    assert!(text.contains("href=\"/games/real\""), "{text}");
    assert!(!text.contains("ghost"), "{text}");
}

/// Issue 38: "the web `/` by `?page=`": 120 games are listed 50 a page in name order, each
/// page linking to the next and the one before; a game written since is listed at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_is_paged_fifty_games_a_page() {
    let mut w = World::new("web-paged").await;
    let sent = w.mail(GM, "new", "CREATE ?g000 gmpass\n").await;
    w.confirm(GM, &sent).await;
    let names: Vec<String> = (1..120).map(|i| format!("g{i:03}")).collect();
    support::copies(&w.service, "g000", &names).await;
    let site = serve(w).await;
    let linked = |text: &str| -> Vec<String> {
        text.split("href=\"/games/")
            .skip(1)
            .filter_map(|t| t.split('"').next().map(str::to_string))
            .collect()
    };
    let wanted =
        |r: std::ops::Range<usize>| -> Vec<String> { r.map(|i| format!("g{i:03}")).collect() };
    let first = site.get("/").await.text();
    assert_eq!(linked(&first), wanted(0..50), "{first}");
    assert!(first.contains("href=\"/?page=2\""), "{first}");
    assert!(!first.contains("/?page=0"), "{first}");
    let second = site.get("/?page=2").await.text();
    assert_eq!(linked(&second), wanted(50..100), "{second}");
    assert!(second.contains("href=\"/?page=1\"") && second.contains("href=\"/?page=3\""));
    let last = site.get("/?page=3").await.text();
    assert_eq!(linked(&last), wanted(100..120), "{last}");
    assert!(!last.contains("/?page=4"), "{last}");
    // A game written since is on the page asked again (the page is keyed by the versions).
    support::copies(&site.service, "g000", &["g120".to_string()]).await;
    let again = site.get("/?page=3").await.text();
    assert_eq!(linked(&again), wanted(100..121), "{again}");
    // Nonsense is the first page.
    let odd = site.get("/?page=-1").await.text();
    assert_eq!(linked(&odd), wanted(0..50));
}
