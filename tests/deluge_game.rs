//! A Deluge II game by mail from Winter 1900 through Winter 1901: CREATE by mail, the first
//! builds with unit choice, a conversion, an army that embarks, sails and lands in one move,
//! and the first floods (an army drowns, London's centre is destroyed, Wales becomes a centre).

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{find, World, SEVEN};

const GM: &str = "gm@example.org";
const PLAYERS: [(&str, char); 7] = SEVEN;

fn builds(letter: char) -> &'static str {
    match letter {
        'E' => "Build F Lon\nBuild F Edi\nBuild A Lvp",
        'F' => "Build F Bre\nBuild A Par\nBuild A Mar",
        'G' => "Build A Kie\nBuild A Ber\nBuild A Mun",
        'I' => "Build F Nap\nBuild A Rom\nBuild A Ven",
        'A' => "Build A Vie\nBuild A Bud\nBuild F Tri",
        'R' => "Build A Mos\nBuild A War\nBuild F Sev\nBuild F Stp/nc",
        'T' => "Build F Ank\nBuild A Con\nBuild A Smy",
        _ => unreachable!(),
    }
}

fn holds(letter: char) -> &'static str {
    match letter {
        'F' => "F Bre H\nA Par H\nA Mar H",
        'I' => "F Nap H\nA Rom H\nA Ven H",
        'A' => "A Vie H\nA Bud H\nF Tri H",
        'R' => "A Mos H\nA War H\nF Sev H\nF Stp/nc H",
        'T' => "F Ank H\nA Con H\nA Smy H",
        _ => unreachable!(),
    }
}

async fn order(w: &mut World, addr: &str, letter: char, orders: &str) -> String {
    support::order(w, "del", addr, letter, orders).await
}

