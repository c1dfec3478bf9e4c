//! Issue 28, point 4: "A player or Master signs in with the game, the power (or Master)
//! and the password they use in mail; the page then offers one text box whose content is
//! handled exactly as the body of a mail from that seat's address (same parser, same
//! judge, same reply — shown on the page and also mailed, so the mail record stays whole)
//! … The password checks share the mail path's guessing limits; sessions are cookies that
//! are HttpOnly, SameSite=Strict and Secure when the base URL is https; every form carries
//! a CSRF token."

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support::{self, World, SEVEN};
use crate::web_secrecy::sign_in;
use crate::{csrf, serve, set_cookie, Site};

const GM: &str = "gm@example.org";
const EVE: &str = "eve@example.org"; // Austria

async fn started(name: &str) -> World {
    let mut w = World::new(name).await;
    support::start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    w
}

/// Tries a password on the web; returns the answer: the `303` to `/seat` of a sign-in, else
/// the sign-in form it redirects to, saying why not.
async fn try_password(site: &Site, letter: char, password: &str) -> crate::Answer {
    let form = site.get("/signin").await;
    let token = set_cookie(&form, "herald_form").unwrap();
    let cookie = format!("herald_form={token}");
    let a = site
        .post(
            "/signin",
            &[
                ("game", "g"),
                ("power", &letter.to_string()),
                ("password", password),
                ("csrf", &csrf(&form.text())),
            ],
            &[("Cookie", &cookie)],
        )
        .await;
    follow_to_form(site, a, &cookie).await
}

/// The sign-in form a sign-in post redirected to (with the form's `cookie`), or the answer
/// itself when it went elsewhere.
pub async fn follow_to_form(site: &Site, a: crate::Answer, cookie: &str) -> crate::Answer {
    if a.status == 303 && a.header("location").starts_with("/signin") {
        let to = a.header("location").to_string();
        return site.get_with(&to, &[("Cookie", cookie)]).await;
    }
    a
}

