//! Deadlines in the player's calendar (issue 17, point 3): every mail that states a game's
//! deadline (its `:: Deadline:` header line) carries a text/calendar part (RFC 5545) with
//! the deadline and the end of grace as two events. The events of a phase keep their UID
//! (`<game>-<phase>-deadline@<judge's domain>`), and their SEQUENCE is the game's count of
//! deadline changes, so a calendar program updates the event it has when a deadline moves.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use super::game::{Game, Status};
use super::{Effects, Judge};
use crate::envelope::Attachment;

/// The calendar part's MIME type.
pub const CALENDAR: &str = "text/calendar; charset=utf-8; method=PUBLISH";

/// An RFC 5545 UTC date-time: `20261208T113100Z`.
pub(super) fn stamp(t: DateTime<Utc>) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

/// A TEXT value with RFC 5545's escapes.
pub(super) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A content line folded at 75 octets (RFC 5545, 3.1), ended with CRLF.
pub(super) fn line(out: &mut String, content: &str) {
    let mut width = 0;
    for c in content.chars() {
        let n = c.len_utf8();
        if width + n > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += n;
    }
    out.push_str("\r\n");
}

/// The calendar file of a game's current deadline and grace, if it has them.
pub fn deadline_file(judge: &Judge, game: &Game, now: DateTime<Utc>) -> Option<Attachment> {
    if game.status != Status::Running {
        return None;
    }
    let (pos, deadline, grace) = (game.position.as_ref()?, game.deadline?, game.grace?);
    let variant = judge.variant(game);
    let code = variant.calendar.code(pos.phase);
    let phase = variant.calendar.show(pos.phase);
    let domain = judge.address.split('@').nth(1).unwrap_or("herald");
    let mut s = String::new();
    for l in [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//herald//play-by-email Diplomacy judge//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ] {
        line(&mut s, l);
    }
    let events = [
        (
            "deadline",
            deadline,
            format!("{} {code}: orders due", game.name),
            format!(
                "The deadline of {phase} in game {}. Mail your orders to {}.",
                game.name, judge.address
            ),
        ),
        (
            "grace",
            grace,
            format!("{} {code}: end of grace", game.name),
            format!(
                "The end of grace of {phase} in game {}: late orders are taken until then.",
                game.name
            ),
        ),
    ];
    for (what, at, summary, description) in events {
        line(&mut s, "BEGIN:VEVENT");
        line(&mut s, &format!("UID:{}-{code}-{what}@{domain}", game.name));
        line(&mut s, &format!("SEQUENCE:{}", game.calendar_seq));
        line(&mut s, &format!("DTSTAMP:{}", stamp(now)));
        line(&mut s, &format!("DTSTART:{}", stamp(at)));
        line(
            &mut s,
            &format!("DTEND:{}", stamp(at + Duration::minutes(15))),
        );
        line(&mut s, &format!("SUMMARY:{}", text(&summary)));
        line(&mut s, &format!("DESCRIPTION:{}", text(&description)));
        line(&mut s, "TRANSP:TRANSPARENT");
        line(&mut s, "END:VEVENT");
    }
    line(&mut s, "END:VCALENDAR");
    Some(Attachment {
        name: format!("{}-{code}.ics", game.name),
        content_type: CALENDAR.to_string(),
        bytes: Arc::from(s.into_bytes()),
        inline: None,
    })
}

/// The game a mail is about, when it states that game's deadline: its header's first line
/// names the game (`:: Judge: … Game: war …`) and a `:: Deadline:` line follows.
fn game_of(body: &str) -> Option<&str> {
    let mut lines = body.lines();
    let first = lines.next()?;
    let has_deadline = body.contains("\n:: Deadline: ");
    let name = first
        .strip_prefix(":: Judge: ")?
        .split("  ")
        .find_map(|w| w.strip_prefix("Game: "))?;
    has_deadline.then_some(name.trim())
}

/// Attaches the deadline's calendar file to every mail of `effects` that states a deadline
/// of one of `games`: one file per game, shared by its mails.
pub fn attach<'g>(
    judge: &Judge,
    find: impl Fn(&str) -> Option<&'g Game>,
    effects: &mut Effects,
    now: DateTime<Utc>,
) {
    let mut files: Vec<(String, Option<Attachment>)> = Vec::new();
    for mail in &mut effects.mails {
        let Some(name) = game_of(&mail.body) else {
            continue;
        };
        let key = name.to_ascii_lowercase();
        let file = match files.iter().find(|(n, _)| *n == key) {
            Some((_, f)) => f.clone(),
            None => {
                let f = find(&key).and_then(|g| deadline_file(judge, g, now));
                files.push((key, f.clone()));
                f
            }
        };
        if let Some(f) = file {
            if !mail.attachments.iter().any(|a| a.content_type == CALENDAR) {
                mail.attachments.push(f);
            }
        }
    }
}
