//! `/`: the judge's games (forming, running, finished) and its variants. A private game is
//! listed only to the seats signed in to it.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::cache::digest;
use super::html::{cached, entry, Keep};
use super::sessions::viewer;
use super::view::may_see;
use super::{Web, WebError};
use crate::judge::{self, Game};

/// One line of the list.
#[derive(Serialize)]
struct Line {
    name: String,
    variant: String,
    status: &'static str,
    phase: String,
    deadline: String,
}

/// The list of games.
pub(super) async fn page_of(web: &Web, headers: &HeaderMap) -> Result<Response, WebError> {
    let rows = web.service.store.games().await?;
    let unlisted = web.service.unlisted_rows(&rows).await?;
    let seat = viewer(web, headers);
    let mut parts: Vec<&str> = vec!["list", seat.as_ref().map_or("", |s| s.game.as_str())];
    parts.extend(rows.iter().map(|r| r.state.as_str()));
    parts.extend(unlisted.iter().map(String::as_str));
    let key = format!("list|{}", digest(&parts));
    let keep = if seat.is_some() {
        Keep::Private
    } else {
        Keep::Public
    };
    Ok(cached(web, headers, &key, keep, || {
        let mut groups: [Vec<Line>; 3] = Default::default();
        for row in &rows {
            let game: Game = serde_json::from_str(&row.state)?;
            if !may_see(&game, seat.as_ref()) || unlisted.contains(&game.name) {
                continue;
            }
            let variant = web.service.judge.variant(&game);
            let group = match game.status {
                judge::game::Status::Forming => 0,
                judge::game::Status::Finished => 2,
                _ => 1,
            };
            groups[group].push(Line {
                phase: game
                    .position
                    .as_ref()
                    .map(|p| variant.calendar.show(p.phase))
                    .unwrap_or_default(),
                deadline: game
                    .deadline
                    .map(|d| judge::deadline::show(d, game.settings.zone))
                    .unwrap_or_default(),
                name: game.name,
                variant: game.variant,
                status: game.status.word(),
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
            },
        )?;
        Ok(entry(html))
    }))
}

/// Answers `/`.
pub(super) async fn page(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    page_of(&web, &headers)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}
