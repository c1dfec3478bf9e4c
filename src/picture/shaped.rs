//! The board drawn from a map's shapes (issue 27): each space its real outline, land tinted
//! by the power that owns its centre or controls it, seas untinted, names and units at each
//! space's deepest point, fleets on their coast. Maps without shapes keep the schematic
//! drawing of [`super::svg`].
//!
//! Element ids, beyond those of [`super::svg`]: `space-<Abbr>` is the space's outline, with
//! `data-owner="<Power>"` where a power owns the centre or controls the land (the last to
//! occupy it, else the unit standing there) and `data-terrain`; `link-<A>-<B>` marks two
//! spaces joined across water.

use std::fmt::Write;

use super::colour::rgb;
use super::layout::Layout;
use super::marks::Mark;
use super::palette::power_colour;
use super::shapes::Shapes;
use super::style::{escape, ink_on, name_box, region_id};
pub use super::style::{LABEL_PX, LAND};
use super::svg::TOP;
use crate::game::ids::{PowerId, ProvinceId, UnitKind};
use crate::game::map::{Map, Terrain};
use crate::game::position::Position;

/// The sea's colour.
pub const SEA: &str = "#bcd8ee";
/// Land that is no space, and impassable spaces.
pub const NEUTRAL: &str = "#d2cdc2";
/// The hatching over impassable land.
const SHUT_HATCH: &str = "#a39b8b";
/// Borders between land spaces.
const BORDER: &str = "#4d4030";

/// The power a space is drawn for: the owner of its centre; for other land the last power
/// to occupy it (recorded on maps that change), else the one whose unit stands there.
pub fn holder(map: &Map, position: &Position, p: ProvinceId) -> Option<PowerId> {
    let prov = map.province(p);
    if prov.terrain.is_water() || prov.terrain == Terrain::Shut {
        return None;
    }
    if prov.centre {
        return position.owners.get(p.index()).copied().flatten();
    }
    position
        .last_seen
        .get(p.index())
        .copied()
        .flatten()
        .or_else(|| position.unit_at(p).map(|u| u.power))
}

pub use super::palette::tint;

/// What never changes on a board drawn from shapes: the open `<svg>` tag, the seas, the
/// land's outlines, the names and the key. [`overlay`] and `</svg>` complete it.
pub fn background(map: &Map, shapes: &Shapes, layout: &Layout) -> String {
    let (width, height, _) = super::svg::canvas(map, layout);
    let mut s = String::with_capacity(256 * 1024);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans"><rect width="{width}" height="{height}" fill="#f7f7f2"/>"##
    );
    let k = shapes.scale;
    // Impassable land is hatched, so that no power's grey tint (Classical's Rome) reads as
    // impassable, nor impassable as a grey power's.
    let _ = write!(
        s,
        r##"<defs><pattern id="shut" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="{NEUTRAL}"/><rect y="0" width="6" height="2" fill="{SHUT_HATCH}"/></pattern></defs>"##
    );
    s.push_str(&board_open(
        layout,
        r#" id="map""#,
        &format!(" scale({k})"),
        r#" stroke-linejoin="round""#,
    ));
    let _ = write!(
        s,
        r##"<rect width="{w}" height="{h}" fill="{SEA}"/>"##,
        w = shapes.width,
        h = shapes.height,
    );
    // Seas first (their borders thin and blue), then land over them.
    for p in map.province_ids() {
        let prov = map.province(p);
        if prov.terrain.is_water() && !shapes.spaces[p.index()].path.is_empty() {
            let _ = write!(
                s,
                r##"<path d="{}" fill="{SEA}" stroke="#6f9cc4" stroke-width="{}"/>"##,
                shapes.spaces[p.index()].path,
                1.0 / k
            );
        }
    }
    let _ = write!(
        s,
        r##"<path id="no-space" d="{}" fill="{NEUTRAL}" stroke="#8a8478" stroke-width="{}"/>"##,
        shapes.none,
        1.0 / k
    );
    for p in map.province_ids() {
        let prov = map.province(p);
        if prov.terrain.is_water() || shapes.spaces[p.index()].path.is_empty() {
            continue;
        }
        let fill = if prov.terrain == Terrain::Shut {
            "url(#shut)"
        } else {
            LAND
        };
        let _ = write!(
            s,
            r##"<path d="{}" fill="{fill}" stroke="{BORDER}" stroke-width="{}"/>"##,
            shapes.spaces[p.index()].path,
            1.2 / k
        );
    }
    s.push_str(board_end(layout));
    s.push_str(&board_open(layout, r#" id="links""#, "", ""));
    for &(a, b, (x1, y1), (x2, y2)) in &shapes.links {
        let _ = write!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#fff" stroke-width="7" stroke-linecap="round"/><line id="link-{}-{}" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#1a1a1a" stroke-width="3.5" stroke-dasharray="5 3"/>"##,
            x1 * k,
            y1 * k,
            x2 * k,
            y2 * k,
            escape(map.abbr(a)),
            escape(map.abbr(b)),
            x1 * k,
            y1 * k,
            x2 * k,
            y2 * k
        );
    }
    draw_joins(&mut s, map, shapes, layout);
    s.push_str(board_end(layout));
    let rows = map.powers.len().div_ceil(super::svg::canvas(map, layout).2) as f32;
    draw_key(
        &mut s,
        map,
        TOP + layout.height + rows * 22.0 + 14.0,
        super::style::small_px(layout.width),
    );
    s
}

