//! Issue 36 (review N14): "the web page never shows the mail footer". The signed-in page of
//! a seat whose address has not confirmed showed the judge's reply with the mail's request
//! "reply to this mail to confirm", and its top bar said "sign in" while signed in.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::serve;
use crate::support::{World, SEVEN};
use crate::web_secrecy::sign_in;
use crate::web_signin::send;

const GM: &str = "gm@example.org";
const EVE: &str = "eve@example.org"; // Austria

/// A started standard game `g` whose players all confirmed their addresses but Austria's.
async fn started_with_austria_unconfirmed() -> World {
    let mut w = World::new("web-seat-words").await;
    let sent = w.mail(GM, "new", "CREATE ?g gmpass standard\n").await;
    w.confirm(GM, &sent).await;
    for (addr, letter) in SEVEN {
        let joined = w
            .mail(
                addr,
                "join",
                &format!("SIGNON ?g pw{letter}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        if addr != EVE {
            w.confirm(addr, &joined).await;
        }
    }
    w.mail(GM, "start", "SIGNON Mg gmpass\nSTART\n").await;
    w
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_signed_in_page_shows_no_mail_footer_and_offers_sign_out() {
    let site = serve(started_with_austria_unconfirmed().await).await;
    let cookie = sign_in(&site, "g", 'A', "pwA").await;
    let page = site.get_with("/seat", &[("Cookie", &cookie)]).await;
    assert_eq!(page.status, 200, "{}", page.text());
    let text = page.text();
    // The top bar names the seat and signs out; it does not offer to sign in.
    let bar = &text[text.find("<header>").unwrap()..text.find("</header>").unwrap()];
    assert!(bar.contains("g: Austria"), "{bar}");
    assert!(bar.contains("sign out"), "{bar}");
    assert!(bar.contains("action=\"/signout\""), "{bar}");
    assert!(!bar.contains("href=\"/signin\""), "{bar}");
    // One line says how results come by mail.
    assert!(text.contains("id=\"by-mail\""), "{text}");
    // The post answers with a redirect to the page that shows its reply once.
    let a = send(&site, &cookie, "A Vie-Gal\n").await;
    assert_eq!(a.status, 200, "{}", a.text());
    let text = a.text();
    assert!(text.contains("id=\"reply\""), "{text}");
    assert!(text.contains("A Vie - Gal"), "{text}");
    // The mail asked Austria to confirm by a reply; the page shows none of that.
    let mailed = site.service.store.mailed_to(EVE, "", 20).await.unwrap();
    assert!(
        mailed
            .iter()
            .any(|m| m.body.contains("A Vie - Gal") && m.body.contains("reply to this mail")),
        "{mailed:?}"
    );
    for words in ["reply to this mail", "has not confirmed", "confirm-"] {
        assert!(!text.contains(words), "{words}: {text}");
    }
    assert!(text.contains("id=\"by-mail\""), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmed_seat_is_not_told_to_confirm() {
    let site = serve(started_with_austria_unconfirmed().await).await;
    let cookie = sign_in(&site, "g", 'E', "pwE").await;
    let text = site.get_with("/seat", &[("Cookie", &cookie)]).await.text();
    assert!(text.contains("g: England"), "{text}");
    assert!(!text.contains("id=\"by-mail\""), "{text}");
}
