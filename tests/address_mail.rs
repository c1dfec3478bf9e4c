//! A seat's address and who may claim it (issue 36, points 4 and 5):
//!
//! - "the seat stays on its confirmed address until the new one confirms";
//! - "Wrong passwords 'from' a seat's own address count toward that seat's lock ... always,
//!   when the receiving MTA's `Authentication-Results` for the keeper's `authserv-id` does
//!   not pass them".

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::*;

const GM: &str = "gm@example.org";
const BOB: &str = "bob@example.org"; // France
const NEW: &str = "bob@new.example";

/// A broadcast from the Master: what it sent.
async fn broadcast(w: &mut World, text: &str) -> Vec<Sent> {
    w.mail(
        GM,
        "b",
        &format!("SIGNON Mg gmpass\nBROADCAST\n{text}\nENDPRESS\n"),
    )
    .await
}

/// France, on her confirmed address, asks for a new one: her seat stays where it is and
/// gets its mail there until the new address replies to herald's request; then it moves,
/// and both addresses are told.
#[tokio::test]
async fn a_seat_stays_on_its_confirmed_address_until_the_new_one_confirms() {
    let mut w = World::new("address-pending").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    let sent = w
        .mail(
            BOB,
            "moving",
            &format!("SIGNON Fg pwF\nSET ADDRESS {NEW}\n"),
        )
        .await;
    let said = &reply(&sent, BOB).body;
    assert!(
        said.contains(&format!("Your seat stays on {BOB} until {NEW} replies to the mail herald just sent it; then its mail goes to {NEW}, and both addresses are told. A move not confirmed within 7 days lapses.")),
        "{said}"
    );
    let request = to(&sent, NEW).clone();
    assert!(request.subject.contains("[confirm-"), "{request:#?}");
    assert!(request.body.contains("within 7 days"), "{}", request.body);
    let sent = broadcast(&mut w, "one").await;
    assert_eq!(find(&sent, BOB, "Broadcast").len(), 1, "{sent:#?}");
    assert!(find(&sent, NEW, "").is_empty(), "{sent:#?}");
    let sent = w.reply_to(NEW, &request, "").await;
    for addr in [BOB, NEW] {
        let told = find(&sent, addr, "Address Changed");
        assert_eq!(told.len(), 1, "{addr}: {sent:#?}");
        assert!(
            told[0]
                .body
                .contains(&format!("The mail of France in game 'g' now goes to {NEW}")),
            "{}",
            told[0].body
        );
    }
    let sent = broadcast(&mut w, "two").await;
    assert_eq!(find(&sent, NEW, "Broadcast").len(), 1, "{sent:#?}");
    assert!(find(&sent, BOB, "").is_empty(), "{sent:#?}");
    // The seat is there: the summary names the new address.
    let sent = w.mail(GM, "who", "SUMMARY g\n").await;
    assert!(
        reply(&sent, GM).body.contains(&format!("France     {NEW}")),
        "{}",
        reply(&sent, GM).body
    );
}

/// A second SET ADDRESS replaces the pending one, within the one request a day: the first
/// address confirming then moves nothing, the second confirms from an answer of its own. A
/// pending address not confirmed within 7 days lapses.
#[tokio::test]
async fn a_second_set_address_replaces_the_pending_one_and_an_old_one_lapses() {
    let mut w = World::new("address-replaced").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    const FIRST: &str = "bob@first.example";
    const SECOND: &str = "bob@second.example";
    let sent = w
        .mail(
            BOB,
            "moving",
            &format!("SIGNON Fg pwF\nSET ADDRESS {FIRST}\n"),
        )
        .await;
    let first = to(&sent, FIRST).clone();
    let sent = w
        .mail(
            BOB,
            "moving",
            &format!("SIGNON Fg pwF\nSET ADDRESS {SECOND}\n"),
        )
        .await;
    assert!(
        find(&sent, SECOND, "").is_empty(),
        "one request a day: {sent:#?}"
    );
    let said = &reply(&sent, BOB).body;
    assert!(
        said.contains(&format!("Your seat stays on {BOB} until {SECOND} confirms: herald asks one new address a day for a seat and asked one today already, so {SECOND} gets no request now; mail herald anything from {SECOND} (HELP will do) and reply to the answer")),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "It replaces the move to {FIRST} asked for earlier."
        )),
        "{said}"
    );
    let sent = w.reply_to(FIRST, &first, "").await;
    assert!(find(&sent, BOB, "Address Changed").is_empty(), "{sent:#?}");
    let sent = broadcast(&mut w, "one").await;
    assert_eq!(find(&sent, BOB, "Broadcast").len(), 1, "{sent:#?}");
    assert!(find(&sent, FIRST, "").is_empty(), "{sent:#?}");
    // The second address confirms from an answer to a mail of its own.
    let sent = w.mail(SECOND, "hello", "HELP\n").await;
    let sent = w.confirm(SECOND, &sent).await;
    assert_eq!(find(&sent, SECOND, "Address Changed").len(), 1, "{sent:#?}");
    let sent = broadcast(&mut w, "two").await;
    assert_eq!(find(&sent, SECOND, "Broadcast").len(), 1, "{sent:#?}");
    assert!(find(&sent, BOB, "").is_empty(), "{sent:#?}");
    // A day later, a new request: left unanswered for 7 days, it lapses.
    w.now += Duration::hours(25);
    const THIRD: &str = "bob@third.example";
    let sent = w
        .mail(
            SECOND,
            "moving",
            &format!("SIGNON Fg pwF\nSET ADDRESS {THIRD}\n"),
        )
        .await;
    let third = to(&sent, THIRD).clone();
    w.now += Duration::days(7);
    let sent = w.reply_to(THIRD, &third, "").await;
    assert!(
        find(&sent, THIRD, "Address Changed").is_empty(),
        "{sent:#?}"
    );
    let sent = broadcast(&mut w, "three").await;
    assert_eq!(find(&sent, SECOND, "Broadcast").len(), 1, "{sent:#?}");
    assert!(find(&sent, THIRD, "").is_empty(), "{sent:#?}");
}