/// The joins (two spaces joined by a rule, not across drawn water: the world's oceans),
/// as a tag under each joined space's name listing the spaces it is joined to, `↔ Npo Spo`
/// (`id="joins-<Abbr>"`, `data-to` the others): a line between two oceans would cross land.
fn draw_joins(s: &mut String, map: &Map, shapes: &Shapes, layout: &Layout) {
    for p in map.province_ids() {
        let mut to: Vec<&str> = shapes
            .joins
            .iter()
            .filter_map(|&(a, b, ..)| match (a == p, b == p) {
                (true, _) => Some(map.abbr(b)),
                (_, true) => Some(map.abbr(a)),
                _ => None,
            })
            .collect();
        if to.is_empty() {
            continue;
        }
        to.sort_unstable();
        let word = format!("\u{2194} {}", to.join(" "));
        let px = super::style::small_px(layout.width).max(13.0);
        let w = 12.0 + 0.65 * px * word.chars().count() as f32;
        // Below the name and below the fleets standing under it (their chips and hold
        // rings reach 23 px down), and wholly on the canvas.
        let (x, y) = layout.centre(p);
        let x = x.clamp(
            w / 2.0 + 4.0,
            (layout.width - w / 2.0 - 4.0).max(w / 2.0 + 4.0),
        );
        let y = y + 36.0;
        let _ = write!(
            s,
            r##"<g id="joins-{}" data-to="{}"><rect x="{:.1}" y="{:.1}" width="{w:.1}" height="19" rx="9" fill="#fff" stroke="#1a1a1a" stroke-width="2" stroke-dasharray="5 3"/><text x="{x:.1}" y="{:.1}" font-size="{px}" font-weight="bold" text-anchor="middle" fill="#1d3f6e">{}</text></g>"##,
            escape(map.abbr(p)),
            escape(&to.join(" ")),
            x - w / 2.0,
            y - 9.5,
            y + 5.0,
            escape(&word)
        );
    }
}

/// The spaces' names and their coasts' names: drawn over the orders' marks, under the
/// units, so that no arrow hides a name.
fn draw_names(s: &mut String, map: &Map, layout: &Layout) {
    s.push_str(r#"<g id="names">"#);
    for p in map.province_ids().filter(|&p| layout.shown(p)) {
        let prov = map.province(p);
        let (x, y) = layout.centre(p);
        let ink = if prov.terrain.is_water() {
            "#1d4f8a"
        } else {
            "#222"
        };
        let _ = write!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="{LABEL_PX}" font-weight="bold" text-anchor="middle" fill="{ink}" stroke="#ffffff" stroke-width="2.5" stroke-opacity="0.7" paint-order="stroke">{}</text>"##,
            y - 3.0,
            escape(&prov.abbr)
        );
        for &r in &prov.coasts {
            let (cx, cy) = layout.point(map, r);
            let coast = map.region(r).coast.map_or("", |c| c.abbr());
            let _ = write!(
                s,
                r##"<text id="coast-{}" x="{cx:.1}" y="{:.1}" font-size="{}" text-anchor="middle" fill="#1d4f8a" stroke="#ffffff" stroke-width="2" paint-order="stroke">{coast}</text>"##,
                region_id(map, r),
                cy - 9.0,
                super::style::small_px(layout.width)
            );
        }
    }
    s.push_str("</g>");
}

