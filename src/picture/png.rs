//! SVG to PNG through resvg, with the font compiled into herald (assets/), never a system
//! font, so a picture is the same on every machine.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

/// DejaVu Sans (assets/README.md).
const REGULAR: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
/// DejaVu Sans Bold.
const BOLD: &[u8] = include_bytes!("../../assets/DejaVuSans-Bold.ttf");

/// A picture could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG did not parse.
    #[error("the picture's SVG does not parse: {0}")]
    Svg(String),
    /// The canvas has no area or is too large.
    #[error("the picture's size {width}x{height} cannot be rendered")]
    Size {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// The PNG could not be encoded.
    #[error("the picture's PNG could not be encoded: {0}")]
    Encode(String),
}

/// The fonts, loaded once per process.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(REGULAR.to_vec());
            db.load_font_data(BOLD.to_vec());
            db.set_sans_serif_family("DejaVu Sans");
            Arc::new(db)
        })
        .clone()
}

pub(crate) fn options() -> usvg::Options<'static> {
    usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    }
}

/// Draws an SVG made by herald on a canvas of its own size.
pub fn rasterise(svg: &str) -> Result<tiny_skia::Pixmap, PngError> {
    let tree = usvg::Tree::from_str(svg, &options()).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(PngError::Size { width, height })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Draws an SVG (elements over a transparent canvas of the background's size) over a copy of
/// a background already drawn: what changes from phase to phase, over what never does.
pub fn over(background: &tiny_skia::Pixmap, svg: &str) -> Result<tiny_skia::Pixmap, PngError> {
    let tree = usvg::Tree::from_str(svg, &options()).map_err(|e| PngError::Svg(e.to_string()))?;
    let mut pixmap = background.clone();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Draws an SVG (elements over a transparent canvas of the pixmap's size) onto a pixmap.
pub fn onto(pixmap: &mut tiny_skia::Pixmap, svg: &str) -> Result<(), PngError> {
    let tree = usvg::Tree::from_str(svg, &options()).map_err(|e| PngError::Svg(e.to_string()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(())
}

/// Renders an SVG made by herald to PNG bytes at its own size.
pub fn render(svg: &str) -> Result<Vec<u8>, PngError> {
    encode(&rasterise(svg)?)
}

/// A 15-bit colour cell: 5 bits a channel.
fn cell(px: &[u8]) -> usize {
    ((px[0] as usize >> 3) << 10) | ((px[1] as usize >> 3) << 5) | (px[2] as usize >> 3)
}

/// The middle colour of a cell.
fn cell_colour(c: usize) -> [i32; 3] {
    let mid = |k: usize| ((((c >> (10 - 5 * k)) & 31) << 3) | 4) as i32;
    [mid(0), mid(1), mid(2)]
}

/// At most 256 colours for an 8-bit PNG and, for every 15-bit colour cell, the nearest of
/// them: made once for a map's background (its most used colours, and the colours drawn
/// over it), then every picture of that map is encoded by looking each pixel up.
#[derive(Clone, Debug)]
pub struct Palette {
    colours: Vec<[u8; 3]>,
    lut: Vec<u8>,
}

impl Palette {
    /// The palette of a picture: `first` (the colours drawn over a background: powers,
    /// black, white) then the picture's most used colours, averaged within their cells.
    pub fn of(pixmap: &tiny_skia::Pixmap, first: &[[u8; 3]]) -> Palette {
        let data = pixmap.data();
        let mut count = vec![0u32; 1 << 15];
        let mut sum = vec![[0u64; 3]; 1 << 15];
        for px in data.chunks_exact(4) {
            let c = cell(px);
            count[c] += 1;
            let s = &mut sum[c];
            s[0] += px[0] as u64;
            s[1] += px[1] as u64;
            s[2] += px[2] as u64;
        }
        let mut colours: Vec<[u8; 3]> = Vec::with_capacity(256);
        for c in first {
            if !colours.contains(c) && colours.len() < 256 {
                colours.push(*c);
            }
        }
        let taken: Vec<usize> = colours
            .iter()
            .map(|c| cell(&[c[0], c[1], c[2], 255]))
            .collect();
        let mut used: Vec<usize> = (0..count.len())
            .filter(|&c| count[c] > 0 && !taken.contains(&c))
            .collect();
        used.sort_by(|a, b| count[*b].cmp(&count[*a]).then(a.cmp(b)));
        for &c in used.iter().take(256 - colours.len()) {
            let n = count[c] as u64;
            let s = sum[c];
            colours.push([(s[0] / n) as u8, (s[1] / n) as u8, (s[2] / n) as u8]);
        }
        let lut = (0..1usize << 15)
            .map(|c| {
                let [r, g, b] = cell_colour(c);
                let mut best = (0u8, i32::MAX);
                for (j, p) in colours.iter().enumerate() {
                    let d = (r - p[0] as i32).pow(2)
                        + (g - p[1] as i32).pow(2)
                        + (b - p[2] as i32).pow(2);
                    if d < best.1 {
                        best = (j as u8, d);
                    }
                }
                best.0
            })
            .collect();
        Palette { colours, lut }
    }

    /// Encodes an opaque picture with this palette: each pixel as the nearest of its colours.
    /// Quick compression first; a picture that comes out large (a world map, a busy
    /// phase) is compressed harder, so that every PNG stays well under 300 KB.
    pub fn encode(&self, pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PngError> {
        // Neighbouring pixels are mostly alike: a pixel like the last reuses its index (the
        // first "last" is clear black, whose cell is 0).
        let mut last = (0u32, self.lut[0]);
        let indices: Vec<u8> = pixmap
            .data()
            .chunks_exact(4)
            .map(|px| {
                let word = u32::from_le_bytes([px[0], px[1], px[2], px[3]]);
                if word != last.0 {
                    last = (word, self.lut[cell(px)]);
                }
                last.1
            })
            .collect();
        let quick = self.write(pixmap, &indices, png::Compression::Fast, png::Filter::Up)?;
        if quick.len() <= LARGE {
            return Ok(quick);
        }
        let hard = self.write(
            pixmap,
            &indices,
            png::Compression::Balanced,
            png::Filter::NoFilter,
        )?;
        Ok(if hard.len() < quick.len() {
            hard
        } else {
            quick
        })
    }

    fn write(
        &self,
        pixmap: &tiny_skia::Pixmap,
        indices: &[u8],
        compression: png::Compression,
        filter: png::Filter,
    ) -> Result<Vec<u8>, PngError> {
        let palette: Vec<u8> = self.colours.iter().flatten().copied().collect();
        let mut out = Vec::with_capacity(indices.len() / 8);
        let encode_error = |e: png::EncodingError| PngError::Encode(e.to_string());
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette);
        encoder.set_compression(compression);
        encoder.set_filter(filter);
        let mut writer = encoder.write_header().map_err(encode_error)?;
        writer.write_image_data(indices).map_err(encode_error)?;
        writer.finish().map_err(encode_error)?;
        Ok(out)
    }
}

/// A PNG larger than this is compressed again, harder.
const LARGE: usize = 200 * 1024;

/// Encodes an opaque picture as an 8-bit palette PNG of its own most used colours (see
/// [`Palette`]). A board is flat colours and their anti-aliased edges, so nothing a reader
/// sees changes, and the file is small and quick to compress.
pub fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PngError> {
    Palette::of(pixmap, &[]).encode(pixmap)
}
