//! `/games/NAME/phases/CODE`: one played phase, with the board its orders were given on,
//! and its orders and results as mailed. Only processed phases have a page: "no orders
//! before their phase is processed" (issue 28).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::cache::Shelf;
use super::error::missing;
use super::html::{cached, entry};
use super::view::visible;
use super::{Web, WebError};
use crate::judge::game::PhaseRecord;
use crate::judge::Game;

/// The record of phase `code` of `game`, with its index, if that phase was played.
pub(super) fn played<'g>(
    web: &Web,
    game: &'g Game,
    code: &str,
) -> Option<(usize, &'g PhaseRecord)> {
    if code.len() > 16 {
        return None;
    }
    let calendar = &web.service.judge.variant(game).calendar;
    let phase = calendar.parse(code).ok()?;
    game.history
        .iter()
        .enumerate()
        .find(|(_, r)| r.phase() == phase)
}

async fn page_of(
    web: &Web,
    headers: &HeaderMap,
    name: &str,
    code: &str,
) -> Result<Response, WebError> {
    let Some(found) = visible(web, headers, name).await? else {
        return Ok(missing());
    };
    if code.len() > 16 {
        return Ok(missing());
    }
    // Keyed by what the page shows, so that it is rendered once per phase (only a ROLLBACK
    // changes it); what that is at the game's stored version is kept beside, so the page
    // asked again is found without reading the game.
    let at = format!("phase|{}|{code}|{}", found.name(), found.mark());
    let (key, game) = match web.cache.alias(&at) {
        Some(key) => (key, None),
        None => {
            let Some(game) = found.game(web).await? else {
                return Ok(missing());
            };
            let Some((_, record)) = played(web, &game, code) else {
                return Ok(missing());
            };
            let shows = super::cache::digest(&[&record.results, &game.history.len().to_string()]);
            let key = format!("phase|{}|{code}|{shows}", found.name());
            web.cache.set_alias(&at, &key);
            (key, Some(game))
        }
    };
    Ok(cached(web, headers, &key, found.keep, Some(Shelf::Pages), || async {
        let Some(game) = found.game_or(web, game).await? else {
            return Ok(None);
        };
        let Some((i, record)) = played(web, &game, code) else {
            return Ok(None);
        };
        let calendar = &web.service.judge.variant(&game).calendar;
        let code = calendar.code(record.phase());
        let link = |k: usize| game.history.get(k).map(|r| calendar.code(r.phase()));
        let html = web.templates.render(
            "phase.html",
            minijinja::context! {
                title => format!("{} — {}", game.name, calendar.show(record.phase())),
                name => &game.name,
                code => &code,
                shown => calendar.show(record.phase()),
                results => &record.results,
                previous => i.checked_sub(1).and_then(link),
                next => link(i + 1),
                board => super::cache::position_digest(&record.before),
                has_map => web.service.judge.catalog.map_text(web.service.judge.variant(&game)).is_some(),
            },
        )?;
        Ok(Some(entry(html)))
    })
    .await)
}

/// Answers `/games/NAME/phases/CODE`.
pub(super) async fn page(
    State(web): State<Arc<Web>>,
    Path((name, code)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    page_of(&web, &headers, &name, &code)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}
