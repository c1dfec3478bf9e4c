//! LIST, LIST FULL, LIST FROM and LIST <game>: the games a sender may see. LIST shows the
//! games forming and those running apart, LIST FULL finished ones too, a page of
//! [`LIST_PAGE`] games at a time from their stored summaries; an unlisted game is shown to
//! its members only.

use crate::judge::cmd::context::Session;
use crate::judge::game::{Game, PressPolicy, SeatState, Status};
use crate::judge::listed::{Listed, Page, LIST_PAGE, PAGES_PER_MAIL};
use crate::judge::orders;

/// Why a stranger may not look into a private game.
pub(super) fn private(name: &str) -> String {
    format!("game '{name}' is private: only its members may look into it")
}

impl Session<'_> {
    /// The key of game `name` when the sender may look into it (LIST, HISTORY, SUMMARY of
    /// a game); otherwise `None`, with the line refused: no such game, or a private one.
    pub(super) fn game_to_show(&mut self, line: &str, name: &str) -> Option<String> {
        let key = name.to_ascii_lowercase();
        let why = match self.games.get(&key) {
            None => format!("there is no game '{name}'"),
            Some(g) if !g.listed_for(&self.reader()) => private(&g.name),
            Some(_) => return Some(key),
        };
        self.error(line, why);
        None
    }

    /// Whose view of a game this mail's reply may show: the sender's, or while the Master
    /// acts for a power (BECOME), that power's player's, who gets a copy of the reply.
    pub(super) fn reader(&self) -> String {
        let seat = self.became.zip(self.game.as_ref()).and_then(|(p, name)| {
            let g = self.games.get(name)?;
            Some(g.seat_of(p)?.member.address.clone())
        });
        seat.unwrap_or_else(|| self.letter.reply_to.clone())
    }

    /// LIST (the open games), LIST FULL (`full`: every game) or LIST <game>.
    pub(in crate::judge) fn list(&mut self, line: &str, name: Option<&str>, full: bool) {
        match name {
            None => self.list_page(Page {
                from: String::new(),
                full,
            }),
            Some(name) => {
                let Some(key) = self.game_to_show(line, name) else {
                    return;
                };
                let out = self.describe(&self.games[&key]);
                self.lines.extend(out);
            }
        }
    }

    /// Whether LIST shows this game to `reader`: listed to them, and (issue 36: "a game
    /// whose Master never confirmed is not listed") its Master confirmed, or is the reader.
    fn shown_to(&self, g: &Listed, reader: &str) -> bool {
        g.listed_for(reader)
            && (!self.standing.unlisted.contains(&g.name) || g.master.eq_ignore_ascii_case(reader))
    }

    /// The stored summaries `stored` with the games this mail holds (loaded, made or changed
    /// above the LIST: a CREATE, a SET COMMENT) as they stand now in their place, those of
    /// these statuses from `from` on, by name.
    fn merged(&self, stored: &[Listed], statuses: &[&str], from: &str) -> Vec<Listed> {
        let mut rows: Vec<Listed> = stored
            .iter()
            .filter(|r| !self.games.contains_key(&r.name))
            .cloned()
            .chain(
                self.games
                    .values()
                    .filter(|g| g.name.as_str() >= from && statuses.contains(&g.status.word()))
                    .map(|g| Listed::of(self.judge, g)),
            )
            .collect();
        rows.sort_by(|a, b| a.name.cmp(&b.name));
        rows
    }

    /// A page of the table of games the sender may see, in sections (each only if it has a
    /// game): forming, running (paused ones too), and with `full` finished; at most
    /// [`LIST_PAGE`] games, in name order from `page.from`, and a line naming the next
    /// page when there is one.
    pub(in crate::judge) fn list_page(&mut self, page: Page) {
        let reader = self.reader();
        let Some(rows) = self.standing.pages.get(&page) else {
            self.say(format!(
                "LIST: at most {PAGES_PER_MAIL} different pages of the list are answered in one mail."
            ));
            return;
        };
        let rows = self.merged(rows, page.statuses(), &page.from);
        let mut seen: Vec<&Listed> = rows.iter().filter(|g| self.shown_to(g, &reader)).collect();
        let next = seen.get(LIST_PAGE).map(|g| g.name.clone());
        seen.truncate(LIST_PAGE);
        let finished = if page.full {
            seen.iter().any(|g| g.status == Status::Finished)
        } else {
            self.merged(&self.standing.finished, &["finished"], "")
                .iter()
                .any(|g| self.shown_to(g, &reader))
        };
        if seen.is_empty() && !page.from.is_empty() {
            self.say(format!(
                "No games from '{}' on. LIST starts from the first.",
                page.from
            ));
            return;
        }
        if seen.is_empty() && !finished {
            self.say(
                "No games on this judge yet. Start one with CREATE ?<game> <password> [<variant>].",
            );
            return;
        }
        let sections = [
            (
                "Forming (join one with SIGNON ?<game> <password>):",
                &[Status::Forming][..],
            ),
            ("Running:", &[Status::Running, Status::Paused][..]),
            ("Finished:", &[Status::Finished][..]),
        ];
        let mut out = Vec::new();
        for (title, kinds) in sections {
            let rows: Vec<String> = seen
                .iter()
                .filter(|g| kinds.contains(&g.status))
                .flat_map(|g| row(g))
                .collect();
            if rows.is_empty() {
                continue;
            }
            if !out.is_empty() {
                out.push(String::new());
            }
            out.push(title.to_string());
            out.push(format!(
                "{:<13}{:<11}{:<14}{:<8}deadline",
                "game", "variant", "status", "phase"
            ));
            out.extend(rows);
        }
        if let Some(next) = next {
            out.push(String::new());
            let full = if page.full { " FULL" } else { "" };
            out.push(format!(
                "These are {LIST_PAGE} games; the next ones: LIST{full} FROM {next}"
            ));
        }
        if !page.full && finished {
            if out.is_empty() {
                out.push("No games are forming or running.".to_string());
            } else {
                out.push(String::new());
            }
            out.push("LIST FULL shows the finished games too.".to_string());
        }
        self.lines.extend(out);
    }

    /// LIST <game>: its settings, each power's state and the board in words.
    fn describe(&self, g: &Game) -> Vec<String> {
        let judge = self.judge;
        let variant = judge.variant(g);
        let map = judge.map_of(g);
        // The reply's own header names the judge: one `:: Judge:` line a reply.
        let mut out = vec![format!(
            "Game '{}': {} ({}).",
            g.name,
            g.status.word(),
            g.variant
        )];
        if let Some(c) = &g.settings.comment {
            out.push(format!("Comment: {c}"));
        }
        if let Some(pos) = &g.position {
            out.push(format!("Phase: {}.", variant.calendar.show(pos.phase)));
        }
        if let (Some(d), Status::Running | Status::Paused) = (g.deadline, g.status) {
            let tz = judge.zone_for(g, &self.letter.reply_to);
            out.push(format!(
                "Deadline: {}.",
                crate::judge::deadline::show(d, tz)
            ));
        }
        out.push(format!(
            "Press: {}{}. {} games.",
            match g.settings.press {
                PressPolicy::White => "white",
                PressPolicy::Grey => "white and grey",
                PressPolicy::None => "none",
            },
            if g.settings.partial {
                ", partial allowed"
            } else {
                ", broadcast only"
            },
            if g.settings.nmr { "NMR" } else { "NoNMR" }
        ));
        if !g.settings.minor_press {
            out.push(
                "No minor press: in retreats and adjustments, press goes only to and from the Master."
                    .into(),
            );
        }
        let p = &g.settings.privacy;
        let mut kinds = Vec::new();
        if p.anonymous {
            kinds.push("anonymous (players and addresses hidden from all but the Master)");
        }
        if p.join_word.is_some() {
            kinds.push("private (newcomers need the join word)");
        } else if p.unlisted {
            kinds.push("unlisted");
        }
        if !p.allow.is_empty() {
            kinds.push("by invitation");
        }
        if !kinds.is_empty() {
            out.push(format!("This game is {}.", kinds.join(", ")));
        }
        if g.status == Status::Forming {
            out.push(format!(
                "Players joined: {} of {}.",
                g.seats.len(),
                map.powers.len()
            ));
        } else {
            if let (Status::Finished, Some(o)) = (g.status, &g.outcome) {
                out.push(format!("{o}."));
            }
            let acting = orders::must_act(judge, g);
            for p in map.power_ids() {
                let state = match g.seat_of(p).map(|s| s.state) {
                    // A finished game waits for no one: its powers as they ended.
                    _ if g.status == Status::Finished => String::new(),
                    Some(SeatState::Abandoned) => "abandoned (open for takeover)".to_string(),
                    Some(SeatState::Disorder) => "civil disorder".to_string(),
                    None => "nobody plays it: civil disorder (open for takeover)".to_string(),
                    _ if !acting.contains(&p) => "no orders needed".to_string(),
                    _ if orders::ready(judge, g, p) => "orders in".to_string(),
                    _ => "orders due".to_string(),
                };
                let (c, u) = g
                    .position
                    .as_ref()
                    .map_or((0, 0), |pos| (pos.centre_count(p), pos.unit_count(p)));
                let state = if state.is_empty() {
                    state
                } else {
                    format!(", {state}")
                };
                out.push(format!(
                    "  {} ({}): {c} centres, {u} units{state}",
                    map.power(p).name,
                    map.power(p).letter
                ));
            }
            if let Some(pos) = &g.position {
                out.push(String::new());
                out.extend(crate::judge::board::describe(variant, map, pos));
            }
        }
        out
    }
}

/// One game's line of the table, and the Master's comment below it if there is one.
fn row(g: &Listed) -> Vec<String> {
    let status = if g.status == Status::Forming {
        format!("forming {}/{}", g.seats, g.powers)
    } else {
        g.status.word().to_string()
    };
    let mut rows = vec![format!(
        "{:<13}{:<11}{:<14}{:<8}{}",
        g.name,
        g.variant,
        status,
        g.phase.as_deref().unwrap_or("-"),
        g.deadline_shown.as_deref().unwrap_or("-")
    )];
    rows.extend(g.comment.as_ref().map(|c| format!("  {c}")));
    rows
}
