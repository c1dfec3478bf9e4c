//! Regional pictures (issue 27, point 5: "Every picture herald mails is readable at 1,000 px
//! wide (labels ≥ 11 px there): the world map as an overview plus regional pictures").
//!
//! A map may frame regions of its board in its map file:
//!
//! ```text
//! draw region Europe: Bis Lis Mor Stp Mos Cas Per Hej Egy
//! ```
//!
//! The frame is the box around the listed spaces' name places, widened by [`PAD_PX`] of
//! the region's picture on every side. A board drawn from shapes with regions is mailed as
//! several pictures, each [`PICTURE_PX`] wide, so that its 14 px names read at 12.7 px in a
//! mail client 1,000 px wide:
//!
//! - the **overview**: the whole board scaled to that width, every space's outline and
//!   tint, with names, centre marks, units and orders only outside the frames; each frame
//!   is drawn and labelled with its region's name and its picture's number;
//! - one picture per **region**: the same board (outlines, tints, centres, orders, names,
//!   units, key and legend) cropped to the frame and magnified to that width, the names,
//!   units and marks at their usual pixel size, so that a crowded part is spread out under
//!   them. What lies beyond the frame (an order leaving it) is cut at the edge.
//!
//! A map without `draw region` lines, or drawn without shapes, is one picture as before.

use std::fmt::Write;

use super::layout::{DrawError, Layout};
use super::marks::Mark;
use super::shapes::{rings, Shapes, SpaceShape};
use super::style::escape;
use super::svg::TOP;
use crate::game::ids::ProvinceId;
use crate::game::map::{Map, Terrain};

/// The width of an overview's and a region's picture, pixels: a mail client showing it 1,000
/// px wide draws the 14 px names 12.7 px high and the units' 12.5 px letters 11.4 px.
pub const PICTURE_PX: f32 = 1100.0;
/// Room around a region's listed names, pixels of its picture: a name's half width, a unit
/// under it.
pub const PAD_PX: f32 = 40.0;
/// A region is magnified at most this much (a region of one space is not a whole picture
/// of it).
const MAX_ZOOM: f32 = 4.0;

/// A region of a board, framed on the whole board's canvas.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Its name, as the map file gives it (`Europe`).
    pub name: String,
    /// Left, top, right and bottom on the whole board's canvas (pixels below the title).
    pub bounds: (f32, f32, f32, f32),
}

impl Frame {
    /// How much the region's picture magnifies the whole board.
    pub fn zoom(&self) -> f32 {
        PICTURE_PX / (self.bounds.2 - self.bounds.0)
    }

    /// Whether a point of the whole board's canvas lies inside the frame.
    pub fn contains(&self, (x, y): (f32, f32)) -> bool {
        let b = self.bounds;
        x >= b.0 && x <= b.2 && y >= b.1 && y <= b.3
    }

    /// The region's name in a file name: lower case, a hyphen for anything but a letter or
    /// digit (`europe`, `east-asia`).
    pub fn file_part(&self) -> String {
        let mut out = String::new();
        for c in self.name.chars() {
            if c.is_ascii_alphanumeric() {
                out.push(c.to_ascii_lowercase());
            } else if !out.ends_with('-') {
                out.push('-');
            }
        }
        out.trim_matches('-').to_string()
    }
}

/// How many regions a map file's text frames (a quick look at its `draw region` lines,
/// before anything is drawn).
pub fn declared(map_text: &str) -> usize {
    map_text
        .lines()
        .filter(|l| region_line(l).is_some())
        .count()
}

/// The part of a `draw region` line after `region` (comment removed), if it is one.
fn region_line(raw: &str) -> Option<&str> {
    let line = raw.split('#').next().unwrap_or("").trim();
    let rest = line.strip_prefix("draw")?;
    let rest = rest.trim_start();
    let (word, rest) = rest.split_at(rest.find(char::is_whitespace).unwrap_or(rest.len()));
    word.eq_ignore_ascii_case("region").then_some(rest.trim())
}

/// The regions a map file's text frames (`draw region <Name>: <Abbr> <Abbr> …`), placed by
/// `layout` (the whole board's). Refuses a line without a name or spaces, an unknown
/// space and a name given twice.
pub fn read(map_text: &str, map: &Map, layout: &Layout) -> Result<Vec<Frame>, Vec<DrawError>> {
    let mut frames: Vec<Frame> = Vec::new();
    let mut errors = Vec::new();
    let bad = |line: usize, message: String| DrawError { line, message };
    for (i, raw) in map_text.lines().enumerate() {
        let n = i + 1;
        let Some(rest) = region_line(raw) else {
            continue;
        };
        let Some((name, spaces)) = rest.split_once(':') else {
            errors.push(bad(
                n,
                format!("'{rest}': expected 'draw region <Name>: <Abbr> <Abbr> ...'"),
            ));
            continue;
        };
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut places = Vec::new();
        for abbr in spaces.split_whitespace() {
            match map
                .province_ids()
                .find(|&p| map.abbr(p).eq_ignore_ascii_case(abbr))
            {
                Some(p) => places.push(layout.centre(p)),
                None => errors.push(bad(n, format!("region '{name}': unknown space '{abbr}'"))),
            }
        }
        if name.is_empty() || places.is_empty() {
            errors.push(bad(
                n,
                "a region needs a name and at least one space".into(),
            ));
            continue;
        }
        if frames.iter().any(|f| f.name.eq_ignore_ascii_case(&name)) {
            errors.push(bad(n, format!("region '{name}' is framed twice")));
            continue;
        }
        frames.push(Frame {
            name,
            bounds: frame_around(&places, layout),
        });
    }
    if errors.is_empty() {
        Ok(frames)
    } else {
        Err(errors)
    }
}

