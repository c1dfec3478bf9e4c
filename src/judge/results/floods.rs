//! What Deluge's floods did, in words, for the results of a winter.

use crate::game::flood::{Claim, MapEvent};
use crate::game::map::Map;

/// What the floods did, in words (Deluge): provinces under water, drowned armies,
/// destroyed and new centres, spaces opened.
pub(super) fn flood_lines(before: &Map, after: &Map, events: &[MapEvent]) -> Vec<String> {
    let name = |p: crate::game::ids::ProvinceId| after.province(p).name.clone();
    let submerged: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            MapEvent::Submerged(p) => Some(name(*p)),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    if !submerged.is_empty() {
        out.push(format!(
            "The waters rise: {} {} now sea.",
            submerged.join(", "),
            if submerged.len() == 1 { "is" } else { "are" }
        ));
    }
    // Drownings, then destroyed centres, then new centres, then opened spaces.
    let rank = |e: &MapEvent| match e {
        MapEvent::Submerged(_) => 0,
        MapEvent::Drowned(_) => 1,
        MapEvent::CentreDestroyed { .. } => 2,
        MapEvent::NewCentre { .. } => 3,
        MapEvent::Opened(_) => 4,
    };
    let mut events = events.to_vec();
    events.sort_by_key(rank);
    for e in &events {
        match *e {
            MapEvent::Submerged(_) => {}
            MapEvent::Drowned(u) => out.push(format!(
                "The {} army in {} drowns.",
                before.power(u.power).adjective,
                before.province(before.province_of(u.region)).name
            )),
            MapEvent::CentreDestroyed { province, owner } => out.push(format!(
                "The supply center of {} is destroyed{}.",
                name(province),
                owner.map_or(String::new(), |o| format!(
                    " ({} loses it)",
                    before.power(o).name
                ))
            )),
            MapEvent::NewCentre {
                province,
                owner,
                claim,
            } => {
                let why = match claim {
                    Claim::Occupied => "its unit stands there",
                    Claim::LastUnit => "the last to have had a unit there",
                    Claim::HomeCountry => "it lies in its home country",
                    Claim::Neutral => "",
                };
                out.push(match owner {
                    Some(o) => format!(
                        "{} becomes a supply center, controlled by {} ({why}).",
                        name(province),
                        after.power(o).name
                    ),
                    None => format!("{} becomes a supply center, neutral.", name(province)),
                });
            }
            MapEvent::Opened(p) => out.push(format!("{} can be entered from now on.", name(p))),
        }
    }
    out
}
