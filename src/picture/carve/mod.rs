//! `herald map shapes`: carves a map's territories out of real geography, once, for a keeper.
//! The land (Natural Earth's, public domain) is projected onto a grid; each land cell goes
//! to the nearest seed of a land space, each water cell to the nearest seed of a sea, as the
//! keeper's plan (`maps/<map>.seeds`, [`plan`]) places them; the borders between the cells'
//! spaces become the outlines written to `maps/<map>.shapes` ([`crate::picture::shapes`]).
//! The daemon never runs this: it reads the stored shapes.

pub mod grid;
pub mod plan;
pub mod topojson;
pub mod trace;

use std::fmt::Write;

use resvg::tiny_skia;

use crate::game::map::Map;
use plan::Plan;

/// Why the shapes could not be carved.
#[derive(Debug, thiserror::Error)]
pub enum CarveError {
    /// A line of the plan is wrong.
    #[error("the plan, line {0}: {1}")]
    Plan(usize, String),
    /// The land data could not be read.
    #[error("the land data: {0}")]
    Land(String),
    /// The plan does not fit the map.
    #[error("{0}")]
    Map(String),
}

/// Lambert azimuthal equal-area projection about `centre` (degrees in, unit sphere out,
/// north up).
fn project(centre: (f64, f64), lon: f64, lat: f64) -> (f64, f64) {
    let (l0, p0) = (centre.0.to_radians(), centre.1.to_radians());
    let (l, p) = (lon.to_radians(), lat.to_radians());
    let k = (2.0 / (1.0 + p0.sin() * p.sin() + p0.cos() * p.cos() * (l - l0).cos())).sqrt();
    (
        k * p.cos() * (l - l0).sin(),
        k * (p0.cos() * p.sin() - p0.sin() * p.cos() * (l - l0).cos()),
    )
}

/// The Miller cylindrical projection's northing of a latitude (degrees in, unit sphere out):
/// the projection of a board that goes round the globe.
fn miller(lat: f64) -> f64 {
    1.25 * (std::f64::consts::FRAC_PI_4 + 0.4 * lat.to_radians())
        .tan()
        .ln()
}

/// Longitudes made continuous along a line or ring: each point moved by whole turns to lie
/// within half a turn of the one before (so a line across the seam does not go round the
/// globe), the first into the frame `[west, west + 360)`.
fn unwrapped(points: &[(f64, f64)], west: f64) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for &(lon, lat) in points {
        let lon = match out.last() {
            None => west + (lon - west).rem_euclid(360.0),
            Some(&(prev, _)) => lon + ((prev - lon) / 360.0).round() * 360.0,
        };
        out.push((lon, lat));
    }
    out
}

/// A lens in projected units: its centre (after the lenses before it), its radius and its
/// factor.
type Warp = ((f64, f64), f64, f64);

