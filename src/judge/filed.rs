//! The orders on file for the current phase, read back as orders: what adjudication,
//! readiness, echoes and dip-point accounting all start from.

use super::game::Game;
use super::Judge;
use crate::game::ids::PowerId;
use crate::game::order::{parse_order, Order};

/// A power's stored orders, parsed.
pub fn stored(judge: &Judge, game: &Game, power: PowerId) -> Vec<Order> {
    let map = judge.map_of(game);
    game.orders
        .get(&power.0)
        .map(|o| {
            o.lines
                .iter()
                .filter_map(|l| parse_order(map, l).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Every power's stored orders, for adjudication.
pub fn all_stored(judge: &Judge, game: &Game) -> Vec<(PowerId, Order)> {
    let map = judge.map_of(game);
    map.power_ids()
        .flat_map(|p| stored(judge, game, p).into_iter().map(move |o| (p, o)))
        .collect()
}