/// The frame around name places: their box, widened so that [`PAD_PX`] of the region's
/// picture lies beyond it on every side, within the canvas.
fn frame_around(places: &[(f32, f32)], layout: &Layout) -> (f32, f32, f32, f32) {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &(x, y) in places {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let zoom = ((PICTURE_PX - 2.0 * PAD_PX) / (x1 - x0).max(1.0)).min(MAX_ZOOM);
    let (half, pad) = (PICTURE_PX / zoom / 2.0, PAD_PX / zoom);
    let mid = (x0 + x1) / 2.0;
    let (mut left, mut right) = (mid - half, mid + half);
    // Within the canvas, the width kept.
    if left < 0.0 {
        (left, right) = (0.0, right - left);
    }
    if right > layout.width {
        (left, right) = ((left - (right - layout.width)).max(0.0), layout.width);
    }
    (
        left,
        (y0 - pad).max(0.0),
        right,
        (y1 + pad).min(layout.height),
    )
}

/// Which picture of a board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// The whole board at its own size (a map without regions; `herald map draw`'s whole).
    Whole,
    /// The whole board at [`PICTURE_PX`] wide, the framed regions left to their pictures.
    Overview,
    /// The n-th region (0 the first), cropped and magnified to [`PICTURE_PX`] wide.
    Region(usize),
}

/// The shapes and layout of a view of `map`'s board drawn from `shapes` (the whole
/// board's), with `frames` its regions; `None` for a region it does not have. An overview
/// leaves to the regions every space whose name lies in a frame, except the oceans: open
/// water any number of fleets share (the world's rule M.1), too large to belong to one
/// region, they keep their names and fleets on the overview.
pub fn view(map: &Map, shapes: &Shapes, frames: &[Frame], view: View) -> Option<(Shapes, Layout)> {
    let (w, h) = shapes.canvas();
    match view {
        View::Whole => Some((shapes.clone(), shapes.layout())),
        View::Overview => {
            let cropped = crop(shapes, (0.0, 0.0, w, h), PICTURE_PX / w);
            let mut layout = cropped.layout();
            let whole = shapes.layout();
            layout.hidden = map
                .province_ids()
                .map(|p| {
                    map.province(p).terrain != Terrain::Ocean
                        && frames.iter().any(|f| f.contains(whole.centre(p)))
                })
                .collect();
            Some((cropped, layout))
        }
        View::Region(i) => {
            let frame = frames.get(i)?;
            let cropped = crop(shapes, frame.bounds, frame.zoom());
            let mut layout = cropped.layout();
            layout.clipped = true;
            Some((cropped, layout))
        }
    }
}

/// The shapes of the part of a board within `bounds` (pixels of its canvas), magnified
/// `zoom` times: outlines moved by whole grid units, those wholly outside left empty (not
/// drawn), the grid's scale multiplied. The part does not wrap.
pub fn crop(shapes: &Shapes, bounds: (f32, f32, f32, f32), zoom: f32) -> Shapes {
    let k = shapes.scale;
    let (gx0, gy0) = ((bounds.0 / k).floor(), (bounds.1 / k).floor());
    let (gx1, gy1) = ((bounds.2 / k).ceil(), (bounds.3 / k).ceil());
    let window = (gx0 as i32, gy0 as i32, gx1 as i32, gy1 as i32);
    let at = |(x, y): (f32, f32)| (x - gx0, y - gy0);
    Shapes {
        width: (gx1 - gx0).max(1.0),
        height: (gy1 - gy0).max(1.0),
        scale: k * zoom,
        spaces: shapes
            .spaces
            .iter()
            .map(|s| SpaceShape {
                at: at(s.at),
                path: moved(&s.path, window),
            })
            .collect(),
        none: moved(&shapes.none, window),
        coasts: shapes.coasts.iter().map(|c| c.map(at)).collect(),
        links: shapes
            .links
            .iter()
            .map(|&(a, b, p, q)| (a, b, at(p), at(q)))
            .collect(),
        joins: shapes
            .joins
            .iter()
            .map(|&(a, b, p, q)| (a, b, at(p), at(q)))
            .collect(),
        wrap: false,
    }
}

