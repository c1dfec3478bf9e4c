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
use super::routes;
use super::shapes::Shapes;
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
/// else below), clear of every name by at least 2 px ("the Tri/Ser dislodged chip touching
/// its label", the review of the shaped board) and off the arrow of the move that
/// dislodged it (issue 40: a dislodged chip hid the arrow of A Mun-Bur).
fn dislodged_anchor(map: &Map, layout: &Layout, marks: &[Mark], p: ProvinceId) -> (f32, f32) {
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
        let chip = |(x, y): (f32, f32)| {
            (
                x - CHIP_W / 2.0 - 2.0,
                y - 10.0,
                x + CHIP_W / 2.0 + 2.0,
                y + 10.0,
            )
        };
        let clear = |&at: &(f32, f32)| !super::style::hits_any_name(map, layout, chip(at));
        let came: Vec<(f32, f32)> = marks
            .iter()
            .filter_map(|m| match m {
                Mark::Move { from, to, .. } if map.province_of(*to) == p => {
                    Some(unit_anchor(layout, *from))
                }
                _ => None,
            })
            .collect();
        let off_arrows = |&at: &(f32, f32)| {
            came.iter()
                .all(|&a| !segment_in_box(a, (cx, cy + 8.0), chip(at)))
        };
        return spots
            .iter()
            .copied()
            .find(|s| clear(s) && off_arrows(s))
            .or_else(|| spots.iter().copied().find(clear))
            .unwrap_or(spots[0]);
    }
    (cx + BOX_W / 2.0 - 2.0, cy - BOX_H / 2.0 - 2.0)
}

