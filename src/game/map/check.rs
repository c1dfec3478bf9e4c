//! `herald map check`: everything wrong with a map file, beyond what stops it loading.

use super::parse::{MapError, MapSource};
use super::{Map, Terrain};

/// All problems of a map file: load errors first, then lints on the built map (spaces
/// nothing can reach, fleet coasts that border no water, powers without homes). The map is
/// checked as it starts and again after each scheduled change.
pub fn check_map(text: &str) -> Vec<MapError> {
    let source = MapSource::new(text);
    let mut problems = match source.initial() {
        Ok(map) => lint(&map),
        Err(errors) => return errors,
    };
    for (i, change) in source.changes.iter().enumerate() {
        match source.build(|c| source.changes[..=i].contains(c)) {
            Ok(map) => problems.extend(lint(&map).into_iter().map(|mut e| {
                e.message = format!("after the change {change}: {}", e.message);
                e
            })),
            Err(errors) => problems.extend(errors.into_iter().map(|mut e| {
                e.message = format!("after the change {change}: {}", e.message);
                e
            })),
        }
    }
    problems
}

fn lint(map: &Map) -> Vec<MapError> {
    let mut out = Vec::new();
    let problem = |message: String| MapError { line: 0, message };
    for p in map.province_ids() {
        let prov = map.province(p);
        if prov.terrain == Terrain::Shut {
            continue;
        }
        let by_army = !map.army_neighbours(p).is_empty();
        let fleet_regions: Vec<_> = if prov.coasts.is_empty() {
            vec![prov.main]
        } else {
            prov.coasts.clone()
        };
        let by_fleet = fleet_regions
            .iter()
            .any(|&r| !map.fleet_neighbours(r).is_empty());
        if !by_army && !by_fleet {
            out.push(problem(format!(
                "space '{}' is unreachable: no unit can move in or out",
                prov.abbr
            )));
        }
        if prov.terrain == Terrain::Coast {
            for &r in &fleet_regions {
                if map.fleet_neighbours(r).is_empty() {
                    out.push(problem(format!(
                        "fleet coast '{}' borders nothing: no fleet move is listed",
                        map.region_abbr(r)
                    )));
                }
            }
        }
        if matches!(prov.terrain, Terrain::Sea | Terrain::Ocean) && !by_fleet {
            out.push(problem(format!("sea '{}' borders nothing", prov.abbr)));
        }
    }
    for power in &map.powers {
        if power.homes.is_empty() {
            out.push(problem(format!("power {} has no home centres", power.name)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::check_map;
    use crate::game::map::builtin;

    #[test]
    fn the_standard_map_is_clean() {
        let problems = check_map(builtin::STANDARD);
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn a_one_way_adjacency_is_reported_with_its_line() {
        let text = builtin::STANDARD.replace(
            "army  Boh: Gal Mun Sil Tyr Vie",
            "army  Boh: Gal Mun Sil Tyr Vie Ukr",
        );
        let problems = check_map(&text);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0]
                .message
                .contains("one-way army adjacency: Boh-Ukr"),
            "{}",
            problems[0]
        );
        assert!(problems[0].line > 0);
    }

    #[test]
    fn unknown_and_duplicate_names_are_reported() {
        let text = builtin::STANDARD
            .replace("fleet Adr: Alb", "fleet Adr: Xyz Alb")
            .replace(
                "land  Boh  \"Bohemia\"",
                "land  Boh  \"Bohemia\" aka vienna",
            );
        let problems = check_map(&text);
        let all: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
        assert!(
            all.iter().any(|m| m.contains("unknown space 'xyz'")),
            "{all:?}"
        );
        assert!(
            all.iter()
                .any(|m| m.to_lowercase().contains("name 'vienna'")),
            "{all:?}"
        );
    }
}
