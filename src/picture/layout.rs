//! Where each space of a map is drawn: the map file's `draw` lines (maps/FORMAT.md), read
//! here rather than in `game`, which knows the rules and nothing of pictures.
//!
//! # Format
//! ```text
//! draw size <width> <height>      # the board's canvas, in pixels
//! draw <Abbr> <x> <y>             # the centre of a space's box on that canvas
//! draw wrap                       # the canvas is a cylinder: east meets west
//! ```
//! Every space of the map needs one `draw` line; a multi-coast province's coasts are placed
//! by herald on the edge of its box, facing the waters each coast reaches.

use std::collections::HashMap;

use crate::game::ids::{ProvinceId, RegionId};
use crate::game::map::Map;

/// A space's box: width and height in pixels. Labels are drawn inside their box, so two
/// boxes that do not overlap keep their labels apart.
pub const BOX_W: f32 = 52.0;
/// See [`BOX_W`].
pub const BOX_H: f32 = 34.0;
/// The radius of the small circle marking one coast of a multi-coast province.
pub const COAST_R: f32 = 8.0;

/// A problem in a map's drawing lines, with the line it came from (0: the map as a whole).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DrawError {
    /// The 1-based line number, or 0 for a space with no `draw` line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The places of a map's spaces on the canvas, by province index.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The canvas's width in pixels.
    pub width: f32,
    /// The canvas's height in pixels.
    pub height: f32,
    /// The centre of each province's box, by province index.
    pub centres: Vec<(f32, f32)>,
    /// Where each coast of a multi-coast province is marked, by region index (`None` for a
    /// province's own region).
    pub coasts: Vec<Option<(f32, f32)>>,
    /// The canvas wraps east to west (a world map): a link is drawn the short way round.
    pub wrap: bool,
    /// Drawn from shapes: the centre is where a space's name stands, its unit just below.
    pub shaped: bool,
    /// Spaces whose name, centre mark and unit are left to another picture (a world
    /// overview leaves its framed regions' to their own pictures, [`super::region`]), by
    /// province index; empty: every space is drawn.
    pub hidden: Vec<bool>,
    /// The board is a crop of a larger one (a region's picture): what lies beyond its
    /// canvas is cut off at the edge rather than drawn over the title and legend.
    pub clipped: bool,
}

/// A straight piece of a drawn link, from one point to another.
pub type Segment = ((f32, f32), (f32, f32));

fn err(line: usize, message: impl Into<String>) -> DrawError {
    DrawError {
        line,
        message: message.into(),
    }
}

