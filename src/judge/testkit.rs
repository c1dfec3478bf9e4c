//! What the judge's unit tests share: a judge with the built-in variants and templates, a
//! mail from someone, and a standard game started by mail — no SQLite, no mailbox.

use chrono::{DateTime, Utc};

use super::game::Game;
use super::session::{handle, Handled};
use super::{Games, Judge};
use crate::envelope::{Letter, Outgoing};

/// The time every test starts at: Tuesday 1 December 2026, 10:00 UTC.
pub fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// A judge at `judge@herald.test` with the default timing, built-in variants and templates.
pub fn judge() -> Judge {
    Judge {
        address: "judge@herald.test".into(),
        name: "herald".into(),
        keeper: "keeper@herald.test".into(),
        durations: crate::config::Config::default().timing.durations().unwrap(),
        catalog: crate::catalog::Catalog::builtin(),
        templates: super::render::Templates::load(None).unwrap(),
        passwords: Default::default(),
        painter: Default::default(),
        limits: Default::default(),
        press_limits: Default::default(),
        growth: Default::default(),
        web: None,
    }
}

/// A mail from `from` with this body.
pub fn letter(from: &str, body: &str) -> Letter {
    Letter {
        message_id: format!("<{}@test>", body.len()),
        body_hash: String::new(),
        from: from.into(),
        reply_to: from.into(),
        subject: "test".into(),
        body: body.into(),
        automatic: None,
        bounce_for: None,
        bounce_refs: Vec::new(),
        host: None,
        authentication: Vec::new(),
        unauthenticated: false,
    }
}

/// The seven players of the standard game and the power each asks for.
pub const SEVEN: [(&str, char); 7] = [
    ("ann@example.org", 'E'),
    ("bob@example.org", 'F'),
    ("cat@example.org", 'G'),
    ("dan@example.org", 'I'),
    ("eve@example.org", 'A'),
    ("fay@example.org", 'R'),
    ("guy@example.org", 'T'),
];

/// The Master of the test games.
pub const GM: &str = "gm@example.org";

/// Handles a mail at `now`.
pub fn mail(
    judge: &Judge,
    games: &mut Games,
    from: &str,
    body: &str,
    now: DateTime<Utc>,
) -> Handled {
    handle(judge, &letter(from, body), games, now)
}

/// The reply a mail got (the mail to its sender that answers it).
pub fn reply<'a>(handled: &'a Handled, to: &str) -> &'a Outgoing {
    handled
        .effects
        .mails
        .iter()
        .find(|m| m.to == to && m.in_reply_to.is_some())
        .unwrap_or_else(|| panic!("no reply to {to}: {:#?}", handled.effects.mails))
}

/// Standard game `g` (Master password `gmpass`, players `pw<letter>`), created, joined by
/// the seven and started at [`start`].
pub fn started(judge: &Judge) -> Games {
    let mut games = Games::new();
    let now = start();
    mail(judge, &mut games, GM, "CREATE ?g gmpass", now);
    for (addr, letter) in SEVEN {
        mail(
            judge,
            &mut games,
            addr,
            &format!("SIGNON ?g pw{letter}\nSET PREFERENCE {letter}"),
            now,
        );
    }
    mail(judge, &mut games, GM, "SIGNON Mg gmpass\nSTART", now);
    games
}

/// A game created by the Master with `create` (`CREATE ?<create>`, Master password
/// `gmpass`), joined by `players` (password `pw<letter>`, each asking for its letter) and
/// started at [`start`].
pub fn started_as(judge: &Judge, create: &str, players: &[(String, char)]) -> Games {
    let mut games = Games::new();
    let now = start();
    let name = create.split_whitespace().next().unwrap_or_default();
    mail(judge, &mut games, GM, &format!("CREATE ?{create}"), now);
    for (addr, letter) in players {
        mail(
            judge,
            &mut games,
            addr,
            &format!("SIGNON ?{name} pw{letter}\nSET PREFERENCE {letter}"),
            now,
        );
    }
    mail(
        judge,
        &mut games,
        GM,
        &format!("SIGNON M{name} gmpass\nSTART"),
        now,
    );
    games
}

/// Standard game `g` as in [`started`], with the `dip_points` switch (8 dips a turn each).
pub fn started_dips(judge: &Judge) -> Games {
    let seven: Vec<(String, char)> = SEVEN.iter().map(|&(a, l)| (a.to_string(), l)).collect();
    started_as(judge, "g gmpass standard dip_points", &seven)
}

/// Who plays the world1880 game of [`started_world`]: Ann (`ann@example.org`) holds Great
/// Britain (B), France (F) and Chile (C); every other power has a player of its own,
/// `p<letter>@example.org`.
pub fn world_players() -> Vec<(String, char)> {
    let ann = SEVEN[0].0;
    let mut out: Vec<(String, char)> = "BFC".chars().map(|l| (ann.to_string(), l)).collect();
    for letter in "RGAITUJZXKPSH".chars() {
        out.push((
            format!("p{}@example.org", letter.to_ascii_lowercase()),
            letter,
        ));
    }
    out
}

/// World1880 game `w` joined by [`world_players`] and started: at the unit choice of Winter
/// 1879 (`SIGNON Mw gmpass\nPROCESS!` builds the map's units and goes to Spring 1880).
pub fn started_world(judge: &Judge) -> Games {
    started_as(judge, "w gmpass world1880", &world_players())
}

/// The standard game of [`started`], alone.
pub fn running_game() -> Game {
    started(&judge()).remove("g").unwrap()
}
