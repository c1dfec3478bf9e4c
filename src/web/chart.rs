//! The centre-count chart over the years: one line per power, drawn as inline SVG by the
//! template from the numbers made here (no script).

use serde::Serialize;

use crate::judge::{Game, Judge};

/// The chart's drawing area, in SVG units.
const WIDTH: usize = 600;
const HEIGHT: usize = 220;
const LEFT: usize = 30;
const BOTTOM: usize = 20;

/// Colours of the lines, by power index (repeating past eight).
const COLOURS: [&str; 8] = [
    "#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#b9770e", "#5d6d7e", "#117a65", "#a04000",
];

/// One power's line.
#[derive(Serialize)]
pub(super) struct Line {
    power: String,
    colour: &'static str,
    points: String,
    last: usize,
}

/// The chart: its lines, the years along the bottom, and the scale.
#[derive(Serialize)]
pub(super) struct Chart {
    lines: Vec<Line>,
    years: Vec<(usize, String)>,
    top: usize,
    width: usize,
    height: usize,
    left: usize,
    base: usize,
}

/// The chart of `game`'s centre counts, or None before its first year ends.
pub(super) fn chart(judge: &Judge, game: &Game) -> Option<Chart> {
    let counts = &game.centre_counts;
    if counts.is_empty() {
        return None;
    }
    let map = judge.map_of(game);
    let calendar = &judge.variant(game).calendar;
    let top = counts
        .iter()
        .flat_map(|c| c.counts.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    let base = HEIGHT - BOTTOM;
    let step = (WIDTH - LEFT - 10) / counts.len().max(2).saturating_sub(1).max(1);
    let x = |i: usize| LEFT + i * step;
    let y = |n: usize| base - n * (base - 10) / top;
    let years = counts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let year = c
                .played
                .checked_sub(1)
                .and_then(|k| game.history.get(k))
                .map(|r| calendar.show_year(r.phase().year))
                .unwrap_or_default();
            (x(i), year)
        })
        .collect();
    let lines = map
        .powers
        .iter()
        .enumerate()
        .map(|(p, power)| {
            let at = |c: &crate::judge::game::CentreCount| c.counts.get(p).copied().unwrap_or(0);
            Line {
                power: power.name.clone(),
                colour: COLOURS[p % COLOURS.len()],
                points: counts
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{},{}", x(i), y(at(c))))
                    .collect::<Vec<_>>()
                    .join(" "),
                last: counts.last().map(at).unwrap_or(0),
            }
        })
        .collect();
    Some(Chart {
        lines,
        years,
        top,
        width: WIDTH,
        height: HEIGHT,
        left: LEFT,
        base,
    })
}
