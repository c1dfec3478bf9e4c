//! Maps that look like maps (issue 27): the standard board drawn from territories carved
//! out of real geography. Borders equal adjacency (`herald map check` fails on a map with a
//! border removed), each space one outline with its holder, units on their spaces, fleets
//! on their coasts, and the keeper's carving tool on a small made-up world.

// tests may unwrap
#![allow(clippy::unwrap_used, clippy::expect_used)]

use herald::game::map::{builtin, parse_map};
use herald::game::position::Unit;
use herald::game::variant::Variant;
use herald::picture::{self, borders, carve, shapes};

/// The value of `name="…"` in one tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let j = tag[i..].find('"')? + i;
    Some(&tag[i..j])
}

/// The start tag of the element with this id.
fn tag<'a>(svg: &'a str, id: &str) -> &'a str {
    let at = svg
        .find(&format!(" id=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id}"));
    let start = svg[..at].rfind('<').unwrap();
    &svg[start..at + svg[at..].find('>').unwrap()]
}

/// Whether a point lies inside an outline (even-odd over its rings).
fn inside(rings: &[Vec<(i32, i32)>], (x, y): (f32, f32)) -> bool {
    let mut odd = false;
    for ring in rings {
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

fn standard_shapes(map: &herald::game::map::Map) -> shapes::Shapes {
    shapes::Shapes::read(shapes::builtin("standard").unwrap(), map).unwrap()
}

#[test]
fn the_standard_maps_borders_equal_its_adjacency() {
    let map = parse_map(builtin::STANDARD).unwrap();
    let problems = picture::check_shapes(&map, shapes::builtin("standard").unwrap());
    assert!(problems.is_empty(), "{problems:#?}");
    // Every pair of neighbours on the map has a visible border (or a drawn link).
    let lengths = borders::shared(&standard_shapes(&map));
    assert!(lengths.len() > 150, "{}", lengths.len());
}

/// The standard map with Burgundy and Marseilles no longer neighbours.
fn without_bur_mar() -> String {
    let text = builtin::STANDARD
        .replace("army  Bur: Bel Gas Mar Mun", "army  Bur: Bel Gas Mun")
        .replace("army  Mar: Bur Gas Pie Spa", "army  Mar: Gas Pie Spa");
    assert_ne!(text, builtin::STANDARD);
    text
}

#[test]
fn a_map_with_one_border_removed_fails_the_check() {
    // "herald map check proves … that two spaces share a visible border … exactly when the
    // map file makes them adjacent" (issue 27).
    let map = parse_map(&without_bur_mar()).unwrap();
    let problems = picture::check_shapes(&map, shapes::builtin("standard").unwrap());
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("Bur and Mar share") && problems[0].contains("not neighbours"),
        "{problems:?}"
    );
    // And the other way: neighbours on the map with no border in the shapes.
    let text = builtin::STANDARD
        .replace(
            "army  Bur: Bel Gas Mar Mun",
            "army  Bur: Bel Boh Gas Mar Mun",
        )
        .replace("army  Boh: Gal Mun", "army  Boh: Bur Gal Mun");
    let map = parse_map(&text).unwrap();
    let problems = picture::check_shapes(&map, shapes::builtin("standard").unwrap());
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("Boh and Bur are neighbours on the map but share no border"),
        "{problems:?}"
    );
}

#[test]
fn classicals_borders_equal_its_adjacency() {
    // "herald map check proves, for every built-in map and for any map with shapes, that
    // two spaces share a visible border ... exactly when the map file makes them adjacent,
    // and that every special link ... has its own drawn mark" (issue 27, point 2).
    let map = parse_map(builtin::CLASSICAL).unwrap();
    let text = shapes::builtin("classical").unwrap();
    assert_eq!(picture::check_shapes(&map, text), Vec::<String>::new());
    let shapes = shapes::Shapes::read(text, &map).unwrap();
    assert!(borders::shared(&shapes).len() > 250);
    // Rule 8's land bridges are drawn, each its own mark.
    for pair in [
        "Mau Sag", "Kyr Sar", "Cum Mam", "Bru Epi", "Bit Thr", "Thr Tro", "Che Tan", "Cor Del",
    ] {
        assert!(
            text.contains(&format!("\nlink {pair} ")),
            "no mark for {pair}"
        );
    }
}

#[test]
fn classical_with_one_border_removed_or_one_bridge_undrawn_fails_the_check() {
    // Etruria and Roma no longer neighbours.
    let text = builtin::CLASSICAL
        .replace(
            "army  Etr: Cum Cis Ins Rom Sam",
            "army  Etr: Cum Cis Ins Sam",
        )
        .replace("army  Rom: Bru Cum Etr Sam", "army  Rom: Bru Cum Sam");
    assert_ne!(text, builtin::CLASSICAL);
    let map = parse_map(&text).unwrap();
    let problems = picture::check_shapes(&map, shapes::builtin("classical").unwrap());
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("Etr and Rom share") && problems[0].contains("not neighbours"),
        "{problems:?}"
    );
    // The land bridge Kyrnos-Sardo with its mark taken out of the shapes.
    let map = parse_map(builtin::CLASSICAL).unwrap();
    let shapes: String = shapes::builtin("classical")
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("link Kyr Sar "))
        .map(|l| format!("{l}\n"))
        .collect();
    let problems = picture::check_shapes(&map, &shapes);
    assert_eq!(
        problems,
        vec!["shapes: Kyr and Sar are neighbours on the map but share no border in the shapes"]
    );
}

#[test]
fn a_link_too_short_to_see_fails_the_check() {
    // "every special link ... has its own drawn mark" (issue 27, point 2): a mark of a
    // cell or two is no mark.
    let map = parse_map(builtin::CLASSICAL).unwrap();
    let text = shapes::builtin("classical").unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("link Kyr Sar "))
        .unwrap();
    let short = text.replace(line, "link Kyr Sar 520 420 521 421");
    let problems = picture::check_shapes(&map, &short);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].contains("Kyr and Sar"), "{problems:?}");
}

