//! `/games/NAME`: a game's board now (SVG, zoomable by opening it, PNG as fallback), its
//! phase, deadline and end of grace in the game's zone and the viewer's, which powers have
//! orders on file (never what they are), centre counts with their chart over the years,
//! and its history, one link per phase.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use super::cache::Shelf;
use super::error::missing;
use super::html::{cached, entry};
use super::view::visible;
use super::{chart, Web, WebError};
use crate::judge::{deadline, orders, Game};

/// The query a game page takes: the viewer's time zone (`?tz=Europe/Paris`).
#[derive(Debug, Default, Deserialize)]
pub(super) struct Zone {
    tz: Option<String>,
}

impl Zone {
    /// The zone asked for, if it is one.
    pub fn zone(&self) -> Option<Tz> {
        self.tz.as_deref().and_then(|z| z.trim().parse::<Tz>().ok())
    }
}

/// A time shown in the game's zone and, when asked, the viewer's.
#[derive(Serialize)]
pub(super) struct When {
    iso: String,
    game: String,
    viewer: Option<String>,
}

/// `t` as a page shows it.
pub(super) fn when(t: DateTime<Utc>, game: Tz, viewer: Option<Tz>) -> When {
    When {
        iso: t.to_rfc3339(),
        game: deadline::show(t, game),
        viewer: viewer.map(|z| deadline::show(t, z)),
    }
}

/// A power's line in the game page.
#[derive(Serialize)]
struct PowerLine {
    name: String,
    centres: Option<usize>,
    orders: Option<bool>,
}

/// The game page's context.
fn context(web: &Web, game: &Game, tz: Option<Tz>) -> minijinja::Value {
    let judge = &web.service.judge;
    let variant = judge.variant(game);
    let map = judge.map_of(game);
    let zone = game.settings.zone;
    let acting = if game.position.is_some() && game.status == crate::judge::game::Status::Running {
        orders::must_act(judge, game)
    } else {
        Vec::new()
    };
    let last = game.centre_counts.last();
    let powers: Vec<PowerLine> = map
        .powers
        .iter()
        .enumerate()
        .map(|(i, p)| PowerLine {
            name: p.name.clone(),
            centres: last.and_then(|c| c.counts.get(i).copied()),
            orders: acting
                .iter()
                .find(|a| usize::from(a.0) == i)
                .map(|a| game.orders.get(&a.0).is_some_and(|o| !o.is_empty())),
        })
        .collect();
    let history: Vec<(String, String)> = game
        .history
        .iter()
        .map(|r| {
            (
                variant.calendar.code(r.phase()),
                variant.calendar.show(r.phase()),
            )
        })
        .collect();
    minijinja::context! {
        title => format!("{} — {}", game.name, crate::picture::title_of(variant)),
        name => &game.name,
        variant => &game.variant,
        status => game.status.word(),
        phase => game.position.as_ref().map(|p| variant.calendar.show(p.phase)),
        deadline => game.deadline.map(|t| when(t, zone, tz)),
        grace => game.grace.map(|t| when(t, zone, tz)),
        zone => zone.name(),
        viewer_zone => tz.map(|z| z.name()),
        powers,
        acting => !acting.is_empty(),
        chart => chart::chart(judge, game),
        history,
        has_map => judge.catalog.map_text(variant).is_some(),
    }
}

async fn page_of(
    web: &Web,
    headers: &HeaderMap,
    name: &str,
    zone: &Zone,
) -> Result<Response, WebError> {
    let Some(found) = visible(web, headers, name).await? else {
        return Ok(missing());
    };
    let tz = zone.zone();
    let key = format!(
        "game|{}|{}|{}",
        found.name(),
        found.mark(),
        tz.map(|z| z.name()).unwrap_or("")
    );
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
            let ctx = context(web, &game, tz);
            Ok(Some(entry(web.templates.render("game.html", ctx)?)))
        },
    )
    .await)
}

/// Answers `/games/NAME`.
pub(super) async fn page(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    Query(zone): Query<Zone>,
    headers: HeaderMap,
) -> Response {
    page_of(&web, &headers, &name, &zone)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}
