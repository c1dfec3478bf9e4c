//! What goes wrong serving a page, and how it is answered: a page that is not there (or not
//! for this viewer: the same answer, so a stranger cannot tell a private game from none),
//! and a fault, logged and answered without detail.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::service::ServiceError;
use crate::store::StoreError;

/// A page could not be made.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// The service failed.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game could not be read.
    #[error("reading a stored game: {0}")]
    Decode(#[from] serde_json::Error),
    /// A template failed.
    #[error("a web template: {0}")]
    Template(#[from] minijinja::Error),
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        tracing::error!(error = %self, "a web page failed");
        plain(
            StatusCode::INTERNAL_SERVER_ERROR,
            "herald could not make this page; the keeper has it in the log.\n",
        )
    }
}

/// A short plain-text answer.
pub(super) fn plain(status: StatusCode, text: &'static str) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}

/// No such page, or none for this viewer.
pub(super) async fn not_found() -> Response {
    missing()
}

/// The answer for a page that is not there (or not for this viewer).
pub(super) fn missing() -> Response {
    plain(StatusCode::NOT_FOUND, "No such page.\n")
}
