//! The orders' marks drawn over the board (see [`super::marks`]): arrows for moves and
//! retreats (solid when they went, dashed with a hollow head when they failed; the two of a
//! head-to-head side by side; a convoyed or portaged move along its route through the
//! convoying fleets or portaging armies), thin lines ending in a dot for supports, rings
//! for holds, a "?" for a unit given no order, a "+" for builds, and, over the units,
//! crosses for units removed, disbanded or destroyed and dislodged units beside their space
//! with dotted lines to each retreat.
//!
//! Ids: `order-<Abbr>` (the ordering unit's space; `.1`, `.2` for fleets sharing an ocean)
//! with `data-kind`, `data-result` and `data-to`; `dislodged-<Abbr>` with `data-retreats`;
//! `retreat-<Abbr>-<Region>` for each retreat option; `removed-<Abbr>`; `built-<Abbr>`.

use std::collections::HashMap;
use std::fmt::Write;

use super::layout::{Layout, BOX_H, BOX_W};
use super::marks::{Mark, Verdict};
use super::palette::power_colour;
use super::style::{escape, ink_on, letters, region_id, unit_anchor};
use crate::game::ids::{ProvinceId, RegionId, UnitKind};
use crate::game::map::Map;
use crate::game::position::{Position, Unit};

/// The ink of dislodged units and their retreats: black, dashed. It was red, Austria's
/// colour (issue 27); black is the one ink at least `colour::MIN_DIFFERENCE` from every
/// standard power for normal vision and under protanopia and deuteranopia.
pub const DISLODGED: &str = "#000000";

/// Where a dislodged unit is drawn: over the top right corner of its space's box; on a
/// board drawn from shapes, beside the unit that dislodged it (right of it, else left,
/// else below), clear of every name by at least 2 px: "the Tri/Ser dislodged chip touching
/// its label" (the review of the shaped board).
fn dislodged_anchor(map: &Map, layout: &Layout, p: ProvinceId) -> (f32, f32) {
    let (cx, cy) = layout.centre(p);
    if layout.shaped {
        // The unit's chip (at most 34 px wide) ends 17 px right of the centre; this chip
        // starts 8 px beyond it.
        let side = 17.0 + 8.0 + CHIP_W / 2.0;
        let spots = [
            (cx + side, cy + 8.0),
            (cx - side, cy + 8.0),
            (cx + side, cy + 26.0),
            (cx - side, cy + 26.0),
            (cx, cy + 28.0),
        ];
        let clear = |&(x, y): &(f32, f32)| {
            let chip = (
                x - CHIP_W / 2.0 - 2.0,
                y - 10.0,
                x + CHIP_W / 2.0 + 2.0,
                y + 10.0,
            );
            !super::style::hits_any_name(map, layout, chip)
        };
        return spots.iter().copied().find(clear).unwrap_or(spots[0]);
    }
    (cx + BOX_W / 2.0 - 2.0, cy - BOX_H / 2.0 - 2.0)
}

/// The width of a dislodged or removed unit's chip on a board drawn from shapes.
const CHIP_W: f32 = 34.0;

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

