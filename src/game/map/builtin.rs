//! The maps compiled into herald, so a fresh install plays without any files.

/// The standard map's source text.
pub const STANDARD: &str = include_str!("../../../maps/standard.map");

/// The Classical map's source text (Andy Schwarz and Vincent Mous).
pub const CLASSICAL: &str = include_str!("../../../maps/classical.map");

/// The Deluge II map: the standard board with Iceland, Switzerland and the floods.
pub const DELUGE: &str = include_str!("../../../maps/deluge.map");

/// herald's reconstruction of the world map of 1880 (Paul Barker's variant).
pub const WORLD1880: &str = include_str!("../../../maps/world1880.map");

/// The source text of a built-in map by the name its `map` line gives (any case).
pub fn source(name: &str) -> Option<&'static str> {
    match name.to_ascii_lowercase().as_str() {
        "standard" => Some(STANDARD),
        "classical" => Some(CLASSICAL),
        "deluge" => Some(DELUGE),
        "world1880" => Some(WORLD1880),
        _ => None,
    }
}