/// A seat whose own address never confirmed has no confirmed address to stay on: it moves
/// at once, saying so. The Master moving a power's address (BECOME) moves it at once too.
#[tokio::test]
async fn an_unconfirmed_seat_and_the_master_move_at_once() {
    let mut w = World::new("address-at-once").await;
    let sent = w.mail(GM, "new", "CREATE ?g gmpass standard\n").await;
    w.confirm(GM, &sent).await;
    const ANN: &str = "ann@example.org";
    const HOME: &str = "ann@home.example";
    w.mail(ANN, "join", "SIGNON ?g pwE\n").await;
    let sent = w
        .mail(
            ANN,
            "moving",
            &format!("SIGNON ?g pwE\nSET ADDRESS {HOME}\n"),
        )
        .await;
    let said = &reply(&sent, ANN).body;
    assert!(
        said.contains(&format!("Your mail for this game now goes to {HOME}. {ANN} never confirmed, so there was no confirmed address to keep it on: game mail reaches {HOME} once it replies to herald's request to confirm.")),
        "{said}"
    );
    assert_eq!(find(&sent, HOME, "Confirm").len(), 1, "{sent:#?}");
    let mut w = World::new("address-by-master").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    let sent = w
        .mail(
            GM,
            "moving",
            &format!("SIGNON Mg gmpass\nBECOME F\nSET ADDRESS {NEW}\n"),
        )
        .await;
    assert!(
        reply(&sent, GM)
            .body
            .contains(&format!("Your mail for this game now goes to {NEW}.")),
        "{sent:#?}"
    );
    let sent = w.mail(GM, "who", "SUMMARY g\n").await;
    assert!(
        reply(&sent, GM).body.contains(&format!("France     {NEW}")),
        "{}",
        reply(&sent, GM).body
    );
}

/// `[inbox] authserv_id`: the keeper's mail server's word on a mail's From.
const AUTHSERV: &str = "mx.herald.test";

/// A mail "from" `from` through one sending host, with the keeper's server's
/// Authentication-Results saying `dmarc` of it.
async fn checked(w: &mut World, from: &str, dmarc: &str, body: &str) -> Vec<Sent> {
    let headers = format!(
        "Authentication-Results: {AUTHSERV};\r\n\tdmarc={dmarc} header.from=example.org\r\nReceived: from h (h [192.0.2.1])\r\n\tby herald.test with ESMTP id 1; Tue, 1 Dec 2026 10:00:00 +0000\r\n"
    );
    w.mail_with_headers(from, "orders", &headers, body).await
}

/// Point 5: five wrong passwords from France's own address, which the keeper's mail server
/// did not pass, lock her seat: the sixth mail, right password and all, is refused
/// unchecked. The same five with a passing result, all through one sending host, are the
/// holder's own mistakes: the right password is taken.
#[tokio::test]
async fn wrong_passwords_the_keepers_server_did_not_pass_lock_the_seat() {
    for (dmarc, locked) in [("fail", true), ("pass", false)] {
        let mut w = World::new_configured(&format!("address-authres-{dmarc}"), |c| {
            c.inbox.authserv_id = Some(AUTHSERV.into());
        })
        .await;
        start_game(&mut w, GM, "g", "standard", &SEVEN).await;
        for i in 0..5 {
            let sent = checked(&mut w, BOB, dmarc, &format!("SIGNON Fg guess{i}\n")).await;
            assert!(
                reply(&sent, BOB).body.contains("Invalid password"),
                "{dmarc}: {sent:#?}"
            );
        }
        let sent = checked(&mut w, BOB, dmarc, "SIGNON Fg pwF\nA Par-Bur\n").await;
        let body = &reply(&sent, BOB).body;
        assert_eq!(
            body.contains("too many wrong passwords for France"),
            locked,
            "{dmarc}: {body}"
        );
        assert_eq!(!body.contains("A Par - Bur"), locked, "{dmarc}: {body}");
    }
}
