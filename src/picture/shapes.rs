//! A map's territories as shapes (`maps/<map>.shapes`, carved once by `herald map shapes`
//! from real geography, [`super::carve`]): each space's outline, the place of its name and
//! units, the place of each coast's fleet, and the marks of links across water. Read here;
//! the daemon never computes geography.
//!
//! # Format
//! ```text
//! shapes <map>                      # the map these shapes are for
//! size <w> <h>                      # the grid, in grid units
//! scale <pixels per grid unit>
//! wrap                              # the board goes round the globe: its left and right
//!                                   # edges are one meridian (a world map)
//! space <Abbr> <x> <y> <path>       # the name's place, then the outline (SVG path data:
//!                                   # M, L and Z with integer grid units)
//! none <path>                       # land that is no space
//! coast <Abbr>/<coast> <x> <y>      # where a fleet on that coast stands
//! link <Abbr> <Abbr> <x1> <y1> <x2> <y2>   # neighbours across water: a drawn mark
//! ```

use std::collections::HashMap;

use super::layout::Layout;
use crate::game::ids::ProvinceId;
use crate::game::map::Map;

/// The standard map's shapes (drawn for the standard and Portage games).
const STANDARD: &str = include_str!("../../maps/standard.shapes");
/// Classical's shapes (the ancient Mediterranean).
const CLASSICAL: &str = include_str!("../../maps/classical.shapes");
/// Deluge II's shapes: the standard board's outlines and Iceland; the floods re-colour them.
const DELUGE: &str = include_str!("../../maps/deluge.shapes");
/// The 1880 world's shapes: the whole globe, its left and right edges joined across the
/// Pacific.
const WORLD1880: &str = include_str!("../../maps/world1880.shapes");

/// The shapes text of a built-in map, by the map's name.
pub fn builtin(map_name: &str) -> Option<&'static str> {
    match map_name.to_ascii_lowercase().as_str() {
        "standard" => Some(STANDARD),
        "classical" => Some(CLASSICAL),
        "deluge" => Some(DELUGE),
        "world1880" => Some(WORLD1880),
        _ => None,
    }
}

/// One space's shape.
#[derive(Clone, Debug, PartialEq)]
pub struct SpaceShape {
    /// Where its name and units stand, grid units.
    pub at: (f32, f32),
    /// Its outline: SVG path data in grid units.
    pub path: String,
}

/// Two spaces joined across water, with the two ends of their mark (grid units).
pub type Link = (ProvinceId, ProvinceId, (f32, f32), (f32, f32));

/// A map's shapes, read and matched to the map.
#[derive(Clone, Debug, PartialEq)]
pub struct Shapes {
    /// The grid's width, grid units.
    pub width: f32,
    /// The grid's height, grid units.
    pub height: f32,
    /// Pixels per grid unit.
    pub scale: f32,
    /// Each space's shape, by province index.
    pub spaces: Vec<SpaceShape>,
    /// Land of no space.
    pub none: String,
    /// Where a fleet stands on each coast of a multi-coast province, by region index.
    pub coasts: Vec<Option<(f32, f32)>>,
    /// Neighbours across water, with the two ends of their mark.
    pub links: Vec<Link>,
    /// Neighbours joined by a rule, not by geography (the 1880 world's oceans, M.1: "Units
    /// commencing their turn in an ocean area may move to any other ocean zone"): a line
    /// between them would cross land, so each end has its own labelled mark, naming the
    /// other.
    pub joins: Vec<Link>,
    /// The board goes round the globe: a space on its left edge borders the space on its
    /// right edge beside it (the world map's seam across the Pacific).
    pub wrap: bool,
}

fn num(w: Option<&str>) -> Option<f32> {
    w?.parse::<f32>().ok().filter(|v| v.is_finite())
}

