//! Errors that say the right thing (issue 18, point 6): each refusal names the text refused
//! and why, and shows the right form. The cases seen in play: a movement order in the
//! winter, a malformed SET ADDRESS, orders without SIGNON, a refused press; and every line
//! of a mail of wrong commands is answered with its own text and a reason.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{order, reply, start_game, World, SEVEN};

const GM: &str = "gm@example.org";

/// The reason given under `line` in a reply, if the line was refused.
fn refusal(body: &str, line: &str) -> Option<String> {
    let lines: Vec<&str> = body.lines().collect();
    lines
        .windows(2)
        .find(|w| w[0].trim() == line && w[1].trim_start().starts_with("*** "))
        .map(|w| w[1].trim_start().trim_start_matches("*** ").to_string())
}

#[tokio::test]
async fn refusals_name_the_text_the_reason_and_the_right_form() {
    let mut w = World::new("refusals").await;
    start_game(&mut w, GM, "ref", "standard", &SEVEN).await;

    // Orders without SIGNON: told to sign on first, not "held no command it knows".
    let sent = w
        .mail("bob@example.org", "o", "A Par-Bur\nA Mar S A Par-Bur\n")
        .await;
    let body = &reply(&sent, "bob@example.org").body;
    let why = refusal(body, "A Par-Bur").unwrap_or_else(|| panic!("{body}"));
    assert!(why.starts_with("orders come after SIGNON"), "{body}");

    // A malformed SET ADDRESS from a player: its form, not "only the Master may do this".
    for bad in ["SET ADDRESS", "SET ADDRESS a@example.org b@example.org"] {
        let sent = w
            .mail("bob@example.org", "a", &format!("SIGNON Fref pwF\n{bad}\n"))
            .await;
        let body = &reply(&sent, "bob@example.org").body;
        let why = refusal(body, bad).unwrap_or_else(|| panic!("{body}"));
        assert!(
            why.starts_with("SET ADDRESS did not read: write SET ADDRESS <address>"),
            "{body}"
        );
    }
    // An unknown setting from a player is named as unknown, not as the Master's.
    let sent = w
        .mail("bob@example.org", "a", "SIGNON Fref pwF\nSET COLOUR BLUE\n")
        .await;
    let body = &reply(&sent, "bob@example.org").body;
    let why = refusal(body, "SET COLOUR BLUE").unwrap_or_else(|| panic!("{body}"));
    assert!(why.contains("is not a setting herald knows"), "{body}");

    // A refused press is echoed with its first line and its text.
    let sent = w
        .mail(
            "bob@example.org",
            "p",
            "SIGNON Fref pwF\nPRESS TO Q\nMeet me in Burgundy.\nENDPRESS\n",
        )
        .await;
    let body = &reply(&sent, "bob@example.org").body;
    let why = refusal(body, "PRESS TO Q").unwrap_or_else(|| panic!("{body}"));
    assert!(why.contains("'Q' is no one in this game"), "{body}");
    assert!(body.contains("  | Meet me in Burgundy."), "{body}");

    // Into the winter: France takes Spain and has a build, Italy nothing to adjust.
    let spring = [
        ('E', "F Lon H\nF Edi H\nA Lvp H"),
        ('F', "F Bre H\nA Par H\nA Mar-Spa"),
        ('G', "F Kie-Den\nA Ber H\nA Mun H"),
        ('I', "F Nap H\nA Rom-Apu\nA Ven H"),
        ('A', "A Vie H\nA Bud H\nF Tri H"),
        ('R', "A Mos H\nA War H\nF Sev H\nF Stp/sc H"),
        ('T', "F Ank H\nA Con H\nA Smy H"),
    ];
    for (letter, orders) in spring {
        let addr = SEVEN.iter().find(|(_, l)| *l == letter).unwrap().0;
        order(&mut w, "ref", addr, letter, orders).await;
    }
    w.wait(Duration::minutes(31)).await;
    let fall = [
        ('E', "F Lon H\nF Edi H\nA Lvp H"),
        ('F', "F Bre H\nA Par H\nA Spa H"),
        ('G', "F Den H\nA Ber H\nA Mun H"),
        ('I', "F Nap H\nA Apu H\nA Ven H"),
        ('A', "A Vie H\nA Bud H\nF Tri H"),
        ('R', "A Mos H\nA War H\nF Sev H\nF Stp/sc H"),
        ('T', "F Ank H\nA Con H\nA Smy H"),
    ];
    for (letter, orders) in fall {
        let addr = SEVEN.iter().find(|(_, l)| *l == letter).unwrap().0;
        order(&mut w, "ref", addr, letter, orders).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    assert!(sent.iter().any(|m| m.subject.contains("F1901M Results")));
    // A movement order in the winter says what the phase takes, not "all used".
    let reply_g = order(&mut w, "ref", "cat@example.org", 'G', "A Mun-Ber").await;
    let why = refusal(&reply_g, "A Mun-Ber").unwrap_or_else(|| panic!("{reply_g}"));
    assert_eq!(
        why,
        "units do not move in W1901A, the adjustments; you have 1 build: write e.g. 'Build A <home centre>', or 'Waive'"
    );
    let reply_i = order(&mut w, "ref", "dan@example.org", 'I', "A Apu-Nap").await;
    let why = refusal(&reply_i, "A Apu-Nap").unwrap_or_else(|| panic!("{reply_i}"));
    assert_eq!(
        why,
        "units do not move in W1901A, the adjustments; you have no builds or removals, so there is nothing to order"
    );
}

#[tokio::test]
async fn every_refused_line_is_echoed_with_a_reason() {
    let mut w = World::new("refusals-all").await;
    start_game(&mut w, GM, "all", "standard", &SEVEN).await;
    let player = [
        "A Par-Mos",
        "F Kie-Mun",
        "A Xyz H",
        "BECOME F",
        "SET ADDRESS",
        "SET PREFERENCE F",
        "SET ABSENCE tomorrow",
        "SET DRAW QZ",
        "SET CONCEDE France",
        "SET MYZONE Mars/Olympus",
        "PHASE W1999X",
        "ENDPRESS",
        "SET DEADLINE 2027-01-01 10:00",
        "ROLLBACK S1901M",
        "PROCESS",
        "SET NOTHING",
    ];
    let mail = format!("SIGNON Fall pwF\n{}\n", player.join("\n"));
    let sent = w.mail("bob@example.org", "many", &mail).await;
    let body = &reply(&sent, "bob@example.org").body;
    for line in player {
        let why =
            refusal(body, line).unwrap_or_else(|| panic!("'{line}' not refused by name:\n{body}"));
        assert!(why.len() > 12, "'{line}': '{why}'");
    }
    let master = [
        "BECOME",
        "BECOME France",
        "EJECT",
        "ROLLBACK",
        "ROLLBACK X1901M",
        "SET DEADLINE someday",
        "SET ZONE Mars/Olympus",
        "SET RULE nosuch",
        "SET MOVE NEXT forever",
        "A Par-Bur",
    ];
    let mail = format!("SIGNON Mall gmpass\n{}\n", master.join("\n"));
    let sent = w.mail(GM, "many", &mail).await;
    let body = &reply(&sent, GM).body;
    for line in master {
        let why =
            refusal(body, line).unwrap_or_else(|| panic!("'{line}' not refused by name:\n{body}"));
        assert!(why.len() > 12, "'{line}': '{why}'");
    }
}

#[tokio::test]
async fn far_phases_and_long_words_are_refused_briefly() {
    let mut w = World::new("refusals-far").await;
    start_game(&mut w, GM, "far", "standard", &SEVEN).await;
    let long = "Q".repeat(300);
    let mail = format!("SIGNON Ffar pwF\nSET CONCEDE {long}\nPHASE S1999M\nA Par-Bur\n");
    let sent = w.mail("bob@example.org", "far", &mail).await;
    let body = &reply(&sent, "bob@example.org").body;
    // A word of the sender's is quoted clipped, not echoed whole a second time.
    let why = refusal(body, &format!("SET CONCEDE {long}")).unwrap_or_else(|| panic!("{body}"));
    assert!(why.len() < 150 && why.contains("names no power"), "{why}");
    // Orders are kept for later phases up to five years ahead (njudge's limit), no further.
    let why = refusal(body, "A Par-Bur").unwrap_or_else(|| panic!("{body}"));
    assert_eq!(
        why,
        "orders are kept for phases at most 5 years ahead, and S1999M is further; the game is at S1901M"
    );
}
