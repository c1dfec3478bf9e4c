//! The search that chose the palettes of `src/picture/palette.rs`: simulated annealing over
//! each power's colour (sRGB) and tint share, minimising the squared shortfalls from the
//! bounds `tests/picture_colours.rs` holds them to (with a margin), plus a pull towards the
//! colours before. It uses herald's own colour arithmetic (`src/picture/colour.rs`).
//!
//! ```sh
//! rustc -O --edition 2021 scripts/palette_search.rs -o /tmp/palette_search
//! /tmp/palette_search world1880 <seed> <steps> [<pull>] [<start colours> <start shares>]
//! ```
//!
//! It prints the colours and shares found and the least margin over the bounds (negative:
//! some bound not met). Which powers share which picture is `palette::pictures`; it is
//! typed here for the world.

#[path = "../src/picture/colour.rs"]
#[allow(dead_code)]
mod colour;

use colour::{contrast, difference, Vision};

const LAND: &str = "#f6f1e4";
const SEA: &str = "#bcd8ee";
const PAGE: &str = "#f7f7f2";
const VISIONS: [Vision; 3] = [Vision::Normal, Vision::Protanopia, Vision::Deuteranopia];
const SMALL: (f64, f64) = (12.0, 10.0);
const LARGE: (f64, f64) = (10.0, 6.0);
/// Kept above every bound, so that the colours written as data pass.
const MARGIN: f64 = 0.3;

struct Problem {
    names: Vec<String>,
    start: Vec<String>,
    shares: Vec<u32>,
    /// The bound on two tints (normal, colour-blind), by pair; on each tint from the sea
    /// and the land, by power.
    tint_pairs: Vec<Vec<Option<(f64, f64)>>>,
    tint_alone: Vec<(f64, f64)>,
    /// The bound on two full colours, by pair.
    colour_pairs: Vec<Vec<f64>>,
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// `palette::tint`: the colour mixed with the land, `share` hundredths of the colour.
fn tint(c: [u8; 3], share: u32) -> String {
    let land = colour::rgb(LAND);
    let s = share as f32 / 100.0;
    let mix = |i: usize| (f32::from(c[i]) * s + f32::from(land[i]) * (1.0 - s)).round() as u8;
    hex([mix(0), mix(1), mix(2)])
}

fn bound(b: (f64, f64), v: Vision) -> f64 {
    if v == Vision::Normal {
        b.0
    } else {
        b.1
    }
}

fn short(d: f64, b: f64) -> f64 {
    if d < b + MARGIN {
        (b + MARGIN - d).powi(2)
    } else {
        0.0
    }
}

impl Problem {
    fn new(
        names: &str,
        start: &[&str],
        shares: &[u32],
        pictures: &[(&str, (f64, f64))],
        near: &[(&str, &str)],
        far: f64,
    ) -> Problem {
        let names: Vec<String> = names.split_whitespace().map(String::from).collect();
        let n = names.len();
        let ix = |s: &str| names.iter().position(|x| x == s).expect(s);
        let mut tint_pairs = vec![vec![None; n]; n];
        let mut tint_alone = vec![(0.0, 0.0); n];
        for (powers, b) in pictures {
            let ps: Vec<usize> = powers.split_whitespace().map(ix).collect();
            for &a in &ps {
                if b.0 > tint_alone[a].0 {
                    tint_alone[a] = *b;
                }
                for &c in &ps {
                    let old: Option<(f64, f64)> = tint_pairs[a][c];
                    if a != c && old.is_none_or(|o| b.0 > o.0) {
                        tint_pairs[a][c] = Some(*b);
                    }
                }
            }
        }
        let mut colour_pairs = vec![vec![far; n]; n];
        for (a, b) in near {
            colour_pairs[ix(a)][ix(b)] = 14.0;
            colour_pairs[ix(b)][ix(a)] = 14.0;
        }
        Problem {
            names,
            start: start.iter().map(|s| s.to_string()).collect(),
            shares: shares.to_vec(),
            tint_pairs,
            tint_alone,
            colour_pairs,
        }
    }

