//! Tests of the Atom and iCalendar feeds, and that no export tells a secret.

use chrono::Duration;
use icalendar::{Calendar, CalendarComponent, Component};

use super::super::{atom, datc_case, export_json, ics};
use super::a_year_played;
use crate::judge::testkit::{judge, mail, reply, start, GM, SEVEN};
use crate::judge::Games;

const ATOM: &str = "http://www.w3.org/2005/Atom";

/// The text of the Atom child `name` of `node`.
fn child<'a>(node: roxmltree::Node<'a, 'a>, name: &str) -> Option<&'a str> {
    node.children()
        .find(|c| c.has_tag_name((ATOM, name)))
        .map(|c| c.text().unwrap_or(""))
}

/// Issue 28, point 3: "An Atom feed per game (an entry per result)"; the feed validates:
/// well-formed XML with the elements RFC 4287 requires (feed id, title, updated, author;
/// entry id, title, updated, content), ids that do not change, dates in RFC 3339.
#[test]
fn the_atom_feed_has_an_entry_per_phase_with_stable_ids() {
    let j = judge();
    let games = a_year_played(&j);
    let g = &games["g"];
    let feed = atom(&j, g, "https://herald.example.org/");
    let doc = roxmltree::Document::parse(&feed).unwrap();
    let root = doc.root_element();
    assert!(root.has_tag_name((ATOM, "feed")), "{feed}");
    assert_eq!(
        child(root, "id"),
        Some("tag:herald.example.org,2026:games/g")
    );
    assert!(child(root, "title").is_some_and(|t| t.contains('g')));
    assert_eq!(child(root, "updated"), Some("2026-12-01T14:00:00Z"));
    let author = root
        .children()
        .find(|c| c.has_tag_name((ATOM, "author")))
        .unwrap();
    assert_eq!(child(author, "name"), Some("herald"));
    let this = root
        .children()
        .find(|c| c.has_tag_name((ATOM, "link")) && c.attribute("rel") == Some("self"))
        .unwrap();
    assert_eq!(
        this.attribute("href"),
        Some("https://herald.example.org/games/g/feed.atom")
    );
    let entries: Vec<_> = root
        .children()
        .filter(|c| c.has_tag_name((ATOM, "entry")))
        .collect();
    let titles: Vec<&str> = entries.iter().filter_map(|e| child(*e, "title")).collect();
    assert_eq!(
        titles,
        [
            "Winter 1901 Adjustment results",
            "Fall 1901 Retreat results",
            "Fall 1901 Movement results",
            "Spring 1901 Movement results",
        ]
    );
    for (e, record) in entries.iter().zip(g.history.iter().rev()) {
        let updated = child(*e, "updated").unwrap();
        assert!(
            chrono::DateTime::parse_from_rfc3339(updated).is_ok(),
            "{updated}"
        );
        assert_eq!(child(*e, "content"), Some(record.results.as_str()));
    }
    let ids: Vec<&str> = entries.iter().filter_map(|e| child(*e, "id")).collect();
    assert_eq!(ids[3], "tag:herald.example.org,2026:games/g/S1901M");
    // Another phase processed: the entries there were keep their ids and dates.
    let mut games = games.clone();
    mail(
        &j,
        &mut games,
        GM,
        "SIGNON Mg gmpass\nPROCESS!",
        start() + Duration::hours(6),
    );
    let later = atom(&j, &games["g"], "https://herald.example.org");
    for id in &ids {
        assert!(later.contains(&format!("<id>{id}</id>")), "{later}");
    }
    assert!(later.contains("<title>Spring 1902 Movement results</title>"));
    assert!(later.contains("<updated>2026-12-01T16:00:00Z</updated>"));
}

/// A phase played again after a ROLLBACK keeps its entry's id, dated when it was played
/// again (the archive keeps the undone results too).
#[test]
fn a_phase_played_again_is_dated_when_it_was_played_again() {
    let j = judge();
    let mut games = a_year_played(&j);
    let rollback = "SIGNON Mg gmpass\nROLLBACK F1901R";
    let h = mail(&j, &mut games, GM, rollback, start() + Duration::hours(6));
    assert!(reply(&h, GM).body.contains("Rolled back to F1901R"));
    for k in [7, 8] {
        let now = start() + Duration::hours(k);
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS!", now);
    }
    let g = &games["g"];
    assert_eq!(g.history.len(), 4);
    let feed = atom(&j, g, "https://herald.example.org");
    let doc = roxmltree::Document::parse(&feed).unwrap();
    let dated: Vec<(&str, &str)> = doc
        .root_element()
        .children()
        .filter(|c| c.has_tag_name((ATOM, "entry")))
        .map(|e| (child(e, "id").unwrap(), child(e, "updated").unwrap()))
        .collect();
    let id = |code: &str| format!("tag:herald.example.org,2026:games/g/{code}");
    assert_eq!(
        dated,
        [
            (id("W1901A").as_str(), "2026-12-01T18:00:00Z"),
            (id("F1901R").as_str(), "2026-12-01T17:00:00Z"),
            (id("F1901M").as_str(), "2026-12-01T12:00:00Z"),
            (id("S1901M").as_str(), "2026-12-01T11:00:00Z"),
        ]
    );
}

