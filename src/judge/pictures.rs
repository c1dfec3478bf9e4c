//! Pictures of a game's board sent with its mails (issue 16): the results of each phase
//! (drawn once and shared by every copy), the opening in the start notice, the current
//! board or a variant's opening for `GET MAP`, and a player's own orders on file for those
//! who `SET MAP ON`. Each PNG is marked to be shown in the mail's body (issue 27, point 5).

use std::sync::Arc;

use super::filed::stored;
use super::game::Game;
use super::results::Played;
use super::Judge;
use crate::envelope::Attachment;
use crate::game::calendar::PhaseKind;
use crate::game::ids::PowerId;
use crate::game::position::Position;
use crate::game::screen::screen_movement;
use crate::game::variant::Variant;
use crate::picture::marks::{self, Mark};

/// The PNG's MIME type.
const PNG: &str = "image/png";
/// The SVG's MIME type.
const SVG: &str = "image/svg+xml";

/// A file name made of a game or variant name and a phase code, safe in any mail client.
fn file_name(name: &str, code: &str, ext: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!("{}-{}.{ext}", clean(name), clean(code))
}

/// Draws a board and makes its attachments: the PNG, and the SVG too when asked; on a map
/// with regions (the world) the overview's and then each region's, in order (issue 27,
/// point 5: "the world map as an overview plus regional pictures"). None (and a log line)
/// when the variant's map has no drawing or the drawing fails: the mail goes without a
/// picture rather than not at all.
fn attachments(
    judge: &Judge,
    variant: &Variant,
    position: &Position,
    title: &str,
    marks: &[Mark],
    file: (&str, &str),
    with_svg: bool,
) -> Vec<Attachment> {
    let Some(text) = judge.catalog.map_text(variant) else {
        return Vec::new();
    };
    match judge
        .painter
        .paint_all(variant, text, position, title, marks)
    {
        Ok(parts) => {
            let mut out = Vec::with_capacity(parts.len() * 2);
            for part in parts {
                let code = match &part.region {
                    None => file.1.to_string(),
                    Some(region) => format!("{}-{region}", file.1),
                };
                out.push(Attachment {
                    name: file_name(file.0, &code, "png"),
                    content_type: PNG.to_string(),
                    bytes: Arc::from(part.picture.png),
                    // Shown in the mail's body where the client can (issue 27, point 5),
                    // with the title, which names game, phase and region, as its alt text.
                    inline: Some(part.title),
                });
                if with_svg {
                    out.push(Attachment {
                        name: file_name(file.0, &code, "svg"),
                        content_type: SVG.to_string(),
                        bytes: Arc::from(part.picture.svg.into_bytes()),
                        inline: None,
                    });
                }
            }
            out
        }
        Err(error) => {
            tracing::warn!(variant = %variant.name, %error, "no picture of the board");
            Vec::new()
        }
    }
}

/// The picture of a phase just played on `before`: the board after it, with the orders as
/// adjudicated. One PNG (on a map with regions, the overview's and each region's), shared
/// by every copy of the results.
pub(super) fn results_picture(
    judge: &Judge,
    game: &Game,
    before: &Position,
    played: &Played,
) -> Vec<Attachment> {
    let variant = judge.variant(game);
    let cal = &variant.calendar;
    let code = cal.code(before.phase);
    let title = format!(
        "{} — {}: results of {}",
        crate::picture::title_of(variant),
        game.name,
        cal.show(before.phase)
    );
    // The board after the phase, at the phase's own date (its map, before a Winter's
    // floods take effect at the next, is the one the orders were given on).
    let mut shown = played.next.clone();
    if shown.phase.year == before.phase.year {
        shown.phase = before.phase;
    }
    attachments(
        judge,
        variant,
        &shown,
        &title,
        &played.marks,
        (&game.name, &code),
        false,
    )
}

/// The picture of a game's board now (or of its opening before it starts), for `GET MAP`.
pub(super) fn game_picture(judge: &Judge, game: &Game, with_svg: bool) -> Vec<Attachment> {
    let variant = judge.variant(game);
    let position = game.position.clone().unwrap_or_else(|| variant.opening());
    let cal = &variant.calendar;
    let title = format!(
        "{} — {}: {}",
        crate::picture::title_of(variant),
        game.name,
        cal.show(position.phase)
    );
    let code = cal.code(position.phase);
    attachments(
        judge,
        variant,
        &position,
        &title,
        &[],
        (&game.name, &code),
        with_svg,
    )
}

/// The picture of a variant's opening, for `GET MAP <variant>`.
pub(super) fn opening_picture(judge: &Judge, variant: &Variant, with_svg: bool) -> Vec<Attachment> {
    let position = variant.opening();
    let title = format!(
        "{} — the opening, {}",
        crate::picture::title_of(variant),
        variant.calendar.show(position.phase)
    );
    attachments(
        judge,
        variant,
        &position,
        &title,
        &[],
        (&variant.name, "opening"),
        with_svg,
    )
}

