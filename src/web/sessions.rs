//! Signed-in seats: a random session id in a cookie (HttpOnly, SameSite=Strict, Secure
//! when the base URL is https), the seat it signed in as kept in memory with its CSRF
//! token, its one-time form tokens and the answer it has yet to see; each for at most
//! [`HOURS`] hours. A restart signs everyone out.
//!
//! The table is bounded without letting anyone sign others out:
//! - a seat has at most [`PER_SEAT`] sessions: a new one drops that seat's oldest;
//! - a client (its address, [`super::client`]) has at most [`PER_CLIENT`]: a new one drops
//!   that client's oldest;
//! - the whole table holds at most [`MOST`]; when full, a new sign-in drops the oldest
//!   session of the client that holds the most sessions — the sign-in's own client when it
//!   holds as many as any — so a flood from many addresses only ever displaces itself.
//!
//! The seat page's form carries a token good for one post ([`Sessions::form`]): a reload
//! or a second click of the same form does nothing again ([`Spend::Spent`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};

use axum::http::{header, HeaderMap};
use chrono::{DateTime, Duration, Utc};
use rand_core::{OsRng, RngCore};

use super::Web;

/// How long a sign-in lasts.
pub(super) const HOURS: i64 = 12;
/// Sessions of one seat at most; its oldest goes first.
pub(super) const PER_SEAT: usize = 5;
/// Sessions of one client address at most; its oldest goes first.
pub(super) const PER_CLIENT: usize = 20;
/// Sessions kept at most (see the module's doc for who makes room).
pub(super) const MOST: usize = 10_000;
/// One-time form tokens a session holds at once (one per page shown, the newest kept): as
/// many tabs as anyone keeps open on one seat.
const FORMS: usize = 8;
/// Spent tokens a session remembers, to answer a repeat with "already sent".
const SPENT: usize = 16;
/// Spent sign-in form tokens remembered (an hour's sign-ins at most; the form's cookie
/// lasts an hour).
const SPENT_SIGNINS: usize = 50_000;
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
    /// The seat's stored hash it was checked against: when the stored one differs, the
    /// password changed since, and `password` is no longer good.
    pub stored: String,
    /// The client address it signed in from.
    pub client: IpAddr,
    /// The token the session's sign-out form carries.
    pub csrf: String,
    /// When the session ends.
    pub until: DateTime<Utc>,
}

/// What a post of the seat page's form gave, kept until the page shows it once.
#[derive(Clone, Debug, Default)]
pub(super) struct Shown {
    /// The text sent.
    pub text: String,
    /// The judge's reply, line by line.
    pub reply: Vec<String>,
    /// A word about the form itself ("already sent").
    pub note: Option<String>,
}

/// One open session.
struct Open {
    /// Who it signed in as.
    seat: Seat,
    /// When it opened, in order of opening (the oldest is the lowest).
    order: u64,
    /// Form tokens not yet posted, oldest first.
    forms: VecDeque<String>,
    /// Form tokens posted, oldest first.
    spent: VecDeque<String>,
    /// The answer not yet shown.
    shown: Option<Shown>,
}

/// What posting a form token did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spend {
    /// The token was good and is now spent: do the form's work.
    Fresh,
    /// The token was posted before: do nothing again.
    Spent,
    /// No such token (or session).
    Unknown,
}

/// The sessions and the sign-in form tokens spent, under one lock.
#[derive(Default)]
struct Table {
    /// The open sessions by id.
    open: HashMap<String, Open>,
    /// The order the next session opens in.
    next: u64,
    /// Sign-in form tokens posted.
    signins: HashSet<String>,
    /// The same, oldest first, so the oldest are forgotten past [`SPENT_SIGNINS`].
    signin_order: VecDeque<String>,
}

/// The sessions by id.
pub(super) struct Sessions {
    /// The sessions and spent sign-in tokens.
    table: Mutex<Table>,
    /// [`PER_SEAT`], [`PER_CLIENT`] and [`MOST`] (smaller in tests).
    caps: (usize, usize, usize),
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions::with_caps(PER_SEAT, PER_CLIENT, MOST)
    }
}

/// Whether two sessions are of the same seat.
fn same_seat(a: &Seat, b: &Seat) -> bool {
    a.letter == b.letter && a.game.eq_ignore_ascii_case(&b.game)
}