/// Posts `text` through the seat page's box as session `cookie` (a new form each time)
/// and returns the page the post redirects to.
pub async fn send(site: &Site, cookie: &str, text: &str) -> crate::Answer {
    let page = site.get_with("/seat", &[("Cookie", cookie)]).await;
    assert_eq!(page.status, 200, "{}", page.text());
    let a = site
        .post(
            "/seat",
            &[("text", text), ("csrf", &csrf(&page.text()))],
            &[("Cookie", cookie)],
        )
        .await;
    assert_eq!(a.status, 303, "{}", a.text());
    assert_eq!(a.header("location"), "/seat");
    site.get_with("/seat", &[("Cookie", cookie)]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_text_box_is_a_mail_from_the_seat() {
    let w = started("web-box").await;
    let before = w.service.store.outbox_count().await.unwrap();
    let site = serve(w).await;
    let cookie = sign_in(&site, "g", 'A', "pwA").await;
    let page = site.get_with("/seat", &[("Cookie", &cookie)]).await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("cache-control"), "no-store");
    let a = send(&site, &cookie, "A Vie-Gal\nA Bud-Ser\nF Tri-Alb\n").await;
    assert_eq!(a.status, 200, "{}", a.text());
    let text = a.text();
    // The judge's reply, as mailed: the orders on file, echoed.
    assert!(text.contains("id=\"reply\""), "{text}");
    assert!(text.contains("A Vie - Gal"), "{text}");
    assert!(text.contains("A Bud - Ser"), "{text}");
    // The same reply was queued to the seat's address (and the sign-in's one before it).
    let answers: Vec<_> = site.service.store.mailed_to(EVE, "Re: ", 10).await.unwrap();
    assert!(
        answers.iter().any(|m| m.body.contains("A Bud - Ser")),
        "{answers:?}"
    );
    assert!(site.service.store.outbox_count().await.unwrap() > before);
    // The orders are on file for the judge: the public page says so, never what they are.
    let game = site.get("/games/g").await.text();
    assert!(game.contains("on file"), "{game}");
    assert!(!game.contains("Bud - Ser"), "{game}");
    // An order with an error gets the judge's error, on the page.
    let a = send(&site, &cookie, "A Vie-Mos").await;
    assert!(a.text().contains("A Vie-Mos"), "{}", a.text());
    // The reply is shown once: the page again is without it.
    let again = site.get_with("/seat", &[("Cookie", &cookie)]).await.text();
    assert!(!again.contains("id=\"reply\""), "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cookies_and_forms_are_guarded() {
    let mut w = started("web-cookies").await;
    w.service.config.web = Some(herald::config::WebSection {
        listen: "127.0.0.1:0".into(),
        base_url: "https://judge.example.org".into(),
        ..Default::default()
    });
    let site = serve(w).await;
    let a = try_password(&site, 'A', "pwA").await;
    assert_eq!(a.status, 303);
    let set = a.header("set-cookie");
    let session = set
        .lines()
        .find(|l| l.starts_with("herald_session="))
        .unwrap();
    for flag in ["HttpOnly", "SameSite=Strict", "Secure", "Path=/"] {
        assert!(session.contains(flag), "{flag}: {session}");
    }
    let cookie = format!(
        "herald_session={}",
        set_cookie(&a, "herald_session").unwrap()
    );
    // No token, a wrong token, a token from another form: refused.
    let form = site.get("/signin").await;
    let a = site
        .post(
            "/signin",
            &[
                ("game", "g"),
                ("power", "A"),
                ("password", "pwA"),
                ("csrf", &csrf(&form.text())),
            ],
            &[],
        )
        .await;
    assert_eq!(a.status, 403, "a sign-in without the form's cookie");
    let a = site
        .post(
            "/seat",
            &[("text", "A Vie H"), ("csrf", "0000")],
            &[("Cookie", &cookie)],
        )
        .await;
    assert_eq!(a.status, 403);
    let a = site
        .post("/seat", &[("text", "A Vie H")], &[("Cookie", &cookie)])
        .await;
    assert!((400..500).contains(&a.status));
    let a = site
        .post("/signout", &[("csrf", "0000")], &[("Cookie", &cookie)])
        .await;
    assert_eq!(a.status, 403);
    // Signed out with the right token, the session is gone.
    let token = csrf(&site.get_with("/seat", &[("Cookie", &cookie)]).await.text());
    let a = site
        .post("/signout", &[("csrf", &token)], &[("Cookie", &cookie)])
        .await;
    assert_eq!(a.status, 303);
    assert_eq!(
        site.get_with("/seat", &[("Cookie", &cookie)]).await.status,
        303
    );
    // Without https, no Secure.
    let plain = serve(started("web-cookies-plain").await).await;
    let a = try_password(&plain, 'A', "pwA").await;
    assert!(
        !a.header("set-cookie").contains("Secure"),
        "{}",
        a.header("set-cookie")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_guesses_and_mail_guesses_share_one_limit() {
    let mut w = started("web-guess").await;
    // Three wrong passwords by mail from a stranger...
    for i in 0..3 {
        w.mail(
            "mallory@example.net",
            "guess",
            &format!("SIGNON Ag wrong{i}\n"),
        )
        .await;
    }
    let now = w.now;
    let site = serve(w).await;
    // ...and two on the web make five: the seat is locked (SEAT_FAILURES).
    assert_eq!(herald::judge::password::SEAT_FAILURES, 5);
    for i in 0..2 {
        let a = try_password(&site, 'A', &format!("web{i}")).await;
        assert_eq!(a.status, 200);
        assert!(a.text().contains("wrong password"), "{}", a.text());
    }
    // Now the right password is refused on the web too, unchecked.
    let a = try_password(&site, 'A', "pwA").await;
    assert_eq!(a.status, 200);
    assert!(
        a.text().contains("Too many wrong passwords"),
        "{}",
        a.text()
    );
    // And by mail from a stranger: the web's guesses locked the mail path's seat.
    let raw = "From: mallory@example.net\r\nTo: judge@herald.test\r\nSubject: g\r\nMessage-ID: <guess-web@test>\r\n\r\nSIGNON Ag pwA\r\n";
    site.service.ingest(raw.as_bytes(), now).await.unwrap();
    let answers = site
        .service
        .store
        .answers("<guess-web@test>", "mallory@example.net")
        .await
        .unwrap();
    assert!(
        answers
            .iter()
            .any(|m| m.body.contains("too many wrong passwords")),
        "{answers:?}"
    );
    // Another seat is still open.
    assert_eq!(try_password(&site, 'F', "pwF").await.status, 303);
}
