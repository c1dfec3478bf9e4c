//! The orders on file for the current phase, as orders: what adjudication, readiness,
//! echoes and dip-point accounting all start from.
//!
//! Orders are read once, when they come ([`super::orders::submit`]), and kept as
//! [`Order`] values ([`PowerOrders::orders`]); nothing here parses them again. Only orders
//! a herald before December 2026 stored as text ([`PowerOrders::legacy`]) are read here,
//! against the map, until the judge next writes that power's orders: a line that no longer
//! reads as an order is not on file, and is shown ([`unreadable`]) rather than dropped
//! unseen.

use std::borrow::Cow;

use super::game::{Game, PowerOrders};
use super::Judge;
use crate::game::ids::PowerId;
use crate::game::map::Map;
use crate::game::order::{parse_order, Order};

/// A power's orders on file.
pub fn stored<'g>(judge: &Judge, game: &'g Game, power: PowerId) -> Cow<'g, [Order]> {
    match game.orders.get(&power.0) {
        None => Cow::Borrowed(&[]),
        Some(o) if o.legacy.is_empty() => Cow::Borrowed(&o.orders),
        Some(o) => Cow::Owned(read_legacy(judge.map_of(game), o).0),
    }
}

/// Lines a herald before December 2026 stored for a power that no longer read as orders
/// on this map: not on file (the unit is unordered), shown with the orders on file and
/// dropped, with a word in the reply, when the power next orders.
pub fn unreadable(judge: &Judge, game: &Game, power: PowerId) -> Vec<String> {
    match game.orders.get(&power.0) {
        Some(o) if !o.legacy.is_empty() => read_legacy(judge.map_of(game), o).1,
        _ => Vec::new(),
    }
}

/// Every power's orders on file, for adjudication.
pub fn all_stored(judge: &Judge, game: &Game) -> Vec<(PowerId, Order)> {
    let map = judge.map_of(game);
    map.power_ids()
        .flat_map(|p| {
            stored(judge, game, p)
                .iter()
                .map(move |o| (p, o.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Orders stored as text, read: those that still read as orders, and the lines that do not.
fn read_legacy(map: &Map, o: &PowerOrders) -> (Vec<Order>, Vec<String>) {
    let mut orders = o.orders.clone();
    let mut unread = Vec::new();
    for line in &o.legacy {
        match parse_order(map, line) {
            Ok(order) => orders.push(order),
            Err(_) => unread.push(line.clone()),
        }
    }
    (orders, unread)
}

#[cfg(test)]
mod tests {
    use crate::game::order::parse::reads;
    use crate::judge::game::PowerOrders;
    use crate::judge::testkit::{judge, mail, reply, start, started};
    use crate::judge::{orders, pictures, process, warnings};

    const BOB: &str = "bob@example.org"; // France

    // Issue 26: "Orders are stored as text and re-parsed at 12 call sites". Orders are read
    // when they come and never again: readiness, the echo, warnings, the picture and the
    // adjudication of the phase read none.
    #[test]
    fn orders_on_file_are_read_once_when_they_come() {
        let j = judge();
        let mut games = started(&j);
        let body = "SIGNON Fg pwF\nA Par-Bur\nA Mar S A Par-Bur\nF Bre-Mao";
        mail(&j, &mut games, BOB, body, start());
        let g = games.get_mut("g").unwrap();
        let france = j.map_of(g).power_by_word("France").unwrap();
        let before = reads();
        assert!(orders::complete(&j, g, france));
        let (echo, _) = orders::echo(&j, g, france);
        assert_eq!(echo, ["F Bre - Mao", "A Mar S A Par - Bur", "A Par - Bur"]);
        warnings::warnings(&j, g, france);
        assert_eq!(pictures::own_marks(&j, g, france).len(), 3);
        process::process(&j, g, start());
        assert_eq!(g.history.len(), 1, "the phase was played");
        let bur = j.map_of(g).lookup("bur").unwrap();
        let pos = g.position.as_ref().unwrap();
        assert_eq!(
            pos.unit_at(bur).map(|u| u.power),
            Some(france),
            "A Par - Bur was played"
        );
        assert_eq!(reads() - before, 0, "orders on file were read again");
    }

    // "A stored line that no longer parses must not vanish silently": a line kept as text by
    // an older herald that no longer reads as an order is shown with the orders on file, and
    // the reply that replaces the power's orders says it is dropped.
    #[test]
    fn a_stored_line_that_no_longer_reads_is_shown_then_dropped_with_a_word() {
        let j = judge();
        let mut games = started(&j);
        let g = games.get_mut("g").unwrap();
        let france = j.map_of(g).power_by_word("France").unwrap();
        let old: PowerOrders =
            serde_json::from_str(r#"{"lines":["A Par - Bur","A Atlantis H"],"errors":false}"#)
                .unwrap();
        assert_eq!(old.legacy.len(), 2, "the old form loads: {old:?}");
        g.orders.insert(france.0, old);
        let (echo, status) = orders::echo(&j, g, france);
        assert!(echo.iter().any(|l| l == "A Par - Bur"), "{echo:?}");
        assert!(
            echo.iter()
                .any(|l| l.starts_with("A Atlantis H  *** ") && l.contains("not on file")),
            "{echo:?}"
        );
        assert!(status.contains("incomplete"), "{status}");
        let h = mail(&j, &mut games, BOB, "SIGNON Fg pwF\nA Mar H", start());
        let text = &reply(&h, BOB).body;
        assert!(
            text.contains("  A Atlantis H\n    *** stored by an earlier herald"),
            "{text}"
        );
        let g = &games["g"];
        let on_file = &g.orders[&france.0];
        assert!(on_file.legacy.is_empty(), "{on_file:?}");
        let shown: Vec<String> = on_file
            .orders
            .iter()
            .map(|o| o.canonical(j.map_of(g)))
            .collect();
        assert_eq!(shown, ["A Par - Bur", "A Mar H"]);
    }
}
