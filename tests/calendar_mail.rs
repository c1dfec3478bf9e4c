//! Deadlines in the player's calendar (issue 17, point 3): a mail that states a deadline
//! carries a text/calendar part (RFC 5545) with the deadline and the end of grace as
//! events, read back here with the `icalendar` crate: the same UID for the same phase, a
//! higher SEQUENCE when the deadline moves, a new UID for the next phase.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use icalendar::{Calendar, CalendarComponent, Component};
use support::{start_game, Sent, World, SEVEN};

const GM: &str = "gm@example.org";

/// The (UID, SEQUENCE, start) of each event of a mail's calendar part.
fn events(mail: &Sent) -> Vec<(String, u32, String)> {
    let files: Vec<_> = mail
        .attachments
        .iter()
        .filter(|f| f.content_type.starts_with("text/calendar"))
        .collect();
    assert_eq!(files.len(), 1, "{}: {:?}", mail.subject, mail.attachments);
    assert!(files[0].name.ends_with(".ics"));
    let text = String::from_utf8(files[0].bytes.clone()).unwrap();
    let cal: Calendar = text.parse().unwrap();
    cal.components
        .iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some((
                e.get_uid().unwrap().to_string(),
                e.property_value("SEQUENCE").unwrap().parse().unwrap(),
                e.property_value("DTSTART").unwrap().to_string(),
            )),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn deadlines_come_as_calendar_events_that_update() {
    let mut w = World::new("calendar").await;
    start_game(&mut w, GM, "war", "standard", &SEVEN).await;
    let sent = w
        .mail("ann@example.org", "o", "SIGNON Ewar pwE\nF Lon-Nth\n")
        .await;
    let reply = sent.iter().find(|m| m.to == "ann@example.org").unwrap();
    let first = events(reply);
    assert_eq!(first.len(), 2);
    assert!(first[0].0.starts_with("war-S1901M-deadline@"), "{first:?}");
    assert!(first[1].0.starts_with("war-S1901M-grace@"), "{first:?}");
    assert!(first[0].2.ends_with('Z'));

    // The Master moves the deadline: every notice carries the same events, SEQUENCE up.
    let sent = w
        .mail(
            GM,
            "later",
            "SIGNON Mwar gmpass\nSET DEADLINE 2026-12-20 18:00\n",
        )
        .await;
    let notice = sent.iter().find(|m| m.to == "bob@example.org").unwrap();
    let moved = events(notice);
    assert_eq!(moved[0].0, first[0].0);
    assert_eq!(moved[1].0, first[1].0);
    assert!(moved[0].1 > first[0].1, "{first:?} then {moved:?}");
    assert_eq!(moved[0].2, "20261220T180000Z");

    // The same deadline mailed again keeps its SEQUENCE.
    let sent = w
        .mail("ann@example.org", "o", "SIGNON Ewar pwE\nF Lon H\n")
        .await;
    let again = events(sent.iter().find(|m| m.to == "ann@example.org").unwrap());
    assert_eq!(again[0].1, moved[0].1);

    // The next phase is a new event.
    let sent = w.mail(GM, "go", "SIGNON Mwar gmpass\nPROCESS!\n").await;
    let results = sent
        .iter()
        .find(|m| m.to == "cat@example.org" && m.subject.contains("Results"))
        .unwrap();
    let next = events(results);
    assert!(next[0].0.starts_with("war-F1901M-deadline@"), "{next:?}");
    // The results also carry the board's picture.
    assert!(results
        .attachments
        .iter()
        .any(|f| f.content_type.starts_with("image/png")));
}

#[tokio::test]
async fn a_player_sees_dates_in_a_zone_of_their_own() {
    let mut w = World::new("myzone").await;
    start_game(&mut w, GM, "war", "standard", &SEVEN).await;
    let sent = w
        .mail(
            "ann@example.org",
            "o",
            "SIGNON Ewar pwE\nSET MYZONE Europe/Paris\nF Lon H\n",
        )
        .await;
    let reply = sent.iter().find(|m| m.to == "ann@example.org").unwrap();
    assert!(reply.body.contains("Europe/Paris"), "{}", reply.body);
    // The deadline is 10:00 UTC: 11:00 in Paris in December.
    assert!(reply.body.contains("11:00 CET"), "{}", reply.body);
    // Others, and later notices to others, keep the game's zone; Ann's notices use hers.
    let sent = w
        .mail(
            GM,
            "later",
            "SIGNON Mwar gmpass\nSET DEADLINE 2026-12-20 18:00\n",
        )
        .await;
    let ann = sent.iter().find(|m| m.to == "ann@example.org").unwrap();
    let bob = sent.iter().find(|m| m.to == "bob@example.org").unwrap();
    assert!(ann.body.contains("19:00 CET"), "{}", ann.body);
    assert!(bob.body.contains("18:00 UTC"), "{}", bob.body);
    let bad = w
        .mail(
            "ann@example.org",
            "o",
            "SIGNON Ewar pwE\nSET MYZONE Mars/Olympus\n",
        )
        .await;
    let bad = bad.iter().find(|m| m.to == "ann@example.org").unwrap();
    assert!(
        bad.body.contains("'Mars/Olympus' is not a time zone"),
        "{}",
        bad.body
    );
}