#[test]
fn deluges_borders_equal_its_adjacency_in_every_year() {
    // "Deluge's floods and new land re-colour spaces per year from the same shapes" (issue
    // 27, point 2): one set of outlines, checked against the map after every winter.
    assert_eq!(
        picture::check_drawing(builtin::DELUGE, None),
        Vec::<String>::new()
    );
}

/// Deluge II with Iceland no neighbour of the North Atlantic once it opens.
fn deluge_without_ice_nao() -> String {
    builtin::DELUGE
        .replace("  fleet Ice: Nao Nwg", "  fleet Ice: Nwg")
        .replace(
            "  fleet Nao: Cly Ice Iri Lvp Mao Nwg",
            "  fleet Nao: Cly Iri Lvp Mao Nwg",
        )
}

#[test]
fn a_deluge_year_with_one_border_removed_fails_the_check() {
    // Iceland opens after Winter 1901 with fleets to the North Atlantic and the Norwegian
    // Sea; without the North Atlantic the shapes differ in that year (Iceland is shut, and
    // left out of the check, before).
    let text = deluge_without_ice_nao();
    assert_ne!(text, builtin::DELUGE);
    let problems = picture::check_drawing(&text, None);
    assert!(!problems.is_empty());
    assert!(
        problems[0].starts_with("after Winter 1901: shapes: Ice and Nao share"),
        "{problems:#?}"
    );
    assert!(
        problems.iter().all(|p| p.contains("Ice and Nao")),
        "{problems:#?}"
    );
}

#[test]
fn deluges_floods_re_colour_the_same_shapes() {
    use herald::game::calendar::{Phase, PhaseKind};
    let v = Variant::builtin("deluge").unwrap();
    let text = picture::builtin_map_text(v).unwrap();
    let opening = v.opening();
    let mut later = opening.clone();
    later.phase = Phase {
        year: 1902,
        season: 0,
        kind: PhaseKind::Movement,
    };
    let before = picture::draw(v, text, &opening).unwrap();
    let after = picture::draw(v, text, &later).unwrap();
    // London floods in Winter 1901: the same outline, drawn as sea.
    let (b, a) = (tag(&before, "space-Lon"), tag(&after, "space-Lon"));
    assert_eq!(attr(b, "data-terrain"), Some("coast"), "{b}");
    assert_eq!(attr(a, "data-terrain"), Some("sea"), "{a}");
    assert_eq!(attr(b, "d"), attr(a, "d"));
    assert_eq!(attr(a, "fill"), Some("none"));
    // Iceland, shut at first, has its own outline.
    assert_eq!(
        attr(tag(&before, "space-Ice"), "data-terrain"),
        Some("shut")
    );
}

#[test]
fn a_fleet_on_a_coast_a_flood_made_stands_on_that_coast() {
    use herald::game::calendar::{Phase, PhaseKind};
    // Marseilles has a west coast on flooded Gascony from Winter 1901 (maps/deluge.map):
    // the shapes place its fleet there, west of the Gulf of Lyon's south coast.
    let v = Variant::builtin("deluge").unwrap();
    let map = v.map_at(Phase {
        year: 1902,
        season: 0,
        kind: PhaseKind::Movement,
    });
    let shapes = shapes::Shapes::read(shapes::builtin("deluge").unwrap(), map).unwrap();
    let coast = |name: &str| {
        let r = (0..map.regions.len())
            .map(|r| herald::game::ids::RegionId(r as u16))
            .find(|&r| map.region_abbr(r) == name)
            .unwrap();
        shapes.coasts[r.index()].unwrap_or_else(|| panic!("no place for {name}"))
    };
    let (wc, sc) = (coast("Mar/wc"), coast("Mar/sc"));
    assert!(wc.0 + 20.0 < sc.0, "wc {wc:?}, sc {sc:?}");
    let mar = map.province_ids().find(|&p| map.abbr(p) == "Mar").unwrap();
    let rings = shapes::rings(&shapes.spaces[mar.index()].path);
    assert!(inside(&rings, wc) && inside(&rings, sc));
}

