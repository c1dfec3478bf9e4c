//! The web face of the judge (issue 28): the games, each game's board, history and public
//! press, the variants' rules, and a signed-in page whose one text box is handled exactly as
//! the body of a mail from the seat's address. Served by the daemon on its runtime and
//! database when `[web]` is in the configuration.
//!
//! "Nothing secret is reachable": a stranger sees what HISTORY shows anyone (results and
//! broadcasts), which powers have orders on file (never what they are), and no address; a
//! private game is not there for a stranger at all; a signed-in seat sees in addition what
//! was mailed to that seat's address about that game, and nothing of another seat.

mod cache;
mod chart;
mod client;
mod edge;
mod error;
mod feeds;
mod game_page;
mod guesses;
mod html;
mod list;
mod phase;
mod picture;
mod press;
mod said;
mod seat;
mod sessions;
mod signin;
mod submit;
mod variant;
mod view;

use std::future::Future;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use chrono::{DateTime, Utc};

use crate::service::Service;

pub use error::WebError;

/// The largest request body taken (a signed-in page's text box, the sign-in form): as much
/// as a mail herald reads in full is more than any order list; larger ones are refused.
pub const MAX_BODY: usize = 64 * 1024;

/// Where the pages take the time from: the machine's clock, or a test's.
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// The web face: the service it reads and writes through, its caches and sessions.
pub struct Web {
    /// The judge on its store.
    service: Arc<Service>,
    /// Pages and pictures rendered, by what they were rendered from.
    cache: cache::Cache,
    /// Signed-in seats.
    sessions: sessions::Sessions,
    /// The page templates.
    templates: html::Templates,
    /// The time.
    clock: Clock,
    /// Whether cookies are marked Secure (the base URL is https).
    secure: bool,
}

impl Web {
    /// The web face of `service`, on the machine's clock.
    pub fn new(service: Arc<Service>) -> Result<Web, WebError> {
        Web::with_clock(service, Arc::new(Utc::now))
    }

    /// The web face of `service` with the time taken from `clock` (tests play games at set
    /// times).
    pub fn with_clock(service: Arc<Service>, clock: Clock) -> Result<Web, WebError> {
        let secure = service.config.web.as_ref().is_some_and(|w| {
            w.base_url
                .trim()
                .to_ascii_lowercase()
                .starts_with("https://")
        });
        Ok(Web {
            service,
            cache: cache::Cache::default(),
            sessions: sessions::Sessions::default(),
            templates: html::Templates::new()?,
            clock,
            secure,
        })
    }

    fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }
}

/// Every page, at its stable URL.
pub fn router(web: Arc<Web>) -> Router {
    Router::new()
        .route("/", get(list::page))
        .route("/games/{name}", get(game_page::page))
        .route("/games/{name}/map.svg", get(picture::game_svg))
        .route("/games/{name}/map.png", get(picture::game_png))
        .route("/games/{name}/phases/{code}", get(phase::page))
        .route(
            "/games/{name}/phases/{code}/map.svg",
            get(picture::phase_svg),
        )
        .route(
            "/games/{name}/phases/{code}/map.png",
            get(picture::phase_png),
        )
        .route("/games/{name}/press", get(press::page))
        .route("/games/{name}/feed.atom", get(feeds::atom))
        .route("/games/{name}/deadlines.ics", get(feeds::ics))
        .route("/games/{name}/export.json", get(feeds::json))
        .route("/variants/{name}", get(variant::page))
        .route("/variants/{name}/map.svg", get(picture::variant_svg))
        .route("/variants/{name}/map.png", get(picture::variant_png))
        .route("/signin", get(signin::form).post(signin::submit))
        .route("/signout", post(signin::sign_out))
        .route("/seat", get(seat::page).post(submit::submit))
        .fallback(error::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(web)
}

/// Serves the pages on `listener` until `shutdown` completes, within the limits of `[web]`
/// (issue 36): a header timeout, an idle timeout, and a cap on connections kept well below
/// the process's descriptor limit (at most a quarter of it), so that however many
/// connections the web is offered, the mail workers keep descriptors of their own.
pub async fn serve(
    web: Arc<Web>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let section = web.service.config.web.clone().unwrap_or_default();
    let soft = crate::descriptors::soft_limit();
    let connections = edge_cap(section.max_connections, soft);
    let limits = edge::Limits {
        header: std::time::Duration::from_secs(section.header_timeout_seconds),
        idle: std::time::Duration::from_secs(section.idle_timeout_seconds),
        connections,
    };
    tracing::info!(
        configured = section.max_connections,
        descriptor_limit = ?soft,
        connections,
        header_timeout = ?limits.header,
        idle_timeout = ?limits.idle,
        "web connections capped"
    );
    edge::serve(router(web), listener, limits, shutdown).await
}

/// The web's cap on connections: the configured one, and at most a quarter of the soft
/// descriptor limit `soft` (when known), at least one.
fn edge_cap(configured: usize, soft: Option<u64>) -> usize {
    let quarter = soft
        .map(|s| usize::try_from(s / 4).unwrap_or(usize::MAX))
        .unwrap_or(usize::MAX);
    configured.min(quarter).max(1)
}

#[cfg(test)]
mod tests {
    use super::edge_cap;

    #[test]
    fn the_cap_stays_a_quarter_of_the_descriptors() {
        assert_eq!(edge_cap(256, Some(1024)), 256);
        assert_eq!(edge_cap(256, Some(512)), 128);
        assert_eq!(edge_cap(256, None), 256);
        assert_eq!(edge_cap(256, Some(2)), 1);
    }
}
