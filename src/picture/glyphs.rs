//! Text drawn as its outlines (issue 27's speed): resvg lays out every `<text>` it parses,
//! shaping it with the font anew each time (about a tenth of a millisecond a text, most of
//! a picture's parsing). The pictures of a board repeat the same few texts (a unit's `A E`,
//! a legend's line), so each text's outline is laid out once per process and kept; a layer
//! handed to resvg has its texts replaced by those outlines, moved to their place. The
//! pixels are the same: resvg draws a text as exactly these outlines.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::{Mutex, OnceLock};

use resvg::usvg;
use resvg::usvg::tiny_skia_path::PathSegment;

/// At most this many outlines are kept; when full the store starts again (a title differs
/// from picture to picture, so the store would otherwise grow for ever).
const KEPT: usize = 4096;

/// The attributes that place and lay out a text: taken into its outline's key, never
/// copied onto the outline.
const LAYOUT: [&str; 6] = [
    "x",
    "y",
    "font-size",
    "font-weight",
    "text-anchor",
    "font-family",
];

fn store() -> &'static Mutex<HashMap<String, String>> {
    static STORE: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    STORE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// One attribute of a start tag's text (`name="value"`), with its place in the tag.
fn attributes(tag: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit(' ').next().unwrap_or("");
        let after = &rest[eq + 2..];
        let Some(end) = after.find('"') else {
            break;
        };
        out.push((name, &after[..end]));
        rest = &after[end + 1..];
    }
    out
}

/// The outline of a text laid out at (0, 0) as SVG path data (empty: nothing drawn), from
/// the layout attributes and the text (as written in the SVG, entities and all).
fn outline(layout: &str, content: &str) -> Option<String> {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1" font-family="DejaVu Sans"><text x="0" y="0"{layout}>{content}</text></svg>"#
    );
    let tree = usvg::Tree::from_str(&svg, &super::png::options()).ok()?;
    let mut d = String::new();
    collect(tree.root(), &mut d);
    Some(d)
}

/// Every path's outline under a group, in order.
fn collect(group: &usvg::Group, d: &mut String) {
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => collect(g, d),
            usvg::Node::Text(t) => collect(t.flattened(), d),
            usvg::Node::Path(p) => {
                let Some(data) = p.data().clone().transform(p.abs_transform()) else {
                    continue;
                };
                // Hundredths of a pixel: finer than any anti-aliasing shows, and quick to
                // parse again.
                let point = |d: &mut String, p: usvg::tiny_skia_path::Point| {
                    let _ = write!(d, "{:.2} {:.2} ", p.x, p.y);
                };
                for segment in data.segments() {
                    match segment {
                        PathSegment::MoveTo(p) => {
                            d.push('M');
                            point(d, p);
                        }
                        PathSegment::LineTo(p) => {
                            d.push('L');
                            point(d, p);
                        }
                        PathSegment::QuadTo(a, p) => {
                            d.push('Q');
                            point(d, a);
                            point(d, p);
                        }
                        PathSegment::CubicTo(a, b, p) => {
                            d.push('C');
                            point(d, a);
                            point(d, b);
                            point(d, p);
                        }
                        PathSegment::Close => d.push('Z'),
                    }
                }
            }
            usvg::Node::Image(_) => {}
        }
    }
}

/// An SVG layer with each `<text>` that carries its own layout (a `font-size`, x and y)
/// replaced by the text's outline as a `<path>` moved to its place, its other attributes
/// (fill, stroke, id) kept. Any other text is left as it is.
pub fn outlined(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len() + svg.len() / 2);
    let mut rest = svg;
    while let Some(start) = rest.find("<text ") {
        out.push_str(&rest[..start]);
        let from = &rest[start..];
        let (Some(open_end), Some(close)) = (from.find('>'), from.find("</text>")) else {
            out.push_str(from);
            return out;
        };
        let element = &from[..close + "</text>".len()];
        rest = &from[close + "</text>".len()..];
        let tag = &from[5..open_end];
        let content = &from[open_end + 1..close];
        match replacement(tag, content) {
            Some(path) => out.push_str(&path),
            None => out.push_str(element),
        }
    }
    out.push_str(rest);
    out
}

/// The `<path>` drawn for one text, or `None` when it cannot be (no font size or place of
/// its own, markup inside it, a text that does not lay out).
fn replacement(tag: &str, content: &str) -> Option<String> {
    if content.contains('<') || tag.ends_with('/') {
        return None;
    }
    let attrs = attributes(tag);
    let get = |name: &str| attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    let (x, y) = (get("x")?, get("y")?);
    get("font-size")?;
    let mut layout = String::new();
    for name in &LAYOUT[2..] {
        if let Some(v) = get(name) {
            let _ = write!(layout, r#" {name}="{v}""#);
        }
    }
    let key = format!("{layout}>{content}");
    let d = {
        let kept = store()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
            .cloned();
        match kept {
            Some(d) => d,
            None => {
                let d = outline(&layout, content)?;
                let mut store = store()
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if store.len() >= KEPT {
                    store.clear();
                }
                store.insert(key, d.clone());
                d
            }
        }
    };
    let mut path = format!(r#"<path transform="translate({x} {y})" d="{d}""#);
    for (name, value) in &attrs {
        if !LAYOUT.contains(name) {
            let _ = write!(path, r#" {name}="{value}""#);
        }
    }
    path.push_str("/>");
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_becomes_its_outline_at_its_place_with_its_paint() {
        let svg = r##"<g><text id="t" x="10.5" y="20" font-size="12.5" font-weight="bold" text-anchor="middle" fill="#fff">A E</text><rect x="1"/></g>"##;
        let out = outlined(svg);
        assert!(!out.contains("<text"), "{out}");
        assert!(
            out.starts_with(r#"<g><path transform="translate(10.5 20)" d="M"#),
            "{out}"
        );
        assert!(
            out.contains(r##" id="t" fill="#fff"/><rect x="1"/></g>"##),
            "{out}"
        );
        assert!(!out.contains("font-size"), "{out}");
    }

    #[test]
    fn a_text_without_its_own_size_is_left_as_it_is() {
        let svg = r#"<g font-size="11"><text x="1" y="2">key</text></g>"#;
        assert_eq!(outlined(svg), svg);
    }

    #[test]
    fn the_outline_draws_the_same_pixels_as_the_text() {
        let text = r##"<text x="30.3" y="40.6" font-size="12.5" font-weight="bold" text-anchor="middle" fill="#123456">A-F T</text><text x="5" y="60" font-size="20" fill="#222">Fall 1905 &amp; more</text>"##;
        let layer = |body: &str| {
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80" font-family="DejaVu Sans">{body}</svg>"#
            )
        };
        let a = super::super::png::rasterise(&layer(text)).unwrap();
        let b = super::super::png::rasterise(&layer(&outlined(text))).unwrap();
        assert!(a.data().iter().any(|&v| v != 0), "the text draws nothing");
        let diffs: Vec<u8> = a
            .data()
            .iter()
            .zip(b.data())
            .map(|(p, q)| p.abs_diff(*q))
            .collect();
        // The outline's points are kept to a hundredth of a pixel: an edge pixel's coverage
        // (sampled in quarters of a pixel) may move by a sixteenth, no more.
        let worst = diffs.iter().copied().max().unwrap_or(0);
        assert!(worst <= 16, "pixels differ by up to {worst}");
        let moved = diffs.iter().filter(|&&d| d > 0).count();
        assert!(
            moved * 50 <= diffs.len(),
            "{moved} of {} values differ",
            diffs.len()
        );
    }
}
