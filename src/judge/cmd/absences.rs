//! Tests of SET ABSENCE by mail (issue 25, point 11): whole days, the days counted once, the
//! deadline it moves keeping the game's AT time, and everyone told why.

use chrono::{DateTime, Utc};

use crate::judge::testkit::{judge, mail, reply, start, GM, SEVEN};
use crate::judge::Games;

const BOB: &str = "bob@example.org"; // France

fn utc(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// The standard game `g` with movement deadlines at 18:00, started at [`start`] (Tuesday 1
/// December 2026, 10:00 UTC); anonymous if asked.
fn game(anonymous: bool) -> Games {
    let j = judge();
    let mut games = Games::new();
    let now = start();
    mail(&j, &mut games, GM, "CREATE ?g gmpass", now);
    let hide = if anonymous { "\nSET NOSHOW" } else { "" };
    let h = mail(
        &j,
        &mut games,
        GM,
        &format!("SIGNON Mg gmpass\nSET MOVE AT 18:00{hide}"),
        now,
    );
    assert!(
        !reply(&h, GM).body.contains("***"),
        "{}",
        reply(&h, GM).body
    );
    for (addr, letter) in SEVEN {
        let body = format!("SIGNON ?g pw{letter}\nSET PREFERENCE {letter}");
        mail(&j, &mut games, addr, &body, now);
    }
    mail(&j, &mut games, GM, "SIGNON Mg gmpass\nSTART", now);
    games
}

// Issue 25, 11: "`SET ABSENCE 24 Dec 2026 TO 2 Jan 2027` starts at 23:59 of the 24th, so a
// deadline that day is not protected [...] the deadline it pushes drops the game's `AT`
// time; nobody is told why the deadline moved (say so, without naming whom in anonymous
// games)."
#[test]
fn an_absence_protects_its_first_day_keeps_the_at_time_and_is_told() {
    for anonymous in [false, true] {
        let j = judge();
        let mut games = game(anonymous);
        let h = mail(
            &j,
            &mut games,
            BOB,
            "SIGNON Fg pwF\nSET ABSENCE 8 Dec 2026 TO 9 Dec 2026",
            start(),
        );
        // Spring 1901 is processed now; Fall's deadline would be 7 days on at 18:00, Tuesday
        // 8 December: the first day of France's absence.
        let noted = reply(&h, BOB).body.clone();
        let h = mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS!", start());
        assert_eq!(
            games["g"].deadline,
            Some(utc("2026-12-10T18:00:00Z")),
            "the first day after the absence, at the game's 18:00"
        );
        let told: Vec<_> = h
            .effects
            .mails
            .iter()
            .filter(|m| m.subject.contains("Absence Notice"))
            .collect();
        assert_eq!(told.len(), 8, "the seven players and the Master: {told:#?}");
        let why = if anonymous {
            "because of a player's absence (SET ABSENCE)."
        } else {
            "because of the absence (SET ABSENCE) of France."
        };
        for m in &told {
            assert!(
                m.body.contains(&format!(
                    "The deadline is Thu Dec 10 2026 18:00 UTC instead of Tue Dec 08 2026 18:00 UTC, {why}"
                )),
                "{}",
                m.body
            );
            assert_eq!(m.body.contains("France"), !anonymous, "{}", m.body);
        }
        let text = &noted;
        assert!(
            text.contains("Absence noted: Tue Dec 08 2026 to Wed Dec 09 2026 (whole days). Your absences cover 2 calendar days in all."),
            "{text}"
        );
    }
}

// Issue 25, 11: "16 calendar days pass the 15-day check; overlapping absences count twice".
// njudge's MAX ABSENCE is 15 days; the Master may set more for a player (BECOME).
#[test]
fn absences_cover_at_most_fifteen_calendar_days_each_counted_once() {
    let j = judge();
    let mut games = game(false);
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nSET ABSENCE 1 Dec 2026 TO 16 Dec 2026",
        start(),
    );
    assert!(
        reply(&h, BOB).body.contains(
            "your absences may cover at most 15 calendar days in all, and with this one they cover 16"
        ),
        "{}",
        reply(&h, BOB).body
    );
    // 2 to 10 and 5 to 12 December overlap: 11 days, not 17.
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nSET ABSENCE 2 Dec 2026 TO 10 Dec 2026\nSET ABSENCE 5 Dec 2026 TO 12 Dec 2026",
        start(),
    );
    let text = &reply(&h, BOB).body;
    assert!(
        text.contains("Your absences cover 11 calendar days in all."),
        "{text}"
    );
    assert!(!text.contains("***"), "{text}");
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nSET ABSENCE 14 Dec 2026 TO 18 Dec 2026",
        start(),
    );
    assert!(
        reply(&h, BOB).body.contains("with this one they cover 16"),
        "{}",
        reply(&h, BOB).body
    );
    assert_eq!(games["g"].seats[1].absences.len(), 2);
    // The Master may grant more.
    let h = mail(
        &j,
        &mut games,
        GM,
        "SIGNON Mg gmpass\nBECOME F\nSET ABSENCE 14 Dec 2026 TO 18 Dec 2026",
        start(),
    );
    assert!(
        reply(&h, GM)
            .body
            .contains("Your absences cover 16 calendar days in all."),
        "{}",
        reply(&h, GM).body
    );
    assert_eq!(games["g"].seats[1].absences.len(), 3);
}
