//! What herald says when a mail cannot be read as usual: too large to read, a bounce that
//! names a player's address, a mail herald failed on. The service reports the incident; the
//! judge decides who is told what, from `templates/`.

use super::{Games, Judge};
use crate::envelope::{Letter, Outgoing};

/// The reply to a mail too large to read.
pub fn too_large(judge: &Judge, letter: &Letter, size: usize, limit: usize) -> Outgoing {
    Outgoing {
        to: letter.reply_to.clone(),
        subject: error_subject(letter),
        body: judge.templates.render(
            "too_large.txt",
            minijinja::context! { judge => &judge.address, size => size, limit => limit },
        ),
        in_reply_to: Some(letter.message_id.clone()),
        attachments: Vec::new(),
    }
}

/// The apology to the sender of a mail herald failed on.
pub fn failed(judge: &Judge, letter: &Letter) -> Outgoing {
    Outgoing {
        to: letter.reply_to.clone(),
        subject: error_subject(letter),
        body: judge.templates.render(
            "failed.txt",
            minijinja::context! { judge => &judge.address },
        ),
        in_reply_to: Some(letter.message_id.clone()),
        attachments: Vec::new(),
    }
}

/// The keeper's note of a mail herald failed on and kept in quarantine (none when no keeper
/// address is configured).
pub fn quarantined(judge: &Judge, letter: &Letter, what: &str) -> Option<Outgoing> {
    (!judge.keeper.is_empty()).then(|| Outgoing {
        to: judge.keeper.clone(),
        subject: "herald: a mail was quarantined".into(),
        body: judge.templates.render(
            "quarantined.txt",
            minijinja::context! {
                judge => &judge.address, from => &letter.from,
                message_id => &letter.message_id, what => what,
            },
        ),
        in_reply_to: None,
        attachments: Vec::new(),
    })
}

/// The notices of a bounce for `gone`: each game's Master where it plays or observes.
pub fn bounced(judge: &Judge, games: &Games, gone: &str) -> Vec<Outgoing> {
    games
        .values()
        .filter_map(|g| {
            let role = if g.seats.iter().any(|s| s.member.address == gone) {
                "a player"
            } else if g.observers.iter().any(|o| o.address == gone) {
                "an observer"
            } else {
                return None;
            };
            let lines = vec![format!(
                "Mail to {gone} ({role} in '{}') bounced: that address cannot be reached.",
                g.name
            )];
            Some(judge.notice(g, &g.master.address, "Bouncing Address", &lines))
        })
        .collect()
}

/// The subject of every report that a mail could not be delivered: a report that itself
/// fails is only logged, never reported again.
pub const UNDELIVERABLE: &str = "Undeliverable Mail";

/// The reports of a mail the mail server refused for good (a 5xx, or too many failed
/// tries): to the keeper, and to the Master of each game where `to` plays or observes.
pub fn refused(judge: &Judge, games: &Games, to: &str, subject: &str, why: &str) -> Vec<Outgoing> {
    let mut mails: Vec<Outgoing> = games
        .values()
        .filter_map(|g| {
            let role = if g
                .seats
                .iter()
                .any(|s| s.member.address.eq_ignore_ascii_case(to))
            {
                "a player"
            } else if g
                .observers
                .iter()
                .any(|o| o.address.eq_ignore_ascii_case(to))
            {
                "an observer"
            } else {
                return None;
            };
            let lines = vec![
                format!(
                    "herald's mail to {to} ({role} in '{}') could not be delivered.",
                    g.name
                ),
                format!("Its subject: {subject}"),
                format!("The mail server said: {why}"),
                String::new(),
                "The player may need a new address (SET ADDRESS), or the power a new player."
                    .into(),
            ];
            Some(judge.notice(g, &g.master.address, UNDELIVERABLE, &lines))
        })
        .filter(|m| !m.to.eq_ignore_ascii_case(to))
        .collect();
    if !judge.keeper.is_empty() && !judge.keeper.eq_ignore_ascii_case(to) {
        mails.push(Outgoing {
            to: judge.keeper.clone(),
            subject: format!("herald: {UNDELIVERABLE} to {to}"),
            body: format!(
                "herald could not deliver a mail and has stopped trying.\n\nTo: {to}\nSubject: {subject}\nThe mail server said: {why}\n\nIt is kept in the outbox table, marked failed.\n"
            ),
            in_reply_to: None,
            attachments: Vec::new(),
        });
    }
    mails
}

fn error_subject(letter: &Letter) -> String {
    super::reply::reply_subject(&letter.subject, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testkit::{judge, letter, started};

    #[test]
    fn each_incident_is_told_in_plain_words() {
        let j = judge();
        let l = letter("ann@example.org", "HELP");
        let m = too_large(&j, &l, 300_000, 262_144);
        assert_eq!(m.subject, "Re: test [Error Flag]");
        assert!(m
            .body
            .contains("Your mail is 300000 bytes; herald reads mails of at most 262144 bytes"));
        assert!(failed(&j, &l).body.contains("Nothing in it was applied."));
        let note = quarantined(&j, &l, "index out of bounds").unwrap();
        assert_eq!(note.to, "keeper@herald.test");
        assert!(note.body.contains("a mail from ann@example.org"));
        let games = started(&j);
        let notices = bounced(&j, &games, "bob@example.org");
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].to, "gm@example.org");
        assert!(notices[0].body.contains("(a player in 'g') bounced"));
        assert!(bounced(&j, &games, "nobody@example.org").is_empty());
    }
}
