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
        Some(herald::picture::shaped::tint(england).as_str())
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
