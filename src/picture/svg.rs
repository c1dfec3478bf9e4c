//! The board as SVG: a schematic map whose spaces are labelled boxes at their places and
//! whose adjacencies are drawn as links, with units, centres, the phase and a legend.
//!
//! Element ids are part of the contract (tests and players' tools read them):
//! `space-<Abbr>`, `coast-<Abbr>.<coast>`, `centre-<Abbr>`, `unit-<Abbr>`,
//! `link-<A>-<B>` (regions in map order, a coast written `Spa.nc`) with
//! `data-kind="army|fleet|both"` (on a wrapped canvas a link across the edge is two lines,
//! `link-<A>-<B>` from A and `wrap-<A>-<B>` from B), `power-<Name>` in the legend.

use std::fmt::Write;

use super::layout::{Layout, BOX_H, BOX_W, COAST_R};
use super::links::{links, LinkKind};
use super::marks::Mark;
pub use super::palette::power_colour;
pub use super::style::{escape, ink_on, letters, region_id, small_px, unit_anchor};
use crate::game::calendar::Calendar;
use crate::game::ids::{ProvinceId, UnitKind};
use crate::game::map::{Map, Terrain};
use crate::game::position::Position;

/// The title band above the board, in pixels.
pub const TOP: f32 = 40.0;
const LEGEND_ROW: f32 = 22.0;
/// The width of one power's entry in the legend: room for the longest name and its counts
/// (`: 18 centres, 17 units`) at 12 px.
fn legend_item(map: &Map, px: f32) -> f32 {
    let longest = map
        .powers
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0);
    (longest + 24) as f32 * 0.6 * px + 24.0
}

/// Fill and border of a space's box by its terrain.
fn terrain_style(t: Terrain) -> (&'static str, &'static str) {
    match t {
        Terrain::Land => ("#eedfb8", "#8b6b3d"),
        Terrain::Coast => ("#d9e8b4", "#2f6fb3"),
        Terrain::Sea => ("#cfe6f7", "#2f6fb3"),
        Terrain::Ocean => ("#9cc3e8", "#1d4f8a"),
        Terrain::Shut => ("#a6a6a6", "#555555"),
    }
}

/// The canvas of a board picture: the map's canvas with the title band above and the
/// legend below.
pub fn canvas(map: &Map, layout: &Layout) -> (f32, f32, usize) {
    let width = layout.width;
    let per_row = ((width - 20.0) / legend_item(map, small_px(width)))
        .floor()
        .max(1.0) as usize;
    let power_rows = map.powers.len().div_ceil(per_row);
    let key_rows = if map.scheduled { 4.0 } else { 3.0 };
    let legend_h = LEGEND_ROW * (power_rows as f32 + key_rows) + 10.0;
    (width, TOP + layout.height + legend_h, per_row)
}

/// Draws the board of `map` (the map as it stands at the position's phase) with the
/// position's units and centre owners, titled with the phase.
pub fn board(map: &Map, layout: &Layout, calendar: &Calendar, position: &Position) -> String {
    let title = format!("{} — {}", map.title, calendar.show(position.phase));
    let mut s = background(map, layout);
    s.push_str(&overlay(map, layout, &title, position, &[]));
    s.push_str("</svg>\n");
    s
}

/// What a board picture has whatever the phase: the open `<svg>` tag, the spaces, their
/// names and links, and the key. [`overlay`] and `</svg>` complete it.
pub fn background(map: &Map, layout: &Layout) -> String {
    let (width, height, per_row) = canvas(map, layout);
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans">"##
    );
    let _ = write!(
        s,
        r##"<rect width="{width}" height="{height}" fill="#f7f7f2"/>"##
    );
    let _ = write!(s, r##"<g transform="translate(0 {TOP})">"##);
    draw_links(&mut s, map, layout);
    draw_spaces(&mut s, map, layout);
    s.push_str("</g>");
    let rows = map.powers.len().div_ceil(per_row) as f32;
    draw_key(
        &mut s,
        TOP + layout.height + rows * LEGEND_ROW + 14.0,
        small_px(width),
    );
    s
}

