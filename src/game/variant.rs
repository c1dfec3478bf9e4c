//! Variants: a map, a calendar and a set of rules, by name.

use std::sync::OnceLock;

use super::calendar::Calendar;
use super::map::{builtin, Map, MapError, MapSource};
use super::rules::Rules;

/// A playable variant.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Its name as players write it in CREATE (`standard`).
    pub name: String,
    /// The map as it stands at the start.
    pub map: Map,
    /// The map text, for building the map after scheduled changes.
    pub source: MapSource,
    /// Seasons, phases and years.
    pub calendar: Calendar,
    /// Rule switches.
    pub rules: Rules,
}

/// A variant could not be made.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// No built-in variant of that name.
    #[error("unknown variant '{0}' (known: standard, classical, portage)")]
    Unknown(String),
    /// Its map failed to load.
    #[error("the map of variant '{name}' does not load: {}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Map {
        /// The variant.
        name: String,
        /// What is wrong with its map.
        errors: Vec<MapError>,
    },
}

impl Variant {
    /// A variant from its parts, building its initial map.
    pub fn new(
        name: &str,
        map_text: &str,
        calendar: Calendar,
        rules: Rules,
    ) -> Result<Variant, VariantError> {
        let source = MapSource::new(map_text);
        let map = source.initial().map_err(|errors| VariantError::Map {
            name: name.to_string(),
            errors,
        })?;
        Ok(Variant {
            name: name.to_string(),
            map,
            source,
            calendar,
            rules,
        })
    }

    /// Standard Diplomacy.
    pub fn standard() -> Variant {
        Variant::new(
            "standard",
            builtin::STANDARD,
            Calendar::standard(1901),
            Rules::standard(),
        )
        .expect("the built-in standard map loads")
    }

    /// Classical: the ancient Mediterranean, years B.C., builds in any owned centre while a
    /// home centre is held.
    pub fn classical() -> Variant {
        Variant::new(
            "classical",
            builtin::CLASSICAL,
            Calendar::classical(),
            Rules::classical(),
        )
        .expect("the built-in classical map loads")
    }

    /// Portage (Robert McMillan): the standard board, armies carry fleets over land.
    pub fn portage() -> Variant {
        Variant::new(
            "portage",
            builtin::STANDARD,
            Calendar::standard(1901),
            Rules::portage(),
        )
        .expect("the built-in standard map loads")
    }

    /// The names of the built-in variants.
    pub const BUILTIN: &'static [&'static str] = &["standard", "classical", "portage"];

    /// A built-in variant by name, any case; built once and shared.
    pub fn builtin(name: &str) -> Result<&'static Variant, VariantError> {
        static STANDARD: OnceLock<Variant> = OnceLock::new();
        static CLASSICAL: OnceLock<Variant> = OnceLock::new();
        static PORTAGE: OnceLock<Variant> = OnceLock::new();
        match name.to_ascii_lowercase().as_str() {
            "standard" => Ok(STANDARD.get_or_init(Variant::standard)),
            "classical" => Ok(CLASSICAL.get_or_init(Variant::classical)),
            "portage" => Ok(PORTAGE.get_or_init(Variant::portage)),
            _ => Err(VariantError::Unknown(name.to_string())),
        }
    }
}
