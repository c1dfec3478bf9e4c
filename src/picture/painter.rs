//! Pictures of boards drawn quickly: what never changes from phase to phase (the spaces,
//! their names and links, the key) is laid out and rasterised once per map and kept; each
//! picture draws only the title, centres, units, orders and legend over a copy of it.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use resvg::tiny_skia::{self, Pixmap};

use super::layout::Layout;
use super::marks::Mark;
use super::shapes::Shapes;
use super::{png, shaped, svg, PictureError};
use crate::game::map::Map;
use crate::game::position::Position;
use crate::game::variant::Variant;

/// One picture of a board: the SVG (the source) and its PNG.
#[derive(Clone, Debug)]
pub struct Picture {
    /// The SVG text.
    pub svg: String,
    /// The PNG bytes.
    pub png: Vec<u8>,
}

/// What never changes on one map's board.
struct Background {
    layout: Layout,
    /// The map's shapes, when it has them: the board is drawn from them.
    shapes: Option<Shapes>,
    svg: String,
    pixmap: Pixmap,
    palette: png::Palette,
    /// On a board drawn from shapes, what each picture reuses.
    kept: Option<Kept>,
}

/// What every picture of a board drawn from shapes reuses: each space's outline as a path
/// (filled with its holder's tint straight onto the canvas, never parsed again from the
/// SVG's text), and the spaces' names, rasterised once onto a clear layer.
struct Kept {
    /// Each space's outline in grid units, by province index.
    paths: Vec<Option<tiny_skia::Path>>,
    /// Grid units to pixels.
    transform: tiny_skia::Transform,
    /// The border drawn over a tint, in grid units.
    border: f32,
    /// The names' SVG ([`shaped::names`]).
    names_svg: String,
    /// The names, rasterised once over a clear canvas, kept as the pixels they cover (their
    /// index in the canvas and premultiplied colour): a small part of the canvas, blended
    /// over each picture far quicker than the whole layer.
    names: Vec<(usize, [u8; 4])>,
}

/// The pixels of a layer that are not clear.
fn covered(layer: &Pixmap) -> Vec<(usize, [u8; 4])> {
    layer
        .data()
        .chunks_exact(4)
        .enumerate()
        .filter(|(_, px)| px[3] > 0)
        .map(|(i, px)| (i, [px[0], px[1], px[2], px[3]]))
        .collect()
}

/// Blends premultiplied pixels over a pixmap (source over).
fn blend(pixmap: &mut Pixmap, pixels: &[(usize, [u8; 4])]) {
    let data = pixmap.data_mut();
    for &(i, src) in pixels {
        let Some(dst) = data.get_mut(i * 4..i * 4 + 4) else {
            continue;
        };
        let keep = 255 - u16::from(src[3]);
        for c in 0..4 {
            let d = u16::from(dst[c]) * keep;
            // d / 255, rounded.
            let d = (d + 128 + ((d + 128) >> 8)) >> 8;
            dst[c] = (u16::from(src[c]) + d).min(255) as u8;
        }
    }
}

/// An outline's path data as a tiny-skia path (`None`: empty).
fn path_of(data: &str) -> Option<tiny_skia::Path> {
    let mut b = tiny_skia::PathBuilder::new();
    for ring in super::shapes::rings(data) {
        let mut points = ring.into_iter();
        let Some((x, y)) = points.next() else {
            continue;
        };
        b.move_to(x as f32, y as f32);
        for (x, y) in points {
            b.line_to(x as f32, y as f32);
        }
        b.close();
    }
    b.finish()
}

/// An SVG element list over a clear canvas of `width` × `height`.
fn layer(width: u32, height: u32, elements: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans">{elements}</svg>"#
    )
}

/// Draws board pictures, keeping each map's background. Shared by every game of a judge.
#[derive(Default)]
pub struct Painter {
    backgrounds: Mutex<HashMap<u64, Arc<Background>>>,
    /// Draw every map as the schematic board, shapes or not (the peer in benchmarks).
    schematic: bool,
}

impl std::fmt::Debug for Painter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Painter")
    }
}