impl Sessions {
    /// Sessions capped at `per_seat` a seat, `per_client` a client and `most` in all.
    pub fn with_caps(per_seat: usize, per_client: usize, most: usize) -> Sessions {
        Sessions {
            table: Mutex::default(),
            caps: (per_seat.max(1), per_client.max(1), most.max(1)),
        }
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        // Each change to the table is one step: a panic elsewhere leaves it whole.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a session for `seat`; returns its id.
    pub fn open(&self, seat: Seat, now: DateTime<Utc>) -> String {
        let (per_seat, per_client, most) = self.caps;
        let id = token();
        let mut t = self.table();
        t.open.retain(|_, s| s.seat.until > now);
        let oldest = |t: &Table, of: &dyn Fn(&Seat) -> bool| {
            let mine: Vec<(&String, u64)> = t
                .open
                .iter()
                .filter(|(_, s)| of(&s.seat))
                .map(|(k, s)| (k, s.order))
                .collect();
            let first = mine
                .iter()
                .min_by_key(|(_, o)| *o)
                .map(|(k, _)| (*k).clone());
            (mine.len(), first)
        };
        let drop_oldest = |t: &mut Table, limit: usize, of: &dyn Fn(&Seat) -> bool| {
            while let (n, Some(first)) = oldest(t, of) {
                if n < limit {
                    break;
                }
                t.open.remove(&first);
            }
        };
        drop_oldest(&mut t, per_seat, &|s| same_seat(s, &seat));
        drop_oldest(&mut t, per_client, &|s| s.client == seat.client);
        if t.open.len() >= most {
            let mut counts: HashMap<IpAddr, usize> = HashMap::new();
            for s in t.open.values() {
                *counts.entry(s.seat.client).or_default() += 1;
            }
            let own = counts.get(&seat.client).copied().unwrap_or(0);
            let heaviest = counts
                .into_iter()
                .max_by_key(|(_, n)| *n)
                .filter(|(_, n)| *n > own)
                .map_or(seat.client, |(c, _)| c);
            if let (_, Some(first)) = oldest(&t, &|s| s.client == heaviest) {
                t.open.remove(&first);
            }
        }
        let order = t.next;
        t.next += 1;
        t.open.insert(
            id.clone(),
            Open {
                seat,
                order,
                forms: VecDeque::new(),
                spent: VecDeque::new(),
                shown: None,
            },
        );
        id
    }

    /// The seat of session `id`, if it is open.
    pub fn get(&self, id: &str, now: DateTime<Utc>) -> Option<Seat> {
        let t = self.table();
        t.open
            .get(id)
            .filter(|s| s.seat.until > now)
            .map(|s| s.seat.clone())
    }

    /// Ends session `id`.
    pub fn close(&self, id: &str) {
        self.table().open.remove(id);
    }

    /// A new one-time token for a form of session `id` (empty when it is not open).
    pub fn form(&self, id: &str) -> String {
        let mut t = self.table();
        let Some(s) = t.open.get_mut(id) else {
            return String::new();
        };
        let fresh = token();
        s.forms.push_back(fresh.clone());
        while s.forms.len() > FORMS {
            s.forms.pop_front();
        }
        fresh
    }

    /// Posts form token `given` of session `id`: spends it if it is good.
    pub fn spend(&self, id: &str, given: &str) -> Spend {
        let mut t = self.table();
        let Some(s) = t.open.get_mut(id) else {
            return Spend::Unknown;
        };
        if let Some(i) = s.forms.iter().position(|f| same(f, given)) {
            s.forms.remove(i);
            s.spent.push_back(given.to_string());
            while s.spent.len() > SPENT {
                s.spent.pop_front();
            }
            return Spend::Fresh;
        }
        if s.spent.iter().any(|f| same(f, given)) {
            Spend::Spent
        } else {
            Spend::Unknown
        }
    }

    /// Whether `given` is one of session `id`'s tokens: its own, or a form's not yet spent.
    pub fn holds(&self, id: &str, given: &str) -> bool {
        self.table()
            .open
            .get(id)
            .is_some_and(|s| same(&s.seat.csrf, given) || s.forms.iter().any(|f| same(f, given)))
    }

    /// Keeps what a post gave for the next page of session `id` (a note added to an answer
    /// not yet shown keeps the answer).
    pub fn keep(&self, id: &str, shown: Shown) {
        let mut t = self.table();
        if let Some(s) = t.open.get_mut(id) {
            s.shown = match (s.shown.take(), shown) {
                (Some(old), Shown { note, text, .. }) if text.is_empty() => {
                    Some(Shown { note, ..old })
                }
                (_, new) => Some(new),
            };
        }
    }

    /// What session `id`'s last post gave, once.
    pub fn take(&self, id: &str) -> Option<Shown> {
        self.table().open.get_mut(id)?.shown.take()
    }

    /// The seat's password changed from session `id`: it and its stored hash are now these.
    pub fn repass(&self, id: &str, password: &str, stored: &str) {
        if let Some(s) = self.table().open.get_mut(id) {
            s.seat.password = password.to_string();
            s.seat.stored = stored.to_string();
        }
    }

    /// Spends sign-in form token `given`: true the first time.
    pub fn spend_signin(&self, given: &str) -> bool {
        let mut t = self.table();
        if !t.signins.insert(given.to_string()) {
            return false;
        }
        t.signin_order.push_back(given.to_string());
        while t.signin_order.len() > SPENT_SIGNINS {
            if let Some(old) = t.signin_order.pop_front() {
                t.signins.remove(&old);
            }
        }
        true
    }

    /// Whether sign-in form token `given` was posted already.
    pub fn signin_spent(&self, given: &str) -> bool {
        self.table().signins.contains(given)
    }

    /// The sessions open now (for tests of the caps).
    #[cfg(test)]
    fn ids(&self) -> Vec<String> {
        self.table().open.keys().cloned().collect()
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
    session(web, headers).map(|(_, seat)| seat)
}

/// The session the request is signed in with, if any: its id and seat.
pub(super) fn session(web: &Web, headers: &HeaderMap) -> Option<(String, Seat)> {
    let id = cookie(headers, SESSION)?;
    web.sessions
        .get(id, web.now())
        .map(|seat| (id.to_string(), seat))
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

#[cfg(test)]
mod tests;
