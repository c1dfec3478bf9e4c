//! Pictures of the board (issue 16): a schematic map drawn by herald from its own data.
//!
//! Each space is a labelled box at the place the map file's `draw` lines give it (its real
//! geographic position, projected and spread so no two boxes overlap), told apart by
//! terrain; every adjacency of the map is a link between two boxes (or a coast's mark on a
//! box's edge), so two spaces are drawn as neighbours exactly when the map says they are.
//! Units, centre owners, the phase in the variant's calendar and a legend of the powers
//! are laid on top. SVG is the source; [`png::render`] rasterises it with the shipped font.
//!
//! # Layout
//! - [`layout`]: the `draw` lines of a map file: where each space stands.
//! - [`svg`]: the board as SVG, with stable element ids.
//! - [`png`]: SVG to PNG through resvg.

pub mod layout;
pub mod png;
pub mod svg;

use crate::game::map::builtin;
use crate::game::position::Position;
use crate::game::variant::Variant;

pub use layout::{DrawError, Layout};

/// The picture of a variant's board at a position, on the map as it stands at the
/// position's phase (Deluge's floods), laid out by the `draw` lines of `map_text`.
pub fn draw(
    variant: &Variant,
    map_text: &str,
    position: &Position,
) -> Result<String, Vec<DrawError>> {
    let map = variant.map_at(position.phase);
    let layout = Layout::read(map_text, map)?;
    Ok(svg::board(map, &layout, &variant.calendar, position))
}

/// The text of a built-in variant's map, for [`draw`].
pub fn builtin_map_text(variant: &Variant) -> Option<&'static str> {
    builtin::source(&variant.map.name)
}

/// A map file could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The map itself does not load (`herald map check` says why).
    #[error("the map does not load: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Map(Vec<crate::game::map::parse::MapError>),
    /// The variant could not be made on the map.
    #[error(transparent)]
    Variant(#[from] crate::game::variant::VariantError),
    /// The map's `draw` lines are wrong or missing.
    #[error("the map's drawing: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Draw(Vec<DrawError>),
    /// The PNG could not be made.
    #[error(transparent)]
    Png(#[from] png::PngError),
}

/// The opening board of a map file's text as SVG, played under the calendar and rules of
/// the built-in variant on a map of that name (Deluge's Winter 1900), else the standard ones.
pub fn opening_of_map_text(text: &str) -> Result<String, PictureError> {
    let map = crate::game::map::parse::parse_map(text).map_err(PictureError::Map)?;
    let variant = match Variant::builtins().find(|v| v.map.name.eq_ignore_ascii_case(&map.name)) {
        Some(v) => Variant::new(&v.name, text, v.calendar.clone(), v.rules.clone())?,
        None => Variant::from_file(crate::game::variant::VariantFile::plain(&map.name), text)?,
    };
    draw(&variant, text, &variant.opening()).map_err(PictureError::Draw)
}