    /// The cost of one power alone: contrasts, its tint from the sea and land, the pull.
    fn alone(&self, i: usize, c: [u8; 3], share: u32, pull: f64) -> f64 {
        let (h, t) = (hex(c), tint(c, share));
        let mut cost = 0.0;
        for bg in [LAND, PAGE] {
            let r = contrast(&h, bg);
            if r < 3.05 {
                cost += (3.05 - r) * 50.0;
            }
        }
        let r = contrast(&t, "#222222");
        if r < 4.55 {
            cost += (4.55 - r) * 50.0;
        }
        for v in VISIONS {
            for other in [SEA, LAND] {
                cost += short(difference(&t, other, v), bound(self.tint_alone[i], v));
            }
        }
        cost + pull * difference(&h, &self.start[i], Vision::Normal)
    }

    fn pair(&self, i: usize, j: usize, ci: [u8; 3], si: u32, cj: [u8; 3], sj: u32) -> f64 {
        let mut cost = 0.0;
        let (hi, hj) = (hex(ci), hex(cj));
        let (ti, tj) = (tint(ci, si), tint(cj, sj));
        for v in VISIONS {
            if let Some(b) = self.tint_pairs[i][j] {
                cost += short(difference(&ti, &tj, v), bound(b, v));
            }
            cost += short(difference(&hi, &hj, v), self.colour_pairs[i][j]);
        }
        cost
    }

    /// The least margin over every bound, and what it is.
    fn margin(&self, cs: &[[u8; 3]], ss: &[u32]) -> (f64, String) {
        let n = cs.len();
        let mut worst = (f64::MAX, String::new());
        let mut see = |d: f64, b: f64, what: String| {
            if d - b < worst.0 {
                worst = (d - b, format!("{what}: {d:.2} (bound {b})"));
            }
        };
        for i in 0..n {
            let t = tint(cs[i], ss[i]);
            for v in VISIONS {
                for (o, on) in [(SEA, "sea"), (LAND, "land")] {
                    let b = bound(self.tint_alone[i], v);
                    see(difference(&t, o, v), b, format!("{} {on} {v:?}", self.names[i]));
                }
                for j in i + 1..n {
                    if let Some(b) = self.tint_pairs[i][j] {
                        let d = difference(&t, &tint(cs[j], ss[j]), v);
                        see(d, bound(b, v), format!("{}/{} {v:?}", self.names[i], self.names[j]));
                    }
                    let d = difference(&hex(cs[i]), &hex(cs[j]), v);
                    let what = format!("colours {}/{} {v:?}", self.names[i], self.names[j]);
                    see(d, self.colour_pairs[i][j], what);
                }
            }
        }
        worst
    }
}

/// A small xorshift generator: the search is repeatable from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn world() -> Problem {
    let names = "GreatBritain France Russia Germany Austria Italy Ottoman USA Chile Japan Brazil \
                 Mexico China Portugal Spain Holland";
    let start = [
        "#4c7c83", "#788a77", "#7c0010", "#3550cd", "#0a93b8", "#a97e00", "#e73b64", "#7d5907",
        "#1f7b52", "#d94e98", "#2c357c", "#606bf4", "#3000c5", "#325066", "#703637", "#720548",
    ];
    let shares = [45, 40, 50, 65, 65, 80, 50, 70, 60, 60, 50, 70, 40, 60, 60, 50];
    let pictures = [
        (names, LARGE),
        (
            "GreatBritain France Russia Germany Austria Italy Ottoman Portugal Spain Holland",
            LARGE,
        ),
        ("France Ottoman Portugal", SMALL),
        ("GreatBritain USA Chile Brazil Mexico Spain", SMALL),
        ("GreatBritain France Russia Japan China Spain Holland", SMALL),
    ];
    let near = [
        ("GreatBritain", "Germany"),
        ("GreatBritain", "USA"),
        ("GreatBritain", "Spain"),
        ("GreatBritain", "Holland"),
        ("France", "Germany"),
        ("France", "Austria"),
        ("France", "Italy"),
        ("France", "China"),
        ("France", "Portugal"),
        ("France", "Spain"),
        ("France", "Holland"),
        ("Russia", "Germany"),
        ("Russia", "Austria"),
        ("Russia", "Ottoman"),
        ("Russia", "Japan"),
        ("Russia", "China"),
        ("Germany", "Austria"),
        ("Germany", "Italy"),
        ("Germany", "Holland"),
        ("Austria", "Italy"),
        ("Italy", "Spain"),
        ("USA", "Mexico"),
        ("USA", "Spain"),
        ("Chile", "Brazil"),
        ("Japan", "China"),
        ("Japan", "Spain"),
        ("Mexico", "Spain"),
        ("China", "Spain"),
        ("Portugal", "Spain"),
    ];
    Problem::new(names, &start, &shares, &pictures, &near, 10.0)
}

