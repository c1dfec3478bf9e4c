//! Results that explain themselves, by mail (issue 17): a standard game's first year played
//! by mail, its results read as the players get them. Each failed order carries its reason
//! after njudge's mark (a bounce with the unit it met and the strengths, a cut support with
//! its attacker, a void support, a dislodged unit with its attacker and its retreats, a
//! convoy broken by its fleet's fall), each power's centres gained and lost are summed up,
//! a player's results show dates in that player's zone, and an order replaced in the same
//! mail is marked where it was echoed.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{find, order, start_game, World, SEVEN};

const GM: &str = "gm@example.org";

/// Each power's orders, by letter.
async fn everyone(w: &mut World, orders: &[(char, &str)]) -> String {
    let mut english = String::new();
    for (addr, letter) in SEVEN {
        let mine = orders.iter().find(|(l, _)| *l == letter).unwrap().1;
        let reply = order(w, "why", addr, letter, mine).await;
        assert!(!reply.contains("***"), "{reply}");
        if letter == 'E' {
            english = reply;
        }
    }
    english
}

/// The line of a results mail that starts with `start`.
fn line<'a>(body: &'a str, start: &str) -> &'a str {
    body.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line '{start}' in:\n{body}"))
}

#[tokio::test]
async fn results_say_why_each_order_failed() {
    let mut w = World::new("reasons-mail").await;
    start_game(&mut w, GM, "why", "standard", &SEVEN).await;
    // Ann reads her mail in Paris (SET MYZONE), the others in the game's zone (UTC).
    w.mail(
        "ann@example.org",
        "zone",
        "SIGNON Ewhy pwE\nSET MYZONE Europe/Paris\n",
    )
    .await;

    // Spring 1901.
    let english = everyone(
        &mut w,
        &[
            ('E', "F Lon-Nth\nF Edi-Nwg\nA Lvp-Wal\nA Lvp-Yor"),
            ('F', "F Bre-Eng\nA Par-Bur\nA Mar S A Par-Bur"),
            ('G', "F Kie-Hel\nA Mun-Bur\nA Ber-Kie"),
            ('I', "A Ven-Tri\nA Rom H\nF Nap H"),
            ('A', "F Tri H\nA Vie S F Tri\nA Bud S A Vie-Gal"),
            ('R', "A War-Gal\nF Sev H\nA Mos H\nF Stp/sc H"),
            ('T', "F Ank-Bla\nA Con H\nA Smy H"),
        ],
    )
    .await;
    // The first order for Liverpool was replaced by the second in the same mail.
    assert!(
        english
            .contains("  A Lvp - Wal  (replaced by a later order in this mail)\n  A Lvp - Yor\n"),
        "{english}"
    );
    let sent = w.wait(Duration::minutes(31)).await;
    let bob = find(&sent, "bob@example.org", "S1901M Results")[0];
    let ann = find(&sent, "ann@example.org", "S1901M Results")[0];
    // "A Mun - Bur (*bounce*: against A Par - Bur, 1 to 2)": Paris is supported from
    // Marseilles, so it beats Munich 2 to 1 (rules: the stronger move wins).
    assert!(
        line(&bob.body, "Germany: Army Munich -> Burgundy.")
            .ends_with("(*bounce*: against A Par - Bur, 1 to 2)"),
        "{}",
        bob.body
    );
    // Venice attacks Trieste, which holds with the support of Vienna: 1 to 2.
    assert!(
        line(&bob.body, "Italy: Army Venice -> Trieste.")
            .ends_with("(*bounce*: against F Tri, 1 to 2)"),
        "{}",
        bob.body
    );
    // Budapest supports Vienna to Galicia, but Vienna is ordered to support: void.
    assert!(
        line(
            &bob.body,
            "Austria: Army Budapest SUPPORT Army Vienna -> Galicia."
        )
        .contains("(*void*: "),
        "{}",
        bob.body
    );
    // The same results, with the next deadline in each reader's zone.
    assert!(ann.body.contains(" CET"), "{}", ann.body);
    assert!(
        !bob.body.contains(" CET") && bob.body.contains(" UTC"),
        "{}",
        bob.body
    );

    // Fall 1901.
    everyone(
        &mut w,
        &[
            ('E', "F Nth C A Yor-Nwy\nA Yor-Nwy\nF Nwg H"),
            ('F', "F Eng S F Hel-Nth\nA Bur H\nA Mar H"),
            ('G', "F Hel-Nth\nA Kie-Den\nA Mun H"),
            ('I', "A Ven H\nA Rom H\nF Nap H"),
            ('A', "F Tri H\nA Vie H\nA Bud H"),
            ('R', "A Gal-Rum\nF Sev S A Gal-Rum\nA Mos-Ukr\nF Stp/sc H"),
            ('T', "F Bla-Sev\nA Con H\nA Smy H"),
        ],
    )
    .await;
    let sent = w.wait(Duration::minutes(31)).await;
    let fall = &find(&sent, "bob@example.org", "F1901M Results")[0].body;
    // "F Nth (*dislodged*: by F Hel - Nth, 2 to 1; retreat to ...)": the German fleet,
    // supported from the Channel, beats the convoying fleet, which may retreat.
    let nth = line(fall, "England: Fleet North Sea CONVOY");
    assert!(
        nth.contains("(*dislodged*: by F Hel - Nth, 2 to 1; retreat to "),
        "{fall}"
    );
    // "A Lon - Nwy (*no convoy*: F Nth dislodged)".
    assert!(
        line(fall, "England: Army Yorkshire -> Norway.")
            .ends_with("(*no convoy*: F Nth dislodged)"),
        "{fall}"
    );
    // "A Mun S A Par - Bur (*cut*: attacked by A Boh)": the Black Sea fleet attacks
    // Sevastopol, cutting its support, and bounces.
    assert!(
        line(fall, "Russia: Fleet Sevastopol SUPPORT")
            .ends_with("(*cut*: attacked by F Bla - Sev)"),
        "{fall}"
    );
    assert!(
        line(fall, "Turkey: Fleet Black Sea -> Sevastopol.")
            .ends_with("(*bounce*: against F Sev, 1 to 1)"),
        "{fall}"
    );

    // England retreats; the year's centres are then counted, and each power's gains and
    // losses summed up on a line of its own.
    let sent = w
        .mail("ann@example.org", "r", "SIGNON Ewhy pwE\nF Nth-Edi\n")
        .await;
    let mut all = sent;
    all.extend(w.wait(Duration::minutes(31)).await);
    let counted = all
        .iter()
        .filter(|m| m.to == "bob@example.org" && m.subject.contains("Results"))
        .chain(find(&all, "bob@example.org", "Results"))
        .map(|m| m.body.clone())
        .chain(std::iter::once(fall.clone()))
        .find(|b| b.contains("Supply centers gained and lost:"))
        .unwrap_or_else(|| panic!("no summary of gains in the Fall or its retreats: {fall}"));
    assert!(
        counted.contains("Germany: gains Denmark (4 supply centers)."),
        "{counted}"
    );
    assert!(
        counted.contains("Russia: gains Rumania (5 supply centers)."),
        "{counted}"
    );
    assert!(!counted.contains("England: gains"), "{counted}");
}

