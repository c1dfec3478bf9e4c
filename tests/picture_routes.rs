//! Every order drawn where it goes (issue 40, point 1), read from the SVG: a convoy's or
//! portage's route in its own sequence, fleets' and convoys' legs over water, a support of
//! a convoyed move aimed at its last leg, no order mark hidden under the chips drawn over
//! it, the ring of a failed hold where the held unit is drawn, a removed unit's letters
//! readable beside its cross, and a failed retreat crossed out.

// tests may unwrap
#![allow(clippy::unwrap_used, clippy::expect_used)]

use herald::game::ids::ProvinceId;
use herald::game::map::builtin;
use herald::game::variant::Variant;
use herald::picture::{self, shapes};

/// Whether a point (pixels of the board) lies inside a space's outline (even-odd over its
/// rings, in grid units).
fn contains(shapes: &shapes::Shapes, p: ProvinceId, (x, y): (f32, f32)) -> bool {
    let rings = shapes::rings(&shapes.spaces[p.index()].path);
    let (x, y) = (x / shapes.scale, y / shapes.scale);
    let mut odd = false;
    for ring in &rings {
        for k in 0..ring.len() {
            let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
            let (ax, ay, bx, by) = (a.0 as f32, a.1 as f32, b.0 as f32, b.1 as f32);
            if (ay > y) != (by > y) && x < ax + (y - ay) * (bx - ax) / (by - ay) {
                odd = !odd;
            }
        }
    }
    odd
}

/// The value of `name="…"` in one tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let j = tag[i..].find('"')? + i;
    Some(&tag[i..j])
}

/// A number attribute of a tag.
fn num(tag: &str, name: &str) -> f32 {
    attr(tag, name)
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        .parse()
        .unwrap()
}

/// Every start tag of an element.
fn all_tags<'a>(svg: &'a str, element: &str) -> Vec<&'a str> {
    let open = format!("<{element} ");
    svg.match_indices(&open)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
        .collect()
}

/// Where the element with this id starts, if it is there.
fn start_of(svg: &str, id: &str) -> Option<usize> {
    let at = svg.find(&format!(" id=\"{id}\""))?;
    svg[..at].rfind('<')
}

/// The text of the element with this id, up to the end of its group.
fn group<'a>(svg: &'a str, id: &str) -> &'a str {
    let start = start_of(svg, id).unwrap_or_else(|| panic!("no {id}"));
    &svg[start..start + svg[start..].find("</g>").unwrap()]
}

/// A rectangle: left, top, right, bottom.
type Rect = (f32, f32, f32, f32);

fn rect_of(tag: &str) -> Rect {
    let (x, y) = (num(tag, "x"), num(tag, "y"));
    (x, y, x + num(tag, "width"), y + num(tag, "height"))
}

