//! From a grid of labels to outlines: the borders between cells of different labels are cut
//! into arcs at the corners where three labels meet, each arc is simplified once, and each
//! label's outline is made of the arcs around it. Two neighbours are drawn with the very same
//! border (one arc, the same points), so borders neither gap nor overlap, and a program can
//! tell neighbours by the segments their outlines share.

use std::collections::HashMap;

/// A corner of the grid: (x, y), 0..=w and 0..=h.
pub type Corner = (i32, i32);

/// A border between two labels: its corners, with `left` on the left walking along it
/// (x right, y down).
#[derive(Clone, Debug)]
pub struct Arc {
    /// The corners, first to last (a closed arc repeats its first at the end).
    pub points: Vec<Corner>,
    /// The label on the left.
    pub left: u16,
    /// The label on the right.
    pub right: u16,
}

/// The label of cell (x, y), `out` outside the grid.
fn cell(labels: &[u16], w: usize, h: usize, x: i32, y: i32, out: u16) -> u16 {
    if x < 0 || y < 0 || x >= w as i32 || y >= h as i32 {
        out
    } else {
        labels[y as usize * w + x as usize]
    }
}

/// The labels left and right of the unit edge from `a` to the next corner `b`.
fn sides(labels: &[u16], w: usize, h: usize, out: u16, a: Corner, b: Corner) -> (u16, u16) {
    let c = |x, y| cell(labels, w, h, x, y, out);
    let (x, y) = a;
    match (b.0 - a.0, b.1 - a.1) {
        (1, 0) => (c(x, y - 1), c(x, y)),
        (-1, 0) => (c(x - 1, y), c(x - 1, y - 1)),
        (0, 1) => (c(x, y), c(x - 1, y)),
        _ => (c(x - 1, y - 1), c(x, y - 1)),
    }
}

/// Every arc of a label grid (labels outside the grid are `out`).
pub fn arcs(labels: &[u16], w: usize, h: usize, out: u16) -> Vec<Arc> {
    let c = |x: i32, y: i32| cell(labels, w, h, x, y, out);
    // The unit edges from a corner that are borders.
    let edges = |(x, y): Corner| -> Vec<Corner> {
        let mut v = Vec::with_capacity(4);
        if c(x, y - 1) != c(x, y) && x < w as i32 {
            v.push((x + 1, y));
        }
        if c(x - 1, y - 1) != c(x - 1, y) && x > 0 {
            v.push((x - 1, y));
        }
        if c(x - 1, y) != c(x, y) && y < h as i32 {
            v.push((x, y + 1));
        }
        if c(x - 1, y - 1) != c(x, y - 1) && y > 0 {
            v.push((x, y - 1));
        }
        v
    };
    let node = |(x, y): Corner| -> bool {
        let four = [c(x - 1, y - 1), c(x, y - 1), c(x - 1, y), c(x, y)];
        let mut distinct = four.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len() >= 3 || (distinct.len() == 2 && four[0] == four[3] && four[1] == four[2])
    };
    let key = |a: Corner, b: Corner| if a <= b { (a, b) } else { (b, a) };
    let mut used: std::collections::HashSet<(Corner, Corner)> = std::collections::HashSet::new();
    let mut out_arcs = Vec::new();
    let walk =
        |start: Corner, first: Corner, used: &mut std::collections::HashSet<(Corner, Corner)>| {
            let (left, right) = sides(labels, w, h, out, start, first);
            let mut points = vec![start, first];
            used.insert(key(start, first));
            let (mut prev, mut here) = (start, first);
            while !node(here) && here != start {
                let Some(next) = edges(here)
                    .into_iter()
                    .find(|&n| n != prev && !used.contains(&key(here, n)))
                else {
                    break;
                };
                used.insert(key(here, next));
                points.push(next);
                (prev, here) = (here, next);
            }
            Arc {
                points,
                left,
                right,
            }
        };
    for y in 0..=h as i32 {
        for x in 0..=w as i32 {
            if !node((x, y)) {
                continue;
            }
            for n in edges((x, y)) {
                if !used.contains(&key((x, y), n)) {
                    out_arcs.push(walk((x, y), n, &mut used));
                }
            }
        }
    }
    // What is left are closed borders with no node: islands and lakes.
    for y in 0..=h as i32 {
        for x in 0..=w as i32 {
            for n in edges((x, y)) {
                if !used.contains(&key((x, y), n)) {
                    out_arcs.push(walk((x, y), n, &mut used));
                }
            }
        }
    }
    out_arcs
}

