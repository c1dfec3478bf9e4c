//! Each map's colours for its powers and the share of each colour its tint takes. The
//! powers' full colours (units' chips, orders, centre dots) stay
//! [`super::colour::MIN_DIFFERENCE`] apart for every reader and 3:1 from the land; the
//! tints of the land they hold stay [`super::colour::tint_bound`] apart on every picture
//! the powers share ([`super::region::pictures`]), as far from the sea and unowned land,
//! with the names readable on each. `tests/picture_colours.rs` holds every built-in variant to it. The
//! colours were searched (simulated annealing over sRGB and the shares, pulled towards the
//! colours before, 2026-12-06) and are kept here as data.

use super::style::LAND;
use crate::game::ids::PowerId;
use crate::game::map::Map;

/// The standard powers' colours, the classic cues kept (Austria red, England navy, France
/// steel blue, Germany grey, Italy green, Russia purple, Turkey ochre); drawn for any map of
/// at most seven powers without its own (Deluge and Portage play the standard seven). Then
/// colours for a keeper's larger map, not held to the bounds.
const STANDARD: [&str; 16] = [
    "#bb0e1e", "#153384", "#5a91ae", "#494a4b", "#249c6e", "#8d41e5", "#a98611", "#e67e22",
    "#8b4513", "#e84393", "#16a085", "#95a5a6", "#9acd32", "#2c3e50", "#d35400", "#c39bd3",
];

/// How much of each standard power's colour its tint takes (the rest is the land's). Under
/// the bound the palettes first kept (7.5), England's and Russia's tints were 7.7 apart to
/// a protanope and France's and the sea 8.3.
const STANDARD_SHARES: [f32; 7] = [0.6, 0.55, 0.7, 0.55, 0.45, 0.55, 0.55];

/// Classical's five (Macedon blue, Carthage purple, Egypt gold, Rome red, Syria green): on
/// the standard colours, Carthage's navy and Egypt's steel blue were both blues.
const CLASSICAL: [&str; 5] = ["#0361ff", "#71398e", "#a98600", "#b01629", "#2f8c61"];

/// Classical's tint shares.
const CLASSICAL_SHARES: [f32; 5] = [0.65, 0.55, 0.55, 0.6, 0.55];

/// The sixteen powers of the world of 1880, in the map's order (Great Britain, France,
/// Russia, Germany, Austria, Italy, the Ottomans, the USA, Chile, Japan, Brazil, Mexico,
/// China, Portugal, Spain, Holland): neighbours (`neighbours`) 14 apart for every reader,
/// every other two 10, and their tints as `region::pictures` and `colour::tint_bound` ask
/// (before, Russia's and Spain's tints on the Europe picture were 1.2 apart to a
/// protanope).
const WORLD1880: [&str; 16] = [
    "#326165", "#a8785e", "#684800", "#6306fb", "#05888b", "#ca7600", "#520e2d", "#a95c00",
    "#66643f", "#f9278c", "#8a46a4", "#b253ff", "#1e00c4", "#18357d", "#593e31", "#0e004a",
];

/// The world's tint shares.
const WORLD1880_SHARES: [f32; 16] = [
    0.55, 0.4, 0.6, 0.55, 0.5, 0.9, 0.5, 0.55, 0.5, 0.4, 0.7, 0.5, 0.4, 0.45, 0.6, 0.45,
];

/// A map's colours and tint shares, by power index.
fn of(map: &Map) -> (&'static [&'static str], &'static [f32]) {
    match map.name.to_ascii_lowercase().as_str() {
        "world1880" => (&WORLD1880, &WORLD1880_SHARES),
        "classical" => (&CLASSICAL, &CLASSICAL_SHARES),
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

/// Whether each supply centre's dot carries its owner's letter, the second cue for the
/// powers whose tints are only [`super::colour::LARGE_PICTURE`] apart: on a map of more
/// than [`super::colour::ALL_PAIRS_UP_TO`] powers.
pub fn lettered_centres(map: &Map) -> bool {
    map.powers.len() > super::colour::ALL_PAIRS_UP_TO
}
