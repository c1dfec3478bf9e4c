//! Short answers to strangers and a gate that cannot be turned against anyone (issue 36,
//! points 1, 4 and 7):
//!
//! - "An address that has not confirmed gets text only, at most 16 KB, no attachments, with
//!   a line saying what it will get once it confirms."
//! - "At most one confirmation request a day per seat for `SET ADDRESS`"; "a plain reply
//!   confirms the address the answer was sent to (Reply-To included) and only that one."
//! - "Civil disorder means no orders at all (a power with some orders is "late,
//!   incomplete": its unordered units hold, said to it and the Master only); `retreat`
//!   wording in a movement phase gets a warning."

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::*;

const GM: &str = "gm@example.org";
const VICTIM: &str = "victim@v2.example";

/// The most an answer to a stranger may hold (issue 36: "at most 16 KB").
const STRANGER_BYTES: usize = 16 * 1024;

/// The answer to a stranger: text within 16 KB, nothing attached, asking to confirm and
/// saying what confirming brings.
fn short_answer(sent: &[Sent], to_whom: &str) -> String {
    let answers: Vec<&Sent> = sent.iter().filter(|m| m.to == to_whom).collect();
    assert_eq!(answers.len(), 1, "{sent:#?}");
    let a = answers[0];
    assert!(a.attachments.is_empty(), "attached: {:?}", a.attachments);
    assert!(
        !a.body.contains("The rest of this answer was left out"),
        "the judge kept it short: {}",
        a.body
    );
    assert!(a.body.len() <= STRANGER_BYTES, "{} bytes", a.body.len());
    assert!(a.subject.contains("[confirm-"), "{}", a.subject);
    assert!(
        a.body.contains("text only, at most 16 KB, no pictures"),
        "{}",
        a.body
    );
    a.body.clone()
}

/// N1: a forged 211-byte `GET MAP world1880 SVG` brought the forged address 1.2 MB and
/// five attachments. Now: text only within 16 KB, saying to GET MAP again once confirmed;
/// after the address confirms, the same mail brings the pictures.
#[tokio::test]
async fn a_stranger_asking_for_a_map_gets_short_text_and_no_pictures() {
    let mut w = World::new("stranger-map").await;
    let sent = w.mail(VICTIM, "orders", "GET MAP world1880 SVG\n").await;
    let body = short_answer(&sent, VICTIM);
    assert!(body.contains("GET MAP again"), "{body}");
    // Confirmed, the same request is answered in full.
    let asking = sent.iter().find(|m| m.to == VICTIM).unwrap().clone();
    w.reply_to(VICTIM, &asking, "").await;
    let sent = w.mail(VICTIM, "orders", "GET MAP world1880 SVG\n").await;
    let full = reply(&sent, VICTIM);
    assert!(!full.attachments.is_empty(), "{full:#?}");
    assert!(!full.subject.contains("[confirm-"), "{}", full.subject);
}

/// N1: `HELP` and the six `GET <topic>` gave a stranger 51 KB (195 times the mail).
#[tokio::test]
async fn a_stranger_asking_for_all_the_help_gets_at_most_16_kb() {
    let mut w = World::new("stranger-help").await;
    let sent = w
        .mail(
            VICTIM,
            "help",
            "HELP\nGET info\nGET rules\nGET deadlines\nGET press\nGET master\nGET variants\nLIST\nVERSION\n",
        )
        .await;
    let body = short_answer(&sent, VICTIM);
    assert!(body.contains("This reply was cut"), "{body}");
}

/// N1 under load: 100 forged `GET MAP` mails read in one batch with a player's orders.
/// Each forged address gets one short answer without pictures; the player's orders are
/// answered in the same batch (the answers to strangers draw nothing).
#[tokio::test]
async fn a_hundred_forged_map_requests_draw_nothing_and_the_player_is_answered() {
    let mut w = World::new("stranger-flood").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    let victims: Vec<String> = (0..100).map(|i| format!("v{i}@victims.example")).collect();
    let mut mails: Vec<(&str, &str, &str)> = victims
        .iter()
        .map(|v| (v.as_str(), "x", "GET MAP world1880 SVG\n"))
        .collect();
    mails.push(("bob@example.org", "orders", "SIGNON Fg pwF\nA Par-Bur\n"));
    let sent = w.mails(&mails).await;
    for v in &victims {
        short_answer(&sent, v);
    }
    let orders = reply(&sent, "bob@example.org");
    assert!(orders.body.contains("A Par - Bur"), "{}", orders.body);
    let pictured: Vec<(&str, &str, Vec<&str>)> = sent
        .iter()
        .filter(|m| {
            m.attachments
                .iter()
                .any(|f| f.content_type.starts_with("image/"))
        })
        .map(|m| {
            (
                m.to.as_str(),
                m.subject.as_str(),
                m.attachments.iter().map(|f| f.name.as_str()).collect(),
            )
        })
        .collect();
    assert!(
        pictured.is_empty(),
        "no mail of this batch carries a picture: {pictured:?}"
    );
}