impl Shapes {
    /// Reads a shapes text for `map`; refuses a malformed line, an unknown space or coast,
    /// a space given twice and a space left out.
    pub fn read(text: &str, map: &Map) -> Result<Shapes, Vec<String>> {
        let by_abbr: HashMap<String, ProvinceId> = map
            .province_ids()
            .map(|p| (map.abbr(p).to_ascii_lowercase(), p))
            .collect();
        let mut errors = Vec::new();
        let (mut width, mut height, mut scale) = (0.0, 0.0, 1.0);
        let mut spaces: Vec<Option<SpaceShape>> = vec![None; map.province_count()];
        let mut coasts = vec![None; map.regions.len()];
        let mut links = Vec::new();
        let mut joins = Vec::new();
        let mut none = String::new();
        let mut wrap = false;
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut words = line.splitn(5, ' ');
            let key = words.next().unwrap_or("");
            let mut bad = |what: &str| errors.push(format!("shapes line {n}: {what}"));
            match key {
                "shapes" => {}
                "size" => match (num(words.next()), num(words.next())) {
                    (Some(w), Some(h)) if w > 0.0 && h > 0.0 => (width, height) = (w, h),
                    _ => bad("size <w> <h>"),
                },
                "scale" => match num(words.next()) {
                    Some(s) if s > 0.0 => scale = s,
                    _ => bad("scale <positive number>"),
                },
                "space" => {
                    let abbr = words.next().unwrap_or("").to_ascii_lowercase();
                    let (x, y) = (num(words.next()), num(words.next()));
                    let path = words.next().unwrap_or("").to_string();
                    match (by_abbr.get(&abbr), x, y) {
                        (Some(&p), Some(x), Some(y)) => {
                            if spaces[p.index()].is_some() {
                                bad(&format!("space '{abbr}' given twice"));
                            }
                            spaces[p.index()] = Some(SpaceShape { at: (x, y), path });
                        }
                        (None, ..) => bad(&format!("unknown space '{abbr}'")),
                        _ => bad("space <Abbr> <x> <y> <path>"),
                    }
                }
                "wrap" => wrap = true,
                "none" => none = line[4..].trim().to_string(),
                "coast" => {
                    let abbr = words.next().unwrap_or("");
                    let region = (0..map.regions.len())
                        .map(|r| crate::game::ids::RegionId(r as u16))
                        .find(|&r| map.region_abbr(r).eq_ignore_ascii_case(abbr));
                    // A coast the map has in other years only (Deluge's floods join or part
                    // a province's waters): its place is not needed this year.
                    let elsewhen = region.is_none()
                        && abbr
                            .split_once('/')
                            .is_some_and(|(p, _)| by_abbr.contains_key(&p.to_ascii_lowercase()));
                    match (region, num(words.next()), num(words.next())) {
                        (Some(r), Some(x), Some(y)) => coasts[r.index()] = Some((x, y)),
                        (None, Some(_), Some(_)) if elsewhen => {}
                        _ => bad(&format!("coast '{abbr}': unknown coast or bad place")),
                    }
                }
                "link" | "join" => {
                    let rest: Vec<&str> = line.split_whitespace().skip(1).collect();
                    let v: Vec<f32> = rest.iter().skip(2).filter_map(|w| num(Some(w))).collect();
                    let find = |i: usize| {
                        rest.get(i)
                            .and_then(|w| by_abbr.get(&w.to_ascii_lowercase()))
                    };
                    match (find(0), find(1), &v[..]) {
                        (Some(&a), Some(&b), &[x1, y1, x2, y2]) => {
                            let to = if key == "join" {
                                &mut joins
                            } else {
                                &mut links
                            };
                            to.push((a, b, (x1, y1), (x2, y2)));
                        }
                        _ => bad(&format!("{key} <Abbr> <Abbr> <x1> <y1> <x2> <y2>")),
                    }
                }
                _ => bad(&format!("unknown keyword '{key}'")),
            }
        }
        let mut out = Vec::with_capacity(spaces.len());
        for (p, s) in map.province_ids().zip(spaces) {
            match s {
                Some(s) => out.push(s),
                None => errors.push(format!("shapes: space '{}' has no shape", map.abbr(p))),
            }
        }
        if width <= 0.0 {
            errors.push("shapes: no size line".to_string());
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Shapes {
            width,
            height,
            scale,
            spaces: out,
            none,
            coasts,
            links,
            joins,
            wrap,
        })
    }

    /// The picture's canvas in pixels.
    pub fn canvas(&self) -> (f32, f32) {
        (
            (self.width * self.scale).round(),
            (self.height * self.scale).round(),
        )
    }

    /// The places of the spaces in pixels, as the order layer reads them: each space's
    /// name place, each coast's fleet place.
    pub fn layout(&self) -> Layout {
        let (width, height) = self.canvas();
        let s = self.scale;
        Layout {
            width,
            height,
            centres: self
                .spaces
                .iter()
                .map(|sp| (sp.at.0 * s, sp.at.1 * s))
                .collect(),
            coasts: self
                .coasts
                .iter()
                .map(|c| c.map(|(x, y)| (x * s, y * s)))
                .collect(),
            wrap: self.wrap,
            shaped: true,
            hidden: Vec::new(),
            clipped: false,
        }
    }
}