/// Which of a variant's maps this is (0: the opening map, k: after the k-th scheduled
/// change), with the map file's text: together they name one background.
fn key(variant: &Variant, map: &Map, map_text: &str) -> u64 {
    let index = std::iter::once(&variant.map)
        .chain(variant.schedule.iter().map(|(_, m)| m))
        .position(|m| std::ptr::eq(m, map))
        .unwrap_or(usize::MAX);
    let mut h = DefaultHasher::new();
    index.hash(&mut h);
    map.name.hash(&mut h);
    map_text.hash(&mut h);
    h.finish()
}

/// The whole SVG: the background, the overlay, the end.
fn whole(bg: &Background, overlay: &str) -> String {
    let mut s = String::with_capacity(bg.svg.len() + overlay.len() + 8);
    s.push_str(&bg.svg);
    s.push_str(overlay);
    s.push_str("</svg>\n");
    s
}

/// `#rrggbb` as three bytes.
fn rgb(hex: &str) -> [u8; 3] {
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0);
    [byte(1), byte(3), byte(5)]
}

impl Painter {
    /// A painter with nothing kept yet.
    pub fn new() -> Painter {
        Painter::default()
    }

    /// A painter that draws every map as the schematic board of boxes and links, even one
    /// with shapes: the peer the shaped board is measured against.
    pub fn schematic() -> Painter {
        Painter {
            schematic: true,
            ..Painter::default()
        }
    }

