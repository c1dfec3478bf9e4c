//! Issue 28, point 5: "Nothing secret is reachable. No press but broadcasts, no addresses,
//! no orders before their phase is processed, nothing of a private game to a stranger. A
//! test fetches every URL the site links to (and guessed ones: other games' ids, other
//! phases, other seats), for a game with private press, grey press, dip-point
//! interceptions and an anonymous game, signed out and signed in as each seat, and
//! searches every page for what that viewer must not see."

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::collections::{BTreeSet, VecDeque};

use crate::support::{self, find, World, SEVEN};
use crate::{csrf, links, serve, set_cookie, Site};

const GM: &str = "gm@example.org";
const OBS: &str = "obs@example.org";
const LETTERS: [char; 7] = ['E', 'F', 'G', 'I', 'A', 'R', 'T'];

fn who(letter: char) -> &'static str {
    SEVEN.iter().find(|(_, l)| *l == letter).unwrap().0
}

/// Signs in as `letter` (or M) of `game`; returns the session cookie.
pub async fn sign_in(site: &Site, game: &str, letter: char, password: &str) -> String {
    let form = site.get("/signin").await;
    let token = set_cookie(&form, "herald_form").unwrap();
    let a = site
        .post(
            "/signin",
            &[
                ("game", game),
                ("power", &letter.to_string()),
                ("password", password),
                ("csrf", &csrf(&form.text())),
            ],
            &[("Cookie", &format!("herald_form={token}"))],
        )
        .await;
    assert_eq!(a.status, 303, "signing in as {letter}{game}: {}", a.text());
    format!(
        "herald_session={}",
        set_cookie(&a, "herald_session").unwrap()
    )
}

/// Every page reachable from `/` (and `/seat`) by links, plus `guessed`, as one viewer:
/// (path, status, text) of each, SVG included, PNG left out.
async fn crawl(
    site: &Site,
    cookie: Option<&str>,
    guessed: &[String],
) -> Vec<(String, u16, String)> {
    let mut queue: VecDeque<String> = ["/".to_string(), "/seat".to_string()].into();
    queue.extend(guessed.iter().cloned());
    let mut seen = BTreeSet::new();
    let mut pages = Vec::new();
    while let Some(path) = queue.pop_front() {
        if !seen.insert(path.clone()) || seen.len() > 300 || path.starts_with("/signout") {
            continue;
        }
        let extra: Vec<(&str, &str)> = cookie.map(|c| ("Cookie", c)).into_iter().collect();
        let a = site.get_with(&path, &extra).await;
        if a.header("content-type").starts_with("image/png") {
            continue;
        }
        let text = a.text();
        queue.extend(links(&text));
        pages.push((path, a.status, text));
    }
    pages
}