async fn others_hold(w: &mut World) {
    for (addr, letter) in PLAYERS.iter().filter(|(_, l)| !matches!(l, 'E' | 'G')) {
        order(w, addr, *letter, holds(*letter)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deluge_year_by_mail() {
    let mut w = World::new("deluge").await;
    let (created, _) = support::start_game(&mut w, GM, "del", "deluge", &PLAYERS).await;
    assert!(
        created.contains("Game 'del' (deluge) created."),
        "{created}"
    );
    let (england, german) = (PLAYERS[0].0, PLAYERS[2].0);

    // Winter 1900: every power builds in its home centres, army or fleet as it chooses.
    let reply = order(&mut w, england, 'E', builds('E')).await;
    assert!(reply.contains("  Build F Lon\n"), "{reply}");
    let reply = order(&mut w, england, 'E', "Build A Lon").await;
    assert!(
        reply.contains("  Build A Lon\n") && !reply.contains("  Build F Lon\n"),
        "a later build for London replaces the earlier one: {reply}"
    );
    order(&mut w, england, 'E', "Build F Lon").await;
    for (addr, letter) in PLAYERS.iter().filter(|(_, l)| *l != 'E') {
        order(&mut w, addr, *letter, builds(*letter)).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, england, "W1900A Results")[0];
    for line in [
        "England: Builds a fleet in London.",
        "England: Builds an army in Liverpool.",
        "Russia: Builds a fleet in St Petersburg (nc).",
        "Movement for Spring of 1901",
    ] {
        assert!(results.body.contains(line), "{line}:\n{}", results.body);
    }

    // Spring 1901: the English fleet goes to the Channel, the army to Wales; the army in
    // Kiel turns into a fleet.
    order(&mut w, england, 'E', "F Lon-Eng\nA Lvp-Wal\nF Edi H").await;
    let reply = order(&mut w, german, 'G', "A Kie converts\nA Ber H\nA Mun H").await;
    assert!(reply.contains("  A Kie converts\n"), "{reply}");
    let reply = order(&mut w, german, 'G', "A Mun converts").await;
    assert!(
        reply.contains("*** A Mun cannot convert: a fleet cannot stand in Mun, which is inland"),
        "{reply}"
    );
    order(&mut w, german, 'G', "A Mun H").await;
    others_hold(&mut w).await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, german, "S1901M Results")[0];
    assert!(
        results
            .body
            .contains("Germany: Army Kiel CONVERTS to a fleet on Kiel."),
        "{}",
        results.body
    );

    // Fall 1901: the army in Wales boards the fleet, the army-fleet sails to the
    // Mid-Atlantic, and the army lands in Portugal, all in one move.
    let reply = order(
        &mut w,
        england,
        'E',
        "A Wal E F Eng\nA/F Eng - Mao\nA Mao D Por\nF Edi H",
    )
    .await;
    for line in ["  A Wal E F Eng\n", "  A/F Eng - Mao\n", "  A Mao D Por\n"] {
        assert!(reply.contains(line), "{line}: {reply}");
    }
    // Issue 37: the army that lands from the Mid-Atlantic is the one aboard the fleet that
    // sails there ("A(Lon) E F(ENG); A/F(ENG) - MAO; A(MAO) D Por", rule 3's first
    // example): no unit of England's stays in the Mid-Atlantic, so nothing is warned of.
    assert!(!reply.contains("cannot dislodge its own unit"), "{reply}");
    order(&mut w, german, 'G', "F Kie H\nA Ber H\nA Mun H").await;
    others_hold(&mut w).await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, england, "F1901M Results")[0];
    for line in [
        "England: Army Wales EMBARKS on Fleet English Channel.",
        "England: Fleet English Channel -> Mid-Atlantic Ocean.",
        "England: Army Mid-Atlantic Ocean DISEMBARKS -> Portugal.",
        "England: 4 Supply centers, 3 Units: Builds 1 unit.",
    ] {
        assert!(results.body.contains(line), "{line}:\n{}", results.body);
    }

    // Winter 1901: England builds in London, which then goes under water.
    order(&mut w, england, 'E', "Build A Lon").await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, england, "W1901A Results")[0];
    for line in [
        "England: Builds an army in London.",
        "The waters rise: Belgium, Gascony, Holland, London, Livonia, Venice are now sea.",
        "The English army in London drowns.",
        "The supply center of London is destroyed (England loses it).",
        "Wales becomes a supply center, controlled by England (the last to have had a unit there).",
        "Iceland can be entered from now on.",
        "Movement for Spring of 1902",
    ] {
        assert!(results.body.contains(line), "{line}:\n{}", results.body);
    }
    assert!(
        !results.body.contains("Builds 1 unit"),
        "no build count after the adjustments: {}",
        results.body
    );
    for line in [
        "Tyrolia becomes a supply center, controlled by Austria (it lies in its home country).",
        "Ruhr becomes a supply center, controlled by Germany (it lies in its home country).",
        "The supply center of Holland is destroyed.",
    ] {
        assert!(results.body.contains(line), "{line}:\n{}", results.body);
    }
    assert!(
        results.body.contains("Italian army in Venice drowns"),
        "{}",
        results.body
    );

    // LIST shows the board in words: units, what is under water, the new centres.
    let sent = w.mail(england, "list", "LIST del\n").await;
    let list = &support::to(&sent, england).body;
    for line in [
        "  England: Army Portugal, Fleet Edinburgh, Fleet Mid-Atlantic Ocean.",
        "  Germany: Army Berlin, Army Munich, Fleet Kiel.",
        "Under water: Belgium, Gascony, Holland, London, Livonia, Venice.",
        "New supply centres: Ruhr (Germany), Tyrolia (Austria), Wales (England).",
    ] {
        assert!(list.contains(line), "{line}:\n{list}");
    }

    // Spring 1902: the army in Portugal boards the fleet in the Mid-Atlantic.
    order(&mut w, england, 'E', "A Por E F Mao\nF Mao H\nF Edi H").await;
    hold_1902(&mut w).await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, england, "S1902M Results")[0];
    assert!(
        results
            .body
            .contains("England: Army Portugal EMBARKS on Fleet Mid-Atlantic Ocean."),
        "{}",
        results.body
    );

    // Fall 1902: the army-fleet lands its army in Spain. Issue 37: one unit, one name. Its
    // army and its fleet are ordered apart, as rule 3 writes it ("A/F(ENG); A(ENG) D Bre;
    // F(ENG) - NTH"): the fleet's line names the fleet, not the army-fleet beside its army's
    // landing.
    order(&mut w, england, 'E', "A Mao D Spa\nF Edi H").await;
    hold_1902(&mut w).await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, england, "F1902M Results")[0];
    for line in [
        "England: Army Mid-Atlantic Ocean DISEMBARKS -> Spain.",
        "England: Fleet Mid-Atlantic Ocean HOLD.",
    ] {
        assert!(results.body.contains(line), "{line}:\n{}", results.body);
    }
    assert!(
        !results.body.contains("Army-fleet Mid-Atlantic Ocean"),
        "{}",
        results.body
    );
}

/// Every power but England holds in 1902 (Italy's army in Venice drowned in Winter 1901).
async fn hold_1902(w: &mut World) {
    order(w, PLAYERS[2].0, 'G', "F Kie H\nA Ber H\nA Mun H").await;
    for (addr, letter) in PLAYERS.iter().filter(|(_, l)| !matches!(l, 'E' | 'G')) {
        let orders = if *letter == 'I' {
            "F Nap H\nA Rom H"
        } else {
            holds(*letter)
        };
        order(w, addr, *letter, orders).await;
    }
}
