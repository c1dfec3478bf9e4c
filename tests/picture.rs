//! Pictures of the board (issue 16): for each map that has a drawing, every space drawn and
//! labelled, no two boxes overlapping and no link running under a third box, the links drawn
//! equal to the map's adjacency, the opening's units and centres on their spaces, and a PNG
//! that decodes at the SVG's size and stays small.

// tests may unwrap
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::collections::BTreeSet;

use herald::cases::parse_cases;
use herald::game::calendar::Phase;
use herald::game::ids::UnitKind;
use herald::game::ids::{ProvinceId, RegionId};
use herald::game::map::{parse_map, Map};
use herald::game::position::Unit;
use herald::game::screen::{Command, Ordered, Via};
use herald::game::variant::Variant;
use herald::picture::layout::{boxes_overlap, segment_hits_box, Layout, BOX_H, BOX_W, COAST_R};
use herald::picture::{self, marks, png, Painter};
use resvg::tiny_skia;

/// The maps drawn so far, by variant.
const DRAWN: [&str; 5] = ["standard", "portage", "deluge", "classical", "world1880"];

/// The value of `name="…"` in one tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let j = tag[i..].find('"')? + i;
    Some(&tag[i..j])
}

/// Every start tag of an element.
fn tags<'a>(svg: &'a str, element: &str) -> Vec<&'a str> {
    let open = format!("<{element} ");
    svg.match_indices(&open)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
        .collect()
}

fn variant_and_text(name: &str) -> (&'static Variant, &'static str) {
    let v = Variant::builtin(name).unwrap();
    let text = picture::builtin_map_text(v).unwrap();
    (v, text)
}

fn region_by_id(map: &Map, id: &str) -> RegionId {
    (0..map.regions.len())
        .map(|i| RegionId(i as u16))
        .find(|&r| map.region_abbr(r).replace('/', ".") == id)
        .unwrap_or_else(|| panic!("no region {id}"))
}

/// The maps a variant's game sees: the start and after each scheduled change.
fn maps_of(v: &Variant) -> Vec<(String, &Map)> {
    let mut out = vec![("start".to_string(), &v.map)];
    for ((year, season), m) in &v.schedule {
        out.push((
            format!("after {} {year}", v.calendar.seasons[*season as usize].name),
            m,
        ));
    }
    out
}

#[test]
fn every_space_is_drawn_and_labelled() {
    for name in DRAWN {
        let (v, text) = variant_and_text(name);
        let svg = picture::draw(v, text, &v.opening()).unwrap();
        if picture::shapes_of(&v.map).is_some() {
            // Drawn from shapes (issue 27): each space one outline, named, titled.
            for p in &v.map.provinces {
                let tag = format!(
                    "<path id=\"space-{}\" data-terrain=\"{}\"",
                    p.abbr,
                    p.terrain.keyword()
                );
                assert_eq!(svg.matches(&tag).count(), 1, "{name}: {tag}");
                let at = svg.find(&tag).unwrap();
                let element = &svg[at..at + svg[at..].find("</path>").unwrap()];
                assert!(
                    element.contains(&format!(
                        "<title>{}</title>",
                        herald::markup::escape(&p.name)
                    )),
                    "{name}: {}",
                    p.abbr
                );
                assert!(
                    svg.contains(&format!(">{}</text>", p.abbr)),
                    "{name}: {}",
                    p.abbr
                );
                for &c in &p.coasts {
                    let id = v.map.region_abbr(c).replace('/', ".");
                    assert!(
                        svg.contains(&format!("id=\"coast-{id}\"")),
                        "{name}: coast {id}"
                    );
                }
            }
            continue;
        }
        for p in &v.map.provinces {
            let tag = format!(
                "<g id=\"space-{}\" data-terrain=\"{}\">",
                p.abbr,
                p.terrain.keyword()
            );
            let at = svg.find(&tag).unwrap_or_else(|| panic!("{name}: no {tag}"));
            let group = &svg[at..at + svg[at..].find("</g>").unwrap()];
            assert!(
                group.contains(&format!(">{}</text>", p.abbr)),
                "{name}: {} unlabelled",
                p.abbr
            );
            assert!(
                group.contains(&format!(
                    "<title>{}</title>",
                    herald::markup::escape(&p.name)
                )),
                "{name}: {}",
                p.abbr
            );
            for &c in &p.coasts {
                let id = v.map.region_abbr(c).replace('/', ".");
                assert!(
                    svg.contains(&format!("id=\"coast-{id}\"")),
                    "{name}: coast {id}"
                );
            }
        }
    }
}

