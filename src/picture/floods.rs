//! Deluge's floods on the picture (issue 27: "Deluge winters mark the spaces that went
//! under, the units that drowned, the new centres, and next winter's floods"): the marks
//! the map's scheduled changes make, and how they are drawn.
//!
//! Ids: `submerged-<Abbr>` (hatched in flood blue), `floods-next-<Abbr>` (a dashed flood
//! blue outline), `drowned-<Abbr>` (the unit's chip crossed out in flood blue) and
//! `new-centre-<Abbr>` (a gold ring round the centre).

use std::fmt::Write;

use super::layout::Layout;
use super::marks::Mark;
use super::shapes::Shapes;
use super::style::{cross_path, escape, unit_anchor};
use crate::game::calendar::Phase;
use crate::game::flood::MapEvent;
use crate::game::ids::ProvinceId;
use crate::game::map::Map;
use crate::game::variant::Variant;

/// The ink of the floods: a dark blue, apart from the sea's light blue and from every
/// power's colour by its darkness and its pattern (hatched or dashed, never a fill).
pub const FLOOD: &str = "#0b3d91";

/// The ring round a new supply centre.
pub const NEW_CENTRE: &str = "#c98a00";

/// The marks of what a scheduled change did to the board (the engine's events).
pub fn of_events(events: &[MapEvent]) -> Vec<Mark> {
    events
        .iter()
        .filter_map(|e| match *e {
            MapEvent::Submerged(at) => Some(Mark::Submerged { at }),
            MapEvent::Drowned(unit) => Some(Mark::Drowned { unit }),
            MapEvent::NewCentre { province, .. } => Some(Mark::NewCentre { at: province }),
            MapEvent::CentreDestroyed { .. } | MapEvent::Opened(_) => None,
        })
        .collect()
}

/// The provinces the next scheduled change puts under water, seen from a phase: "next
/// winter's floods" (none on a map without a schedule).
pub fn next_floods(variant: &Variant, phase: Phase) -> Vec<Mark> {
    let Some((_, later)) = variant.next_change(phase) else {
        return Vec::new();
    };
    let now = variant.map_at(phase);
    now.province_ids()
        .filter(|&p| {
            p.index() < later.province_count()
                && !now.province(p).terrain.is_water()
                && later.province(p).terrain.is_water()
        })
        .map(|at| Mark::FloodsNext { at })
        .collect()
}

/// The hatching of submerged spaces, declared once in a picture that has any.
fn hatch(s: &mut String) {
    let _ = write!(
        s,
        r##"<defs><pattern id="flooded" width="7" height="7" patternUnits="userSpaceOnUse"><rect width="7" height="7" fill="#ffffff" fill-opacity="0.35"/><rect y="0" width="7" height="2.4" fill="{FLOOD}"/></pattern></defs>"##
    );
}

/// Under the names: each space that went under, hatched and outlined, and each space
/// that goes under next, outlined dashed (on a board drawn from shapes; the schematic
/// board has no outline to mark).
pub fn draw_areas(s: &mut String, map: &Map, shapes: &Shapes, marks: &[Mark]) {
    let areas: Vec<(&str, ProvinceId)> = marks
        .iter()
        .filter_map(|m| match *m {
            Mark::Submerged { at } => Some(("submerged", at)),
            Mark::FloodsNext { at } => Some(("floods-next", at)),
            _ => None,
        })
        .collect();
    if areas.is_empty() {
        return;
    }
    let k = shapes.scale;
    hatch(s);
    let _ = write!(
        s,
        r##"<g id="floods" transform="scale({k})" stroke="{FLOOD}" stroke-linejoin="round">"##
    );
    for (kind, at) in areas {
        let Some(space) = shapes.spaces.get(at.index()) else {
            continue;
        };
        let (fill, dash, width) = if kind == "submerged" {
            ("url(#flooded)", "", 3.0)
        } else {
            ("none", r#" stroke-dasharray="9 5""#, 3.4)
        };
        let _ = write!(
            s,
            r#"<path id="{kind}-{}" d="{}" fill="{fill}" stroke-width="{:.2}"{dash}/>"#,
            escape(&map.province(at).abbr),
            space.path,
            width / k
        );
    }
    s.push_str("</g>");
}

/// Over the units: each drowned unit's chip where it stood, crossed out in flood blue, and
/// a ring round each new centre (`centre`: where a province's centre mark stands).
pub fn draw_over_units(
    s: &mut String,
    map: &Map,
    layout: &Layout,
    marks: &[Mark],
    centre: &dyn Fn(ProvinceId) -> (f32, f32),
) {
    for mark in marks {
        match *mark {
            Mark::Drowned { unit } => {
                let at = map.province_of(unit.region);
                let (x, y) = unit_anchor(layout, at);
                let _ = write!(
                    s,
                    r#"<g id="drowned-{}" data-kind="drowned" data-power="{}">"#,
                    escape(&map.province(at).abbr),
                    escape(&map.power(unit.power).name)
                );
                super::overlay::side_chip(s, map, layout, &unit, (x, y));
                s.push_str(&cross_path(x, y, FLOOD));
                s.push_str("</g>");
            }
            Mark::NewCentre { at } => {
                let (x, y) = centre(at);
                let _ = write!(
                    s,
                    r##"<circle id="new-centre-{}" cx="{x:.1}" cy="{y:.1}" r="8.5" fill="none" stroke="{NEW_CENTRE}" stroke-width="3"/>"##,
                    escape(&map.province(at).abbr)
                );
            }
            _ => {}
        }
    }
}

/// The key's row of the floods, at `y` in the key's group, on a map whose file schedules
/// changes.
pub fn draw_key(s: &mut String, y: f32, px: f32) {
    hatch(s);
    let items: [(&str, String); 4] = [
        (
            "went under this winter",
            format!(
                r##"<rect x="0" y="{y}" width="22" height="14" fill="url(#flooded)" stroke="{FLOOD}" stroke-width="2"/>"##
            ),
        ),
        (
            "drowned",
            format!(
                r##"<rect x="0" y="{y}" width="22" height="14" rx="3" fill="#fff" stroke="#000" stroke-width="1.5"/>{}"##,
                cross_path(11.0, y + 7.0, FLOOD)
            ),
        ),
        (
            "new centre",
            format!(
                r##"<circle cx="11" cy="{}" r="4" fill="#fff" stroke="#000" stroke-width="1.5"/><circle cx="11" cy="{}" r="8" fill="none" stroke="{NEW_CENTRE}" stroke-width="3"/>"##,
                y + 7.0,
                y + 7.0
            ),
        ),
        (
            "floods next winter",
            format!(
                r##"<rect x="0" y="{y}" width="22" height="14" fill="none" stroke="{FLOOD}" stroke-width="2.5" stroke-dasharray="6 3"/>"##
            ),
        ),
    ];
    let mut x = 0.0;
    for (word, mark) in items {
        let _ = write!(
            s,
            r#"<g transform="translate({x} 0)">{mark}<text x="30" y="{:.1}">{word}</text></g>"#,
            y + 11.0
        );
        x += 44.0 + 6.6 * px / 11.0 * word.len() as f32;
    }
}
