//! The boards as pictures: a game's now, the board of each played phase, a variant's
//! opening; SVG and PNG drawn together once (on a blocking thread: drawing is CPU work)
//! and cached by what they show.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use serde::Deserialize;

use super::cache::{position_digest, Rendered, Shelf};
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

/// The key of game `game`'s board at the position of digest `at`.
fn board_key(game: &str, at: &str) -> String {
    format!("board|{game}|{at}")
}

impl Board {
    /// A game's board at `position`, titled with the variant, the game and the phase, and
    /// keyed by the game and the position drawn.
    fn of_game(variant: &crate::game::variant::Variant, game: &str, position: Position) -> Board {
        Board {
            title: format!(
                "{} — {}: {}",
                crate::picture::title_of(variant),
                game,
                variant.calendar.show(position.phase)
            ),
            variant: variant.name.clone(),
            key: board_key(game, &position_digest(&position)),
            position,
        }
    }
}

/// The cache key of a board's SVG or PNG.
fn picture_key(board: &str, kind: Kind) -> String {
    format!("{board}|{}", if kind == Kind::Svg { "svg" } else { "png" })
}

/// Draws a board (on a blocking thread) and keeps both its pictures on the boards' shelf;
/// the one asked for, or none when the variant has no map or drawing failed.
async fn draw(web: &Arc<Web>, board: Board, kind: Kind) -> Option<Rendered> {
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
        return None;
    };
    let svg = Rendered::new(picture.svg.into_bytes(), "image/svg+xml");
    let png = Rendered::new(picture.png, "image/png");
    web.cache.put(
        Shelf::Boards,
        picture_key(&board.key, Kind::Svg),
        svg.clone(),
    );
    web.cache.put(
        Shelf::Boards,
        picture_key(&board.key, Kind::Png),
        png.clone(),
    );
    Some(if kind == Kind::Svg { svg } else { png })
}

/// Answers with one of a board's two pictures, drawn only when not kept; `board` is read
/// (the game decoded) only then.
async fn answer<F, Fut>(
    web: &Arc<Web>,
    headers: &HeaderMap,
    key: &str,
    kind: Kind,
    keep: Keep,
    board: F,
) -> Response
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<Option<Board>, WebError>>,
{
    let key = picture_key(key, kind);
    cached(web, headers, &key, keep, Some(Shelf::Boards), || async {
        match board().await? {
            Some(b) => Ok(draw(web, b, kind).await),
            None => Ok(None),
        }
    })
    .await
}

/// A game's board now: found by the game's stored version (which names the position it
/// was drawn at, kept beside), so a board asked again decodes nothing.
async fn game_board(
    web: Arc<Web>,
    headers: HeaderMap,
    name: String,
    kind: Kind,
) -> Result<Response, WebError> {
    let Some(found) = visible(&web, &headers, &name).await? else {
        return Ok(missing());
    };
    let now_key = format!("now|{}|{}", found.name(), found.mark());
    let (key, game) = match web.cache.alias(&now_key) {
        Some(key) => (key, None),
        None => {
            let Some(game) = found.game(&web).await? else {
                return Ok(missing());
            };
            let variant = web.service.judge.variant(&game);
            let position = game.position.clone().unwrap_or_else(|| variant.opening());
            let key = board_key(found.name(), &position_digest(&position));
            web.cache.set_alias(&now_key, &key);
            (key, Some(game))
        }
    };
    Ok(answer(&web, &headers, &key, kind, found.keep, || async {
        let Some(game) = found.game_or(&web, game).await? else {
            return Ok(None);
        };
        let variant = web.service.judge.variant(&game);
        let position = game.position.clone().unwrap_or_else(|| variant.opening());
        Ok(Some(Board::of_game(variant, &game.name, position)))
    })
    .await)
}

/// The query a played phase's board takes: the digest of the position it shows, as the
/// phase's page links it.
#[derive(Debug, Default, Deserialize)]
pub(super) struct At {
    at: Option<String>,
}

impl At {
    /// The digest asked for, if it is one.
    fn digest(&self) -> Option<&str> {
        self.at
            .as_deref()
            .filter(|a| a.len() == 24 && a.bytes().all(|b| b.is_ascii_hexdigit()))
    }
}

/// A played phase's board. Asked for at the digest its page links (`?at=`), it is found
/// without reading the game and may be kept for good: that address can show nothing else.
async fn phase_board(
    web: Arc<Web>,
    headers: HeaderMap,
    name: String,
    code: String,
    at: At,
    kind: Kind,
) -> Result<Response, WebError> {
    let Some(found) = visible(&web, &headers, &name).await? else {
        return Ok(missing());
    };
    let forever = |keep: Keep| {
        if keep == Keep::Public {
            Keep::Forever
        } else {
            keep
        }
    };
    if let Some(at) = at.digest() {
        let key = board_key(found.name(), at);
        if web
            .cache
            .get(Shelf::Boards, &picture_key(&key, kind))
            .is_some()
        {
            return Ok(
                answer(&web, &headers, &key, kind, forever(found.keep), || async {
                    Ok(None)
                })
                .await,
            );
        }
    }
    let Some(game) = found.game(&web).await? else {
        return Ok(missing());
    };
    let Some((_, record)) = played(&web, &game, &code) else {
        return Ok(missing());
    };
    let variant = web.service.judge.variant(&game);
    let board = Board::of_game(variant, &game.name, record.before.clone());
    let keep = if at.digest() == Some(position_digest(&record.before).as_str()) {
        forever(found.keep)
    } else {
        found.keep
    };
    let key = board.key.clone();
    Ok(answer(&web, &headers, &key, kind, keep, || async {
        Ok(Some(board))
    })
    .await)
}

async fn variant_board(web: Arc<Web>, headers: HeaderMap, name: String, kind: Kind) -> Response {
    let Ok(variant) = web.service.judge.catalog.variant(&name) else {
        return missing();
    };
    let position = variant.opening();
    let key = format!("opening|{}", variant.name);
    let board = Board {
        title: format!(
            "{} — the opening, {}",
            crate::picture::title_of(variant),
            variant.calendar.show(position.phase)
        ),
        variant: variant.name.clone(),
        key: key.clone(),
        position,
    };
    answer(&web, &headers, &key, kind, Keep::Public, || async {
        Ok(Some(board))
    })
    .await
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
    Query(at): Query<At>,
    headers: HeaderMap,
) -> Response {
    either(phase_board(web, headers, name, code, at, Kind::Svg).await)
}

/// `/games/NAME/phases/CODE/map.png`.
pub(super) async fn phase_png(
    State(web): State<Arc<Web>>,
    Path((name, code)): Path<(String, String)>,
    Query(at): Query<At>,
    headers: HeaderMap,
) -> Response {
    either(phase_board(web, headers, name, code, at, Kind::Png).await)
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