/// "escaping must be right: a test with `<&>"` in a game name/press": text with markup
/// characters and a control character reads back as written (the control left out).
#[test]
fn the_atom_feed_escapes_markup() {
    let j = judge();
    let mut g = a_year_played(&j).remove("g").unwrap();
    g.name = "a<&>\"b'".into();
    g.history[0].results = "Press <b>bold</b> & \"quoted\" 'too'\u{7}.\nline two".into();
    let feed = atom(&j, &g, "https://h.example.org/?x=<1>&y=\"2\"");
    let doc = roxmltree::Document::parse(&feed).unwrap();
    let root = doc.root_element();
    assert_eq!(
        child(root, "title"),
        Some("Results of game a<&>\"b' (standard)")
    );
    let last = root
        .children()
        .rfind(|c| c.has_tag_name((ATOM, "entry")))
        .unwrap();
    assert_eq!(
        child(last, "content"),
        Some("Press <b>bold</b> & \"quoted\" 'too'.\nline two")
    );
    assert_eq!(
        child(last, "id"),
        Some("tag:h.example.org,2026:games/a%3C%26%3E%22b%27/S1901M")
    );
}

/// Unfolds an iCalendar text (RFC 5545, 3.1): a CRLF followed by a space joins lines.
fn unfold(text: &str) -> String {
    text.replace("\r\n ", "")
}

/// Issue 28, point 3: "the game's deadlines as an ICS feed"; it validates: CRLF line ends,
/// lines folded at 75 octets, the properties RFC 5545 requires, times in UTC, and the same
/// UIDs as the events mailed with the deadline.
#[test]
fn the_ics_feed_holds_every_deadline_in_utc() {
    let j = judge();
    let games = a_year_played(&j);
    let g = &games["g"];
    let now = start() + Duration::hours(5);
    let text = ics(&j, g, now);
    assert!(text.ends_with("END:VCALENDAR\r\n"));
    for line in text.strip_suffix("\r\n").unwrap().split("\r\n") {
        assert!(!line.contains(['\r', '\n']), "a bare line end: {line:?}");
        assert!(line.len() <= 75, "{} octets: {line}", line.len());
    }
    let cal: Calendar = text.parse().unwrap();
    let events: Vec<_> = cal
        .components
        .iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some(e),
            _ => None,
        })
        .collect();
    // The deadline and grace of the four phases played and of Spring 1902.
    assert_eq!(events.len(), 10);
    for e in &events {
        for p in ["UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY", "SEQUENCE"] {
            assert!(e.property_value(p).is_some(), "{p} missing: {text}");
        }
        assert!(e.property_value("DTSTART").unwrap().ends_with('Z'));
        assert_eq!(e.property_value("DTSTAMP"), Some("20261201T150000Z"));
    }
    // Each phase played was processed early, by the Master, before its deadline came:
    // those deadlines are cancelled; the one now ahead is not.
    let status: Vec<Option<&str>> = events.iter().map(|e| e.property_value("STATUS")).collect();
    assert_eq!(status[..8], [Some("CANCELLED"); 8]);
    assert_eq!(status[8..], [None, None]);
    let description = events[0].property_value("DESCRIPTION").unwrap();
    // Prose for a person, in the game's zone: never a raw iCalendar time (the fourth review
    // read "processed at 20261201T110000Z" in a calendar's description).
    assert!(
        description.contains("processed at Tue Dec 01 2026 11:00 UTC."),
        "{description}"
    );
    let uids: Vec<&str> = events.iter().filter_map(|e| e.get_uid()).collect();
    assert_eq!(uids[0], "g-S1901M-deadline@herald.test");
    let mailed = crate::judge::calendars::deadline_file(&j, g, now).unwrap();
    let mailed = String::from_utf8(mailed.bytes.to_vec()).unwrap();
    for uid in &uids[8..] {
        assert!(uid.starts_with("g-S1902M-"), "{uid}");
        assert!(mailed.contains(&format!("UID:{uid}\r\n")), "{mailed}");
    }
}

