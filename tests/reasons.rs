//! Results that explain themselves (issue 17, point 1): every case of `tests/cases/` is
//! played and its results rendered with reasons; every order that failed carries a reason,
//! and the reason names the unit that decided it (the unit it bounced against, the one that
//! cut a support, the fleet whose fall broke a convoy, the attacker that dislodged a unit)
//! with the strengths compared.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use herald::cases::{parse_cases, prepare};
use herald::catalog::Catalog;
use herald::game::resolve::{Backup, Outcome};
use herald::game::turn::{play_with, Report};
use herald::judge::reasons::notes;

#[test]
fn every_failed_order_of_every_case_says_why() {
    let catalog = Catalog::builtin();
    let (mut failed_orders, mut cases_played) = (0, 0);
    let (mut szykman, mut circular) = (0, 0);
    let mut dir: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    dir.sort();
    for path in dir {
        let text = std::fs::read_to_string(&path).unwrap();
        for case in parse_cases(&text).unwrap() {
            let Ok(prepared) = prepare(&catalog, &case) else {
                continue;
            };
            let v = prepared.variant;
            let map = v.map_at(prepared.position.phase);
            let t = play_with(
                v,
                &prepared.rules,
                map,
                &prepared.position,
                &prepared.orders,
            );
            let Report::Movement { orders, result, .. } = &t.report else {
                continue;
            };
            cases_played += 1;
            for (i, o) in orders.iter().enumerate() {
                let said = notes(map, orders, result, &t.position, i).join("  ");
                let here = format!(
                    "{} ({}): {} {}",
                    case.name,
                    path.display(),
                    map.abbr(o.at),
                    said
                );
                let names = |p: herald::game::ids::ProvinceId| said.contains(map.abbr(p));
                match result.outcome(i) {
                    Outcome::Bounced(c) => {
                        failed_orders += 1;
                        assert!(said.starts_with("(*bounce*: "), "{here}");
                        if let Some(by) = c.by {
                            assert!(names(by), "{here}");
                            assert!(
                                said.contains(&format!("{} to {}", c.attack, c.against))
                                    || c.attack == 0,
                                "{here}"
                            );
                        }
                    }
                    Outcome::Cut(by) => {
                        failed_orders += 1;
                        assert!(said.starts_with("(*cut*"), "{here}");
                        let by = by.unwrap_or_else(|| panic!("a cut without its cutter: {here}"));
                        assert!(names(by), "{here}");
                    }
                    Outcome::NoConvoy(f) | Outcome::NoPortage(f) => {
                        failed_orders += 1;
                        assert!(said.contains("*: "), "{here}");
                        // The fleet whose fall broke it, unless a paradox decided first.
                        if let Some(f) = f {
                            assert!(names(f) || said.contains("Szykman rule"), "{here}");
                        }
                    }
                    Outcome::SupportVoid
                    | Outcome::Disrupted
                    | Outcome::NotEmbarked
                    | Outcome::StayedAboard
                    | Outcome::NoShip
                    | Outcome::Aboard
                    | Outcome::NotConverted => {
                        failed_orders += 1;
                        assert!(said.contains("*: "), "{here}");
                    }
                    _ => {}
                }
                // Where the backup rule decided, the reason names it.
                match result.orders[i].decided_by {
                    Some(Backup::Szykman) => {
                        szykman += 1;
                        assert!(said.contains("by the Szykman rule"), "{here}");
                    }
                    Some(Backup::Circular) => {
                        circular += 1;
                        assert!(said.contains("(circular movement"), "{here}");
                    }
                    Some(Backup::PortageRule4) => {
                        assert!(said.contains("(portage rule 4"), "{here}")
                    }
                    None => {}
                }
                if let Some(c) = result.orders[i].dislodged {
                    assert!(said.contains("(*dislodged*: by "), "{here}");
                    assert!(names(c.by.unwrap()), "{here}");
                }
            }
        }
    }
    assert!(cases_played > 300, "{cases_played}");
    assert!(szykman >= 5 && circular >= 5, "{szykman} {circular}");
    assert!(failed_orders > 300, "{failed_orders}");
}