fn small(names: &str, start: &[&str], shares: &[u32]) -> Problem {
    let all: Vec<&str> = names.split_whitespace().collect();
    let mut near = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            near.push((*a, *b));
        }
    }
    Problem::new(names, start, shares, &[(names, SMALL)], &near, 14.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let problem = match args.get(1).map(String::as_str) {
        Some("world1880") => world(),
        Some("standard") => small(
            "Austria England France Germany Italy Russia Turkey",
            &["#c00728", "#133489", "#5293b5", "#494a4b", "#239d6f", "#8b47ca", "#ab8712"],
            &[60, 55, 60, 55, 45, 55, 80],
        ),
        Some("classical") => small(
            "Macedon Carthage Egypt Rome Syria",
            &["#1f4e9c", "#7b3fa0", "#c9a000", "#b0182a", "#2e8b57"],
            &[50, 50, 60, 55, 50],
        ),
        _ => {
            eprintln!("usage: palette_search world1880|standard|classical <seed> <steps> [<pull>] [<colours> <shares>]");
            std::process::exit(2);
        }
    };
    let num = |i: usize, d: f64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let mut rng = Rng(num(2, 1.0) as u64 * 2654435761 + 1);
    let steps = num(3, 100000.0) as usize;
    let pull = num(4, 0.0);
    let n = problem.names.len();
    let mut cs: Vec<[u8; 3]> = problem.start.iter().map(|h| colour::rgb(h)).collect();
    let mut ss = problem.shares.clone();
    let resumed = args.len() > 6;
    if resumed {
        cs = args[5].split(',').map(colour::rgb).collect();
        ss = args[6].split(',').map(|s| s.parse().unwrap()).collect();
    }
    let mut single: Vec<f64> = (0..n).map(|i| problem.alone(i, cs[i], ss[i], pull)).collect();
    let mut pm = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            pm[i][j] = problem.pair(i, j, cs[i], ss[i], cs[j], ss[j]);
            pm[j][i] = pm[i][j];
        }
    }
    let mut total: f64 = single.iter().sum::<f64>() + pm.iter().flatten().sum::<f64>() / 2.0;
    let mut best = (total, cs.clone(), ss.clone());
    let (t0, s0) = if resumed { (0.05, 10.0) } else { (1.0, 40.0) };
    for k in 0..steps {
        let f = k as f64 / steps as f64;
        let temp = t0 * 0.0005f64.powf(f);
        let i = rng.below(n as u64) as usize;
        let step = ((s0 * (1.0 - f)) as i64).max(2);
        let mut c = cs[i];
        for x in &mut c {
            let d = rng.below(2 * step as u64 + 1) as i64 - step;
            *x = (i64::from(*x) + d).clamp(0, 255) as u8;
        }
        let mut s = ss[i];
        if rng.unit() < 0.3 {
            s = if rng.unit() < 0.5 { s.saturating_sub(5).max(25) } else { (s + 5).min(90) };
        }
        let a = problem.alone(i, c, s, pull);
        let row: Vec<f64> = (0..n)
            .map(|j| if j == i { 0.0 } else { problem.pair(i, j, c, s, cs[j], ss[j]) })
            .collect();
        let delta = a - single[i] + row.iter().sum::<f64>() - pm[i].iter().sum::<f64>();
        if delta < 0.0 || rng.unit() < (-delta / temp).exp() {
            cs[i] = c;
            ss[i] = s;
            single[i] = a;
            for j in 0..n {
                pm[i][j] = row[j];
                pm[j][i] = row[j];
            }
            total += delta;
            if total < best.0 {
                best = (total, cs.clone(), ss.clone());
            }
        }
    }
    let (cost, cs, ss) = best;
    let colours: Vec<String> = cs.iter().map(|&c| hex(c)).collect();
    let shares: Vec<String> = ss.iter().map(u32::to_string).collect();
    println!("cost {cost:.3}");
    println!("colours {}", colours.join(","));
    println!("shares {}", shares.join(","));
    for i in 0..n {
        println!("  {:12} {} {} (share {})", problem.names[i], colours[i], tint(cs[i], ss[i]), ss[i]);
    }
    let (m, what) = problem.margin(&cs, &ss);
    println!("least margin {m:.2}: {what}");
}
