//! A game's deadlines as an iCalendar feed (RFC 5545) to subscribe to: the deadline and the
//! end of grace of the phase now played, and those of every phase already processed, as
//! events; a deadline that never came, because its phase was processed before it, is
//! marked cancelled. Each event has the UID of the one mailed with the deadline
//! ([`crate::judge::calendars`]: `<game>-<phase>-deadline@<judge's domain>`), so a calendar
//! that has both keeps one; its SEQUENCE is the game's count of deadline changes.
//!
//! The events hold the game's name, the phase and the judge's address, nothing else: no
//! player, no order. The caller must not serve a private game's feed to a stranger.

use chrono::{DateTime, Duration, Utc};

use super::processed_times;
use crate::judge::calendars::{line, stamp, text};
use crate::judge::game::Status;
use crate::judge::{Game, Judge};

/// The iCalendar feed of a game's deadlines, stamped `now` (DTSTAMP): CRLF line ends,
/// lines folded at 75 octets, every time in UTC.
pub fn ics(judge: &Judge, game: &Game, now: DateTime<Utc>) -> String {
    let variant = judge.variant(game);
    let calendar = &variant.calendar;
    let domain = judge.address.split('@').nth(1).unwrap_or("herald");
    let mut events: Vec<Event> = Vec::new();
    let times = processed_times(judge, game);
    for (record, at) in game.history.iter().zip(times) {
        if let Some((deadline, grace)) = record.deadline {
            let phase = record.phase();
            events.extend(Event::pair(
                game,
                &calendar.code(phase),
                &calendar.show(phase),
                (deadline, grace),
                Some(at),
            ));
        }
    }
    let current = game
        .position
        .as_ref()
        .filter(|_| game.status == Status::Running);
    if let (Some(pos), Some(deadline), Some(grace)) = (current, game.deadline, game.grace) {
        events.extend(Event::pair(
            game,
            &calendar.code(pos.phase),
            &calendar.show(pos.phase),
            (deadline, grace),
            None,
        ));
    }
    let mut s = String::new();
    let title = format!("Deadlines of game {} ({})", game.name, game.variant);
    for l in [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//herald//play-by-email Diplomacy judge//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ] {
        line(&mut s, l);
    }
    line(&mut s, &format!("NAME:{}", text(&title)));
    line(&mut s, &format!("X-WR-CALNAME:{}", text(&title)));
    for e in events {
        line(&mut s, "BEGIN:VEVENT");
        line(
            &mut s,
            &format!("UID:{}", text(&format!("{}@{domain}", e.uid))),
        );
        line(&mut s, &format!("SEQUENCE:{}", game.calendar_seq));
        line(&mut s, &format!("DTSTAMP:{}", stamp(now)));
        line(&mut s, &format!("DTSTART:{}", stamp(e.at)));
        line(
            &mut s,
            &format!("DTEND:{}", stamp(e.at + Duration::minutes(15))),
        );
        line(&mut s, &format!("SUMMARY:{}", text(&e.summary)));
        line(&mut s, &format!("DESCRIPTION:{}", text(&e.description)));
        if e.cancelled {
            line(&mut s, "STATUS:CANCELLED");
        }
        line(&mut s, "TRANSP:TRANSPARENT");
        line(&mut s, "END:VEVENT");
    }
    line(&mut s, "END:VCALENDAR");
    s
}

/// One event of the feed, before it is written.
struct Event {
    /// The UID without the judge's domain: `<game>-<phase code>-<deadline|grace>`.
    uid: String,
    /// When.
    at: DateTime<Utc>,
    /// Its one line.
    summary: String,
    /// What it is.
    description: String,
    /// The phase was processed before this time came: the event did not happen.
    cancelled: bool,
}

impl Event {
    /// The deadline and the end of grace of one phase; `processed` is None for the phase
    /// now played, and for a phase already processed, when it was (if the game's record
    /// says).
    fn pair(
        game: &Game,
        code: &str,
        phase: &str,
        (deadline, grace): (DateTime<Utc>, DateTime<Utc>),
        processed: Option<Option<DateTime<Utc>>>,
    ) -> [Event; 2] {
        let name = &game.name;
        let done = |at: DateTime<Utc>| match processed {
            None => (String::new(), false),
            Some(None) => (" The phase has been processed.".to_string(), false),
            Some(Some(when)) => (
                format!(
                    " The phase was processed at {}.",
                    crate::judge::deadline::show(when, game.settings.zone)
                ),
                when < at,
            ),
        };
        let (deadline_note, deadline_cancelled) = done(deadline);
        let (grace_note, grace_cancelled) = done(grace);
        [
            Event {
                uid: format!("{name}-{code}-deadline"),
                at: deadline,
                summary: format!("{name} {code}: orders due"),
                description: format!("The deadline of {phase} in game {name}.{deadline_note}"),
                cancelled: deadline_cancelled,
            },
            Event {
                uid: format!("{name}-{code}-grace"),
                at: grace,
                summary: format!("{name} {code}: end of grace"),
                description: format!(
                    "The end of grace of {phase} in game {name}: late orders are taken until then.{grace_note}"
                ),
                cancelled: grace_cancelled,
            },
        ]
    }
}