/// What a board picture shows of one moment: the title, the centres' owners, the orders'
/// marks, the units and the legend of powers.
pub fn overlay(
    map: &Map,
    layout: &Layout,
    title: &str,
    position: &Position,
    marks: &[Mark],
) -> String {
    let (_, _, per_row) = canvas(map, layout);
    let mut s = String::with_capacity(16 * 1024);
    let _ = write!(
        s,
        r##"<text id="title" x="12" y="27" font-size="20" font-weight="bold" fill="#222">{}</text>"##,
        escape(title)
    );
    let _ = write!(s, r##"<g transform="translate(0 {TOP})">"##);
    draw_centres(&mut s, map, layout, position);
    let places = super::overlay::Places {
        map,
        layout,
        shapes: None,
        anchor: &|p| unit_anchor(layout, p),
    };
    super::overlay::draw_marks(&mut s, &places, marks);
    draw_units(&mut s, map, layout, position);
    super::overlay::draw_over_units(&mut s, map, layout, position, marks);
    s.push_str("</g>");
    draw_legend(
        &mut s,
        map,
        position,
        TOP + layout.height,
        (per_row, small_px(layout.width)),
    );
    s
}

fn draw_links(s: &mut String, map: &Map, layout: &Layout) {
    s.push_str(r#"<g id="links" fill="none">"#);
    for (a, b, kind) in links(map) {
        let style = match kind {
            LinkKind::Army => r##"stroke="#c9a27a" stroke-width="1.8""##,
            LinkKind::Fleet => r##"stroke="#7fa9d6" stroke-width="1.6" stroke-dasharray="6 3""##,
            LinkKind::Both => r##"stroke="#9a9a9a" stroke-width="1.8""##,
        };
        // On a wrapped canvas the second piece, from the other end, is `wrap-A-B`.
        let pieces = layout.segments(layout.point(map, a), layout.point(map, b));
        for (i, ((x1, y1), (x2, y2))) in pieces.into_iter().enumerate() {
            let _ = write!(
                s,
                r#"<line id="{}-{}-{}" data-kind="{}" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#,
                if i == 0 { "link" } else { "wrap" },
                region_id(map, a),
                region_id(map, b),
                kind.word()
            );
        }
    }
    s.push_str("</g>");
}

fn draw_spaces(s: &mut String, map: &Map, layout: &Layout) {
    s.push_str(r#"<g id="spaces">"#);
    for p in map.province_ids() {
        let prov = map.province(p);
        let (cx, cy) = layout.centre(p);
        let (fill, border) = terrain_style(prov.terrain);
        let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
        let width = if prov.terrain == Terrain::Coast {
            2.5
        } else {
            1.5
        };
        let _ = write!(
            s,
            r##"<g id="space-{abbr}" data-terrain="{terrain}"><title>{name}</title><rect x="{x:.1}" y="{y:.1}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{fill}" stroke="{border}" stroke-width="{width}"/><text x="{cx:.1}" y="{ty:.1}" font-size="12" font-weight="bold" text-anchor="middle" fill="#222">{abbr}</text></g>"##,
            abbr = escape(&prov.abbr),
            terrain = prov.terrain.keyword(),
            name = escape(&prov.name),
            ty = cy - 3.0,
        );
        for &r in &prov.coasts {
            let (nx, ny) = layout.point(map, r);
            let coast = map.region(r).coast.map_or("", |c| c.abbr());
            let _ = write!(
                s,
                r##"<g id="coast-{id}"><circle cx="{nx:.1}" cy="{ny:.1}" r="{COAST_R}" fill="#cfe6f7" stroke="#2f6fb3" stroke-width="1.5"/><text x="{nx:.1}" y="{ty:.1}" font-size="8" text-anchor="middle" fill="#1d4f8a">{coast}</text></g>"##,
                id = region_id(map, r),
                ty = ny + 3.0,
            );
        }
    }
    s.push_str("</g>");
}

fn draw_centres(s: &mut String, map: &Map, layout: &Layout, position: &Position) {
    s.push_str(r#"<g id="centres">"#);
    for p in map.province_ids() {
        let prov = map.province(p);
        let (cx, cy) = layout.centre(p);
        if prov.centre {
            let owner = position.owners.get(p.index()).copied().flatten();
            let fill = owner.map_or("#ffffff", |o| power_colour(map, o));
            let _ = write!(
                s,
                r##"<circle id="centre-{abbr}" data-owner="{who}" cx="{x:.1}" cy="{y:.1}" r="4.5" fill="{fill}" stroke="#000" stroke-width="1.2"/>"##,
                abbr = escape(&prov.abbr),
                who = owner.map_or(String::new(), |o| escape(&map.power(o).name)),
                x = cx + BOX_W / 2.0 - 7.0,
                y = cy - BOX_H / 2.0 + 7.0,
            );
        }
    }
    s.push_str("</g>");
}

fn draw_units(s: &mut String, map: &Map, layout: &Layout, position: &Position) {
    s.push_str(r#"<g id="units">"#);
    let mut afloat_seen: Vec<ProvinceId> = Vec::new();
    for (p, unit) in position.all_units() {
        let (cx, cy) = layout.centre(p);
        let nth = afloat_seen.iter().filter(|&&q| q == p).count();
        afloat_seen.push(p);
        let colour = power_colour(map, unit.power);
        let mark = match unit.kind {
            UnitKind::Army => "A",
            UnitKind::Fleet => "F",
            UnitKind::ArmyFleet => "A-F",
        };
        let w: f32 = if unit.kind == UnitKind::ArmyFleet {
            30.0
        } else {
            20.0
        };
        // "fleets sharing an ocean side by side" (issue 27, point 5): the chips of k units
        // in one box stand in a row, centred, 2 px apart, or closer where the box is too
        // narrow, never so close that one covers the letter of the last.
        let k = position.all_units().filter(|&(q, _)| q == p).count();
        let step = if k > 1 {
            (w + 2.0)
                .min((BOX_W - 4.0 - w) / (k - 1) as f32)
                .max(w / 2.0 + 4.0)
        } else {
            0.0
        };
        let row = w + step * k.saturating_sub(1) as f32;
        let (ux, uy) = (cx - row / 2.0 + nth as f32 * step, cy + 1.0);
        let id = if nth == 0 {
            escape(&map.province(p).abbr)
        } else {
            format!("{}.{nth}", escape(&map.province(p).abbr))
        };
        let _ = write!(
            s,
            r##"<g id="unit-{id}" data-power="{power}" data-kind="{mark}" data-region="{region}"><rect x="{ux:.1}" y="{uy:.1}" width="{w}" height="14" rx="3" fill="{colour}" stroke="#000" stroke-width="1"/><path d="{letters}" fill="none" stroke="{ink}" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"/></g>"##,
            letters = letters(unit.kind, ux + w / 2.0, uy + 7.0),
            power = escape(&map.power(unit.power).name),
            region = region_id(map, unit.region),
            ink = ink_on(colour),
        );
    }
    s.push_str("</g>");
}

/// The word for `n` things: singular for one ("1 centre, 1 unit"), else plural.
fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The legend of powers with their centres and units, from `top`.
pub fn draw_legend(
    s: &mut String,
    map: &Map,
    position: &Position,
    top: f32,
    (per_row, px): (usize, f32),
) {
    let _ = write!(s, r#"<g id="legend" transform="translate(10 {top})">"#);
    for (i, p) in map.power_ids().enumerate() {
        let colour = power_colour(map, p);
        let (x, y) = (
            (i % per_row) as f32 * legend_item(map, px),
            (i / per_row) as f32 * LEGEND_ROW + 8.0,
        );
        let centres = position.centre_count(p);
        // A dislodged unit is drawn where it waits to retreat: it is counted with the
        // others (issue 25: "the legend counts units without the dislodged one").
        let units = position.unit_count(p)
            + position
                .all_dislodged()
                .filter(|(_, d)| d.unit.power == p)
                .map(|(_, d)| {
                    if d.unit.kind == UnitKind::ArmyFleet {
                        2
                    } else {
                        1
                    }
                })
                .sum::<usize>();
        let name = escape(&map.power(p).name);
        let _ = write!(
            s,
            r##"<g id="power-{id}"><rect x="{x}" y="{y}" width="14" height="14" rx="2" fill="{colour}" stroke="#000"/><text x="{tx}" y="{ty}" font-size="{px}" fill="#222">{name}: {centres} {}, {units} {}</text></g>"##,
            plural(centres, "centre", "centres"),
            plural(units, "unit", "units"),
            id = name.replace(' ', "_"),
            tx = x + 20.0,
            ty = y + 12.0,
        );
    }
    s.push_str("</g>");
}

/// The key to the terrain, links and marks, in two rows from `top`.
fn draw_key(s: &mut String, top: f32, px: f32) {
    let y = 0.0;
    let mut x = 0.0;
    let key: [(&str, Terrain); 5] = [
        ("land", Terrain::Land),
        ("coast", Terrain::Coast),
        ("sea", Terrain::Sea),
        ("ocean", Terrain::Ocean),
        ("impassable", Terrain::Shut),
    ];
    let _ = write!(
        s,
        r##"<g id="key" transform="translate(10 {top})" font-size="{px}" fill="#222">"##
    );
    let em = px / 11.0;
    for (word, t) in key {
        let (fill, border) = terrain_style(t);
        let _ = write!(
            s,
            r#"<rect x="{x}" y="{y}" width="22" height="14" rx="3" fill="{fill}" stroke="{border}" stroke-width="1.5"/><text x="{tx}" y="{ty}">{word}</text>"#,
            tx = x + 27.0,
            ty = y + 11.0,
        );
        x += 34.0 + 7.0 * em * word.len() as f32;
    }
    for (word, style) in [
        ("army move", r##"stroke="#c9a27a" stroke-width="1.8""##),
        (
            "fleet move",
            r##"stroke="#7fa9d6" stroke-width="1.6" stroke-dasharray="6 3""##,
        ),
        ("both", r##"stroke="#9a9a9a" stroke-width="1.8""##),
    ] {
        let _ = write!(
            s,
            r#"<line x1="{x}" y1="{ly}" x2="{x2}" y2="{ly}" {style}/><text x="{tx}" y="{ty}">{word}</text>"#,
            ly = y + 7.0,
            x2 = x + 24.0,
            tx = x + 29.0,
            ty = y + 11.0,
        );
        x += 40.0 + 7.0 * em * word.len() as f32;
    }
    let _ = write!(
        s,
        r##"<circle cx="{cx}" cy="{cy}" r="4.5" fill="#fff" stroke="#000" stroke-width="1.2"/><text x="{tx}" y="{ty}">supply centre (owner's colour)</text>"##,
        cx = x + 6.0,
        cy = y + 7.0,
        tx = x + 15.0,
        ty = y + 11.0,
    );
    super::overlay::draw_mark_key(s, LEGEND_ROW, px);
    s.push_str("</g>");
}
