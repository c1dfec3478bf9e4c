//! The centre-count chart over the years: one line per power in the power's colour on the
//! board (the same [`power_colour`] the map is drawn with), drawn as inline SVG by the
//! template from the numbers made here (no script), with the table of the same counts
//! beside it. Lines of equal counts are drawn side by side, and each line ends in a label
//! with its power's name and count, so that no power hides another.

use serde::Serialize;

use crate::game::map::Map;
use crate::judge::{Game, Judge};
use crate::picture::palette::power_colour;

/// The chart's drawing area, in SVG units.
const WIDTH: usize = 600;
const HEIGHT: usize = 240;
/// Room left of the lines for the scale.
const LEFT: usize = 30;
/// Room right of the lines for the labels at their ends ("GreatBritain 12").
const RIGHT: usize = 110;
/// Room below the lines for the years.
const BOTTOM: usize = 30;
/// Room above the highest count.
const TOP: usize = 10;
/// The height of a label at a line's end, and so the least gap between two.
const LABEL_GAP: f32 = 12.0;
/// How far apart lines of equal counts are drawn, at most (their stroke is 2 wide).
const SIDE_BY_SIDE: f32 = 2.5;
/// The least room between two years' names along the bottom.
const YEAR_GAP: f32 = 44.0;

/// One power's line.
#[derive(Serialize)]
pub(super) struct Line {
    power: String,
    colour: &'static str,
    points: String,
    last: usize,
    /// Where the line ends, and where its label stands (moved clear of the others').
    #[serde(serialize_with = "tenths")]
    end: (f32, f32),
    #[serde(serialize_with = "tenths")]
    label: (f32, f32),
}

/// One power's row of the table beside the chart: its count at the end of each year.
#[derive(Serialize)]
pub(super) struct Row {
    power: String,
    colour: &'static str,
    counts: Vec<usize>,
}

/// The chart: its lines, the years along the bottom, the scale, and the table.
#[derive(Serialize)]
pub(super) struct Chart {
    lines: Vec<Line>,
    /// The years named along the bottom (every year when they fit) and where.
    years: Vec<(f64, String)>,
    /// Every year, the table's heading.
    all_years: Vec<String>,
    rows: Vec<Row>,
    top: usize,
    width: usize,
    height: usize,
    left: usize,
    /// Where the lines end on the right (the labels beyond).
    right: usize,
    base: usize,
}

/// A place in tenths of a unit, as the SVG shows it.
fn tenth(v: f32) -> f64 {
    (f64::from(v) * 10.0).round() / 10.0
}

/// A point in tenths of a unit.
fn tenths<S: serde::Serializer>(p: &(f32, f32), s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&(tenth(p.0), tenth(p.1)), s)
}

/// The chart of `game`'s centre counts, or None before its first year ends.
pub(super) fn chart(judge: &Judge, game: &Game) -> Option<Chart> {
    let calendar = &judge.variant(game).calendar;
    let years: Vec<String> = game
        .centre_counts
        .iter()
        .map(|c| {
            c.played
                .checked_sub(1)
                .and_then(|k| game.history.get(k))
                .map(|r| calendar.show_year(r.phase().year))
                .unwrap_or_default()
        })
        .collect();
    let counts: Vec<Vec<usize>> = game
        .centre_counts
        .iter()
        .map(|c| c.counts.clone())
        .collect();
    of_counts(judge.map_of(game), &years, &counts)
}