#[test]
fn herald_map_check_fails_on_a_map_with_one_border_removed() {
    let dir = std::env::temp_dir().join(format!("herald-shapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.map");
    let bad = dir.join("bad.map");
    std::fs::write(&good, builtin::STANDARD).unwrap();
    std::fs::write(&bad, without_bur_mar()).unwrap();
    let run = |f: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(["map", "check"])
            .arg(f)
            .output()
            .unwrap()
    };
    let ok = run(&good);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    let out = run(&bad);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("Bur and Mar share"), "{said}");
    // The same for Classical and Deluge II, each with one border removed (Etruria-Roma; the
    // North Atlantic-Iceland once Iceland opens), and each whole map passing.
    let cases = [
        (
            "classical",
            builtin::CLASSICAL,
            builtin::CLASSICAL
                .replace(
                    "army  Etr: Cum Cis Ins Rom Sam",
                    "army  Etr: Cum Cis Ins Sam",
                )
                .replace("army  Rom: Bru Cum Etr Sam", "army  Rom: Bru Cum Sam"),
            "Etr and Rom share",
        ),
        (
            "deluge",
            builtin::DELUGE,
            deluge_without_ice_nao(),
            "after Winter 1901: shapes: Ice and Nao share",
        ),
    ];
    for (name, whole, cut, said_what) in cases {
        assert_ne!(whole, cut);
        let good = dir.join(format!("{name}.map"));
        let bad = dir.join(format!("{name}-cut.map"));
        std::fs::write(&good, whole).unwrap();
        std::fs::write(&bad, cut).unwrap();
        let ok = run(&good);
        assert!(
            ok.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&ok.stdout)
        );
        let out = run(&bad);
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success(), "{name}: {said}");
        assert!(said.contains(said_what), "{name}: {said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_opening_shows_owners_on_their_spaces_and_units_on_their_spaces() {
    let v = Variant::builtin("standard").unwrap();
    let text = picture::builtin_map_text(v).unwrap();
    let svg = picture::draw(v, text, &v.opening()).unwrap();
    let map = &v.map;
    let shapes = standard_shapes(map);
    // Each space one outline; owned centres carry their owner, seas and unowned centres none.
    assert_eq!(attr(tag(&svg, "space-Lon"), "data-owner"), Some("England"));
    assert_eq!(attr(tag(&svg, "space-Stp"), "data-owner"), Some("Russia"));
    assert_eq!(attr(tag(&svg, "space-Nth"), "data-owner"), None);
    assert_eq!(attr(tag(&svg, "space-Nth"), "fill"), Some("none"));
    assert_eq!(attr(tag(&svg, "space-Bel"), "data-owner"), None);
    assert_eq!(attr(tag(&svg, "centre-Bel"), "fill"), Some("#ffffff"));
    // Supply centres are filled in their owner's colour (a tint of it).
    let england = map
        .power_ids()
        .find(|&p| map.power(p).name == "England")
        .unwrap();
    assert_eq!(
        attr(tag(&svg, "space-Lon"), "fill"),
        Some(herald::picture::shaped::tint(map, england).as_str())
    );
    // Every unit's chip stands inside its own space, with its power's letter on it.
    let top = herald::picture::svg::TOP;
    for (p, unit) in v.opening().all_units() {
        let abbr = map.abbr(p);
        let g = tag(&svg, &format!("unit-{abbr}"));
        let at = svg.find(g).unwrap();
        let rect = &svg[at + svg[at..].find("<rect").unwrap()..];
        let num = |k: &str| attr(rect, k).unwrap().parse::<f32>().unwrap();
        let (cx, cy) = (num("x") + num("width") / 2.0, num("y") + 7.5);
        let grid = (cx / shapes.scale, cy / shapes.scale);
        let rings = shapes::rings(&shapes.spaces[p.index()].path);
        assert!(
            inside(&rings, grid),
            "unit-{abbr} at {cx},{cy} (+{top}) outside {abbr}"
        );
        let letter = map.power(unit.power).letter;
        let kind = if unit.kind == herald::game::ids::UnitKind::Army {
            "A"
        } else {
            "F"
        };
        assert!(
            svg[at..at + 600].contains(&format!(">{kind} {letter}</text>")),
            "unit-{abbr}"
        );
    }
}

#[test]
fn a_fleet_stands_on_its_coast() {
    let v = Variant::builtin("standard").unwrap();
    let map = &v.map;
    let stp = map.province_ids().find(|&p| map.abbr(p) == "Stp").unwrap();
    let mut north = v.opening();
    let mut south = v.opening();
    let russia = map
        .power_ids()
        .find(|&p| map.power(p).name == "Russia")
        .unwrap();
    let coast = |c: &str| {
        map.province(stp)
            .coasts
            .iter()
            .copied()
            .find(|&r| map.region_abbr(r).ends_with(c))
            .unwrap()
    };
    for (pos, c) in [(&mut north, "nc"), (&mut south, "sc")] {
        pos.units[stp.index()] = Some(Unit {
            power: russia,
            kind: herald::game::ids::UnitKind::Fleet,
            region: coast(c),
        });
    }
    let text = picture::builtin_map_text(v).unwrap();
    let y_of = |pos| {
        let svg = picture::draw(v, text, pos).unwrap();
        let g = tag(&svg, "unit-Stp").to_string();
        let at = svg.find(&g).unwrap();
        let rect = &svg[at + svg[at..].find("<rect").unwrap()..];
        (
            attr(&g, "data-region").unwrap().to_string(),
            attr(rect, "y").unwrap().parse::<f32>().unwrap(),
        )
    };
    let (n_region, n_y) = y_of(&north);
    let (s_region, s_y) = y_of(&south);
    assert_eq!((n_region.as_str(), s_region.as_str()), ("Stp.nc", "Stp.sc"));
    // The north coast is on the Barents Sea, far north of the Gulf of Finland.
    assert!(n_y + 100.0 < s_y, "nc at {n_y}, sc at {s_y}");
}

/// A made-up world: one square island (lon 0–10, lat 40–50) in the sea.
const ISLAND: &str = r#"{"type":"Topology","arcs":[[[0,40],[10,40],[10,50],[0,50],[0,40]]],
"objects":{"land":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[0]]}]}}}"#;

const TINY: &str = "map tiny\ntitle Tiny\npower Red R Red\n\
coast Aaa \"Aland\" centre\ncoast Bbb \"Bland\"\nsea Sss \"West Sea\"\nsea Ttt \"East Sea\"\n\
army Aaa: Bbb\narmy Bbb: Aaa\n\
fleet Aaa: Bbb Sss Ttt\nfleet Bbb: Aaa Sss Ttt\nfleet Sss: Aaa Bbb Ttt\nfleet Ttt: Aaa Bbb Sss\n\
home Red: Aaa\nunits Red: A Aaa\n";

const PLAN: &str = "source made up\ncentre 5 45\nframe -10 20 35 55\nwidth 300\nscale 1\n\
seed Aaa 5 47\nseed Bbb 5 43\nseed Sss -5 45\nseed Ttt 15 45\n";

