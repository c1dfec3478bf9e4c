//! The orders' marks drawn over the board (see [`super::marks`]): arrows for moves and
//! retreats (solid when they went, dashed with a hollow head when they failed), thin lines
//! ending in a dot for supports, convoys and portages, rings for holds and builds, crosses
//! for removals, and dislodged units beside their space with dotted lines to each retreat.
//!
//! Ids: `order-<Abbr>` (the ordering unit's space; `.1`, `.2` for fleets sharing an ocean)
//! with `data-kind`, `data-result` and `data-to`; `dislodged-<Abbr>` with `data-retreats`;
//! `retreat-<Abbr>-<Region>` for each retreat option; `removed-<Abbr>`; `built-<Abbr>`.

use std::collections::HashMap;
use std::fmt::Write;

use super::layout::{Layout, BOX_H, BOX_W};
use super::marks::{Mark, Verdict};
use super::style::{escape, ink_on, letters, power_colour, region_id, unit_anchor};
use crate::game::ids::{ProvinceId, RegionId, UnitKind};
use crate::game::map::Map;

/// The ink of dislodged units and their retreats: black, dashed. It was red, Austria's
/// colour (issue 27); black is the one ink at least `colour::MIN_DIFFERENCE` from every
/// standard power for normal vision and under protanopia and deuteranopia.
pub const DISLODGED: &str = "#000000";

/// Where a dislodged unit is drawn: over the top right corner of its space's box; on a
/// board drawn from shapes, right of the unit that dislodged it, clear of the space's name.
fn dislodged_anchor(layout: &Layout, p: ProvinceId) -> (f32, f32) {
    let (cx, cy) = layout.centre(p);
    if layout.shaped {
        return (cx + 30.0, cy + 8.0);
    }
    (cx + BOX_W / 2.0 - 2.0, cy - BOX_H / 2.0 - 2.0)
}

/// Where a mark aimed at a region ends: the unit spot of its box, or a coast's mark.
fn target(map: &Map, layout: &Layout, r: RegionId) -> (f32, f32) {
    let p = map.province_of(r);
    if map.region(r).coast.is_some() {
        layout.point(map, r)
    } else {
        unit_anchor(layout, p)
    }
}

/// `p` moved `by` pixels towards `q`.
fn towards(p: (f32, f32), q: (f32, f32), by: f32) -> (f32, f32) {
    let len = (q.0 - p.0).hypot(q.1 - p.1);
    if len < 1e-3 {
        return p;
    }
    let t = (by / len).min(0.5);
    (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t)
}

/// An arrow from `a` to `b` (the short way round a wrapped canvas), its head at `b`.
fn arrow(s: &mut String, layout: &Layout, a: (f32, f32), b: (f32, f32), colour: &str, ok: bool) {
    let far = layout.nearest(a, b);
    let mut pieces = vec![(towards(a, far, 9.0), far)];
    if far != b {
        pieces.push((layout.nearest(b, a), b));
    }
    let dash = if ok { "" } else { r#" stroke-dasharray="7 4""# };
    let last = pieces.len() - 1;
    for (i, (p, q)) in pieces.into_iter().enumerate() {
        let q = if i == last { towards(q, p, 16.0) } else { q };
        let _ = write!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#fff" stroke-width="6.5" stroke-linecap="round"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="3.5"{dash}/>"##,
            p.0, p.1, q.0, q.1, p.0, p.1, q.0, q.1
        );
        if i == last {
            head(s, p, q, colour, ok);
        }
    }
}

/// An arrowhead at `q`, pointing away from `p`: filled when the order went, hollow when it
/// failed.
fn head(s: &mut String, p: (f32, f32), q: (f32, f32), colour: &str, ok: bool) {
    let len = (q.0 - p.0).hypot(q.1 - p.1).max(1e-3);
    let (ux, uy) = ((q.0 - p.0) / len, (q.1 - p.1) / len);
    let (bx, by) = (q.0 - ux * 12.0, q.1 - uy * 12.0);
    let (l, r) = (
        (bx - uy * 6.5, by + ux * 6.5),
        (bx + uy * 6.5, by - ux * 6.5),
    );
    let fill = if ok { colour } else { "#fff" };
    let _ = write!(
        s,
        r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{fill}" stroke="{colour}" stroke-width="2" stroke-linejoin="round"/>"##,
        q.0 + ux * 3.0,
        q.1 + uy * 3.0,
        l.0,
        l.1,
        r.0,
        r.1
    );
}

/// A thin line from a helping unit to what it helps, ending in a dot (hollow: failed).
fn help_line(s: &mut String, a: (f32, f32), b: (f32, f32), colour: &str, kind: &str, ok: bool) {
    let dash = match kind {
        "support" => "4 3",
        _ => "1.5 3",
    };
    let a = towards(a, b, 8.0);
    let fill = if ok { colour } else { "#fff" };
    let _ = write!(
        s,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="2.2" stroke-dasharray="{dash}" stroke-linecap="round"/><circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{fill}" stroke="{colour}" stroke-width="1.6"/>"##,
        a.0, a.1, b.0, b.1, b.0, b.1
    );
}

