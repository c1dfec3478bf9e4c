//! What a game looks like as a whole: the summary mailed when it ends (who played what,
//! centre counts year by year) and the keeper's full view of it.

use chrono::{DateTime, Utc};

use super::deadline::{self};
use super::game::{Archived, Game, SeatState};
use super::Judge;
use crate::envelope::Outgoing;

/// The summary mailed when a game ends: who played what, centre counts year by year, as
/// `reader` may see it (addresses only as [`Game::address_for`] shows them; an empty reader
/// is a stranger).
pub fn summary_text(judge: &Judge, game: &Game, reader: &str) -> Vec<String> {
    let variant = judge.variant(game);
    let cal = &variant.calendar;
    let map = &variant.map;
    let mut lines = Vec::new();
    let through = game
        .history
        .last()
        .map(|h| cal.code(h.phase()))
        .unwrap_or_else(|| "the start".into());
    lines.push(format!(
        "Summary of game '{}' through {through}.",
        game.name
    ));
    if let Some(o) = &game.outcome {
        lines.push(format!("{o}."));
    }
    lines.push(String::new());
    lines.push(format!(
        "Master: {}",
        game.address_for(reader, &game.master.address)
    ));
    lines.push("The powers were played by:".into());
    for p in map.power_ids() {
        // The player who holds the power now is shown at the address the seat has now
        // (SET ADDRESS moves it), not the one the power was taken from (issue 25).
        let current = game
            .seat_of(p)
            .filter(|s| s.state != SeatState::Abandoned)
            .map(|s| s.member.address.as_str());
        let mine: Vec<_> = game.tenures.iter().filter(|t| t.power == p).collect();
        let players: Vec<String> = mine
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let address = match current {
                    Some(now) if i + 1 == mine.len() => now,
                    _ => t.address.as_str(),
                };
                format!(
                    "{} (from {})",
                    game.address_for(reader, address),
                    t.from.code(cal)
                )
            })
            .collect();
        let nobody = if game.dummies(map).contains(&p) {
            " [nobody played it: civil disorder]"
        } else {
            ""
        };
        let state = game.seat_of(p).map_or(nobody, |s| match s.state {
            SeatState::Playing => "",
            SeatState::Abandoned => " [abandoned]",
            SeatState::Disorder => " [civil disorder]",
        });
        lines.push(format!(
            "  {:<10} {}{}",
            map.power(p).name,
            players.join(", "),
            state
        ));
    }
    if !game.centre_counts.is_empty() {
        lines.push(String::new());
        lines.push("Supply centres after each year:".into());
        let years: Vec<String> = game
            .centre_counts
            .iter()
            .map(|count| game.year_of(count).map_or("?".into(), |y| cal.show_year(y)))
            .collect();
        // Each column as wide as its longest label and two spaces ("273 B.C." runs into the
        // next year at a fixed seven), each name as wide as the longest power's.
        let col = years.iter().map(|y| y.chars().count()).max().unwrap_or(0) + 2;
        let name = map
            .power_ids()
            .map(|p| map.power(p).name.chars().count())
            .max()
            .unwrap_or(0)
            .max(10);
        let mut head = format!("  {:<name$}", "");
        for year in &years {
            head.push_str(&format!("{year:>col$}"));
        }
        lines.push(head);
        for p in map.power_ids() {
            let mut row = format!("  {:<name$}", map.power(p).name);
            for count in &game.centre_counts {
                row.push_str(&format!(
                    "{:>col$}",
                    count.counts.get(p.index()).copied().unwrap_or(0)
                ));
            }
            lines.push(row);
        }
    }
    lines
}

/// The summary to everyone, each copy as its reader may see it; HISTORY keeps a stranger's.
pub fn summary_mails(judge: &Judge, game: &mut Game, now: DateTime<Utc>) -> Vec<Outgoing> {
    let g = &*game;
    let mails: Vec<Outgoing> = judge
        .everyone(g)
        .iter()
        .map(|to| judge.notice(g, to, "Summary", &summary_text(judge, g, to)))
        .collect();
    let kept = judge.notice(game, "", "Summary", &summary_text(judge, game, ""));
    game.archive.push(Archived {
        at: now,
        subject: kept.subject,
        body: kept.body,
    });
    mails
}

/// The keeper's full view of a game (`herald game show`).
pub fn keeper_view(judge: &Judge, game: &Game) -> String {
    let variant = judge.variant(game);
    let map = judge.map_of(game);
    let tz = game.settings.zone;
    let mut out = vec![
        judge.header(game),
        format!("status: {}", game.status.word()),
        format!("master: {}", game.master.address),
    ];
    if let Some(pos) = &game.position {
        out.push(format!("phase: {}", variant.calendar.show(pos.phase)));
    }
    if let (Some(d), Some(g)) = (game.deadline, game.grace) {
        out.push(format!(
            "deadline: {}; grace ends {}",
            deadline::show(d, tz),
            deadline::show(g, tz)
        ));
    }
    out.push(format!("waiting for a replacement: {}", game.waiting));
    let p = &game.settings.privacy;
    out.push(format!(
        "privacy: anonymous {}, reveal at the end {}, unlisted {}, join word {}, allow [{}], deny [{}]",
        p.anonymous,
        p.reveal,
        p.unlisted,
        p.join_word.is_some(),
        p.allow.join(", "),
        p.deny.join(", ")
    ));
    for seat in &game.seats {
        let power = seat
            .power
            .map_or("(unassigned)".to_string(), |p| map.power(p).name.clone());
        out.push(format!(
            "seat: {power} {} {:?}{}",
            seat.member.address,
            seat.state,
            if seat.wait { " WAIT" } else { "" }
        ));
        if let Some(p) = seat.power {
            for order in super::filed::stored(judge, game, p).iter() {
                out.push(format!("    {}", order.canonical(map)));
            }
            for line in super::filed::unreadable(judge, game, p) {
                out.push(format!("    {line}  (stored as text, no longer an order)"));
            }
        }
    }
    for o in &game.observers {
        out.push(format!("observer: {}", o.address));
    }
    out.push(format!(
        "phases played: {}",
        game.history
            .iter()
            .map(|h| variant.calendar.code(h.phase()))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::summary_text;
    use crate::judge::testkit::{self, GM};

    /// Classical's years are "273 B.C.", eight characters: the centre table's headings are
    /// apart however long a year's label is (the fourth review read
    /// `273 B.C.272 B.C.271 B.C.` in a SUMMARY reply).
    #[test]
    fn classical_year_headings_stand_apart() {
        let judge = testkit::judge();
        let players: Vec<(String, char)> = "ACERS"
            .chars()
            .map(|l| (format!("p{l}@example.org"), l))
            .collect();
        let mut games = testkit::started_as(&judge, "c gmpass classical", &players);
        let mut now = testkit::start();
        for _ in 0..6 {
            now += chrono::Duration::minutes(1);
            testkit::mail(&judge, &mut games, GM, "SIGNON Mc gmpass\nPROCESS!", now);
        }
        let game = games.get("c").unwrap();
        assert!(game.centre_counts.len() >= 2, "{:?}", game.centre_counts);
        let text = summary_text(&judge, game, "");
        let mut table = text
            .iter()
            .skip_while(|l| !l.starts_with("Supply centres after each year"))
            .skip(1);
        let head = table.next().unwrap();
        assert!(head.contains("273 B.C.  272 B.C."), "{text:#?}");
        let rome = table.find(|l| l.trim_start().starts_with("Rome")).unwrap();
        assert_eq!(rome.len(), head.len(), "{text:#?}");
    }
}
