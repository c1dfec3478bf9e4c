//! The supply centres after a phase that changed them or ends a year: who owns which, who
//! gained and lost which, and each power's count of centres and units with its builds or
//! removals.

use crate::game::calendar::PhaseKind;
use crate::game::map::Map;
use crate::game::position::Position;
use crate::judge::gains::gains_and_losses;

/// The centre lines, for the board `after` the phase played from `before`; none when no
/// centre changed hands and no adjustment phase comes next.
pub(super) fn centre_lines(map: &Map, before: &Position, after: &Position) -> Vec<String> {
    let adjusting = after.phase.kind == PhaseKind::Adjustment;
    let took_centres =
        after.owners != before.owners || (before.phase.kind != PhaseKind::Adjustment && adjusting);
    if !took_centres && !adjusting {
        return Vec::new();
    }
    let mut lines = vec![
        String::new(),
        "Ownership of supply centers:".to_string(),
        String::new(),
    ];
    lines.extend(ownership_lines(map, after));
    let changes = gains_and_losses(map, before, after);
    if !changes.is_empty() {
        lines.push(String::new());
        lines.push("Supply centers gained and lost:".into());
        lines.push(String::new());
        lines.extend(changes);
    }
    lines.push(String::new());
    // After the adjustments the count would announce builds nobody can make now.
    if before.phase.kind != PhaseKind::Adjustment {
        lines.extend(count_lines(map, after));
    }
    lines
}

/// Each power's centres by name, then the unowned ones.
fn ownership_lines(map: &Map, after: &Position) -> Vec<String> {
    let mut lines = Vec::new();
    for p in map.power_ids() {
        let owned: Vec<&str> = map
            .centres()
            .filter(|c| after.owners[c.index()] == Some(p))
            .map(|c| map.province(c).name.as_str())
            .collect();
        if !owned.is_empty() {
            lines.push(format!("{}: {}.", map.power(p).name, owned.join(", ")));
        }
    }
    let free: Vec<&str> = map
        .centres()
        .filter(|c| after.owners[c.index()].is_none())
        .map(|c| map.province(c).name.as_str())
        .collect();
    if !free.is_empty() {
        lines.push(format!("Unowned: {}.", free.join(", ")));
    }
    lines
}

/// Each power's count of centres and units. Builds and removals are announced only when an
/// adjustment phase comes next: when nobody had any and the winter was skipped, the board
/// may still have changed after it (a Deluge flood, a new centre), and what that leaves is
/// settled next winter.
fn count_lines(map: &Map, after: &Position) -> Vec<String> {
    let adjusting = after.phase.kind == PhaseKind::Adjustment;
    let mut lines = Vec::new();
    for p in map.power_ids() {
        let (c, u) = (after.centre_count(p), after.unit_count(p));
        if c == 0 && u == 0 {
            continue;
        }
        let diff = c as i32 - u as i32;
        let what = match diff {
            _ if !adjusting => String::new(),
            d if d > 0 => format!(": Builds {d} unit{}", if d == 1 { "" } else { "s" }),
            d if d < 0 => format!(": Removes {} unit{}", -d, if d == -1 { "" } else { "s" }),
            _ => ": Builds 0 units".into(),
        };
        lines.push(format!(
            "{}: {c} Supply centers, {u} Units{what}.",
            map.power(p).name
        ));
    }
    if map.power_ids().next().is_some() && !adjusting {
        lines.push(String::new());
        lines.push(
            "Nobody had builds or removals, so there is no adjustment phase this year.".into(),
        );
    }
    lines
}