/// The chart of a map's powers' counts, `counts[year][power]`, the years named by
/// `years`; None without a year.
fn of_counts(map: &Map, years: &[String], counts: &[Vec<usize>]) -> Option<Chart> {
    if counts.is_empty() {
        return None;
    }
    let n = map.powers.len();
    let at = |year: usize, p: usize| counts[year].get(p).copied().unwrap_or(0);
    let top = counts.iter().flatten().copied().max().unwrap_or(0).max(1);
    let base = HEIGHT - BOTTOM;
    let span = (WIDTH - LEFT - RIGHT) as f32;
    let step = span / (counts.len().max(2) - 1) as f32;
    let x = |i: usize| LEFT as f32 + i as f32 * step;
    let unit = (base - TOP) as f32 / top as f32;
    let y = |c: usize| base as f32 - c as f32 * unit;
    // Lines of equal counts in a year side by side about the count, in the powers' order.
    let gap = |group: usize| SIDE_BY_SIDE.min(0.8 * unit / group as f32);
    let point = |year: usize, p: usize| {
        let c = at(year, p);
        let same: Vec<usize> = (0..n).filter(|&q| at(year, q) == c).collect();
        let rank = same.iter().position(|&q| q == p).unwrap_or(0) as f32;
        let mid = (same.len() as f32 - 1.0) / 2.0;
        (x(year), y(c) + (rank - mid) * gap(same.len()))
    };
    let last = counts.len() - 1;
    let mut lines: Vec<Line> = map
        .powers
        .iter()
        .zip(map.power_ids())
        .enumerate()
        .map(|(p, (power, id))| {
            let colour = power_colour(map, id);
            let end = point(last, p);
            Line {
                power: power.name.clone(),
                colour,
                points: (0..counts.len())
                    .map(|i| {
                        let (px, py) = point(i, p);
                        format!("{px:.1},{py:.1}")
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                last: at(last, p),
                end,
                label: (end.0 + 12.0, end.1),
            }
        })
        .collect();
    spread_labels(&mut lines, TOP as f32, base as f32);
    let every = (YEAR_GAP / step).ceil().max(1.0) as usize;
    let shown = (0..counts.len())
        .filter(|&i| (last - i).is_multiple_of(every))
        .map(|i| (tenth(x(i)), years.get(i).cloned().unwrap_or_default()))
        .collect();
    let rows = lines
        .iter()
        .enumerate()
        .map(|(p, l)| Row {
            power: l.power.clone(),
            colour: l.colour,
            counts: (0..counts.len()).map(|i| at(i, p)).collect(),
        })
        .collect();
    Some(Chart {
        lines,
        years: shown,
        all_years: years.to_vec(),
        rows,
        top,
        width: WIDTH,
        height: HEIGHT,
        left: LEFT,
        right: WIDTH - RIGHT,
        base,
    })
}

/// Moves the labels at the lines' ends apart, [`LABEL_GAP`] at least, in the order of their
/// lines' ends, within `lo..=hi` where there is room.
fn spread_labels(lines: &mut [Line], lo: f32, hi: f32) {
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| lines[a].end.1.total_cmp(&lines[b].end.1).then(a.cmp(&b)));
    let mut next = f32::MIN;
    for &i in &order {
        let y = lines[i].label.1.max(next);
        lines[i].label.1 = y;
        next = y + LABEL_GAP;
    }
    // Past the bottom: the whole column up, as far as the top allows.
    if let Some(&low) = order.last() {
        let over = lines[low].label.1 - hi;
        if over > 0.0 {
            let room = order
                .first()
                .map_or(0.0, |&f| (lines[f].label.1 - lo).max(0.0));
            for &i in &order {
                lines[i].label.1 -= over.min(room);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::game::variant::Variant;

    fn standard() -> &'static Map {
        &Variant::builtin("standard").unwrap().map
    }

    fn years(n: usize) -> Vec<String> {
        (0..n).map(|i| (1901 + i).to_string()).collect()
    }

    /// "The web page's centre chart uses other colours than the map on the same page
    /// (green is France in the chart, Italy on the map)".
    #[test]
    fn each_line_is_in_its_powers_colour_on_the_map() {
        let map = standard();
        let counts = vec![vec![3, 3, 3, 3, 3, 4, 3], vec![4, 5, 5, 5, 4, 6, 5]];
        let chart = of_counts(map, &years(2), &counts).unwrap();
        for (line, p) in chart.lines.iter().zip(map.power_ids()) {
            assert_eq!(line.colour, power_colour(map, p), "{}", line.power);
        }
        assert_eq!(chart.lines[2].power, "France");
        assert_eq!(chart.rows[2].colour, chart.lines[2].colour);
    }

    /// "hides powers with equal counts under one line": lines of powers with the same counts
    /// every year are drawn apart, and each line's label stands clear of the others'.
    #[test]
    fn lines_of_equal_counts_are_drawn_apart_and_each_is_labelled() {
        let map = standard();
        let counts = vec![vec![3, 3, 3, 3, 3, 4, 3]; 3];
        let chart = of_counts(map, &years(3), &counts).unwrap();
        let points: Vec<&str> = chart.lines.iter().map(|l| l.points.as_str()).collect();
        for (i, a) in points.iter().enumerate() {
            for b in &points[i + 1..] {
                assert_ne!(a, b, "two lines drawn on one another");
            }
        }
        let mut labels: Vec<f32> = chart.lines.iter().map(|l| l.label.1).collect();
        labels.sort_by(f32::total_cmp);
        for w in labels.windows(2) {
            assert!(
                w[1] - w[0] >= LABEL_GAP - 0.01,
                "labels overlap: {labels:?}"
            );
        }
        for l in &chart.lines {
            assert!(
                l.label.1 <= (HEIGHT - BOTTOM) as f32 + 0.01,
                "{}",
                l.label.1
            );
        }
    }

    /// "clips its last year": the last year's point, its name along the bottom and the
    /// labels at the lines' ends lie inside the chart, with room for a label's text.
    #[test]
    fn the_last_year_and_the_labels_lie_inside_the_chart() {
        let map = standard();
        for n in [1, 2, 9, 30] {
            let counts = vec![vec![3, 3, 3, 3, 3, 4, 3]; n];
            let chart = of_counts(map, &years(n), &counts).unwrap();
            let (x, year) = chart.years.last().unwrap();
            assert_eq!(year, &(1900 + n).to_string());
            // A year's name is about 28 units wide, centred at its x.
            assert!(x + 14.0 <= WIDTH as f64, "{n} years: the last at {x}");
            assert!(chart.years.first().unwrap().0 >= 14.0);
            for l in &chart.lines {
                // "Germany 18" at 11 units a letter is at most about 80 wide.
                assert!(l.label.0 + 80.0 <= WIDTH as f32, "{}", l.label.0);
            }
            assert_eq!(chart.all_years.len(), n);
            assert!(chart.rows.iter().all(|r| r.counts.len() == n));
        }
    }

    #[test]
    fn the_world_has_a_line_and_a_row_for_each_of_its_sixteen_powers() {
        let map = &Variant::builtin("world1880").unwrap().map;
        let counts = vec![vec![2; 16], vec![0; 16]];
        let chart = of_counts(map, &years(2), &counts).unwrap();
        assert_eq!(chart.lines.len(), 16);
        assert_eq!(chart.rows.len(), 16);
        let mut labels: Vec<f32> = chart.lines.iter().map(|l| l.label.1).collect();
        labels.sort_by(f32::total_cmp);
        for w in labels.windows(2) {
            assert!(
                w[1] - w[0] >= LABEL_GAP - 0.01,
                "labels overlap: {labels:?}"
            );
        }
    }
}
