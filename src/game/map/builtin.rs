//! The maps compiled into herald, so a fresh install plays without any files.

/// The standard map's source text.
pub const STANDARD: &str = include_str!("../../../maps/standard.map");

/// The Classical map's source text (Andy Schwarz and Vincent Mous).
pub const CLASSICAL: &str = include_str!("../../../maps/classical.map");

/// The Deluge II map: the standard board with Iceland, Switzerland and the floods.
pub const DELUGE: &str = include_str!("../../../maps/deluge.map");

/// Every built-in map as (name, source text).
pub const ALL: &[(&str, &str)] = &[
    ("standard", STANDARD),
    ("classical", CLASSICAL),
    ("deluge", DELUGE),
];

/// The source text of a built-in map by name (any case).
pub fn source(name: &str) -> Option<&'static str> {
    ALL.iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, text)| *text)
}