/// Fails if any page holds any of `secrets`.
fn none_holds(viewer: &str, pages: &[(String, u16, String)], secrets: &[String]) {
    for (path, _, text) in pages {
        for s in secrets {
            assert!(
                !text.contains(s.as_str()),
                "{viewer} sees '{s}' on {path}:\n{text}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_viewer_sees_what_it_must_not() {
    let mut w = World::new("web-secrecy").await;
    // "open": dip points, private press, an interception, orders on file.
    support::start_game(&mut w, GM, "open", "standard dip_points", &SEVEN).await;
    let watching = w.mail(OBS, "watch", "OBSERVE open obspw\n").await;
    w.confirm(OBS, &watching).await;
    support::order(
        &mut w,
        "open",
        who('F'),
        'F',
        "BROADCAST\nPUBLIC-BROADCAST-ONE\nENDPRESS\nPRESS TO E\nSECRET-PRESS-FE\nENDPRESS",
    )
    .await;
    support::order(&mut w, "open", who('I'), 'I', "INTERCEPT R T").await;
    support::order(
        &mut w,
        "open",
        who('R'),
        'R',
        "PRESS TO T\nSECRET-PRESS-RT\nENDPRESS",
    )
    .await;
    support::order(&mut w, "open", who('A'), 'A', "A Vie-Gal").await;
    let sent = w.mail(GM, "go", "SIGNON Mopen gmpass\nPROCESS!\n").await;
    assert_eq!(
        find(&sent, who('I'), "Intercepted Russia-Turkey").len(),
        1,
        "the interception went to Italy"
    );
    let reply = support::order(&mut w, "open", who('A'), 'A', "A Gal-Ukr").await;
    let on_file = reply
        .lines()
        .find(|l| l.contains("Gal - Ukr"))
        .unwrap_or_else(|| panic!("the order echoed: {reply}"))
        .trim()
        .to_string();

    // "gun": anonymous, grey press.
    let sent = w.mail(GM, "new", "CREATE ?gun gmpass\n").await;
    w.confirm(GM, &sent).await;
    w.mail(
        GM,
        "setup",
        "SIGNON Mgun gmpass\nSET NOSHOW\nSET PRESS GREY\n",
    )
    .await;
    for (addr, letter) in SEVEN {
        let sent = w
            .mail(
                addr,
                "join",
                &format!("SIGNON ?gun pw{letter}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        w.confirm(addr, &sent).await;
    }
    w.mail(GM, "start", "SIGNON Mgun gmpass\nSTART\n").await;
    support::order(
        &mut w,
        "gun",
        who('G'),
        'G',
        "BROADCAST GREY\nGREY-BROADCAST-ONE\nENDPRESS\nPRESS TO R GREY\nGREY-SECRET-GR\nENDPRESS",
    )
    .await;

    // "zqhidden": private (unlisted, with a join word).
    let sent = w
        .mail(GM, "new", "CREATE ?zqhidden gmpass\nSET PRIVATE tuesdays\n")
        .await;
    w.confirm(GM, &sent).await;

    let site = serve(w).await;
    let everyone: Vec<String> = SEVEN
        .iter()
        .map(|(a, _)| a.to_string())
        .chain([GM.into(), OBS.into()])
        .collect();
    let guessed: Vec<String> = [
        "/games/zqhidden",
        "/games/ZQHIDDEN",
        "/games/zqhidden/press",
        "/games/zqhidden/map.png",
        "/games/zqhidden/map.svg",
        "/games/open/phases/F1901M",
        "/games/open/phases/S1902M",
        "/games/gun/phases/S1901M",
        "/games/open/phases/F1901M/map.svg",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();

    // Signed out.
    let pages = crawl(&site, None, &guessed).await;
    assert!(
        pages.len() >= 12,
        "the crawl reached the site: {:?}",
        pages.iter().map(|p| &p.0).collect::<Vec<_>>()
    );
    let press = pages.iter().find(|p| p.0 == "/games/open/press").unwrap();
    assert!(
        press.2.contains("PUBLIC-BROADCAST-ONE"),
        "broadcasts are public"
    );
    let grey = pages.iter().find(|p| p.0 == "/games/gun/press").unwrap();
    assert!(
        grey.2.contains("GREY-BROADCAST-ONE"),
        "a grey broadcast is public, anonymous"
    );
    let mut secrets: Vec<String> = vec![
        "SECRET-PRESS-FE".into(),
        "SECRET-PRESS-RT".into(),
        "GREY-SECRET-GR".into(),
        on_file.clone(),
        "zqhidden".into(),
        "Intercepted".into(),
        "Broadcast from G".into(),
        "@example.org".into(),
        "someone@somewhere".into(),
    ];
    secrets.extend(everyone.iter().cloned());
    none_holds("a stranger", &pages, &secrets);
    for path in &guessed {
        let status = pages.iter().find(|p| &p.0 == path).map(|p| p.1);
        assert_eq!(status, Some(404), "{path} signed out");
    }

    // Signed in as each seat of "open": the public pages as a stranger sees them, and on
    // the seat's own page nothing mailed to another seat.
    let may_see = |secret: &str, letter: char| match secret {
        "SECRET-PRESS-FE" => "FEM".contains(letter),
        "SECRET-PRESS-RT" => "RTIM".contains(letter),
        s if s == on_file => "AM".contains(letter),
        _ => false,
    };
    for letter in LETTERS.iter().copied().chain(['M']) {
        let password = if letter == 'M' {
            "gmpass".to_string()
        } else {
            format!("pw{letter}")
        };
        let cookie = sign_in(&site, "open", letter, &password).await;
        let pages = crawl(&site, Some(&cookie), &guessed).await;
        let seat = pages.iter().find(|p| p.0 == "/seat").unwrap();
        assert_eq!(seat.1, 200);
        let (public, own): (Vec<_>, Vec<_>) = pages.into_iter().partition(|p| p.0 != "/seat");
        none_holds(&format!("{letter} (public pages)"), &public, &secrets);
        let hidden: Vec<String> = [
            "SECRET-PRESS-FE",
            "SECRET-PRESS-RT",
            on_file.as_str(),
            "zqhidden",
            "GREY-SECRET-GR",
        ]
        .iter()
        .filter(|s| !may_see(s, letter))
        .map(|s| s.to_string())
        .collect();
        none_holds(&format!("{letter}'s own page"), &own, &hidden);
        if letter == 'I' {
            assert!(
                own[0].2.contains("SECRET-PRESS-RT"),
                "Italy's interception is on its page"
            );
        }
    }

    // Signed in as each seat of the anonymous game: no other player's address anywhere.
    for letter in LETTERS {
        let cookie = sign_in(&site, "gun", letter, &format!("pw{letter}")).await;
        let pages = crawl(&site, Some(&cookie), &guessed).await;
        let mut hidden: Vec<String> = SEVEN
            .iter()
            .filter(|(_, l)| *l != letter)
            .map(|(a, _)| a.to_string())
            .collect();
        hidden.extend([
            "zqhidden".to_string(),
            "SECRET-PRESS-FE".into(),
            "SECRET-PRESS-RT".into(),
        ]);
        if !"GR".contains(letter) {
            hidden.push("GREY-SECRET-GR".into());
        }
        none_holds(&format!("{letter} of gun"), &pages, &hidden);
    }

    // The private game's Master sees it; its seat cannot reach another game's seat page.
    let cookie = sign_in(&site, "zqhidden", 'M', "gmpass").await;
    let a = site
        .get_with("/games/zqhidden", &[("Cookie", &cookie)])
        .await;
    assert_eq!(a.status, 200);
    assert!(site
        .get_with("/", &[("Cookie", &cookie)])
        .await
        .text()
        .contains("zqhidden"));
    let seat = site.get_with("/seat", &[("Cookie", &cookie)]).await.text();
    assert!(!seat.contains("SECRET-PRESS"), "{seat}");
}