/// N6: "A player whose mail has a Reply-To can never confirm": the answer went to the
/// Reply-To with its code, the check read the From's. A plain reply from the same client
/// (same From and Reply-To, the code quoted) confirms the Reply-To address, to which the
/// game's mail then goes; the From address is not confirmed by it.
#[tokio::test]
async fn a_plain_reply_confirms_the_reply_to_address() {
    let mut w = World::new("stranger-reply-to").await;
    const WORK: &str = "carl@work.example";
    const HOME: &str = "carl@home.example";
    let headers = format!("Reply-To: {HOME}\r\n");
    let sent = w.mail_with_headers(WORK, "hello", &headers, "HELP\n").await;
    let answer = to(&sent, HOME).clone();
    assert!(answer.subject.contains("[confirm-"), "{}", answer.subject);
    // The reply: Re: the subject, In-Reply-To, the text quoted, From work, Reply-To home.
    let id = answer
        .raw
        .lines()
        .find_map(|l| l.strip_prefix("Message-ID: "))
        .unwrap()
        .to_string();
    let quoted: String = answer.body.lines().map(|l| format!("> {l}\n")).collect();
    let sent = w
        .mail_with_headers(
            WORK,
            &format!("Re: {}", answer.subject),
            &format!("Reply-To: {HOME}\r\nIn-Reply-To: {id}\r\n"),
            &format!("\n\nOn a day, herald wrote:\n{quoted}"),
        )
        .await;
    let done = to(&sent, HOME);
    assert!(done.body.contains("is now confirmed"), "{}", done.body);
    assert!(!done.subject.contains("[confirm-"), "{}", done.subject);
    // Home gets a full answer now; work, never confirmed, still a short one.
    let sent = w.mail(HOME, "map", "GET MAP standard\n").await;
    assert!(!reply(&sent, HOME).attachments.is_empty(), "{sent:#?}");
    let sent = w.mail(WORK, "map", "GET MAP standard\n").await;
    short_answer(&sent, WORK);
}

/// N5: 100 mails of `SET ADDRESS bomb<i>@victims.example` from one seat sent 100 requests
/// to confirm. Now one a day for the seat: the first address is asked, the next 99 not;
/// a day later the seat may ask again.
#[tokio::test]
async fn set_address_asks_at_most_once_a_day_for_a_seat() {
    let mut w = World::new("stranger-bomb").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    let mut requests = 0;
    let mut from = "bob@example.org".to_string();
    for i in 0..100 {
        let to_addr = format!("bomb{i}@victims.example");
        let sent = w
            .mail(
                &from,
                "moving",
                &format!("SIGNON Fg pwF\nSET ADDRESS {to_addr}\n"),
            )
            .await;
        requests += sent
            .iter()
            .filter(|m| m.to.ends_with("@victims.example") && m.subject.starts_with("Confirm"))
            .count();
        from = to_addr;
    }
    assert_eq!(requests, 1, "one request to confirm in a day for one seat");
    w.now += Duration::hours(25);
    let sent = w
        .mail(
            &from,
            "moving",
            "SIGNON Fg pwF\nSET ADDRESS again@victims.example\n",
        )
        .await;
    assert_eq!(find(&sent, "again@victims.example", "Confirm").len(), 1);
}