/// The key of a board drawn from shapes: land, sea, impassable, centres, then the marks.
fn draw_key(s: &mut String, map: &Map, top: f32, px: f32) {
    let _ = write!(
        s,
        r##"<g id="key" transform="translate(10 {top})" font-size="{px}" fill="#222">"##
    );
    let em = px / 11.0;
    let mut x = 0.0;
    for (word, fill) in [
        ("land", LAND),
        ("sea", SEA),
        ("impassable", "url(#shut)"),
        ("held by a power (tinted)", "#e3a3ad"),
    ] {
        let _ = write!(
            s,
            r##"<rect x="{x}" y="0" width="22" height="14" fill="{fill}" stroke="{BORDER}"/><text x="{}" y="11">{word}</text>"##,
            x + 27.0
        );
        x += 34.0 + 6.6 * em * word.len() as f32;
    }
    let _ = write!(
        s,
        r##"<circle cx="{}" cy="7" r="5" fill="#fff" stroke="#000" stroke-width="1.5"/><text x="{}" y="11">supply centre (owner's colour; white: unowned)</text>"##,
        x + 6.0,
        x + 15.0
    );
    super::overlay::draw_mark_key(s, 22.0, px);
    if map.scheduled {
        super::floods::draw_key(s, 66.0, px);
    }
    s.push_str("</g>");
}

/// What a board drawn from shapes shows of one moment: the title, each space's outline
/// tinted for its holder, the centres, the orders' marks, the names, the units and the
/// legend ([`tints`], [`lower`], [`names`] and [`upper`] in that order).
pub fn overlay(
    map: &Map,
    shapes: &Shapes,
    layout: &Layout,
    title: &str,
    position: &Position,
    marks: &[Mark],
) -> String {
    let mut s = String::with_capacity(200 * 1024);
    s.push_str(&tints(map, shapes, layout, position));
    s.push_str(&lower(map, shapes, layout, title, position, marks));
    s.push_str(&names(map, layout));
    s.push_str(&upper(map, shapes, layout, position, marks));
    s
}

