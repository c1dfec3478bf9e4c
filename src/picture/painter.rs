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
use super::region::{self, View};
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
    /// The map's regions (an overview's frames; empty on a whole board).
    frames: Vec<region::Frame>,
}

/// What every picture of a board drawn from shapes reuses: the pixels each space's outline
/// covers (its tint is blended into them, never filled again from the path), and the
/// spaces' names, rasterised once onto a clear layer.
struct Kept {
    /// What each space's tint covers, by province index.
    spaces: Vec<Option<Coverage>>,
    /// The names' SVG ([`shaped::names`]), and an overview's frames over them.
    names_svg: String,
    /// The names, rasterised once over a clear canvas, kept as the pixels they cover (their
    /// index in the canvas and premultiplied colour): a small part of the canvas, blended
    /// over each picture far quicker than the whole layer.
    names: Vec<(usize, [u8; 4])>,
}

/// How much of each pixel of a box a space covers (0 to 255): its inside, filled, and its
/// border, stroked over the fill; kept so that tinting a space is a blend, not a fill.
struct Coverage {
    /// The box's left and top on the canvas, pixels.
    left: usize,
    top: usize,
    /// The box's width, pixels.
    width: usize,
    /// The fill's coverage, row by row.
    fill: Vec<u8>,
    /// The border's coverage, row by row.
    edge: Vec<u8>,
}

impl Coverage {
    /// What an outline (grid units, drawn through `transform`) covers within `clip` (the
    /// canvas's pixels from `clip.0` to `clip.1` down): the fill, and a border of `border`
    /// grid units, anti-aliased as tiny-skia draws them.
    fn of(
        path: &tiny_skia::Path,
        transform: tiny_skia::Transform,
        border: f32,
        canvas: (u32, u32),
        clip: (u32, u32),
    ) -> Option<Coverage> {
        let b = path.bounds().transform(transform)?;
        let pad = border * transform.sx.abs() + 2.0;
        let left = (b.left() - pad).floor().max(0.0) as u32;
        let top = ((b.top() - pad).floor().max(0.0) as u32).max(clip.0);
        let right = ((b.right() + pad).ceil() as u32).min(canvas.0);
        let bottom = ((b.bottom() + pad).ceil() as u32).min(canvas.1).min(clip.1);
        if right <= left || bottom <= top {
            return None;
        }
        let (width, height) = (right - left, bottom - top);
        let at = transform.post_translate(-(left as f32), -(top as f32));
        let mut paint = tiny_skia::Paint::default();
        paint.set_color_rgba8(255, 255, 255, 255);
        paint.anti_alias = true;
        let mut layer = Pixmap::new(width, height)?;
        layer.fill_path(path, &paint, tiny_skia::FillRule::Winding, at, None);
        let alpha = |l: &Pixmap| l.data().chunks_exact(4).map(|px| px[3]).collect();
        let fill = alpha(&layer);
        layer.fill(tiny_skia::Color::TRANSPARENT);
        let stroke = tiny_skia::Stroke {
            width: border,
            line_join: tiny_skia::LineJoin::Round,
            ..tiny_skia::Stroke::default()
        };
        layer.stroke_path(path, &paint, &stroke, at, None);
        Some(Coverage {
            left: left as usize,
            top: top as usize,
            width: width as usize,
            fill,
            edge: alpha(&layer),
        })
    }