fn overlap(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The chip of the first `<rect>` inside the element with this id.
fn chip(svg: &str, id: &str) -> Rect {
    rect_of(all_tags(group(svg, id), "rect")[0])
}

fn centre(r: Rect) -> (f32, f32) {
    ((r.0 + r.2) / 2.0, (r.1 + r.3) / 2.0)
}

/// The points of a `<polyline>`.
fn points(tag: &str) -> Vec<(f32, f32)> {
    attr(tag, "points")
        .unwrap()
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// The coloured line of a move's mark (not its white edge): its points.
fn stroke_of(group: &str) -> Vec<(f32, f32)> {
    if let Some(p) = all_tags(group, "polyline")
        .into_iter()
        .find(|t| attr(t, "stroke") != Some("#fff"))
    {
        return points(p);
    }
    all_tags(group, "line")
        .into_iter()
        .filter(|t| attr(t, "stroke") != Some("#fff"))
        .flat_map(|t| [(num(t, "x1"), num(t, "y1")), (num(t, "x2"), num(t, "y2"))])
        .collect()
}

/// Whether the route passes within 2 px of each point, in order.
fn runs_through(route: &[(f32, f32)], stops: &[(f32, f32)]) -> bool {
    let mut from = 0;
    for s in stops {
        match route[from..]
            .iter()
            .position(|p| (p.0 - s.0).hypot(p.1 - s.1) <= 2.0)
        {
            Some(i) => from += i + 1,
            None => return false,
        }
    }
    true
}

/// The pictures of a case file's cases on the standard map, with each case's name.
fn pictures_of(text: &str) -> Vec<(String, String)> {
    herald::cases::parse_cases(text)
        .unwrap()
        .iter()
        .map(|c| {
            let svg = picture::of_case_on_map_text(builtin::STANDARD, c)
                .unwrap()
                .svg;
            (c.name.clone(), svg)
        })
        .collect()
}

fn case_picture(text: &str) -> String {
    pictures_of(text).remove(0).1
}

/// "Turkey's Portage `F Bla-Bul-Con-Aeg` is drawn Bla→Con→Bul→Aeg … all six long cases of
/// `tests/cases/portage_routes.txt` come out as impossible paths" (issue 40): each route is
/// drawn through the armies in the order's own sequence.
#[test]
fn a_portage_is_drawn_in_its_routes_order() {
    let text = std::fs::read_to_string("tests/cases/portage_routes.txt").unwrap();
    let mut routes = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("Russia: F ") && l.matches('-').count() > 2);
    let pictures = pictures_of(&text);
    assert_eq!(pictures.len(), 6);
    for (name, svg) in &pictures {
        let order = routes.next().unwrap();
        let names: Vec<&str> = order["Russia: F ".len()..].split('-').collect();
        let from = names[0];
        let stops: Vec<(f32, f32)> = names[1..names.len() - 1]
            .iter()
            .map(|p| centre(chip(svg, &format!("unit-{p}"))))
            .collect();
        let line = stroke_of(group(svg, &format!("order-{from}")));
        assert!(
            runs_through(&line, &stops),
            "{name}: {order} drawn as {line:?}, not through {stops:?}"
        );
    }
}

/// The same on a real game's short route: Turkey's `F Bla-Bul-Con-Aeg`.
#[test]
fn a_short_portage_is_drawn_in_its_routes_order() {
    let svg = case_picture(
        "VARIANT_ALL portage\nCASE bla bul con aeg\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\
         \tTurkey: F bla\n\tTurkey: A bul\n\tTurkey: A con\nORDERS\n\tTurkey: F Bla-Bul-Con-Aeg\n\
         \tTurkey: A Bul P F Bla-Aeg\n\tTurkey: A Con P F Bla-Aeg\nEND\n",
    );
    let stops = [
        centre(chip(&svg, "unit-Bul")),
        centre(chip(&svg, "unit-Con")),
    ];
    let line = stroke_of(group(&svg, "order-Bla"));
    assert!(runs_through(&line, &stops), "{line:?} not Bla-Bul-Con-Aeg");
}

/// "a convoy `A Alb-Smy` via Ion and Aeg is drawn with its first leg over Greece" (issue
/// 40): with no route written, the convoy runs along the chain of its fleets, Ion then Aeg.
#[test]
fn a_convoy_without_a_written_route_runs_along_its_chain_of_fleets() {
    let svg = case_picture(
        "VARIANT_ALL standard\nCASE alb smy\nPRESTATE_SETPHASE Spring 1902, Movement\nPRESTATE\n\
         \tItaly: A alb\n\tItaly: F ion\n\tItaly: F aeg\nORDERS\n\tItaly: A alb-smy via convoy\n\
         \tItaly: F ion C A alb-smy\n\tItaly: F aeg C A alb-smy\nEND\n",
    );
    let stops = [
        centre(chip(&svg, "unit-Ion")),
        centre(chip(&svg, "unit-Aeg")),
    ];
    let line = stroke_of(group(&svg, "order-Alb"));
    assert!(runs_through(&line, &stops), "{line:?} not Alb-Ion-Aeg-Smy");
}

/// The land spaces (but `ends`) under a line on the standard board, with where.
fn land_under(line: &[(f32, f32)], ends: &[&str]) -> Vec<String> {
    let v = Variant::builtin("standard").unwrap();
    let map = &v.map;
    let shapes = picture::shapes_of(map).unwrap();
    let mut out = Vec::new();
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        let steps = (a.0 - b.0).hypot(a.1 - b.1).ceil() as usize;
        for i in 0..=steps {
            let t = i as f32 / steps.max(1) as f32;
            let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            for q in map.province_ids() {
                let abbr = map.abbr(q);
                // A point within 2 px of the coast is the line's own width (3.5 px).
                let deep = (0..8).all(|k| {
                    let a = k as f32 * std::f32::consts::FRAC_PI_4;
                    contains(&shapes, q, (p.0 + 2.0 * a.cos(), p.1 + 2.0 * a.sin()))
                });
                if !map.province(q).terrain.is_water()
                    && !ends.contains(&abbr)
                    && contains(&shapes, q, p)
                    && deep
                {
                    out.push(format!("{abbr} at {p:?}"));
                }
            }
        }
    }
    out
}

