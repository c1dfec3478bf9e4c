//! One mail applied: the lines read in order, SIGNON deciding who speaks for which game,
//! orders and commands applied for that power or the Master, press delivered, and a reply
//! that echoes every order on file with each error beside the line it came from.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::cmd;
use super::command::{parse_command, Command, Recipients};
use super::game::{Game, Status};
use super::process;
use super::text::{typed, typed_lines};
use super::{Action, Effects, Games, Judge};
use crate::envelope::Letter;
use crate::game::ids::PowerId;

/// The games a mail needs loaded: those it names, and all of them for a bare LIST.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Game names.
    pub names: Vec<String>,
    /// All games (LIST).
    pub all: bool,
}

/// Which games a mail names (lower case), so the caller can load them: read from the
/// command table, the same that dispatches the commands.
pub fn needed_games(body: &str) -> Needs {
    let mut needs = Needs::default();
    for (_, line) in typed_lines(body) {
        match cmd::spec(&parse_command(&line)).names {
            cmd::Names::Nothing => {}
            cmd::Names::All => needs.all = true,
            cmd::Names::Game(name) => {
                let name = name.to_ascii_lowercase();
                if !needs.names.contains(&name) {
                    needs.names.push(name);
                }
            }
        }
    }
    needs
}

/// How a mail was taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    /// Read and answered.
    #[default]
    Handled,
    /// Deliberately not answered.
    Ignored(Ignored),
}

/// Why a mail is not answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ignored {
    /// An auto-reply, bounce or mailer daemon (what the mail showed).
    Automatic(String),
    /// herald's own mail come back.
    Own,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Handled => write!(f, "handled"),
            Outcome::Ignored(Ignored::Automatic(why)) => write!(f, "ignored: {why}"),
            Outcome::Ignored(Ignored::Own) => write!(f, "ignored: herald's own mail"),
        }
    }
}

/// What handling a mail did.
#[derive(Clone, Debug, Default)]
pub struct Handled {
    /// Mails to send and actions to log.
    pub effects: Effects,
    /// Games changed (to be written back).
    pub touched: BTreeSet<String>,
    /// How the mail is recorded: handled, or ignored and why.
    pub outcome: Outcome,
    /// The game this mail signed on to with a right password, if any. A forger who only
    /// knows an address cannot sign on, so the reply to such a mail is counted apart from
    /// the per-address reply limit (see `Service::ingest_batch`): junk mail in the
    /// player's name cannot silence the confirmation of their orders.
    pub authenticated: Option<String>,
}

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
    pub(crate) fn seat(self) -> Option<cmd::Seat> {
        match self {
            Role::Nobody => None,
            Role::Joiner(_) => Some(cmd::Seat::Joiner),
            Role::Power(_) => Some(cmd::Seat::Power),
            Role::Master => Some(cmd::Seat::Master),
            Role::Observer => Some(cmd::Seat::Observer),
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
    /// are filed for that phase (see [`super::later`]).
    pub(crate) later_phase: Option<crate::game::calendar::Phase>,
    /// Order lines for later phases, each with its phase, filed at the end of the mail.
    pub(crate) later_orders: Vec<(crate::game::calendar::Phase, String)>,
    pub(crate) press: Option<PressDraft>,
    /// Press blocks read from this mail so far (see [`super::volume`]).
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
    pub(crate) budget: super::budget::Budget,
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

/// Handles one mail. `games` holds the games it names (see [`needed_games`]); changed games
/// are listed in [`Handled::touched`].
pub fn handle(judge: &Judge, letter: &Letter, games: &mut Games, now: DateTime<Utc>) -> Handled {
    if let Some(why) = &letter.automatic {
        return Handled {
            outcome: Outcome::Ignored(Ignored::Automatic(why.clone())),
            ..Handled::default()
        };
    }
    if letter.from.eq_ignore_ascii_case(&judge.address) {
        return Handled {
            outcome: Outcome::Ignored(Ignored::Own),
            ..Handled::default()
        };
    }
    let mut s = Session {
        judge,
        letter,
        now,
        games,
        game: None,
        role: Role::Nobody,
        became: None,
        signed_on: false,
        lines: Vec::new(),
        errors: false,
        recognised: false,
        orders: Vec::new(),
        wrong_phase: None,
        later_phase: None,
        later_orders: Vec::new(),
        press: None,
        press_blocks: 0,
        effects: Effects::default(),
        touched: BTreeSet::new(),
        rolled_back: false,
        authenticated: false,
        grey_to: Vec::new(),
        attachments: Vec::new(),
        filed: Vec::new(),
        budget: Default::default(),
    };
    s.run();
    let mut effects = s.effects;
    let games = &*s.games;
    super::calendars::attach(judge, |name| games.get(name), &mut effects, now);
    Handled {
        authenticated: s.game.clone().filter(|_| s.authenticated),
        effects,
        touched: s.touched,
        outcome: Outcome::Handled,
    }
}

impl Session<'_> {
    pub(crate) fn run(&mut self) {
        for typed in typed(&self.letter.body) {
            let line = typed.line;
            if let Some(press) = self.press.as_mut() {
                match parse_command(&line) {
                    Command::EndPress => {
                        self.send_press();
                        continue;
                    }
                    Command::Signoff => {
                        self.send_press();
                        break;
                    }
                    _ => {
                        // Press is relayed as written; only commands are read plain.
                        press.lines.push(typed.written);
                        continue;
                    }
                }
            }
            if line.is_empty() {
                continue;
            }
            let command = parse_command(&line);
            if command == Command::Signoff {
                self.recognised = true;
                break;
            }
            let go_on = self.command(&line, command);
            self.budget.tally(&mut self.lines, self.judge.limits);
            if !go_on {
                break;
            }
        }
        if self.press.is_some() {
            self.send_press();
        }
        self.flush_orders();
        self.update_ready();
        self.reply();
    }

    /// Early processing: once every power that must act is ready and nobody waits, the
    /// phase runs after the configured delay; any change that breaks that cancels it.
    pub(crate) fn update_ready(&mut self) {
        let Some(name) = self.game.clone() else {
            return;
        };
        if !self.touched.contains(&name) || self.rolled_back {
            return;
        }
        let (judge, now) = (self.judge, self.now);
        let Some(g) = self.games.get_mut(&name) else {
            return;
        };
        if g.status != Status::Running {
            return;
        }
        if process::all_ready(judge, g) {
            if g.ready_at.is_none() {
                g.ready_at = Some(now + judge.durations.early_delay);
            }
        } else {
            g.ready_at = None;
        }
    }

    pub(crate) fn error(&mut self, line: &str, why: impl Into<String>) {
        self.lines.push(without_password(line));
        self.lines.push(format!("  *** {}", why.into()));
        self.errors = true;
    }

    pub(crate) fn say(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    /// The game signed on to. Only commands that need a sign-on call it (see
    /// [`super::cmd::spec`]), or CREATE and SIGNON once they have set `game`, which they set
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
