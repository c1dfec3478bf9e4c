//! `/games/NAME/press`: the game's public press, the broadcasts as kept for HISTORY (each
//! as its observers read it: grey press anonymous). Partial press, interceptions and
//! anything mailed to some readers only are never here.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::cache::Shelf;
use super::error::missing;
use super::html::{cached, entry};
use super::view::visible;
use super::{Web, WebError};
use crate::judge::game::Archived;
use crate::judge::Game;

/// One broadcast.
#[derive(Serialize)]
struct Item {
    at: String,
    subject: String,
    body: String,
}

/// Whether a kept entry is a broadcast: its subject, after `JUDGE:name - ` and the phase
/// code, says "Broadcast" (results, summaries and rollbacks say otherwise; partial press a
/// herald before issue 24 kept says "Press").
pub(super) fn broadcast(game: &Game, a: &Archived) -> bool {
    let Some(rest) = a.subject.strip_prefix(&format!("JUDGE:{} - ", game.name)) else {
        return false;
    };
    let what = match rest.split_once(' ') {
        Some((first, tail)) if first != "Broadcast" => tail,
        _ => rest,
    };
    what == "Broadcast" || what.starts_with("Broadcast from ")
}

/// A kept broadcast without the mail's own header (the `:: Judge:`, `:: Deadline:` and
/// `:: Web:` lines and the blank line after them): the page says which game and when.
fn without_header(body: &str) -> String {
    let mut lines = body.lines().peekable();
    while lines.next_if(|l| l.starts_with(":: ")).is_some() {}
    while lines.next_if(|l| l.trim().is_empty()).is_some() {}
    lines.collect::<Vec<_>>().join("\n")
}

async fn page_of(web: &Web, headers: &HeaderMap, name: &str) -> Result<Response, WebError> {
    let Some(found) = visible(web, headers, name).await? else {
        return Ok(missing());
    };
    let key = format!("press|{}|{}", found.name(), found.mark());
    Ok(cached(
        web,
        headers,
        &key,
        found.keep,
        Some(Shelf::Pages),
        || async {
            let Some(game) = found.game(web).await? else {
                return Ok(None);
            };
            let game = &game;
            let items: Vec<Item> = game
                .archive
                .iter()
                .filter(|a| broadcast(game, a))
                .map(|a| Item {
                    at: crate::judge::deadline::show(a.at, game.settings.zone),
                    subject: a.subject.clone(),
                    body: without_header(&a.body),
                })
                .collect();
            let html = web.templates.render(
                "press.html",
                minijinja::context! {
                    title => format!("{} — press", game.name),
                    name => &game.name,
                    items,
                },
            )?;
            Ok(Some(entry(html)))
        },
    )
    .await)
}

/// Answers `/games/NAME/press`.
pub(super) async fn page(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    page_of(&web, &headers, &name)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}