#[test]
fn the_keepers_tool_carves_shapes_whose_borders_equal_the_adjacency() {
    let map = parse_map(TINY).unwrap();
    let text = carve::carve(&map, PLAN, ISLAND, "a test").unwrap();
    assert!(text.contains("Land: made up"), "{text}");
    let shapes = shapes::Shapes::read(&text, &map).unwrap();
    assert_eq!(borders::check(&map, &shapes), Vec::<String>::new());
    // Aland is the north of the island, Bland the south.
    assert!(shapes.spaces[0].at.1 < shapes.spaces[1].at.1);
    // Without Aland–Bland the same shapes fail.
    let apart = TINY
        .replace("army Aaa: Bbb\narmy Bbb: Aaa\n", "")
        .replace("fleet Aaa: Bbb Sss", "fleet Aaa: Sss")
        .replace("fleet Bbb: Aaa Sss", "fleet Bbb: Sss");
    let map = parse_map(&apart).unwrap();
    let problems = borders::check(&map, &shapes);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("Aaa and Bbb share"), "{problems:?}");
}

/// The area of an outline (grid units squared).
fn area(path: &str) -> f64 {
    shapes::rings(path)
        .iter()
        .map(|r| {
            (0..r.len())
                .map(|k| {
                    let (a, b) = (r[k], r[(k + 1) % r.len()]);
                    f64::from(a.0) * f64::from(b.1) - f64::from(b.0) * f64::from(a.1)
                })
                .sum::<f64>()
                .abs()
                / 2.0
        })
        .sum()
}

#[test]
fn a_lens_magnifies_its_part_of_the_board() {
    // "Classical's crowded seas spread out" (issue 27, point 5): a lens on Aland makes it
    // larger beside Bland, and the borders still equal the adjacency.
    let map = parse_map(TINY).unwrap();
    let ratio = |plan: &str| {
        let text = carve::carve(&map, plan, ISLAND, "a test").unwrap();
        let shapes = shapes::Shapes::read(&text, &map).unwrap();
        assert_eq!(borders::check(&map, &shapes), Vec::<String>::new());
        area(&shapes.spaces[0].path) / area(&shapes.spaces[1].path)
    };
    let plain = ratio(PLAN);
    let magnified = ratio(&format!("{PLAN}lens 5 48 2 3\n"));
    assert!(magnified > 1.5 * plain, "{plain} -> {magnified}");
    let e = carve::carve(&map, &format!("{PLAN}lens 5 48 2 0\n"), ISLAND, "t").unwrap_err();
    assert!(e.to_string().contains("lens"), "{e}");
}

#[test]
fn the_carving_refuses_a_seed_of_an_unknown_space_or_on_the_wrong_ground() {
    let map = parse_map(TINY).unwrap();
    let e = carve::carve(&map, &format!("{PLAN}seed Zzz 1 1\n"), ISLAND, "t").unwrap_err();
    assert!(e.to_string().contains("unknown space 'Zzz'"), "{e}");
    // A sea's seed on the island.
    let e = carve::carve(
        &map,
        &PLAN.replace("seed Sss -5 45", "seed Sss 5 45"),
        ISLAND,
        "t",
    )
    .unwrap_err();
    assert!(e.to_string().contains("lies on no water"), "{e}");
}

/// Every start tag of an element.
fn all_tags<'a>(svg: &'a str, element: &str) -> Vec<&'a str> {
    let open = format!("<{element} ");
    svg.match_indices(&open)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
        .collect()
}

/// A number attribute of a tag.
fn num(tag: &str, name: &str) -> f32 {
    attr(tag, name)
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        .parse()
        .unwrap()
}

/// The text of the element with this id, up to the end of its group.
fn group<'a>(svg: &'a str, id: &str) -> &'a str {
    let at = svg
        .find(&format!(" id=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id}"));
    let start = svg[..at].rfind('<').unwrap();
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

/// The chip of the first `<rect>` inside the element with this id (a unit, a dislodged or
/// removed unit), in the board's pixels (the marks' group stands `TOP` below the title).
fn chip(svg: &str, id: &str) -> Rect {
    rect_of(all_tags(group(svg, id), "rect")[0])
}

/// The picture of one case on the standard map.
fn case_picture(text: &str) -> String {
    let cases = herald::cases::parse_cases(text).unwrap();
    picture::of_case_on_map_text(builtin::STANDARD, &cases[0])
        .unwrap()
        .svg
}

