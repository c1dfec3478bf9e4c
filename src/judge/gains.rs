//! The supply centres each power gained and lost in a phase, one line a power, for the
//! results (issue 17): `France: gains Belgium, Spain; loses Marseilles (5 supply centers).`

use crate::game::ids::{PowerId, ProvinceId};
use crate::game::map::Map;
use crate::game::position::Position;

/// One line for each power whose centres changed between `before` and `after` (owners are
/// read by province index; names come from `map`, the board after the phase), in the map's
/// power order; empty when no centre changed hands.
pub fn gains_and_losses(map: &Map, before: &Position, after: &Position) -> Vec<String> {
    let changed: Vec<ProvinceId> = map
        .province_ids()
        .filter(|p| {
            let i = p.index();
            before.owners.get(i).copied().flatten() != after.owners.get(i).copied().flatten()
        })
        .collect();
    let names = |power: PowerId, was: bool| -> Vec<&str> {
        changed
            .iter()
            .filter(|p| {
                let (b, a) = (before.owners[p.index()], after.owners[p.index()]);
                if was {
                    b == Some(power) && a != Some(power)
                } else {
                    a == Some(power) && b != Some(power)
                }
            })
            .map(|&p| map.province(p).name.as_str())
            .collect()
    };
    let mut lines = Vec::new();
    for power in map.power_ids() {
        let (gained, lost) = (names(power, false), names(power, true));
        if gained.is_empty() && lost.is_empty() {
            continue;
        }
        let mut parts = Vec::new();
        if !gained.is_empty() {
            parts.push(format!("gains {}", gained.join(", ")));
        }
        if !lost.is_empty() {
            parts.push(format!("loses {}", lost.join(", ")));
        }
        let count = after.centre_count(power);
        lines.push(format!(
            "{}: {} ({count} supply center{}).",
            map.power(power).name,
            parts.join("; "),
            if count == 1 { "" } else { "s" }
        ));
    }
    lines
}