impl Shapes {
    /// Whether a point (pixels of the board) lies inside a space's outline.
    pub fn contains(&self, p: ProvinceId, (x, y): (f32, f32)) -> bool {
        self.spaces
            .get(p.index())
            .is_some_and(|sp| inside(&rings(&sp.path), (x / self.scale, y / self.scale)))
    }

    /// The bends of a mark from `a` in space `p` to `b` in its neighbour `q` (pixels) that
    /// keep it inside the two spaces: none when the straight line stays inside them, else
    /// the corners of the shortest way found on a grid of [`WAY_CELL`] px cells over the two
    /// outlines (a fleet's leg keeps to its waters: Mao to Wes round Iberia, not over it);
    /// none when no way joins them.
    pub fn way(
        &self,
        p: ProvinceId,
        q: ProvinceId,
        a: (f32, f32),
        b: (f32, f32),
    ) -> Vec<(f32, f32)> {
        let (Some(sp), Some(sq)) = (self.spaces.get(p.index()), self.spaces.get(q.index())) else {
            return Vec::new();
        };
        let k = self.scale;
        let outlines: Vec<Vec<(f32, f32)>> = rings(&sp.path)
            .into_iter()
            .chain(rings(&sq.path))
            .map(|r| {
                r.iter()
                    .map(|&(x, y)| (x as f32 * k, y as f32 * k))
                    .collect()
            })
            .collect();
        let split = rings(&sp.path).len();
        WayGrid::fill(&outlines, split, a, b).way(a, b)
    }
}

/// The side of a cell of the grid [`Shapes::way`] searches, pixels.
pub const WAY_CELL: f32 = 4.0;

/// The cells inside either of two spaces, over the box round both and the mark's ends.
struct WayGrid {
    x0: f32,
    y0: f32,
    w: usize,
    h: usize,
    inside: Vec<bool>,
}

