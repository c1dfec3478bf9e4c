//! The play-by-mail service logic: the mail command language, the life of a game,
//! deadlines, press, and the text of every reply and result. It is given the time and the
//! games it needs; it never reads the clock or the database itself.
//!
//! # Layout
//! - [`text`]: the lines a person typed in a mail.
//! - [`cmd`]: the commands, one file per family, each with its rows and its code.
//! - [`game`]: a game as kept between mails.
//! - [`played`]: the phases a game has played, as it keeps them.
//! - [`session`]: one mail applied to the games it names.
//! - [`orders`]: a power's orders checked, stored and echoed.
//! - [`dummies`]: powers nobody plays from the start (FORCE BEGIN).
//! - [`preference`]: power preference lists with ties and chance.
//! - [`later`]: orders filed for a later phase, applied when it comes.
//! - [`process`]: a phase adjudicated and its results written.
//! - [`tick`]: what deadlines bring: reminders, late notices, grace, early processing.
//! - [`deadline`]: timing as pure functions.
//! - [`absence`]: absences (SET ABSENCE) and the deadlines they move.
//! - [`render`]: the templates.
//! - [`password`]: argon2 hashes.
//! - [`privacy`]: anonymous and private games: who may learn and see what.
//! - [`partners`]: which powers one player holds together, for the rules engine.
//! - [`pending`]: a seat's move to a new address, held until the address confirms.
//! - [`export`]: a game for readers outside mail: Atom and iCalendar feeds, JSON, DATC cases.

pub mod absence;
pub mod board;
pub mod budget;
pub mod calendars;
pub mod caught_up;
pub mod cmd;
pub mod deadline;
pub mod deadline_error;
pub mod dips;
pub mod draws;
pub mod dummies;
pub mod ending;
pub mod export;
pub mod filed;
pub mod gains;
pub mod game;
pub mod game_ctx;
pub mod growth;
pub mod incidents;
pub mod later;
pub mod ledger;
pub mod life;
pub mod listed;
pub mod mapinfo;
pub mod orders;
pub mod partners;
pub mod password;
pub mod pending;
pub mod pictures;
pub mod played;
pub mod preference;
pub mod privacy;
pub mod process;
pub mod reasons;
pub mod render;
mod reply;
pub mod results;
pub mod session;
#[cfg(test)]
mod stored_types;
pub mod summary;
#[cfg(test)]
pub mod testkit;
pub mod text;
pub mod tick;
pub mod timing_change;
pub mod volume;
pub mod votes;
pub mod warnings;
pub mod zone_name;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::catalog::Catalog;
use crate::config::Durations;
use crate::envelope::Outgoing;
use crate::game::map::Map;
use crate::game::variant::Variant;

pub use game::Game;
pub use session::{needed_games, Handled, Needs};

/// The judge: its identity, default timing, variants and templates.
#[derive(Debug)]
pub struct Judge {
    /// herald's own address (the From of what it sends).
    pub address: String,
    /// The name in the `:: Judge:` header.
    pub name: String,
    /// The keeper's address, told when a game is set aside after a fault.
    pub keeper: String,
    /// Default timing and deadline margins.
    pub durations: Durations,
    /// The variants it plays.
    pub catalog: Catalog,
    /// The texts it sends.
    pub templates: render::Templates,
    /// Password hashing.
    pub passwords: password::Passwords,
    /// Draws the pictures of boards, keeping each map's background.
    pub painter: crate::picture::Painter,
    /// The bounds on the reply to one mail.
    pub limits: budget::ReplyLimits,
    /// The limits on press per mail and per hour (`[limits]`).
    pub press_limits: volume::Limits,
    /// The limits on growth: the shortest phase, idle games, CREATEs, forming games
    /// (`[limits]`, issue 36).
    pub growth: growth::Limits,
    /// The web pages' public address (`[web] base_url`, without a trailing `/`), when set:
    /// every mail about a game links to its page (issue 28).
    pub web: Option<String>,
}

/// Games by name: those a mail or a deadline needs, loaded by the caller and written back
/// when changed.
pub type Games = BTreeMap<String, Game>;

/// An action to log (every Master action, among others).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The game.
    pub game: Option<String>,
    /// Who (an address).
    pub actor: String,
    /// What was done.
    pub what: String,
}

/// Mails to send and actions to log.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    /// Mails to send.
    pub mails: Vec<Outgoing>,
    /// Actions to log.
    pub actions: Vec<Action>,
}

impl Judge {
    /// A game's variant (a game names only variants the catalog had when it was created).
    // The fallback is compiled in (`variants/standard.variant.toml`, loaded by
    // tests/variant_files.rs), so it is always found.
    #[allow(clippy::expect_used)]
    pub fn variant(&self, game: &Game) -> &Variant {
        self.catalog
            .variant(&game.variant)
            .or_else(|_| self.catalog.variant("standard"))
            .expect("the standard variant is built in")
    }

    /// The game's rules: its variant's, with the switches chosen at creation and who plays
    /// which powers together ([`partners`]).
    pub fn rules(&self, game: &Game) -> crate::game::rules::Rules {
        #[cfg(test)]
        game_ctx::RULES_BUILT.with(|n| n.set(n.get() + 1));
        let mut rules = self.variant(game).rules.clone();
        for &setting in &game.rules {
            rules.apply(setting);
        }
        rules.partners = partners::of(self, game);
        rules
    }