/// An arrow along a route of points (a convoyed move through its fleets, a portage
/// through its armies), its head at the last point.
fn route_arrow(s: &mut String, route: &[(f32, f32)], colour: &str, ok: bool) {
    let n = route.len();
    if n < 2 {
        return;
    }
    let mut points: Vec<(f32, f32)> = route.to_vec();
    points[0] = towards(route[0], route[1], 9.0);
    points[n - 1] = towards(route[n - 1], route[n - 2], 16.0);
    let list = points
        .iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect::<Vec<_>>()
        .join(" ");
    let dash = if ok { "" } else { r#" stroke-dasharray="7 4""# };
    let _ = write!(
        s,
        r##"<polyline points="{list}" fill="none" stroke="#fff" stroke-width="6.5" stroke-linecap="round" stroke-linejoin="round"/><polyline points="{list}" fill="none" stroke="{colour}" stroke-width="3.5" stroke-linejoin="round"{dash}/>"##
    );
    head(s, points[n - 2], points[n - 1], colour, ok);
}

/// `p` moved `by` pixels to the right of the direction from `a` to `b`.
fn aside(p: (f32, f32), a: (f32, f32), b: (f32, f32), by: f32) -> (f32, f32) {
    let len = (b.0 - a.0).hypot(b.1 - a.1).max(1e-3);
    let (ux, uy) = ((b.0 - a.0) / len, (b.1 - a.1) / len);
    (p.0 - uy * by, p.1 + ux * by)
}

/// How far each arrow of a head-to-head is drawn beside the line between the two units:
/// the two arrows (3.5 px, with their 6.5 px halo) stay apart.
pub const HEAD_TO_HEAD_OFFSET: f32 = 6.0;

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

/// The route of a move from `from` to `to` helped by convoys or portages: the units that
/// carry it (`helpers`), taken nearest first from the moving unit, each step to the
/// nearest helper left (a chain of fleets or armies stands in order along its way).
fn route(from: (f32, f32), to: (f32, f32), helpers: &[(f32, f32)]) -> Vec<(f32, f32)> {
    let mut left: Vec<(f32, f32)> = helpers.to_vec();
    let mut out = vec![from];
    let mut at = from;
    while !left.is_empty() {
        let d = |p: &(f32, f32)| (p.0 - at.0).hypot(p.1 - at.1);
        let mut best = 0;
        for (i, p) in left.iter().enumerate() {
            if d(p) < d(&left[best]) {
                best = i;
            }
        }
        at = left.swap_remove(best);
        out.push(at);
    }
    out.push(to);
    out
}

/// The convoys and portages that carry a move from `from` to `to`: where their units stand.
fn helpers_of(marks: &[Mark], from: ProvinceId, to: ProvinceId) -> Vec<ProvinceId> {
    marks
        .iter()
        .filter_map(|m| match m {
            Mark::Help {
                kind: "convoy" | "portage",
                by,
                from: f,
                to: Some(t),
                ..
            } if *f == from && *t == to => Some(*by),
            _ => None,
        })
        .collect()
}

/// Is there a move from `from` to `to` among the marks?
fn moves(map: &Map, marks: &[Mark], from: ProvinceId, to: ProvinceId) -> bool {
    marks.iter().any(|m| {
        matches!(m, Mark::Move { from: f, to: t, .. } if *f == from && map.province_of(*t) == to)
    })
}

/// The hold ring's half-width and half-height: round a chip of `F E` (34 by 16 px) with
/// room to show.
const HOLD_RX: f32 = 24.0;
/// See [`HOLD_RX`].
const HOLD_RY: f32 = 15.0;

/// Draws every mark but those drawn over the units ([`draw_over_units`]); `anchor` is
/// where a province's unit stands (its chip's middle on a board drawn from shapes: a hold
/// ring round a fleet on its coast, never at the province's name).
pub fn draw_marks(
    s: &mut String,
    map: &Map,
    layout: &Layout,
    marks: &[Mark],
    anchor: &dyn Fn(ProvinceId) -> (f32, f32),
) {
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
                let colour = power_colour(map, *power);
                let dest = map.province_of(*to);
                let _ = write!(
                    s,
                    r#"<g id="{}" data-kind="move" data-result="{}" data-to="{}">"#,
                    ids.next(map, "order", *from),
                    result.word(),
                    region_id(map, *to)
                );
                let a = anchor(*from);
                let b = target(map, layout, *to);
                let ok = *result != Verdict::Failed;
                let helpers = helpers_of(marks, *from, dest);
                if !helpers.is_empty() && !layout.wrap {
                    let at: Vec<(f32, f32)> = helpers.iter().map(|&h| anchor(h)).collect();
                    route_arrow(s, &route(a, b, &at), colour, ok);
                } else if moves(map, marks, dest, *from) && !layout.wrap {
                    // A head-to-head: each arrow beside the line, so neither hides the other.
                    let by = HEAD_TO_HEAD_OFFSET;
                    arrow(
                        s,
                        layout,
                        aside(a, a, b, by),
                        aside(b, a, b, by),
                        colour,
                        ok,
                    );
                } else {
                    arrow(s, layout, a, b, colour, ok);
                }
                s.push_str("</g>");
            }
            Mark::Retreat {
                power,
                from,
                to,
                result,
            } => {
                let colour = power_colour(map, *power);
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
                    dislodged_anchor(map, layout, *from),
                    unit_anchor(layout, *to),
                    colour,
                    *result != Verdict::Failed,
                );
                s.push_str("</g>");
            }
            Mark::Hold { power, at, result } => {
                // A ring round the unit's chip (wider than the chip, so it shows beside it),
                // on a white edge so that it reads on its own power's tint; a unit dislodged
                // where it held has its ring where it waits to retreat.
                let dislodged = marks
                    .iter()
                    .any(|m| matches!(m, Mark::Dislodged { at: d, .. } if d == at));
                let (x, y) = if dislodged {
                    dislodged_anchor(map, layout, *at)
                } else {
                    anchor(*at)
                };
                let dash = if *result == Verdict::Failed {
                    r#" stroke-dasharray="5 3""#
                } else {
                    ""
                };
                let _ = write!(
                    s,
                    r##"<g id="{}" data-kind="hold" data-result="{}"><ellipse cx="{x:.1}" cy="{y:.1}" rx="{HOLD_RX}" ry="{HOLD_RY}" fill="none" stroke="#fff" stroke-width="5.5"/><ellipse cx="{x:.1}" cy="{y:.1}" rx="{HOLD_RX}" ry="{HOLD_RY}" fill="none" stroke="{}" stroke-width="3"{dash}/></g>"##,
                    ids.next(map, "order", *at),
                    result.word(),
                    power_colour(map, *power)
                );
            }
            Mark::Unordered { at, result, .. } => {
                let (x, y) = anchor(*at);
                let _ = write!(
                    s,
                    r#"<g id="{}" data-kind="unordered" data-result="{}">"#,
                    ids.next(map, "order", *at),
                    result.word(),
                );
                question(s, x, y);
                s.push_str("</g>");
            }
            Mark::Help {
                kind,
                power,
                by,
                from,
                to,
                result,
            } => {
                let colour = power_colour(map, *power);
                let _ = write!(
                    s,
                    r#"<g id="{}" data-kind="{kind}" data-result="{}" data-from="{}" data-to="{}">"#,
                    ids.next(map, "order", *by),
                    result.word(),
                    escape(&map.province(*from).abbr),
                    to.map_or(String::new(), |t| escape(&map.province(t).abbr))
                );
                let ok = *result != Verdict::Failed;
                let carried = matches!(*kind, "convoy" | "portage")
                    && to.is_some_and(|t| moves(map, marks, *from, t))
                    && !layout.wrap;
                if carried {
                    // The move's arrow runs through this unit: a ring on the way marks it.
                    let (x, y) = anchor(*by);
                    let fill = if ok { "none" } else { "#fff" };
                    let _ = write!(
                        s,
                        r##"<circle cx="{x:.1}" cy="{y:.1}" r="12" fill="{fill}" stroke="{colour}" stroke-width="2" stroke-dasharray="1.5 3"/>"##
                    );
                } else {
                    let end = match to {
                        Some(to) => {
                            let a = anchor(*from);
                            let b = layout.nearest(a, unit_anchor(layout, *to));
                            ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
                        }
                        None => anchor(*from),
                    };
                    let start = anchor(*by);
                    help_line(s, start, layout.nearest(start, end), colour, kind, ok);
                }
                s.push_str("</g>");
            }
            Mark::Built { unit } => {
                let p = map.province_of(unit.region);
                let (x, y) = unit_anchor(layout, p);
                let _ = write!(
                    s,
                    r#"<g id="{}" data-kind="build">"#,
                    ids.next(map, "built", p)
                );
                plus(s, x, y, power_colour(map, unit.power));
                s.push_str("</g>");
            }
            Mark::Removed { .. }
            | Mark::Dislodged { .. }
            | Mark::Submerged { .. }
            | Mark::Drowned { .. }
            | Mark::NewCentre { .. }
            | Mark::FloodsNext { .. } => {}
        }
    }
    s.push_str("</g>");
}