/// N10: "a power with 2 of 3 orders on file is announced to all as 'in civil disorder' ...
/// njudge's civil disorder is a power with no orders." In an NMR game at the end of grace:
/// France (two of its three units ordered) is late and incomplete, told so with the Master
/// only; Italy (nothing sent) is in civil disorder, told to all.
#[tokio::test]
async fn civil_disorder_is_a_power_that_sent_nothing() {
    let mut w = World::new("stranger-cd").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    w.mail(GM, "nmr", "SIGNON Mg gmpass\nSET NMR\n").await;
    for (addr, letter) in SEVEN {
        match letter {
            'F' => {
                order(&mut w, "g", addr, letter, "A Par-Bur\nA Mar-Spa").await;
            }
            'I' => {}
            _ => {
                order(&mut w, "g", addr, letter, holds(letter)).await;
            }
        }
    }
    let sent = w.wait_until(w.now + Duration::days(10)).await;
    let cd: Vec<&Sent> = sent
        .iter()
        .filter(|m| m.subject.contains("Civil Disorder") || m.body.contains("civil disorder:"))
        .collect();
    assert!(
        cd.iter()
            .all(|m| !m.body.contains("France is in civil disorder")),
        "{cd:#?}"
    );
    assert!(
        cd.iter()
            .any(|m| m.to == "ann@example.org" && m.body.contains("Italy is in civil disorder")),
        "{sent:#?}"
    );
    let late = find(&sent, "bob@example.org", "Late, Incomplete");
    assert_eq!(late.len(), 1, "{sent:#?}");
    assert!(late[0].body.contains("A Par - Bur"), "{}", late[0].body);
    assert!(
        find(&sent, GM, "Late, Incomplete")
            .iter()
            .any(|m| m.body.contains("France")),
        "{sent:#?}"
    );
    for (addr, _) in SEVEN.iter().filter(|(_, l)| *l != 'F') {
        assert!(
            find(&sent, addr, "Late, Incomplete").is_empty(),
            "{addr} told of France"
        );
    }
    // France stays a playing seat: its next mail brings no "no longer in civil disorder".
    let sent = w
        .mail("bob@example.org", "orders", "SIGNON Fg pwF\nA Bur H\n")
        .await;
    assert!(
        sent.iter()
            .all(|m| !m.body.contains("France is no longer in civil disorder")),
        "{sent:#?}"
    );
}

/// N9: "A Bur retreat to Munich" in a movement phase is read as a move, now with a warning.
#[tokio::test]
async fn retreat_words_in_a_movement_phase_are_warned_of() {
    let mut w = World::new("stranger-retreat").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    let body = order(
        &mut w,
        "g",
        "bob@example.org",
        'F',
        "A Par retreat to Burgundy",
    )
    .await;
    assert!(body.contains("A Par - Bur"), "{body}");
    assert!(
        body.contains("says retreat in a movement phase: it is read as a move"),
        "{body}"
    );
    let body = order(&mut w, "g", "bob@example.org", 'F', "A Par-Bur").await;
    assert!(!body.contains("says retreat"), "{body}");
}