    /// The map as it stands at the game's current phase (scheduled changes applied).
    pub fn map_of(&self, game: &Game) -> &Map {
        let variant = self.variant(game);
        match &game.position {
            Some(pos) => variant.map_at(pos.phase),
            None => &variant.map,
        }
    }

    /// The map of the game's variant as it stands at `phase`.
    pub fn map_of_phase(&self, game: &Game, phase: crate::game::calendar::Phase) -> &Map {
        self.variant(game).map_at(phase)
    }

    /// The `:: Judge:` / `:: Deadline:` header of every mail about a game.
    pub fn header(&self, game: &Game) -> String {
        self.header_for(game, "")
    }

    /// The time zone mails to `to` show a game's dates in: the zone the player at that
    /// address set (SET MYZONE), else the game's.
    pub fn zone_for(&self, game: &Game, to: &str) -> chrono_tz::Tz {
        let own = game
            .seats
            .iter()
            .find(|s| !to.is_empty() && s.member.address.eq_ignore_ascii_case(to))
            .and_then(|s| s.zone);
        own.unwrap_or(game.settings.zone)
    }

    /// [`Judge::header`] for a mail to `to`, its dates in that player's zone.
    pub fn header_for(&self, game: &Game, to: &str) -> String {
        let mut h = format!(
            ":: Judge: {}  Game: {}  Variant: {}",
            self.address, game.name, game.variant
        );
        if let (Some(pos), Some(deadline)) = (&game.position, game.deadline) {
            if game.status != game::Status::Finished {
                let v = self.variant(game);
                let tz = self.zone_for(game, to);
                h.push_str(&format!(
                    "\n:: Deadline: {} {}",
                    v.calendar.code(pos.phase),
                    deadline::show(deadline, tz)
                ));
            }
        }
        // Issue 28: "mails link to the game page when it is set".
        if let Some(base) = &self.web {
            h.push_str(&format!("\n:: Web: {base}/games/{}", game.name));
        }
        h
    }

    /// A mail about a game, with the njudge subject form `JUDGE:game - S1901M what`.
    pub fn subject(&self, game: &Game, what: &str) -> String {
        match &game.position {
            Some(pos) => format!(
                "JUDGE:{} - {} {what}",
                game.name,
                self.variant(game).calendar.code(pos.phase)
            ),
            None => format!("JUDGE:{} - {what}", game.name),
        }
    }

    /// A notice about a game to one address.
    pub fn notice(&self, game: &Game, to: &str, what: &str, lines: &[String]) -> Outgoing {
        Outgoing {
            to: to.to_string(),
            subject: self.subject(game, what),
            body: self.templates.render(
                "notice.txt",
                minijinja::context! { header => self.header_for(game, to), lines => lines },
            ),
            in_reply_to: None,
            attachments: Vec::new(),
        }
    }

    /// Everyone in a game: players (playing or in disorder), the Master and observers.
    pub fn everyone(&self, game: &Game) -> Vec<String> {
        let mut all: Vec<String> = game
            .seats
            .iter()
            .filter(|s| s.state != game::SeatState::Abandoned)
            .map(|s| s.member.address.clone())
            .collect();
        all.push(game.master.address.clone());
        all.extend(game.observers.iter().map(|o| o.address.clone()));
        let mut seen = std::collections::HashSet::new();
        all.retain(|a| seen.insert(a.clone()));
        all
    }

    /// The same notice to everyone in a game.
    pub fn notice_all(&self, game: &Game, what: &str, lines: &[String]) -> Vec<Outgoing> {
        self.everyone(game)
            .iter()
            .map(|to| self.notice(game, to, what, lines))
            .collect()
    }

    /// Sets a game aside after a fault in herald while processing it: the game is paused with
    /// the reason stored, and its Master and the keeper are told. The caller has put back the
    /// game as it was before the failed attempt.
    pub fn set_aside(&self, game: &mut Game, reason: &str, now: DateTime<Utc>) -> Effects {
        game.pause(format!("set aside by herald: {reason}"), now);
        let lines = vec![
            format!("herald failed while processing game '{}' ({reason}).", game.name),
            "So that no other game is held up, this game is paused with its board and orders as they were before the attempt.".to_string(),
            "The keeper has been told. The Master may RESUME the game once the keeper has looked at it.".to_string(),
        ];
        let mut effects = Effects::default();
        effects
            .mails
            .push(self.notice(game, &game.master.address, "Game Set Aside", &lines));
        if !self.keeper.is_empty() && !self.keeper.eq_ignore_ascii_case(&game.master.address) {
            effects
                .mails
                .push(self.notice(game, &self.keeper, "Game Set Aside", &lines));
        }
        effects.actions.push(Action {
            game: Some(game.name.clone()),
            actor: "herald".into(),
            what: format!("set aside: {reason}"),
        });
        effects
    }

    /// When a game next needs the clock: early processing, the reminder, the deadline, the
    /// next late notice, the end of grace. None when nothing is pending.
    pub fn next_due(&self, game: &Game) -> Option<DateTime<Utc>> {
        tick::next_due(self, game)
    }
}
