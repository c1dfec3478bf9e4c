//! Pictures of the board (issue 16): one standard-map picture of the opening, SVG alone and
//! SVG + PNG. Method: criterion's median over its default sampling, on the development
//! machine (2 cores); the font is loaded once per process, as in the daemon.

use criterion::{criterion_group, criterion_main, Criterion};
use herald::game::variant::Variant;
use herald::picture;
use std::hint::black_box;

fn standard_picture(c: &mut Criterion) {
    let Ok(variant) = Variant::builtin("standard") else {
        return;
    };
    let Some(text) = picture::builtin_map_text(variant) else {
        return;
    };
    let opening = variant.opening();
    c.bench_function("picture standard svg", |b| {
        b.iter(|| picture::draw(black_box(variant), text, black_box(&opening)).map(|s| s.len()))
    });
    c.bench_function("picture standard svg+png", |b| {
        b.iter(|| {
            picture::draw(black_box(variant), text, black_box(&opening))
                .ok()
                .and_then(|svg| picture::png::render(&svg).ok())
                .map(|png| png.len())
        })
    });
}

criterion_group!(benches, standard_picture);
criterion_main!(benches);
