//! One mail applied: the lines read in order, SIGNON deciding who speaks for which game,
//! orders and commands applied for that power or the Master, press delivered, and a reply
//! that echoes every order on file with each error beside the line it came from.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::cmd;
use super::cmd::context::{Role, Session};
use super::cmd::{Command, PressCommand};
use super::game::Status;
use super::growth::Standing;
use super::listed::{Page, PAGES_PER_MAIL};
use super::process;
use super::text::{typed, Typed};
use super::{Effects, Games, Judge};
use crate::envelope::Letter;

/// The games a mail needs loaded (those it names) and the pages of LIST it asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Game names.
    pub names: Vec<String>,
    /// The pages of LIST asked for (at most [`PAGES_PER_MAIL`] different ones).
    pub pages: Vec<Page>,
}

/// One line a person typed, read once: its number, its text (as commands read it and as
/// written) and the command it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line as typed (see [`Typed`]).
    pub typed: Typed,
    /// The command it reads as, with its row.
    pub parsed: cmd::Parsed,
}

/// A mail's typed lines, each read once into its command (issue 26: "each mail parsed once
/// into numbered commands from which the needed games are derived"): the games it needs
/// ([`Parsed::needs`]) and the session that applies it ([`handle_parsed`]) both use these,
/// so a body is not read again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The lines in order, blank ones kept (press keeps its paragraphs).
    pub lines: Vec<Line>,
}

/// Reads a mail body into its numbered commands.
pub fn parse(body: &str) -> Parsed {
    Parsed {
        lines: typed(body)
            .into_iter()
            .map(|typed| Line {
                parsed: cmd::parse(&typed.line),
                typed,
            })
            .collect(),
    }
}

