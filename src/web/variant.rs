//! `/variants/NAME`: a variant's rules as the judge describes them (the lines of `GET
//! INFO`'s map description), its powers, and its opening map.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::cache::Shelf;
use super::error::missing;
use super::html::{cached, entry, Keep};
use super::{Web, WebError};
use crate::judge::mapinfo;

async fn page_of(web: &Web, headers: &HeaderMap, name: &str) -> Result<Response, WebError> {
    let judge = &web.service.judge;
    let Ok(variant) = judge.catalog.variant(name) else {
        return Ok(missing());
    };
    let key = format!("variant|{}", variant.name);
    Ok(cached(web, headers, &key, Keep::Public, Some(Shelf::Pages), || async {
        let opening = variant.opening();
        let html = web.templates.render(
            "variant.html",
            minijinja::context! {
                title => crate::picture::title_of(variant),
                name => &variant.name,
                lines => mapinfo::describe(variant, &variant.map),
                powers => variant.map.powers.iter().map(|p| (p.letter.to_string(), p.name.clone())).collect::<Vec<_>>(),
                opening => variant.calendar.show(opening.phase),
                has_map => judge.catalog.map_text(variant).is_some(),
            },
        )?;
        Ok(Some(entry(html)))
    })
    .await)
}

/// Answers `/variants/NAME`.
pub(super) async fn page(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    page_of(&web, &headers, &name)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}