/// Moves a projected point by a lens: magnified `factor` times at the centre, the
/// magnification fading with distance (radial growth `1 + (factor - 1) / (1 + (r/a)²)`), so
/// the rest of the board moves outwards unshrunk and nothing folds.
fn warp(((cx, cy), a, factor): Warp, (x, y): (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (x - cx, y - cy);
    let r = dx.hypot(dy);
    if r == 0.0 {
        return (x, y);
    }
    let grown = r + (factor - 1.0) * a * (r / a).atan();
    (cx + dx * grown / r, cy + dy * grown / r)
}

/// Degrees to grid units, for one plan.
struct Frame {
    centre: (f64, f64),
    /// The west edge of a board that goes round the globe (Miller projection, left and
    /// right edges joined); `None` for a board about `centre`.
    wrap: Option<f64>,
    warps: Vec<Warp>,
    x0: f64,
    y1: f64,
    k: f64,
    w: usize,
    h: usize,
}

impl Frame {
    fn new(plan: &Plan) -> Frame {
        if plan.wrap {
            let (west, _, south, north) = plan.frame;
            let k = f64::from(plan.width) / std::f64::consts::TAU;
            return Frame {
                centre: plan.centre,
                wrap: Some(west),
                warps: Vec::new(),
                x0: west.to_radians(),
                y1: miller(north),
                k,
                w: plan.width as usize,
                h: ((miller(north) - miller(south)) * k).ceil() as usize,
            };
        }
        let mut warps: Vec<Warp> = Vec::new();
        for lens in &plan.lenses {
            let c = project(plan.centre, lens.at.0, lens.at.1);
            let c = warps.iter().fold(c, |p, &w| warp(w, p));
            warps.push((c, lens.radius.to_radians(), lens.factor));
        }
        let (west, east, south, north) = plan.frame;
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for i in 0..=100 {
            let t = f64::from(i) / 100.0;
            for (lon, lat) in [
                (west + t * (east - west), south),
                (west + t * (east - west), north),
                (west, south + t * (north - south)),
                (east, south + t * (north - south)),
            ] {
                let (x, y) = warps
                    .iter()
                    .fold(project(plan.centre, lon, lat), |p, &w| warp(w, p));
                xs.push(x);
                ys.push(y);
            }
        }
        let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (x0, x1, y0, y1) = (min(&xs), max(&xs), min(&ys), max(&ys));
        let k = f64::from(plan.width) / (x1 - x0);
        Frame {
            centre: plan.centre,
            wrap: None,
            warps,
            x0,
            y1,
            k,
            w: plan.width as usize,
            h: ((y1 - y0) * k).ceil() as usize,
        }
    }

    /// A point's place on the grid; on a board that wraps, in the frame's turn.
    fn at(&self, lon: f64, lat: f64) -> (f64, f64) {
        match self.wrap {
            Some(west) => self.at_unwrapped(west + (lon - west).rem_euclid(360.0), lat),
            None => self.at_unwrapped(lon, lat),
        }
    }

    /// A point's place on the grid, its longitude taken as it is (on a board that wraps, a
    /// longitude past the east edge lies right of the grid).
    fn at_unwrapped(&self, lon: f64, lat: f64) -> (f64, f64) {
        if self.wrap.is_some() {
            return (
                (lon.to_radians() - self.x0) * self.k,
                (self.y1 - miller(lat)) * self.k,
            );
        }
        let (x, y) = self
            .warps
            .iter()
            .fold(project(self.centre, lon, lat), |p, &w| warp(w, p));
        ((x - self.x0) * self.k, (self.y1 - y) * self.k)
    }

    /// The cells inside polygons (even-odd), sampled at their centres.
    fn fill(&self, rings: &[Vec<(f64, f64)>]) -> Result<Vec<bool>, CarveError> {
        let mut pb = tiny_skia::PathBuilder::new();
        let mut put = |ring: &[(f64, f64)], shift: f64| {
            for (i, &(lon, lat)) in ring.iter().enumerate() {
                let (x, y) = self.at_unwrapped(lon + shift, lat);
                if i == 0 {
                    pb.move_to(x as f32, y as f32);
                } else {
                    pb.line_to(x as f32, y as f32);
                }
            }
            pb.close();
        };
        for ring in rings {
            match self.wrap {
                None => put(ring, 0.0),
                Some(west) => {
                    // A ring made continuous, drawn a turn either side as well, so the part
                    // past one edge comes in at the other. A ring round a pole does not
                    // close when made continuous: it is drawn as its data gives it.
                    let line = unwrapped(ring, west);
                    let closes = match (line.first(), line.last()) {
                        (Some(a), Some(b)) => (a.0 - b.0).abs() < 180.0,
                        _ => true,
                    };
                    if closes {
                        for shift in [-360.0, 0.0, 360.0] {
                            put(&line, shift);
                        }
                    } else {
                        put(ring, 0.0);
                    }
                }
            }
        }
        let mut out = vec![false; self.w * self.h];
        let Some(path) = pb.finish() else {
            return Ok(out);
        };
        let mut pixmap = tiny_skia::Pixmap::new(self.w as u32, self.h as u32)
            .ok_or_else(|| CarveError::Map("the grid is too large".into()))?;
        let mut paint = tiny_skia::Paint::default();
        paint.set_color_rgba8(0, 0, 0, 255);
        paint.anti_alias = false;
        pixmap.fill_path(
            &path,
            &paint,
            tiny_skia::FillRule::EvenOdd,
            tiny_skia::Transform::identity(),
            None,
        );
        for (o, p) in out.iter_mut().zip(pixmap.pixels()) {
            *o = p.alpha() > 127;
        }
        Ok(out)
    }

    /// The cells along a line through points (one cell for a single point).
    fn cells_along(&self, points: &[(f64, f64)]) -> Vec<usize> {
        let grid: Vec<(f64, f64)> = match self.wrap {
            Some(west) => unwrapped(points, west)
                .into_iter()
                .map(|(lon, lat)| self.at_unwrapped(lon, lat))
                .collect(),
            None => points.iter().map(|&(lon, lat)| self.at(lon, lat)).collect(),
        };
        let mut out = Vec::new();
        let wrap = self.wrap.is_some();
        let mut put = |x: f64, y: f64| {
            let x = if wrap { x.rem_euclid(self.w as f64) } else { x };
            if x >= 0.0 && y >= 0.0 && (x as usize) < self.w && (y as usize) < self.h {
                out.push(y as usize * self.w + x as usize);
            }
        };
        if let [only] = grid[..] {
            put(only.0, only.1);
        }
        for pair in grid.windows(2) {
            let ((ax, ay), (bx, by)) = (pair[0], pair[1]);
            let steps = ((bx - ax).hypot(by - ay) * 2.0).ceil().max(1.0) as usize;
            for s in 0..=steps {
                let t = s as f64 / steps as f64;
                put(ax + t * (bx - ax), ay + t * (by - ay));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A polygon of the plan with points added along its long sides (at most a quarter degree
/// apart), so that it stays true to its degrees through a curved projection and the
/// lenses. (Not for the land: its rings are dense already, and a side along the date line
/// would be drawn round the globe.)
fn dense(ring: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(ring.len());
    for (i, &a) in ring.iter().enumerate() {
        out.push(a);
        if let Some(&b) = ring.get(i + 1).or(ring.first().filter(|_| ring.len() > 2)) {
            let steps = ((b.0 - a.0).hypot(b.1 - a.1) * 4.0).ceil().min(4000.0) as usize;
            for s in 1..steps {
                let t = s as f64 / steps as f64;
                out.push((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)));
            }
        }
    }
    out
}

/// Land components smaller than this many cells with no seed become water.
const SPECK: usize = 40;
/// How far (grid units) a simplified border may stray from the cells' border.
const TOLERANCE: f64 = 1.0;

/// Carves the shapes of `map` by the plan `plan_text` from the land of a TopoJSON text
/// (object `land`), and writes them in the shapes format.
pub fn carve(
    map: &Map,
    plan_text: &str,
    land_json: &str,
    made_by: &str,
) -> Result<String, CarveError> {
    carve_years(map, &[], plan_text, land_json, made_by)
}

/// [`carve`] for a map whose coasts change with the years (Deluge's floods): `later` are
/// the map after each scheduled change, the same spaces; each coast any of them has gets
/// its fleet's place, facing the waters of the first year that has it.
pub fn carve_years(
    map: &Map,
    later: &[&Map],
    plan_text: &str,
    land_json: &str,
    made_by: &str,
) -> Result<String, CarveError> {
    let plan = Plan::read(plan_text)?;
    let frame = Frame::new(&plan);
    let (w, h) = (frame.w, frame.h);
    let rings = topojson::rings(land_json, "land")?;
    let mut land = frame.fill(&rings)?;
    for (to_land, polygon) in &plan.force {
        // A plan's polygon has few corners: through lenses its sides follow their degrees.
        let ring = if plan.lenses.is_empty() {
            polygon.clone()
        } else {
            dense(polygon)
        };
        let inside = frame.fill(&[ring])?;
        for (l, i) in land.iter_mut().zip(inside) {
            if i {
                *l = *to_land;
            }
        }
    }
    let n = map.province_count();
    let none = n as u16;
    let out = none + 1;
    // Seeds, by label, with the kind of cell each may take.
    let mut seeds: Vec<(usize, u16)> = Vec::new();
    let mut problems = Vec::new();
    let mut seeded = vec![false; n];
    for (abbr, points) in &plan.seeds {
        let (label, wants_land) = match abbr {
            None => (none, true),
            Some(a) => {
                let Some(p) = map
                    .province_ids()
                    .find(|&p| map.abbr(p).eq_ignore_ascii_case(a))
                else {
                    problems.push(format!("seed for unknown space '{a}'"));
                    continue;
                };
                seeded[p.index()] = true;
                (p.index() as u16, !map.province(p).terrain.is_water())
            }
        };
        let cells: Vec<usize> = frame
            .cells_along(points)
            .into_iter()
            .filter(|&i| land[i] == wants_land)
            .collect();
        // Land of no space may lie outside the frame; a space's seed may not.
        if cells.is_empty() && abbr.is_some() {
            problems.push(format!(
                "the seed {} {:?} lies on no {} inside the frame",
                abbr.as_deref().unwrap_or("none"),
                points.first(),
                if wants_land { "land" } else { "water" }
            ));
        }
        seeds.extend(cells.into_iter().map(|i| (i, label)));
    }
    for p in map.province_ids() {
        if !seeded[p.index()] {
            problems.push(format!("space '{}' has no seed", map.abbr(p)));
        }
    }
    if !problems.is_empty() {
        return Err(CarveError::Map(problems.join("\n")));
    }
    // Specks of land with no seed go under; water no sea's seed reaches is a lake: land.
    let mut is_seed = vec![false; w * h];
    for &(i, _) in &seeds {
        is_seed[i] = true;
    }
    let (comp, sizes) = grid::components(&land, w, h, plan.wrap, true);
    let mut comp_seeded = vec![false; sizes.len()];
    for (i, &c) in comp.iter().enumerate() {
        if c != u32::MAX && is_seed[i] {
            comp_seeded[c as usize] = true;
        }
    }
    for (i, &c) in comp.iter().enumerate() {
        if c != u32::MAX && !comp_seeded[c as usize] && sizes[c as usize] < SPECK {
            land[i] = false;
        }
    }
    let water_seeds: Vec<usize> = seeds.iter().filter(|s| !land[s.0]).map(|s| s.0).collect();
    let sea = grid::reach(w, h, plan.wrap, &water_seeds, |i| !land[i]);
    for (l, s) in land.iter_mut().zip(&sea) {
        if !*l && !*s {
            *l = true;
        }
    }
    let labels = grid::label(w, h, plan.wrap, &land, &seeds, none);
    // The deepest cell of each space: where its name and units go.
    let depth = grid::depth(&labels, w, h);
    let mut best: Vec<Option<(u32, usize)>> = vec![None; n];
    for (i, (&l, &d)) in labels.iter().zip(&depth).enumerate() {
        if let Some(b) = best.get_mut(l as usize) {
            if b.is_none_or(|(bd, _)| d > bd) {
                *b = Some((d, i));
            }
        }
    }
    let arcs: Vec<trace::Arc> = trace::arcs(&labels, w, h, out)
        .iter()
        .filter_map(|a| trace::simplify(a, TOLERANCE))
        .collect();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# herald shapes for the map '{}': each space's outline, carved by herald from real\n\
         # geography (the land below; borders between spaces from the seeds of the plan).\n\
         # Land: {}\n\
         # Made by: {made_by}\n\
         # The format is described in maps/FORMAT.md (\"Shapes\"). Do not edit by hand: change the\n\
         # seeds and carve again.",
        map.name, plan.source
    );
    let _ = writeln!(text, "shapes {}", map.name);
    let _ = writeln!(text, "size {w} {h}");
    let _ = writeln!(text, "scale {}", plan.scale);
    if plan.wrap {
        let _ = writeln!(text, "wrap");
    }
    for p in map.province_ids() {
        let label = p.index() as u16;
        let Some((_, at)) = best[p.index()] else {
            return Err(CarveError::Map(format!(
                "space '{}' got no cell: its seeds are taken by others",
                map.abbr(p)
            )));
        };
        let (x, y) = match plan
            .labels
            .iter()
            .find(|(a, _)| a.eq_ignore_ascii_case(map.abbr(p)))
        {
            Some((_, (lon, lat))) => {
                let (x, y) = frame.at(*lon, *lat);
                let (x, y) = (x.round() as usize, y.round() as usize);
                // A name must stand on its own space, a few cells in.
                let on = |dx: i64, dy: i64| {
                    let (cx, cy) = (x as i64 + dx, y as i64 + dy);
                    cx >= 0
                        && cy >= 0
                        && (cx as usize) < w
                        && labels.get(cy as usize * w + cx as usize) == Some(&label)
                };
                if ![(0, 0), (-12, 0), (12, 0), (0, -12), (0, 12)]
                    .iter()
                    .all(|&(dx, dy)| on(dx, dy))
                {
                    return Err(CarveError::Map(format!(
                        "label {} {lon} {lat}: not well inside the space",
                        map.abbr(p)
                    )));
                }
                (x, y)
            }
            None => (at % w, at / w),
        };
        let _ = writeln!(
            text,
            "space {} {x} {y} {}",
            map.abbr(p),
            path(&trace::rings(&arcs, label))
        );
    }
    let _ = writeln!(text, "none {}", path(&trace::rings(&arcs, none)));
    let mut placed: Vec<String> = Vec::new();
    for year in std::iter::once(map).chain(later.iter().copied()) {
        if year.province_count() != n {
            return Err(CarveError::Map(
                "a later year of the map has other spaces".into(),
            ));
        }
        for p in year.province_ids() {
            for &r in &year.province(p).coasts {
                let name = year.region_abbr(r);
                if placed.iter().any(|c| c.eq_ignore_ascii_case(&name)) {
                    continue;
                }
                if let Some(shore) = coast_point(year, &labels, w, h, p, r) {
                    let (x, y) = inland(&labels, &depth, w, shore);
                    let _ = writeln!(text, "coast {name} {x} {y}");
                    placed.push(name.to_string());
                }
            }
        }
    }
    for (a, b) in &plan.straits {
        let find = |s: &str| {
            map.province_ids()
                .find(|&p| map.abbr(p).eq_ignore_ascii_case(s))
        };
        let (Some(pa), Some(pb)) = (find(a), find(b)) else {
            return Err(CarveError::Map(format!("strait {a} {b}: unknown space")));
        };
        let ends = closest(&labels, w, h, pa.index() as u16, pb.index() as u16)
            .ok_or_else(|| CarveError::Map(format!("strait {a} {b}: a space has no cells")))?;
        let deepest =
            |p: crate::game::ids::ProvinceId| best[p.index()].map(|(_, i)| (i % w, i / w));
        let ((x1, y1), (x2, y2)) = lengthen(
            ends,
            deepest(pa).zip(deepest(pb)),
            MIN_LINK_PX / plan.scale,
            (w, h),
        );
        // Two oceans are joined by the rules (the 1880 world's M.1), not across the water
        // between them: each end gets its own mark (`join`), no line over the land.
        let ocean = |p: crate::game::ids::ProvinceId| {
            map.province(p).terrain == crate::game::map::Terrain::Ocean
        };
        let word = if ocean(pa) && ocean(pb) {
            "join"
        } else {
            "link"
        };
        let _ = writeln!(
            text,
            "{word} {} {} {x1} {y1} {x2} {y2}",
            map.abbr(pa),
            map.abbr(pb)
        );
    }
    Ok(text)
}

/// The shortest drawn mark of a link across water, in pixels of the picture: two spaces a
/// cell apart would otherwise be joined by an invisible dot.
const MIN_LINK_PX: f64 = 14.0;

/// A link's mark made at least `min` cells long, about its middle, along the line between
/// its ends (or, when they meet, between the two spaces' deepest cells), kept in the grid.
fn lengthen(
    (a, b): (Cell, Cell),
    towards: Option<(Cell, Cell)>,
    min: f64,
    (w, h): (usize, usize),
) -> (Cell, Cell) {
    let f = |c: Cell| (c.0 as f64, c.1 as f64);
    let (pa, pb) = (f(a), f(b));
    let len = (pb.0 - pa.0).hypot(pb.1 - pa.1);
    if len >= min {
        return (a, b);
    }
    let (dx, dy) = match towards {
        _ if len > 0.0 => ((pb.0 - pa.0) / len, (pb.1 - pa.1) / len),
        Some((p, q)) => {
            let (p, q) = (f(p), f(q));
            let d = (q.0 - p.0).hypot(q.1 - p.1).max(1.0);
            ((q.0 - p.0) / d, (q.1 - p.1) / d)
        }
        None => (1.0, 0.0),
    };
    let mid = ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0);
    let at = |t: f64| -> Cell {
        (
            (mid.0 + t * dx).round().clamp(0.0, w as f64) as usize,
            (mid.1 + t * dy).round().clamp(0.0, h as f64) as usize,
        )
    };
    (at(-min / 2.0), at(min / 2.0))
}

/// An outline as SVG path data, integer grid units.
fn path(rings: &[Vec<trace::Corner>]) -> String {
    let mut s = String::new();
    for ring in rings {
        for (i, (x, y)) in ring.iter().enumerate() {
            let _ = write!(s, "{}{x} {y}", if i == 0 { "M" } else { "L" });
        }
        s.push('Z');
    }
    s
}

/// The cells of a label that touch another label.
fn rim(
    labels: &[u16],
    w: usize,
    h: usize,
    label: u16,
    other: impl Fn(u16) -> bool,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if labels[y * w + x] != label {
                continue;
            }
            let touches = [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|(dx, dy)| {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    nx >= 0
                        && ny >= 0
                        && (nx as usize) < w
                        && (ny as usize) < h
                        && other(labels[ny as usize * w + nx as usize])
                });
            if touches {
                out.push((x, y));
            }
        }
    }
    out
}

/// Where a fleet on one coast of a multi-coast province stands: the cell of the province on
/// the waters that coast reaches farthest towards the coast's compass point.
fn coast_point(
    map: &Map,
    labels: &[u16],
    w: usize,
    h: usize,
    p: crate::game::ids::ProvinceId,
    r: crate::game::ids::RegionId,
) -> Option<(usize, usize)> {
    let waters: Vec<u16> = map
        .fleet_neighbours(r)
        .iter()
        .map(|&q| map.province_of(q))
        .filter(|&q| map.province(q).terrain.is_water())
        .map(|q| q.index() as u16)
        .collect();
    let cells = rim(labels, w, h, p.index() as u16, |l| waters.contains(&l));
    let coast = map.region(r).coast.map_or("", |c| c.abbr());
    let score = |&(x, y): &(usize, usize)| -> i64 {
        let (x, y) = (x as i64, y as i64);
        match coast {
            "nc" => -y,
            "sc" => y,
            "ec" => x,
            _ => -x,
        }
    };
    // The third of the shore farthest towards the compass point, and in it the cell
    // nearest its middle: on the coast, away from the corners.
    let mut cells = cells;
    cells.sort_by_key(|c| std::cmp::Reverse(score(c)));
    let top = &cells[..cells.len().div_ceil(3)];
    let n = top.len().max(1) as f64;
    let (mx, my) = top.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + x as f64 / n, b + y as f64 / n)
    });
    top.iter()
        .copied()
        .min_by_key(|&(x, y)| ((x as f64 - mx).powi(2) + (y as f64 - my).powi(2)) as i64)
}

