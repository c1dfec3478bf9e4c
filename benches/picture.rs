//! Pictures of the board (issue 16): one standard-map picture of the opening as SVG alone,
//! and SVG + PNG drawn by a [`Painter`] that keeps the map's background (as the daemon
//! does: the first picture of a map rasterises it, every later one draws only what changes),
//! and the same for the 1880 world (its whole board, then its overview as view 0 and each
//! region's picture as views 1 to 4); and the results of a crowded standard phase. Method: criterion's median over its default sampling,
//! on the development machine (2 cores); the font is loaded once per process. The standard
//! map is drawn from its shapes (issue 27); `schematic` draws it as the old board of boxes
//! and links, the peer measured in the same run.

use criterion::{criterion_group, criterion_main, Criterion};
use herald::game::variant::Variant;
use herald::picture::region::View;
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
        // A map with regions (the world) mails its overview and each region's picture
        // (issue 27, point 5): each measured as the daemon draws it, background kept.
        let parts = painter
            .paint_all(variant, text, &opening, "t", &[])
            .map_or(0, |p| p.len());
        let views = if parts > 1 { parts } else { 0 };
        for i in 0..views {
            let view = match i {
                0 => View::Overview,
                _ => View::Region(i - 1),
            };
            c.bench_function(&format!("picture {name} view {i} svg+png"), |b| {
                b.iter(|| {
                    painter
                        .paint_view(variant, text, black_box(&opening), "t", &[], view)
                        .map(|p| p.png.len())
                })
            });
        }
        let peer = Painter::schematic();
        c.bench_function(&format!("picture {name} schematic svg+png"), |b| {
            b.iter(|| {
                peer.paint(variant, text, black_box(&opening), "t", &[])
                    .map(|p| p.png.len())
            })
        });
    }
}

/// The results of a crowded standard Fall 1905 (`tests/cases/bench_middlegame.txt`: 35
/// units, supports, a convoy, a head-to-head, five dislodgements), the picture a results
/// mail carries, shaped and schematic in the same run (issue 27, point 7: "standard results
/// SVG + PNG ≤ 10 ms").
fn results(c: &mut Criterion) {
    let text = herald::game::map::builtin::STANDARD;
    let Ok(cases) = herald::cases::parse_cases(include_str!("../tests/cases/bench_middlegame.txt"))
    else {
        return;
    };
    let Some(Ok(b)) = cases.first().map(|case| picture::case_board(text, case)) else {
        return;
    };
    for (name, painter) in [
        ("picture standard results svg+png", Painter::new()),
        (
            "picture standard results schematic svg+png",
            Painter::schematic(),
        ),
    ] {
        c.bench_function(name, |bench| {
            bench.iter(|| {
                painter
                    .paint(&b.variant, text, black_box(&b.position), &b.title, &b.marks)
                    .map(|p| p.png.len())
            })
        });
    }
}

criterion_group!(benches, pictures, results);
criterion_main!(benches);
