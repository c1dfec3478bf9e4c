//! The plan a keeper writes for carving a map's shapes (`maps/<map>.seeds`): where the board
//! lies on the globe, the seed points of each space, and hints where geography alone would
//! not give the board's borders.
//!
//! # Format
//! ```text
//! source <text>                    # the land data, named in the shapes' header
//! centre <lon> <lat>               # the projection's centre (Lambert azimuthal equal-area)
//! frame <west> <east> <south> <north>   # the board's extent in degrees
//! width <grid units>               # the grid's width (the picture's width / scale)
//! scale <pixels per grid unit>
//! seed <Abbr> <lon> <lat> [<lon> <lat> ...]   # a point, or a line through points
//! none <lon> <lat> [...]           # land of no space (drawn neutral)
//! land <lon> <lat> <lon> <lat> <lon> <lat> [...]   # a polygon whose water counts as land
//! water <lon> <lat> <lon> <lat> <lon> <lat> [...]  # a polygon whose land counts as water
//! strait <Abbr> <Abbr>             # neighbours across water: drawn as their own mark
//! label <Abbr> <lon> <lat>         # where the space's name and units go (default: its
//!                                  # deepest point)
//! wrap                             # the board goes round the globe: the frame is 360
//!                                  # degrees wide, its west and east edges one meridian
//!                                  # (a Miller cylindrical projection, no centre or lens)
//! lens <lon> <lat> <radius> <factor>   # magnify a crowded part of the board: `factor`
//!                                  # times at its centre, fading out over about `radius`
//!                                  # degrees; the rest of the board moves outwards
//! ```

use super::CarveError;

/// A seed: the space's abbreviation (`None`: land of no space) and the points of its line.
pub type Seed = (Option<String>, Vec<(f64, f64)>);

/// A keeper's plan for one map's shapes.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Where the land data comes from and its licence.
    pub source: String,
    /// The projection's centre, degrees.
    pub centre: (f64, f64),
    /// West, east, south, north, degrees.
    pub frame: (f64, f64, f64, f64),
    /// The grid's width in units.
    pub width: u32,
    /// Pixels per grid unit in pictures.
    pub scale: f64,
    /// Seeds: the space's abbreviation (`None`: neutral land) and the points of its line.
    pub seeds: Vec<Seed>,
    /// Polygons forced to land (`true`) or water (`false`).
    pub force: Vec<(bool, Vec<(f64, f64)>)>,
    /// Pairs of spaces joined across water.
    pub straits: Vec<(String, String)>,
    /// Where a space's name goes, when not at its deepest point.
    pub labels: Vec<(String, (f64, f64))>,
    /// Lenses magnifying crowded parts: centre (degrees), radius (degrees), factor.
    pub lenses: Vec<Lens>,
    /// Whether the board goes round the globe, its west and east edges joined (a world map
    /// whose seam runs across the Pacific).
    pub wrap: bool,
}

/// A lens of the plan: its centre (longitude, latitude), its radius in degrees and how many
/// times it magnifies at its centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lens {
    /// The centre, degrees.
    pub at: (f64, f64),
    /// About how far the magnification reaches, degrees.
    pub radius: f64,
    /// The magnification at the centre (1: none).
    pub factor: f64,
}

fn numbers(line: usize, words: &[&str]) -> Result<Vec<f64>, CarveError> {
    words
        .iter()
        .map(|w| {
            w.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| CarveError::Plan(line, format!("'{w}' is not a number")))
        })
        .collect()
}

fn points(line: usize, words: &[&str], at_least: usize) -> Result<Vec<(f64, f64)>, CarveError> {
    let v = numbers(line, words)?;
    if v.len() % 2 != 0 || v.len() < 2 * at_least {
        return Err(CarveError::Plan(
            line,
            format!("expected at least {at_least} longitude-latitude pairs"),
        ));
    }
    Ok(v.chunks(2).map(|c| (c[0], c[1])).collect())
}

impl Plan {
    /// Reads a plan; refuses unknown keywords and malformed lines.
    pub fn read(text: &str) -> Result<Plan, CarveError> {
        let mut plan = Plan {
            width: 2000,
            scale: 0.5,
            ..Plan::default()
        };
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((&key, rest)) = words.split_first() else {
                continue;
            };
            match key {
                "source" => plan.source = rest.join(" "),
                "centre" => {
                    let v = points(n, rest, 1)?;
                    plan.centre = v[0];
                }
                "frame" => match numbers(n, rest)?[..] {
                    [w, e, s, north] if w < e && s < north => plan.frame = (w, e, s, north),
                    _ => {
                        return Err(CarveError::Plan(
                            n,
                            "frame <west> <east> <south> <north>".into(),
                        ))
                    }
                },
                "width" => {
                    plan.width = rest
                        .first()
                        .and_then(|w| w.parse().ok())
                        .filter(|w| (100..=8000).contains(w))
                        .ok_or_else(|| CarveError::Plan(n, "width 100..8000".into()))?;
                }
                "scale" => {
                    plan.scale = numbers(n, rest)?
                        .first()
                        .copied()
                        .filter(|s| *s > 0.0)
                        .ok_or_else(|| CarveError::Plan(n, "scale <positive number>".into()))?;
                }
                "seed" => {
                    let (abbr, rest) = rest
                        .split_first()
                        .ok_or_else(|| CarveError::Plan(n, "seed <Abbr> <lon> <lat> ...".into()))?;
                    plan.seeds
                        .push((Some((*abbr).to_string()), points(n, rest, 1)?));
                }
                "label" => {
                    let (abbr, rest) = rest
                        .split_first()
                        .ok_or_else(|| CarveError::Plan(n, "label <Abbr> <lon> <lat>".into()))?;
                    plan.labels
                        .push(((*abbr).to_string(), points(n, rest, 1)?[0]));
                }
                "lens" => match numbers(n, rest)?[..] {
                    [lon, lat, radius, factor]
                        if radius > 0.0 && radius <= 90.0 && (1.0..=10.0).contains(&factor) =>
                    {
                        plan.lenses.push(Lens {
                            at: (lon, lat),
                            radius,
                            factor,
                        });
                    }
                    _ => {
                        return Err(CarveError::Plan(
                            n,
                            "lens <lon> <lat> <radius 0..90> <factor 1..10>".into(),
                        ))
                    }
                },
                "wrap" if rest.is_empty() => plan.wrap = true,
                "none" => plan.seeds.push((None, points(n, rest, 1)?)),
                "land" | "water" => plan.force.push((key == "land", points(n, rest, 3)?)),
                "strait" => match rest {
                    [a, b] => plan.straits.push(((*a).to_string(), (*b).to_string())),
                    _ => return Err(CarveError::Plan(n, "strait <Abbr> <Abbr>".into())),
                },
                _ => return Err(CarveError::Plan(n, format!("unknown keyword '{key}'"))),
            }
        }
        if plan.wrap {
            let (west, east, ..) = plan.frame;
            if (east - west - 360.0).abs() > 1e-9 {
                return Err(CarveError::Plan(
                    0,
                    "a board that wraps needs a frame 360 degrees wide".into(),
                ));
            }
            if !plan.lenses.is_empty() {
                return Err(CarveError::Plan(
                    0,
                    "a board that wraps takes no lens".into(),
                ));
            }
        }
        Ok(plan)
    }
}