impl WayGrid {
    /// Fills the cells whose middles lie inside the first `split` rings (one space, even-odd)
    /// or inside the rest (the other), row by row.
    fn fill(outlines: &[Vec<(f32, f32)>], split: usize, a: (f32, f32), b: (f32, f32)) -> WayGrid {
        let (mut lo, mut hi) = ((a.0.min(b.0), a.1.min(b.1)), (a.0.max(b.0), a.1.max(b.1)));
        for &(x, y) in outlines.iter().flatten() {
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        let (x0, y0) = (lo.0 - WAY_CELL, lo.1 - WAY_CELL);
        let w = ((hi.0 - x0) / WAY_CELL) as usize + 2;
        let h = ((hi.1 - y0) / WAY_CELL) as usize + 2;
        let mut inside = vec![false; w * h];
        let mut xs: Vec<f32> = Vec::new();
        for row in 0..h {
            let y = y0 + (row as f32 + 0.5) * WAY_CELL;
            for part in [&outlines[..split], &outlines[split..]] {
                xs.clear();
                for ring in part {
                    for i in 0..ring.len() {
                        let (u, v) = (ring[i], ring[(i + 1) % ring.len()]);
                        if (u.1 > y) != (v.1 > y) {
                            xs.push(u.0 + (y - u.1) * (v.0 - u.0) / (v.1 - u.1));
                        }
                    }
                }
                xs.sort_by(f32::total_cmp);
                for pair in xs.chunks_exact(2) {
                    let from = ((pair[0] - x0) / WAY_CELL - 0.5).ceil().max(0.0) as usize;
                    let to = ((pair[1] - x0) / WAY_CELL - 0.5).floor();
                    if to < 0.0 {
                        continue;
                    }
                    for col in from..=(to as usize).min(w - 1) {
                        inside[row * w + col] = true;
                    }
                }
            }
        }
        WayGrid {
            x0,
            y0,
            w,
            h,
            inside,
        }
    }

    fn cell(&self, (x, y): (f32, f32)) -> Option<usize> {
        let (c, r) = ((x - self.x0) / WAY_CELL, (y - self.y0) / WAY_CELL);
        (c >= 0.0 && r >= 0.0 && (c as usize) < self.w && (r as usize) < self.h)
            .then(|| r as usize * self.w + c as usize)
    }

    fn middle(&self, i: usize) -> (f32, f32) {
        (
            self.x0 + ((i % self.w) as f32 + 0.5) * WAY_CELL,
            self.y0 + ((i / self.w) as f32 + 0.5) * WAY_CELL,
        )
    }

    /// Whether the straight line from `a` to `b` keeps to inside cells (sampled every
    /// half cell).
    fn clear(&self, a: (f32, f32), b: (f32, f32)) -> bool {
        let n = ((a.0 - b.0).hypot(a.1 - b.1) / (WAY_CELL / 2.0)).ceil() as usize;
        (1..n).all(|i| {
            let t = i as f32 / n as f32;
            let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            self.cell(p).is_some_and(|c| self.inside[c])
        })
    }

    /// The inside cell nearest `p` within a few cells (a chip's middle on a border).
    fn near(&self, p: (f32, f32)) -> Option<usize> {
        let c = self.cell(p)?;
        let (col, row) = ((c % self.w) as i64, (c / self.w) as i64);
        (0..4i64).find_map(|d| {
            (-d..=d)
                .flat_map(|dr| (-d..=d).map(move |dc| (row + dr, col + dc)))
                .filter(|&(r, c)| {
                    r >= 0 && c >= 0 && (r as usize) < self.h && (c as usize) < self.w
                })
                .map(|(r, c)| r as usize * self.w + c as usize)
                .find(|&i| self.inside[i])
        })
    }

    /// The bends of the shortest way from `a` to `b` over inside cells (breadth first,
    /// eight neighbours), pulled straight wherever a line keeps inside.
    fn way(&self, a: (f32, f32), b: (f32, f32)) -> Vec<(f32, f32)> {
        if self.clear(a, b) {
            return Vec::new();
        }
        let (Some(from), Some(to)) = (self.near(a), self.near(b)) else {
            return Vec::new();
        };
        let mut came = vec![usize::MAX; self.inside.len()];
        came[from] = from;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(i) = queue.pop_front() {
            if i == to {
                break;
            }
            let (col, row) = ((i % self.w) as i64, (i / self.w) as i64);
            for (dr, dc) in [
                (0, 1),
                (1, 0),
                (0, -1),
                (-1, 0),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let (r, c) = (row + dr, col + dc);
                if r < 0 || c < 0 || r as usize >= self.h || c as usize >= self.w {
                    continue;
                }
                let j = r as usize * self.w + c as usize;
                if self.inside[j] && came[j] == usize::MAX {
                    came[j] = i;
                    queue.push_back(j);
                }
            }
        }
        if came[to] == usize::MAX {
            return Vec::new();
        }
        let mut cells = vec![to];
        while *cells.last().unwrap_or(&from) != from {
            let last = cells[cells.len() - 1];
            cells.push(came[last]);
        }
        cells.reverse();
        let mut path: Vec<(f32, f32)> = cells.iter().map(|&c| self.middle(c)).collect();
        path[0] = a;
        let n = path.len();
        path[n - 1] = b;
        let mut bends = Vec::new();
        let mut at = 0;
        while at < n - 1 {
            let next = (at + 1..n)
                .rev()
                .find(|&j| self.clear(path[at], path[j]))
                .unwrap_or(at + 1);
            if next != n - 1 {
                bends.push(path[next]);
            }
            at = next;
        }
        bends
    }
}

/// Whether a point (grid units) lies inside an outline's rings (even-odd).
pub fn inside(rings: &[Vec<(i32, i32)>], (x, y): (f32, f32)) -> bool {
    let mut odd = false;
    for ring in rings {
        for k in 0..ring.len() {
            let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
            let (ax, ay, bx, by) = (a.0 as f32, a.1 as f32, b.0 as f32, b.1 as f32);
            if (ay > y) != (by > y) && x < ax + (y - ay) * (bx - ax) / (by - ay) {
                odd = !odd;
            }
        }
    }
    odd
}

/// The rings of an outline's path data (`M x y L x y … Z`), as integer points.
pub fn rings(path: &str) -> Vec<Vec<(i32, i32)>> {
    let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
    let mut ring: Vec<(i32, i32)> = Vec::new();
    let mut number = String::new();
    let mut pending: Option<i32> = None;
    let flush = |number: &mut String, pending: &mut Option<i32>, ring: &mut Vec<(i32, i32)>| {
        if let Ok(v) = number.parse::<i32>() {
            match pending.take() {
                None => *pending = Some(v),
                Some(x) => ring.push((x, v)),
            }
        }
        number.clear();
    };
    for c in path.chars() {
        match c {
            '0'..='9' | '-' => number.push(c),
            'M' | 'L' | ' ' => flush(&mut number, &mut pending, &mut ring),
            'Z' => {
                flush(&mut number, &mut pending, &mut ring);
                if !ring.is_empty() {
                    out.push(std::mem::take(&mut ring));
                }
            }
            _ => {}
        }
    }
    flush(&mut number, &mut pending, &mut ring);
    if !ring.is_empty() {
        out.push(ring);
    }
    out
}