/// Text values escape `\`, `;`, `,` and line ends; a long line is folded and reads back
/// whole.
#[test]
fn the_ics_feed_escapes_and_folds() {
    let j = judge();
    let mut g = a_year_played(&j).remove("g").unwrap();
    g.name = format!("a,b;c\\d\r\ne{}", "x".repeat(80));
    let text = ics(&j, &g, start());
    for line in text.strip_suffix("\r\n").unwrap().split("\r\n") {
        assert!(line.len() <= 75, "{} octets: {line}", line.len());
    }
    let whole = unfold(&text);
    let summary = format!(
        "SUMMARY:a\\,b\\;c\\\\d\\ne{} S1901M: orders due\r\n",
        "x".repeat(80)
    );
    assert!(whole.contains(&summary), "{whole}");
    assert!(text.contains("\r\n "), "nothing folded: {text}");
}

/// Issue 28, point 5: "Nothing secret is reachable. No press but broadcasts, no
/// addresses, no orders before their phase is processed". An anonymous game with grey
/// press, private press and a broadcast: no export holds an address, a password or its
/// hash, or any press.
#[test]
fn no_export_tells_a_secret() {
    let j = judge();
    let mut games = Games::new();
    let now = start();
    mail(&j, &mut games, GM, "CREATE ?s gmpass", now);
    mail(
        &j,
        &mut games,
        GM,
        "SIGNON Ms gmpass\nSET NOSHOW\nSET PRESS GREY",
        now,
    );
    for (addr, letter) in SEVEN {
        let body = format!("SIGNON ?s pw{letter}\nSET PREFERENCE {letter}");
        mail(&j, &mut games, addr, &body, now);
    }
    mail(&j, &mut games, GM, "SIGNON Ms gmpass\nSTART", now);
    // Each in a mail of its own (grey press may not travel with white).
    let press = [
        ('F', "PRESS TO G\nPRIVATE-PLAN-MUNICH\nENDPRESS\nA Par-Bur"),
        ('G', "PRESS TO E GREY\nGREY-WHISPER-LONDON\nENDPRESS"),
        ('I', "BROADCAST\nBROADCAST-HELLO-ALL\nENDPRESS"),
        ('R', "BROADCAST GREY\nGREY-BROADCAST-ROME\nENDPRESS"),
    ];
    for (letter, text) in press {
        let from = SEVEN.iter().find(|(_, l)| *l == letter).unwrap().0;
        let h = mail(
            &j,
            &mut games,
            from,
            &format!("SIGNON {letter}s pw{letter}\n{text}"),
            now,
        );
        let said = &reply(&h, from).body;
        assert!(
            said.contains("Press sent to") && !said.contains("***"),
            "{said}"
        );
    }
    for k in 1..=2 {
        mail(
            &j,
            &mut games,
            GM,
            "SIGNON Ms gmpass\nPROCESS!",
            now + Duration::hours(k),
        );
    }
    mail(
        &j,
        &mut games,
        "ann@example.org",
        "SIGNON Es pwE\nF Lon-Eng",
        now,
    );
    let g = &games["s"];
    assert!(g.hides_people() && g.history.len() == 2);
    let stored = serde_json::to_string(g).unwrap();
    assert!(
        stored.contains("BROADCAST-HELLO-ALL"),
        "the broadcast is archived"
    );
    let mut secrets: Vec<String> = vec!["gmpass".into(), GM.into(), g.master.password.clone()];
    for seat in &g.seats {
        secrets.push(seat.member.address.clone());
        secrets.push(seat.member.password.clone());
        assert!(!seat.member.password.is_empty());
    }
    secrets.extend(SEVEN.iter().map(|(_, l)| format!("pw{l}")));
    secrets.extend(
        [
            "PRIVATE-PLAN",
            "GREY-WHISPER",
            "HELLO-ALL",
            "GREY-BROADCAST",
        ]
        .map(String::from),
    );
    // Orders of the phase not yet processed.
    secrets.push("F Lon - Eng".into());
    let outputs = [
        ("json", export_json(&j, g).to_string()),
        ("datc", datc_case(&j, g)),
        ("atom", atom(&j, g, "https://herald.example.org")),
        ("ics", ics(&j, g, now)),
    ];
    for (what, text) in &outputs {
        assert!(text.len() > 100, "{what} is empty: {text}");
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "{what} holds {secret}:\n{text}"
            );
        }
        assert!(
            !text.contains('@') || *what == "ics",
            "{what} holds an address:\n{text}"
        );
    }
    // The orders of the phases processed are there.
    assert!(
        outputs[1].1.contains("France: A Par - Bur"),
        "{}",
        outputs[1].1
    );
}
