//! Signed-in seats: a random session id in a cookie (HttpOnly, SameSite=Strict, Secure
//! when the base URL is https), the seat it signed in as kept in memory with its CSRF
//! token; a bounded number of sessions, each for at most [`HOURS`] hours. A restart signs
//! everyone out.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::http::{header, HeaderMap};
use chrono::{DateTime, Duration, Utc};
use rand_core::{OsRng, RngCore};

use super::Web;

/// How long a sign-in lasts.
pub(super) const HOURS: i64 = 12;
/// Sessions kept at most; the oldest go first when full.
const MOST: usize = 10_000;
/// The session cookie's name.
pub(super) const SESSION: &str = "herald_session";
/// The cookie holding the sign-in form's CSRF token.
pub(super) const FORM: &str = "herald_form";

/// A seat signed in on the web.
#[derive(Clone, Debug)]
pub(super) struct Seat {
    /// The game's name.
    pub game: String,
    /// The power's letter, or `M` for the Master.
    pub letter: char,
    /// The password it signed in with, put on the SIGNON line of each mail it gives.
    pub password: String,
    /// The token every form of the session carries.
    pub csrf: String,
    /// When the session ends.
    pub until: DateTime<Utc>,
}

/// The sessions by id.
#[derive(Default)]
pub(super) struct Sessions {
    map: Mutex<HashMap<String, Seat>>,
}

impl Sessions {
    /// Opens a session for `seat`; returns its id.
    pub fn open(&self, seat: Seat, now: DateTime<Utc>) -> String {
        let id = token();
        if let Ok(mut map) = self.map.lock() {
            map.retain(|_, s| s.until > now);
            if map.len() >= MOST {
                if let Some(oldest) = map
                    .iter()
                    .min_by_key(|(_, s)| s.until)
                    .map(|(k, _)| k.clone())
                {
                    map.remove(&oldest);
                }
            }
            map.insert(id.clone(), seat);
        }
        id
    }

    /// The seat of session `id`, if it is open.
    pub fn get(&self, id: &str, now: DateTime<Utc>) -> Option<Seat> {
        let map = self.map.lock().ok()?;
        map.get(id).filter(|s| s.until > now).cloned()
    }

    /// Ends session `id`.
    pub fn close(&self, id: &str) {
        if let Ok(mut map) = self.map.lock() {
            map.remove(id);
        }
    }
}

/// 32 random bytes, in hex.
pub(super) fn token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The value of cookie `name`, if the request carries it.
pub(super) fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The seat the request is signed in as, if any.
pub(super) fn viewer(web: &Web, headers: &HeaderMap) -> Option<Seat> {
    let id = cookie(headers, SESSION)?;
    web.sessions.get(id, web.now())
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Strict, Path=/, Secure when the site is https;
/// `max_age` seconds (0 removes it).
pub(super) fn set_cookie(web: &Web, name: &str, value: &str, max_age: i64) -> String {
    let secure = if web.secure { "; Secure" } else { "" };
    format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}")
}

/// Whether two tokens are the same, compared in constant time.
pub(super) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && !a.is_empty()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The session's length, for its cookie.
pub(super) fn lifetime() -> Duration {
    Duration::hours(HOURS)
}