#[tokio::test]
async fn a_portage_without_its_army_says_so() {
    // Portage, rule 1: "the fleet must be ordered to the intended body of water and the
    // army must be ordered to portage it. ... The orders must specify the same destination
    // or the fleet may not move."
    let mut w = World::new("reasons-portage").await;
    start_game(&mut w, GM, "why", "portage", &SEVEN).await;
    let others = [
        ('E', "F Lon H\nF Edi H\nA Lvp H"),
        ('F', "F Bre H\nA Par H\nA Mar H"),
        ('I', "F Nap H\nA Rom H\nA Ven H"),
        ('A', "A Vie H\nA Bud H\nF Tri H"),
        ('R', "A Mos H\nA War H\nF Sev H\nF Stp/sc H"),
        ('T', "F Ank H\nA Con H\nA Smy H"),
    ];
    let mut spring = others.to_vec();
    spring.push(('G', "F Kie-Bal\nA Ber-Kie\nA Mun H"));
    everyone(&mut w, &spring).await;
    w.wait(Duration::minutes(31)).await;
    // Fall: the fleet is ordered over Kiel, but the army in Kiel only holds.
    let mut fall = others.to_vec();
    fall.push(('G', "F Bal-Kie-Hel\nA Kie H\nA Mun H"));
    everyone(&mut w, &fall).await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = &find(&sent, "bob@example.org", "F1901M Results")[0].body;
    assert!(
        line(results, "Germany: Fleet Baltic Sea -> ")
            .contains("(*portage disrupted*: no army portaged it all the way)"),
        "{results}"
    );
}
