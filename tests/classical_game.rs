//! A Classical game played by mail for a full year: CREATE by mail, five players, Spring,
//! Fall and Winter 273 B.C., replies and results in B.C. years, phase codes counted from
//! Alexander (273 B.C. is year 50), and a PHASE line in either form.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

use chrono::Duration;
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
    // A PHASE for another phase makes the orders an error.
    let r = order(&mut w, 'S', "PHASE F50M\nA Ant H").await;
    assert!(
        r.body
            .contains("these orders are for F50M, but the game is at S50M"),
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
    assert!(
        results
            .body
            .contains("The next phase of 'rome' will be Movement for Fall of 273 B.C."),
        "{}",
        results.body
    );

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