/// An outline's rings that meet `window` (grid units: left, top, right, bottom), moved so
/// that the window's corner is the origin.
fn moved(path: &str, window: (i32, i32, i32, i32)) -> String {
    let (x0, y0, x1, y1) = window;
    let mut out = String::new();
    for ring in rings(path) {
        let meets = {
            let (mut a, mut b, mut c, mut d) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
            for &(x, y) in &ring {
                (a, b, c, d) = (a.min(x), b.min(y), c.max(x), d.max(y));
            }
            a <= x1 && c >= x0 && b <= y1 && d >= y0
        };
        if !meets {
            continue;
        }
        for (i, &(x, y)) in ring.iter().enumerate() {
            let _ = write!(
                out,
                "{}{} {}",
                if i == 0 { "M" } else { "L" },
                x - x0,
                y - y0
            );
        }
        out.push('Z');
    }
    out
}

/// The provinces a mark is drawn at.
pub fn spaces_of(map: &Map, mark: &Mark) -> Vec<ProvinceId> {
    match mark {
        Mark::Move { from, to, .. } => vec![*from, map.province_of(*to)],
        Mark::Hold { at, .. }
        | Mark::Unordered { at, .. }
        | Mark::Removed { at, .. }
        | Mark::Submerged { at }
        | Mark::NewCentre { at }
        | Mark::FloodsNext { at } => vec![*at],
        Mark::Drowned { unit } => vec![map.province_of(unit.region)],
        Mark::Help { by, from, to, .. } => {
            let mut v = vec![*by, *from];
            v.extend(*to);
            v
        }
        Mark::Dislodged { at, options, .. } => {
            let mut v = vec![*at];
            v.extend(options.iter().map(|&r| map.province_of(r)));
            v
        }
        Mark::Retreat { from, to, .. } => vec![*from, *to],
        Mark::Built { unit } => vec![map.province_of(unit.region)],
    }
}

/// The marks an overview draws: those whose every space it shows (the others are drawn in
/// their region's picture).
pub fn shown_marks(map: &Map, layout: &Layout, marks: &[Mark]) -> Vec<Mark> {
    marks
        .iter()
        .filter(|m| spaces_of(map, m).into_iter().all(|p| layout.shown(p)))
        .cloned()
        .collect()
}

/// The frames drawn on an overview (magnified `zoom` times from the whole board), each
/// labelled with its region's name and the number of its picture (the overview is 1) in its
/// top left corner, or its bottom left where that lies in another frame: drawn over the
/// names, so that no tint hides a frame.
pub fn frames_svg(frames: &[Frame], zoom: f32) -> String {
    let mut s = String::new();
    let _ = write!(s, r#"<g id="regions" transform="translate(0 {TOP})">"#);
    for (i, f) in frames.iter().enumerate() {
        let (x0, y0, x1, y1) = (
            f.bounds.0 * zoom,
            f.bounds.1 * zoom,
            f.bounds.2 * zoom,
            f.bounds.3 * zoom,
        );
        let label = format!("{} — picture {}", f.name, i + 2);
        let w = label.chars().count() as f32 * 9.0 + 12.0;
        let in_another = |y: f32| {
            frames.iter().enumerate().any(|(j, g)| {
                j != i
                    && [(x0, y), (x0 + w, y), (x0, y + 22.0), (x0 + w, y + 22.0)]
                        .iter()
                        .any(|&(x, y)| g.contains((x / zoom, y / zoom)))
            })
        };
        let ly = if in_another(y0) && !in_another(y1 - 22.0) {
            y1 - 22.0
        } else {
            y0
        };
        let _ = write!(
            s,
            r##"<g id="region-{id}"><rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#222" stroke-width="2" stroke-dasharray="9 5"/><rect x="{x0:.1}" y="{ly:.1}" width="{w:.1}" height="22" fill="#ffffff" fill-opacity="0.9" stroke="#222" stroke-width="1"/><text x="{:.1}" y="{:.1}" font-size="14" font-weight="bold" fill="#222">{}</text></g>"##,
            x1 - x0,
            y1 - y0,
            x0 + 6.0,
            ly + 16.0,
            escape(&label),
            id = escape(&f.file_part()),
        );
    }
    s.push_str("</g>");
    s
}

/// The pictures a board of `map` is mailed as, each with the powers whose colours meet on
/// it: a board without regions is one picture of all its powers; a board with regions
/// (the world of 1880) is its overview, which tints every space and so shows every power,
/// then one picture per region with the powers that have a home space drawn in its frame.
pub fn pictures(map: &Map) -> Vec<(String, Vec<crate::game::ids::PowerId>)> {
    let all: Vec<_> = map.power_ids().collect();
    let whole = vec![("whole".to_string(), all.clone())];
    let shapes = super::shapes::builtin(&map.name).and_then(|t| Shapes::read(t, map).ok());
    let (Some(shapes), Some(text)) = (shapes, crate::game::map::builtin::source(&map.name)) else {
        return whole;
    };
    let Ok(frames) = read(text, map, &shapes.layout()) else {
        return whole;
    };
    if frames.is_empty() {
        return whole;
    }
    let mut out = vec![("overview".to_string(), all.clone())];
    for (i, frame) in frames.iter().enumerate() {
        let Some((cropped, _)) = view(map, &shapes, &frames, View::Region(i)) else {
            continue;
        };
        let drawn = |h: &ProvinceId| {
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
