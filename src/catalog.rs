//! Where variants come from: the built-in ones, and map files a keeper drops into a maps
//! directory (`*.map`), so a map can be added or replaced without recompiling. A map whose
//! name is a built-in variant's replaces that variant's map and keeps its calendar and rules;
//! any other map becomes a variant of its own name with the standard calendar and rules.

use std::path::{Path, PathBuf};

use crate::game::calendar::Calendar;
use crate::game::map::MapError;
use crate::game::rules::Rules;
use crate::game::variant::{Variant, VariantError};

/// The variants a judge can play.
#[derive(Debug, Default)]
pub struct Catalog {
    extra: Vec<Variant>,
}

/// A maps directory that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// The directory or a file in it could not be read.
    #[error("reading {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A map file is wrong.
    #[error("{path}: {}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Map {
        /// The file.
        path: PathBuf,
        /// What is wrong, by line.
        errors: Vec<MapError>,
    },
}

impl Catalog {
    /// Only the built-in variants.
    pub fn builtin() -> Catalog {
        Catalog::default()
    }

    /// The built-in variants plus every `*.map` file in `dir`.
    pub fn with_maps_dir(dir: &Path) -> Result<Catalog, CatalogError> {
        let read_err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| CatalogError::Read { path, source }
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(read_err(dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "map"))
            .collect();
        files.sort();
        let mut extra = Vec::new();
        for path in files {
            let text = std::fs::read_to_string(&path).map_err(read_err(&path))?;
            let map_error = |errors| CatalogError::Map {
                path: path.clone(),
                errors,
            };
            let name = crate::game::map::parse_map(&text).map_err(map_error)?.name;
            let (calendar, rules) = match Variant::builtin(&name) {
                Ok(v) => (v.calendar.clone(), v.rules.clone()),
                Err(_) => (Calendar::standard(1901), Rules::standard()),
            };
            let variant = Variant::new(&name, &text, calendar, rules).map_err(|e| match e {
                VariantError::Map { errors, .. } => map_error(errors),
                VariantError::Season { season, .. } => {
                    map_error(vec![crate::game::map::MapError {
                        line: 0,
                        message: format!(
                            "'at {season} ...': the calendar has no season '{season}'"
                        ),
                    }])
                }
                VariantError::Unknown(_) => unreachable!("a named map builds its own variant"),
            })?;
            extra.push(variant);
        }
        Ok(Catalog { extra })
    }

    /// A variant by name, any case: a maps-directory one first, then a built-in one.
    pub fn variant(&self, name: &str) -> Result<&Variant, VariantError> {
        match self
            .extra
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(name.trim()))
        {
            Some(v) => Ok(v),
            None => Variant::builtin(name.trim()),
        }
    }
}
