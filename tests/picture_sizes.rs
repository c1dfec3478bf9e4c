//! "Every picture herald mails is readable at 1,000 px wide (labels ≥ 11 px there)" (issue
//! 27, point 5): every text of every built-in board, its key and legend included, is at
//! least 11 px once the picture is shown 1,000 px wide.

use herald::game::variant::Variant;
use herald::picture::{self, Painter};

/// Each `font-size` in an SVG (on a text or a group of texts), with the picture's width.
fn sizes(svg: &str) -> (f32, Vec<f32>) {
    let width = svg
        .split_once(" width=\"")
        .and_then(|(_, rest)| rest.split('"').next())
        .and_then(|w| w.parse::<f32>().ok())
        .unwrap();
    let sizes = svg
        .match_indices("font-size=\"")
        .map(|(i, key)| {
            let rest = &svg[i + key.len()..];
            rest[..rest.find('"').unwrap()].parse::<f32>().unwrap()
        })
        .collect();
    (width, sizes)
}

#[test]
fn every_boards_smallest_text_is_11_px_at_1000_px_wide() {
    let painter = Painter::new();
    for name in ["standard", "classical", "deluge", "portage"] {
        let v = Variant::builtin(name).unwrap();
        let text = picture::builtin_map_text(v).unwrap();
        let svg = painter.svg(v, text, &v.opening(), "opening", &[]).unwrap();
        let (width, sizes) = sizes(&svg);
        assert!(sizes.len() > 10, "{name}: {} sizes", sizes.len());
        let least = sizes.iter().copied().fold(f32::MAX, f32::min);
        let shown = least * 1000.0 / width;
        assert!(
            shown >= 11.0,
            "{name}: text of {least} px on a {width} px picture is {shown:.1} px at 1,000 px"
        );
    }
}

/// The world of 1880 is mailed as an overview and a picture per region: each of them
/// holds to the same bound, its key and legend included.
#[test]
fn every_picture_of_the_world_has_11_px_text_at_1000_px_wide() {
    let painter = Painter::new();
    let v = Variant::builtin("world1880").unwrap();
    let text = picture::builtin_map_text(v).unwrap();
    let parts = painter
        .paint_all(v, text, &v.opening(), "opening", &[])
        .unwrap();
    assert_eq!(parts.len(), 5, "the overview and four regions");
    for part in parts {
        let (width, sizes) = sizes(&part.picture.svg);
        let least = sizes.iter().copied().fold(f32::MAX, f32::min);
        let shown = least * 1000.0 / width;
        assert!(
            shown >= 11.0,
            "{}: text of {least} px on a {width} px picture is {shown:.1} px at 1,000 px",
            part.title
        );
    }
}