/// "Convoy legs between two fleets can still cross land (Mao→Wes over Iberia)" (issue 40):
/// no point of the convoyed army's line lies on land but its start's and its end's (more
/// than 2 px from the coast: the line is 3.5 px wide).
#[test]
fn a_convoys_legs_keep_to_the_water() {
    let svg = case_picture(
        "VARIANT_ALL standard\nCASE long convoy\nPRESTATE_SETPHASE Spring 1903, Movement\nPRESTATE\n\
         \tEngland: A lon\n\tEngland: F eng\n\tEngland: F mao\n\tEngland: F wes\nORDERS\n\
         \tEngland: A lon-tun via convoy\n\tEngland: F eng C A lon-tun\n\tEngland: F mao C A lon-tun\n\
         \tEngland: F wes C A lon-tun\nEND\n",
    );
    let line = stroke_of(group(&svg, "order-Lon"));
    let land = land_under(&line, &["Lon", "Tun"]);
    assert!(land.is_empty(), "the convoy crosses land: {land:?}");
}

/// "a support of a convoyed move aims at the straight start-to-end line, so it ends in
/// empty sea off London (F Eng S A Yor-Bel)" (issue 40): it ends on the move's last leg.
#[test]
fn a_support_of_a_convoyed_move_aims_at_its_last_leg() {
    let svg = case_picture(
        "VARIANT_ALL standard\nCASE yor bel\nPRESTATE_SETPHASE Spring 1902, Movement\nPRESTATE\n\
         \tEngland: A yor\n\tEngland: F nth\n\tEngland: F eng\nORDERS\n\
         \tEngland: A yor-bel via convoy\n\tEngland: F nth C A yor-bel\n\tEngland: F eng S A yor-bel\nEND\n",
    );
    let line = stroke_of(group(&svg, "order-Yor"));
    let n = line.len();
    let (a, b) = (line[n - 2], line[n - 1]);
    let dot = all_tags(group(&svg, "order-Eng"), "circle")[0];
    let p = (num(dot, "cx"), num(dot, "cy"));
    // The distance from the dot to the last leg (a segment).
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    let off = (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy);
    assert!(
        off <= 3.0,
        "the support ends {off} px off the last leg {a:?}-{b:?}"
    );
}

/// The chips (units, dislodged and removed units) drawn after `at` in the SVG.
fn chips_after(svg: &str, at: usize) -> Vec<Rect> {
    svg[at..]
        .match_indices(" id=\"")
        .filter_map(|(i, _)| {
            let id = &svg[at + i + 5..];
            let id = &id[..id.find('"')?];
            let chip_like = ["unit-", "dislodged-", "removed-"]
                .iter()
                .any(|p| id.starts_with(p));
            chip_like.then(|| chip(svg, id))
        })
        .collect()
}

/// Each move's mark whose coloured line lies more than half under chips drawn over it.
fn hidden_moves(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in svg.match_indices(r#"data-kind="move""#) {
        let start = svg[..i].rfind('<').unwrap();
        let g = &svg[start..start + svg[start..].find("</g>").unwrap()];
        let id = attr(g, "id").unwrap().to_string();
        let chips = chips_after(svg, start + g.len());
        let line = stroke_of(g);
        let (mut all, mut under) = (0, 0);
        for w in line.windows(2) {
            for k in 0..20 {
                let t = k as f32 / 20.0;
                let p = (
                    w[0].0 + (w[1].0 - w[0].0) * t,
                    w[0].1 + (w[1].1 - w[0].1) * t,
                );
                all += 1;
                if chips
                    .iter()
                    .any(|c| c.0 <= p.0 && p.0 <= c.2 && c.1 <= p.1 && p.1 <= c.3)
                {
                    under += 1;
                }
            }
        }
        if under * 2 > all {
            out.push(format!("{id}: {under} of {all} under chips"));
        }
    }
    out
}