/// The mark of a unit given no order: a dotted black ring and a black "?" in a white disc
/// over the unit's top left, in no power's colour.
fn question(s: &mut String, x: f32, y: f32) {
    let _ = write!(
        s,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="13" fill="none" stroke="#000" stroke-width="2" stroke-dasharray="2 2.5"/>"##
    );
    question_badge(s, x - 19.0, y - 10.0);
}

/// A black "?" in a white disc centred at (qx, qy).
fn question_badge(s: &mut String, qx: f32, qy: f32) {
    let _ = write!(
        s,
        r##"<circle cx="{qx:.1}" cy="{qy:.1}" r="7.5" fill="#fff" stroke="#000" stroke-width="1.5"/><path d="M{:.1} {:.1}Q{:.1} {:.1} {:.1} {:.1}Q{:.1} {:.1} {qx:.1} {:.1}L{qx:.1} {:.1}M{qx:.1} {:.1}L{qx:.1} {:.1}" fill="none" stroke="#000" stroke-width="1.8" stroke-linecap="round"/>"##,
        qx - 2.6,
        qy - 2.0,
        qx,
        qy - 6.5,
        qx + 2.6,
        qy - 2.0,
        qx + 2.6,
        qy + 0.2,
        qy + 0.8,
        qy + 1.8,
        qy + 4.2,
        qy + 4.4,
    );
}