/// Every space, once, with `id="space-<Abbr>"`, tinted where held, its border drawn again
/// over the tint. The painter fills the same outlines from paths it keeps (see
/// [`super::painter`]), so this text is for the SVG only.
pub fn tints(map: &Map, shapes: &Shapes, layout: &Layout, position: &Position) -> String {
    let k = shapes.scale;
    let mut s = String::with_capacity(160 * 1024);
    s.push_str(&board_open(
        layout,
        r#" id="spaces""#,
        &format!(" scale({k})"),
        &format!(
            r#" stroke="{BORDER}" stroke-width="{}" stroke-linejoin="round""#,
            border_width(k)
        ),
    ));
    for p in map.province_ids() {
        if shapes.spaces[p.index()].path.is_empty() {
            continue;
        }
        let prov = map.province(p);
        let who = holder(map, position, p);
        let owner = who.map_or(String::new(), |w| {
            format!(r#" data-owner="{}""#, escape(&map.power(w).name))
        });
        let fill = who.map_or(r#"fill="none" stroke="none""#.to_string(), |w| {
            format!(r#"fill="{}""#, tint(map, w))
        });
        let _ = write!(
            s,
            r#"<path id="space-{}" data-terrain="{}"{owner} d="{}" {fill}><title>{}</title></path>"#,
            escape(&prov.abbr),
            prov.terrain.keyword(),
            shapes.spaces[p.index()].path,
            escape(&prov.name)
        );
    }
    s.push_str(board_end(layout));
    s
}

/// Opens a group of the board's drawing, below the title: its `id` attribute (or nothing),
/// a transform after the board's own offset, and other attributes. A clipped board (a
/// region's picture, [`Layout::clipped`]) is drawn in a nested `<svg>` the size of the
/// board, so that what lies beyond the region stops at its edge; other boards are drawn as
/// they always were.
fn board_open(layout: &Layout, id: &str, transform: &str, attributes: &str) -> String {
    if layout.clipped {
        format!(
            r#"<svg x="0" y="{TOP}" width="{}" height="{}" overflow="hidden"><g{id} transform="translate(0 0){transform}"{attributes}>"#,
            layout.width, layout.height
        )
    } else {
        format!(r#"<g{id} transform="translate(0 {TOP}){transform}"{attributes}>"#)
    }
}

/// Closes what [`board_open`] opened.
fn board_end(layout: &Layout) -> &'static str {
    if layout.clipped {
        "</g></svg>"
    } else {
        "</g>"
    }
}

/// The width of the border drawn over a tint, in grid units (1.2 px).
pub fn border_width(scale: f32) -> f32 {
    1.2 / scale
}

/// The border's colour as three bytes.
pub fn border_rgb() -> [u8; 3] {
    rgb(BORDER)
}

/// Over the tints: the title, the centres and the orders' marks.
pub fn lower(
    map: &Map,
    shapes: &Shapes,
    layout: &Layout,
    title: &str,
    position: &Position,
    marks: &[Mark],
) -> String {
    let mut s = String::with_capacity(32 * 1024);
    let _ = write!(
        s,
        r##"<text id="title" x="12" y="27" font-size="20" font-weight="bold" fill="#222">{}</text>"##,
        escape(title)
    );
    s.push_str(&board_open(layout, "", "", ""));
    super::floods::draw_areas(&mut s, map, shapes, marks);
    draw_centres(&mut s, map, shapes, layout, position);
    let chips = chips(map, shapes, layout, position);
    let anchor = |p: ProvinceId| chip_anchor(&chips, layout, p);
    let places = super::overlay::Places {
        map,
        layout,
        shapes: Some(shapes),
        anchor: &anchor,
    };
    super::overlay::draw_marks(&mut s, &places, marks);
    s.push_str(board_end(layout));
    s
}

/// Where marks meet the unit in `p`: its chip's middle, or the space's unit spot when no
/// chip stands there.
fn chip_anchor(chips: &[Chip], layout: &Layout, p: ProvinceId) -> (f32, f32) {
    chips
        .iter()
        .find(|c| c.at == p)
        .map_or_else(|| super::style::unit_anchor(layout, p), Chip::middle)
}

/// The spaces' names, over the marks: the same on every picture of a map (the painter
/// rasterises them once).
pub fn names(map: &Map, layout: &Layout) -> String {
    let mut s = String::with_capacity(16 * 1024);
    s.push_str(&board_open(layout, "", "", ""));
    draw_names(&mut s, map, layout);
    s.push_str(board_end(layout));
    s
}

/// Over the names: the units, the dislodged units and the legend.
pub fn upper(
    map: &Map,
    shapes: &Shapes,
    layout: &Layout,
    position: &Position,
    marks: &[Mark],
) -> String {
    let (_, _, per_row) = super::svg::canvas(map, layout);
    let mut s = String::with_capacity(32 * 1024);
    s.push_str(&board_open(layout, "", "", ""));
    let chips = chips(map, shapes, layout, position);
    draw_units(&mut s, map, &chips, super::style::small_px(layout.width));
    super::overlay::draw_over_units(&mut s, map, layout, position, marks);
    let anchor = |p: ProvinceId| chip_anchor(&chips, layout, p);
    let places = super::overlay::Places {
        map,
        layout,
        shapes: Some(shapes),
        anchor: &anchor,
    };
    super::overlay::draw_over_chips(&mut s, &places, marks);
    super::floods::draw_over_units(&mut s, map, layout, marks, &|p| {
        centre_mark(map, shapes, layout, p)
    });
    s.push_str(board_end(layout));
    super::svg::draw_legend(
        &mut s,
        map,
        position,
        TOP + layout.height,
        (per_row, super::style::small_px(layout.width)),
    );
    s
}

/// The first shift of a unit's chip (sideways 0, 3, −3, 6, −6 … up to 45 px; on its row,
/// then 6 or 12 px lower, then 6 px higher) that keeps it clear of every other space's name
/// with its centre inside its own space: no unit is drawn over a name. None found: no shift.
fn clear_of_names(
    map: &Map,
    shapes: &Shapes,
    layout: &Layout,
    own: ProvinceId,
    b: (f32, f32, f32, f32),
) -> (f32, f32) {
    let sideways = (0..=30).map(|i| {
        if i % 2 == 0 {
            1.5 * i as f32
        } else {
            -1.5 * (i + 1) as f32
        }
    });
    [0.0, 6.0, 12.0, -6.0]
        .into_iter()
        .flat_map(|dy| sideways.clone().map(move |dx| (dx, dy)))
        .find(|&(dx, dy)| {
            let moved = (b.0 + dx, b.1 + dy, b.2 + dx, b.3 + dy);
            !hits_name(map, layout, own, moved)
                && ((dx, dy) == (0.0, 0.0)
                    || within(
                        shapes,
                        own,
                        (moved.0 + moved.2) / 2.0,
                        (moved.1 + moved.3) / 2.0,
                    ))
        })
        .unwrap_or((0.0, 0.0))
}

/// Whether a box covers the name of a space other than `own`.
fn hits_name(map: &Map, layout: &Layout, own: ProvinceId, b: (f32, f32, f32, f32)) -> bool {
    map.province_ids()
        .filter(|&q| q != own && layout.shown(q))
        .any(|q| {
            let n = name_box(map, layout, q);
            b.0 < n.2 && n.0 < b.2 && b.1 < n.3 && n.1 < b.3
        })
}

/// Whether a point (pixels, below the title) lies inside a space's outline.
fn within(shapes: &Shapes, p: ProvinceId, x: f32, y: f32) -> bool {
    shapes.contains(p, (x, y))
}

/// The centre mark's radius, pixels.
const CENTRE_R: f32 = 5.0;

/// Whether a centre mark at (x, y) (pixels) lies wholly inside an outline's rings (grid
/// units, `k` pixels each): its middle and eight points round its rim.
fn mark_inside(rings: &[Vec<(i32, i32)>], k: f32, (x, y): (f32, f32)) -> bool {
    let inside = |x: f32, y: f32| super::shapes::inside(rings, (x / k, y / k));
    inside(x, y)
        && (0..8).all(|i| {
            let a = i as f32 * std::f32::consts::FRAC_PI_4;
            inside(x + CENTRE_R * a.cos(), y + CENTRE_R * a.sin())
        })
}

/// Where a space's centre mark stands: left of its name, else right of it, else above or
/// below the name's ends, the first place wholly inside the space and clear of every
/// other space's name (issue 40: "Holland's centre dot sits in the North Sea, Belgium's on
/// the Ruhr corner"); else the first clear place with its middle inside, else the first
/// with its middle inside; where none is, left of the name (`herald map check` says so).
pub fn centre_mark(map: &Map, shapes: &Shapes, layout: &Layout, p: ProvinceId) -> (f32, f32) {
    let (x, y) = layout.centre(p);
    let half = map.province(p).abbr.chars().count() as f32 * LABEL_PX * 0.34;
    let cy = y - 7.5;
    let spots = [
        (x - half - 8.0, cy),
        (x + half + 8.0, cy),
        (x - half - 8.0, cy - 14.0),
        (x + half + 8.0, cy - 14.0),
        (x - half - 8.0, cy + 14.0),
        (x + half + 8.0, cy + 14.0),
        (x, cy - 17.0),
    ];
    // Where a unit's chip stands by default (an army under the name, a fleet on each
    // coast): a mark there would be hidden under it.
    let prov = map.province(p);
    let chips: Vec<(f32, f32)> = std::iter::once((x, y + 8.0))
        .chain(prov.coasts.iter().map(|&r| layout.point(map, r)))
        .collect();
    let off_chips = |&(cx, cy): &(f32, f32)| {
        chips
            .iter()
            .all(|c| (cx - c.0).abs() > 17.0 + 6.0 || (cy - c.1).abs() > 8.0 + 6.0)
    };
    let clear = |&(cx, cy): &(f32, f32)| {
        !hits_name(map, layout, p, (cx - 6.0, cy - 6.0, cx + 6.0, cy + 6.0)) && off_chips(&(cx, cy))
    };
    // Away from the spot, a dot must stand well clear of other names, or it reads as
    // theirs (Liverpool's beside "Yor").
    let apart = |&(cx, cy): &(f32, f32)| {
        !hits_name(map, layout, p, (cx - 14.0, cy - 10.0, cx + 14.0, cy + 10.0))
            && !name_box_hit(map, layout, p, (cx, cy))
    };
    let rings = shapes
        .spaces
        .get(p.index())
        .map(|sp| super::shapes::rings(&sp.path))
        .unwrap_or_default();
    let k = shapes.scale;
    let middle_in = |&(cx, cy): &(f32, f32)| super::shapes::inside(&rings, (cx / k, cy / k));
    // Beside the name, on its row, the dot reads as its own; above or below it, only
    // well clear of other names.
    let find = |good: &dyn Fn(&(f32, f32)) -> bool| {
        spots
            .iter()
            .enumerate()
            .find(|&(i, s)| good(s) && (i < 2 || apart(s)))
            .map(|(_, s)| *s)
    };
    // Else the nearest place round the name, 6 px apart up to 36 px away, whose middle
    // lies inside, clear of names (a narrow space: Edinburgh, Liverpool), or at last over
    // a name (the world's Amsterdam, Belgium, Venice).
    let near = |good: &dyn Fn(&(f32, f32)) -> bool| {
        let mut around: Vec<(f32, f32)> = (-6..=6)
            .flat_map(|i| (-6..=6).map(move |j| (x + 6.0 * i as f32, cy + 6.0 * j as f32)))
            .collect();
        around.sort_by(|a, b| {
            let d = |q: &(f32, f32)| (q.0 - x).hypot(q.1 - cy);
            d(a).total_cmp(&d(b))
        });
        around.into_iter().find(|s| middle_in(s) && good(s))
    };
    find(&|s| clear(s) && mark_inside(&rings, k, *s))
        .or_else(|| find(&|s| clear(s) && middle_in(s)))
        .or_else(|| near(&|s| apart(s) && off_chips(s)))
        .or_else(|| near(&apart))
        .or_else(|| find(&middle_in))
        .or_else(|| near(&|_| true))
        .unwrap_or(spots[0])
}

/// Whether a centre mark at `c` covers its own space's name.
fn name_box_hit(map: &Map, layout: &Layout, p: ProvinceId, (cx, cy): (f32, f32)) -> bool {
    let n = name_box(map, layout, p);
    cx - 6.0 < n.2 && n.0 < cx + 6.0 && cy - 6.0 < n.3 && n.1 < cy + 6.0
}

/// The supply centres whose mark's middle lies outside their space ([`centre_mark`] found
/// no place inside it), for `herald map check`.
pub fn centres_outside(map: &Map, shapes: &Shapes) -> Vec<String> {
    let layout = shapes.layout();
    map.province_ids()
        .filter(|&p| map.province(p).centre && layout.shown(p))
        .filter(|&p| {
            let (x, y) = centre_mark(map, shapes, &layout, p);
            !within(shapes, p, x, y)
        })
        .map(|p| {
            let (x, y) = centre_mark(map, shapes, &layout, p);
            format!(
                "the centre mark of {} at ({x:.0}, {y:.0}) lies outside its space",
                map.abbr(p)
            )
        })
        .collect()
}

fn draw_centres(s: &mut String, map: &Map, shapes: &Shapes, layout: &Layout, position: &Position) {
    s.push_str(r#"<g id="centres">"#);
    let lettered = super::palette::lettered_centres(map);
    for p in map.province_ids().filter(|&p| layout.shown(p)) {
        let prov = map.province(p);
        if !prov.centre {
            continue;
        }
        let owner = position.owners.get(p.index()).copied().flatten();
        let fill = owner.map_or("#ffffff", |o| power_colour(map, o));
        let (x, y) = centre_mark(map, shapes, layout, p);
        let _ = write!(
            s,
            r##"<circle id="centre-{abbr}" data-owner="{who}" cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{fill}" stroke="#000" stroke-width="1.5"/>"##,
            abbr = escape(&prov.abbr),
            r = if lettered && owner.is_some() {
                6.5
            } else {
                5.0
            },
            who = owner.map_or(String::new(), |o| escape(&map.power(o).name)),
        );
        // Where tints alone may not part two powers, the owner's letter on the dot, as
        // large as a chip's.
        if let Some(o) = owner.filter(|_| lettered) {
            let _ = write!(
                s,
                r##"<text id="centre-letter-{abbr}" x="{x:.1}" y="{:.1}" font-size="12.5" font-weight="bold" text-anchor="middle" fill="{}">{}</text>"##,
                y + 4.5,
                super::style::ink_on(fill),
                escape(&map.power(o).letter.to_string()),
                abbr = escape(&prov.abbr),
            );
        }
    }
    s.push_str("</g>");
}

/// Where one unit's chip stands: its box, left, top and width (16 px high).
#[derive(Clone, Copy, Debug)]
pub struct Chip {
    /// The unit's province.
    pub at: ProvinceId,
    /// Its place among the units sharing the province (fleets on a free ocean).
    pub nth: usize,
    /// The unit.
    pub unit: crate::game::position::Unit,
    /// The box's left, top and width.
    pub x: f32,
    /// See `x`.
    pub y: f32,
    /// See `x`.
    pub w: f32,
}

impl Chip {
    /// The chip's middle: where the unit's orders start and its hold ring is drawn.
    pub fn middle(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + 8.0)
    }
}

/// The word on a unit's chip: its kind and its power's letter (`A E`, `F T`).
fn chip_text(map: &Map, unit: &crate::game::position::Unit) -> String {
    let kind = match unit.kind {
        UnitKind::Army => "A",
        UnitKind::Fleet => "F",
        UnitKind::ArmyFleet => "A-F",
    };
    format!("{kind} {}", map.power(unit.power).letter)
}

/// Where every unit's chip stands: on its space (a fleet on its coast), side by side with
/// the others sharing it, moved clear of every other space's name.
pub fn chips(map: &Map, shapes: &Shapes, layout: &Layout, position: &Position) -> Vec<Chip> {
    let mut out: Vec<Chip> = Vec::new();
    let px = super::style::small_px(layout.width);
    for (p, unit) in position.all_units().filter(|&(p, _)| layout.shown(p)) {
        let nth = out.iter().filter(|c| c.at == p).count();
        let on_coast = map.region(unit.region).coast.is_some();
        let (cx, cy) = if on_coast {
            layout.point(map, unit.region)
        } else {
            let (x, y) = layout.centre(p);
            (x, y + 8.0)
        };
        let w = 10.0 + 0.64 * px * chip_text(map, &unit).chars().count() as f32;
        let (x, y) = (cx - w / 2.0 + nth as f32 * (w + 2.0), cy - 8.0);
        let (dx, dy) = clear_of_names(
            map,
            shapes,
            layout,
            p,
            (x - 1.0, y - 1.0, x + w + 1.0, y + 17.0),
        );
        out.push(Chip {
            at: p,
            nth,
            unit,
            x: x + dx,
            y: y + dy,
            w,
        });
    }
    out
}

/// Each unit's chip: its kind and its power's letter (`A E`, `F T`), in its power's colour.
fn draw_units(s: &mut String, map: &Map, chips: &[Chip], px: f32) {
    s.push_str(r#"<g id="units">"#);
    for c in chips {
        let (unit, x, y, w) = (c.unit, c.x, c.y, c.w);
        let kind = match unit.kind {
            UnitKind::Army => "A",
            UnitKind::Fleet => "F",
            UnitKind::ArmyFleet => "A-F",
        };
        let power = map.power(unit.power);
        let text = chip_text(map, &unit);
        let colour = power_colour(map, unit.power);
        let id = if c.nth == 0 {
            escape(&map.province(c.at).abbr)
        } else {
            format!("{}.{}", escape(&map.province(c.at).abbr), c.nth)
        };
        let _ = write!(
            s,
            r##"<g id="unit-{id}" data-power="{}" data-kind="{kind}" data-region="{}"><rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="16" rx="{}" fill="{colour}" stroke="#000" stroke-width="1.2"/><text x="{:.1}" y="{:.1}" font-size="{px}" font-weight="bold" text-anchor="middle" fill="{}">{}</text></g>"##,
            escape(&power.name),
            region_id(map, unit.region),
            if unit.kind == UnitKind::Fleet {
                7.5
            } else {
                2.0
            },
            x + w / 2.0,
            y + 12.5,
            ink_on(colour),
            escape(&text),
        );
    }
    s.push_str("</g>");
}
