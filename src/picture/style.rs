//! What every part of a picture draws alike: the ink on the powers' colours (which are in
//! [`super::palette`]), text made safe for XML, region ids, where a unit stands in its box
//! and its letters.

use super::layout::Layout;
use crate::game::ids::{ProvinceId, RegionId, UnitKind};
use crate::game::map::Map;

/// Black or white, whichever reads better on a power's colour: the one of higher contrast
/// (WCAG 2), at least 4.58:1 on any colour.
pub fn ink_on(colour: &str) -> &'static str {
    use super::colour::contrast;
    if contrast(colour, "#000000") >= contrast(colour, "#ffffff") {
        "#000"
    } else {
        "#fff"
    }
}

pub use crate::markup::escape;

/// A region as an id fragment: `Lon`, `Spa.nc`.
pub fn region_id(map: &Map, r: RegionId) -> String {
    map.region_abbr(r).replace('/', ".")
}

/// A unit's letters (A, F, A-F) drawn as strokes centred at (x, y), 9 px high: as clear as
/// text at this size, and drawn without laying out a font for every unit.
pub fn letters(kind: UnitKind, x: f32, y: f32) -> String {
    let a = |x: f32| {
        format!(
            "M{:.1} {:.1}L{x:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}",
            x - 3.6,
            y + 4.5,
            y - 4.5,
            x + 3.6,
            y + 4.5,
            x - 2.1,
            y + 1.5,
            x + 2.1,
            y + 1.5
        )
    };
    let f = |x: f32| {
        format!(
            "M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}M{:.1} {y:.1}L{:.1} {y:.1}",
            x - 2.4,
            y + 4.5,
            x - 2.4,
            y - 4.5,
            x + 3.0,
            y - 4.5,
            x - 2.4,
            x + 2.2
        )
    };
    match kind {
        UnitKind::Army => a(x),
        UnitKind::Fleet => f(x),
        UnitKind::ArmyFleet => format!(
            "{}M{:.1} {y:.1}L{:.1} {y:.1}{}",
            a(x - 8.5),
            x - 2.0,
            x + 2.0,
            f(x + 8.5)
        ),
    }
}

/// Where a unit's mark stands in its province's box (its centre).
pub fn unit_anchor(layout: &Layout, p: ProvinceId) -> (f32, f32) {
    let (cx, cy) = layout.centre(p);
    (cx, cy + 8.0)
}

/// Land no power holds.
pub const LAND: &str = "#f6f1e4";

/// The size of a space's name, pixels.
pub const LABEL_PX: f32 = 14.0;

/// The box a space's name covers (bold, `LABEL_PX`): left, top, right, bottom.
pub(crate) fn name_box(map: &Map, layout: &Layout, p: ProvinceId) -> (f32, f32, f32, f32) {
    let (x, y) = layout.centre(p);
    let half = map.province(p).abbr.chars().count() as f32 * LABEL_PX * 0.36;
    (x - half, y - 3.0 - 11.0, x + half, y - 3.0 + 1.5)
}

/// Whether a box covers the name of any space.
pub(crate) fn hits_any_name(map: &Map, layout: &Layout, b: (f32, f32, f32, f32)) -> bool {
    map.province_ids().any(|q| {
        let n = name_box(map, layout, q);
        b.0 < n.2 && n.0 < b.2 && b.1 < n.3 && n.1 < b.3
    })
}

/// A cross over (x, y) in `ink` with a white edge, 26 by 20 px.
pub fn cross_path(x: f32, y: f32, ink: &str) -> String {
    let d = format!(
        "M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}",
        x - 13.0,
        y - 10.0,
        x + 13.0,
        y + 10.0,
        x - 13.0,
        y + 10.0,
        x + 13.0,
        y - 10.0
    );
    format!(
        r##"<path d="{d}" stroke="#fff" stroke-width="5.5" stroke-linecap="round"/><path d="{d}" stroke="{ink}" stroke-width="3" stroke-linecap="round"/>"##
    )
}

/// The size of a picture's smallest text (its key, legend, coasts' names and units'
/// letters) on a canvas `width` px wide: 11 px once a mail client shows the picture 1,000 px
/// wide (issue 27: "readable at 1,000 px wide (labels ≥ 11 px there)"), rounded up to a
/// half pixel, and never under 12.5 px.
pub fn small_px(width: f32) -> f32 {
    ((11.0 * width / 1000.0 * 2.0).ceil() / 2.0).max(12.5)
}