    /// Paints the space on an opaque canvas: its tint, then its border.
    fn paint(&self, pixmap: &mut Pixmap, tint: [u8; 3], border: [u8; 3]) {
        let stride = pixmap.width() as usize;
        let data = pixmap.data_mut();
        for (mask, colour) in [(&self.fill, tint), (&self.edge, border)] {
            for (row, cover) in mask.chunks_exact(self.width).enumerate() {
                let start = ((self.top + row) * stride + self.left) * 4;
                let Some(line) = data.get_mut(start..start + self.width * 4) else {
                    continue;
                };
                for (px, &c) in line.chunks_exact_mut(4).zip(cover) {
                    match c {
                        0 => continue,
                        255 => {
                            px[..3].copy_from_slice(&colour);
                            continue;
                        }
                        _ => {}
                    }
                    let (c, keep) = (u32::from(c), 255 - u32::from(c));
                    for k in 0..3 {
                        let v = u32::from(colour[k]) * c + u32::from(px[k]) * keep;
                        // v / 255, rounded.
                        px[k] = ((v + 128 + ((v + 128) >> 8)) >> 8) as u8;
                    }
                }
            }
        }
    }
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
/// change), with the map file's text and the view: together they name one background.
fn key(variant: &Variant, map: &Map, map_text: &str, view: View) -> u64 {
    let index = std::iter::once(&variant.map)
        .chain(variant.schedule.iter().map(|(_, m)| m))
        .position(|m| std::ptr::eq(m, map))
        .unwrap_or(usize::MAX);
    let mut h = DefaultHasher::new();
    index.hash(&mut h);
    map.name.hash(&mut h);
    map_text.hash(&mut h);
    view.hash(&mut h);
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
        view: View,
    ) -> Result<Arc<Background>, PictureError> {
        let k = key(variant, map, map_text, view);
        if let Some(b) = self.lock().get(&k) {
            return Ok(b.clone());
        }
        let whole = if self.schematic {
            None
        } else {
            super::shapes_of(map)
        };
        let no_view = || {
            PictureError::Draw(vec![super::DrawError {
                line: 0,
                message: format!("the map has no picture {view:?}"),
            }])
        };
        // The shapes and places of this view, the map's regions, and how much the view
        // magnifies the whole board (an overview's frames are drawn at that scale).
        let (shapes, layout, frames, zoom) = match (whole, view) {
            (Some(whole), View::Whole) => {
                let layout = whole.layout();
                (Some(whole), layout, Vec::new(), 1.0)
            }
            (None, View::Whole) => {
                let layout = Layout::read(map_text, map).map_err(PictureError::Draw)?;
                (None, layout, Vec::new(), 1.0)
            }
            (None, _) => return Err(no_view()),
            (Some(whole), view) => {
                let frames =
                    region::read(map_text, map, &whole.layout()).map_err(PictureError::Draw)?;
                let (shapes, layout) =
                    region::view(map, &whole, &frames, view).ok_or_else(no_view)?;
                let zoom = shapes.scale / whole.scale;
                (Some(shapes), layout, frames, zoom)
            }
        };
        let svg = match &shapes {
            Some(shapes) => shaped::background(map, shapes, &layout),
            None => svg::background(map, &layout),
        };
        let pixmap = png::rasterise(&format!("{svg}</svg>"))?;
        // What the pictures draw over the background: the powers' colours, black, white,
        // the red of dislodged units and the title's ink; on shapes, each power's tint.
        let mut over: Vec<[u8; 3]> = map
            .power_ids()
            .map(|p| rgb(svg::power_colour(map, p)))
            .collect();
        over.extend([[0, 0, 0], [255, 255, 255], [204, 0, 0], [34, 34, 34]]);
        if shapes.is_some() {
            over.extend(map.power_ids().map(|p| rgb(&shaped::tint(map, p))));
        }
        let palette = png::Palette::of(&pixmap, &over);
        let kept = match &shapes {
            Some(shapes) => {
                let mut names_svg = shaped::names(map, &layout);
                if view == View::Overview {
                    names_svg.push_str(&region::frames_svg(&frames, zoom));
                }
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
                let transform = tiny_skia::Transform::from_row(k, 0.0, 0.0, k, 0.0, svg::TOP);
                let canvas = (pixmap.width(), pixmap.height());
                // A region's outlines stop at its board's edge, off the title and legend.
                let clip = if layout.clipped {
                    (svg::TOP as u32, (svg::TOP + layout.height) as u32)
                } else {
                    (0, canvas.1)
                };
                Some(Kept {
                    spaces: shapes
                        .spaces
                        .iter()
                        .map(|sp| {
                            let path = path_of(&sp.path)?;
                            Coverage::of(&path, transform, shaped::border_width(k), canvas, clip)
                        })
                        .collect(),
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
            frames,
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
        let marks = &with_next_floods(variant, position, marks)[..];
        let map = variant.map_at(position.phase);
        let bg = self.background(variant, map, map_text, View::Whole)?;
        let overlay = match (&bg.shapes, &bg.kept) {
            (Some(shapes), Some(kept)) => {
                let (lower, upper) = shaped_layers(&bg, shapes, map, position, title, marks);
                shaped_overlay(&bg, kept, shapes, map, position, &lower, &upper)
            }
            _ => svg::overlay(map, &bg.layout, title, position, marks),
        };
        Ok(whole(&bg, &overlay))
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
        self.paint_view(variant, map_text, position, title, marks, View::Whole)
    }

    /// The SVG and PNG of one view of a board: the whole, or on a map with regions its
    /// overview or one region ([`region`]).
    pub fn paint_view(
        &self,
        variant: &Variant,
        map_text: &str,
        position: &Position,
        title: &str,
        marks: &[Mark],
        view: View,
    ) -> Result<Picture, PictureError> {
        let marks = &with_next_floods(variant, position, marks)[..];
        let map = variant.map_at(position.phase);
        let bg = self.background(variant, map, map_text, view)?;
        if let (Some(shapes), Some(kept)) = (&bg.shapes, &bg.kept) {
            return paint_shaped(&bg, kept, shapes, map, position, title, marks);
        }
        let overlay = svg::overlay(map, &bg.layout, title, position, marks);
        let (width, height) = (bg.pixmap.width(), bg.pixmap.height());
        let pixmap = png::over(&bg.pixmap, &layer(width, height, &overlay))?;
        let png = bg.palette.encode(&pixmap)?;
        let svg = whole(&bg, &overlay);
        Ok(Picture { svg, png })
    }

    /// Every picture a mail shows of a board: on a map drawn from shapes that frames
    /// regions (`draw region` lines, [`region`]), the overview and then each region's
    /// picture, titled with their names and numbers; on any other map the whole board.
    pub fn paint_all(
        &self,
        variant: &Variant,
        map_text: &str,
        position: &Position,
        title: &str,
        marks: &[Mark],
    ) -> Result<Vec<Part>, PictureError> {
        let map = variant.map_at(position.phase);
        let regions = region::declared(map_text);
        if regions == 0 || self.schematic || super::shapes::builtin(&map.name).is_none() {
            let picture = self.paint(variant, map_text, position, title, marks)?;
            return Ok(vec![Part {
                region: None,
                title: title.to_string(),
                picture,
            }]);
        }
        let overview = self.background(variant, map, map_text, View::Overview)?;
        let n = overview.frames.len() + 1;
        let mut out = Vec::with_capacity(n);
        let heading = format!("{title} — overview, picture 1 of {n}");
        out.push(Part {
            region: None,
            picture: self.paint_view(
                variant,
                map_text,
                position,
                &heading,
                marks,
                View::Overview,
            )?,
            title: heading,
        });
        for (i, frame) in overview.frames.iter().enumerate() {
            let heading = format!("{title} — {}, picture {} of {n}", frame.name, i + 2);
            out.push(Part {
                region: Some(frame.file_part()),
                picture: self.paint_view(
                    variant,
                    map_text,
                    position,
                    &heading,
                    marks,
                    View::Region(i),
                )?,
                title: heading,
            });
        }
        Ok(out)
    }

    /// How many pictures [`Painter::paint_all`] draws of a map (1 + its regions on a map
    /// drawn from shapes): known before anything is drawn, for a reply's limits.
    pub fn count(&self, map: &Map, map_text: &str) -> usize {
        if self.schematic || super::shapes::builtin(&map.name).is_none() {
            1
        } else {
            1 + region::declared(map_text)
        }
    }
}

/// One of the pictures a mail shows of a board ([`Painter::paint_all`]).
#[derive(Clone, Debug)]
pub struct Part {
    /// The region it shows, as a file name's part (`europe`); `None`: the whole board or
    /// the overview.
    pub region: Option<String>,
    /// Its title, which names the region and the picture's number.
    pub title: String,
    /// The picture.
    pub picture: Picture,
}

/// A board's centres, marks and title (`lower`) and its units and legend (`upper`) as SVG;
/// an overview leaves out the marks of spaces it leaves to its regions.
fn shaped_layers(
    bg: &Background,
    shapes: &Shapes,
    map: &Map,
    position: &Position,
    title: &str,
    marks: &[Mark],
) -> (String, String) {
    let shown;
    let marks = if bg.layout.hidden.is_empty() {
        marks
    } else {
        shown = region::shown_marks(map, &bg.layout, marks);
        &shown[..]
    };
    (
        shaped::lower(map, shapes, &bg.layout, title, position, marks),
        shaped::upper(map, shapes, &bg.layout, position, marks),
    )
}

/// The overlay of a board drawn from shapes as SVG: tints, the lower layer, the kept names
/// (and an overview's frames), the upper layer.
fn shaped_overlay(
    bg: &Background,
    kept: &Kept,
    shapes: &Shapes,
    map: &Map,
    position: &Position,
    lower: &str,
    upper: &str,
) -> String {
    let mut overlay = shaped::tints(map, shapes, &bg.layout, position);
    overlay.push_str(lower);
    overlay.push_str(&kept.names_svg);
    overlay.push_str(upper);
    overlay
}

/// The marks with the next scheduled floods added: every picture of a board whose map
/// floods shows what goes under next (Deluge: "next winter's floods", issue 27).
fn with_next_floods<'a>(
    variant: &Variant,
    position: &Position,
    marks: &'a [Mark],
) -> std::borrow::Cow<'a, [Mark]> {
    let next = super::floods::next_floods(variant, position.phase);
    if next.is_empty() {
        return std::borrow::Cow::Borrowed(marks);
    }
    let mut all = marks.to_vec();
    all.extend(next);
    std::borrow::Cow::Owned(all)
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
    for p in map.province_ids() {
        let (Some(who), Some(Some(space))) =
            (shaped::holder(map, position, p), kept.spaces.get(p.index()))
        else {
            continue;
        };
        space.paint(&mut pixmap, rgb(&shaped::tint(map, who)), border);
    }
    let (lower, upper) = shaped_layers(bg, shapes, map, position, title, marks);
    png::onto(
        &mut pixmap,
        &layer(width, height, &super::glyphs::outlined(&lower)),
    )?;
    blend(&mut pixmap, &kept.names);
    png::onto(
        &mut pixmap,
        &layer(width, height, &super::glyphs::outlined(&upper)),
    )?;
    let png = bg.palette.encode(&pixmap)?;
    let overlay = shaped_overlay(bg, kept, shapes, map, position, &lower, &upper);
    Ok(Picture {
        svg: whole(bg, &overlay),
        png,
    })
}