/// The mark of a unit built: a ring, and a "+" in the power's colour over its top right.
fn plus(s: &mut String, x: f32, y: f32, colour: &str) {
    let (px, py) = (x + 19.0, y - 10.0);
    let _ = write!(
        s,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="14" fill="none" stroke="#fff" stroke-width="5"/><circle cx="{x:.1}" cy="{y:.1}" r="14" fill="none" stroke="{colour}" stroke-width="2.5"/><circle cx="{px:.1}" cy="{py:.1}" r="7.5" fill="{colour}" stroke="#000" stroke-width="1.2"/><path d="M{:.1} {py:.1}L{:.1} {py:.1}M{px:.1} {:.1}L{px:.1} {:.1}" stroke="{}" stroke-width="2.2"/>"##,
        px - 4.5,
        px + 4.5,
        py - 4.5,
        py + 4.5,
        ink_on(colour)
    );
}

/// A unit's chip drawn beside a space (dislodged, removed): its kind and its power's letter
/// on a board drawn from shapes, the kind's strokes on the schematic board.
pub(super) fn side_chip(
    s: &mut String,
    map: &Map,
    layout: &Layout,
    unit: &Unit,
    (x, y): (f32, f32),
) {
    let colour = power_colour(map, unit.power);
    if layout.shaped {
        let kind = match unit.kind {
            UnitKind::Army => "A",
            UnitKind::Fleet => "F",
            UnitKind::ArmyFleet => "A-F",
        };
        let text = format!("{kind} {}", map.power(unit.power).letter);
        let _ = write!(
            s,
            r##"<rect x="{:.1}" y="{:.1}" width="{CHIP_W}" height="16" rx="3" fill="{colour}" stroke="{DISLODGED}" stroke-width="3" stroke-dasharray="4 2"/><text x="{x:.1}" y="{:.1}" font-size="{}" font-weight="bold" text-anchor="middle" fill="{}">{}</text>"##,
            x - CHIP_W / 2.0,
            y - 8.0,
            y + 4.5,
            super::style::small_px(layout.width),
            ink_on(colour),
            escape(&text)
        );
        return;
    }
    let w = if unit.kind == UnitKind::ArmyFleet {
        30.0
    } else {
        20.0
    };
    let _ = write!(
        s,
        r##"<rect x="{:.1}" y="{:.1}" width="{w}" height="14" rx="3" fill="{colour}" stroke="{DISLODGED}" stroke-width="3" stroke-dasharray="4 2"/><path d="{}" fill="none" stroke="{}" stroke-width="1.9" stroke-linecap="round"/>"##,
        x - w / 2.0,
        y - 7.0,
        letters(unit.kind, x, y),
        ink_on(colour),
    );
}

