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
