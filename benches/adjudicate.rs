//! Adjudication speed, herald against the `diplomacy` crate (crates.io, T. Driggs) in the
//! same run:
//! (a) the standard opening, Spring 1901, 22 units ordered;
//! (b) a crowded middle-game movement phase, 35 units with supports, a convoy, cut supports;
//! (c) the whole DATC set in `tests/cases/`, parsing included.
//!
//! Both sides start from orders already parsed into their own types and do the same work:
//! check the orders against the board, then adjudicate. The scenarios are the case files
//! `tests/cases/bench_*.txt`, so `cargo test` also checks their results.

// Bench code throughout: a panic is a failed run with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use diplomacy::judge::{MappedMainOrder, Rulebook, Submission};
use herald::cases::{parse_cases, prepare, run_case, Prepared};
use herald::catalog::Catalog;
use herald::game::resolve::resolve_movement;
use herald::game::screen::{screen_movement, Command, Ordered};

fn scenario(file: &str) -> Prepared<'static> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("scenario file");
    let cases = parse_cases(&text).expect("scenario parses");
    let catalog: &'static Catalog = Box::leak(Box::new(Catalog::builtin()));
    prepare(catalog, &cases[0]).expect("scenario prepares")
}

/// The same orders in the `diplomacy` crate's syntax: `ENG: A yor -> bel`.
fn peer_orders(p: &Prepared) -> Vec<MappedMainOrder> {
    let map = &p.variant.map;
    let (ordered, rejected) = screen_movement(map, &p.variant.rules, &p.position, &p.orders);
    assert!(
        rejected.is_empty(),
        "scenario orders are all legal: {rejected:?}"
    );
    let region = |r| {
        let abbr = map.region_abbr(r).to_ascii_lowercase();
        match abbr.split_once('/') {
            Some((prov, coast)) => format!("{prov}({coast})"),
            None => abbr,
        }
    };
    let prov = |p| map.abbr(p).to_ascii_lowercase();
    let unit_at = |p| {
        let u = p_unit(&ordered, p);
        format!("{} {}", u.unit.kind.code(), region(u.unit.region))
    };
    ordered
        .iter()
        .map(|o| {
            let nation = map.power(o.unit.power).name[..3].to_ascii_uppercase();
            let me = format!("{nation}: {} {}", o.unit.kind.code(), region(o.unit.region));
            let text = match o.command {
                Command::Hold => format!("{me} holds"),
                Command::Move { to, .. } => format!("{me} -> {}", region(to)),
                Command::SupportHold { target } => format!("{me} supports {}", unit_at(target)),
                Command::SupportMove { from, to, .. } => {
                    format!("{me} supports {} -> {}", unit_at(from), prov(to))
                }
                Command::Convoy { from, to } => {
                    format!("{me} convoys {} -> {}", prov(from), prov(to))
                }
                Command::Portage { .. }
                | Command::Convert { .. }
                | Command::Embark { .. }
                | Command::Disembark { .. } => {
                    panic!("the peer plays standard Diplomacy; the scenarios use none of these")
                }
            };
            text.parse()
                .unwrap_or_else(|e| panic!("peer order '{text}': {e:?}"))
        })
        .collect()
}

fn p_unit(ordered: &[Ordered], p: herald::game::ids::ProvinceId) -> Ordered {
    *ordered.iter().find(|o| o.at == p).expect("a unit there")
}

fn movement(c: &mut Criterion, name: &str, file: &str) {
    let p = scenario(file);
    let peer = peer_orders(&p);
    let map = &p.variant.map;
    let rules = &p.variant.rules;
    let mut group = c.benchmark_group(name);
    group.bench_function("herald", |b| {
        b.iter(|| {
            let (ordered, _) =
                screen_movement(map, rules, black_box(&p.position), black_box(&p.orders));
            black_box(resolve_movement(map, &p.position, &ordered))
        })
    });
    let world = diplomacy::geo::standard_map();
    group.bench_function("diplomacy-crate", |b| {
        b.iter_batched(
            || peer.clone(),
            |orders| {
                let submission = Submission::with_inferred_state(world, orders);
                let moved = {
                    let outcome = submission.adjudicate(Rulebook::default());
                    black_box(&outcome);
                    true
                };
                black_box(moved)
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn opening(c: &mut Criterion) {
    movement(c, "a_opening_22_units", "bench_opening.txt");
}

fn middlegame(c: &mut Criterion) {
    movement(c, "b_middlegame_35_units", "bench_middlegame.txt");
}

fn datc_set(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let texts: Vec<String> = (b'a'..=b'j')
        .map(|s| {
            std::fs::read_to_string(dir.join(format!("datc_6{}.txt", s as char)))
                .expect("case file")
        })
        .collect();
    c.bench_function("c_datc_set_parse_and_run", |b| {
        b.iter(|| {
            let mut passed = 0;
            for text in &texts {
                for case in parse_cases(black_box(text)).expect("parses") {
                    passed += run_case(&case).is_ok() as usize;
                }
            }
            assert_eq!(passed, 182);
            passed
        })
    });
}

criterion_group!(benches, opening, middlegame, datc_set);
criterion_main!(benches);
