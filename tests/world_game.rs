//! A world1880 game by mail through its opening and first year: CREATE by mail, sixteen
//! powers with one player holding two (Great Britain and Chile, one address, a SIGNON and a
//! password for each), the unit-choice phase, fleets sharing an ocean, GET MAP, and press
//! metered in dip points.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{find, to, World};

const GM: &str = "gm@example.org";
const ANN: &str = "ann@example.org";

/// Sixteen seats on fifteen addresses: Ann holds Great Britain (B) and Chile (C).
fn players() -> Vec<(String, char)> {
    let mut out = vec![(ANN.to_string(), 'B'), (ANN.to_string(), 'C')];
    for letter in "FRGAITUJZXKPSH".chars() {
        out.push((
            format!("p{}@example.org", letter.to_ascii_lowercase()),
            letter,
        ));
    }
    out
}

async fn order(w: &mut World, addr: &str, letter: char, orders: &str) -> String {
    support::order(w, "w", addr, letter, orders).await
}

async fn process(w: &mut World) -> Vec<support::Sent> {
    w.mail(GM, "go", "SIGNON Mw gmpass\nPROCESS!\n").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_world1880_year_by_mail() {
    let mut w = World::new("world").await;
    // The Master has confirmed: a stranger's answer carries no picture (issue 36).
    let hello = w.mail(GM, "hello", "VERSION\n").await;
    w.confirm(GM, &hello).await;
    let sent = w.mail(GM, "map", "GET MAP world1880\n").await;
    let map = &to(&sent, GM).body;
    for line in [
        "Map of world1880: World 1880 (201 spaces, 70 supply centres; 36 win).",
        "Nao North Atlantic Ocean: ocean (fleets share it without combat)",
        "Pan Panama: coast, coasts wc ec",
        "Yuk Yukon: impassable",
    ] {
        assert!(map.contains(line), "{line}:\n{map}");
    }
    // The world is shown in five pictures, and a reply carries five files (`[limits]
    // reply_attachments`): the overview and the four regions.
    let files = &to(&sent, GM).attachments;
    assert_eq!(
        names(files),
        [
            "world1880-opening.png",
            "world1880-opening-europe.png",
            "world1880-opening-africa.png",
            "world1880-opening-the-americas.png",
            "world1880-opening-asia.png"
        ]
    );
    assert!(!map.contains("Only "), "{map}");

    let sent = w.mail(GM, "new", "CREATE ?w gmpass world1880\n").await;
    assert!(
        to(&sent, GM).body.contains("Game 'w' (world1880) created."),
        "{}",
        to(&sent, GM).body
    );
    // Game mail goes only to addresses that asked for it: each confirms by replying to
    // herald's answer (the Master's first answer was to GET MAP).
    w.confirm(GM, &sent).await;
    for (addr, letter) in players() {
        let sent = w
            .mail(
                &addr,
                "join",
                &format!("SIGNON ?w pw{letter}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        if letter == 'C' {
            let reply = &to(&sent, ANN).body;
            assert!(
                reply.contains("You already hold 1 seat(s) in 'w'; this password opens another"),
                "{reply}"
            );
            assert!(reply.contains("as player 2 of 16"), "{reply}");
        }
        w.confirm(&addr, &sent).await;
    }
    let sent = w.mail(GM, "start", "SIGNON Mw gmpass\nSTART\n").await;
    let starts = find(&sent, ANN, "Game Starting");
    assert_eq!(
        starts.len(),
        1,
        "one start notice to Ann, naming both her powers"
    );
    let start = &starts[0];
    assert!(start.subject.contains("W1879A"), "{}", start.subject);
    // "the start mail carries the opening picture" (issue 27, point 5): on the world, the
    // overview and each region's picture, all shown in the body.
    shows_the_world(start, "w-W1879A");
    for line in [
        "GreatBritain (B) ann@example.org",
        "Chile      (C) ann@example.org",
    ] {
        assert!(start.body.contains(line), "{line}:\n{}", start.body);
    }

    // The opening: each power chooses army or fleet per home centre; the rest get defaults.
    let reply = order(&mut w, ANN, 'B', "Build F Mon\nBuild A Lon").await;
    assert!(
        reply.contains("  Build F Mon\n") && reply.contains("  Build A Lon\n"),
        "{reply}"
    );
    let reply = order(&mut w, ANN, 'C', "Build A San").await;
    assert!(reply.contains("  Build A San\n"), "{reply}");
    assert!(
        !reply.contains("Build F Mon"),
        "Chile's orders are its own: {reply}"
    );
    let sent = process(&mut w).await;
    let results = find(&sent, ANN, "W1879A Results");
    assert_eq!(results.len(), 1, "Ann gets the results once");
    for line in [
        "GreatBritain: Builds a fleet in Montreal.",
        "GreatBritain: Builds an army in London.",
        "GreatBritain: Builds an army in Calcutta.",
        "Chile: Builds an army in Santiago.",
        "USA: Builds a fleet in New York.",
        "Movement for Spring of 1880",
    ] {
        assert!(
            results[0].body.contains(line),
            "{line}:\n{}",
            results[0].body
        );
    }

    // Spring 1880: the American fleet goes to the Sargasso Sea, the British to the Gulf.
    order(&mut w, "pu@example.org", 'U', "F Nyc - Sar").await;
    order(&mut w, ANN, 'B', "F Mon - Gsl").await;
    let sent = process(&mut w).await;
    let results = find(&sent, "pu@example.org", "S1880M Results")[0];
    for line in [
        "USA: Fleet New York -> Sargasso Sea.",
        "GreatBritain: Fleet Montreal -> Gulf of St Lawrence.",
    ] {
        assert!(results.body.contains(line), "{line}:\n{}", results.body);
    }

    // Fall 1880: both fleets sail into the North Atlantic; the ocean takes both.
    let reply = order(&mut w, ANN, 'B', "F Gsl - Nao").await;
    assert!(reply.contains("  F Gsl - Nao\n"), "{reply}");
    order(&mut w, "pu@example.org", 'U', "F Sar - Nao").await;
    let sent = process(&mut w).await;
    let results = find(&sent, ANN, "F1880M Results")[0];
    for line in [
        "GreatBritain: Fleet Gulf of St Lawrence -> North Atlantic Ocean.",
        "USA: Fleet Sargasso Sea -> North Atlantic Ocean.",
    ] {
        assert!(results.body.contains(line), "{line}:\n{}", results.body);
    }
    assert!(!results.body.contains("bounce"), "{}", results.body);
    shows_the_world(results, "w-F1880M");

    // Both fleets are in the ocean now, each ordered apart.
    let reply = order(&mut w, ANN, 'B', "F Nao - Gsl").await;
    assert!(reply.contains("  F Nao - Gsl\n"), "{reply}");
    let reply = order(&mut w, "pu@example.org", 'U', "F Nao - Car").await;
    assert!(reply.contains("  F Nao - Car\n"), "{reply}");
    // M.1: a fleet may support another's move out of the ocean they share (issue 15, 9).
    let reply = order(&mut w, ANN, 'B', "F Nao S American F Nao - Car").await;
    assert!(
        reply.contains("  F Nao S American F Nao - Car\n") && !reply.contains("***"),
        "{reply}"
    );
    let sent = w.wait(Duration::minutes(1)).await;
    assert!(find(&sent, ANN, "Results").is_empty());

    // Press goes out from the power Ann signed on as.
    let sent = w
        .mail(
            ANN,
            "press",
            "SIGNON Cw pwC\nPRESS TO F\nGreetings from Santiago.\nENDPRESS\n",
        )
        .await;
    let reply = &to(&sent, ANN).body;
    assert!(
        reply.contains("Dip points: 4 of 5 left this turn; spent on press to France (1)."),
        "press is metered: Chile, a minor power, has 5 dips a turn: {reply}"
    );
    let press = to(&sent, "pf@example.org");
    assert!(
        press
            .body
            .contains("Message from Chile to France in 'w':\n\nGreetings from Santiago."),
        "{}",
        press.body
    );

    // The results name the fleet the support was for, not just the first in the ocean.
    let sent = process(&mut w).await;
    let results = find(&sent, ANN, "S1881M Results")[0];
    for line in [
        "GreatBritain: Fleet North Atlantic Ocean SUPPORT American Fleet North Atlantic Ocean -> Caribbean Sea.",
        "USA: Fleet North Atlantic Ocean -> Caribbean Sea.",
    ] {
        assert!(results.body.contains(line), "{line}:\n{}", results.body);
    }
}

/// The files' names, in order.
fn names(files: &[support::SentFile]) -> Vec<&str> {
    files.iter().map(|f| f.name.as_str()).collect()
}

/// "Every picture herald mails is readable at 1,000 px wide (labels ≥ 11 px there): the world
/// map as an overview plus regional pictures ... The results mail shows the picture in the
/// mail body where the client can" (issue 27, point 5): the overview and the four regions,
/// in order, each a PNG shown inline and 1,100 px wide (its 14 px names 12.7 px at 1,000 px).
fn shows_the_world(mail: &support::Sent, stem: &str) {
    // A deadline's calendar entry comes after the pictures.
    let files: Vec<support::SentFile> = mail
        .attachments
        .iter()
        .filter(|f| f.name.ends_with(".png"))
        .cloned()
        .collect();
    let files = &files[..];
    let expected: Vec<String> = ["", "-europe", "-africa", "-the-americas", "-asia"]
        .iter()
        .map(|r| format!("{stem}{r}.png"))
        .collect();
    assert_eq!(names(files), expected, "{}", mail.subject);
    for f in files {
        assert_eq!(f.disposition, "inline", "{}", f.name);
        assert!(f.bytes.starts_with(b"\x89PNG"), "{}", f.name);
        let width = u32::from_be_bytes([f.bytes[16], f.bytes[17], f.bytes[18], f.bytes[19]]);
        assert!(
            (1100..=1110).contains(&width),
            "{} is {width} px wide",
            f.name
        );
    }
}
