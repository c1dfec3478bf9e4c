//! A Classical game played by mail for a full year: CREATE by mail, five players, Spring,
//! Fall and Winter 273 B.C., replies and results in B.C. years, phase codes counted from
//! Alexander (273 B.C. is year 50), and a PHASE line in either form; and a keeper's Classical
//! that crosses from 1 B.C. to 1 A.D.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use herald::config::Config;
use herald::service::Service;
use support::{find, to, World};

const GM: &str = "gm@example.org";
const PLAYERS: [(&str, char); 5] = [
    ("mac@example.org", 'A'),
    ("car@example.org", 'C'),
    ("egy@example.org", 'E'),
    ("rom@example.org", 'R'),
    ("syr@example.org", 'S'),
];
const HOLDS: [(char, &str); 4] = [
    ('A', "A Pel H\nF Cas H\nF Kal H"),
    ('C', "F Car H\nF Pan H\nF Lep H"),
    ('E', "A The H\nF Ale H\nF Mem H"),
    ('S', "A Ant H\nA Dam H\nF Tyr H"),
];

fn who(letter: char) -> &'static str {
    PLAYERS.iter().find(|(_, l)| *l == letter).unwrap().0
}

async fn order(w: &mut World, letter: char, orders: &str) -> support::Sent {
    let sent = w
        .mail(
            who(letter),
            "orders",
            &format!("SIGNON {letter}rome pw{letter}\n{orders}\n"),
        )
        .await;
    to(&sent, who(letter)).clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classical_year_by_mail() {
    let mut w = World::new("classical").await;
    let (created, sent) = support::start_game(&mut w, GM, "rome", "classical", &PLAYERS).await;
    assert!(
        created.contains("Game 'rome' (classical) created."),
        "{created}"
    );
    let start = find(&sent, who('A'), "Game Starting")[0];
    assert!(
        start.subject.starts_with("JUDGE:rome - S50M"),
        "{}",
        start.subject
    );
    assert!(
        start
            .body
            .contains("Game 'rome' has started: Spring 273 B.C., Movement."),
        "{}",
        start.body
    );
    assert!(
        start.body.contains("Macedon    (A) mac@example.org"),
        "{}",
        start.body
    );

    // Spring 273 B.C.: Rome marches north; the PHASE line may name the year B.C.
    let r = order(
        &mut w,
        'R',
        "PHASE Spring 273 B.C., Movement\nA Rom-Etr\nA Bru H\nF Cap H",
    )
    .await;
    assert!(r.body.contains(":: Deadline: S50M"), "{}", r.body);
    assert!(r.body.contains("  A Rom - Etr"), "{}", r.body);
    assert!(!r.subject.contains("[Error Flag]"), "{}", r.body);
    // A PHASE for a later phase keeps the orders for it, in the calendar's own codes.
    let r = order(&mut w, 'S', "PHASE F50M\nA Ant H").await;
    assert!(
        r.body.contains("Orders for F50M, kept until F50M comes"),
        "{}",
        r.body
    );
    for (letter, orders) in HOLDS {
        order(&mut w, letter, orders).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('R'), "S50M Results")[0];
    assert!(
        results
            .body
            .contains("Movement results for Spring of 273 B.C."),
        "{}",
        results.body
    );
    assert!(
        results.body.contains("Rome: Army Roma -> Etruria."),
        "{}",
        results.body
    );
    // Rule 5: "ROME (abbreviated "R"): Army Brundisium, Army Roma, Fleet Cumae"; rule 7:
    // "... and for Agrigentum as well"; rule 6: "Panormus, Carthage, or Leptis Magna". The
    // results use the rulebook's names (issue 15, point 19).
    assert!(
        results.body.contains("Rome: Fleet Cumae HOLD."),
        "{}",
        results.body
    );
    assert!(
        results.body.contains("Carthage: Fleet Carthage HOLD."),
        "{}",
        results.body
    );
    // One full stop after a year that ends in one: "273 B.C. (rome.001)", not "B.C..".
    assert!(
        results
            .body
            .contains("Movement results for Spring of 273 B.C. (rome.001)"),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("The next phase of 'rome' will be Movement for Fall of 273 B.C.\n"),
        "{}",
        results.body
    );
    assert!(!results.body.contains("B.C.."), "{}", results.body);

    // Fall 273 B.C.: Rome takes Cisalpina.
    order(&mut w, 'R', "A Etr-Cis\nA Bru H\nF Cap H").await;
    for (letter, orders) in HOLDS {
        order(&mut w, letter, orders).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('R'), "F50M Results")[0];
    assert!(
        results
            .body
            .contains("Movement results for Fall of 273 B.C."),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("Rome: 4 Supply centers, 3 Units: Builds 1 unit."),
        "{}",
        results.body
    );
    assert!(
        results.body.contains("Adjustment for Winter of 273 B.C."),
        "{}",
        results.body
    );

    // Winter 273 B.C.: Rome builds; then Spring 272 B.C.
    let r = order(&mut w, 'R', "Build A Rom").await;
    assert!(r.body.contains(":: Deadline: W50A"), "{}", r.body);
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('R'), "W50A Results")[0];
    assert!(
        results
            .body
            .contains("Adjustment results for Winter of 273 B.C."),
        "{}",
        results.body
    );
    assert!(
        results.body.contains("Rome: Builds an army in Roma."),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("The next phase of 'rome' will be Movement for Spring of 272 B.C."),
        "{}",
        results.body
    );
    let sent = w.mail("x@example.org", "l", "LIST rome\n").await;
    assert!(to(&sent, "x@example.org")
        .body
        .contains("Phase: Spring 272 B.C., Movement."));
}

