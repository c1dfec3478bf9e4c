//! Issue 36, point 3: "Web sign-in like the mail's. The client address from
//! `X-Forwarded-For` only when `[web] trusted_proxy` names the proxy; guess limits per seat
//! and per client, never one lock for everyone; the right password of a seat is never
//! refused because others guessed wrong from elsewhere; a mail from the seat's own address
//! lifts its web lock; the page says mail still works."

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support::{self, World, SEVEN};
use crate::web_signin::follow_to_form;
use crate::{csrf, serve, set_cookie, Site};

const GM: &str = "gm@example.org";
const BOB: &str = "bob@example.org"; // France
const MAIL_WORKS: &str = "Orders by mail from your registered address still work.";
const WRONG: &str = "No such game or seat, or a wrong password.";

/// Game `g` started, its pages served (behind a trusted proxy on loopback when `proxy`),
/// and the time the site's clock stands at.
pub async fn game_site(name: &str, proxy: bool) -> (Site, chrono::DateTime<chrono::Utc>) {
    let mut w = World::new(name).await;
    support::start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    if proxy {
        w.service.config.web = Some(herald::config::WebSection {
            trusted_proxy: "127.0.0.1".into(),
            ..Default::default()
        });
    }
    let now = w.now;
    (serve(w).await, now)
}

/// Signs in to `g` as `letter` with `password`, the request carrying `X-Forwarded-For:
/// xff` when given: the session cookie, or the line the form then says.
pub async fn sign_in_from(
    site: &Site,
    letter: char,
    password: &str,
    xff: Option<&str>,
) -> Result<String, String> {
    let form = site.get("/signin").await;
    let cookie = format!("herald_form={}", set_cookie(&form, "herald_form").unwrap());
    let mut extra = vec![("Cookie", cookie.as_str())];
    if let Some(x) = xff {
        extra.push(("X-Forwarded-For", x));
    }
    let a = site
        .post(
            "/signin",
            &[
                ("game", "g"),
                ("power", &letter.to_string()),
                ("password", password),
                ("csrf", &csrf(&form.text())),
            ],
            &extra,
        )
        .await;
    if a.status == 303 && a.header("location") == "/seat" {
        return Ok(format!(
            "herald_session={}",
            set_cookie(&a, "herald_session").unwrap()
        ));
    }
    let page = follow_to_form(site, a, &cookie).await.text();
    let i = page.find("id=\"said\">").expect("the form says why") + 10;
    Err(page[i..i + page[i..].find('<').unwrap()].replace("&#x27;", "'"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_for_counts_from_the_trusted_proxy_only() {
    // Behind the proxy: 25 wrong sign-ins from A, spread over the seats (as the review's
    // guesser did), hold A alone.
    let (site, _) = game_site("web-xff", true).await;
    let mut refused = Vec::new();
    for i in 0..25 {
        let letter = SEVEN[i % 7].1;
        let said = sign_in_from(&site, letter, &format!("guess{i}"), Some("203.0.113.5"))
            .await
            .unwrap_err();
        refused.push(said);
    }
    assert!(refused[0].starts_with(WRONG), "{refused:?}");
    // A's guesses ran out: refused unchecked, saying that mail still works.
    let last = refused.last().unwrap();
    assert!(last.contains("from your address"), "{last}");
    assert!(last.contains(MAIL_WORKS), "{last}");
    assert!(
        sign_in_from(&site, 'F', "pwF", Some("203.0.113.5"))
            .await
            .is_err(),
        "A is held even with a right password"
    );
    // B, behind the same proxy, signs in; so does A's neighbour the proxy names last.
    assert!(sign_in_from(&site, 'F', "pwF", Some("198.51.100.7"))
        .await
        .is_ok());
    assert!(
        sign_in_from(&site, 'E', "pwE", Some("203.0.113.5, 198.51.100.8"))
            .await
            .is_ok()
    );

    // With no trusted proxy the header is anyone's to write, and ignored: the same 25
    // guesses, each under a new forged address, count against the peer.
    let (site, _) = game_site("web-xff-forged", false).await;
    for i in 0..25 {
        let letter = SEVEN[i % 7].1;
        let forged = format!("192.0.2.{i}");
        let said = sign_in_from(&site, letter, &format!("guess{i}"), Some(&forged))
            .await
            .unwrap_err();
        assert!(!said.is_empty());
    }
    let said = sign_in_from(&site, 'F', "pwF", Some("198.51.100.7"))
        .await
        .unwrap_err();
    assert!(said.contains("Too many wrong passwords"), "{said}");
    assert!(said.contains(MAIL_WORKS), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seats_guesser_never_refuses_its_player_elsewhere() {
    let (site, _) = game_site("web-seat-guesser", true).await;
    assert_eq!(herald::judge::password::SEAT_FAILURES, 5);
    for i in 0..5 {
        let said = sign_in_from(&site, 'F', &format!("guess{i}"), Some("203.0.113.5"))
            .await
            .unwrap_err();
        assert!(said.starts_with(WRONG), "{said}");
    }
    // France is locked for A, right password or not...
    let said = sign_in_from(&site, 'F', "pwF", Some("203.0.113.5"))
        .await
        .unwrap_err();
    assert!(said.contains("Too many wrong passwords"), "{said}");
    // ...never for France's player on her own browser.
    assert!(sign_in_from(&site, 'F', "pwF", Some("198.51.100.7"))
        .await
        .is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_from_the_seats_own_address_lifts_its_web_lock() {
    let (site, at) = game_site("web-lift", true).await;
    // A guesser with many addresses: each guesses France until refused, until France is
    // refused to every client (the web's ceiling on one seat's wrong passwords).
    let mut held = None;
    'clients: for c in 0..100 {
        let client = format!("203.0.113.{c}");
        for i in 0..5 {
            match sign_in_from(&site, 'F', &format!("g{c}-{i}"), Some(&client)).await {
                Err(said) if said.starts_with(WRONG) => {}
                Err(said) if i == 0 => {
                    held = Some(said);
                    break 'clients;
                }
                Err(_) => break,
                Ok(_) => unreachable!("a guess was right"),
            }
        }
    }
    let said = held.expect("France refused to a client that never guessed");
    assert!(said.contains("for this seat"), "{said}");
    assert!(said.contains(MAIL_WORKS), "{said}");
    let said = sign_in_from(&site, 'F', "pwF", Some("198.51.100.7"))
        .await
        .unwrap_err();
    assert!(said.contains("for this seat"), "{said}");
    // France's player mails from her own address, as always accepted...
    let raw = format!(
        "From: {BOB}\r\nTo: judge@herald.test\r\nSubject: orders\r\nMessage-ID: <own-lift@test>\r\n\r\nSIGNON Fg pwF\r\nF Bre-Mao\r\n"
    );
    site.service.ingest(raw.as_bytes(), at).await.unwrap();
    let answers = site
        .service
        .store
        .answers("<own-lift@test>", BOB)
        .await
        .unwrap();
    assert!(
        answers.iter().any(|m| m.body.contains("F Bre - Mao")),
        "{answers:?}"
    );
    // ...and signs in on the web again.
    assert!(sign_in_from(&site, 'F', "pwF", Some("198.51.100.7"))
        .await
        .is_ok());
}
