//! Where variants come from: the built-in ones (`variants/*.variant.toml` on the maps in
//! `maps/`, compiled in), and the files a keeper drops into a maps directory, so a variant or a
//! map can be added or replaced without recompiling:
//!
//! - a variant file (`*.variant.toml`, `variants/FORMAT.md`) adds a variant, or replaces the
//!   variant of its name; its `map` is found among the directory's maps, then the built-in ones;
//! - a map file (`*.map`, `maps/FORMAT.md`) replaces the map of its name in every variant
//!   played on it (a `standard.map` is the board of `standard` and of `portage`), and a map
//!   that no variant is named after becomes a variant of its own name with the standard
//!   calendar and rules.
//!
//! Everything is read and checked once, when the catalog is made; a wrong file is refused
//! with its path and what is wrong.

use std::path::{Path, PathBuf};

use crate::game::map::{builtin, MapError};
use crate::game::variant::{Variant, VariantError, VariantFile, VariantFileError};

/// The variants a judge can play.
#[derive(Debug, Default)]
pub struct Catalog {
    /// The variants the maps directory adds or changes; the built-in ones are looked up after.
    extra: Vec<Variant>,
    /// The text of each `extra` variant's map file (for its pictures' `draw` lines).
    texts: Vec<String>,
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
    /// A variant file is wrong.
    #[error("{path}: {error}")]
    VariantFile {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its line.
        error: VariantFileError,
    },
    /// A variant file names a map that neither the directory nor herald has.
    #[error("{path}: unknown map '{map}' (the directory's maps: {dir}; herald's: standard, classical, deluge, world1880)")]
    UnknownMap {
        /// The variant file.
        path: PathBuf,
        /// The map it names.
        map: String,
        /// The maps the directory has, by name.
        dir: String,
    },
    /// A variant file's calendar and its map do not fit together.
    #[error("{path}: {error}")]
    Variant {
        /// The variant file.
        path: PathBuf,
        /// What does not fit.
        error: VariantError,
    },
    /// Two files of the directory declare the same map or variant.
    #[error("{path}: the {what} '{name}' is declared already by {first}")]
    Duplicate {
        /// The second file.
        path: PathBuf,
        /// `map` or `variant`.
        what: &'static str,
        /// The name declared twice.
        name: String,
        /// The first file.
        first: PathBuf,
    },
}

/// A map file of the directory, read and checked.
struct MapFile {
    name: String,
    text: String,
    path: PathBuf,
}

impl Catalog {
    /// Only the built-in variants.
    pub fn builtin() -> Catalog {
        Catalog::default()
    }

    /// The built-in variants with one more (or one replaced): a variant made from a map
    /// file's text, as `herald map draw --phase` plays a case on the file being drawn.
    pub fn with_variant(variant: Variant, map_text: &str) -> Catalog {
        Catalog {
            extra: vec![variant],
            texts: vec![map_text.to_string()],
        }
    }

