//! `herald map check`: everything wrong with a map file, beyond what stops it loading.

use super::parse::{MapError, MapSource};
use super::{Map, Terrain};

/// All problems of a map file: load errors first, then lints on the built map (spaces
/// nothing can reach, fleet coasts that border no water, powers without homes). The map is
/// checked as it starts and again after each scheduled change.
pub fn check_map(text: &str) -> Vec<MapError> {
    let source = MapSource::new(text);
    let mut problems = match source.initial() {
        Ok(map) => lint(&map, true),
        Err(errors) => return errors,
    };
    for (i, change) in source.changes.iter().enumerate() {
        match source.build(|c| source.changes[..=i].contains(c)) {
            Ok(map) => problems.extend(lint(&map, false).into_iter().map(|mut e| {
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

/// `start`: the map as a game begins (every power needs home centres then; floods may take
/// them later).
fn lint(map: &Map, start: bool) -> Vec<MapError> {
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
        if start && power.homes.is_empty() {
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

#[cfg(test)]
mod schedule_tests {
    use super::check_map;
    use crate::game::map::MapSource;

    const TINY: &str = r#"
map tiny
power Red R Red
coast Aaa "Aaa" centre
coast Bbb "Bbb" centre
shut  Ccc "Ccc"
sea   Ddd "Ddd"
army  Aaa: Bbb
army  Bbb: Aaa
fleet Aaa: Bbb Ddd
fleet Bbb: Aaa Ddd
fleet Ddd: Aaa Bbb
home Red: Aaa
units Red: A Aaa
at Winter 1901:
  coast Ccc "Ccc" centre
  army  Ccc: Aaa
  army  Aaa: Bbb Ccc
  fleet Ccc: Ddd
  fleet Ddd: Aaa Bbb Ccc
end
at Winter 1902:
  sea Bbb "Bbb"
  army Aaa: Ccc
  army Bbb:
  fleet Bbb: Aaa Ddd
end
"#;

    #[test]
    fn scheduled_changes_open_spaces_and_flood_provinces_in_order() {
        let source = MapSource::new(TINY);
        assert_eq!(source.changes.len(), 2);
        let start = source.initial().unwrap();
        let ccc = start.lookup("ccc").unwrap();
        let aaa = start.lookup("aaa").unwrap();
        let bbb = start.lookup("bbb").unwrap();
        assert!(!start.army_adjacent(aaa, ccc));
        assert!(start.army_adjacent(aaa, bbb));

        let opened = source
            .build(|c| c.year <= 1901)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(opened.army_adjacent(aaa, ccc));
        assert!(opened.province(ccc).centre);

        let flooded = source.build(|_| true).unwrap();
        assert!(flooded.province(bbb).terrain.is_water());
        assert!(!flooded.army_adjacent(aaa, bbb));
        assert!(flooded.fleet_adjacent(flooded.province(bbb).main, flooded.province(aaa).main));
    }

    #[test]
    fn a_change_that_breaks_symmetry_is_reported_with_its_block() {
        let broken = TINY.replace("  fleet Ddd: Aaa Bbb Ccc\n", "");
        let problems = check_map(&broken);
        assert!(
            problems
                .iter()
                .any(|p| p.message.contains("after the change at winter 1901")
                    && p.message.contains("one-way fleet adjacency: Ccc-Ddd")),
            "{problems:?}"
        );
    }
}
