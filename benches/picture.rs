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

/// The parts of one shaped standard picture (issue 27's speed): the overlay's SVG text, its
/// rasterising over the kept background, and the palette PNG encoding, each alone.
fn parts(c: &mut Criterion) {
    let Ok(variant) = Variant::builtin("standard") else {
        return;
    };
    let map = &variant.map;
    let Some(shapes) = picture::shapes_of(map) else {
        return;
    };
    let layout = shapes.layout();
    let opening = variant.opening();
    let Ok(bg) = picture::png::rasterise(&format!(
        "{}</svg>",
        picture::shaped::background(map, &shapes, &layout)
    )) else {
        return;
    };
    let palette = picture::png::Palette::of(&bg, &[]);
    let overlay = || picture::shaped::overlay(map, &shapes, &layout, "t", &opening, &[]);
    let (w, h) = (bg.width(), bg.height());
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans">{}</svg>"#,
        overlay()
    );
    c.bench_function("picture standard part overlay text", |b| {
        b.iter(|| overlay().len())
    });
    c.bench_function("picture standard part raster", |b| {
        b.iter(|| picture::png::over(&bg, black_box(&svg)).map(|p| p.width()))
    });
    let Ok(pixmap) = picture::png::over(&bg, &svg) else {
        return;
    };
    c.bench_function("picture standard part encode", |b| {
        b.iter(|| palette.encode(black_box(&pixmap)).map(|p| p.len()))
    });
}

criterion_group!(benches, pictures, parts);
criterion_main!(benches);
