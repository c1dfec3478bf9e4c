//! A Portage game by mail through one year: CREATE by mail, a fleet carried over Kiel in
//! the Fall with its order echoed in canonical form, and the Winter builds.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{find, World, SEVEN};

const GM: &str = "gm@example.org";
const PLAYERS: [(&str, char); 7] = SEVEN;

fn holds(letter: char) -> &'static str {
    match letter {
        'E' => "F Lon H\nF Edi H\nA Lvp H",
        'F' => "F Bre H\nA Par H\nA Mar H",
        'I' => "F Nap H\nA Rom H\nA Ven H",
        'A' => "A Vie H\nA Bud H\nF Tri H",
        'R' => "A Mos H\nA War H\nF Sev H\nF Stp/sc H",
        'T' => "F Ank H\nA Con H\nA Smy H",
        _ => unreachable!(),
    }
}

async fn order(w: &mut World, addr: &str, letter: char, orders: &str) -> String {
    support::order(w, "port", addr, letter, orders).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portage_year_by_mail() {
    let mut w = World::new("portage").await;
    let (created, _) = support::start_game(&mut w, GM, "port", "portage", &PLAYERS).await;
    assert!(
        created.contains("Game 'port' (portage) created."),
        "{created}"
    );
    let german = PLAYERS[2].0;

    // Spring 1901: the German fleet goes to sea, an army to Kiel.
    order(&mut w, german, 'G', "F Kie-Bal\nA Ber-Kie\nA Mun-Ruh").await;
    for (addr, letter) in PLAYERS.iter().filter(|(_, l)| *l != 'G') {
        order(&mut w, addr, *letter, holds(*letter)).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, german, "S1901M Results")[0];
    assert!(
        results.body.contains("Germany: Fleet Kiel -> Baltic Sea."),
        "{}",
        results.body
    );

    // Fall 1901: the army in Kiel carries the fleet from the Baltic to Helgoland.
    let reply = order(
        &mut w,
        german,
        'G',
        "F Bal-Kie-Hel\nA Kie portages F Bal-Hel\nA Ruh-Bel",
    )
    .await;
    assert!(reply.contains("  F Bal - Kie - Hel\n"), "{reply}");
    assert!(reply.contains("  A Kie P F Bal - Hel\n"), "{reply}");
    for (addr, letter) in PLAYERS.iter().filter(|(_, l)| *l != 'G') {
        order(&mut w, addr, *letter, holds(*letter)).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, german, "F1901M Results")[0];
    assert!(
        results
            .body
            .contains("Germany: Fleet Baltic Sea -> Helgoland Bight."),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("Germany: Army Kiel PORTAGE Fleet Baltic Sea -> Helgoland Bight."),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("Germany: 4 Supply centers, 3 Units: Builds 1 unit."),
        "{}",
        results.body
    );

    // Winter 1901.
    order(&mut w, german, 'G', "Build A Ber").await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, german, "W1901A Results")[0];
    assert!(
        results.body.contains("Germany: Builds an army in Berlin."),
        "{}",
        results.body
    );
    assert!(
        results.body.contains("Movement for Spring of 1902"),
        "{}",
        results.body
    );
}