    fn background(
        &self,
        variant: &Variant,
        map: &Map,
        map_text: &str,
    ) -> Result<Arc<Background>, PictureError> {
        let k = key(variant, map, map_text);
        if let Some(b) = self.lock().get(&k) {
            return Ok(b.clone());
        }
        let shapes = if self.schematic {
            None
        } else {
            super::shapes_of(map)
        };
        let (layout, svg) = match &shapes {
            Some(shapes) => {
                let layout = shapes.layout();
                let svg = shaped::background(map, shapes, &layout);
                (layout, svg)
            }
            None => {
                let layout = Layout::read(map_text, map).map_err(PictureError::Draw)?;
                let svg = svg::background(map, &layout);
                (layout, svg)
            }
        };
        let pixmap = png::rasterise(&format!("{svg}</svg>"))?;
        // What the pictures draw over the background: the powers' colours, black, white,
        // the red of dislodged units and the title's ink; on shapes, each power's tint.
        let mut over: Vec<[u8; 3]> = map.power_ids().map(|p| rgb(svg::power_colour(p))).collect();
        over.extend([[0, 0, 0], [255, 255, 255], [204, 0, 0], [34, 34, 34]]);
        if shapes.is_some() {
            over.extend(map.power_ids().map(|p| rgb(&shaped::tint(p))));
        }
        let palette = png::Palette::of(&pixmap, &over);
        let kept = match &shapes {
            Some(shapes) => {
                let names_svg = shaped::names(map, &layout);
                let mut names =
                    Pixmap::new(pixmap.width(), pixmap.height()).ok_or(png::PngError::Size {
                        width: pixmap.width(),
                        height: pixmap.height(),
                    })?;
                png::onto(
                    &mut names,
                    &layer(pixmap.width(), pixmap.height(), &names_svg),
                )?;
                let k = shapes.scale;
                Some(Kept {
                    paths: shapes.spaces.iter().map(|sp| path_of(&sp.path)).collect(),
                    transform: tiny_skia::Transform::from_row(k, 0.0, 0.0, k, 0.0, svg::TOP),
                    border: shaped::border_width(k),
                    names_svg,
                    names: covered(&names),
                })
            }
            None => None,
        };
        let b = Arc::new(Background {
            layout,
            shapes,
            svg,
            pixmap,
            palette,
            kept,
        });
        self.lock().insert(k, b.clone());
        Ok(b)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Background>>> {
        // A panic while holding the lock leaves the map whole: every entry is complete.
        self.backgrounds
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The SVG of a board: `position` on the variant's map as it stands at the position's
    /// phase, with `marks` for the orders, titled `title`.
    pub fn svg(
        &self,
        variant: &Variant,
        map_text: &str,
        position: &Position,
        title: &str,
        marks: &[Mark],
    ) -> Result<String, PictureError> {
        let (bg, overlay) = self.parts(variant, map_text, position, title, marks)?;
        Ok(whole(&bg, &overlay))
    }

    /// A board's background and the overlay drawn over it.
    fn parts(
        &self,
        variant: &Variant,
        map_text: &str,
        position: &Position,
        title: &str,
        marks: &[Mark],
    ) -> Result<(Arc<Background>, String), PictureError> {
        let map = variant.map_at(position.phase);
        let bg = self.background(variant, map, map_text)?;
        let overlay = match &bg.shapes {
            Some(shapes) => shaped::overlay(map, shapes, &bg.layout, title, position, marks),
            None => svg::overlay(map, &bg.layout, title, position, marks),
        };
        Ok((bg, overlay))
    }

    /// The SVG and PNG of a board (see [`Painter::svg`]).
    pub fn paint(
        &self,
        variant: &Variant,
        map_text: &str,
        position: &Position,
        title: &str,
        marks: &[Mark],
    ) -> Result<Picture, PictureError> {
        let map = variant.map_at(position.phase);
        let bg = self.background(variant, map, map_text)?;
        if let (Some(shapes), Some(kept)) = (&bg.shapes, &bg.kept) {
            return paint_shaped(&bg, kept, shapes, map, position, title, marks);
        }
        let (bg, overlay) = self.parts(variant, map_text, position, title, marks)?;
        let (width, height) = (bg.pixmap.width(), bg.pixmap.height());
        let pixmap = png::over(&bg.pixmap, &layer(width, height, &overlay))?;
        let png = bg.palette.encode(&pixmap)?;
        let svg = whole(&bg, &overlay);
        Ok(Picture { svg, png })
    }
}

/// A picture of a board drawn from shapes: the tints filled from the kept paths, then the
/// centres and marks, the kept names, and the units and legend drawn over the background;
/// the SVG is the same drawing as text ([`shaped::overlay`]).
fn paint_shaped(
    bg: &Background,
    kept: &Kept,
    shapes: &Shapes,
    map: &Map,
    position: &Position,
    title: &str,
    marks: &[Mark],
) -> Result<Picture, PictureError> {
    let (width, height) = (bg.pixmap.width(), bg.pixmap.height());
    let mut pixmap = bg.pixmap.clone();
    let border = shaped::border_rgb();
    let mut edge = tiny_skia::Paint::default();
    edge.set_color_rgba8(border[0], border[1], border[2], 255);
    edge.anti_alias = true;
    let stroke = tiny_skia::Stroke {
        width: kept.border,
        line_join: tiny_skia::LineJoin::Round,
        ..tiny_skia::Stroke::default()
    };
    for p in map.province_ids() {
        let (Some(who), Some(Some(path))) =
            (shaped::holder(map, position, p), kept.paths.get(p.index()))
        else {
            continue;
        };
        let [r, g, b] = rgb(&shaped::tint(who));
        let mut fill = tiny_skia::Paint::default();
        fill.set_color_rgba8(r, g, b, 255);
        fill.anti_alias = true;
        pixmap.fill_path(
            path,
            &fill,
            tiny_skia::FillRule::Winding,
            kept.transform,
            None,
        );
        pixmap.stroke_path(path, &edge, &stroke, kept.transform, None);
    }
    let lower = shaped::lower(map, &bg.layout, title, position, marks);
    png::onto(&mut pixmap, &layer(width, height, &lower))?;
    blend(&mut pixmap, &kept.names);
    let upper = shaped::upper(map, shapes, &bg.layout, position, marks);
    png::onto(&mut pixmap, &layer(width, height, &upper))?;
    let png = bg.palette.encode(&pixmap)?;
    let mut overlay = shaped::tints(map, shapes, position);
    overlay.push_str(&lower);
    overlay.push_str(&kept.names_svg);
    overlay.push_str(&upper);
    Ok(Picture {
        svg: whole(bg, &overlay),
        png,
    })
}
