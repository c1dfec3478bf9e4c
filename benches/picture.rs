//! Pictures of the board (issue 16): one standard-map picture of the opening as SVG alone,
//! and SVG + PNG drawn by a [`Painter`] that keeps the map's background (as the daemon
//! does: the first picture of a map rasterises it, every later one draws only what changes),
//! and the same for the 1880 world. Method: criterion's median over its default sampling,
//! on the development machine (2 cores); the font is loaded once per process.

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
    }
}

criterion_group!(benches, pictures);
criterion_main!(benches);
