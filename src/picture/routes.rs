//! The way a move's arrow is drawn (issue 40, point 1): a convoyed or portaged move along
//! its route in the route's own sequence (the provinces its order names, `F Bla-Bul-Con-Aeg`
//! drawn Bla→Bul→Con→Aeg; a convoy named only "via convoy" along the shortest chain of its
//! convoying fleets, as the adjudicator finds it), and every leg that touches water kept to
//! the two spaces it joins, crossing their common border (a convoy's Mao→Wes leg through
//! the strait, not over Iberia).

use super::borders::neighbours;
use super::marks::Mark;
use super::shapes::Shapes;
use crate::game::ids::ProvinceId;
use crate::game::map::Map;

/// The provinces between `from` and `to` that a move passes, in order: the route its
/// order names (`via`), else the shortest chain of neighbours through the provinces of the
/// units that carry it (`helpers`), else those units nearest first from `from` (a chain
/// that does not join: drawn as the helpers stand).
pub fn stops(
    map: &Map,
    from: ProvinceId,
    to: ProvinceId,
    via: &[ProvinceId],
    helpers: &[ProvinceId],
    at: &dyn Fn(ProvinceId) -> (f32, f32),
) -> Vec<ProvinceId> {
    if !via.is_empty() {
        return via.to_vec();
    }
    if helpers.is_empty() {
        return Vec::new();
    }
    chain(map, from, to, helpers).unwrap_or_else(|| nearest_first(from, helpers, at))
}

/// The shortest chain from `from` to `to` whose every step joins two neighbours and whose
/// every stop is one of `helpers` (breadth first over at most a route's few units).
fn chain(
    map: &Map,
    from: ProvinceId,
    to: ProvinceId,
    helpers: &[ProvinceId],
) -> Option<Vec<ProvinceId>> {
    let mut came: Vec<Option<usize>> = vec![None; helpers.len()];
    let mut seen = vec![false; helpers.len()];
    let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for (i, &h) in helpers.iter().enumerate() {
        if neighbours(map, from, h) {
            seen[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        if neighbours(map, helpers[i], to) {
            let mut out = vec![helpers[i]];
            let mut at = i;
            while let Some(j) = came[at] {
                out.push(helpers[j]);
                at = j;
            }
            out.reverse();
            return Some(out);
        }
        for j in 0..helpers.len() {
            if !seen[j] && neighbours(map, helpers[i], helpers[j]) {
                seen[j] = true;
                came[j] = Some(i);
                queue.push_back(j);
            }
        }
    }
    None
}

/// The helpers nearest first from `from`, each step to the nearest left.
fn nearest_first(
    from: ProvinceId,
    helpers: &[ProvinceId],
    at: &dyn Fn(ProvinceId) -> (f32, f32),
) -> Vec<ProvinceId> {
    let mut left = helpers.to_vec();
    let mut out = Vec::new();
    let mut here = at(from);
    while !left.is_empty() {
        let d = |p: ProvinceId| {
            let q = at(p);
            (q.0 - here.0).hypot(q.1 - here.1)
        };
        let mut best = 0;
        for (i, &p) in left.iter().enumerate() {
            if d(p) < d(left[best]) {
                best = i;
            }
        }
        let p = left.swap_remove(best);
        here = at(p);
        out.push(p);
    }
    out
}

/// The points of a way through `spaces` (each with where its mark stands), with the bends
/// of [`Shapes::way`] in every leg touching water that would leave its two spaces.
pub fn over_water(
    map: &Map,
    shapes: Option<&Shapes>,
    spaces: &[(ProvinceId, (f32, f32))],
) -> Vec<(f32, f32)> {
    let mut out = Vec::with_capacity(spaces.len() * 2);
    for (i, &(p, a)) in spaces.iter().enumerate() {
        out.push(a);
        let Some(&(q, b)) = spaces.get(i + 1) else {
            continue;
        };
        let wet = map.province(p).terrain.is_water() || map.province(q).terrain.is_water();
        if let (true, Some(shapes)) = (wet && p != q, shapes) {
            out.extend(shapes.way(p, q, a, b));
        }
    }
    out
}

/// The convoys and portages that carry a move from `from` to `to`: where their units stand.
pub fn helpers_of(marks: &[Mark], from: ProvinceId, to: ProvinceId) -> Vec<ProvinceId> {
    marks
        .iter()
        .filter_map(|m| match m {
            Mark::Help {
                kind: "convoy" | "portage",
                by,
                from: f,
                to: Some(t),
                ..
            } if *f == from && *t == to => Some(*by),
            _ => None,
        })
        .collect()
}