/// "A head-to-head that ends in a dislodgement still hides the losing arrow under the
/// chips" (issue 40): no move's mark lies mostly under the chips drawn over it, in that
/// head-to-head and on the crowded middle game.
#[test]
fn no_chip_hides_a_move() {
    let h2h = case_picture(
        "VARIANT_ALL standard\nCASE head to head\nPRESTATE_SETPHASE Spring 1902, Movement\nPRESTATE\n\
         \tFrance: A mar\n\tItaly: A pie\n\tItaly: F lyo\nORDERS\n\tFrance: A mar-pie\n\
         \tItaly: A pie-mar\n\tItaly: F lyo S A pie-mar\nEND\n",
    );
    assert_eq!(
        attr(group(&h2h, "order-Mar"), "data-result"),
        Some("failed")
    );
    let hidden = hidden_moves(&h2h);
    assert!(hidden.is_empty(), "hidden: {hidden:?}");
    let text = std::fs::read_to_string("tests/cases/bench_middlegame.txt").unwrap();
    for (name, svg) in pictures_of(&text) {
        let hidden = hidden_moves(&svg);
        assert!(hidden.is_empty(), "{name}: hidden: {hidden:?}");
    }
}

/// A destroyed unit's picture: Austria's A Bud holds, is dislodged and has nowhere to go.
fn destroyed() -> String {
    case_picture(
        "VARIANT_ALL standard\nCASE destroyed\nPRESTATE_SETPHASE Spring 1902, Movement\nPRESTATE\n\
         \tAustria: A bud\n\tRussia: A gal\n\tRussia: A rum\n\tRussia: A ser\n\tRussia: A vie\n\tRussia: A tri\n\
         ORDERS\n\tRussia: A gal-bud\n\tRussia: A rum S A gal-bud\n\tRussia: A ser H\n\tRussia: A vie H\n\
         \tRussia: A tri H\n\tAustria: A bud H\nEND\n",
    )
}

/// "the 'failed hold' ring is drawn round the *winner* now standing there" (issue 40): the
/// ring of the destroyed unit's hold circles its own chip, not the attacker's.
#[test]
fn a_failed_holds_ring_circles_the_unit_that_held() {
    let svg = destroyed();
    let ring = all_tags(group(&svg, "order-Bud"), "ellipse")[0];
    let at = (num(ring, "cx"), num(ring, "cy"));
    let held = centre(chip(&svg, "removed-Bud"));
    let winner = centre(chip(&svg, "unit-Bud"));
    let d = |p: (f32, f32)| (p.0 - at.0).hypot(p.1 - at.1);
    assert!(
        d(held) <= 2.0,
        "the ring at {at:?}, the held unit at {held:?}"
    );
    assert!(d(winner) > 20.0, "the ring round the winner at {winner:?}");
}

/// The box of a path's points (`M x y L x y …`).
fn path_box(d: &str) -> Rect {
    let nums: Vec<f32> = d
        .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
        .filter_map(|w| w.parse().ok())
        .collect();
    let xs = nums.iter().step_by(2);
    let ys = nums.iter().skip(1).step_by(2);
    (
        xs.clone().copied().fold(f32::MAX, f32::min),
        ys.clone().copied().fold(f32::MAX, f32::min),
        xs.copied().fold(f32::MIN, f32::max),
        ys.copied().fold(f32::MIN, f32::max),
    )
}

/// "the destroyed unit's letters vanish under its cross" (issue 40): the cross stands
/// beside the chip's letters, which stay readable.
#[test]
fn a_destroyed_units_letters_stay_readable_beside_its_cross() {
    let svg = destroyed();
    let removed = group(&svg, "removed-Bud");
    let c = chip(&svg, "removed-Bud");
    let text = all_tags(removed, "text")[0];
    let (tx, ty) = (num(text, "x"), num(text, "y"));
    // "A A" in 12.5 px bold: about 24 px wide, 10 px high above its baseline.
    let letters = (tx - 12.0, ty - 10.0, tx + 12.0, ty);
    assert!(overlap(c, letters), "the letters are off the chip");
    for p in all_tags(removed, "path") {
        let b = path_box(attr(p, "d").unwrap());
        assert!(
            !overlap(b, letters),
            "the cross {b:?} covers the letters {letters:?}"
        );
    }
}