impl Layout {
    /// Reads the `draw` lines of a map file's text, for the map built from that text (at any
    /// phase: scheduled changes keep the provinces and their order). Refuses a malformed
    /// line, an unknown space, a space placed twice and a space not placed.
    pub fn read(text: &str, map: &Map) -> Result<Layout, Vec<DrawError>> {
        let mut errors = Vec::new();
        let mut size = None;
        let mut wrap = false;
        let mut at: Vec<Option<(f32, f32)>> = vec![None; map.province_count()];
        let mut first_line: HashMap<usize, usize> = HashMap::new();
        let by_abbr: HashMap<String, ProvinceId> = map
            .province_ids()
            .map(|p| (map.abbr(p).to_ascii_lowercase(), p))
            .collect();
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            if words.next() != Some("draw") {
                continue;
            }
            let rest: Vec<&str> = words.collect();
            // `draw region <Name>: <Abbr> …` frames a region (read by `super::region`).
            if rest
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case("region"))
            {
                continue;
            }
            if let [word] = rest[..] {
                if word.eq_ignore_ascii_case("wrap") {
                    wrap = true;
                    continue;
                }
            }
            let [what, x, y] = rest[..] else {
                errors.push(err(
                    n,
                    format!("'{line}': expected 'draw <Abbr> <x> <y>' or 'draw size <w> <h>' or 'draw wrap'"),
                ));
                continue;
            };
            let (Ok(x), Ok(y)) = (x.parse::<f32>(), y.parse::<f32>()) else {
                errors.push(err(n, format!("'{line}': the position is two numbers")));
                continue;
            };
            let inside = |v: f32| v.is_finite() && (0.0..=10_000.0).contains(&v);
            if !(inside(x) && inside(y)) {
                errors.push(err(n, format!("'{line}': positions run from 0 to 10000")));
                continue;
            }
            if what.eq_ignore_ascii_case("size") {
                if size.is_some() {
                    errors.push(err(n, "the canvas size is given twice"));
                }
                size = Some((x, y));
                continue;
            }
            let Some(&p) = by_abbr.get(&what.to_ascii_lowercase()) else {
                errors.push(err(n, format!("'{line}': unknown space '{what}'")));
                continue;
            };
            if let Some(first) = first_line.insert(p.index(), n) {
                errors.push(err(
                    n,
                    format!("space '{what}' is placed twice (first on line {first})"),
                ));
            }
            at[p.index()] = Some((x, y));
        }
        let Some((width, height)) = size else {
            errors.push(err(0, "no 'draw size <width> <height>' line"));
            return Err(errors);
        };
        let mut centres = Vec::with_capacity(at.len());
        for (i, place) in at.iter().enumerate() {
            match place {
                Some((x, y)) => {
                    let (x, y) = (*x, *y);
                    if x < BOX_W / 2.0
                        || y < BOX_H / 2.0
                        || x > width - BOX_W / 2.0
                        || y > height - BOX_H / 2.0
                    {
                        let line = first_line.get(&i).copied().unwrap_or(0);
                        errors.push(err(
                            line,
                            format!("space '{}' is drawn off the canvas", map.provinces[i].abbr),
                        ));
                    }
                    centres.push((x, y));
                }
                None => {
                    errors.push(err(
                        0,
                        format!("space '{}' has no 'draw' line", map.provinces[i].abbr),
                    ));
                    centres.push((0.0, 0.0));
                }
            }
        }
        if errors.is_empty() {
            let mut layout = Layout {
                width,
                height,
                centres,
                coasts: vec![None; map.regions.len()],
                wrap,
                shaped: false,
                hidden: Vec::new(),
                clipped: false,
            };
            // Twice: the second time each coast sees where the coasts it faces were put.
            for _ in 0..2 {
                for (i, region) in map.regions.iter().enumerate() {
                    if region.coast.is_some() {
                        let at = layout.place_coast(map, RegionId(i as u16));
                        layout.coasts[i] = Some(at);
                    }
                }
            }
            Ok(layout)
        } else {
            Err(errors)
        }
    }

    /// The centre of a province's box.
    pub fn centre(&self, p: ProvinceId) -> (f32, f32) {
        self.centres.get(p.index()).copied().unwrap_or((0.0, 0.0))
    }

    /// Where a region is drawn: its province's box centre, or the mark of one coast of a
    /// multi-coast province on the box's edge.
    pub fn point(&self, map: &Map, r: RegionId) -> (f32, f32) {
        match self.coasts.get(r.index()).copied().flatten() {
            Some(at) => at,
            None => self.centre(map.province_of(r)),
        }
    }

    /// The copy of `to` nearest `from`: `to` itself, or on a wrapped canvas `to` shifted a
    /// canvas width east or west when that is nearer.
    pub fn nearest(&self, from: (f32, f32), to: (f32, f32)) -> (f32, f32) {
        if !self.wrap {
            return to;
        }
        let dx = to.0 - from.0;
        if dx > self.width / 2.0 {
            (to.0 - self.width, to.1)
        } else if dx < -self.width / 2.0 {
            (to.0 + self.width, to.1)
        } else {
            to
        }
    }

    /// The straight pieces a link between two points is drawn as: one, or on a wrapped
    /// canvas where the short way round crosses the edge, two, each running from one end
    /// off the canvas's edge towards the other end's copy beyond it.
    pub fn segments(&self, p: (f32, f32), q: (f32, f32)) -> Vec<Segment> {
        let near = self.nearest(p, q);
        if near == q {
            vec![(p, q)]
        } else {
            vec![(p, near), (q, self.nearest(q, p))]
        }
    }

    /// A coast's mark: of 32 points around its box's edge, the one whose fleet links run
    /// under the fewest other boxes and whose mark touches no other box nor the province's
    /// other coasts' marks, nearest the direction of the waters the coast reaches.
    fn place_coast(&self, map: &Map, r: RegionId) -> (f32, f32) {
        let province = map.province_of(r);
        let (cx, cy) = self.centre(province);
        let (mut dx, mut dy) = (0.0f32, 0.0f32);
        for &n in map.fleet_neighbours(r) {
            let (x, y) = self.nearest((cx, cy), self.centre(map.province_of(n)));
            let len = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt().max(1.0);
            dx += (x - cx) / len;
            dy += (y - cy) / len;
        }
        let mean = dy.atan2(dx);
        let others: Vec<(f32, f32)> = map
            .province(province)
            .coasts
            .iter()
            .filter(|&&c| c != r)
            .filter_map(|c| self.coasts.get(c.index()).copied().flatten())
            .collect();
        let mut best = ((cx, cy - BOX_H / 2.0), f32::MAX);
        for k in 0..32 {
            let angle = k as f32 * std::f32::consts::TAU / 32.0;
            let (ux, uy) = (angle.cos(), angle.sin());
            let sx = if ux.abs() > 1e-6 {
                (BOX_W / 2.0) / ux.abs()
            } else {
                f32::MAX
            };
            let sy = if uy.abs() > 1e-6 {
                (BOX_H / 2.0) / uy.abs()
            } else {
                f32::MAX
            };
            let at = (cx + ux * sx.min(sy), cy + uy * sx.min(sy));
            let mut cost = 0.0f32;
            for q in map.province_ids().filter(|&q| q != province) {
                let c = self.centre(q);
                if (at.0 - c.0).abs() < BOX_W / 2.0 + COAST_R
                    && (at.1 - c.1).abs() < BOX_H / 2.0 + COAST_R
                {
                    cost += 100.0;
                }
                for &n in map.fleet_neighbours(r) {
                    if map.province_of(n) == q {
                        continue;
                    }
                    for (a, b) in self.segments(at, self.point(map, n)) {
                        if segment_hits_box(a, b, c, 2.0) {
                            cost += 10.0;
                        }
                    }
                }
            }
            for o in &others {
                if (o.0 - at.0).hypot(o.1 - at.1) < 2.0 * COAST_R + 3.0 {
                    cost += 100.0;
                }
            }
            let turn = (angle - mean).sin().atan2((angle - mean).cos()).abs();
            cost += turn;
            if cost < best.1 {
                best = (at, cost);
            }
        }
        best.0
    }
}

