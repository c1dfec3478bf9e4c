//! The board as a grid of cells, each land or water, then each given to a space: cells go
//! to the nearest seed of their own kind, measured through cells of that kind (so the North
//! Sea does not reach across Denmark into the Baltic). On a board that goes round the globe
//! (`wrap`) the left and right edges are one meridian: a cell of the first column is the
//! neighbour of the cell of the last column on its row.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// A grid of cells, row by row.
#[derive(Clone, Debug)]
pub struct Grid<T> {
    /// Cells per row.
    pub w: usize,
    /// Rows.
    pub h: usize,
    /// The cells.
    pub cells: Vec<T>,
}

impl<T: Copy> Grid<T> {
    /// A grid filled with one value.
    pub fn new(w: usize, h: usize, v: T) -> Grid<T> {
        Grid {
            w,
            h,
            cells: vec![v; w * h],
        }
    }

    /// The cell at (x, y), if inside.
    pub fn get(&self, x: i64, y: i64) -> Option<T> {
        if x < 0 || y < 0 || x >= self.w as i64 || y >= self.h as i64 {
            return None;
        }
        self.cells.get(y as usize * self.w + x as usize).copied()
    }
}

const STEPS: [(i64, i64, u32); 8] = [
    (1, 0, 5),
    (-1, 0, 5),
    (0, 1, 5),
    (0, -1, 5),
    (1, 1, 7),
    (1, -1, 7),
    (-1, 1, 7),
    (-1, -1, 7),
];

/// The cell one step (dx, dy) from cell `i`, if any: across the left and right edges when
/// the board wraps.
fn step(w: usize, h: usize, wrap: bool, i: usize, dx: i64, dy: i64) -> Option<usize> {
    let (x, y) = ((i % w) as i64, (i / w) as i64);
    let (mut nx, ny) = (x + dx, y + dy);
    if wrap {
        nx = nx.rem_euclid(w as i64);
    }
    (nx >= 0 && ny >= 0 && nx < w as i64 && ny < h as i64).then(|| ny as usize * w + nx as usize)
}

/// The cells reached from `starts` through cells where `pass` holds, 4-connected.
pub fn reach(
    w: usize,
    h: usize,
    wrap: bool,
    starts: &[usize],
    pass: impl Fn(usize) -> bool,
) -> Vec<bool> {
    let mut seen = vec![false; w * h];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &s in starts {
        if s < w * h && pass(s) && !seen[s] {
            seen[s] = true;
            queue.push_back(s);
        }
    }
    while let Some(i) = queue.pop_front() {
        for &(dx, dy, _) in &STEPS[..4] {
            let Some(j) = step(w, h, wrap, i, dx, dy) else {
                continue;
            };
            if !seen[j] && pass(j) {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    seen
}

/// The 4-connected components of the cells where `kind` is `want`: a component number per
/// cell (`u32::MAX` elsewhere) and each component's size.
pub fn components(
    kind: &[bool],
    w: usize,
    h: usize,
    wrap: bool,
    want: bool,
) -> (Vec<u32>, Vec<usize>) {
    let mut comp = vec![u32::MAX; w * h];
    let mut sizes = Vec::new();
    for start in 0..w * h {
        if kind[start] != want || comp[start] != u32::MAX {
            continue;
        }
        let id = sizes.len() as u32;
        let mut size = 0;
        let mut stack = vec![start];
        comp[start] = id;
        while let Some(i) = stack.pop() {
            size += 1;
            for &(dx, dy, _) in &STEPS[..4] {
                let Some(j) = step(w, h, wrap, i, dx, dy) else {
                    continue;
                };
                if kind[j] == want && comp[j] == u32::MAX {
                    comp[j] = id;
                    stack.push(j);
                }
            }
        }
        sizes.push(size);
    }
    (comp, sizes)
}

/// Gives each cell the label of the nearest seed cell of its own kind (`land`), measured
/// through cells of that kind (chamfer distance 5-7). Unreached cells keep `unset`.
pub fn label(
    w: usize,
    h: usize,
    wrap: bool,
    land: &[bool],
    seeds: &[(usize, u16)],
    unset: u16,
) -> Vec<u16> {
    let mut labels = vec![unset; w * h];
    let mut dist = vec![u32::MAX; w * h];
    let mut heap = BinaryHeap::new();
    for &(i, l) in seeds {
        if i < w * h && dist[i] != 0 {
            dist[i] = 0;
            labels[i] = l;
            heap.push(Reverse((0u32, i)));
        }
    }
    while let Some(Reverse((d, i))) = heap.pop() {
        if d > dist[i] {
            continue;
        }
        for (dx, dy, cost) in STEPS {
            let Some(j) = step(w, h, wrap, i, dx, dy) else {
                continue;
            };
            if land[j] != land[i] {
                continue;
            }
            let nd = d + cost;
            if nd < dist[j] {
                dist[j] = nd;
                labels[j] = labels[i];
                heap.push(Reverse((nd, j)));
            }
        }
    }
    labels
}

/// Each cell's chamfer distance (3-4) to the nearest cell of another label or the grid's
/// edge: the deepest cell of a space is where its name reads best.
pub fn depth(labels: &[u16], w: usize, h: usize) -> Vec<u32> {
    let mut d = vec![u32::MAX / 2; w * h];
    let at = |x: i64, y: i64| -> Option<usize> {
        (x >= 0 && y >= 0 && x < w as i64 && y < h as i64).then(|| y as usize * w + x as usize)
    };
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            let i = y as usize * w + x as usize;
            let edge = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|(dx, dy)| at(x + dx, y + dy).is_none_or(|j| labels[j] != labels[i]));
            if edge {
                d[i] = 0;
            }
        }
    }
    let forward = [(-1, 0, 3), (0, -1, 3), (-1, -1, 4), (1, -1, 4)];
    let backward = [(1, 0, 3), (0, 1, 3), (1, 1, 4), (-1, 1, 4)];
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            let i = y as usize * w + x as usize;
            for (dx, dy, c) in forward {
                if let Some(j) = at(x + dx, y + dy) {
                    d[i] = d[i].min(d[j] + c);
                }
            }
        }
    }
    for y in (0..h as i64).rev() {
        for x in (0..w as i64).rev() {
            let i = y as usize * w + x as usize;
            for (dx, dy, c) in backward {
                if let Some(j) = at(x + dx, y + dy) {
                    d[i] = d[i].min(d[j] + c);
                }
            }
        }
    }
    d
}
