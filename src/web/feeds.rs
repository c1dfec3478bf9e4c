//! `/games/NAME/feed.atom`, `/games/NAME/deadlines.ics` and `/games/NAME/export.json`: a
//! game's results as an Atom feed, its deadlines as an iCalendar feed and the game as JSON
//! (`herald-game/1`, docs/export.md), as the judge's export writes them (issue 28, point 3).
//! A private game's feeds answer only a seat signed in to it, like its pages; none holds an
//! address, a password, press or the orders of a phase not yet processed.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};

use super::cache::{Rendered, Shelf};
use super::error::missing;
use super::html::cached;
use super::view::visible;
use super::{Web, WebError};
use crate::judge::export;

/// Which feed.
#[derive(Clone, Copy)]
enum Feed {
    Atom,
    Ics,
    Json,
}

impl Feed {
    fn word(self) -> &'static str {
        match self {
            Feed::Atom => "atom",
            Feed::Ics => "ics",
            Feed::Json => "json",
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Feed::Atom => "application/atom+xml; charset=utf-8",
            Feed::Ics => "text/calendar; charset=utf-8",
            Feed::Json => "application/json",
        }
    }
}

/// Where the pages are: the configured base URL (`Some`), else the host the request named
/// (`None`, with it).
fn base_url(web: &Web, headers: &HeaderMap) -> (String, bool) {
    if let Some(base) = web
        .service
        .config
        .web
        .as_ref()
        .map(|w| w.base_url.trim())
        .filter(|b| !b.is_empty())
    {
        return (base.to_string(), true);
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        })
        .unwrap_or("localhost");
    (format!("http://{host}"), false)
}

async fn feed_of(
    web: &Web,
    headers: &HeaderMap,
    name: &str,
    feed: Feed,
) -> Result<Response, WebError> {
    let Some(found) = visible(web, headers, name).await? else {
        return Ok(missing());
    };
    // A feed whose links name the request's Host is never kept: no invented Host header
    // reaches another reader, nor fills the cache (its ETag still answers with 304).
    let (base, configured) = base_url(web, headers);
    let key = format!("{}|{}|{}|{base}", feed.word(), found.name(), found.mark());
    let kept = configured.then_some(Shelf::Pages);
    let judge = &web.service.judge;
    Ok(cached(web, headers, &key, found.keep, kept, || async {
        let Some(game) = found.game(web).await? else {
            return Ok(None);
        };
        let text = match feed {
            Feed::Atom => export::atom(judge, &game, &base),
            Feed::Ics => export::ics(judge, &game, web.now()),
            Feed::Json => serde_json::to_string_pretty(&export::export_json(judge, &game))?,
        };
        Ok(Some(Rendered::new(text.into_bytes(), feed.content_type())))
    })
    .await)
}

async fn answer(web: Arc<Web>, headers: HeaderMap, name: String, feed: Feed) -> Response {
    feed_of(&web, &headers, &name, feed)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

/// Answers `/games/NAME/feed.atom`.
pub(super) async fn atom(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    answer(web, headers, name, Feed::Atom).await
}

/// Answers `/games/NAME/deadlines.ics`.
pub(super) async fn ics(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    answer(web, headers, name, Feed::Ics).await
}

/// Answers `/games/NAME/export.json`.
pub(super) async fn json(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    answer(web, headers, name, Feed::Json).await
}