impl Layout {
    /// Whether a space's name, centre mark and unit are drawn on this picture (see
    /// [`Layout::hidden`]).
    pub fn shown(&self, p: ProvinceId) -> bool {
        !self.hidden.get(p.index()).copied().unwrap_or(false)
    }

    /// What makes the drawing misleading on `map`: two boxes overlapping, a coast's mark
    /// touching another space's box, a link running under a third box (it would read as a
    /// link to it). Each problem one line.
    pub fn problems(&self, map: &Map) -> Vec<String> {
        let mut out = Vec::new();
        let n = map.province_count();
        for a in 0..n {
            for b in a + 1..n {
                if boxes_overlap(self.centres[a], self.centres[b]) {
                    out.push(format!(
                        "the boxes of {} and {} overlap",
                        map.provinces[a].abbr, map.provinces[b].abbr
                    ));
                }
            }
        }
        for (i, region) in map.regions.iter().enumerate() {
            if region.coast.is_none() {
                continue;
            }
            let r = RegionId(i as u16);
            let (x, y) = self.point(map, r);
            for q in map.province_ids().filter(|&q| q != region.province) {
                let (cx, cy) = self.centre(q);
                if (x - cx).abs() < BOX_W / 2.0 + COAST_R && (y - cy).abs() < BOX_H / 2.0 + COAST_R
                {
                    out.push(format!(
                        "the mark of {} touches the box of {}",
                        map.region_abbr(r),
                        map.abbr(q)
                    ));
                }
            }
        }
        for (a, b, _) in super::links::links(map) {
            let (pa, pb) = (map.province_of(a), map.province_of(b));
            let pieces = self.segments(self.point(map, a), self.point(map, b));
            for c in map.province_ids().filter(|&c| c != pa && c != pb) {
                if pieces
                    .iter()
                    .any(|&(p, q)| segment_hits_box(p, q, self.centre(c), 2.0))
                {
                    out.push(format!(
                        "the line {}-{} runs under the box of {}",
                        map.region_abbr(a),
                        map.region_abbr(b),
                        map.abbr(c)
                    ));
                }
            }
        }
        out
    }
}

/// Does the segment p–q pass through the box centred at c, shrunk by `inset` on each side?
pub fn segment_hits_box(p: (f32, f32), q: (f32, f32), c: (f32, f32), inset: f32) -> bool {
    let (x0, x1) = (c.0 - BOX_W / 2.0 + inset, c.0 + BOX_W / 2.0 - inset);
    let (y0, y1) = (c.1 - BOX_H / 2.0 + inset, c.1 + BOX_H / 2.0 - inset);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    for (pp, qq) in [
        (-dx, p.0 - x0),
        (dx, x1 - p.0),
        (-dy, p.1 - y0),
        (dy, y1 - p.1),
    ] {
        if pp == 0.0 {
            if qq < 0.0 {
                return false;
            }
        } else {
            let t = qq / pp;
            if pp < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 < t1
}

/// Two boxes overlap (touching edges do not count).
pub fn boxes_overlap(a: (f32, f32), b: (f32, f32)) -> bool {
    (a.0 - b.0).abs() < BOX_W && (a.1 - b.1).abs() < BOX_H
}