#[test]
fn no_two_boxes_overlap_and_no_link_runs_under_a_box() {
    for name in DRAWN {
        let (v, text) = variant_and_text(name);
        for (when, map) in maps_of(v) {
            let layout = Layout::read(text, map).unwrap();
            let n = map.province_count();
            for a in 0..n {
                for b in a + 1..n {
                    let (ca, cb) = (layout.centres[a], layout.centres[b]);
                    assert!(
                        !boxes_overlap(ca, cb),
                        "{name} {when}: boxes of {} and {} overlap",
                        map.provinces[a].abbr,
                        map.provinces[b].abbr
                    );
                }
            }
            // A coast's mark stays clear of every other box.
            for (i, region) in map.regions.iter().enumerate() {
                if region.coast.is_none() {
                    continue;
                }
                let (x, y) = layout.point(map, RegionId(i as u16));
                for q in map.province_ids().filter(|&q| q != region.province) {
                    let (cx, cy) = layout.centre(q);
                    assert!(
                        (x - cx).abs() >= BOX_W / 2.0 + COAST_R
                            || (y - cy).abs() >= BOX_H / 2.0 + COAST_R,
                        "{name} {when}: coast {} touches {}",
                        map.region_abbr(RegionId(i as u16)),
                        map.abbr(q)
                    );
                }
            }
            // A link that ran under a third box would read as a link to it.
            let mut under = Vec::new();
            for (a, b, _) in picture::links::links(map) {
                let (pa, pb) = (map.province_of(a), map.province_of(b));
                let pieces = layout.segments(layout.point(map, a), layout.point(map, b));
                for c in map.province_ids().filter(|&c| c != pa && c != pb) {
                    if pieces
                        .iter()
                        .any(|&(p, q)| segment_hits_box(p, q, layout.centre(c), 2.0))
                    {
                        under.push(format!(
                            "{}-{} under {}",
                            map.region_abbr(a),
                            map.region_abbr(b),
                            map.abbr(c)
                        ));
                    }
                }
            }
            assert!(
                under.is_empty(),
                "{name} {when}: links run under boxes: {under:?}"
            );
        }
    }
}

/// Army pairs of provinces and fleet pairs of regions.
type Pairs = (
    BTreeSet<(ProvinceId, ProvinceId)>,
    BTreeSet<(RegionId, RegionId)>,
);

