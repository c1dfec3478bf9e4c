//! Each map's colours for its powers (issue 27, point 4: "A palette per map in which
//! neighbouring powers stay apart under deuteranopia and protanopia and every power has
//! ≥ 3:1 contrast to its background"), and the share of each colour its tint takes. The
//! bounds are in [`super::colour`]; `tests/picture_colours.rs` holds every built-in map to
//! them.

use super::style::LAND;
use crate::game::ids::PowerId;
use crate::game::map::Map;

/// The standard powers' colours (Austria red, England navy, France steel blue, Germany grey,
/// Italy green, Russia purple, Turkey ochre), chosen so that every two stay
/// `MIN_DIFFERENCE` apart for every reader; drawn for any map of at most seven powers
/// (Deluge's are the standard seven; Classical's five take the first five). Then colours
/// for a keeper's larger map, not held to the bounds.
const STANDARD: [&str; 16] = [
    "#c00728", "#133489", "#5293b5", "#494a4b", "#239d6f", "#8b47ca", "#ab8712", "#e67e22",
    "#8b4513", "#e84393", "#16a085", "#95a5a6", "#9acd32", "#2c3e50", "#d35400", "#c39bd3",
];

/// How much of each standard power's colour its tint takes (the rest is the land's):
/// chosen so that every two tints, and each tint and the sea, differ by at least
/// `MIN_TINT_DIFFERENCE`, while the names' ink keeps `MIN_NAME_CONTRAST` on every tint.
/// With one share for all (0.55), Austria and Germany were 6.3 apart to a protanope,
/// France and the sea 7.5.
const STANDARD_SHARES: [f32; 7] = [0.6, 0.55, 0.6, 0.55, 0.45, 0.55, 0.8];

/// The sixteen powers of the world of 1880, in the map's order (Great Britain, France,
/// Russia, Germany, Austria, Italy, the Ottomans, the USA, Chile, Japan, Brazil, Mexico,
/// China, Portugal, Spain, Holland). Sixteen colours cannot all stay 14 apart for a reader
/// without red or green cones at 3:1 contrast; these were searched (simulated annealing
/// over sRGB, 2026-12-02) so that neighbours (`colour::neighbours`) stay `MIN_DIFFERENCE`
/// apart and every other two `MIN_FAR_DIFFERENCE`, for every reader.
const WORLD1880: [&str; 16] = [
    "#4c7c83", "#788a77", "#7c0010", "#3550cd", "#0a93b8", "#a97e00", "#e73b64", "#7d5907",
    "#1f7b52", "#d94e98", "#2c357c", "#606bf4", "#3000c5", "#325066", "#703637", "#720548",
];

/// The world's tint shares: neighbours' tints, and each tint and the sea, at least
/// `MIN_TINT_DIFFERENCE` apart, the names at `MIN_NAME_CONTRAST` on every tint.
const WORLD1880_SHARES: [f32; 16] = [
    0.45, 0.4, 0.5, 0.65, 0.65, 0.8, 0.5, 0.7, 0.6, 0.6, 0.5, 0.7, 0.4, 0.6, 0.6, 0.5,
];

/// A map's colours and tint shares, by power index.
fn of(map: &Map) -> (&'static [&'static str], &'static [f32]) {
    match map.name.to_ascii_lowercase().as_str() {
        "world1880" => (&WORLD1880, &WORLD1880_SHARES),
        _ => (&STANDARD, &STANDARD_SHARES),
    }
}

/// The colour of a power on its map.
pub fn power_colour(map: &Map, p: PowerId) -> &'static str {
    let (colours, _) = of(map);
    colours
        .get(p.index())
        .copied()
        .unwrap_or(STANDARD[p.index() % STANDARD.len()])
}

/// A power's colour mixed with the land's: the tint of the land it holds, light enough
/// that names, borders and units read on it.
pub fn tint(map: &Map, p: PowerId) -> String {
    let (c, land) = (
        super::colour::rgb(power_colour(map, p)),
        super::colour::rgb(LAND),
    );
    let share = of(map).1.get(p.index()).copied().unwrap_or(0.55);
    let mix =
        |i: usize| (f32::from(c[i]) * share + f32::from(land[i]) * (1.0 - share)).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}

/// The pairs of a map's powers drawn side by side from the start: a home centre of one at
/// most two moves (by army or fleet) from a home centre of the other, so their first units
/// can meet. On the world of 1880, 29 of its 120 pairs.
pub fn neighbours(map: &Map) -> Vec<(PowerId, PowerId)> {
    let n = map.province_count();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut join = |a: usize, b: usize| {
        if a != b && !next[a].contains(&b) {
            next[a].push(b);
            next[b].push(a);
        }
    };
    for p in map.province_ids() {
        for q in map.army_neighbours(p) {
            join(p.index(), q.index());
        }
        let prov = map.province(p);
        for &r in std::iter::once(&prov.main).chain(&prov.coasts) {
            for &s in map.fleet_neighbours(r) {
                join(p.index(), map.province_of(s).index());
            }
        }
    }
    let near = |homes: &[crate::game::ids::ProvinceId]| {
        let mut reached = vec![false; n];
        for h in homes {
            reached[h.index()] = true;
            for &a in &next[h.index()] {
                reached[a] = true;
                for &b in &next[a] {
                    reached[b] = true;
                }
            }
        }
        reached
    };
    let powers: Vec<PowerId> = map.power_ids().collect();
    let mut out = Vec::new();
    for (i, &p) in powers.iter().enumerate() {
        let reached = near(&map.power(p).homes);
        for &q in &powers[i + 1..] {
            if map.power(q).homes.iter().any(|h| reached[h.index()]) {
                out.push((p, q));
            }
        }
    }
    out
}

/// The pictures a board of `map` is mailed as, each with the powers whose colours meet on
/// it: a board without regions is one picture of all its powers; a board with regions
/// (the world of 1880) is its overview, which tints every space and so shows every power,
/// then one picture per region with the powers that have a home space drawn in its frame.
pub fn pictures(map: &Map) -> Vec<(String, Vec<PowerId>)> {
    let all: Vec<PowerId> = map.power_ids().collect();
    let whole = vec![("whole".to_string(), all.clone())];
    let (Some(shapes), Some(text)) = (
        super::shapes_of(map),
        crate::game::map::builtin::source(&map.name),
    ) else {
        return whole;
    };
    let Ok(frames) = super::region::read(text, map, &shapes.layout()) else {
        return whole;
    };
    if frames.is_empty() {
        return whole;
    }
    let mut out = vec![("overview".to_string(), all.clone())];
    for (i, frame) in frames.iter().enumerate() {
        let Some((cropped, _)) =
            super::region::view(map, &shapes, &frames, super::region::View::Region(i))
        else {
            continue;
        };
        let drawn = |h: &crate::game::ids::ProvinceId| {
            cropped
                .spaces
                .get(h.index())
                .is_some_and(|s| !s.path.is_empty())
        };
        let powers = all
            .iter()
            .copied()
            .filter(|&p| map.power(p).homes.iter().any(drawn))
            .collect();
        out.push((frame.name.clone(), powers));
    }
    out
}
