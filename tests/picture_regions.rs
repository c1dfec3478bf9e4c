//! Regional pictures (issue 27, point 5): "Every picture herald mails is readable at 1,000 px
//! wide (labels ≥ 11 px there): the world map as an overview plus regional pictures". The
//! sizes are computed from the SVG: a text of `font-size` f in a picture whose viewBox is W
//! wide is f × 1000 / W px high when a mail client shows the picture 1,000 px wide.

// tests may unwrap
#![allow(clippy::unwrap_used, clippy::expect_used)]

use herald::cases::parse_cases;
use herald::game::map::builtin;
use herald::game::variant::Variant;
use herald::picture::{self, region, shaped, Painter, Part};

/// The smallest a label may be at 1,000 px wide.
const MIN_PX: f32 = 11.0;

/// The value of `name="…"` in one tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let j = tag[i..].find('"')? + i;
    Some(&tag[i..j])
}

/// The width of a picture's viewBox.
fn view_width(svg: &str) -> f32 {
    let vb = attr(svg, "viewBox").unwrap();
    vb.split_whitespace().nth(2).unwrap().parse().unwrap()
}

/// The texts between `from` and the next `to`: (font size, x, y, content).
fn texts(svg: &str, from: &str, to: &str) -> Vec<(f32, f32, f32, String)> {
    let start = svg.find(from).unwrap_or_else(|| panic!("no {from}"));
    let end = svg[start..].find(to).map_or(svg.len(), |e| start + e);
    let part = &svg[start..end];
    let mut out = Vec::new();
    for piece in part.split("<text").skip(1) {
        let close = piece.find('>').unwrap();
        let tag = &piece[..close];
        let content = &piece[close + 1..piece.find("</text>").unwrap()];
        let num = |n: &str| attr(tag, n).unwrap().parse::<f32>().unwrap();
        out.push((num("font-size"), num("x"), num("y"), content.to_string()));
    }
    out
}

/// The world at a crowded Fall 1882 (docs/world1880-phase.txt: 58 units, moves in every
/// region), as a results mail shows it: the overview, then each region (drawn once for
/// all the tests).
fn world_parts() -> &'static [Part] {
    static PARTS: std::sync::OnceLock<Vec<Part>> = std::sync::OnceLock::new();
    PARTS.get_or_init(|| {
        let text = builtin::WORLD1880;
        let cases = parse_cases(include_str!("../docs/world1880-phase.txt")).unwrap();
        let b = picture::case_board(text, &cases[0]).unwrap();
        Painter::new()
            .paint_all(&b.variant, text, &b.position, &b.title, &b.marks)
            .unwrap()
    })
}

/// The world's regions as its map frames them, with the map and its places.
fn world_frames() -> (
    Vec<region::Frame>,
    &'static Variant,
    herald::picture::Layout,
) {
    let variant = Variant::builtin("world1880").unwrap();
    let layout = picture::shapes_of(&variant.map).unwrap().layout();
    let frames = region::read(builtin::WORLD1880, &variant.map, &layout).unwrap();
    (frames, variant, layout)
}

