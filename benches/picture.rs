//! Pictures of the board (issue 16): one standard-map picture of the opening as SVG alone,
//! and SVG + PNG drawn by a [`Painter`] that keeps the map's background (as the daemon
//! does: the first picture of a map rasterises it, every later one draws only what changes),
//! and the same for the 1880 world. Method: criterion's median over its default sampling,
//! on the development machine (2 cores); the font is loaded once per process. The standard
//! map is drawn from its shapes (issue 27); `schematic` draws it as the old board of boxes
//! and links, the peer measured in the same run.

use criterion::{criterion_group, criterion_main, Criterion};
use herald::game::variant::Variant;
use herald::picture::{self, Painter};
use std::hint::black_box;

fn pictures(c: &mut Criterion) {
    for name in ["standard", "world1880"] {
        let Ok(variant) = Variant::builtin(name) else {
            continue;
        };
        let Some(text) = picture::builtin_map_text(variant) else {
            continue;
        };
        let opening = variant.opening();
        let painter = Painter::new();
        if painter.paint(variant, text, &opening, "t", &[]).is_err() {
            // A map not drawn yet has no picture to measure.
            continue;
        }
        c.bench_function(&format!("picture {name} svg"), |b| {
            b.iter(|| {
                painter
                    .svg(variant, text, black_box(&opening), "t", &[])
                    .map(|s| s.len())
            })
        });
        c.bench_function(&format!("picture {name} svg+png"), |b| {
            b.iter(|| {
                painter
                    .paint(variant, text, black_box(&opening), "t", &[])
                    .map(|p| p.png.len())
            })
        });
        let peer = Painter::schematic();
        c.bench_function(&format!("picture {name} schematic svg+png"), |b| {
            b.iter(|| {
                peer.paint(variant, text, black_box(&opening), "t", &[])
                    .map(|p| p.png.len())
            })
        });
    }
}

criterion_group!(benches, pictures);
criterion_main!(benches);
