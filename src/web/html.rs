//! The HTML templates (`templates/web/`, built in; minijinja escapes every value for
//! HTML) and the answers made of them: content type, ETag, caching, and the headers that
//! keep a page from being framed or running scripts.

use std::future::Future;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use minijinja::Environment;
use serde::Serialize;

use super::cache::{digest, Rendered, Shelf};
use super::error::missing;
use super::{Web, WebError};

/// The templates, by file name.
const FILES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/web/base.html")),
    ("list.html", include_str!("../../templates/web/list.html")),
    ("game.html", include_str!("../../templates/web/game.html")),
    ("phase.html", include_str!("../../templates/web/phase.html")),
    ("press.html", include_str!("../../templates/web/press.html")),
    (
        "variant.html",
        include_str!("../../templates/web/variant.html"),
    ),
    (
        "signin.html",
        include_str!("../../templates/web/signin.html"),
    ),
    ("seat.html", include_str!("../../templates/web/seat.html")),
];

/// What every HTML page may load: itself, its pictures, inline styles; no scripts at all.
const POLICY: &str = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The HTML templates.
pub(super) struct Templates {
    env: Environment<'static>,
}

impl Templates {
    /// Loads the built-in templates.
    pub fn new() -> Result<Templates, WebError> {
        let mut env = Environment::new();
        env.add_filter("urlencode", urlencode);
        for (name, text) in FILES {
            env.add_template(name, text)?;
        }
        Ok(Templates { env })
    }

    /// Renders a template.
    pub fn render(&self, name: &str, ctx: impl Serialize) -> Result<String, WebError> {
        Ok(self.env.get_template(name)?.render(ctx)?)
    }
}

/// A path segment or query value percent-encoded (everything but letters, digits and
/// `-._~`).
fn urlencode(value: String) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Who may keep a copy of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Keep {
    /// Anyone, for a minute (the page is the same for every viewer).
    Public,
    /// The viewer's browser only, asking again each time (a private game's page for a
    /// member).
    Private,
    /// Anyone, for good: the address names what it shows (a played phase's board at the
    /// digest of the position drawn).
    Forever,
}

impl Keep {
    fn control(self) -> &'static str {
        match self {
            Keep::Public => "public, max-age=60",
            Keep::Private => "private, no-cache",
            Keep::Forever => "public, max-age=31536000, immutable",
        }
    }
}

/// Where an answer is kept: on a shelf of the cache, or nowhere (its ETag still answers a
/// browser that has it with 304; a feed whose links name the Host header asked for is
/// never kept, so that no invented Host reaches another reader).
pub(super) type Kept = Option<Shelf>;

/// Answers with the entry for `key`: a browser that sends the entry's ETag gets 304 before
/// anything is read; else the entry kept, else `render`'s (read and rendered only then;
/// `None` when there is nothing there: 404).
pub(super) async fn cached<F, Fut>(
    web: &Web,
    headers: &HeaderMap,
    key: &str,
    keep: Keep,
    kept: Kept,
    render: F,
) -> Response
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Option<Rendered>, WebError>>,
{
    let etag = format!("\"{}\"", digest(&[key]));
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut response = if matches {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let found = match kept.and_then(|shelf| web.cache.get(shelf, key)) {
            Some(r) => r,
            None => match render().await {
                Ok(Some(r)) => {
                    if let Some(shelf) = kept {
                        web.cache.put(shelf, key.to_string(), r.clone());
                    }
                    r
                }
                Ok(None) => return missing(),
                Err(e) => return e.into_response(),
            },
        };
        body(found, takes_gzip(headers))
    };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(keep.control()),
    );
    h.insert(
        header::VARY,
        HeaderValue::from_static("Cookie, Accept-Encoding"),
    );
    response
}

/// Whether the request takes a gzipped body (`Accept-Encoding: gzip`, not at `q=0`).
fn takes_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// A rendered entry as an answer, with its content type and safety headers, gzipped when
/// the request takes it and the entry has it.
fn body(r: Rendered, gzip: bool) -> Response {
    let (bytes, encoded) = match (&r.gzip, gzip) {
        (Some(g), true) => (g.clone(), true),
        _ => (r.body.clone(), false),
    };
    let mut response = (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(r.content_type),
        )],
        axum::body::Body::from(axum::body::Bytes::from_owner(bytes)),
    )
        .into_response();
    if encoded {
        response
            .headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    safe(response.headers_mut());
    response
}

/// The headers every answer carries: no sniffing, no framing, no scripts.
pub(super) fn safe(h: &mut HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
}

/// An HTML page rendered now, never cached (a signed-in page).
pub(super) fn fresh(html: String) -> Response {
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        html,
    )
        .into_response();
    safe(response.headers_mut());
    response
}

/// A rendered HTML page as a cache entry.
pub(super) fn entry(html: String) -> Rendered {
    Rendered::new(html.into_bytes(), "text/html; charset=utf-8")
}
