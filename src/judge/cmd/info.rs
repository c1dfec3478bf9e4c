//! HELP, GET, GET MAP, VERSION, LIST, HISTORY and SUMMARY: what anyone may ask, signed on or not.

use super::def::{Def, Names, Who};
use super::history::{span, Span};
use super::listing::private;
use crate::judge::budget::Picture;
use crate::judge::cmd::context::Session;
use crate::judge::listed::Page;
use crate::judge::pictures;
use crate::judge::render::TOPICS;

/// What anyone may ask, signed on or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoCommand {
    /// `HELP`
    Help,
    /// `GET topic`
    Get(String),
    /// `GET MAP <variant or game> [SVG]`: every space with its kind, coasts and neighbours,
    /// and a picture of the board.
    Map(Option<String>, bool),
    /// `LIST [game]`: open games (forming and running apart), or one game.
    List(Option<String>),
    /// `LIST FULL`: every game the sender may see, finished ones too.
    ListFull,
    /// `LIST [FULL] FROM <game>`: the page of the list that starts at that name.
    ListFrom(String, bool),
    /// `HISTORY game [FROM phase] [TO phase] [LINES n]`
    History(String, Span),
    /// `SUMMARY game`
    Summary(String),
    /// `VERSION`
    Version,
}

use InfoCommand as C;

/// The information commands.
pub(super) const DEFS: &[Def] = &[
    Def::line("HELP", Who::Anyone, || C::Help.into()),
    Def::args(
        "GET MAP",
        "GET MAP <variant or game> [SVG], e.g. GET MAP standard",
        Who::Anyone,
        |w| {
            let svg = |a: Option<&str>| a == Some("SVG");
            Some(
                match (w.arg(0), w.upper(1)) {
                    (_, _) if svg(w.upper(0)) => C::Map(None, true),
                    (a, b) => C::Map(a, svg(b)),
                }
                .into(),
            )
        },
    )
    .aka(&["SEND MAP"]),
    Def::args("GET", "GET <file>, e.g. GET master", Who::Anyone, |w| {
        Some(
            w.arg(0)
                .map_or(C::Help, |t| C::Get(t.to_ascii_lowercase()))
                .into(),
        )
    })
    .aka(&["SEND"]),
    Def::line("LIST FULL", Who::Anyone, || C::ListFull.into()),
    Def::args(
        "LIST FULL FROM",
        "LIST FULL FROM <game>, e.g. LIST FULL FROM war",
        Who::Anyone,
        |w| {
            w.count(1)?;
            Some(C::ListFrom(w.arg(0)?, true).into())
        },
    ),
    Def::args(
        "LIST",
        "LIST, LIST FULL, LIST FROM <game> or LIST <game>, e.g. LIST FROM war",
        Who::Anyone,
        |w| match (w.upper(0), w.arg(1)) {
            (Some("FROM"), Some(from)) if w.count(2).is_some() => {
                Some(C::ListFrom(from, false).into())
            }
            _ => Some(C::List(w.arg(0)).into()),
        },
    ),
    Def::args(
        "HISTORY",
        "HISTORY <game> [FROM <phase or date>] [TO <phase or date>] [LINES <n>], e.g. HISTORY war FROM S1902M TO F1903M",
        Who::Anyone,
        |w| Some(C::History(w.arg(0)?, span(w)).into()),
    ),
    Def::args(
        "SUMMARY",
        "SUMMARY <game>, e.g. SUMMARY war",
        Who::Anyone,
        |w| w.arg(0).map(|g| C::Summary(g).into()),
    ),
    Def::line("VERSION", Who::Anyone, || C::Version.into()),
];

impl InfoCommand {
    /// The game the command names, to be loaded before the mail is read: `GET MAP` may name
    /// a game (its board as it stands) as well as a variant; a bare LIST every game.
    pub fn names(&self) -> Names {
        match self {
            C::Help | C::Get(_) | C::Map(None, _) | C::Version => Names::Nothing,
            C::List(None) => Names::Page(Page::default()),
            C::ListFull => Names::Page(Page {
                from: String::new(),
                full: true,
            }),
            C::ListFrom(from, full) => Names::Page(Page {
                from: from.to_ascii_lowercase(),
                full: *full,
            }),
            C::Map(Some(g), _) | C::List(Some(g)) | C::History(g, _) | C::Summary(g) => {
                Names::Game(g.clone())
            }
        }
    }
}

