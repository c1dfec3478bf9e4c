//! The context every command of a mail shares: who speaks ([`Role`]), the games loaded, the
//! reply being written. The commands of this directory take it; the mail loop that makes it
//! and dispatches into them is [`crate::judge::session`], which this file does not import, so
//! no import points back from the commands to the loop.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::Seat;
use crate::envelope::Letter;
use crate::game::ids::PowerId;
use crate::judge::command::Recipients;
use crate::judge::game::Game;
use crate::judge::{Action, Effects, Games, Judge};

/// Who the sender of a mail speaks as, once signed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Not signed on.
    Nobody,
    /// A player of a forming game, by seat index.
    Joiner(usize),
    /// A power.
    Power(PowerId),
    /// The Master.
    Master,
    /// An observer.
    Observer,
}

impl Role {
    /// The kind of seat, for the command table (none before SIGNON).
    pub(crate) fn seat(self) -> Option<Seat> {
        match self {
            Role::Nobody => None,
            Role::Joiner(_) => Some(Seat::Joiner),
            Role::Power(_) => Some(Seat::Power),
            Role::Master => Some(Seat::Master),
            Role::Observer => Some(Seat::Observer),
        }
    }
}

/// A press block being read: its recipients, colour and lines.
pub(crate) struct PressDraft {
    /// The PRESS or BROADCAST line as written, to name the press in a refusal.
    pub(crate) head: String,
    pub(crate) to: Recipients,
    pub(crate) grey: Option<bool>,
    pub(crate) lines: Vec<String>,
}

/// One mail being read: the context every command of it shares.
pub(crate) struct Session<'a> {
    pub(crate) judge: &'a Judge,
    pub(crate) letter: &'a Letter,
    pub(crate) now: DateTime<Utc>,
    pub(crate) games: &'a mut Games,
    pub(crate) game: Option<String>,
    pub(crate) role: Role,
    pub(crate) became: Option<PowerId>,
    pub(crate) signed_on: bool,
    pub(crate) lines: Vec<String>,
    pub(crate) errors: bool,
    pub(crate) recognised: bool,
    /// Orders read so far, each with why it is for another phase (PHASE applies to the lines
    /// after it).
    pub(crate) orders: Vec<(String, Option<String>)>,
    pub(crate) wrong_phase: Option<String>,
    /// The later phase the last PHASE line named, if it named one: the order lines after it
    /// are filed for that phase (see [`crate::judge::later`]).
    pub(crate) later_phase: Option<crate::game::calendar::Phase>,
    /// Order lines for later phases, each with its phase, filed at the end of the mail.
    pub(crate) later_orders: Vec<(crate::game::calendar::Phase, String)>,
    pub(crate) press: Option<PressDraft>,
    /// Press blocks read from this mail so far (see [`crate::judge::volume`]).
    pub(crate) press_blocks: usize,
    pub(crate) effects: Effects,
    pub(crate) touched: BTreeSet<String>,
    /// A ROLLBACK in this mail: the orders it kept do not start early processing (the
    /// phase runs at its deadline, by PROCESS, or early after a later mail).
    pub(crate) rolled_back: bool,
    /// SIGNON checked a password and it was right.
    pub(crate) authenticated: bool,
    /// Addresses that got grey press from this mail: nothing else from it may name the
    /// sender to them, as it would arrive together with the press.
    pub(crate) grey_to: Vec<String>,
    /// Powers whose orders this mail has filed already (orders are filed at its end, and
    /// before each dip purchase in a game with dip points, so that purchases are paid in
    /// line order): a later filing keeps an earlier one's refused lines marked.
    pub(crate) filed: Vec<PowerId>,
    /// Files for the reply (pictures of the board).
    pub(crate) attachments: Vec<crate::envelope::Attachment>,
    /// What the reply has used of its limits, and what was left out of it.
    pub(crate) budget: crate::judge::budget::Budget,
}

/// A line as the reply may show it: the password of a SIGNON, CREATE, OBSERVE or SET
/// PASSWORD, and a join word (after a SIGNON's or OBSERVE's password, or in SET PRIVATE),
/// replaced by `****`, so that a mistyped one is neither mailed back nor stored in the
/// outbox.
pub(crate) fn without_password(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words
        .first()
        .map(|w| w.to_ascii_uppercase())
        .unwrap_or_default();
    let second = words
        .get(1)
        .map(|w| w.to_ascii_uppercase())
        .unwrap_or_default();
    // (first secret word, last + 1): after SIGNON and OBSERVE the password and a join word.
    let all = words.len();
    let secret = match (first.as_str(), second.as_str()) {
        ("SIGNON" | "OBSERVE" | "WATCH", _) => Some((2, all)),
        ("SIGN", "ON") => Some((3, all)),
        ("CREATE", _) => Some((2, 3)),
        ("SET", "PASSWORD" | "PRIVATE") => Some((2, 3)),
        ("SETPASSWORD" | "SETPRIVATE", _) => Some((1, 2)),
        _ => None,
    };
    match secret {
        Some((i, end)) if all > i => {
            let mut shown: Vec<&str> = words.clone();
            for w in &mut shown[i..end.min(all)] {
                *w = "****";
            }
            shown.join(" ")
        }
        _ => line.to_string(),
    }
}

impl Session<'_> {
    pub(crate) fn error(&mut self, line: &str, why: impl Into<String>) {
        self.lines.push(without_password(line));
        self.lines.push(format!("  *** {}", why.into()));
        self.errors = true;
    }

    pub(crate) fn say(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    /// The game signed on to. Only commands that need a sign-on call it (see
    /// [`super::spec`]), or CREATE and SIGNON once they have set `game`, which they set
    /// only to a game of `games` (the one SIGNON or CREATE of the mail; a failed one ends it).
    #[allow(clippy::expect_used)]
    pub(crate) fn game(&self) -> &Game {
        &self.games[self.game.as_deref().expect("signed on")]
    }

    /// The game signed on to, marked as changed; see [`Session::game`] for why it is there.
    #[allow(clippy::expect_used)]
    pub(crate) fn game_mut(&mut self) -> &mut Game {
        let name = self.game.clone().expect("signed on");
        self.touched.insert(name.clone());
        self.games.get_mut(&name).expect("loaded")
    }

    pub(crate) fn log(&mut self, what: impl Into<String>) {
        self.effects.actions.push(Action {
            game: self.game.clone(),
            actor: self.letter.from.clone(),
            what: what.into(),
        });
    }
}