impl Parsed {
    /// Which games the mail names (lower case), so the caller can load them: read from
    /// the command table, the same that dispatches the commands.
    pub fn needs(&self) -> Needs {
        let mut needs = Needs::default();
        for line in &self.lines {
            match line.parsed.command.names() {
                cmd::Names::Nothing => {}
                cmd::Names::Page(page) => {
                    if !needs.pages.contains(&page) && needs.pages.len() < PAGES_PER_MAIL {
                        needs.pages.push(page);
                    }
                }
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

    /// The addresses the mail's `SET ADDRESS` lines name, for the store to say which
    /// confirmed (see [`crate::judge::pending`]).
    pub fn addresses_set(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter_map(|l| match &l.parsed.command {
                cmd::Command::Player(cmd::PlayerCommand::Address(a)) => Some(a.clone()),
                _ => None,
            })
            .collect()
    }
}

/// Which games a mail body names: [`parse`] then [`Parsed::needs`], for a caller that
/// needs nothing else of the mail.
pub fn needed_games(body: &str) -> Needs {
    parse(body).needs()
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

/// Handles one mail. `games` holds the games it names (see [`needed_games`]); changed games
/// are listed in [`Handled::touched`].
pub fn handle(judge: &Judge, letter: &Letter, games: &mut Games, now: DateTime<Utc>) -> Handled {
    handle_parsed(judge, letter, parse(&letter.body), games, now)
}

/// [`handle`] for a mail already read ([`parse`] of its body, from which the caller found
/// the games to load): its lines are not read again.
pub fn handle_parsed(
    judge: &Judge,
    letter: &Letter,
    parsed: Parsed,
    games: &mut Games,
    now: DateTime<Utc>,
) -> Handled {
    // Without a store, LIST shows the games in memory.
    let standing = Standing {
        pages: super::listed::pages_of(&parsed.needs().pages),
        ..Standing::default()
    };
    handle_within(judge, letter, parsed, games, now, judge.limits, &standing)
}

/// [`handle_parsed`] with the reply held within `limits` and what the store counted for
/// the growth limits (`standing`, see [`super::growth`]: the CREATEs of the last day and
/// hour, the games not listed). The service gives an address that has not confirmed
/// [`super::budget::ReplyLimits::unconfirmed`], so that its answer is short text and nothing
/// is drawn for it (issue 36, point 1).
pub fn handle_within(
    judge: &Judge,
    letter: &Letter,
    parsed: Parsed,
    games: &mut Games,
    now: DateTime<Utc>,
    limits: super::budget::ReplyLimits,
    standing: &Standing,
) -> Handled {
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
        signons: 0,
        alone: false,
        acted_for: Vec::new(),
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
        processed: false,
        grey_to: Vec::new(),
        changes: Vec::new(),
        attachments: Vec::new(),
        filed: Vec::new(),
        budget: Default::default(),
        limits,
        standing,
    };
    s.run(parsed);
    let mut effects = s.effects;
    let games = &*s.games;
    super::calendars::attach(judge, |name| games.get(name), &mut effects, now);
    if limits.attachments == 0 {
        for mail in &mut effects.mails {
            if mail.in_reply_to.as_deref() == Some(letter.message_id.as_str()) {
                mail.attachments.clear();
            }
        }
    }
    Handled {
        authenticated: s.game.clone().filter(|_| s.authenticated),
        effects,
        touched: s.touched,
        outcome: Outcome::Handled,
    }
}

impl Session<'_> {
    pub(crate) fn run(&mut self, parsed: Parsed) {
        let mut lines = parsed.lines.into_iter();
        while let Some(Line { typed, parsed }) = lines.next() {
            let line = typed.line;
            if let Some(press) = self.press.as_mut() {
                match &parsed.command {
                    Command::Press(PressCommand::EndPress) => {
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
            if parsed.command == Command::Signoff {
                self.recognised = true;
                break;
            }
            let go_on = self.command(&line, parsed);
            if !go_on {
                self.not_read(lines.by_ref());
            }
            self.budget.tally(&mut self.lines, self.limits);
            if !go_on {
                break;
            }
        }
        if self.press.is_some() {
            self.send_press();
        }
        self.flush_orders();
        self.update_ready();
        self.tell_changes();
        self.reply();
    }

    /// The lines after a refused SIGNON (or CREATE, OBSERVE), up to a SIGNOFF: listed as
    /// not read, never dropped unsaid (issue 37: "everything after it is dropped without
    /// being listed"), their secret words hidden.
    fn not_read(&mut self, rest: impl Iterator<Item = Line>) {
        let rest: Vec<String> = rest
            .take_while(|l| l.parsed.command != Command::Signoff)
            .filter(|l| !l.typed.line.is_empty())
            .map(|l| format!("  {}", cmd::parse::without_secrets(&l.typed.line)))
            .collect();
        if rest.is_empty() {
            return;
        }
        self.lines.push(
            "Not read, as the line above was refused (send them again after a SIGNON herald accepts):"
                .into(),
        );
        self.lines.extend(rest);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testkit::{judge, letter, mail, reply, start, started, GM};

    /// Issue 26: "A mail body is read four times" (three times for the games it needs and
    /// once more by the session). The session applies the lines it is given, read once by
    /// the caller, and does not read the body again: here the body says LIST and the lines
    /// given say CREATE, and the game is created.
    #[test]
    fn a_mail_is_applied_from_the_lines_read_once() {
        let j = judge();
        let mut games = Games::new();
        let parsed = parse("CREATE ?once gmpass");
        assert_eq!(parsed.needs().names, ["once"]);
        let h = handle_parsed(&j, &letter(GM, "LIST"), parsed, &mut games, start());
        assert!(games.contains_key("once"), "{:?}", h.effects.mails);
        assert!(h.touched.contains("once"));
    }

    /// The lines keep their numbers and both texts; the games needed are those named
    /// anywhere in the mail, each once, and a bare LIST asks for the first page.
    #[test]
    fn a_parsed_mail_keeps_numbers_and_names_its_games() {
        let parsed = parse("SIGNON Fg pw\n\n  LIST h \u{2013} x\nHISTORY G\nLIST");
        let numbers: Vec<usize> = parsed.lines.iter().map(|l| l.typed.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5]);
        assert_eq!(parsed.lines[2].typed.line, "LIST h - x");
        assert_eq!(parsed.lines[2].typed.written, "  LIST h \u{2013} x");
        assert_eq!(parsed.lines[0].parsed, cmd::parse("SIGNON Fg pw"));
        let needs = parsed.needs();
        assert_eq!(needs.names, ["g", "h"]);
        assert_eq!(needs.pages, [Page::default()]);
        assert_eq!(
            needed_games("SIGNON Fg pw\nHISTORY g"),
            parse("SIGNON Fg pw").needs()
        );
    }

    /// One phase a mail: its results go to every member once (issue 24's bound on work).
    #[test]
    fn a_mail_processes_one_phase_at_most() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nPROCESS!\nPROCESS!",
            start(),
        );
        let results = h
            .effects
            .mails
            .iter()
            .filter(|m| m.subject.contains("Results") && m.to == GM)
            .count();
        assert_eq!(results, 1);
        assert!(reply(&h, GM)
            .body
            .contains("one phase is processed a mail: send PROCESS again in a mail of its own"));
    }
}
