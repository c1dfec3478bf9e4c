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
//! - [`marks`]: what the orders of a phase put on the board; `overlay` draws them.
//! - [`png`]: SVG to PNG through resvg, and the palette PNG encoding.
//! - [`painter`]: pictures drawn over each map's background, kept once rasterised.
//! - [`region`]: a crowded map's regions: an overview and one picture per region, each
//!   readable at a mail client's 1,000 px.

pub mod borders;
pub mod carve;
pub mod colour;
pub mod floods;
pub mod glyphs;
pub mod layout;
pub mod links;
pub mod marks;
mod overlay;
pub mod painter;
pub mod palette;
pub mod png;
pub mod region;
pub mod routes;
pub mod shaped;
pub mod shapes;
pub mod style;
pub mod svg;

use crate::cases::Case;
use crate::catalog::Catalog;
use crate::game::map::builtin;
use crate::game::position::Position;
use crate::game::variant::Variant;

pub use layout::{DrawError, Layout};
pub use painter::{Painter, Part, Picture};

/// The picture of a variant's board at a position, on the map as it stands at the
/// position's phase (Deluge's floods), laid out by the `draw` lines of `map_text`.
pub fn draw(
    variant: &Variant,
    map_text: &str,
    position: &Position,
) -> Result<String, Vec<DrawError>> {
    let map = variant.map_at(position.phase);
    if let Some(shapes) = shapes_of(map) {
        let layout = shapes.layout();
        let title = format!("{} — {}", map.title, variant.calendar.show(position.phase));
        let mut s = shaped::background(map, &shapes, &layout);
        s.push_str(&shaped::overlay(
            map,
            &shapes,
            &layout,
            &title,
            position,
            &floods::next_floods(variant, position.phase),
        ));
        s.push_str("</svg>\n");
        return Ok(s);
    }
    let layout = Layout::read(map_text, map)?;
    Ok(svg::board(map, &layout, &variant.calendar, position))
}