/// The neighbour pairs the SVG shows (army pairs of provinces, fleet pairs of regions),
/// read from its link elements and checked to join the places their regions are drawn.
fn drawn_pairs(map: &Map, layout: &Layout, svg: &str) -> Pairs {
    let (mut army, mut fleet) = (BTreeSet::new(), BTreeSet::new());
    let lines = tags(svg, "line");
    for tag in &lines {
        let Some(id) = attr(tag, "id").and_then(|i| i.strip_prefix("link-")) else {
            continue;
        };
        let (a, b) = id.split_once('-').unwrap();
        let (a, b) = (region_by_id(map, a), region_by_id(map, b));
        let num = |tag: &str, k: &str| attr(tag, k).unwrap().parse::<f32>().unwrap();
        let at = |tag: &str, x: &str, y: &str, p: (f32, f32)| {
            (num(tag, x) - p.0).abs() < 0.1 && (num(tag, y) - p.1).abs() < 0.1
        };
        let (pa, pb) = (layout.point(map, a), layout.point(map, b));
        assert!(at(tag, "x1", "y1", pa), "{id}");
        if at(tag, "x2", "y2", pb) {
            assert!(
                !layout.wrap || layout.nearest(pa, pb) == pb,
                "{id} the long way"
            );
        } else {
            // Across a wrapped canvas's edge: towards B's copy a width away, and a second
            // piece from B towards A's copy.
            assert!(layout.wrap, "{id} ends away from its regions");
            let far = layout.nearest(pa, pb);
            assert!(far != pb && at(tag, "x2", "y2", far), "{id}");
            let back = format!(r#"id="wrap-{id}""#);
            let other = lines
                .iter()
                .find(|t| t.contains(&back))
                .expect("second piece");
            assert!(at(other, "x1", "y1", pb), "{id}");
            assert!(at(other, "x2", "y2", layout.nearest(pb, pa)), "{id}");
        }
        let kind = attr(tag, "data-kind").unwrap();
        if kind == "army" || kind == "both" {
            let (x, y) = (map.province_of(a), map.province_of(b));
            assert!(army.insert((x.min(y), x.max(y))), "{id} drawn twice");
        }
        if kind == "fleet" || kind == "both" {
            assert!(fleet.insert((a.min(b), a.max(b))), "{id} drawn twice");
        }
    }
    (army, fleet)
}

#[test]
fn the_links_drawn_are_the_maps_adjacency() {
    for name in DRAWN {
        let (v, text) = variant_and_text(name);
        for (when, map) in maps_of(v) {
            let layout = Layout::read(text, map).unwrap();
            let svg = picture::svg::board(map, &layout, &v.calendar, &v.opening());
            let (army, fleet) = drawn_pairs(map, &layout, &svg);
            let mut want_army = BTreeSet::new();
            for p in map.province_ids() {
                for &q in map.army_neighbours(p) {
                    want_army.insert((p.min(q), p.max(q)));
                }
            }
            let mut want_fleet = BTreeSet::new();
            for i in 0..map.regions.len() {
                let r = RegionId(i as u16);
                for &s in map.fleet_neighbours(r) {
                    want_fleet.insert((r.min(s), r.max(s)));
                }
            }
            assert_eq!(army, want_army, "{name} {when}: army links");
            assert_eq!(fleet, want_fleet, "{name} {when}: fleet links");
            assert!(when != "start" || (!army.is_empty() && !fleet.is_empty()));
        }
    }
}

#[test]
fn the_openings_units_and_centres_stand_on_their_spaces() {
    for name in DRAWN {
        let (v, text) = variant_and_text(name);
        let opening = v.opening();
        let svg = picture::draw(v, text, &opening).unwrap();
        let mut units = 0;
        for (p, unit) in opening.all_units() {
            let tag = tags(&svg, "g")
                .into_iter()
                .find(|t| attr(t, "id") == Some(&format!("unit-{}", v.map.abbr(p))))
                .unwrap_or_else(|| panic!("{name}: no unit in {}", v.map.abbr(p)));
            assert_eq!(
                attr(tag, "data-power"),
                Some(v.map.power(unit.power).name.as_str())
            );
            assert_eq!(
                attr(tag, "data-region"),
                Some(v.map.region_abbr(unit.region).replace('/', ".").as_str())
            );
            units += 1;
        }
        assert_eq!(
            tags(&svg, "g")
                .iter()
                .filter(|t| attr(t, "id").is_some_and(|i| i.starts_with("unit-")))
                .count(),
            units
        );
        for c in v.map.centres() {
            let tag = tags(&svg, "circle")
                .into_iter()
                .find(|t| attr(t, "id") == Some(&format!("centre-{}", v.map.abbr(c))))
                .unwrap_or_else(|| panic!("{name}: no centre {}", v.map.abbr(c)));
            let owner = opening.owners[c.index()]
                .map(|o| v.map.power(o).name.as_str())
                .unwrap_or("");
            assert_eq!(
                attr(tag, "data-owner"),
                Some(owner),
                "{name}: {}",
                v.map.abbr(c)
            );
        }
        let title = format!(
            "{} — {}</text>",
            v.map.title,
            v.calendar.show(opening.phase)
        );
        assert!(svg.contains(&title), "{name}: title {title}");
        for p in &v.map.powers {
            assert!(svg.contains(&format!("id=\"power-{}\"", p.name.replace(' ', "_"))));
        }
    }
}

#[test]
fn standard_opening_has_its_22_units_and_russias_four_centres() {
    let (v, text) = variant_and_text("standard");
    let svg = picture::draw(v, text, &v.opening()).unwrap();
    assert_eq!(svg.matches("<g id=\"unit-").count(), 22);
    assert!(
        svg.contains(r#"<g id="unit-Stp" data-power="Russia" data-kind="F" data-region="Stp.sc">"#)
    );
    assert!(svg.contains("Russia: 4 centres, 4 units"));
    assert!(svg.contains("Standard Diplomacy — Spring 1901, Movement"));
}

#[test]
fn deluge_draws_the_board_as_it_stands_after_the_floods() {
    let (v, text) = variant_and_text("deluge");
    let opening = v.opening();
    let svg = picture::draw(v, text, &opening).unwrap();
    // Deluge is drawn from its shapes: each space one outline carrying its terrain.
    assert!(svg.contains(r#"<path id="space-Ice" data-terrain="shut""#));
    // After Winter 1901 Iceland is a coast; in Spring 1902 the picture shows it.
    let later = Phase {
        year: 1902,
        ..opening.phase
    };
    let mut pos = opening.clone();
    pos.phase = later;
    let svg = picture::draw(v, text, &pos).unwrap();
    assert_eq!(
        v.map_at(later)
            .province(v.map.lookup("ice").unwrap())
            .terrain
            .keyword(),
        "coast"
    );
    assert!(
        svg.contains(r#"<path id="space-Ice" data-terrain="coast""#),
        "Iceland after W1901"
    );
}

#[test]
fn the_png_decodes_at_the_svgs_size_and_is_small() {
    for name in DRAWN {
        let (v, text) = variant_and_text(name);
        let svg = picture::draw(v, text, &v.opening()).unwrap();
        let bytes = png::render(&svg).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert!(bytes.len() <= 300 * 1024, "{name}: {} bytes", bytes.len());
        let pixmap = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        let width: f32 = attr(&svg, "width").unwrap().parse().unwrap();
        let height: f32 = attr(&svg, "height").unwrap().parse().unwrap();
        assert_eq!(
            (pixmap.width(), pixmap.height()),
            (width.ceil() as u32, height.ceil() as u32)
        );
    }
}

#[test]
fn draw_lines_are_checked_and_the_rules_parser_skips_them() {
    let (v, text) = variant_and_text("standard");
    // The rules' parser reads the map with its draw lines, and still refuses a stray word.
    assert!(parse_map(text).is_ok());
    let bad = format!("{text}\ndrwa Lon 1 2\n");
    assert!(parse_map(&bad).is_err());
    let missing = text.replace("draw Lon ", "# draw Lon ");
    let errors = Layout::read(&missing, &v.map).unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.message == "space 'Lon' has no 'draw' line"),
        "{errors:?}"
    );
    let unknown = format!("{text}draw Xyz 10 10\n");
    let errors = Layout::read(&unknown, &v.map).unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("unknown space 'Xyz'")),
        "{errors:?}"
    );
    let twice = format!("{text}draw lon 100 100\n");
    let errors = Layout::read(&twice, &v.map).unwrap_err();
    assert!(
        errors.iter().any(|e| e.message.contains("placed twice")),
        "{errors:?}"
    );
    let malformed = format!("{text}draw Lon x 3\n");
    assert!(Layout::read(&malformed, &v.map).is_err());
    let no_size = text.replace("draw size", "# draw size");
    assert!(Layout::read(&no_size, &v.map).is_err());
}

#[test]
fn map_draw_writes_svg_and_png_of_a_map_file() {
    let svg = picture::opening_of_map_text(herald::game::map::builtin::STANDARD).unwrap();
    assert!(svg.starts_with("<svg "));
    // A map file without draw lines and without shapes (the world of 1880's renamed, so
    // that its built-in shapes do not apply) is refused with the reason.
    let world = picture::builtin_map_text(Variant::builtin("world1880").unwrap()).unwrap();
    let bare: String = world
        .lines()
        .filter(|l| !l.starts_with("draw "))
        .map(|l| {
            if l.starts_with("map ") {
                "map bare\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let e = picture::opening_of_map_text(&bare).unwrap_err().to_string();
    assert!(e.contains("no 'draw size"), "{e}");
}

#[test]
fn on_a_wrapped_canvas_links_across_the_edge_go_the_short_way_round() {
    let (v, text) = variant_and_text("standard");
    // The North Atlantic moved to the east edge: its links now run east off the edge and
    // in from the west, the short way round.
    let moved = text.replace("draw Nao 36 383", "draw Nao 930 383\ndraw wrap");
    let layout = Layout::read(&moved, &v.map).unwrap();
    assert!(layout.wrap);
    let svg = picture::svg::board(&v.map, &layout, &v.calendar, &v.opening());
    let (army, fleet) = drawn_pairs(&v.map, &layout, &svg);
    let wraps: Vec<&str> = tags(&svg, "line")
        .iter()
        .filter_map(|t| attr(t, "id"))
        .filter(|i| i.starts_with("wrap-"))
        .collect();
    // Every link more than half the width long: Nao's five, and Barents–Norwegian.
    assert_eq!(
        wraps,
        [
            "wrap-Bar-Nwg",
            "wrap-Cly-Nao",
            "wrap-Iri-Nao",
            "wrap-Lvp-Nao",
            "wrap-Mao-Nao",
            "wrap-Nao-Nwg"
        ]
    );
    let nao = v
        .map
        .province_ids()
        .find(|&p| v.map.abbr(p) == "Nao")
        .unwrap();
    let fleet_of_nao = fleet
        .iter()
        .filter(|(a, b)| v.map.province_of(*a) == nao || v.map.province_of(*b) == nao)
        .count();
    assert_eq!(fleet_of_nao, 5);
    assert!(army.iter().all(|(a, b)| *a != nao && *b != nao));
    // Without the wrap line the same link is drawn straight across the board.
    let straight = text.replace("draw Nao 36 383", "draw Nao 930 383");
    let layout = Layout::read(&straight, &v.map).unwrap();
    let svg = picture::svg::board(&v.map, &layout, &v.calendar, &v.opening());
    assert!(!svg.contains("id=\"wrap-"));
}

/// The first `<line ...>` tag inside the element whose id is `id`.
/// Where the first line of the element with this id starts: a `<line>`'s first end, or a
/// `<polyline>`'s first point (a move bent round land, issue 40).
fn first_point_of(svg: &str, id: &str) -> (f32, f32) {
    let at = svg
        .find(&format!(r#"id="{id}""#))
        .unwrap_or_else(|| panic!("no {id}"));
    let group = &svg[at..at + svg[at..].find("</g>").unwrap()];
    let num = |t: &str, k: &str| attr(t, k).unwrap().parse::<f32>().unwrap();
    let line = group.find("<line ");
    let poly = group.find("<polyline ");
    match (line, poly) {
        (Some(i), p) if p.is_none_or(|p| i < p) => {
            let t = &group[i..i + group[i..].find('>').unwrap()];
            (num(t, "x1"), num(t, "y1"))
        }
        (_, Some(i)) => {
            let t = &group[i..i + group[i..].find('>').unwrap()];
            let first = attr(t, "points")
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            let (x, y) = first.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        }
        _ => panic!("no line in {id}"),
    }
}

#[test]
fn a_sample_phases_orders_are_drawn_where_they_should_be() {
    // Every unit of each drawn map's opening ordered to its first neighbour: each order is
    // an arrow from the unit's space, and says where it goes.
    for name in DRAWN {
        let (v, text) = variant_and_text(name);
        let mut opening = v.opening();
        let map = v.map_at(opening.phase);
        if opening.all_units().next().is_none() {
            // A game that opens with builds (Deluge): an army on every home centre.
            for p in map.power_ids() {
                for &h in &map.power(p).homes {
                    opening.units[h.index()] = Some(Unit {
                        power: p,
                        kind: UnitKind::Army,
                        region: map.province(h).main,
                    });
                }
            }
        }
        // A map with shapes is laid out by them (issue 27), others by their draw lines.
        let layout = picture::shapes_of(map)
            .map(|s| s.layout())
            .unwrap_or_else(|| Layout::read(text, map).unwrap());
        let mut ordered = Vec::new();
        for (at, unit) in opening.all_units() {
            let to = match unit.kind {
                UnitKind::Army => map
                    .army_neighbours(at)
                    .first()
                    .map(|&p| map.province(p).main),
                _ => map.fleet_neighbours(unit.region).first().copied(),
            };
            if let Some(to) = to {
                ordered.push(Ordered {
                    at,
                    unit,
                    command: Command::Move { to, via: Via::Land },
                });
            }
        }
        assert!(!ordered.is_empty(), "{name}");
        let marks = marks::of_orders(map, &ordered);
        let svg = Painter::new()
            .svg(v, text, &opening, "sample", &marks)
            .unwrap();
        for o in &ordered {
            let abbr = map.abbr(o.at);
            let Command::Move { to, .. } = o.command else {
                unreachable!()
            };
            let group = tags(&svg, "g")
                .into_iter()
                .find(|t| attr(t, "id") == Some(&format!("order-{abbr}")))
                .unwrap_or_else(|| panic!("{name}: no order-{abbr}"));
            assert_eq!(attr(group, "data-kind"), Some("move"));
            assert_eq!(attr(group, "data-result"), Some("pending"));
            assert_eq!(
                attr(group, "data-to"),
                Some(map.region_abbr(to).replace('/', ".").as_str())
            );
            // The arrow starts at the unit (its chip on a board drawn from shapes, a fleet's
            // on its coast; its box on the schematic board), heading for the destination.
            let (x1, y1) = first_point_of(&svg, &format!("order-{abbr}"));
            let num = |t: &str, k: &str| attr(t, k).unwrap().parse::<f32>().unwrap();
            let unit = format!("unit-{abbr}");
            let chip = svg.find(&format!(r#" id="{unit}""#)).map(|at| {
                let rect = tags(&svg[at..], "rect")[0];
                (
                    num(rect, "x") + num(rect, "width") / 2.0,
                    num(rect, "y") + num(rect, "height") / 2.0,
                )
            });
            match chip {
                // 9 px out from the chip's middle, or at the chip's edge (20 px) for the
                // arrows of a head-to-head drawn over the chips.
                Some((ux, uy)) => assert!(
                    (x1 - ux).hypot(y1 - uy) <= 24.0,
                    "{name}: order-{abbr} starts at {x1},{y1}, its unit stands at {ux},{uy}"
                ),
                None => {
                    let (cx, cy) = layout.centre(o.at);
                    assert!(
                        (x1 - cx).abs() <= BOX_W / 2.0 && (y1 - cy - 8.0).abs() <= BOX_H / 2.0,
                        "{name}: order-{abbr} starts at {x1},{y1}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_sample_phase_shows_its_results() {
    let text = herald::game::map::builtin::STANDARD;
    let cases = parse_cases(include_str!("../docs/sample-phase.txt")).unwrap();
    let picture = picture::of_case_on_map_text(text, &cases[0]).unwrap();
    let svg = &picture.svg;
    let group = |id: &str| {
        tags(svg, "g")
            .into_iter()
            .chain(tags(svg, "circle"))
            .find(|t| attr(t, "id") == Some(id))
            .unwrap_or_else(|| panic!("no {id}"))
    };
    let is = |id: &str, kind: &str, result: &str| {
        let g = group(id);
        assert_eq!(attr(g, "data-kind"), Some(kind), "{id}");
        assert_eq!(attr(g, "data-result"), Some(result), "{id}");
    };
    is("order-Yor", "move", "succeeded");
    is("order-Nth", "convoy", "succeeded");
    is("order-Lon", "move", "succeeded");
    is("order-Par", "move", "failed");
    is("order-Mun", "move", "failed");
    is("order-Ven", "move", "succeeded");
    is("order-Tyr", "support", "succeeded");
    is("order-Tri", "hold", "failed");
    is("order-War", "hold", "succeeded");
    assert_eq!(attr(group("order-Tyr"), "data-to"), Some("Tri"));
    // F Trieste, dislodged by A Venice, may retreat to the Adriatic or Albania (not to
    // Venice, whence the attack came).
    let d = group("dislodged-Tri");
    assert_eq!(attr(d, "data-power"), Some("Austria"));
    assert_eq!(attr(d, "data-retreats"), Some("Adr Alb"));
    assert!(svg.contains(r#"id="retreat-Tri-Adr""#) && svg.contains(r#"id="retreat-Tri-Alb""#));
    // The units after the phase, and the centres' owners unchanged in Spring.
    for (id, power) in [
        ("unit-Nwy", "England"),
        ("unit-Tri", "Italy"),
        ("unit-Mao", "France"),
    ] {
        let u = tags(svg, "g")
            .into_iter()
            .find(|t| attr(t, "id") == Some(id))
            .unwrap();
        assert_eq!(attr(u, "data-power"), Some(power), "{id}");
    }
    assert!(!svg.contains(r#"id="unit-Yor""#));
    let tri = tags(svg, "circle")
        .into_iter()
        .find(|t| attr(t, "id") == Some("centre-Tri"))
        .unwrap();
    assert_eq!(attr(tri, "data-owner"), Some("Austria"));
    assert!(svg.contains("results of Spring 1901, Movement"));
    assert!(picture.png.starts_with(b"\x89PNG"));
}

// Issue 25, point 17: "the legend counts units without the dislodged one". A unit waiting
// to retreat is drawn, and counted with its power's others.
#[test]
fn the_legend_counts_a_dislodged_unit_with_the_others() {
    use herald::game::position::Dislodged;
    let (v, text) = variant_and_text("standard");
    let mut pos = v.opening();
    let sev = v.map.lookup("sev").unwrap();
    let russia = v.map.power_by_word("russia").unwrap();
    let unit = pos.take_unit(sev, russia).unwrap();
    pos.dislodged[sev.index()] = Some(Dislodged {
        unit,
        attacker_from: None,
    });
    let svg = picture::draw(v, text, &pos).unwrap();
    assert!(svg.contains("Russia: 4 centres, 4 units"), "{svg}");
    assert!(svg.contains("Turkey: 3 centres, 3 units"), "{svg}");
}

/// "fleets sharing an ocean side by side" (issue 27, point 5): on the world of 1880 (the
/// schematic board), two fleets in the North Atlantic stand side by side, neither chip over
/// the other, and three stand in the ocean's box with each one's letter clear of the next.
#[test]
fn fleets_sharing_an_ocean_stand_side_by_side() {
    let (world, text) = variant_and_text("world1880");
    // The same map without its shapes (as a keeper's map drawn from its `draw` lines): the
    // fleets stand in the ocean's box; and the world as herald draws it, from its shapes.
    let mut bare = world.clone();
    bare.map.name = "bare".into();
    for (v, boxed) in [(&bare, true), (world, false)] {
        let map = &v.map;
        let nao = map.province_ids().find(|&p| map.abbr(p) == "Nao").unwrap();
        let layout = Layout::read(text, map).unwrap();
        let (cx, _) = layout.centre(nao);
        let powers: Vec<_> = map.power_ids().take(3).collect();
        for k in [2usize, 3] {
            let mut position = v.opening();
            position.afloat = powers[..k]
                .iter()
                .map(|&power| Unit {
                    power,
                    kind: UnitKind::Fleet,
                    region: map.province(nao).main,
                })
                .collect();
            let svg = Painter::new()
                .svg(v, text, &position, "oceans", &[])
                .unwrap();
            let chips: Vec<(f32, f32)> = ["unit-Nao", "unit-Nao.1", "unit-Nao.2"][..k]
                .iter()
                .map(|id| {
                    let at = svg.find(&format!(r#"id="{id}""#)).unwrap();
                    let rect = tags(&svg[at..], "rect")[0];
                    let x: f32 = attr(rect, "x").unwrap().parse().unwrap();
                    let w: f32 = attr(rect, "width").unwrap().parse().unwrap();
                    (x, x + w)
                })
                .collect();
            for pair in chips.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                if k == 2 {
                    assert!(b.0 >= a.1, "{k} fleets: {chips:?} overlap");
                } else {
                    // The letter stands in the chip's middle 8 px: the next chip leaves it
                    // clear.
                    assert!(b.0 >= (a.0 + a.1) / 2.0 + 4.0, "{k} fleets: {chips:?}");
                }
            }
            if boxed {
                for (l, r) in &chips {
                    assert!(
                        *l >= cx - BOX_W / 2.0 && *r <= cx + BOX_W / 2.0,
                        "{k} fleets: {chips:?} leave the box at {cx}"
                    );
                }
            }
        }
    }
}
