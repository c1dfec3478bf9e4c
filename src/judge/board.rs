//! The board in words for `LIST <game>`: each power's units (army-fleets by name), and on a
//! map that changes (Deluge) what is under water and which centres are new.

use crate::game::map::{Map, Terrain};
use crate::game::position::Position;
use crate::game::variant::Variant;

/// How a unit kind is named to players.
pub fn kind_name(kind: crate::game::ids::UnitKind) -> &'static str {
    match kind {
        crate::game::ids::UnitKind::Army => "Army",
        crate::game::ids::UnitKind::Fleet => "Fleet",
        crate::game::ids::UnitKind::ArmyFleet => "Army-fleet",
    }
}

/// The lines: `England: Army Portugal, Fleet Edinburgh.`, then the changes of the map.
pub fn describe(variant: &Variant, map: &Map, pos: &Position) -> Vec<String> {
    let mut out = vec!["The board:".to_string()];
    for p in map.power_ids() {
        let mut units: Vec<String> = pos
            .all_units()
            .filter(|(_, u)| u.power == p)
            .map(|(_, u)| {
                let region = map.region(u.region);
                let name = &map.province(region.province).name;
                match region.coast {
                    Some(c) => format!("{} {name} ({})", kind_name(u.kind), c.abbr()),
                    None => format!("{} {name}", kind_name(u.kind)),
                }
            })
            .collect();
        if units.is_empty() {
            continue;
        }
        units.sort();
        out.push(format!("  {}: {}.", map.power(p).name, units.join(", ")));
    }
    let start = &variant.map;
    let flooded: Vec<&str> = map
        .province_ids()
        .filter(|&p| {
            map.province(p).terrain.is_water()
                && p.index() < start.province_count()
                && matches!(start.province(p).terrain, Terrain::Land | Terrain::Coast)
        })
        .map(|p| map.province(p).name.as_str())
        .collect();
    if !flooded.is_empty() {
        out.push(format!("Under water: {}.", flooded.join(", ")));
    }
    let new: Vec<String> = map
        .centres()
        .filter(|&p| p.index() >= start.province_count() || !start.province(p).centre)
        .map(|p| {
            let owner =
                pos.owners[p.index()].map_or("neutral".to_string(), |o| map.power(o).name.clone());
            format!("{} ({owner})", map.province(p).name)
        })
        .collect();
    if !new.is_empty() {
        out.push(format!("New supply centres: {}.", new.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ids::UnitKind;
    use crate::game::position::Unit;

    #[test]
    fn army_fleets_floods_and_new_centres_in_words() {
        let v = Variant::deluge();
        let phase = v.calendar.parse("S1902M").unwrap();
        let map = v.map_at(phase);
        let mut pos = Position::empty(map, phase);
        let england = map.power_by_word("england").unwrap();
        let eng = map.lookup("eng").unwrap();
        pos.place(
            map,
            Unit {
                power: england,
                kind: UnitKind::ArmyFleet,
                region: map.province(eng).main,
            },
        );
        let wal = map.lookup("wal").unwrap();
        pos.owners[wal.index()] = Some(england);
        let text = describe(&v, map, &pos).join("\n");
        assert!(
            text.contains("  England: Army-fleet English Channel."),
            "{text}"
        );
        assert!(
            text.contains("Under water: Belgium, Gascony, Holland, London, Livonia, Venice."),
            "{text}"
        );
        assert!(
            text.contains(
                "New supply centres: Ruhr (neutral), Tyrolia (neutral), Wales (England)."
            ),
            "{text}"
        );
    }
}
