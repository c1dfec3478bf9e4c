//! The boards as pictures: a game's now, the board of each played phase, a variant's
//! opening; SVG and PNG drawn together once (on a blocking thread: drawing is CPU work)
//! and cached by what they show.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::cache::Rendered;
use super::error::missing;
use super::html::{cached, Keep};
use super::phase::played;
use super::view::visible;
use super::{Web, WebError};
use crate::game::position::Position;

/// SVG or PNG.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Svg,
    Png,
}

/// What to draw: the variant, the board and its title, under a cache key.
struct Board {
    variant: String,
    position: Position,
    title: String,
    key: String,
}

impl Board {
    /// A game's board at `position`, titled with the variant, the game and the phase, and
    /// keyed by the game and the position drawn.
    fn of_game(
        variant: &crate::game::variant::Variant,
        game: &str,
        position: Position,
    ) -> Result<Board, WebError> {
        Ok(Board {
            title: format!(
                "{} — {}: {}",
                crate::picture::title_of(variant),
                game,
                variant.calendar.show(position.phase)
            ),
            variant: variant.name.clone(),
            key: format!(
                "board|{game}|{}",
                super::cache::digest(&[&serde_json::to_string(&position)?])
            ),
            position,
        })
    }
}

/// Draws (or finds drawn) a board and answers with one of its two pictures.
async fn answer(
    web: Arc<Web>,
    headers: &HeaderMap,
    board: Board,
    kind: Kind,
    keep: Keep,
) -> Response {
    let key = |k: Kind| {
        format!(
            "{}|{}",
            board.key,
            if k == Kind::Svg { "svg" } else { "png" }
        )
    };
    let (svg_key, png_key) = (key(Kind::Svg), key(Kind::Png));
    let wanted = if kind == Kind::Svg {
        &svg_key
    } else {
        &png_key
    };
    if web.cache.get(wanted).is_none() {
        let drawer = web.clone();
        let (variant, position, title) = (board.variant, board.position, board.title);
        let drawn = tokio::task::spawn_blocking(move || {
            let judge = &drawer.service.judge;
            let variant = judge.catalog.variant(&variant).ok()?;
            let text = judge.catalog.map_text(variant)?;
            judge
                .painter
                .paint(variant, text, &position, &title, &[])
                .inspect_err(|e| tracing::warn!(error = %e, "no picture of the board"))
                .ok()
        })
        .await;
        let Ok(Some(picture)) = drawn else {
            return missing();
        };
        web.cache.put(
            svg_key.clone(),
            Rendered {
                body: picture.svg.into_bytes().into(),
                content_type: "image/svg+xml",
            },
        );
        web.cache.put(
            png_key.clone(),
            Rendered {
                body: picture.png.into(),
                content_type: "image/png",
            },
        );
    }
    cached(&web, headers, wanted, keep, || {
        Err(WebError::Template(minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            "a drawn board left the cache at once",
        )))
    })
}

async fn game_board(
    web: Arc<Web>,
    headers: HeaderMap,
    name: String,
    kind: Kind,
) -> Result<Response, WebError> {
    let Some((stored, keep)) = visible(&web, &headers, &name).await? else {
        return Ok(missing());
    };
    let game = stored.game;
    let variant = web.service.judge.variant(&game);
    let position = game.position.clone().unwrap_or_else(|| variant.opening());
    let board = Board::of_game(variant, &game.name, position)?;
    Ok(answer(web, &headers, board, kind, keep).await)
}

async fn phase_board(
    web: Arc<Web>,
    headers: HeaderMap,
    name: String,
    code: String,
    kind: Kind,
) -> Result<Response, WebError> {
    let Some((stored, keep)) = visible(&web, &headers, &name).await? else {
        return Ok(missing());
    };
    let game = stored.game;
    let Some((_, record)) = played(&web, &game, &code) else {
        return Ok(missing());
    };
    let variant = web.service.judge.variant(&game);
    let position = record.before.clone();
    let board = Board::of_game(variant, &game.name, position)?;
    Ok(answer(web, &headers, board, kind, keep).await)
}

async fn variant_board(web: Arc<Web>, headers: HeaderMap, name: String, kind: Kind) -> Response {
    let Ok(variant) = web.service.judge.catalog.variant(&name) else {
        return missing();
    };
    let position = variant.opening();
    let board = Board {
        title: format!(
            "{} — the opening, {}",
            crate::picture::title_of(variant),
            variant.calendar.show(position.phase)
        ),
        variant: variant.name.clone(),
        key: format!("opening|{}", variant.name),
        position,
    };
    answer(web.clone(), &headers, board, kind, Keep::Public).await
}

fn either(r: Result<Response, WebError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

/// `/games/NAME/map.svg`.
pub(super) async fn game_svg(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    either(game_board(web, headers, name, Kind::Svg).await)
}

/// `/games/NAME/map.png`.
pub(super) async fn game_png(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    either(game_board(web, headers, name, Kind::Png).await)
}

/// `/games/NAME/phases/CODE/map.svg`.
pub(super) async fn phase_svg(
    State(web): State<Arc<Web>>,
    Path((name, code)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    either(phase_board(web, headers, name, code, Kind::Svg).await)
}

/// `/games/NAME/phases/CODE/map.png`.
pub(super) async fn phase_png(
    State(web): State<Arc<Web>>,
    Path((name, code)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    either(phase_board(web, headers, name, code, Kind::Png).await)
}

/// `/variants/NAME/map.svg`.
pub(super) async fn variant_svg(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    variant_board(web, headers, name, Kind::Svg).await
}

/// `/variants/NAME/map.png`.
pub(super) async fn variant_png(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    variant_board(web, headers, name, Kind::Png).await
}
