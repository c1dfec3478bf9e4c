//! Tests of the parent module.

use crate::judge::game::Status;
use crate::judge::testkit::{mail, start, started_as, GM, SEVEN};

/// Issue 25, point 13: "Results show `Italy: Army Venice HOLD.` for a unit that held for
/// want of orders; mark defaulted units (no orders, civil disorder) in the results, as
/// the old judges do." njudge writes ", No Order Processed" after such a unit.
#[test]
fn units_without_orders_are_marked_in_the_results() {
    let j = crate::judge::testkit::judge();
    let mut games = crate::judge::testkit::started(&j);
    let f = "SIGNON Fg pwF\nA Par H\nA Mar - Spa";
    mail(&j, &mut games, "bob@example.org", f, start());
    let h = mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS!", start());
    let results = h
        .effects
        .mails
        .iter()
        .find(|m| m.to == GM && m.body.contains("results for Spring of 1901"))
        .map(|m| m.body.clone())
        .unwrap_or_default();
    for line in [
        "France: Army Paris HOLD.\n",
        "France: Army Marseilles -> Spain.\n",
        "France: Fleet Brest, No Order Processed.\n",
        "Italy: Army Venice, No Order Processed.\n",
        "Russia: Fleet St Petersburg (sc), No Order Processed.\n",
    ] {
        assert!(results.contains(line), "{line}{results}");
    }
}

/// Issue 25, point 6: "When Winter 1901 has no adjustments and is skipped, the Fall 1901
/// results announce builds ("England … Builds 1 unit") that never come." Deluge: every
/// power holds through 1901, so nobody has an adjustment and Winter 1901 is skipped; its
/// floods still come ("Submergences occur every year after any adjustments in Winter",
/// rule 3; new centres "after all Winter retreats and adjustments", rule 5), giving
/// Germany the Ruhr. The Fall results announce no build: the next phase is Spring 1902.
#[test]
fn a_skipped_winter_announces_no_builds() {
    let j = crate::judge::testkit::judge();
    let seven: Vec<(String, char)> = SEVEN.iter().map(|&(a, l)| (a.to_string(), l)).collect();
    let mut games = started_as(&j, "d gmpass deluge", &seven);
    let mut fall = String::new();
    for _ in 0..3 {
        let h = mail(&j, &mut games, GM, "SIGNON Md gmpass\nPROCESS!", start());
        if let Some(m) = h
            .effects
            .mails
            .iter()
            .find(|m| m.to == GM && m.body.contains("results for Fall of 1901"))
        {
            fall = m.body.clone();
        }
    }
    let g = &games["d"];
    assert_eq!(g.status, Status::Running);
    assert!(fall.contains("Ruhr becomes a supply center"), "{fall}");
    assert!(
        fall.contains("Germany: 4 Supply centers, 3 Units."),
        "{fall}"
    );
    assert!(!fall.contains("Builds"), "{fall}");
    assert!(
        fall.contains("Nobody had builds or removals, so there is no adjustment phase this year."),
        "{fall}"
    );
    assert!(fall.contains("Movement for Spring of 1902"), "{fall}");
}

/// Issue 37: "A portage order that carries nothing (the army's destination is not the
/// fleet's, or the route crosses an empty province) is accepted as 'orders complete' with
/// no warning, and the results print it as a portage that happened, where an unmatched
/// support gets `(*void*)`." Portage rule 1: "The orders must specify the same destination
/// or the fleet may not move."
#[test]
fn a_portage_that_carries_nothing_is_warned_of_and_void() {
    use crate::game::ids::UnitKind;
    use crate::game::position::Unit;
    let j = crate::judge::testkit::judge();
    let seven: Vec<(String, char)> = SEVEN.iter().map(|&(a, l)| (a.to_string(), l)).collect();
    let mut games = started_as(&j, "p gmpass portage", &seven);
    let map = j.map_of(&games["p"]).clone();
    let italy = map
        .power_ids()
        .find(|&p| map.power(p).name == "Italy")
        .unwrap();
    for (abbr, kind) in [("Ion", UnitKind::Fleet), ("Tun", UnitKind::Army)] {
        let p = map.province_ids().find(|&p| map.abbr(p) == abbr).unwrap();
        let pos = games.get_mut("p").unwrap().position.as_mut().unwrap();
        pos.units[p.index()] = Some(Unit {
            power: italy,
            kind,
            region: map.province(p).main,
        });
    }
    let dan = "dan@example.org";
    let rest = "F Nap H\nA Rom H\nA Ven H";
    // The fleet is not ordered where the army portages it.
    let h = mail(
        &j,
        &mut games,
        dan,
        &format!("SIGNON Ip pwI\nF Ion H\nA Tun P F Ion-Tys\n{rest}"),
        start(),
    );
    let text = &crate::judge::testkit::reply(&h, dan).body;
    assert!(
        text.contains("  A Tun portages F Ion to Tys, but F Ion is not ordered there: the portage carries nothing.\n"),
        "{text}"
    );
    // The fleet's route crosses North Africa, where no army stands.
    let h = mail(
        &j,
        &mut games,
        dan,
        &format!("SIGNON Ip pwI\nF Ion-Tun-Naf-Wes\nA Tun P F Ion-Wes\n{rest}"),
        start(),
    );
    let text = &crate::judge::testkit::reply(&h, dan).body;
    assert!(
        text.contains("  A Tun portages F Ion to Wes, but F Ion's route crosses Naf, where no army of yours portages it: the portage carries nothing.\n"),
        "{text}"
    );
    let h = mail(&j, &mut games, GM, "SIGNON Mp gmpass\nPROCESS!", start());
    let results = h
        .effects
        .mails
        .iter()
        .find(|m| m.to == GM && m.body.contains("results for Spring of 1901"))
        .map(|m| m.body.clone())
        .unwrap_or_default();
    assert!(
        results.contains(
            "Italy: Army Tunis PORTAGE Fleet Ionian Sea -> Western Mediterranean.  (*void*"
        ),
        "{results}"
    );
}