/// Whether a segment passes through a box (left, top, right, bottom), sampled every 2 px.
fn segment_in_box(a: (f32, f32), b: (f32, f32), (l, t, r, bt): (f32, f32, f32, f32)) -> bool {
    let n = ((a.0 - b.0).hypot(a.1 - b.1) / 2.0).ceil().max(1.0) as usize;
    (0..=n).any(|i| {
        let k = i as f32 / n as f32;
        let (x, y) = (a.0 + (b.0 - a.0) * k, a.1 + (b.1 - a.1) * k);
        l <= x && x <= r && t <= y && y <= bt
    })
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

/// How far an arrow starts from its unit's middle and ends (its head's base) before its
/// destination's.
#[derive(Clone, Copy)]
struct Trim(f32, f32);

/// The trim of an arrow drawn under the chips.
const UNDER: Trim = Trim(9.0, 16.0);
/// How far from `p` (inside the chip centred at `c`) a line in direction `u` leaves the
/// chip (34 by 16 px), with a pixel to spare.
fn chip_exit(p: (f32, f32), c: (f32, f32), u: (f32, f32)) -> f32 {
    let (hx, hy) = (17.0 + 1.0, 8.0 + 1.0);
    let along = |d: f32, off: f32, h: f32| {
        if d.abs() < 1e-3 {
            f32::MAX
        } else {
            (h * d.signum() - off) / d
        }
    };
    along(u.0, p.0 - c.0, hx)
        .min(along(u.1, p.1 - c.1, hy))
        .max(0.0)
}

/// The trim of an arrow from `a` to `b` drawn over the chips centred at `ca` and `cb`:
/// it starts past the first chip's edge and its head's tip stops short of the second's,
/// so both chips' letters stay readable.
fn over_trim(a: (f32, f32), b: (f32, f32), ca: (f32, f32), cb: (f32, f32)) -> Trim {
    let len = (b.0 - a.0).hypot(b.1 - a.1).max(1e-3);
    let u = ((b.0 - a.0) / len, (b.1 - a.1) / len);
    Trim(
        chip_exit(a, ca, u) + 2.0,
        chip_exit(b, cb, (-u.0, -u.1)) + 4.0,
    )
}

/// An arrow from `a` to `b` (the short way round a wrapped canvas), its head at `b`.
fn arrow(
    s: &mut String,
    layout: &Layout,
    (a, b): ((f32, f32), (f32, f32)),
    colour: &str,
    ok: bool,
    trim: Trim,
) {
    let far = layout.nearest(a, b);
    let mut pieces = vec![(towards(a, far, trim.0), far)];
    if far != b {
        pieces.push((layout.nearest(b, a), b));
    }
    let dash = if ok { "" } else { r#" stroke-dasharray="7 4""# };
    let last = pieces.len() - 1;
    for (i, (p, q)) in pieces.into_iter().enumerate() {
        let q = if i == last { towards(q, p, trim.1) } else { q };
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

/// Where a board's marks stand: the map's layout, its shapes (a board drawn from shapes:
/// legs kept to their waters) and where a province's unit stands (its chip's middle on a
/// board drawn from shapes: a hold ring round a fleet on its coast, never at the name).
pub struct Places<'a> {
    /// The map.
    pub map: &'a Map,
    /// Its layout.
    pub layout: &'a Layout,
    /// Its shapes, on a board drawn from them.
    pub shapes: Option<&'a Shapes>,
    /// Where a province's unit stands.
    pub anchor: &'a dyn Fn(ProvinceId) -> (f32, f32),
}

/// Is the move from `from` to `to` one of a head-to-head (the unit there moves here)?
fn head_to_head(map: &Map, marks: &[Mark], from: ProvinceId, to: ProvinceId) -> bool {
    moves(map, marks, to, from)
}

/// The points a move's arrow passes, from its unit to its destination: through its route
/// ([`routes::stops`]), each leg touching water kept to its two spaces
/// ([`routes::over_water`]); two points for a straight arrow.
fn course(
    at: &Places,
    marks: &[Mark],
    from: ProvinceId,
    to: RegionId,
    via: &[ProvinceId],
) -> Vec<(f32, f32)> {
    let (map, layout) = (at.map, at.layout);
    let (a, b) = ((at.anchor)(from), target(map, layout, to));
    if layout.wrap {
        return vec![a, b];
    }
    let dest = map.province_of(to);
    let helpers = routes::helpers_of(marks, from, dest);
    let stops = routes::stops(map, from, dest, via, &helpers, at.anchor);
    let mut spaces = vec![(from, a)];
    spaces.extend(stops.iter().map(|&p| (p, (at.anchor)(p))));
    spaces.push((dest, b));
    routes::over_water(map, at.shapes, &spaces)
}

/// A move's arrow along its course; the two of a head-to-head beside the line between the
/// units, so neither hides the other.
fn move_arrow(
    s: &mut String,
    at: &Places,
    marks: &[Mark],
    (from, to, via): (ProvinceId, RegionId, &[ProvinceId]),
    colour: &str,
    ok: bool,
    over: bool,
) {
    let points = course(at, marks, from, to, via);
    let (a, b) = (points[0], points[points.len() - 1]);
    if points.len() > 2 {
        route_arrow(s, &points, colour, ok);
    } else if head_to_head(at.map, marks, from, at.map.province_of(to)) && !at.layout.wrap {
        let by = HEAD_TO_HEAD_OFFSET;
        let ends = (aside(a, a, b, by), aside(b, a, b, by));
        let trim = if over {
            over_trim(ends.0, ends.1, a, b)
        } else {
            UNDER
        };
        arrow(s, at.layout, ends, colour, ok, trim);
    } else {
        arrow(s, at.layout, (a, b), colour, ok, UNDER);
    }
}

/// Whether a move is drawn over the units: one of a head-to-head on a board drawn from
/// shapes, where the chips at both ends would hide most of it ("the losing arrow of a
/// head-to-head is hidden when it ends in a dislodgement", issue 40).
fn drawn_over(
    at: &Places,
    marks: &[Mark],
    from: ProvinceId,
    to: RegionId,
    via: &[ProvinceId],
) -> bool {
    at.layout.shaped
        && !at.layout.wrap
        && via.is_empty()
        && routes::helpers_of(marks, from, at.map.province_of(to)).is_empty()
        && head_to_head(at.map, marks, from, at.map.province_of(to))
}

/// Where the unit that held at `p` is drawn: beside the space when it was dislodged there
/// or destroyed with its attacker standing there, else where its chip stands.
fn held_at(at: &Places, marks: &[Mark], p: ProvinceId) -> (f32, f32) {
    let beside = marks
        .iter()
        .any(|m| matches!(m, Mark::Dislodged { at: d, .. } if *d == p))
        || (marks
            .iter()
            .any(|m| matches!(m, Mark::Removed { at: d, .. } if *d == p))
            && marks.iter().any(|m| {
                matches!(m, Mark::Move { to, result: Verdict::Succeeded, .. }
                    if at.map.province_of(*to) == p)
            }));
    if beside {
        dislodged_anchor(at.map, at.layout, marks, p)
    } else {
        (at.anchor)(p)
    }
}

/// Draws the moves of head-to-heads on a board drawn from shapes, over the units (see
/// [`drawn_over`]), their ends clear of both chips' letters.
pub fn draw_over_chips(s: &mut String, at: &Places, marks: &[Mark]) {
    s.push_str(r#"<g id="orders-over">"#);
    let mut ids = Ids(HashMap::new());
    for mark in marks {
        if let Mark::Move {
            power,
            from,
            to,
            via,
            result,
        } = mark
        {
            if !drawn_over(at, marks, *from, *to, via) {
                continue;
            }
            move_group(s, at.map, &mut ids, (*from, *to), *result);
            let colour = power_colour(at.map, *power);
            let ok = *result != Verdict::Failed;
            move_arrow(s, at, marks, (*from, *to, via), colour, ok, true);
            s.push_str("</g>");
        }
    }
    s.push_str("</g>");
}

/// Opens a move's group: its id, kind, result and destination.
fn move_group(
    s: &mut String,
    map: &Map,
    ids: &mut Ids,
    (from, to): (ProvinceId, RegionId),
    result: Verdict,
) {
    let _ = write!(
        s,
        r#"<g id="{}" data-kind="move" data-result="{}" data-to="{}">"#,
        ids.next(map, "order", from),
        result.word(),
        region_id(map, to)
    );
}

/// Draws every mark but those drawn over the units ([`draw_over_units`],
/// [`draw_over_chips`]).
pub fn draw_marks(s: &mut String, places: &Places, marks: &[Mark]) {
    let at = places;
    let (map, layout, anchor) = (at.map, at.layout, at.anchor);
    s.push_str(r#"<g id="orders">"#);
    let mut ids = Ids(HashMap::new());
    for mark in marks {
        match mark {
            Mark::Move {
                power,
                from,
                to,
                via,
                result,
            } => {
                if drawn_over(at, marks, *from, *to, via) {
                    continue;
                }
                move_group(s, map, &mut ids, (*from, *to), *result);
                let colour = power_colour(map, *power);
                let ok = *result != Verdict::Failed;
                move_arrow(s, at, marks, (*from, *to, via), colour, ok, false);
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
                    (
                        dislodged_anchor(map, layout, marks, *from),
                        unit_anchor(layout, *to),
                    ),
                    colour,
                    *result != Verdict::Failed,
                    UNDER,
                );
                s.push_str("</g>");
            }
            Mark::Hold { power, at, result } => {
                // A ring round the unit's chip (wider than the chip, so it shows beside it),
                // on a white edge so that it reads on its own power's tint; a unit dislodged
                // where it held has its ring where it waits to retreat.
                let (x, y) = held_at(places, marks, *at);
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
                        Some(to) => aim(places, marks, *from, *to),
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

/// Where a support of the move from `from` to `to` aims: the middle of the move's last
/// leg (a convoyed move's last fleet to its landing), the middle of its arrow when straight.
fn aim(at: &Places, marks: &[Mark], from: ProvinceId, to: ProvinceId) -> (f32, f32) {
    let moving = marks.iter().find_map(|m| match m {
        Mark::Move {
            from: f,
            to: t,
            via,
            ..
        } if *f == from && at.map.province_of(*t) == to => Some((*t, via.as_slice())),
        _ => None,
    });
    let (a, b) = match moving {
        Some((t, via)) => {
            let points = course(at, marks, from, t, via);
            let n = points.len();
            (
                points[n - 2],
                at.layout.nearest(points[n - 2], points[n - 1]),
            )
        }
        None => {
            let a = (at.anchor)(from);
            (a, at.layout.nearest(a, unit_anchor(at.layout, to)))
        }
    };
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
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
                let (x, y) = dislodged_anchor(map, layout, marks, *at);
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
                    dislodged_anchor(map, layout, marks, *at)
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
                let half = if layout.shaped { CHIP_W / 2.0 } else { 10.0 };
                cross_badge(s, x + half + 4.0, y - 7.0);
                s.push_str("</g>");
            }
            _ => {}
        }
    }
    s.push_str("</g>");
}

/// The mark of a unit removed, disbanded or destroyed: a black cross in a white disc
/// centred at (x, y), over its chip's top right corner, clear of the chip's letters (issue
/// 40: "the destroyed unit's letters vanish under its cross").
fn cross_badge(s: &mut String, x: f32, y: f32) {
    let r = 4.0;
    let _ = write!(
        s,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="8.5" fill="#fff" stroke="#000" stroke-width="1.3"/><path d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="#000" stroke-width="2.6" stroke-linecap="round"/>"##,
        x - r,
        y - r,
        x + r,
        y + r,
        x - r,
        y + r,
        x + r,
        y - r
    );
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
                Box::new(move |s: &mut String, x, y| {
                    let _ = write!(
                        s,
                        r##"<rect x="{}" y="{}" width="20" height="13" rx="3" fill="#fff" stroke="#000" stroke-width="1.2"/>"##,
                        x,
                        y + 1.0
                    );
                    cross_badge(s, x + 22.0, y + 2.0);
                }),
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
