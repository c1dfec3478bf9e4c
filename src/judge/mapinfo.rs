//! `GET MAP`: a map in words, since players cannot see herald's picture: every space with
//! its kind, centre, coasts and neighbours, and the powers with their home centres.

use crate::game::ids::RegionId;
use crate::game::map::{Map, Terrain};
use crate::game::variant::Variant;

/// The lines describing `map` (the variant's map as it stands, for a game in progress).
pub fn describe(variant: &Variant, map: &Map) -> Vec<String> {
    let centres = map.centres().count();
    let mut out = vec![
        format!(
            "Map of {}: {} ({} spaces, {centres} supply centres; {} win).",
            variant.name,
            map.title,
            map.province_count(),
            variant.rules.victory_centres
        ),
        String::new(),
        "Powers (letter, name, home centres):".into(),
    ];
    for p in map.power_ids() {
        let power = map.power(p);
        let homes: Vec<&str> = power.homes.iter().map(|&h| map.abbr(h)).collect();
        out.push(format!(
            "  {} {}: {}",
            power.letter,
            power.name,
            homes.join(" ")
        ));
    }
    out.push(String::new());
    out.push("Spaces (* a supply centre). A: army moves, F: fleet moves.".into());
    let list = |regions: &[RegionId]| {
        let mut names: Vec<String> = regions.iter().map(|&r| map.region_abbr(r)).collect();
        names.sort();
        names.join(" ")
    };
    let mut ids: Vec<_> = map.province_ids().collect();
    ids.sort_by_key(|&p| map.abbr(p).to_ascii_lowercase());
    for p in ids {
        let prov = map.province(p);
        let kind = match prov.terrain {
            Terrain::Land => "land".to_string(),
            Terrain::Coast if prov.coasts.is_empty() => "coast".to_string(),
            Terrain::Coast => {
                let coasts: Vec<&str> = prov
                    .coasts
                    .iter()
                    .filter_map(|&r| map.region(r).coast.map(|c| c.abbr()))
                    .collect();
                format!("coast, coasts {}", coasts.join(" "))
            }
            Terrain::Sea => "sea".to_string(),
            Terrain::Ocean if map.free_oceans => {
                "ocean (fleets share it without combat)".to_string()
            }
            Terrain::Ocean => "ocean".to_string(),
            Terrain::Shut => "impassable".to_string(),
        };
        let star = if prov.centre { "*" } else { "" };
        out.push(format!("{}{star} {}: {kind}", prov.abbr, prov.name));
        let armies: Vec<RegionId> = map
            .army_neighbours(p)
            .iter()
            .map(|&q| map.province(q).main)
            .collect();
        if !armies.is_empty() {
            out.push(format!("    A: {}", list(&armies)));
        }
        let fleet_regions: Vec<RegionId> = if prov.coasts.is_empty() {
            vec![prov.main]
        } else {
            prov.coasts.clone()
        };
        for r in fleet_regions {
            let to = map.fleet_neighbours(r);
            if to.is_empty() {
                continue;
            }
            if prov.coasts.is_empty() {
                out.push(format!("    F: {}", list(to)));
            } else {
                out.push(format!("    F from {}: {}", map.region_abbr(r), list(to)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_space_is_listed_with_kind_and_neighbours() {
        let v = Variant::world1880();
        let lines = describe(&v, &v.map);
        let text = lines.join("\n");
        assert!(
            text.starts_with(
                "Map of world1880: World 1880 (201 spaces, 70 supply centres; 36 win)."
            ),
            "{}",
            &text[..200]
        );
        assert!(
            text.contains("\nNao North Atlantic Ocean: ocean (fleets share it without combat)\n")
        );
        assert!(text.contains("\nPan Panama: coast, coasts wc ec\n"));
        assert!(text.contains("\n    F from Pan/ec: "));
        assert!(text.contains("\nCas Caspian Sea: impassable\n"));
        assert!(text.contains("\nSue Suez: coast\n"));
        let spaces = lines
            .iter()
            .filter(|l| !l.starts_with(' ') && l.contains(": "))
            .count();
        assert_eq!(
            spaces,
            201 + 1 + 1,
            "the spaces, the title line and the spaces header"
        );
    }
}