/// The shapes a map is drawn from: the built-in ones of a map of its name, when they fit
/// it (every space has its shape); `None` draws the schematic board.
pub fn shapes_of(map: &crate::game::map::Map) -> Option<shapes::Shapes> {
    shapes::Shapes::read(shapes::builtin(&map.name)?, map).ok()
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
    /// The case could not be played.
    #[error("the case: {0}")]
    Case(String),
    /// The PNG could not be made.
    #[error(transparent)]
    Png(#[from] png::PngError),
    /// The shapes could not be carved.
    #[error(transparent)]
    Carve(#[from] carve::CarveError),
}

/// The variant a map file's text is played as: the built-in variant on a map of that name
/// (its calendar and rules: Deluge's Winter 1900), else a plain one with the standard ones.
fn variant_of_map_text(text: &str) -> Result<Variant, PictureError> {
    let map = crate::game::map::parse::parse_map(text).map_err(PictureError::Map)?;
    Ok(
        match Variant::builtins().find(|v| v.map.name.eq_ignore_ascii_case(&map.name)) {
            Some(v) => Variant::new(&v.name, text, v.calendar.clone(), v.rules.clone())?,
            None => Variant::from_file(crate::game::variant::VariantFile::plain(&map.name), text)?,
        },
    )
}

/// What is wrong with a map file's drawing (`herald map check`): the `draw` lines' own
/// errors, then for the map as a game begins and after each scheduled change, boxes that
/// overlap, coast marks on other boxes and lines under boxes, and where the map has shapes
/// (`shapes`, else the built-in ones of a map of that name) borders that differ from its
/// adjacency. Empty when the map does not load (the map's own errors come first) or its
/// drawing is sound.
pub fn check_drawing(text: &str, shapes: Option<&str>) -> Vec<String> {
    let Ok(variant) = variant_of_map_text(text) else {
        return Vec::new();
    };
    let maps: Vec<(String, &crate::game::map::Map)> =
        std::iter::once(("".to_string(), &variant.map))
            .chain(variant.schedule.iter().map(|((year, season), m)| {
                let name = variant
                    .calendar
                    .seasons
                    .get(*season as usize)
                    .map_or("", |s| s.name.as_str());
                (format!("after {name} {year}: "), m)
            }))
            .collect();
    let mut out = Vec::new();
    // "Deluge's floods and new land re-colour spaces per year from the same shapes" (issue
    // 27): the same shapes are checked against the map of every year.
    if let Some(shapes) = shapes.or_else(|| shapes::builtin(&variant.map.name)) {
        for (when, map) in &maps {
            out.extend(
                check_shapes(map, shapes)
                    .into_iter()
                    .map(|p| format!("{when}{p}")),
            );
        }
    }
    // The regions' lines name spaces of the map (`draw region`, [`region`]).
    if let Ok(layout) = Layout::read(text, &variant.map) {
        if let Err(errors) = region::read(text, &variant.map, &layout) {
            out.extend(errors.iter().map(|e| format!("drawing: {e}")));
        }
    }
    for (when, map) in maps {
        match Layout::read(text, map) {
            Ok(layout) => out.extend(
                layout
                    .problems(map)
                    .into_iter()
                    .map(|p| format!("drawing: {when}{p}")),
            ),
            Err(errors) => {
                out.extend(errors.iter().map(|e| format!("drawing: {e}")));
                break;
            }
        }
    }
    out
}

/// What is wrong with a map's shapes: a shapes text that does not fit the map, borders
/// that differ from the map's adjacency ([`borders::check`]), or a supply centre's mark
/// outside its space ([`shaped::centres_outside`]).
pub fn check_shapes(map: &crate::game::map::Map, shapes_text: &str) -> Vec<String> {
    match shapes::Shapes::read(shapes_text, map) {
        Ok(shapes) => {
            let mut out = borders::check(map, &shapes);
            out.extend(shaped::centres_outside(map, &shapes));
            out
        }
        Err(errors) => errors,
    }
}

/// `herald map shapes`: the shapes of a map file's text carved by a keeper's plan from a
/// TopoJSON land ([`carve::carve_years`]), with a fleet's place on every coast the map has
/// in any year (Deluge's floods make new coasts).
pub fn carve_map_text(
    text: &str,
    plan: &str,
    land: &str,
    made_by: &str,
) -> Result<String, PictureError> {
    let variant = variant_of_map_text(text)?;
    let later: Vec<&crate::game::map::Map> = variant.schedule.iter().map(|(_, m)| m).collect();
    Ok(carve::carve_years(
        &variant.map,
        &later,
        plan,
        land,
        made_by,
    )?)
}

/// The opening board of a map file's text as SVG (see [`variant_of_map_text`]).
pub fn opening_of_map_text(text: &str) -> Result<String, PictureError> {
    let variant = variant_of_map_text(text)?;
    draw(&variant, text, &variant.opening()).map_err(PictureError::Draw)
}

/// Every picture of a map file's opening board ([`Painter::paint_all`]: on a map with
/// regions the overview and each region), titled as [`draw`] titles it.
pub fn opening_parts_of_map_text(text: &str) -> Result<Vec<Part>, PictureError> {
    let variant = variant_of_map_text(text)?;
    let position = variant.opening();
    let map = variant.map_at(position.phase);
    let title = format!("{} — {}", map.title, variant.calendar.show(position.phase));
    Painter::new().paint_all(&variant, text, &position, &title, &[])
}

/// Every picture of a case's phase played on a map file's text (see
/// [`of_case_on_map_text`] and [`Painter::paint_all`]).
pub fn case_parts_on_map_text(text: &str, case: &Case) -> Result<Vec<Part>, PictureError> {
    let b = case_board(text, case)?;
    Painter::new().paint_all(&b.variant, text, &b.position, &b.title, &b.marks)
}

/// The opening board of a built-in variant (Portage) played on a map file's text, titled
/// with the variant's name.
pub fn opening_of_variant(text: &str, name: &str) -> Result<Picture, PictureError> {
    let builtin = Variant::builtin(name)?;
    let variant = Variant::new(
        &builtin.name,
        text,
        builtin.calendar.clone(),
        builtin.rules.clone(),
    )?;
    let opening = variant.opening();
    let title = format!(
        "{} — the opening, {}",
        title_of(&variant),
        variant.calendar.show(opening.phase)
    );
    Painter::new().paint(&variant, text, &opening, &title, &[])
}

/// How a picture names a variant: its map's title, with the variant's name when the variant
/// is not the map's own (`Portage on Standard Diplomacy`).
pub fn title_of(variant: &Variant) -> String {
    if variant.name.eq_ignore_ascii_case(&variant.map.name) {
        variant.map.title.clone()
    } else {
        let mut name = variant.name.clone();
        if let Some(first) = name.get(..1) {
            name.replace_range(..1, &first.to_ascii_uppercase());
        }
        format!("{name} on {}", variant.map.title)
    }
}

/// What the picture of a case's phase shows: the variant, the board after the phase (in
/// the phase's season), the title and the orders' marks as adjudicated.
#[derive(Clone, Debug)]
pub struct CaseBoard {
    /// The variant the case plays.
    pub variant: Variant,
    /// The board after the phase.
    pub position: Position,
    /// The picture's title.
    pub title: String,
    /// The orders as adjudicated.
    pub marks: Vec<marks::Mark>,
}

/// A case's phase played on a map file's text, ready to draw. The case's variant must be
/// the map's, or a built-in variant played on a map of the same name (Portage on the
/// standard map).
pub fn case_board(text: &str, case: &Case) -> Result<CaseBoard, PictureError> {
    let mut variant = variant_of_map_text(text)?;
    let named = case.variant.split_whitespace().next().unwrap_or("");
    // A variant played on this map (Portage on the standard map) plays its case on it.
    if let Ok(v) = Variant::builtin(named) {
        if !named.eq_ignore_ascii_case(&variant.name)
            && v.map.name.eq_ignore_ascii_case(&variant.map.name)
        {
            variant = Variant::new(&v.name, text, v.calendar.clone(), v.rules.clone())?;
        }
    }
    if !named.eq_ignore_ascii_case(&variant.name) {
        return Err(PictureError::Case(format!(
            "the case '{}' plays {named}, the map file is {}",
            case.name, variant.name
        )));
    }
    let catalog = Catalog::with_variant(variant, text);
    let fail = |f: crate::cases::CaseFailure| PictureError::Case(f.lines.join("; "));
    let prepared = crate::cases::prepare(&catalog, case).map_err(fail)?;
    let (variant, before) = (prepared.variant, &prepared.position);
    let map = variant.map_at(before.phase);
    let turn =
        crate::game::turn::play_with(variant, &prepared.rules, map, before, &prepared.orders);
    let mut marks = marks::unordered(
        marks::routed(
            marks::of_report(map, before, &turn.position, &turn.report),
            &prepared.orders,
        ),
        &marks::given(&prepared.orders),
    );
    marks.extend(floods::of_events(&turn.events));
    let mut shown = turn.position.clone();
    if shown.phase.year == before.phase.year {
        shown.phase = before.phase;
    }
    let title = format!(
        "{} — {}: results of {}",
        map.title,
        case.name,
        variant.calendar.show(before.phase)
    );
    Ok(CaseBoard {
        variant: variant.clone(),
        position: shown,
        title,
        marks,
    })
}

/// The picture of a case's phase played on a map file's text: the board after the phase,
/// with the case's orders as adjudicated. The case's variant must be the map's.
pub fn of_case_on_map_text(text: &str, case: &Case) -> Result<Picture, PictureError> {
    let b = case_board(text, case)?;
    Painter::new().paint(&b.variant, text, &b.position, &b.title, &b.marks)
}