/// A keeper's Classical that starts in Fall 1 B.C.: rule 3's years "before 1 A.D. count
/// backwards", so the year after 1 B.C. is 1 A.D. (there is no year 0). Results, replies and
/// PHASE lines show and read A.D. years with one full stop after them; phase codes keep the
/// judge year (1 A.D. is year 323, S323M) (issue 15, points 17 and 19).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classical_game_crosses_from_1_bc_to_1_ad_by_mail() {
    let mut w = World::new("classical-ad").await;
    let maps = w.dir.join("maps");
    std::fs::create_dir_all(&maps).unwrap();
    let late = include_str!("../variants/classical.variant.toml")
        .replace("name = \"classical\"", "name = \"late\"")
        .replace("Spring 273 B.C., Movement", "Fall 1 B.C., Movement");
    std::fs::write(maps.join("late.variant.toml"), late).unwrap();
    let mut config = Config::default();
    config.storage.database = w.dir.join("late.db");
    config.inbox.maildir = w.dir.join("inbox");
    config.outbox.maildir = w.dir.join("outbox");
    config.judge.address = "judge@herald.test".into();
    config.maps.dir = Some(maps);
    w.service = Service::open(config).await.unwrap();

    let (_, sent) = support::start_game(&mut w, GM, "rome", "late", &PLAYERS).await;
    let start = find(&sent, who('R'), "Game Starting")[0];
    assert!(
        start.subject.starts_with("JUDGE:rome - F322M"),
        "{}",
        start.subject
    );
    assert!(
        start
            .body
            .contains("Game 'rome' has started: Fall 1 B.C., Movement."),
        "{}",
        start.body
    );

    // Fall 1 B.C.: Carthage's fleet sails for Agrigentum (rule 7), everything else holds.
    order(&mut w, 'R', "A Rom H\nA Bru H\nF Cap H").await;
    for (letter, orders) in HOLDS {
        let orders = if letter == 'C' {
            "F Car H\nF Pan-Agr\nF Lep H"
        } else {
            orders
        };
        order(&mut w, letter, orders).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('R'), "F322M Results")[0];
    for line in [
        "Movement results for Fall of 1 B.C. (rome.001)",
        "Carthage: Fleet Panormus -> Agrigentum.",
        "Rome: Fleet Cumae HOLD.",
        // Nothing changed hands and no one has builds: Winter 1 B.C. is skipped.
        "The next phase of 'rome' will be Movement for Spring of 1 A.D.\n",
    ] {
        assert!(results.body.contains(line), "{line}\n{}", results.body);
    }
    assert!(!results.body.contains("B.C.."), "{}", results.body);
    assert!(!results.body.contains("0 B.C."), "{}", results.body);

    // Spring 1 A.D.: the PHASE line reads A.D.; the code is the judge year.
    let r = order(
        &mut w,
        'R',
        "PHASE Spring 1 A.D., Movement\nA Bru-Epi\nA Rom H\nF Cap H",
    )
    .await;
    assert!(r.body.contains(":: Deadline: S323M"), "{}", r.body);
    assert!(!r.subject.contains("[Error Flag]"), "{}", r.body);
    for (letter, orders) in HOLDS {
        let orders = if letter == 'C' {
            "F Car H\nF Agr H\nF Lep H"
        } else {
            orders
        };
        order(&mut w, letter, orders).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('R'), "S323M Results")[0];
    for line in [
        "Movement results for Spring of 1 A.D. (rome.002)",
        "Rome: Army Brundisium -> Epirus.",
        "The next phase of 'rome' will be Movement for Fall of 1 A.D.\n",
    ] {
        assert!(results.body.contains(line), "{line}\n{}", results.body);
    }
    assert!(!results.body.contains("A.D.."), "{}", results.body);
    let sent = w.mail("x@example.org", "l", "LIST rome\n").await;
    let list = &to(&sent, "x@example.org").body;
    assert!(list.contains("Phase: Fall 1 A.D., Movement."), "{list}");
}