    /// The built-in variants with every `*.map` and `*.variant.toml` file in `dir`.
    pub fn with_maps_dir(dir: &Path) -> Result<Catalog, CatalogError> {
        let read_err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| CatalogError::Read { path, source }
        };
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(read_err(dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        paths.sort();
        let is_variant = |p: &Path| p.to_string_lossy().ends_with(".variant.toml");
        let is_map = |p: &Path| p.extension().is_some_and(|x| x == "map");

        let mut maps: Vec<MapFile> = Vec::new();
        for path in paths.iter().filter(|p| is_map(p)) {
            let text = std::fs::read_to_string(path).map_err(read_err(path))?;
            let name = crate::game::map::parse_map(&text)
                .map_err(|errors| CatalogError::Map {
                    path: path.clone(),
                    errors,
                })?
                .name;
            if let Some(first) = maps.iter().find(|m| m.name.eq_ignore_ascii_case(&name)) {
                return Err(duplicate(path, "map", &name, &first.path));
            }
            maps.push(MapFile {
                name,
                text,
                path: path.clone(),
            });
        }

        let mut files: Vec<(VariantFile, PathBuf)> = Vec::new();
        for path in paths.iter().filter(|p| is_variant(p)) {
            let text = std::fs::read_to_string(path).map_err(read_err(path))?;
            let file = VariantFile::parse(&text).map_err(|error| CatalogError::VariantFile {
                path: path.clone(),
                error,
            })?;
            if let Some((_, first)) = files
                .iter()
                .find(|(f, _)| f.name.eq_ignore_ascii_case(&file.name))
            {
                return Err(duplicate(path, "variant", &file.name, first));
            }
            files.push((file, path.clone()));
        }

        let dir_map = |name: &str| maps.iter().find(|m| m.name.eq_ignore_ascii_case(name));
        let mut extra = Vec::new();
        let mut texts = Vec::new();
        // The keeper's variant files.
        for (file, path) in files {
            let from_dir = dir_map(&file.map);
            let text = match (from_dir, builtin::source(&file.map)) {
                (Some(m), _) => m.text.as_str(),
                (None, Some(text)) => text,
                (None, None) => {
                    return Err(CatalogError::UnknownMap {
                        path,
                        map: file.map,
                        dir: listed(maps.iter().map(|m| m.name.as_str())),
                    })
                }
            };
            let variant =
                Variant::from_file(file, text).map_err(|error| match (error, from_dir) {
                    // The directory's map fails once its scheduled changes are laid on.
                    (error @ VariantError::Map { .. }, Some(m)) => map_error(&m.path, error),
                    (error, _) => CatalogError::Variant { path, error },
                })?;
            extra.push(variant);
            texts.push(text.to_string());
        }
        // The built-in variants whose map the directory replaces, unless a file replaced them.
        for v in Variant::builtins() {
            let replaced = extra.iter().any(|e| e.name.eq_ignore_ascii_case(&v.name));
            if let (false, Some(m)) = (replaced, dir_map(&v.map.name)) {
                let variant = Variant::new(&v.name, &m.text, v.calendar.clone(), v.rules.clone())
                    .map_err(|e| map_error(&m.path, e))?;
                extra.push(variant);
                texts.push(m.text.clone());
            }
        }
        // A map no variant is named after is a variant of its own.
        for m in &maps {
            let named = extra.iter().any(|e| e.name.eq_ignore_ascii_case(&m.name))
                || Variant::builtin(&m.name).is_ok();
            if !named {
                let variant = Variant::from_file(VariantFile::plain(&m.name), &m.text)
                    .map_err(|e| map_error(&m.path, e))?;
                extra.push(variant);
                texts.push(m.text.clone());
            }
        }
        Ok(Catalog { extra, texts })
    }

    /// A variant by name, any case: a maps-directory one first, then a built-in one.
    pub fn variant(&self, name: &str) -> Result<&Variant, VariantError> {
        let name = name.trim();
        if let Some(v) = self
            .extra
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(name))
        {
            return Ok(v);
        }
        Variant::builtin(name).map_err(|_| VariantError::Unknown {
            name: name.to_string(),
            known: self.names().join(", "),
        })
    }

    /// The text of a variant's map file (the maps directory's, else the built-in one), which
    /// holds the `draw` lines of its pictures.
    pub fn map_text(&self, variant: &Variant) -> Option<&str> {
        match self.extra.iter().position(|v| std::ptr::eq(v, variant)) {
            Some(i) => self.texts.get(i).map(String::as_str),
            None => crate::game::map::builtin::source(&variant.map.name),
        }
    }

    /// A variant by its name or the beginning of its name, any case (`GET MAP del`): the
    /// variant of that name, else the one whose name begins so. Games are created with the
    /// whole name ([`Catalog::variant`]).
    pub fn variant_or_abbreviation(&self, name: &str) -> Result<&Variant, VariantError> {
        let exact = self.variant(name);
        if exact.is_ok() {
            return exact;
        }
        let word = name.trim().to_ascii_lowercase();
        let names = self.names();
        let begun: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !word.is_empty() && n.to_ascii_lowercase().starts_with(&word))
            .collect();
        match begun[..] {
            [one] => self.variant(one),
            [] => exact,
            _ => Err(VariantError::Unknown {
                name: name.trim().to_string(),
                known: begun.join(", "),
            }),
        }
    }

    /// The names of every variant it has: the built-in ones, then the maps directory's own.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Variant::builtin_names().collect();
        for v in &self.extra {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(&v.name)) {
                names.push(&v.name);
            }
        }
        names
    }
}

/// The error for a file that declares a name a file before it declared.
fn duplicate(path: &Path, what: &'static str, name: &str, first: &Path) -> CatalogError {
    CatalogError::Duplicate {
        path: path.to_path_buf(),
        what,
        name: name.to_string(),
        first: first.to_path_buf(),
    }
}

/// A map file's problem in building a variant on it, as the map's error with its line.
fn map_error(path: &Path, error: VariantError) -> CatalogError {
    let errors = match error {
        VariantError::Map { errors, .. } => errors,
        VariantError::Season { season, line, .. } => vec![MapError {
            line,
            message: format!("'at {season} ...': the calendar has no season '{season}'"),
        }],
        other => vec![MapError {
            line: 0,
            message: other.to_string(),
        }],
    };
    CatalogError::Map {
        path: path.to_path_buf(),
        errors,
    }
}

/// Names for a message: `a, b`, or `none`.
fn listed<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.collect();
    if all.is_empty() {
        "none".to_string()
    } else {
        all.join(", ")
    }
}
