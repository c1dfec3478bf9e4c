//! Variants: a map, a calendar and a set of rules, by name.

use std::sync::OnceLock;

use super::calendar::{Calendar, Phase};
use super::map::{builtin, Map, MapError, MapSource};
use super::position::Position;
use super::rules::Rules;

/// Lays the rules that change geography onto a map: free oceans, oceans joined for convoys.
fn rules_into_map(rules: &Rules, map: &mut Map) {
    map.free_oceans = rules.free_oceans;
    if rules.ocean_network {
        map.join_oceans();
    }
}

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
    /// The map after each scheduled change, with the (year, season) whose end it follows,
    /// in the order they take effect.
    pub schedule: Vec<((i32, u8), Map)>,
}

/// A variant could not be made.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// No built-in variant of that name.
    #[error("unknown variant '{0}' (known: standard, classical, portage, deluge, world1880)")]
    Unknown(String),
    /// A scheduled map change names a season the calendar does not have.
    #[error("the map of variant '{name}' schedules a change for '{season}', which is not a season of its calendar")]
    Season {
        /// The variant.
        name: String,
        /// The season named.
        season: String,
    },
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
        let mut map = source.initial().map_err(|errors| VariantError::Map {
            name: name.to_string(),
            errors,
        })?;
        let mut rules = rules;
        rules_into_map(&rules, &mut map);
        if rules.victory_majority {
            rules.victory_centres = map.centres().count() / 2 + 1;
        }
        let mut when = Vec::new();
        for change in &source.changes {
            let Some(s) = calendar.season_index(&change.season) else {
                return Err(VariantError::Season {
                    name: name.to_string(),
                    season: change.season.clone(),
                });
            };
            when.push((change.year, s));
        }
        when.sort();
        when.dedup();
        let mut schedule = Vec::with_capacity(when.len());
        for &(year, season) in &when {
            let mut built = source
                .build(|c| {
                    let s = calendar.season_index(&c.season).unwrap_or(u8::MAX);
                    (c.year, s) <= (year, season)
                })
                .map_err(|errors| VariantError::Map {
                    name: name.to_string(),
                    errors,
                })?;
            rules_into_map(&rules, &mut built);
            schedule.push(((year, season), built));
        }
        Ok(Variant {
            name: name.to_string(),
            map,
            source,
            calendar,
            rules,
            schedule,
        })
    }

    /// The board a new game starts with: the map's units and home centres, or with unit
    /// choice only the home centres (the powers build their units in the opening phase).
    pub fn opening(&self) -> Position {
        let mut pos = Position::initial(&self.map, self.calendar.start);
        if self.rules.unit_choice {
            pos.units.iter_mut().for_each(|u| *u = None);
            pos.afloat.clear();
        }
        pos
    }

    /// The map as it stands at a phase: the start map with every scheduled change whose
    /// season has ended before this phase.
    pub fn map_at(&self, phase: Phase) -> &Map {
        self.schedule
            .iter()
            .rev()
            .find(|((year, season), _)| (*year, *season) < (phase.year, phase.season))
            .map_or(&self.map, |(_, m)| m)
    }

    /// The map change that takes effect when this season of this year ends, if any.
    pub fn change_after(&self, year: i32, season: u8) -> Option<&Map> {
        self.schedule
            .iter()
            .find(|(when, _)| *when == (year, season))
            .map(|(_, m)| m)
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

    /// Deluge II (Tim Sharrock, Stephen Agar): the standard board flooding year by year,
    /// from Winter 1900 to Winter 1908, with conversion and army-fleets.
    pub fn deluge() -> Variant {
        Variant::new(
            "deluge",
            builtin::DELUGE,
            Calendar::deluge(),
            Rules::deluge(),
        )
        .expect("the built-in deluge map loads")
    }

    /// The world of 1880 to 1900 (Paul Barker), on herald's reconstruction of its map.
    pub fn world1880() -> Variant {
        Variant::new(
            "world1880",
            builtin::WORLD1880,
            Calendar::world1880(),
            Rules::world1880(),
        )
        .expect("the built-in world1880 map loads")
    }

    /// The names of the built-in variants.
    pub const BUILTIN: &'static [&'static str] =
        &["standard", "classical", "portage", "deluge", "world1880"];

    /// A built-in variant by name, any case; built once and shared.
    pub fn builtin(name: &str) -> Result<&'static Variant, VariantError> {
        static STANDARD: OnceLock<Variant> = OnceLock::new();
        static CLASSICAL: OnceLock<Variant> = OnceLock::new();
        static PORTAGE: OnceLock<Variant> = OnceLock::new();
        static DELUGE: OnceLock<Variant> = OnceLock::new();
        static WORLD1880: OnceLock<Variant> = OnceLock::new();
        match name.to_ascii_lowercase().as_str() {
            "standard" => Ok(STANDARD.get_or_init(Variant::standard)),
            "classical" => Ok(CLASSICAL.get_or_init(Variant::classical)),
            "portage" => Ok(PORTAGE.get_or_init(Variant::portage)),
            "deluge" => Ok(DELUGE.get_or_init(Variant::deluge)),
            "world1880" => Ok(WORLD1880.get_or_init(Variant::world1880)),
            _ => Err(VariantError::Unknown(name.to_string())),
        }
    }
}
