//! Pictures of boards drawn quickly: what never changes from phase to phase (the spaces,
//! their names and links, the key) is laid out and rasterised once per map and kept; each
//! picture draws only the title, centres, units, orders and legend over a copy of it.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use resvg::tiny_skia::Pixmap;

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
        let b = Arc::new(Background {
            layout,
            shapes,
            svg,
            pixmap,
            palette,
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
        let (bg, overlay) = self.parts(variant, map_text, position, title, marks)?;
        let (width, height) = (bg.pixmap.width(), bg.pixmap.height());
        let top = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans">"#
        );
        let pixmap = png::over(&bg.pixmap, &format!("{top}{overlay}</svg>"))?;
        let png = bg.palette.encode(&pixmap)?;
        let svg = whole(&bg, &overlay);
        Ok(Picture { svg, png })
    }
}