/// The marks of one power's orders on file, drawn from those orders alone (a movement
/// phase's, an adjustment phase's builds and removals; none in a retreat phase).
pub(super) fn own_marks(judge: &Judge, game: &Game, power: PowerId) -> Vec<Mark> {
    let Some(position) = game.position.as_ref() else {
        return Vec::new();
    };
    let map = judge.map_of(game);
    let own: Vec<_> = stored(judge, game, power)
        .iter()
        .map(|o| (power, o.clone()))
        .collect();
    match position.phase.kind {
        PhaseKind::Movement => {}
        // Her builds and removals as they would be made (issue 40).
        PhaseKind::Adjustment => {
            return marks::of_adjustment_orders(map, &judge.rules(game), position, power, &own)
        }
        _ => return Vec::new(),
    }
    let (ordered, _) = screen_movement(map, &judge.rules(game), position, &own);
    let ordered: Vec<_> = ordered
        .into_iter()
        .filter(|o| o.unit.power == power)
        .collect();
    // A unit given no order is drawn as such, not as the hold it defaults to (issue 27).
    marks::unordered(
        marks::routed(marks::of_orders(map, &ordered), &own),
        &marks::given(&own),
    )
}

/// The picture of one power's orders on file (see [`own_marks`]).
pub(super) fn orders_picture(judge: &Judge, game: &Game, power: PowerId) -> Vec<Attachment> {
    let variant = judge.variant(game);
    let Some(position) = game.position.as_ref() else {
        return Vec::new();
    };
    let map = judge.map_of(game);
    let marks = own_marks(judge, game, power);
    let cal = &variant.calendar;
    let name = &map.power(power).name;
    let title = format!(
        "{} — {}: {name}'s orders for {}",
        crate::picture::title_of(variant),
        game.name,
        cal.show(position.phase)
    );
    let code = format!("{}-{name}", cal.code(position.phase));
    attachments(
        judge,
        variant,
        position,
        &title,
        &marks,
        (&game.name, &code),
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testkit::{judge, mail, start, started};

    /// SET MAP draws "a picture of that player's own orders on file ... drawn only from
    /// that player's orders" (issue 16): France's moves never show on England's picture.
    #[test]
    fn a_players_picture_shows_only_that_players_orders() {
        let j = judge();
        let mut games = started(&j);
        let now = start();
        mail(
            &j,
            &mut games,
            "ann@example.org",
            "SIGNON Eg pwE\nF Lon-Nth\nA Lvp-Yor",
            now,
        );
        mail(
            &j,
            &mut games,
            "bob@example.org",
            "SIGNON Fg pwF\nA Par-Bur\nF Bre-Mao",
            now,
        );
        let g = &games["g"];
        let england = j
            .map_of(g)
            .power_ids()
            .find(|&p| j.map_of(g).power(p).name == "England")
            .unwrap();
        let marks = own_marks(&j, g, england);
        // England's three units: two moves and F Edi with no order; nothing of France's.
        assert_eq!(marks.len(), 3, "{marks:?}");
        assert!(
            marks
                .iter()
                .any(|m| matches!(m, Mark::Unordered { power, .. } if *power == england)),
            "{marks:?}"
        );
        let moves = marks
            .iter()
            .filter(|m| matches!(m, Mark::Move { power, .. } if *power == england))
            .count();
        assert_eq!(moves, 2, "{marks:?}");
        assert!(marks.iter().all(|m| match m {
            Mark::Move { power, .. }
            | Mark::Hold { power, .. }
            | Mark::Help { power, .. }
            | Mark::Unordered { power, .. } => *power == england,
            _ => false,
        }));
    }

    /// "`SET MAP` pictures of adjustment orders draw no builds" (issue 40): Italy's
    /// `BUILD A Ven` and `BUILD F Nap` on file in Winter 1901 are drawn as builds.
    #[test]
    fn a_players_picture_of_adjustment_orders_shows_her_builds() {
        let j = judge();
        let mut games = started(&j);
        let (winter, italy, ven, nap, tun) = {
            let g = &games["g"];
            let map = j.map_of(g);
            let p = |a: &str| map.province_ids().find(|&p| map.abbr(p) == a).unwrap();
            let italy = map
                .power_ids()
                .find(|&p| map.power(p).name == "Italy")
                .unwrap();
            let winter = j.variant(g).calendar.parse("Winter 1901").unwrap();
            (winter, italy, p("Ven"), p("Nap"), p("Tun"))
        };
        {
            // Italy took Tunis and moved her units out of Venice and Naples.
            let g = games.get_mut("g").unwrap();
            let pos = g.position.as_mut().unwrap();
            pos.phase = winter;
            pos.units[ven.index()] = None;
            pos.units[nap.index()] = None;
            pos.owners[tun.index()] = Some(italy);
        }
        mail(
            &j,
            &mut games,
            "dan@example.org",
            "SIGNON Ig pwI\nBUILD A Ven\nBUILD F Nap",
            start(),
        );
        let g = &games["g"];
        let marks = own_marks(&j, g, italy);
        let built: Vec<_> = marks
            .iter()
            .filter_map(|m| match m {
                Mark::Built { unit } => Some(j.map_of(g).province_of(unit.region)),
                _ => None,
            })
            .collect();
        assert_eq!(built, vec![ven, nap], "{marks:?}");
    }
}