#[test]
fn a_bounce_a_cut_and_a_dislodgement_read_as_the_issue_shows() {
    let text = "VARIANT_ALL standard\nCASE reasons\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\
        France: A par\nFrance: A mar\nFrance: A bel\nGermany: A mun\nGermany: A ruh\nAustria: A boh\n\
        England: F nth\nFrance: F eng\nFrance: F hel\n\
        ORDERS\nFrance: A par-bur\nFrance: A mar S A par-bur\nFrance: A bel-ruh\n\
        Germany: A mun-bur\nGermany: A ruh S A mun-bur\nAustria: A boh-mun\n\
        France: F eng-nth\nFrance: F hel S F eng-nth\nEngland: F nth H\nEND\n";
    let case = &parse_cases(text).unwrap()[0];
    let catalog = Catalog::builtin();
    let p = prepare(&catalog, case).unwrap();
    let map = p.variant.map_at(p.position.phase);
    let t = play_with(p.variant, &p.rules, map, &p.position, &p.orders);
    let Report::Movement { orders, result, .. } = &t.report else {
        unreachable!()
    };
    let said = |abbr: &str| {
        let i = orders.iter().position(|o| map.abbr(o.at) == abbr).unwrap();
        notes(map, orders, result, &t.position, i).join("  ")
    };
    // Belgium's attack cuts Ruhr's support, so Paris (supported from Marseilles) beats
    // Munich 2 to 1; Bohemia then meets the army that stayed in Munich.
    assert_eq!(said("Par"), "");
    assert_eq!(said("Mun"), "(*bounce*: against A Par - Bur, 1 to 2)");
    assert_eq!(said("Ruh"), "(*cut*: attacked by A Bel - Ruh)");
    assert_eq!(said("Bel"), "(*bounce*: against A Ruh, 1 to 1)");
    assert_eq!(said("Boh"), "(*bounce*: against A Mun - Bur, 1 to 1)");
    // The English fleet, attacked 2 to 1, is dislodged and told where it may go.
    let nth = said("Nth");
    assert!(
        nth.starts_with("(*dislodged*: by F Eng - Nth, 2 to 1; retreat to "),
        "{nth}"
    );
    assert!(
        nth.contains("Edi") && !nth.contains("Eng,") && !nth.contains("Hel"),
        "{nth}"
    );
}

/// Plays one case of a case file and returns each order's reasons by the province it is in.
fn reasons_of(file: &str, name: &str) -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(format!("{}/tests/cases/{file}", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    let cases = parse_cases(&text).unwrap();
    let case = cases.iter().find(|c| c.name == name).unwrap();
    let catalog = Catalog::builtin();
    let p = prepare(&catalog, case).unwrap();
    let map = p.variant.map_at(p.position.phase);
    let t = play_with(p.variant, &p.rules, map, &p.position, &p.orders);
    let Report::Movement { orders, result, .. } = &t.report else {
        unreachable!()
    };
    (0..orders.len())
        .map(|i| {
            (
                map.abbr(orders[i].at).to_string(),
                notes(map, orders, result, &t.position, i).join("  "),
            )
        })
        .collect()
}

#[test]
fn circular_movement_and_the_szykman_rule_are_named_where_they_decide() {
    // DATC 6.C.1: "Three units can change place, even in spring 1901": A Ank - Con,
    // A Con - Smy, A Smy - Ank all move, because the moves form a ring.
    let ring = reasons_of("datc_6c.txt", "6.C.1");
    assert_eq!(ring.len(), 3);
    for (at, said) in &ring {
        assert!(said.starts_with("(circular movement"), "{at}: {said}");
    }
    // DATC 6.F.14 (simple convoy paradox): "The most common paradox is when the attacked
    // unit supports an attack on one of the convoying fleets." By the Szykman rule the
    // convoy fleet is treated as holding and the convoyed army does not move.
    let paradox = reasons_of("datc_6f.txt", "6.F.14");
    let said = |at: &str| {
        paradox
            .iter()
            .find(|(a, _)| a == at)
            .map(|(_, s)| s.clone())
            .unwrap()
    };
    assert!(
        said("Bre").starts_with("(*no convoy*: convoy paradox; by the Szykman rule"),
        "{paradox:?}"
    );
    assert!(
        said("Eng").starts_with("(*disrupted*: convoy paradox; by the Szykman rule"),
        "{paradox:?}"
    );
}