/// A fleet's place on a coast: the cell nearest the shore cell, within 24 cells of it, that
/// lies at least 8 cells inside the space (or as deep as the space goes there), so that its
/// chip stands on its own land.
fn inland(labels: &[u16], depth: &[u32], w: usize, shore: (usize, usize)) -> (usize, usize) {
    let label = labels[shore.1 * w + shore.0];
    let h = labels.len() / w;
    let mut near = Vec::new();
    for y in shore.1.saturating_sub(24)..(shore.1 + 25).min(h) {
        for x in shore.0.saturating_sub(24)..(shore.0 + 25).min(w) {
            let d2 = x.abs_diff(shore.0).pow(2) + y.abs_diff(shore.1).pow(2);
            if d2 <= 24 * 24 && labels[y * w + x] == label {
                near.push((d2, depth[y * w + x], (x, y)));
            }
        }
    }
    // Depths are chamfer 3-4: three a cell.
    let want = near.iter().map(|n| n.1).max().unwrap_or(0).min(8 * 3);
    near.into_iter()
        .filter(|n| n.1 >= want)
        .min_by_key(|n| n.0)
        .map_or(shore, |n| n.2)
}

/// A cell: (x, y).
type Cell = (usize, usize);

/// The closest pair of cells of two labels.
fn closest(
    labels: &[u16],
    w: usize,
    h: usize,
    a: u16,
    b: u16,
) -> Option<((usize, usize), (usize, usize))> {
    let ra = rim(labels, w, h, a, |l| l != a);
    let rb = rim(labels, w, h, b, |l| l != b);
    let mut best: Option<(usize, (Cell, Cell))> = None;
    for &p in &ra {
        for &q in &rb {
            let d = p.0.abs_diff(q.0).pow(2) + p.1.abs_diff(q.1).pow(2);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, (p, q)));
            }
        }
    }
    best.map(|(_, pq)| pq)
}