/// Every name and every unit's letters in a region's picture are at least 11 px high at
/// 1,000 px wide, and the picture names more spaces than its frame holds.
#[test]
fn each_region_reads_at_1000_px() {
    let parts = world_parts();
    let (frames, ..) = world_frames();
    assert_eq!(parts.len(), 1 + frames.len());
    assert!(frames.len() >= 3, "{frames:?}");
    for part in &parts[1..] {
        let svg = &part.picture.svg;
        let w = view_width(svg);
        let names = texts(svg, r#"<g id="names">"#, "</g>");
        let units = texts(svg, r#"<g id="units">"#, r#"<g id="dislodged">"#);
        assert!(names.len() > 20, "{}: {} names", part.title, names.len());
        assert!(!units.is_empty(), "{}: no units", part.title);
        for (size, _, _, what) in names.iter().chain(&units) {
            // Coast names (nc, sc) are marks of their province, not labels.
            if what.len() <= 2 && what.chars().all(|c| c.is_ascii_lowercase()) {
                continue;
            }
            let px = size * 1000.0 / w;
            assert!(
                px >= MIN_PX,
                "{}: '{what}' is {px:.1} px at 1,000 px",
                part.title
            );
        }
    }
}

/// The overview draws only labels that read at 1,000 px (the names outside the frames and
/// each frame's label), none over another, and leaves the framed spaces' names to their
/// regions; the oceans keep theirs.
#[test]
fn the_overview_reads_at_1000_px() {
    let parts = world_parts();
    let svg = &parts[0].picture.svg;
    assert!(parts[0].region.is_none());
    let w = view_width(svg);
    let names = texts(svg, r#"<g id="names">"#, "</g>");
    let frames = texts(svg, r#"<g id="regions""#, "</g></g>");
    assert_eq!(frames.len(), parts.len() - 1, "one label per region");
    for (size, _, _, what) in names.iter().chain(&frames) {
        let px = size * 1000.0 / w;
        assert!(px >= MIN_PX, "'{what}' is {px:.1} px at 1,000 px");
    }
    let shown: Vec<&str> = names.iter().map(|n| n.3.as_str()).collect();
    for framed in ["Par", "Ber", "Con", "Nyc", "Tok", "Cap"] {
        assert!(!shown.contains(&framed), "{framed} on the overview");
    }
    for open in ["Nao", "Npo", "Ioc", "Haw", "Oms"] {
        assert!(shown.contains(&open), "{open} not on the overview");
    }
    // No name over another (each as wide as its letters, 14 px high).
    let boxes: Vec<(f32, f32, f32, f32, &str)> = names
        .iter()
        .filter(|n| n.0 >= shaped::LABEL_PX)
        .map(|(size, x, y, what)| {
            let half = what.chars().count() as f32 * size * 0.34;
            (x - half, y - size, x + half, *y, what.as_str())
        })
        .collect();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let over = a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
            assert!(!over, "{} and {} overlap on the overview", a.4, b.4);
        }
    }
}

/// "Keep id="space-<Abbr>" and data-owner attributes in the regional SVG too": every space
/// whose name lies inside a region's frame is in that region's SVG with its id, and with
/// its owner where the whole board's SVG gives one.
#[test]
fn every_space_inside_a_frame_is_in_its_region() {
    let parts = world_parts();
    let (frames, variant, layout) = world_frames();
    let text = builtin::WORLD1880;
    let cases = parse_cases(include_str!("../docs/world1880-phase.txt")).unwrap();
    let b = picture::case_board(text, &cases[0]).unwrap();
    let whole = Painter::new()
        .svg(&b.variant, text, &b.position, &b.title, &b.marks)
        .unwrap();
    let map = &variant.map;
    let mut owned = 0;
    for (frame, part) in frames.iter().zip(&parts[1..]) {
        assert_eq!(part.region.as_deref(), Some(frame.file_part().as_str()));
        let svg = &part.picture.svg;
        for p in map.province_ids() {
            if !frame.contains(layout.centre(p)) {
                continue;
            }
            let id = format!(r#"<path id="space-{}" "#, map.abbr(p));
            let at = svg
                .find(&id)
                .unwrap_or_else(|| panic!("{} not in {}", map.abbr(p), frame.name));
            let tag = &svg[at..at + svg[at..].find('>').unwrap()];
            let w_at = whole.find(&id).unwrap();
            let whole_tag = &whole[w_at..w_at + whole[w_at..].find('>').unwrap()];
            assert_eq!(
                attr(tag, "data-owner"),
                attr(whole_tag, "data-owner"),
                "{} in {}",
                map.abbr(p),
                frame.name
            );
            owned += usize::from(attr(tag, "data-owner").is_some());
        }
    }
    assert!(owned > 40, "{owned} held spaces in the regions");
}

/// "Orders that leave the region are still drawn to the frame edge": the British fleet
/// leaving the English Channel for the North Atlantic is drawn in Europe's picture, which
/// is cut at its frame; the overview leaves that order to Europe's picture.
#[test]
fn an_order_leaving_a_region_is_drawn_to_its_edge() {
    let parts = world_parts();
    let europe = parts
        .iter()
        .find(|p| p.region.as_deref() == Some("europe"))
        .unwrap();
    let svg = &europe.picture.svg;
    assert!(svg.contains(r#"data-kind="move" data-result="succeeded" data-to="Nao""#));
    assert!(
        svg.contains(r#"overflow="hidden""#),
        "the region is clipped"
    );
    assert!(!parts[0].picture.svg.contains(r#"data-to="Nao""#));
}

/// A map without regions is one picture, the same as before.
#[test]
fn a_map_without_regions_is_one_picture() {
    let variant = Variant::builtin("standard").unwrap();
    let text = builtin::STANDARD;
    let opening = variant.opening();
    let painter = Painter::new();
    let parts = painter
        .paint_all(variant, text, &opening, "t", &[])
        .unwrap();
    assert_eq!(parts.len(), 1);
    assert!(parts[0].region.is_none());
    let one = painter.paint(variant, text, &opening, "t", &[]).unwrap();
    assert_eq!(parts[0].picture.svg, one.svg);
    assert_eq!(parts[0].picture.png, one.png);
}

/// `herald map draw` writes the world as a keeper sees it in a mail: OUT the overview, its
/// names readable at 1,000 px, and OUT-<region> each region; `--region` one alone.
#[test]
fn map_draw_writes_the_overview_and_each_region() {
    let dir = std::env::temp_dir().join(format!("herald-regions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("w");
    let run = |extra: &[&str], out: &std::path::Path| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(["map", "draw", "maps/world1880.map", "-o"])
            .arg(out)
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&[], &out);
    let overview = std::fs::read_to_string(dir.join("w.svg")).unwrap();
    let w = view_width(&overview);
    for (size, _, _, what) in texts(&overview, r#"<g id="names">"#, "</g>") {
        let px = size * 1000.0 / w;
        assert!(px >= MIN_PX, "'{what}' is {px:.1} px at 1,000 px");
    }
    for r in ["europe", "africa", "the-americas", "asia"] {
        let svg = std::fs::read_to_string(dir.join(format!("w-{r}.svg"))).unwrap();
        assert!(view_width(&svg) <= region::PICTURE_PX + 10.0, "{r}");
        assert!(dir.join(format!("w-{r}.png")).exists(), "{r}");
    }
    let europe = std::fs::read_to_string(dir.join("w-europe.svg")).unwrap();
    assert!(europe.contains(r#"id="space-Ven""#));
    run(&["--region", "Asia"], &dir.join("asia"));
    let asia = std::fs::read_to_string(dir.join("asia.svg")).unwrap();
    assert!(asia.contains(r#"id="space-Tok""#) && !asia.contains(r#"id="space-Ven""#));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `herald map check` reads the regions' lines: a region naming a space the map does not
/// have is a problem of the drawing, with its line.
#[test]
fn map_check_refuses_a_region_of_an_unknown_space() {
    assert!(picture::check_drawing(builtin::WORLD1880, None).is_empty());
    let bad = builtin::WORLD1880.replace("draw region Africa: Gog", "draw region Africa: Xyz Gog");
    let problems = picture::check_drawing(&bad, None);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("region 'Africa': unknown space 'Xyz'")),
        "{problems:?}"
    );
}
