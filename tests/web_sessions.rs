//! Issue 36, point 3: "A password changed on the page updates the session (or signs it out
//! with a clear word). Sessions capped per seat (oldest of that seat dropped) and per
//! client, never a global eviction. Every form post is post/redirect/get with a one-time
//! token: a reload or double click sends once."

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use futures_util::StreamExt;

use crate::web_guesses::{game_site, sign_in_from};
use crate::web_secrecy::sign_in;
use crate::web_signin::send;
use crate::{csrf, Site};

const GM: &str = "gm@example.org";
const EVE: &str = "eve@example.org"; // Austria

/// The outbox's mails whose subject says a sign-on lock.
async fn lock_notices(site: &Site) -> usize {
    let mut n = 0;
    for to in [EVE, GM] {
        n += site
            .service
            .store
            .mailed_to(to, "", 1000)
            .await
            .unwrap()
            .iter()
            .filter(|m| m.subject.to_ascii_lowercase().contains("locked"))
            .count();
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_changed_on_the_page_is_the_sessions() {
    let (site, _) = game_site("web-repass", false).await;
    let cookie = sign_in(&site, "g", 'A', "pwA").await;
    let page = send(&site, &cookie, "SET PASSWORD fresh-pw-42").await;
    assert_eq!(page.status, 200, "{}", page.text());
    // Six sends after: each signed on with the new password, none a wrong one.
    for i in 0..6 {
        let order = if i % 2 == 0 { "A Vie-Gal" } else { "A Vie-Bud" };
        let page = send(&site, &cookie, order).await;
        assert_eq!(page.status, 200, "send {i}: {}", page.text());
        let text = page.text();
        let shown = order.replace('-', " - ");
        assert!(text.contains(&shown), "send {i}: {text}");
        assert!(!text.contains("Invalid password"), "send {i}: {text}");
        assert!(
            !text.contains("too many wrong passwords"),
            "send {i}: {text}"
        );
    }
    assert_eq!(lock_notices(&site).await, 0);
    // The new password is the seat's: a sign-in with it works, the old one is wrong.
    assert!(sign_in_from(&site, 'A', "fresh-pw-42", None).await.is_ok());
    assert!(sign_in_from(&site, 'A', "pwA", None).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_changed_by_mail_signs_the_page_out_with_a_word() {
    let (site, now) = game_site("web-repass-mail", false).await;
    let cookie = sign_in(&site, "g", 'A', "pwA").await;
    let raw = "From: eve@example.org\r\nTo: judge@herald.test\r\nSubject: pw\r\nMessage-ID: <repass@test>\r\n\r\nSIGNON Ag pwA\r\nSET PASSWORD by-mail-9\r\n";
    site.service.ingest(raw.as_bytes(), now).await.unwrap();
    let page = site.get_with("/seat", &[("Cookie", &cookie)]).await;
    let a = site
        .post(
            "/seat",
            &[("text", "A Vie-Gal"), ("csrf", &csrf(&page.text()))],
            &[("Cookie", &cookie)],
        )
        .await;
    assert_eq!(a.status, 303);
    assert!(a.header("location").starts_with("/signin"), "{a:?}");
    let form = site.get(a.header("location")).await.text();
    assert!(form.contains("password has changed"), "{form}");
    assert_eq!(
        site.get_with("/seat", &[("Cookie", &cookie)]).await.status,
        303,
        "signed out"
    );
    assert_eq!(lock_notices(&site).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_seat_signing_in_over_and_over_signs_nobody_else_out() {
    let (site, _) = game_site("web-flood", true).await;
    let victim = sign_in_from(&site, 'R', "pwR", Some("198.51.100.7"))
        .await
        .unwrap();
    let first = sign_in_from(&site, 'I', "pwI", Some("203.0.113.5"))
        .await
        .unwrap();
    // 10,050 sign-ins of Italy's with his own (remembered) password, each on a form token
    // of its own, four at a time.
    let signed_in = futures_util::stream::iter(0..10_050u32)
        .map(|i| {
            let site = &site;
            async move {
                let token = format!("{i:064x}");
                let a = site
                    .post(
                        "/signin",
                        &[
                            ("game", "g"),
                            ("power", "I"),
                            ("password", "pwI"),
                            ("csrf", &token),
                        ],
                        &[
                            ("Cookie", &format!("herald_form={token}")),
                            ("X-Forwarded-For", "203.0.113.5"),
                        ],
                    )
                    .await;
                a.header("location") == "/seat"
            }
        })
        .buffer_unordered(4)
        .filter(|ok| std::future::ready(*ok))
        .count()
        .await;
    assert_eq!(signed_in, 10_050);
    let page = site.get_with("/seat", &[("Cookie", &victim)]).await;
    assert_eq!(page.status, 200, "Russia is still signed in");
    assert!(page.text().contains("Russia"), "{}", page.text());
    // Italy's own oldest went: a seat has five sessions at most.
    assert_eq!(
        site.get_with("/seat", &[("Cookie", &first)]).await.status,
        303
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_posted_twice_is_sent_once() {
    let (site, _) = game_site("web-once", false).await;
    let cookie = sign_in(&site, "g", 'A', "pwA").await;
    let page = site.get_with("/seat", &[("Cookie", &cookie)]).await;
    let token = csrf(&page.text());
    let post = || async {
        site.post(
            "/seat",
            &[("text", "A Vie-Gal\nA Bud-Ser"), ("csrf", &token)],
            &[("Cookie", &cookie)],
        )
        .await
    };
    let replies = || async {
        site.service
            .store
            .mailed_to(EVE, "Re: ", 1000)
            .await
            .unwrap()
            .len()
    };
    let (mails, replied) = (
        site.service.store.outbox_count().await.unwrap(),
        replies().await,
    );
    let a = post().await;
    assert_eq!((a.status, a.header("location")), (303, "/seat"));
    assert_eq!(replies().await, replied + 1);
    let sent = site.service.store.outbox_count().await.unwrap();
    assert!(sent > mails);
    // The same form again (a double click, a reload of the post): nothing more is mailed.
    let a = post().await;
    assert_eq!((a.status, a.header("location")), (303, "/seat"));
    assert_eq!(replies().await, replied + 1);
    assert_eq!(site.service.store.outbox_count().await.unwrap(), sent);
    // The page shows the one reply and says the second post was a repeat.
    let page = site.get_with("/seat", &[("Cookie", &cookie)]).await.text();
    assert!(page.contains("A Bud - Ser"), "{page}");
    assert!(page.contains("Already sent"), "{page}");
    // A reload of the page shows neither again.
    let page = site.get_with("/seat", &[("Cookie", &cookie)]).await.text();
    assert!(!page.contains("Already sent"), "{page}");
    assert!(!page.contains("id=\"reply\""), "{page}");

    // The sign-in form too: a second post of the same token signs nobody in.
    let form = site.get("/signin").await;
    let t = crate::set_cookie(&form, "herald_form").unwrap();
    let fields = [
        ("game", "g"),
        ("power", "A"),
        ("password", "wrong-once"),
        ("csrf", t.as_str()),
    ];
    let c = format!("herald_form={t}");
    let first = site.post("/signin", &fields, &[("Cookie", &c)]).await;
    assert_eq!(first.header("location"), "/signin?said=wrong");
    let second = site.post("/signin", &fields, &[("Cookie", &c)]).await;
    assert_eq!(second.header("location"), "/signin?said=sent");
    let said = site.get_with("/signin?said=sent", &[("Cookie", &c)]).await;
    assert!(said.text().contains("sent already"), "{}", said.text());
    // The form it shows carries a new token.
    assert_ne!(crate::set_cookie(&said, "herald_form").unwrap(), t);
}