/// Draws, over the units, each unit removed, disbanded or destroyed (crossed out in black,
/// beside the unit that now stands there, if any: a unit destroyed for want of a retreat is
/// never hidden under its attacker's chip), and each dislodged unit beside its space,
/// dashed in black, with a dotted line to each region it may retreat to.
pub fn draw_over_units(
    s: &mut String,
    map: &Map,
    layout: &Layout,
    position: &Position,
    marks: &[Mark],
) {
    s.push_str(r#"<g id="dislodged">"#);
    let mut ids = Ids(HashMap::new());
    for mark in marks {
        match mark {
            Mark::Dislodged { unit, at, options } => {
                let abbr = escape(&map.province(*at).abbr);
                let (x, y) = dislodged_anchor(map, layout, *at);
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
                side_chip(s, map, layout, unit, (x, y));
                s.push_str("</g>");
            }
            Mark::Removed { unit, at } => {
                let taken = position.unit_at(*at).is_some();
                let (x, y) = if taken {
                    dislodged_anchor(map, layout, *at)
                } else {
                    unit_anchor(layout, *at)
                };
                let _ = write!(
                    s,
                    r#"<g id="{}" data-kind="removed" data-power="{}">"#,
                    ids.next(map, "removed", *at),
                    escape(&map.power(unit.power).name)
                );
                side_chip(s, map, layout, unit, (x, y));
                cross(s, x, y);
                s.push_str("</g>");
            }
            _ => {}
        }
    }
    s.push_str("</g>");
}

/// A black cross with a white edge over a unit's chip: removed, disbanded or destroyed.
fn cross(s: &mut String, x: f32, y: f32) {
    cross_in(s, x, y, "#000");
}

/// A cross in `ink` with a white edge over a unit's chip.
fn cross_in(s: &mut String, x: f32, y: f32, ink: &str) {
    s.push_str(&super::style::cross_path(x, y, ink));
}

/// The key to the marks, two rows from `y` in the key's group: the orders, then what
/// happened to units (no order, built, removed, dislodged).
pub fn draw_mark_key(s: &mut String, y: f32, px: f32) {
    const GREY: &str = "#444";
    let grey = GREY;
    type Draw = dyn Fn(&mut String, f32, f32);
    let line = |dash: &'static str| {
        move |s: &mut String, x: f32, y: f32| {
            let _ = write!(
                s,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{grey}" stroke-width="3.5"{dash}/>"##,
                x,
                y + 7.0,
                x + 20.0,
                y + 7.0
            );
            head(s, (x, y + 7.0), (x + 28.0, y + 7.0), grey, dash.is_empty());
        }
    };
    let rows: [Vec<(&str, Box<Draw>)>; 2] = [
        vec![
            ("move", Box::new(line(""))),
            ("failed", Box::new(line(r#" stroke-dasharray="7 4""#))),
            (
                "support",
                Box::new(move |s: &mut String, x, y| {
                    help_line(s, (x, y + 7.0), (x + 28.0, y + 7.0), grey, "support", true)
                }),
            ),
            (
                "convoy / portage (along its route)",
                Box::new(move |s: &mut String, x, y| {
                    help_line(s, (x, y + 7.0), (x + 28.0, y + 7.0), grey, "convoy", true)
                }),
            ),
            (
                "hold",
                Box::new(move |s: &mut String, x, y| {
                    let _ = write!(
                        s,
                        r##"<ellipse cx="{}" cy="{}" rx="12" ry="7" fill="none" stroke="{grey}" stroke-width="2.5"/>"##,
                        x + 14.0,
                        y + 7.0
                    );
                }),
            ),
        ],
        vec![
            (
                "no order",
                Box::new(move |s: &mut String, x, y| question_badge(s, x + 14.0, y + 7.0)),
            ),
            (
                "built",
                Box::new(move |s: &mut String, x, y| {
                    let (px, py) = (x + 14.0, y + 7.0);
                    let _ = write!(
                        s,
                        r##"<circle cx="{px}" cy="{py}" r="7.5" fill="{grey}" stroke="#000" stroke-width="1.2"/><path d="M{} {py}L{} {py}M{px} {}L{px} {}" stroke="#fff" stroke-width="2.2"/>"##,
                        px - 4.5,
                        px + 4.5,
                        py - 4.5,
                        py + 4.5
                    );
                }),
            ),
            (
                "removed, disbanded or destroyed",
                Box::new(move |s: &mut String, x, y| cross(s, x + 14.0, y + 7.0)),
            ),
            (
                "dislodged, may retreat",
                Box::new(move |s: &mut String, x, y| {
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
                }),
            ),
        ],
    ];
    for (row, items) in rows.iter().enumerate() {
        let y = y + row as f32 * KEY_ROW;
        let mut x = 0.0;
        for (word, draw) in items {
            draw(s, x, y);
            let _ = write!(
                s,
                r#"<text x="{:.1}" y="{:.1}">{word}</text>"#,
                x + 34.0,
                y + 11.0
            );
            x += 44.0 + 6.6 * px / 11.0 * word.len() as f32;
        }
    }
}

/// The height of a row of the key.
const KEY_ROW: f32 = 22.0;
