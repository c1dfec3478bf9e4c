//! Why an order line was refused, and how a line of prose is told apart from a mistyped
//! order.

/// Why an order line was refused, as the reply says it under the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The line reads as an order but not to its end: the parser's reason.
    #[error("{0}")]
    Unread(String),
    /// The line is no order at all: its first word (as written) is no unit, province or
    /// order word.
    #[error("not an order: '{0}' is no unit, province or order word. Each line after SIGNON is read as an order or a command; SIGNOFF ends the orders, so a note can follow it")]
    NotAnOrder(String),
    /// A standing support outside the movement phase (the phase's code).
    #[error("a standing support is ordered with the movement orders, and the game is at {0}")]
    StandingSupportOutOfPhase(String),
    /// The board refuses it: the screener's or adjudicator's reason.
    #[error(transparent)]
    Board(#[from] crate::game::turn::Illegal),
    /// A unit's order in an adjustment phase: what the phase takes instead.
    #[error("{0}")]
    Winter(String),
    /// A line stored by an older herald that no longer reads as an order on this map: not
    /// on file, and dropped when the power next orders.
    #[error("stored by an earlier herald, this line no longer reads as an order: it is not on file; order that unit again")]
    StoredUnread,
    /// A Waive in the unit choice, where every home centre gets a unit.
    #[error("in the unit choice every home centre gets a unit: choose one with 'Build A <centre>' or 'Build F <centre>'; a centre you leave unchosen gets the map's starting unit")]
    UnitChoiceWaive,
}

/// What a refused line with `,` or `;` is told: how several orders share a line (see
/// `split`).
const SEVERAL_ON_A_LINE: &str =
    "several orders on one line are separated by ',' or ';', each a whole order, e.g. 'A Par-Bur, A Mar-Spa' or 'Build A Ber, A Mun'";

/// Why a line the order parser could not read was refused: a line of prose ("Sorry, I was
/// travelling!") is said to be no order, not read as one naming an unknown province
/// (issue 25); anything else gets the parser's reason.
pub(in crate::judge) fn unread(
    map: &crate::game::map::Map,
    text: &str,
    e: crate::game::order::OrderError,
) -> Refusal {
    match prose(map, text) {
        Some(word) => Refusal::NotAnOrder(word),
        None if text.contains([',', ';']) => {
            Refusal::Unread(format!("{}; {}", e.why, SEVERAL_ON_A_LINE))
        }
        None => Refusal::Unread(e.why),
    }
}

/// Whether `text` starts as an order does (a unit type, an order word, a number, a
/// nationality or a province), so that it is a mistyped order rather than prose.
pub(in crate::judge) fn starts_as_order(map: &crate::game::map::Map, text: &str) -> bool {
    prose(map, text).is_none()
}

/// The first word of `text` as written, when the line cannot be an order: it starts with
/// no unit type, order word, number (`4 DIPS`), power's name (a nationality) or province
/// name.
fn prose(map: &crate::game::map::Map, text: &str) -> Option<String> {
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '/'))
        .filter(|w| !w.is_empty())
        .collect();
    let first = *words.first()?;
    let lower: Vec<String> = words
        .iter()
        .skip(usize::from(first.eq_ignore_ascii_case("the")))
        .take(map.longest_name_words().max(1))
        .map(|w| w.to_lowercase())
        .collect();
    let head = lower.first()?;
    const ORDER_WORDS: &[&str] = &[
        "build", "builds", "b", "remove", "removes", "disband", "disbands", "waive", "waives",
    ];
    let order_like = crate::game::ids::UnitKind::from_word(head).is_some()
        || head
            .split('/')
            .next()
            .is_some_and(|w| crate::game::ids::UnitKind::from_word(w).is_some())
        || ORDER_WORDS.contains(&head.as_str())
        || head.chars().all(|c| c.is_ascii_digit())
        || (head.chars().count() > 1 && map.power_by_word(head).is_some())
        || (1..=lower.len()).any(|n| map.lookup(&lower[..n].join(" ")).is_some());
    (!order_like).then(|| first.to_string())
}

#[cfg(test)]
mod tests {
    use super::prose;

    // A line of prose is no order; a line that starts like one keeps the parser's reason.
    #[test]
    fn prose_is_told_apart_from_a_mistyped_order() {
        let v = crate::game::variant::Variant::standard();
        let map = &v.map;
        for text in [
            "Sorry, I was travelling!",
            "Thanks all",
            "I'm away next week",
        ] {
            assert!(prose(map, text).is_some(), "{text}");
        }
        for text in [
            "A Par-Bur-",
            "Par - Xyz",
            "F St. Petersburg/sc H",
            "the North Sea convoys",
            "North Sea C A Lon - Nwy x",
            "Build X Par",
            "4 dips",
            "waive please",
            "English F Lon H",
            "a/f Mar H x",
        ] {
            assert_eq!(prose(map, text), None, "{text}");
        }
    }
}