impl Session<'_> {
    /// Whether an information command is to run: not when the same command was answered
    /// earlier in this mail by the same sender (a short line says so) nor once the reply
    /// is full (see [`crate::judge::budget`]).
    pub(in crate::judge) fn info_may_run(&mut self, line: &str) -> bool {
        let who = format!("{:?} {:?}", self.game, self.role);
        match self.budget.info_may_run(&who, line) {
            Some(true) => true,
            Some(false) => {
                self.say(format!("{}: answered above.", line.trim()));
                false
            }
            None => false,
        }
    }

    /// Applies a command of this family.
    pub(in crate::judge) fn info_command(&mut self, line: &str, command: InfoCommand) -> bool {
        let _judge = self.judge;
        match command {
            C::Help => {
                let text = self.judge.templates.render(
                    "help/index.txt",
                    minijinja::context! { judge => &self.judge.address },
                );
                self.lines.extend(text.lines().map(str::to_string));
            }
            C::Get(topic) => {
                if TOPICS.contains(&topic.as_str()) {
                    let text = self.judge.templates.render(
                        &format!("help/{topic}.txt"),
                        minijinja::context! { judge => &self.judge.address },
                    );
                    self.lines.extend(text.lines().map(str::to_string));
                } else {
                    self.error(
                        line,
                        format!("no help topic '{topic}'; topics: {}", TOPICS.join(", ")),
                    );
                }
            }
            C::Map(name, svg) => {
                let name = name.unwrap_or_else(|| "standard".into());
                let judge = self.judge;
                // A private game's board is for its members: to others the name is a variant's.
                let reader = self.reader();
                let key = name.to_ascii_lowercase();
                let found = match self.games.get(&key) {
                    Some(g) if g.listed_for(&reader) => {
                        Ok((judge.variant(g), judge.map_of(g), Some(key)))
                    }
                    hidden => judge
                        .catalog
                        .variant_or_abbreviation(&name)
                        .map(|v| (v, &v.map, None))
                        .map_err(|e| hidden.map_or_else(|| e.to_string(), |g| private(&g.name))),
                };
                match found {
                    Ok((variant, map, _)) if self.limits.unconfirmed => {
                        // Nothing drawn for an address that has not confirmed, said first so
                        // that a cut answer still says it (issue 36, point 1).
                        self.say("No picture: answers to an address that has not confirmed carry none (see below). Once it has confirmed, GET MAP again for the pictures.");
                        self.lines
                            .extend(crate::judge::mapinfo::describe(variant, map));
                    }
                    Ok((variant, map, game)) => {
                        self.lines
                            .extend(crate::judge::mapinfo::describe(variant, map));
                        // One picture per map and format in a mail, and only while the reply
                        // has room for its files: decided before it is drawn.
                        let shown = game.clone().unwrap_or_else(|| variant.name.clone());
                        // A map with regions is shown in several pictures (the world's
                        // overview and regions): as many as the reply has room for, in
                        // order, the rest counted in the notice of what was cut.
                        let pictures = judge
                            .catalog
                            .map_text(variant)
                            .map_or(1, |text| judge.painter.count(map, text));
                        let wanted = pictures * if svg { 2 } else { 1 };
                        let attached = self.attachments.len();
                        let room = self.limits.attachments.saturating_sub(attached);
                        let files = wanted.min(room.max(1));
                        let mut files =
                            match self
                                .budget
                                .picture(&shown, svg, files, attached, self.limits)
                            {
                                Picture::Draw => match game.and_then(|k| self.games.get(&k)) {
                                    Some(g) => pictures::game_picture(judge, g, svg),
                                    None => pictures::opening_picture(judge, variant, svg),
                                },
                                Picture::Attached => {
                                    self.say("The picture of this board is attached once, above.");
                                    Vec::new()
                                }
                                Picture::NoRoom => {
                                    self.say(format!(
                                        "No picture: a reply carries at most {} files.",
                                        self.limits.attachments
                                    ));
                                    Vec::new()
                                }
                            };
                        if files.len() > room {
                            self.budget.no_room_for_files += files.len() - room;
                            files.truncate(room);
                            self.say(format!(
                                "Only {room} of the {wanted} files of this board's pictures are attached: a reply carries at most {} files.",
                                self.limits.attachments
                            ));
                        }
                        if !files.is_empty() {
                            let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
                            self.say(format!(
                                "The picture of the board is attached: {}.",
                                names.join(", ")
                            ));
                        }
                        self.attachments.extend(files);
                    }
                    Err(why) => self.error(line, format!("GET MAP: {why}")),
                }
            }
            C::Version => {
                self.say(format!(
                    "herald {} (a play-by-email Diplomacy judge)",
                    env!("CARGO_PKG_VERSION")
                ));
            }
            C::List(name) => {
                self.list(line, name.as_deref(), false);
            }
            C::ListFull => self.list(line, None, true),
            C::ListFrom(from, full) => self.list_page(Page {
                from: from.to_ascii_lowercase(),
                full,
            }),
            C::History(name, span) => self.history(line, &name, span),
            C::Summary(name) => {
                if let Some(key) = self.game_to_show(line, &name) {
                    let g = &self.games[&key];
                    let text = crate::judge::summary::summary_text(self.judge, g, &self.reader());
                    self.lines.extend(text);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::testkit::{judge, mail, reply, start, started, GM};
    use crate::judge::{needed_games, Games};

    /// `GET MAP dlg` for a Deluge game named `dlg` answered "unknown variant 'dlg'" before
    /// SIGNON and the game's map after it: the game was loaded only when SIGNON named it.
    /// Each mail here gets only the games it names, as the service loads them.
    #[test]
    fn get_map_finds_a_game_or_a_variant_before_and_after_signon() {
        let j = judge();
        let mut all = Games::new();
        mail(&j, &mut all, GM, "CREATE ?dlg gmpass deluge", start());
        let ask = |from: &str, body: &str| {
            let mut loaded: Games = needed_games(body)
                .names
                .iter()
                .filter_map(|n| all.get(n).map(|g| (n.clone(), g.clone())))
                .collect();
            let h = mail(&j, &mut loaded, from, body, start());
            reply(&h, from).body.clone()
        };
        let deluge = "Map of deluge: Deluge II";
        for (from, body) in [
            ("x@example.org", "GET MAP dlg"),
            (GM, "GET MAP dlg\nSIGNON Mdlg gmpass"),
            (GM, "SIGNON Mdlg gmpass\nGET MAP dlg"),
            ("x@example.org", "GET MAP deluge"),
            ("x@example.org", "GET MAP DEL"),
            (GM, "SIGNON Mdlg gmpass\nGET MAP del"),
        ] {
            let text = ask(from, body);
            assert!(text.contains(deluge), "{body}: {text}");
            assert!(!text.contains("***"), "{body}: {text}");
        }
        let text = ask("x@example.org", "GET MAP worl");
        assert!(text.contains("Map of world1880"), "{text}");
        let text = ask("x@example.org", "GET MAP dlx");
        assert!(
            text.contains("GET MAP dlx\n  *** GET MAP: unknown variant 'dlx' (known: standard,"),
            "{text}"
        );
    }

    #[test]
    fn anyone_may_ask_without_signing_on() {
        let j = judge();
        let mut games = Games::new();
        let h = mail(
            &j,
            &mut games,
            "x@example.org",
            "HELP\nVERSION\nLIST",
            start(),
        );
        let body = &reply(&h, "x@example.org").body;
        assert!(body.contains("herald 0."), "{body}");
        assert!(body.contains("No games on this judge yet."), "{body}");
        assert!(h.touched.is_empty(), "asking changes nothing");
    }

    /// A finished game waits for no orders: LIST says how it ended and shows each power as it
    /// ended, never "orders due" (the fourth review read "orders due" for every power of a
    /// terminated game).
    #[test]
    fn list_of_a_finished_game_names_its_end_and_asks_for_nothing() {
        let j = judge();
        let mut games = started(&j);
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nTERMINATE", start());
        let h = mail(&j, &mut games, "x@example.org", "LIST g", start());
        let body = &reply(&h, "x@example.org").body;
        assert!(body.contains("Game 'g': finished (standard)."), "{body}");
        assert!(body.contains("\nTerminated by the Master.\n"), "{body}");
        assert!(
            body.contains("  England (E): 3 centres, 3 units\n"),
            "{body}"
        );
        assert!(!body.contains("orders due"), "{body}");
        assert!(!body.contains("orders in"), "{body}");
    }

    #[test]
    fn list_of_a_game_and_errors_name_what_was_wrong() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            GM,
            "LIST g\nGET nosuch\nHISTORY zz",
            start(),
        );
        let body = &reply(&h, GM).body;
        assert!(body.contains("Game 'g': running (standard)."), "{body}");
        assert!(
            body.contains("  England (E): 3 centres, 3 units, orders due"),
            "{body}"
        );
        assert!(
            body.contains("GET nosuch\n  *** no help topic 'nosuch'"),
            "{body}"
        );
        assert!(
            body.contains("HISTORY zz\n  *** there is no game 'zz'"),
            "{body}"
        );
    }
}
