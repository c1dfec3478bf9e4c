//! Dip points (the world variant's D.1 and D.2): each power's allowance per turn, the prices,
//! and the standing supports a power's dips pay for. The judge spends from its ledger by
//! mail and `herald datc` from a case's `PRESTATE_DIPS`; both refuse a standing support
//! here, so they give the same verdict on every one.
//!
//! D.1: "major powers receive 8 "dip" points ... Minor powers receive only 5 dip points."
//! D.2: "4 Dips to support a unit that is standing": a minor power pays for one standing
//! support a turn, a major power for two.

use super::ids::PowerId;
use super::map::Map;
use super::order::Order;
use super::position::Position;
use super::rules::Rules;
use super::screen::{screen_dip_supports, Refusal, Rejection};

/// The allowance of a power the map gives none (the world map gives 8 to majors, 5 to
/// minors).
pub const DEFAULT_ALLOWANCE: u32 = 8;
/// Press to any number of countries.
pub const PRESS: u32 = 1;
/// An interception of the messages between two countries.
pub const INTERCEPT: u32 = 2;
/// Protection of all a power's messages for the turn.
pub const PROTECT: u32 = 1;
/// A standing support.
pub const STANDING_SUPPORT: u32 = 4;

/// A power's allowance per turn: the map's, or [`DEFAULT_ALLOWANCE`].
pub fn allowance(map: &Map, power: PowerId) -> u32 {
    match map.power(power).dips {
        0 => DEFAULT_ALLOWANCE,
        n => n,
    }
}

/// The dips each power has left to pay standing supports with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Purse {
    left: Vec<u32>,
}

impl Purse {
    /// Every power's full allowance (a turn nothing was bought in yet).
    pub fn full(map: &Map) -> Self {
        Purse {
            left: map.power_ids().map(|p| allowance(map, p)).collect(),
        }
    }

    /// Sets what a power has left.
    pub fn set(&mut self, power: PowerId, dips: u32) {
        if let Some(slot) = self.left.get_mut(usize::from(power.0)) {
            *slot = dips;
        }
    }

    /// What a power has left.
    pub fn left(&self, power: PowerId) -> u32 {
        self.left.get(usize::from(power.0)).copied().unwrap_or(0)
    }
}

/// Checks the standing supports among `orders` in the order given, and pays for each one the
/// board allows from its power's purse: one its power cannot pay for is refused
/// ([`Refusal::DipsShort`]) and costs nothing, as is one the board refuses
/// ([`screen_dip_supports`]). Other orders are passed over. Returns the refusals, each with
/// its index in `orders`.
pub fn pay_standing_supports(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    orders: &[(PowerId, Order)],
    purse: &mut Purse,
) -> Vec<Rejection> {
    let mut refused = Vec::new();
    for (index, (power, order)) in orders.iter().enumerate() {
        if !matches!(order, Order::DipSupport { .. }) {
            continue;
        }
        let one = [(*power, order.clone())];
        let (_, board) = screen_dip_supports(map, rules, pos, &one);
        let kind = match board.into_iter().next() {
            Some(r) => Some(r.kind),
            None => {
                let left = purse.left(*power);
                if left < STANDING_SUPPORT {
                    Some(Refusal::DipsShort(left))
                } else {
                    purse.set(*power, left - STANDING_SUPPORT);
                    None
                }
            }
        };
        if let Some(kind) = kind {
            refused.push(Rejection {
                power: *power,
                index,
                order: order.canonical(map),
                kind,
            });
        }
    }
    refused
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::order::parse_order;
    use crate::game::variant::Variant;

    // D.1 and D.2: a minor power's 5 dips pay for one standing support (4 each), a major
    // power's 8 for two; the next is refused and costs nothing.
    #[test]
    fn a_minor_pays_for_one_standing_support_and_a_major_for_two() {
        let v = Variant::world1880();
        let map = &v.map;
        let spring = v.calendar.parse("Spring 1880, Movement").unwrap();
        let mut pos = Position::empty(map, spring);
        for s in &map.start {
            pos.place(
                map,
                crate::game::position::Unit {
                    power: s.power,
                    kind: s.kind,
                    region: s.region,
                },
            );
        }
        let holland = map.power_by_word("Holland").unwrap();
        let germany = map.power_by_word("Germany").unwrap();
        let order = |text| parse_order(map, text).unwrap();
        let orders = vec![
            (holland, order("4 DIPS S A Ber")),
            (holland, order("4 DIPS S A Ber")),
            (germany, order("4 DIPS S A Ber")),
            (germany, order("4 DIPS S A Ber")),
            (germany, order("4 DIPS S A Ber")),
        ];
        let mut purse = Purse::full(map);
        assert_eq!(purse.left(holland), 5);
        let refused = pay_standing_supports(map, &v.rules, &pos, &orders, &mut purse);
        let at: Vec<(usize, Refusal)> = refused.into_iter().map(|r| (r.index, r.kind)).collect();
        assert_eq!(at, [(1, Refusal::DipsShort(1)), (4, Refusal::DipsShort(0))]);
        assert_eq!((purse.left(holland), purse.left(germany)), (1, 0));
    }
}
