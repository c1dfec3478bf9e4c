//! `/`: the judge's games (forming, running, finished) and its variants, a page of
//! [`PAGE`] games at a time in name order (`/?page=N`), read from the games' summaries
//! (issue 38): no game's state is read. A private game is listed only to the seats signed
//! in to it, and a game whose Master never confirmed the address not at all (but the
//! keeper's).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::cache::Shelf;
use super::html::{cached, entry, Keep};
use super::sessions::viewer;
use super::{Web, WebError};

/// Games on a page of the list.
pub const PAGE: i64 = 50;

/// The last page asked for that is read as a number (a larger one is page 1).
const LAST_PAGE: i64 = 1_000_000;

/// One line of the list.
#[derive(Serialize)]
struct Line {
    name: String,
    variant: String,
    status: String,
    phase: String,
    deadline: String,
}

/// The page `?page=N` asks for: 1 unless N is a number from 1 to [`LAST_PAGE`].
fn page_number(query: Option<&str>) -> i64 {
    query
        .unwrap_or("")
        .split('&')
        .find_map(|pair| pair.strip_prefix("page="))
        .and_then(|n| n.parse::<i64>().ok())
        .filter(|n| (1..=LAST_PAGE).contains(n))
        .unwrap_or(1)
}

/// The list of games, page `query` names.
pub(super) async fn page_of(
    web: &Web,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<Response, WebError> {
    let page = page_number(query);
    let seat = viewer(web, headers);
    let store = &web.service.store;
    let mark = store.list_mark().await?;
    let key = format!(
        "list|{}|{page}|{}|{}",
        seat.as_ref().map_or("", |s| s.game.as_str()),
        mark.version,
        mark.changes
    );
    let keep = if seat.is_some() {
        Keep::Private
    } else {
        Keep::Public
    };
    Ok(
        cached(web, headers, &key, keep, Some(Shelf::Pages), || async {
            let mut rows = store
                .web_page(
                    seat.as_ref().map(|s| s.game.as_str()),
                    &web.service.judge.keeper,
                    (page - 1) * PAGE,
                    PAGE + 1,
                )
                .await?;
            let more = rows.len() as i64 > PAGE;
            rows.truncate(PAGE as usize);
            let mut groups: [Vec<Line>; 3] = Default::default();
            for row in rows {
                let group = match row.status.as_str() {
                    "forming" => 0,
                    "finished" => 2,
                    _ => 1,
                };
                groups[group].push(Line {
                    phase: row.summary.phase_shown.unwrap_or_default(),
                    deadline: row.summary.deadline_shown.unwrap_or_default(),
                    name: row.name,
                    variant: row.summary.variant,
                    status: row.status,
                });
            }
            let [forming, running, finished] = groups;
            let html = web.templates.render(
                "list.html",
                minijinja::context! {
                    title => format!("{}: games", web.service.judge.name),
                    judge => &web.service.judge.name,
                    forming, running, finished,
                    variants => web.service.judge.catalog.names(),
                    seat => seat.as_ref().map(|s| &s.game),
                    prev => (page > 1).then_some(page - 1),
                    next => more.then_some(page + 1),
                },
            )?;
            Ok(Some(entry(html)))
        })
        .await,
    )
}

/// Answers `/`.
pub(super) async fn page(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    page_of(&web, &headers, query.as_deref())
        .await
        .unwrap_or_else(IntoResponse::into_response)
}
