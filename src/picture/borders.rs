//! Borders equal adjacency (issue 27): for a map with shapes, two spaces share a visible
//! border in the shapes exactly when the map makes them neighbours (land with land, sea with
//! sea or coast), or are joined by a drawn link across water. The shapes of two neighbours
//! are made of the very same arcs ([`super::carve::trace`]), so a border is a run of
//! segments both outlines hold.

use std::collections::HashMap;

use super::shapes::{rings, Shapes};

/// A segment of an outline, its two ends in grid units.
type Segment = ((i32, i32), (i32, i32));
use crate::game::ids::ProvinceId;
use crate::game::map::{Map, Terrain};

/// The shortest border that counts as visible, in pixels of the picture: a border shorter
/// than this reads as two spaces touching at a corner.
pub const MIN_BORDER_PX: f32 = 4.0;

/// Whether the map makes two spaces neighbours: an army may move between them, or a fleet
/// from any coast of one to the other.
pub fn neighbours(map: &Map, p: ProvinceId, q: ProvinceId) -> bool {
    if map.army_adjacent(p, q) {
        return true;
    }
    let prov = map.province(p);
    std::iter::once(prov.main)
        .chain(prov.coasts.iter().copied())
        .any(|r| map.fleet_reaches(r, q))
}

/// The length of border each pair of spaces shares in the shapes, grid units, keyed by
/// (lower index, higher index).
pub fn shared(shapes: &Shapes) -> HashMap<(usize, usize), f32> {
    let mut owner: HashMap<Segment, Vec<usize>> = HashMap::new();
    for (i, space) in shapes.spaces.iter().enumerate() {
        for ring in rings(&space.path) {
            for k in 0..ring.len() {
                let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
                let key = if a <= b { (a, b) } else { (b, a) };
                owner.entry(key).or_default().push(i);
            }
        }
    }
    let mut out: HashMap<(usize, usize), f32> = HashMap::new();
    if shapes.wrap {
        for ((i, j), len) in across_seam(shapes, &owner) {
            *out.entry((i.min(j), i.max(j))).or_default() += len;
        }
    }
    for ((a, b), spaces) in owner {
        if let [i, j] = spaces[..] {
            if i != j {
                let len = ((b.0 - a.0) as f32).hypot((b.1 - a.1) as f32);
                *out.entry((i.min(j), i.max(j))).or_default() += len;
            }
        }
    }
    out
}

/// The borders across the seam of a board that wraps ("across the world map's seam too",
/// issue 27): a space's outline running down the left edge faces the space whose outline
/// runs down the right edge at the same rows. The two are carved apart, so their segments
/// need not end at the same rows: each pair's border is the overlap of their runs.
fn across_seam(
    shapes: &Shapes,
    owner: &HashMap<Segment, Vec<usize>>,
) -> Vec<((usize, usize), f32)> {
    let right = shapes.width.round() as i32;
    // The runs along one edge, each with its space: (top, bottom, space).
    let runs = |x: i32| -> Vec<(i32, i32, usize)> {
        owner
            .iter()
            .filter(|(((ax, _), (bx, _)), spaces)| *ax == x && *bx == x && spaces.len() == 1)
            .map(|(((_, ay), (_, by)), spaces)| ((*ay).min(*by), (*ay).max(*by), spaces[0]))
            .collect()
    };
    let (west, east) = (runs(0), runs(right));
    let mut out = Vec::new();
    for &(t1, b1, i) in &west {
        for &(t2, b2, j) in &east {
            let overlap = b1.min(b2) - t1.max(t2);
            if overlap > 0 && i != j {
                out.push(((i, j), overlap as f32));
            }
        }
    }
    out
}

/// Every way the shapes' borders differ from the map's adjacency; empty when they agree.
/// Impassable spaces are left out (they border others and are no one's neighbour).
pub fn check(map: &Map, shapes: &Shapes) -> Vec<String> {
    let lengths = shared(shapes);
    let min = MIN_BORDER_PX / shapes.scale;
    let mut out = Vec::new();
    let linked = |p: ProvinceId, q: ProvinceId| {
        shapes
            .links
            .iter()
            .chain(&shapes.joins)
            .any(|&(a, b, ..)| (a, b) == (p, q) || (a, b) == (q, p))
    };
    for (a, b, ..) in &shapes.joins {
        if !neighbours(map, *a, *b) {
            out.push(format!(
                "shapes: {} and {} are joined but are not neighbours on the map",
                map.abbr(*a),
                map.abbr(*b)
            ));
        }
    }
    for (a, b, (x1, y1), (x2, y2)) in &shapes.links {
        let px = (x2 - x1).hypot(y2 - y1) * shapes.scale;
        if px < MIN_BORDER_PX {
            out.push(format!(
                "shapes: the mark linking {} and {} is only {px:.1} px long",
                map.abbr(*a),
                map.abbr(*b)
            ));
        }
        if !neighbours(map, *a, *b) {
            out.push(format!(
                "shapes: {} and {} are linked across water but are not neighbours on the map",
                map.abbr(*a),
                map.abbr(*b)
            ));
        }
    }
    let open: Vec<ProvinceId> = map
        .province_ids()
        .filter(|&p| map.province(p).terrain != Terrain::Shut)
        .collect();
    for (i, &p) in open.iter().enumerate() {
        for &q in &open[i + 1..] {
            let len = lengths
                .get(&(p.index().min(q.index()), p.index().max(q.index())))
                .copied()
                .unwrap_or(0.0);
            let want = neighbours(map, p, q);
            let px = len * shapes.scale;
            if want && len < min && !linked(p, q) {
                out.push(format!(
                    "shapes: {} and {} are neighbours on the map but share {} in the shapes",
                    map.abbr(p),
                    map.abbr(q),
                    if len > 0.0 {
                        format!("only {px:.1} px of border")
                    } else {
                        "no border".to_string()
                    }
                ));
            }
            if !want && len > 0.0 {
                out.push(format!(
                    "shapes: {} and {} share {px:.1} px of border in the shapes but are not neighbours on the map",
                    map.abbr(p),
                    map.abbr(q)
                ));
            }
        }
    }
    out
}
