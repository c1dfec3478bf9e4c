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
        rejected.into_iter().map(|r| r.to_string()).collect(),
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

/// The world board at Spring 1880 with these units only, each "Power: A mon".
fn world_board(v: &Variant, units: &[&str]) -> Position {
    let map = &v.map;
    use crate::game::calendar::{Phase, PhaseKind};
    let spring = Phase {
        year: 1880,
        season: 0,
        kind: PhaseKind::Movement,
    };
    let mut pos = Position::empty(map, spring);
    for u in units {
        let (power, rest) = u.split_once(": ").unwrap();
        let (kind, at) = rest.split_once(' ').unwrap();
        let kind = if kind == "A" {
            UnitKind::Army
        } else {
            UnitKind::Fleet
        };
        let p = map.lookup(at).unwrap();
        pos.place(
            map,
            Unit {
                power: map.power_by_word(power).unwrap(),
                kind,
                region: map.province(p).main,
            },
        );
    }
    pos
}

// M.2: "To convoy an army unit to another continent the player must have a naval unit in
// the adjacent sea zone and ocean, and the sea zone adjacent to the land zone where the army
// is to disembark." The player's, not the power's: with Great Britain and Spain one
// player's, British and Spanish fleets carry a Spanish army from MON to WAL over the North
// Atlantic; with the same fleets of two players, or an American fleet in the ocean, not
// (issue 25, 3).
#[test]
fn ocean_convoys_are_the_players_fleets() {
    use crate::game::partners::Partners;
    let v = Variant::world1880();
    let map = &v.map;
    let orders = |texts: &[(&str, &str)]| -> Vec<(PowerId, Order)> {
        texts
            .iter()
            .map(|(p, t)| (map.power_by_word(p).unwrap(), parse_order(map, t).unwrap()))
            .collect()
    };
    let play = |ocean: &str, partners: &Partners| {
        let pos = world_board(
            &v,
            &[
                "Spain: A mon",
                "GreatBritain: F gsl",
                &format!("{ocean}: F nao"),
                "GreatBritain: F sto",
            ],
        );
        let given = orders(&[
            ("Spain", "A Mon - Wal"),
            ("GreatBritain", "F Gsl C Spanish A Mon - Wal"),
            (ocean, "F Nao C Spanish A Mon - Wal"),
            ("GreatBritain", "F Sto C Spanish A Mon - Wal"),
        ]);
        let mut rules = v.rules.clone();
        rules.partners = partners.clone();
        let t = crate::game::turn::play_with(&v, &rules, map, &pos, &given);
        let wal = map.lookup("wal").unwrap();
        (t.position.unit_at(wal).is_some(), t.rejections.is_empty())
    };
    let holders: Vec<Option<&str>> = map
        .powers
        .iter()
        .map(|p| {
            Some(if p.name == "GreatBritain" || p.name == "Spain" {
                "ann"
            } else {
                p.name.as_str()
            })
        })
        .collect();
    let ann = Partners::from_holders(&holders);
    assert_eq!(
        play("Spain", &ann),
        (true, true),
        "one player's fleets carry it"
    );
    assert_eq!(
        play("Spain", &Partners::default()),
        (false, false),
        "two players' fleets do not"
    );
    assert_eq!(
        play("USA", &ann),
        (false, false),
        "nor with an American fleet in the ocean"
    );
}
