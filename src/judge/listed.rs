//! LIST's table a page at a time (issue 38): the service reads the games' summaries (never
//! their states) from where the page starts, and the session prints at most [`LIST_PAGE`]
//! of those the sender may see, with the line that asks for the next page.

use std::collections::HashMap;

use super::deadline;
use super::game::{Game, Seat, SeatState, Status};
use super::Judge;

/// Games a LIST prints at most.
pub const LIST_PAGE: usize = 50;

/// Different pages of LIST one mail is answered (a line asking for another is told so).
pub const PAGES_PER_MAIL: usize = 4;

/// Which page a LIST asks for: the games from `from` on (by name, lower case; empty from
/// the first), finished ones too with `full`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Page {
    /// The first name the page may show.
    pub from: String,
    /// LIST FULL: finished games too.
    pub full: bool,
}

impl Page {
    /// The statuses of the games the page lists.
    pub fn statuses(&self) -> &'static [&'static str] {
        if self.full {
            &["forming", "running", "paused", "finished"]
        } else {
            &["forming", "running", "paused"]
        }
    }
}

/// A game as LIST shows it, from its stored summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The game's name.
    pub name: String,
    /// Its variant.
    pub variant: String,
    /// Its life stage.
    pub status: Status,
    /// The phase's code, once started.
    pub phase: Option<String>,
    /// The phase in words, once started (the web's list).
    pub phase_shown: Option<String>,
    /// The deadline (Unix seconds).
    pub deadline: Option<i64>,
    /// The deadline as shown in the game's time zone.
    pub deadline_shown: Option<String>,
    /// Seats taken.
    pub seats: i64,
    /// Seats in all.
    pub powers: i64,
    /// Whether strangers see it (not SET NOLIST).
    pub listed: bool,
    /// The Master's address, lower case.
    pub master: String,
    /// Its people, each as a role letter, a space and the address in lower case: `m` the
    /// Master, `p` a player, `a` the player of an abandoned seat, `o` an observer, `n` an
    /// address a seat waits to move to once it confirms.
    pub members: Vec<String>,
    /// The Master's comment.
    pub comment: Option<String>,
}

impl Listed {
    /// What a listing shows of game `g` (the summary the store keeps with its state).
    pub fn of(judge: &Judge, g: &Game) -> Listed {
        let variant = judge.variant(g);
        let role = |s: &Seat| match s.state {
            SeatState::Abandoned => 'a',
            _ => 'p',
        };
        let people = std::iter::once(&g.master)
            .chain(g.seats.iter().map(|s| &s.member))
            .chain(g.observers.iter());
        let waiting = people.filter_map(|m| m.pending.as_ref().map(|p| ('n', &p.address)));
        let mut members: Vec<String> = std::iter::once(('m', &g.master.address))
            .chain(g.seats.iter().map(|s| (role(s), &s.member.address)))
            .chain(g.observers.iter().map(|o| ('o', &o.address)))
            .chain(waiting)
            .filter(|(_, a)| !a.is_empty())
            .map(|(role, a)| format!("{role} {}", a.to_ascii_lowercase()))
            .collect();
        members.sort();
        members.dedup();
        Listed {
            name: g.name.clone(),
            variant: g.variant.clone(),
            status: g.status,
            phase: g.position.as_ref().map(|p| variant.calendar.code(p.phase)),
            phase_shown: g.position.as_ref().map(|p| variant.calendar.show(p.phase)),
            deadline: g.deadline.map(|d| d.timestamp()),
            deadline_shown: g.deadline.map(|d| deadline::show(d, g.settings.zone)),
            seats: i64::try_from(g.seats.len()).unwrap_or(i64::MAX),
            powers: i64::try_from(variant.map.powers.len()).unwrap_or(i64::MAX),
            listed: !g.settings.privacy.unlisted,
            master: g.master.address.to_ascii_lowercase(),
            members,
            comment: g.settings.comment.clone(),
        }
    }

    /// Whether LIST shows the game to `reader`: a listed game to anyone, an unlisted one to
    /// its members (as `Game::listed_for`: not the player of an abandoned seat, nor an
    /// address not confirmed yet).
    pub fn listed_for(&self, reader: &str) -> bool {
        let reader = reader.to_ascii_lowercase();
        self.listed
            || (!reader.is_empty()
                && self.members.iter().any(|m| {
                    m.split_once(' ')
                        .is_some_and(|(role, a)| role != "a" && role != "n" && a == reader)
                }))
    }
}

/// The pages of LIST `pages` asks for when no store holds games (a judge in memory, as
/// the tests run it): none stored, so that LIST shows the games held in memory.
pub fn pages_of(pages: &[Page]) -> HashMap<Page, Vec<Listed>> {
    pages.iter().map(|p| (p.clone(), Vec::new())).collect()
}
