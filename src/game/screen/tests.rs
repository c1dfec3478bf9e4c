//! Screening against the board.

use super::*;
use crate::game::order::parse_order;
use crate::game::variant::Variant;

fn screen(texts: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let v = Variant::standard();
    let map = &v.map;
    let pos = Position::initial(map, v.calendar.start);
    let orders: Vec<(PowerId, Order)> = texts
        .iter()
        .map(|(power, text)| {
            (
                map.power_by_word(power).unwrap(),
                parse_order(map, text).unwrap(),
            )
        })
        .collect();
    let (ordered, rejected) = screen_movement(map, &v.rules, &pos, &orders);
    let commands = ordered
        .iter()
        .filter(|o| o.command != Command::Hold)
        .map(|o| format!("{} {:?}", map.abbr(o.at), o.command))
        .collect();
    (
        commands,
        rejected
            .into_iter()
            .map(|r| format!("{}: {}", r.order, r.why))
            .collect(),
    )
}

#[test]
fn the_last_order_for_a_unit_wins() {
    let (commands, rejected) = screen(&[("France", "A Par-Bur"), ("France", "A Par-Pic")]);
    assert!(rejected.is_empty());
    assert_eq!(commands.len(), 1);
    assert!(commands[0].starts_with("Par Move"), "{commands:?}");
}

#[test]
fn illegal_orders_are_refused_with_the_reason() {
    let (_, rejected) = screen(&[
        ("Germany", "F Kie-Mun"),
        ("Germany", "A Mun-Par"),
        ("France", "A Mun-Ruh"),
        ("France", "A Pic-Bel"),
        ("England", "Build F Lon"),
        ("England", "A Lvp-Iri"),
        ("Italy", "A Ven S A Ven"),
        ("Russia", "F Sev C A Mos-Ank"),
        ("Turkey", "F Ank-Bul"),
    ]);
    assert_eq!(
        rejected,
        [
            "F Kie - Mun: a fleet cannot move to Mun, which is inland",
            "A Mun - Par: Par is not next to Mun",
            "A Mun - Ruh: the unit in Mun is not yours",
            "A Pic - Bel: there is no unit in Pic",
            "Build F Lon: builds, removals and waives are for adjustment phases",
            "A Lvp - Iri: an army cannot move to Iri, which is water",
            "A Ven S A Ven: a unit cannot support itself",
            "F Sev C A Mos - Ank: a fleet in Sev cannot convoy: only fleets at sea do",
            "F Ank - Bul: F Ank cannot reach Bul",
        ]
    );
}

#[test]
fn a_wrong_unit_kind_is_ignored_and_the_unit_moves() {
    // DATC 4.C.2: Constantinople holds an army; "F Con" still orders it.
    let (commands, rejected) = screen(&[("Turkey", "F Con-Bul")]);
    assert!(rejected.is_empty(), "{rejected:?}");
    assert_eq!(commands.len(), 1);
}