/// "a unit destroyed for want of a retreat is drawn under its attacker's chip" (issue 27,
/// point 6): it stands beside the chip, over it in the drawing, crossed out in black.
#[test]
fn a_unit_destroyed_for_want_of_a_retreat_shows_beside_its_attacker() {
    let svg = case_picture(
        "VARIANT_ALL standard\nCASE destroyed\nPRESTATE_SETPHASE Spring 1902, Movement\nPRESTATE\n\
         \tAustria: A bud\n\tRussia: A gal\n\tRussia: A rum\n\tRussia: A ser\n\tRussia: A vie\n\tRussia: A tri\n\
         ORDERS\n\tRussia: A gal-bud\n\tRussia: A rum S A gal-bud\n\tRussia: A ser H\n\tRussia: A vie H\n\
         \tRussia: A tri H\n\tAustria: A bud H\nEND\n",
    );
    let removed = group(&svg, "removed-Bud");
    assert_eq!(attr(removed, "data-power"), Some("Austria"));
    let (unit_at, removed_at) = (
        svg.find(r#"id="unit-Bud""#).unwrap(),
        svg.find(r#"id="removed-Bud""#).unwrap(),
    );
    assert!(removed_at > unit_at, "the cross is drawn under the units");
    let attacker = chip(&svg, "unit-Bud");
    let gone = chip(&svg, "removed-Bud");
    assert!(!overlap(attacker, gone), "{attacker:?} hides {gone:?}");
    // Crossed out in black, in no power's colour.
    assert!(removed.contains(r##"stroke="#000""##), "{removed}");
}

/// The perpendicular distance from a point to the line through `a` and `b`.
fn off_line(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    ((p.0 - a.0) * dy - (p.1 - a.1) * dx).abs() / dx.hypot(dy)
}

fn ends(line: &str) -> ((f32, f32), (f32, f32)) {
    (
        (num(line, "x1"), num(line, "y1")),
        (num(line, "x2"), num(line, "y2")),
    )
}

/// "in a head-to-head the losing arrow lies under the winning one" (issue 27, point 6):
/// the two arrows run side by side, their white edges apart.
#[test]
fn both_arrows_of_a_head_to_head_show() {
    let svg = case_picture(
        "VARIANT_ALL standard\nCASE head to head\nPRESTATE_SETPHASE Spring 1902, Movement\nPRESTATE\n\
         \tFrance: A mar\n\tFrance: A gas\n\tItaly: A pie\nORDERS\n\tFrance: A mar-pie\n\
         \tFrance: A gas S A mar-pie\n\tItaly: A pie-mar\nEND\n",
    );
    let won = all_tags(group(&svg, "order-Mar"), "line")[0];
    let lost = all_tags(group(&svg, "order-Pie"), "line")[0];
    assert_eq!(
        attr(group(&svg, "order-Pie"), "data-result"),
        Some("failed")
    );
    let (a, b) = ends(won);
    let (p, q) = ends(lost);
    let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
    // Each arrow's white edge is 6.5 px wide: beyond that they no longer cover each other.
    let apart = off_line(mid, a, b);
    assert!(apart >= 8.0, "the arrows are {apart} px apart");
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

/// The centre of a unit's chip.
fn chip_centre(svg: &str, id: &str) -> (f32, f32) {
    let r = chip(svg, id);
    ((r.0 + r.2) / 2.0, (r.1 + r.3) / 2.0)
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

/// "convoys and portages are one straight line across land (A Lon-Tun crosses France ...)"
/// (issue 27, point 6): the convoyed army's arrow runs through each convoying fleet, in
/// order along the way.
#[test]
fn a_convoyed_move_runs_through_its_fleets() {
    let svg = case_picture(
        "VARIANT_ALL standard\nCASE long convoy\nPRESTATE_SETPHASE Spring 1903, Movement\nPRESTATE\n\
         \tEngland: A lon\n\tEngland: F eng\n\tEngland: F mao\n\tEngland: F wes\nORDERS\n\
         \tEngland: A lon-tun via convoy\n\tEngland: F eng C A lon-tun\n\tEngland: F mao C A lon-tun\n\
         \tEngland: F wes C A lon-tun\nEND\n",
    );
    let arrow = group(&svg, "order-Lon");
    let lines = all_tags(arrow, "polyline");
    assert!(!lines.is_empty(), "a straight line: {arrow}");
    let route = points(lines[1]);
    // The fleets have not moved: their chips stand where they convoyed from.
    let fleets: Vec<_> = ["unit-Eng", "unit-Mao", "unit-Wes"]
        .iter()
        .map(|id| chip_centre(&svg, id))
        .collect();
    assert!(runs_through(&route, &fleets), "{route:?} misses {fleets:?}");
    // And it ends at Tunis, where the army now stands.
    let tun = chip_centre(&svg, "unit-Tun");
    let last = route[route.len() - 1];
    assert!((last.0 - tun.0).hypot(last.1 - tun.1) < 20.0, "{last:?}");
}

/// The same for a portage (Portage's rule): the arrow runs through the portaging armies.
#[test]
fn a_portaged_move_runs_through_its_armies() {
    use herald::game::ids::UnitKind;
    use herald::picture::marks::{Mark, Verdict};
    let v = Variant::builtin("standard").unwrap();
    let map = &v.map;
    let p = |a: &str| map.province_ids().find(|&p| map.abbr(p) == a).unwrap();
    let france = map
        .power_ids()
        .find(|&f| map.power(f).name == "France")
        .unwrap();
    let mut position = v.opening();
    position.units = vec![None; map.province_count()];
    for a in ["Bre", "Par", "Bur", "Mun"] {
        position.units[p(a).index()] = Some(Unit {
            power: france,
            kind: if a == "Bre" {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            },
            region: map.province(p(a)).main,
        });
    }
    let help = |by: &str| Mark::Help {
        kind: "portage",
        power: france,
        by: p(by),
        from: p("Bre"),
        to: Some(p("Ber")),
        result: Verdict::Pending,
    };
    let marks = vec![
        Mark::Move {
            power: france,
            from: p("Bre"),
            to: map.province(p("Ber")).main,
            via: Vec::new(),
            result: Verdict::Pending,
        },
        help("Par"),
        help("Bur"),
        help("Mun"),
    ];
    let svg = picture::Painter::new()
        .svg(v, builtin::STANDARD, &position, "portage", &marks)
        .unwrap();
    let route = points(all_tags(group(&svg, "order-Bre"), "polyline")[1]);
    let armies: Vec<_> = ["unit-Par", "unit-Bur", "unit-Mun"]
        .iter()
        .map(|id| chip_centre(&svg, id))
        .collect();
    assert!(runs_through(&route, &armies), "{route:?} misses {armies:?}");
}

/// "in `SET MAP` a unit with no order looks like an ordered hold" (issue 27, point 6): a
/// unit given no order is marked "unordered", in black, never with its power's hold ring.
#[test]
fn a_unit_with_no_order_is_marked_unlike_an_ordered_hold() {
    use herald::game::screen::{Command, Ordered};
    use herald::picture::marks;
    let v = Variant::builtin("standard").unwrap();
    let map = &v.map;
    let opening = v.opening();
    let ordered: Vec<Ordered> = opening
        .all_units()
        .filter(|(_, u)| map.power(u.power).name == "England")
        .map(|(at, unit)| Ordered {
            at,
            unit,
            command: Command::Hold,
        })
        .collect();
    // England wrote an order for Lon and Lvp; Edi's hold is the default.
    let given: Vec<_> = ordered
        .iter()
        .map(|o| o.at)
        .filter(|&p| map.abbr(p) != "Edi")
        .collect();
    let m = marks::unordered(marks::of_orders(map, &ordered), &given);
    let svg = picture::Painter::new()
        .svg(v, builtin::STANDARD, &opening, "orders", &m)
        .unwrap();
    let edi = group(&svg, "order-Edi");
    assert_eq!(attr(edi, "data-kind"), Some("unordered"), "{edi}");
    let england = picture::svg::power_colour(map, map.power_ids().nth(1).unwrap());
    assert!(!edi.contains(england), "{edi}");
    assert_eq!(attr(tag(&svg, "order-Lon"), "data-kind"), Some("hold"));
}

/// "the key lacks built, removed and disbanded" (issue 27, point 6).
#[test]
fn the_key_names_every_mark() {
    let v = Variant::builtin("standard").unwrap();
    let svg = picture::Painter::new()
        .svg(v, builtin::STANDARD, &v.opening(), "key", &[])
        .unwrap();
    let key = &svg[svg.find(r#"id="key""#).unwrap()..];
    for word in [
        ">move<",
        ">failed<",
        ">support<",
        "convoy / portage",
        ">hold<",
        ">no order<",
        ">built<",
        "removed, disbanded or destroyed",
        "dislodged",
    ] {
        assert!(key.contains(word), "the key lacks {word}");
    }
}

/// The box a space's name covers (bold 14 px): its text's extent, from the `<text>` tag.
fn name_box(tag: &str, text: &str) -> Rect {
    let (x, y) = (num(tag, "x"), num(tag, "y") + TOP);
    let half = text.chars().count() as f32 * 4.9;
    (x - half, y - 10.5, x + half, y + 1.0)
}

/// The offset of the board below the title, pixels.
const TOP: f32 = 40.0;

/// "arrows and rings cover province labels" and "units in Bur overlap with the dislodged
/// marker" (issue 27, point 6 and the review): on a crowded Fall 1905 the names are drawn
/// over every order's mark, and no unit, dislodged unit or centre covers a name or another
/// unit.
#[test]
fn names_lie_over_the_marks_and_no_chip_covers_a_name_or_a_unit() {
    let svg = case_picture(include_str!("cases/bench_middlegame.txt"));
    let failures = covered_names(&svg);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// "the Tri/Ser dislodged chip touching its label" (the review of the shaped board): in the
/// sample phase's results (docs/sample-phase.txt: F Tri dislodged by A Ser), no chip or
/// mark covers a name, the dislodged fleet's chip included.
#[test]
fn the_sample_phases_dislodged_chip_covers_no_name() {
    let svg = case_picture(include_str!("../docs/sample-phase.txt"));
    assert!(svg.contains(r#"id="dislodged-Tri""#));
    let failures = covered_names(&svg);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// What covers a name on a picture: the names are drawn over every order's mark, and no
/// unit, dislodged or removed unit or centre covers a name or another unit.
fn covered_names(svg: &str) -> Vec<String> {
    let (orders, names, units) = (
        svg.find(r#"id="orders""#).unwrap(),
        svg.find(r#"id="names""#).unwrap(),
        svg.find(r#"id="units""#).unwrap(),
    );
    assert!(orders < names && names < units);
    let names_g = &svg[names..names + svg[names..].find("</g>").unwrap()];
    let mut labels = Vec::new();
    for (i, _) in names_g.match_indices("<text ") {
        let t = &names_g[i..];
        let tag = &t[..t.find('>').unwrap()];
        if attr(tag, "id").is_some_and(|id| id.starts_with("coast-")) {
            continue;
        }
        let text = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
        labels.push((text.to_string(), name_box(tag, text)));
    }
    assert!(labels.len() > 70, "{}", labels.len());
    let mut chips: Vec<(String, Rect)> = Vec::new();
    for id in ["units", "dislodged"] {
        let at = svg.find(&format!(r#"id="{id}""#)).unwrap();
        let g = &svg[at..];
        for (i, _) in g.match_indices("<g id=\"") {
            let t = &g[i..];
            let gid = attr(&t[..t.find('>').unwrap()], "id").unwrap().to_string();
            if !gid.starts_with("unit-")
                && !gid.starts_with("dislodged-")
                && !gid.starts_with("removed-")
            {
                break;
            }
            let r = rect_of(all_tags(t, "rect")[0]);
            chips.push((gid, (r.0, r.1 + TOP, r.2, r.3 + TOP)));
        }
    }
    assert!(
        chips.iter().any(|(id, _)| id.starts_with("dislodged-")),
        "{chips:?}"
    );
    let mut failures = Vec::new();
    for (id, c) in &chips {
        for (name, b) in &labels {
            if overlap(*c, *b) {
                failures.push(format!("{id} covers the name {name}"));
            }
        }
    }
    for (i, (a, ra)) in chips.iter().enumerate() {
        for (b, rb) in &chips[i + 1..] {
            if overlap(*ra, *rb) {
                failures.push(format!("{a} overlaps {b}"));
            }
        }
    }
    for c in all_tags(&svg[svg.find(r#"id="centres""#).unwrap()..], "circle") {
        if !attr(c, "id").is_some_and(|i| i.starts_with("centre-")) {
            break;
        }
        let (x, y, r) = (num(c, "cx"), num(c, "cy") + TOP, num(c, "r"));
        for (name, b) in &labels {
            if overlap((x - r, y - r, x + r, y + r), *b) {
                failures.push(format!("{} covers the name {name}", attr(c, "id").unwrap()));
            }
        }
    }
    failures
}

/// The quick drawing (issue 27, point 7: tints blended from kept coverage, texts drawn from
/// kept outlines, the background kept) draws what the SVG says: the PNG of a crowded Fall
/// 1905 matches resvg's drawing of the whole SVG at once, but for the palette's rounding,
/// and the PNG stays under 200 KB ("a standard PNG ≤ 200 KB").
#[test]
fn the_quick_png_is_the_svg_drawn() {
    let cases = herald::cases::parse_cases(include_str!("cases/bench_middlegame.txt")).unwrap();
    let picture = picture::of_case_on_map_text(builtin::STANDARD, &cases[0]).unwrap();
    assert!(
        picture.png.len() <= 200 * 1024,
        "{} bytes",
        picture.png.len()
    );
    let quick = resvg::tiny_skia::Pixmap::decode_png(&picture.png).unwrap();
    let whole = picture::png::rasterise(&picture.svg).unwrap();
    assert_eq!(
        (quick.width(), quick.height()),
        (whole.width(), whole.height())
    );
    let (mut far, mut sum) = (0usize, 0u64);
    for (a, b) in quick
        .data()
        .chunks_exact(4)
        .zip(whole.data().chunks_exact(4))
    {
        let d = (0..3).map(|k| a[k].abs_diff(b[k])).max().unwrap_or(0);
        sum += u64::from(d);
        if d > 40 {
            far += 1;
        }
    }
    let n = (quick.width() * quick.height()) as usize;
    let mean = sum as f64 / n as f64;
    // Anti-aliased edges take the nearest of the palette's colours: a few pixels differ.
    assert!(
        far * 1000 <= n,
        "{far} of {n} pixels differ by more than 40"
    );
    assert!(mean < 1.0, "the pixels differ by {mean:.2} on average");
}

/// A made-up world that goes round the globe: one land, lon 120–180 from pole to pole of
/// the frame, ending at the seam; the rest is water.
const EASTERN_LAND: &str = r#"{"type":"Topology","arcs":[[[120,-40],[180,-40],[180,40],[120,40],[120,-40]]],
"objects":{"land":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[0]]}]}}}"#;

/// Aland touches the West Sea only across the seam (its east edge is the West Sea's west
/// edge), and the East Sea on its west.
const SEAM: &str = "map seam\ntitle Seam\npower Red R Red\n\
coast Aaa \"Aland\" centre\nsea Www \"West Sea\"\nsea Eee \"East Sea\"\n\
fleet Aaa: Www Eee\nfleet Www: Aaa Eee\nfleet Eee: Aaa Www\n\
home Red: Aaa\nunits Red: F Aaa\n";

const SEAM_PLAN: &str = "source made up\nwrap\nframe -180 180 -30 30\nwidth 360\nscale 2\n\
seed Aaa 150 0\nseed Www -150 0\nseed Eee 60 0\n";

#[test]
fn spaces_touching_only_across_the_seam_of_a_wrapped_map_are_neighbours() {
    // "two spaces share a visible border (land with land, sea with sea or coast, across
    // the world map's seam too) exactly when the map file makes them adjacent" (issue 27).
    let map = parse_map(SEAM).unwrap();
    let text = carve::carve(&map, SEAM_PLAN, EASTERN_LAND, "a test").unwrap();
    assert!(text.lines().any(|l| l == "wrap"), "{text}");
    let shapes = shapes::Shapes::read(&text, &map).unwrap();
    assert!(shapes.wrap);
    assert_eq!(borders::check(&map, &shapes), Vec::<String>::new());
    // Aland and the West Sea share no segment: only the seam joins them.
    let (aaa, www) = (&shapes.spaces[0].path, &shapes.spaces[1].path);
    let segments = |path: &str| {
        let mut v = Vec::new();
        for r in shapes::rings(path) {
            for k in 0..r.len() {
                let (a, b) = (r[k], r[(k + 1) % r.len()]);
                v.push(if a <= b { (a, b) } else { (b, a) });
            }
        }
        v
    };
    let (sa, sw) = (segments(aaa), segments(www));
    assert!(!sa.iter().any(|s| sw.contains(s)), "{aaa}\n{www}");
    let across = borders::shared(&shapes);
    let seam = across.get(&(0, 1)).copied().unwrap_or(0.0);
    assert!(
        seam * shapes.scale >= borders::MIN_BORDER_PX * 10.0,
        "{across:?}"
    );
    // Without Aland–West Sea on the map the same shapes fail the check.
    let apart = SEAM
        .replace("fleet Aaa: Www Eee", "fleet Aaa: Eee")
        .replace("fleet Www: Aaa Eee", "fleet Www: Eee");
    let problems = borders::check(&parse_map(&apart).unwrap(), &shapes);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("Aaa and Www share"), "{problems:?}");
    // The same shapes read as a board that does not wrap: the seam is no border.
    let flat = text.replace("\nwrap\n", "\n");
    let flat = shapes::Shapes::read(&flat, &map).unwrap();
    let problems = borders::check(&map, &flat);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("Aaa and Www are neighbours"),
        "{problems:?}"
    );
}

/// An island across the seam (lon 150 to 210, that is -150), given as one ring.
const SEAM_ISLAND: &str = r#"{"type":"Topology","arcs":[[[150,-10],[210,-10],[210,10],[150,10],[150,-10]]],
"objects":{"land":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[0]]}]}}}"#;

#[test]
fn a_wrapped_carving_fills_and_divides_land_across_the_seam() {
    // Aland's seed at 155°E, Bland's at 170°W: Bland's land reaches west across the seam
    // to halfway between them (172.5°E), not only to the seam.
    let map = parse_map(TINY).unwrap();
    let plan = "source made up\nwrap\nframe -180 180 -30 30\nwidth 360\nscale 2\n\
seed Aaa 155 0\nseed Bbb -170 0\nseed Sss 0 20\nseed Ttt 0 -20\n";
    let text = carve::carve(&map, plan, SEAM_ISLAND, "a test").unwrap();
    let shapes = shapes::Shapes::read(&text, &map).unwrap();
    let xs =
        |path: &str| -> Vec<i32> { shapes::rings(path).iter().flatten().map(|p| p.0).collect() };
    // Bland: cells on both sides of the seam; its east end is at 150°W (col 30).
    let b = xs(&shapes.spaces[1].path);
    assert!(b.iter().any(|&x| (340..=355).contains(&x)), "{b:?}");
    assert!(b.iter().any(|&x| (29..=31).contains(&x)), "{b:?}");
    // Aland: from 150°E (col 330) to before the seam.
    let a = xs(&shapes.spaces[0].path);
    assert!(a.iter().all(|&x| (329..=356).contains(&x)), "{a:?}");
}

#[test]
fn the_world_maps_borders_equal_its_adjacency_across_the_seam_too() {
    // "two spaces share a visible border (land with land, sea with sea or coast, across the
    // world map's seam too) exactly when the map file makes them adjacent" (issue 27).
    let map = parse_map(builtin::WORLD1880).unwrap();
    let text = shapes::builtin("world1880").unwrap();
    assert_eq!(picture::check_shapes(&map, text), Vec::<String>::new());
    let shapes = shapes::Shapes::read(text, &map).unwrap();
    assert!(shapes.wrap);
    assert!(borders::shared(&shapes).len() > 300);
}

#[test]
fn the_world_map_with_one_border_removed_fails_the_check() {
    // Warsaw and Moscow no longer neighbours.
    let text = builtin::WORLD1880
        .replace(
            "army  War: Ber Gal Mos Pru Stp Ukr",
            "army  War: Ber Gal Pru Stp Ukr",
        )
        .replace(
            "army  Mos: Sev Stp Ukr Ura War",
            "army  Mos: Sev Stp Ukr Ura",
        );
    assert_ne!(text, builtin::WORLD1880);
    let map = parse_map(&text).unwrap();
    let problems = picture::check_shapes(&map, shapes::builtin("world1880").unwrap());
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("War and Mos share") && problems[0].contains("not neighbours"),
        "{problems:?}"
    );
}

/// "the hold ring on a coast fleet drawn at the province's name" (the last session's list
/// for issue 27): a hold ring, a support's line and a move's arrow start where the unit's
/// chip is drawn, a fleet's on its coast.
#[test]
fn a_coast_fleets_ring_and_lines_start_at_its_chip() {
    let svg = case_picture(
        "VARIANT_ALL standard\nCASE coast\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\
         \tRussia: F stp/sc\n\tRussia: F spa/nc\n\tRussia: A fin\n\tFrance: A gas\nORDERS\n\
         \tRussia: F stp/sc H\n\tRussia: F spa/nc-gas\n\tRussia: A fin S F stp/sc\n\tFrance: A gas H\nEND\n",
    );
    let ring = all_tags(group(&svg, "order-Stp"), "ellipse")[1];
    let (cx, cy) = (num(ring, "cx"), num(ring, "cy"));
    let (ux, uy) = chip_centre(&svg, "unit-Stp");
    assert!(
        (cx - ux).abs() < 1.0 && (cy - uy).abs() < 1.0,
        "ring at ({cx}, {cy}), fleet at ({ux}, {uy})"
    );
    let (mx, my) = chip_centre(&svg, "unit-Spa");
    let arrow = all_tags(group(&svg, "order-Spa"), "line")[0];
    let (x1, y1) = (num(arrow, "x1"), num(arrow, "y1"));
    assert!(
        (x1 - mx).hypot(y1 - my) < 14.0,
        "the arrow starts at ({x1}, {y1}), the fleet stands at ({mx}, {my})"
    );
}

/// Ocean joins are the rules' ("Units commencing their turn in an ocean area may move to
/// any other ocean zone on the map", the 1880 world's M.1), not geography: no line is
/// drawn between two oceans (the North Atlantic–North Pacific one crossed Central
/// America); each ocean's name carries a tag naming the oceans it is joined to, and a
/// join left out of the shapes fails the check.
#[test]
fn ocean_joins_are_tags_on_the_oceans_never_lines_over_land() {
    use herald::game::map::Terrain;
    let v = Variant::builtin("world1880").unwrap();
    let map = &v.map;
    let text = shapes::builtin("world1880").unwrap();
    let shapes = shapes::Shapes::read(text, map).unwrap();
    let svg = picture::draw(v, builtin::WORLD1880, &v.opening()).unwrap();
    let oceans: Vec<_> = map
        .province_ids()
        .filter(|&p| map.province(p).terrain == Terrain::Ocean)
        .collect();
    assert_eq!(oceans.len(), 5);
    for &a in &oceans {
        for &b in &oceans {
            let id = format!(r#"id="link-{}-{}""#, map.abbr(a), map.abbr(b));
            assert!(!svg.contains(&id), "a line between two oceans: {id}");
        }
    }
    assert!(!shapes.joins.is_empty());
    for &(a, b, ..) in &shapes.joins {
        for (from, to) in [(a, b), (b, a)] {
            let tag = tag(&svg, &format!("joins-{}", map.abbr(from)));
            let listed = attr(tag, "data-to").unwrap();
            assert!(
                listed.split(' ').any(|w| w == map.abbr(to)),
                "{} does not name {}: {listed}",
                map.abbr(from),
                map.abbr(to)
            );
        }
    }
    let without = text.replace("join Nao Npo 845 543 582 623\n", "");
    assert_ne!(without, text);
    let problems = picture::check_shapes(map, &without);
    assert!(
        problems.iter().any(|p| p.contains("Nao and Npo")),
        "{problems:?}"
    );
}