/// An id fragment for a space, numbered when several marks share it (fleets in an ocean).
struct Ids(HashMap<String, usize>);

impl Ids {
    fn next(&mut self, map: &Map, prefix: &str, p: ProvinceId) -> String {
        let key = format!("{prefix}-{}", escape(&map.province(p).abbr));
        let n = self.0.entry(key.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            key
        } else {
            format!("{key}.{}", *n - 1)
        }
    }
}

/// Draws every mark but the dislodged units (drawn over the units by [`draw_dislodged`]).
pub fn draw_marks(s: &mut String, map: &Map, layout: &Layout, marks: &[Mark]) {
    s.push_str(r#"<g id="orders">"#);
    let mut ids = Ids(HashMap::new());
    for mark in marks {
        match mark {
            Mark::Move {
                power,
                from,
                to,
                result,
            } => {
                let colour = power_colour(*power);
                let _ = write!(
                    s,
                    r#"<g id="{}" data-kind="move" data-result="{}" data-to="{}">"#,
                    ids.next(map, "order", *from),
                    result.word(),
                    region_id(map, *to)
                );
                let a = unit_anchor(layout, *from);
                arrow(
                    s,
                    layout,
                    a,
                    target(map, layout, *to),
                    colour,
                    *result != Verdict::Failed,
                );
                s.push_str("</g>");
            }
            Mark::Retreat {
                power,
                from,
                to,
                result,
            } => {
                let colour = power_colour(*power);
                let _ = write!(
                    s,
                    r#"<g id="{}" data-kind="retreat" data-result="{}" data-to="{}">"#,
                    ids.next(map, "order", *from),
                    result.word(),
                    escape(&map.province(*to).abbr)
                );
                arrow(
                    s,
                    layout,
                    unit_anchor(layout, *from),
                    unit_anchor(layout, *to),
                    colour,
                    *result != Verdict::Failed,
                );
                s.push_str("</g>");
            }
            Mark::Hold { power, at, result } => {
                let (x, y) = unit_anchor(layout, *at);
                let dash = if *result == Verdict::Failed {
                    r#" stroke-dasharray="4 3""#
                } else {
                    ""
                };
                let _ = write!(
                    s,
                    r##"<circle id="{}" data-kind="hold" data-result="{}" cx="{x:.1}" cy="{y:.1}" r="13" fill="none" stroke="{}" stroke-width="2.5"{dash}/>"##,
                    ids.next(map, "order", *at),
                    result.word(),
                    power_colour(*power)
                );
            }
            Mark::Help {
                kind,
                power,
                by,
                from,
                to,
                result,
            } => {
                let colour = power_colour(*power);
                let end = match to {
                    Some(to) => {
                        let a = unit_anchor(layout, *from);
                        let b = layout.nearest(a, unit_anchor(layout, *to));
                        ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
                    }
                    None => unit_anchor(layout, *from),
                };
                let start = unit_anchor(layout, *by);
                let _ = write!(
                    s,
                    r#"<g id="{}" data-kind="{kind}" data-result="{}" data-from="{}" data-to="{}">"#,
                    ids.next(map, "order", *by),
                    result.word(),
                    escape(&map.province(*from).abbr),
                    to.map_or(String::new(), |t| escape(&map.province(t).abbr))
                );
                help_line(
                    s,
                    start,
                    layout.nearest(start, end),
                    colour,
                    kind,
                    *result != Verdict::Failed,
                );
                s.push_str("</g>");
            }
            Mark::Built { unit } => {
                let p = map.province_of(unit.region);
                let (x, y) = unit_anchor(layout, p);
                let _ = write!(
                    s,
                    r##"<g id="{}" data-kind="build"><circle cx="{x:.1}" cy="{y:.1}" r="14" fill="none" stroke="#fff" stroke-width="5"/><circle cx="{x:.1}" cy="{y:.1}" r="14" fill="none" stroke="{}" stroke-width="2.5"/></g>"##,
                    ids.next(map, "built", p),
                    power_colour(unit.power)
                );
            }
            Mark::Removed { unit, at } => {
                let (x, y) = unit_anchor(layout, *at);
                let _ = write!(
                    s,
                    r##"<g id="{}" data-kind="removed"><rect x="{:.1}" y="{:.1}" width="20" height="14" rx="3" fill="#fff" stroke="{}" stroke-width="1.5" stroke-dasharray="3 2"/><path d="{}" fill="none" stroke="{}" stroke-width="1.9" stroke-linecap="round"/><path d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="#c00" stroke-width="2.5"/></g>"##,
                    ids.next(map, "removed", *at),
                    x - 10.0,
                    y - 7.0,
                    power_colour(unit.power),
                    letters(unit.kind, x, y),
                    power_colour(unit.power),
                    x - 11.0,
                    y - 9.0,
                    x + 11.0,
                    y + 9.0,
                    x - 11.0,
                    y + 9.0,
                    x + 11.0,
                    y - 9.0,
                );
            }
            Mark::Dislodged { .. } => {}
        }
    }
    s.push_str("</g>");
}

/// Draws each dislodged unit over its space's corner, ringed in red, with a dotted line to
/// each region it may retreat to.
pub fn draw_dislodged(s: &mut String, map: &Map, layout: &Layout, marks: &[Mark]) {
    s.push_str(r#"<g id="dislodged">"#);
    for mark in marks {
        let Mark::Dislodged { unit, at, options } = mark else {
            continue;
        };
        let abbr = escape(&map.province(*at).abbr);
        let (x, y) = dislodged_anchor(layout, *at);
        let colour = power_colour(unit.power);
        let retreats: Vec<String> = options.iter().map(|&r| region_id(map, r)).collect();
        let _ = write!(
            s,
            r#"<g id="dislodged-{abbr}" data-power="{}" data-retreats="{}">"#,
            escape(&map.power(unit.power).name),
            retreats.join(" ")
        );
        for &r in options {
            let b = layout.nearest((x, y), target(map, layout, r));
            let _ = write!(
                s,
                r##"<line id="retreat-{abbr}-{}" x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{:.1}" stroke="{DISLODGED}" stroke-width="1.8" stroke-dasharray="2 3" stroke-linecap="round"/>"##,
                region_id(map, r),
                b.0,
                b.1
            );
        }
        let w = if unit.kind == UnitKind::ArmyFleet {
            30.0
        } else {
            20.0
        };
        let _ = write!(
            s,
            r##"<rect x="{:.1}" y="{:.1}" width="{w}" height="14" rx="3" fill="{colour}" stroke="{DISLODGED}" stroke-width="3" stroke-dasharray="4 2"/><path d="{}" fill="none" stroke="{}" stroke-width="1.9" stroke-linecap="round"/></g>"##,
            x - w / 2.0,
            y - 7.0,
            letters(unit.kind, x, y),
            ink_on(colour),
        );
    }
    s.push_str("</g>");
}

/// The key to the marks, one row at `y` in the key's group.
pub fn draw_mark_key(s: &mut String, y: f32) {
    let grey = "#444";
    let mut x = 0.0;
    let item = |s: &mut String, x: &mut f32, draw: &dyn Fn(&mut String, f32), word: &str| {
        draw(s, *x);
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}">{word}</text>"#,
            *x + 34.0,
            y + 11.0
        );
        *x += 44.0 + 6.6 * word.len() as f32;
    };
    let at = |x: f32| ((x, y + 7.0), (x + 28.0, y + 7.0));
    item(
        s,
        &mut x,
        &|s, x| {
            let (a, b) = at(x);
            let _ = write!(
                s,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{grey}" stroke-width="3.5"/>"##,
                a.0,
                a.1,
                b.0 - 8.0,
                b.1
            );
            head(s, a, b, grey, true);
        },
        "move",
    );
    item(
        s,
        &mut x,
        &|s, x| {
            let (a, b) = at(x);
            let _ = write!(
                s,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{grey}" stroke-width="3.5" stroke-dasharray="7 4"/>"##,
                a.0,
                a.1,
                b.0 - 8.0,
                b.1
            );
            head(s, a, b, grey, false);
        },
        "failed",
    );
    item(
        s,
        &mut x,
        &|s, x| {
            let (a, b) = at(x);
            help_line(s, a, b, grey, "support", true);
        },
        "support",
    );
    item(
        s,
        &mut x,
        &|s, x| {
            let (a, b) = at(x);
            help_line(s, a, b, grey, "convoy", true);
        },
        "convoy / portage",
    );
    item(
        s,
        &mut x,
        &|s, x| {
            let _ = write!(
                s,
                r##"<circle cx="{}" cy="{}" r="7" fill="none" stroke="{grey}" stroke-width="2.5"/>"##,
                x + 14.0,
                y + 7.0
            );
        },
        "hold",
    );
    item(
        s,
        &mut x,
        &|s, x| {
            let _ = write!(
                s,
                r##"<rect x="{}" y="{}" width="20" height="13" rx="3" fill="#fff" stroke="{DISLODGED}" stroke-width="3" stroke-dasharray="4 2"/><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{DISLODGED}" stroke-width="1.8" stroke-dasharray="2 3"/>"##,
                x,
                y,
                x + 20.0,
                y + 7.0,
                x + 32.0,
                y + 7.0
            );
        },
        "dislodged, may retreat",
    );
}