/// N11: "A player who confirms after START never gets the start notice (which power she
/// plays, the board)". Turkey joins without confirming; after START she replies to the
/// answer to her join, and gets where the game stands: her power, the phase, the board.
#[tokio::test]
async fn a_player_who_confirms_after_the_start_learns_her_power() {
    let mut w = World::new("stranger-late").await;
    let sent = w.mail(GM, "new", "CREATE ?g gmpass standard\n").await;
    w.confirm(GM, &sent).await;
    let mut turkey_join = None;
    for (addr, letter) in SEVEN {
        let joined = w
            .mail(
                addr,
                "join",
                &format!("SIGNON ?g pw{letter}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        if letter == 'T' {
            turkey_join = Some(to(&joined, addr).clone());
        } else {
            w.confirm(addr, &joined).await;
        }
    }
    let started = w.mail(GM, "start", "SIGNON Mg gmpass\nSTART\n").await;
    assert!(find(&started, "guy@example.org", "Starting").is_empty());
    let sent = w
        .reply_to("guy@example.org", &turkey_join.unwrap(), "")
        .await;
    let stands = find(&sent, "guy@example.org", "Where The Game Stands");
    assert_eq!(stands.len(), 1, "{sent:#?}");
    let body = &stands[0].body;
    assert!(
        body.contains("You play Turkey (T): sign on with SIGNON Tg <your password>."),
        "{body}"
    );
    assert!(body.contains("Spring 1901, Movement"), "{body}");
    assert!(
        stands[0]
            .attachments
            .iter()
            .any(|f| f.content_type.starts_with("image/png")),
        "{:?}",
        stands[0].attachments
    );
}

/// A mail "from" `from` delivered through `host` (the topmost Received header, as the
/// server that delivered it to herald writes it).
async fn through(w: &mut World, from: &str, host: &str, body: &str) -> Vec<Sent> {
    let headers = format!(
        "Received: from h ({host} [{host}])\r\n\tby herald.test with ESMTP id 1; Tue, 1 Dec 2026 10:00:00 +0000\r\n"
    );
    w.mail_with_headers(from, "orders", &headers, body).await
}

/// N13: "40 `SIGNON Fg guess<i>` mails with `From:` France's registered address from 40
/// hosts were all checked" (issue 36, point 5: "Wrong passwords 'from' a seat's own address
/// count toward that seat's lock once they come from a second sending host"). France signs
/// on through her host; the forger's guesses through 40 others are checked five times,
/// then refused unchecked; France through her own host still signs on.
#[tokio::test]
async fn a_forger_of_the_seats_own_address_is_held_by_its_lock() {
    let mut w = World::new("stranger-own-forger").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    const BOB: &str = "bob@example.org";
    let sent = through(&mut w, BOB, "192.0.2.1", "SIGNON Fg pwF\nA Par-Bur\n").await;
    assert!(reply(&sent, BOB).body.contains("A Par - Bur"), "{sent:#?}");
    let (mut checked, mut refused) = (0, 0);
    for i in 0..40 {
        let sent = through(
            &mut w,
            BOB,
            &format!("198.51.100.{}", i + 1),
            &format!("SIGNON Fg guess{i}\nSET ADDRESS att@evil.example\n"),
        )
        .await;
        let body = &reply(&sent, BOB).body;
        if body.contains("Invalid password") {
            checked += 1;
        } else if body.contains("too many wrong passwords for France") {
            refused += 1;
        }
    }
    assert_eq!((checked, refused), (5, 35));
    let sent = through(&mut w, BOB, "192.0.2.1", "SIGNON Fg pwF\nA Par-Pic\n").await;
    assert!(reply(&sent, BOB).body.contains("A Par - Pic"), "{sent:#?}");
}

/// N13, the last step: "a `SET ADDRESS attacker@…` in every guess, so that the right one
/// moves the seat to him" (issue 36, point 5: "a `SET ADDRESS` following wrong guesses
/// waits for the Master"). After a wrong password for France, her SET ADDRESS within the
/// hour is refused and the Master told; after an hour without wrong passwords it goes.
#[tokio::test]
async fn set_address_after_wrong_guesses_waits_for_the_master() {
    let mut w = World::new("stranger-own-address").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    const BOB: &str = "bob@example.org";
    w.mail("someone@else.example", "x", "SIGNON Fg wrong\n")
        .await;
    let sent = w
        .mail(
            BOB,
            "moving",
            "SIGNON Fg pwF\nSET ADDRESS att@evil.example\n",
        )
        .await;
    assert!(
        reply(&sent, BOB)
            .body
            .contains("wrong passwords were tried for France in the last hour"),
        "{sent:#?}"
    );
    assert!(find(&sent, "att@evil.example", "Confirm").is_empty());
    let held = find(&sent, GM, "Address Change Held");
    assert_eq!(held.len(), 1, "{sent:#?}");
    assert!(
        held[0].body.contains("att@evil.example"),
        "{}",
        held[0].body
    );
    w.now += Duration::minutes(61);
    let sent = w
        .mail(
            BOB,
            "moving",
            "SIGNON Fg pwF\nSET ADDRESS bob@new.example\n",
        )
        .await;
    assert!(
        reply(&sent, BOB)
            .body
            .contains("Your seat stays on bob@example.org until bob@new.example replies to the mail herald just sent it"),
        "{sent:#?}"
    );
}

/// Issue 37: "The answer to a confirming reply starts 'Your mail held no command it knows'":
/// a reply that confirms is a mail with a purpose, and its answer says it is confirmed
/// without calling it a mail of nothing. A mail of no command that confirms nothing is
/// still told so.
#[tokio::test]
async fn the_answer_to_a_confirming_reply_does_not_call_it_empty() {
    let mut w = World::new("stranger-confirms-only").await;
    const NEW: &str = "newcomer@example.org";
    let sent = w.mail(NEW, "hello", "HELP\n").await;
    let done = w.confirm(NEW, &sent).await;
    let answer = to(&done, NEW);
    assert!(
        answer
            .body
            .contains("This address (newcomer@example.org) is now confirmed:"),
        "{}",
        answer.body
    );
    assert!(!answer.body.contains("held no command"), "{}", answer.body);
    assert!(!answer.body.contains("nothing was done"), "{}", answer.body);
    assert!(!answer.subject.contains("[confirm-"), "{}", answer.subject);
    let sent = w.mail(NEW, "chat", "hello there\n").await;
    assert!(
        to(&sent, NEW).body.contains("held no command it knows"),
        "{sent:#?}"
    );
}