fn distance(p: Corner, a: Corner, b: Corner) -> f64 {
    let (px, py) = (f64::from(p.0), f64::from(p.1));
    let (ax, ay, bx, by) = (
        f64::from(a.0),
        f64::from(a.1),
        f64::from(b.0),
        f64::from(b.1),
    );
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    if len2 == 0.0 {
        return ((px - ax).powi(2) + (py - ay).powi(2)).sqrt();
    }
    ((dy * px - dx * py + bx * ay - by * ax) / len2.sqrt()).abs()
}

/// Douglas-Peucker: the points of a line kept within `tolerance` of it, ends kept.
fn simplify_open(points: &[Corner], tolerance: f64) -> Vec<Corner> {
    if points.len() <= 2 {
        return points.to_vec();
    }
    let mut keep = vec![false; points.len()];
    keep[0] = true;
    keep[points.len() - 1] = true;
    let mut stack = vec![(0, points.len() - 1)];
    while let Some((i, j)) = stack.pop() {
        let mut best = (0.0, 0);
        for k in i + 1..j {
            let d = distance(points[k], points[i], points[j]);
            if d > best.0 {
                best = (d, k);
            }
        }
        if best.0 > tolerance {
            keep[best.1] = true;
            stack.push((i, best.1));
            stack.push((best.1, j));
        }
    }
    points
        .iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(*p))
        .collect()
}

/// An arc simplified (a closed one split at its farthest point from its start); `None` when
/// a closed arc shrinks to nothing.
pub fn simplify(arc: &Arc, tolerance: f64) -> Option<Arc> {
    let p = &arc.points;
    let closed = p.len() > 2 && p.first() == p.last();
    let points = if closed {
        let first = p[0];
        let far = (1..p.len() - 1).max_by_key(|&k| {
            let (dx, dy) = (i64::from(p[k].0 - first.0), i64::from(p[k].1 - first.1));
            dx * dx + dy * dy
        })?;
        let mut a = simplify_open(&p[..=far], tolerance);
        let b = simplify_open(&p[far..], tolerance);
        a.extend_from_slice(&b[1..]);
        if a.len() < 4 {
            return None;
        }
        a
    } else {
        simplify_open(p, tolerance)
    };
    Some(Arc {
        points,
        left: arc.left,
        right: arc.right,
    })
}

/// The closed outlines of `label`, each ring with the label on its left.
pub fn rings(arcs: &[Arc], label: u16) -> Vec<Vec<Corner>> {
    let mine: Vec<Vec<Corner>> = arcs
        .iter()
        .filter(|a| a.left != a.right && (a.left == label || a.right == label))
        .map(|a| {
            if a.left == label {
                a.points.clone()
            } else {
                a.points.iter().rev().copied().collect()
            }
        })
        .collect();
    let mut from: HashMap<Corner, Vec<usize>> = HashMap::new();
    for (i, a) in mine.iter().enumerate() {
        from.entry(a[0]).or_default().push(i);
    }
    let mut used = vec![false; mine.len()];
    let mut out = Vec::new();
    for start in 0..mine.len() {
        if used[start] {
            continue;
        }
        used[start] = true;
        let mut ring = mine[start].clone();
        let origin = ring[0];
        let mut guard = 0;
        while ring.last() != Some(&origin) && guard < mine.len() {
            guard += 1;
            let Some(&end) = ring.last() else { break };
            let Some(next) = from
                .get(&end)
                .and_then(|v| v.iter().copied().find(|&k| !used[k]))
            else {
                break;
            };
            used[next] = true;
            ring.extend_from_slice(&mine[next][1..]);
        }
        ring.pop();
        if ring.len() >= 3 {
            out.push(ring);
        }
    }
    out
}