/// "a failed retreat (the unit disbanded) has no cross" (issue 40): two units retreating to
/// the same space bounce and are disbanded, each crossed out where it waited.
#[test]
fn a_failed_retreat_is_crossed_out() {
    let svg = case_picture(
        "VARIANT_ALL standard\nCASE bounce\nPRESTATE_SETPHASE Spring 1901, Retreat\nPRESTATE\n\
         \tGermany: A bur\n\tItaly: A pie\nPRESTATE_DISLODGED\n\tFrance: A bur\n\tAustria: A pie\n\
         ORDERS\n\tFrance: A bur-mar\n\tAustria: A pie-mar\nEND\n",
    );
    for (at, power) in [("Bur", "France"), ("Pie", "Austria")] {
        let order = group(&svg, &format!("order-{at}"));
        assert_eq!(attr(order, "data-result"), Some("failed"), "{order}");
        let removed = group(&svg, &format!("removed-{at}"));
        assert_eq!(attr(removed, "data-power"), Some(power), "{removed}");
        assert!(!all_tags(removed, "path").is_empty(), "no cross: {removed}");
    }
}

/// "Holland's centre dot sits in the North Sea, Belgium's on the Ruhr corner" (issue 40):
/// on the standard opening every centre's dot has its middle inside its own space, and
/// Holland's and Belgium's lie wholly inside theirs.
#[test]
fn every_centres_dot_lies_inside_its_space() {
    let v = Variant::builtin("standard").unwrap();
    let map = &v.map;
    let shapes = picture::shapes_of(map).unwrap();
    let svg = picture::Painter::new()
        .svg(v, builtin::STANDARD, &v.opening(), "centres", &[])
        .unwrap();
    for p in map.province_ids().filter(|&p| map.province(p).centre) {
        let abbr = map.abbr(p);
        let dot = all_tags(&svg, "circle")
            .into_iter()
            .find(|t| attr(t, "id") == Some(&format!("centre-{abbr}")))
            .unwrap_or_else(|| panic!("no dot for {abbr}"));
        let at = (num(dot, "cx"), num(dot, "cy"));
        assert!(
            contains(&shapes, p, at),
            "{abbr}'s dot at {at:?} is off its space"
        );
        if abbr == "Hol" || abbr == "Bel" {
            let r = num(dot, "r");
            for k in 0..8 {
                let a = k as f32 * std::f32::consts::FRAC_PI_4;
                let rim = (at.0 + r * a.cos(), at.1 + r * a.sin());
                assert!(
                    contains(&shapes, p, rim),
                    "{abbr}'s dot at {at:?} crosses its border"
                );
            }
        }
    }
}

/// `herald map check`'s rule: a map whose shapes put a centre's name (and so its dot) out
/// at sea fails the check, naming the centre.
#[test]
fn a_centre_whose_dot_lies_off_its_space_fails_the_check() {
    let v = Variant::builtin("standard").unwrap();
    let text = shapes::builtin("standard").unwrap();
    assert!(picture::check_shapes(&v.map, text).is_empty());
    // Holland's name moved out into the North Sea (grid units: 0.5 px each).
    let moved: String = text
        .lines()
        .map(|l| match l.strip_prefix("space Hol 788 994 ") {
            Some(rest) => format!("space Hol 700 800 {rest}"),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let problems = picture::check_shapes(&v.map, &moved);
    assert!(
        problems.iter().any(|p| p.contains("centre mark of Hol")),
        "{problems:?}"
    );
}

/// "the legend still says '1 centres, 1 units'" (issue 40): one of each is singular.
#[test]
fn the_legend_says_one_centre_and_one_unit() {
    let v = Variant::builtin("standard").unwrap();
    let map = &v.map;
    let mut position = v.opening();
    // Italy keeps Rome and its army; Venice and Naples are lost.
    for p in map.province_ids() {
        if ["Ven", "Nap"].contains(&map.abbr(p)) {
            position.units[p.index()] = None;
            position.owners[p.index()] = None;
        }
    }
    let svg = picture::Painter::new()
        .svg(v, builtin::STANDARD, &position, "one", &[])
        .unwrap();
    assert!(svg.contains(">Italy: 1 centre, 1 unit<"), "no singular");
    assert!(svg.contains(">Austria: 3 centres, 3 units<"), "no plural");
}
