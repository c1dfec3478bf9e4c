//! The mail commands. Each family's file (`info.rs`, `player.rs`, …) holds its commands
//! whole: their typed values (an enum per family), their rows ([`def::Def`]: spellings,
//! right form, secret words, who may give them, how the line is read) and the exhaustive
//! match that applies them. This file joins the families: [`Command`], the list of rows the
//! parser reads ([`keywords`]), the permission check and the dispatch, an exhaustive match
//! with no catch-all, so a command cannot be read and then do nothing.
//!
//! To add a command: its variant, its row in the family's `DEFS` and its arm, all in the
//! family's file, and its line in the help file (`tests/help_truth.rs` checks).

#[cfg(test)]
mod absences;
mod address;
pub(crate) mod context;
pub mod def;
mod dips;
mod draws;
mod guard;
mod history;
mod info;
mod life;
mod listing;
mod orders;
pub mod parse;
mod player;
mod press;
mod privacy;
mod rollback;
mod settings;
mod signon;
mod speak;
mod timing;

pub use def::{Def, Names, Seat, Who};
pub use dips::DipsCommand;
pub use history::Span;
pub use info::InfoCommand;
pub use life::LifeCommand;
pub use orders::OrdersCommand;
pub use parse::{parse, parse_command, Parsed};
pub use player::PlayerCommand;
pub use press::PressCommand;
pub use privacy::PrivacyCommand;
pub use settings::SettingsCommand;
pub use signon::{SignonAs, SignonCommand};
pub use timing::TimingCommand;

use context::{Role, Session};

/// Declares [`Command`], one variant per family and SIGNOFF, with each family's value
/// turned into a command (`From`) and compared with one (`PartialEq`).
macro_rules! families {
    ($($(#[$doc:meta])* $variant:ident($ty:ty),)*) => {
        /// A command line, by family: each family's file applies its own.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Command {
            $($(#[$doc])* $variant($ty),)*
            /// SIGNOFF: the end of the mail (read by the session itself).
            Signoff,
        }
        $(
            impl From<$ty> for Command {
                fn from(c: $ty) -> Command {
                    Command::$variant(c)
                }
            }

            impl PartialEq<$ty> for Command {
                fn eq(&self, other: &$ty) -> bool {
                    matches!(self, Command::$variant(c) if c == other)
                }
            }
        )*
    };
}

families!(
    /// HELP, GET, GET MAP, VERSION, LIST, HISTORY, SUMMARY (`info.rs`).
    Info(InfoCommand),
    /// CREATE, SIGNON, OBSERVE (`signon.rs`).
    Signon(SignonCommand),
    /// Order lines, CLEAR, PHASE (`orders.rs`).
    Orders(OrdersCommand),
    /// WAIT, MAP, MYZONE, PASSWORD, ADDRESS, ABSENCE, DRAW, CONCEDE, PREFERENCE, RESIGN
    /// (`player.rs`).
    Player(PlayerCommand),
    /// PRESS, BROADCAST, ENDPRESS (`press.rs`).
    Press(PressCommand),
    /// INTERCEPT, PROTECT (`dips.rs`).
    Dips(DipsCommand),
    /// The Master's deadlines, timing, zone, PAUSE, RESUME (`timing.rs`).
    Timing(TimingCommand),
    /// START, PROCESS, PREVIEW, BECOME, EJECT, ROLLBACK, TERMINATE (`life.rs`; ROLLBACK's
    /// work in `rollback.rs`).
    Life(LifeCommand),
    /// NMR, press policy, partial press, rule switches, an unknown SET (`settings.rs`).
    Settings(SettingsCommand),
    /// Anonymity, listing, the join word, allow and deny lists (`privacy.rs`).
    Privacy(PrivacyCommand),
);

/// SIGNOFF, which ends the mail.
const END: &[Def] = &[
    Def::line("SIGNOFF", Who::Anyone, || Command::Signoff),
    Def::args("SIGN OFF", "SIGNOFF", Who::Anyone, |_| {
        Some(Command::Signoff)
    }),
];

/// Every family's rows.
const FAMILIES: &[&[Def]] = &[
    info::DEFS,
    signon::DEFS,
    END,
    orders::DEFS,
    press::DEFS,
    dips::DEFS,
    player::DEFS,
    timing::DEFS,
    life::DEFS,
    settings::DEFS,
    privacy::DEFS,
];

/// Every command herald reads: the parser knows no other words, so the help files and the
/// guides are checked against these rows (`tests/help_truth.rs`).
pub fn keywords() -> impl Iterator<Item = &'static Def> {
    FAMILIES.iter().flat_map(|family| family.iter())
}

impl Command {
    /// The game the command names, to be loaded before the mail is read (see
    /// [`crate::judge::session::needed_games`]).
    pub fn names(&self) -> Names {
        match self {
            Command::Info(c) => c.names(),
            Command::Signon(c) => c.names(),
            Command::Orders(_)
            | Command::Player(_)
            | Command::Press(_)
            | Command::Dips(_)
            | Command::Timing(_)
            | Command::Life(_)
            | Command::Settings(_)
            | Command::Privacy(_)
            | Command::Signoff => Names::Nothing,
        }
    }

    /// A line that is no command (read, after SIGNON, as an order).
    fn is_other(&self) -> bool {
        matches!(self, Command::Orders(OrdersCommand::Order(_)))
    }
}

/// Whether a line reads like a unit's order (`A Par-Bur`, `F Nth C A Lon-Nwy`, `Build A
/// Par`): a unit kind or an adjustment word, then a place.
fn looks_like_order(line: &str) -> bool {
    let words: Vec<String> = line
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_uppercase())
        .collect();
    let first = words.first().map(String::as_str);
    let unit = matches!(first, Some("A" | "F" | "ARMY" | "FLEET" | "A/F"));
    let adjust = matches!(first, Some("BUILD" | "REMOVE" | "DISBAND" | "WAIVE"));
    ((unit || adjust) && words.len() >= 2) || first == Some("WAIVE")
}

impl Session<'_> {
    /// Applies one command line through the table; false stops reading the mail.
    pub(in crate::judge) fn command(&mut self, line: &str, parsed: Parsed) -> bool {
        let Parsed { def, command } = parsed;
        // A line that starts with a command's words but does not fit it: its right form.
        if command.is_other()
            || matches!(command, Command::Settings(SettingsCommand::UnknownSet(_)))
        {
            if let Some((name, form)) = parse::misfit(line) {
                self.recognised = true;
                self.error(line, format!("{name} did not read: write {form}"));
                return true;
            }
        }
        if self.role == Role::Nobody && def.who != Who::Anyone {
            if command.is_other() {
                // Before SIGNON, a line that is no command is only worth a word once the
                // mail has shown it holds commands (so a stranger's chatter gets the help).
                if looks_like_order(line) {
                    self.recognised = true;
                    self.error(line, "orders come after SIGNON: put 'SIGNON <power letter><game> <password>' (e.g. SIGNON Fwar secret) above them");
                } else if self.recognised {
                    self.error(line, "not a command; orders and SET commands come after SIGNON <power><game> <password>");
                }
            } else {
                self.recognised = true;
                self.error(
                    line,
                    "sign on first: SIGNON <power letter><game> <password>",
                );
            }
            return true;
        }
        self.recognised = true;
        match def.who {
            Who::Anyone => {}
            Who::Signed(seats, why) => {
                if !self.role.seat().is_some_and(|seat| seats.contains(&seat)) {
                    let why = match (command.is_other(), self.role) {
                        (true, Role::Master) => {
                            "not a Master command; to order for a power, BECOME <letter> first"
                        }
                        // Someone who just joined is a player already: told when orders
                        // come, not that only players send them (issue 25).
                        (true, Role::Joiner(_)) => {
                            "not a command; you have joined, and orders come once the Master starts the game and gives out the powers"
                        }
                        (true, Role::Observer) => {
                            "not a command; observers send no orders"
                        }
                        _ => why,
                    };
                    self.error(line, why);
                    return true;
                }
            }
            Who::Master => {
                if self.role != Role::Master && self.became.is_none() {
                    let who = match self.role {
                        Role::Power(p) => format!(
                            "you are signed on as {}",
                            self.judge.map_of(self.game()).power(p).name
                        ),
                        Role::Observer => "you are signed on as an observer".into(),
                        Role::Joiner(_) => "you are signed on as a player".into(),
                        Role::Nobody | Role::Master => "you are not signed on".into(),
                    };
                    self.error(
                        line,
                        format!("only the Master may do this, and {who} (the Master signs on with SIGNON M<game> <password>)"),
                    );
                    return true;
                }
                self.log(line.to_string());
            }
        }
        match command {
            // Asked before in this mail, or the reply is full: not run again.
            Command::Info(c) => !self.info_may_run(line) || self.info_command(line, c),
            Command::Signon(c) => self.signon_command(line, c),
            Command::Orders(c) => self.orders_command(line, c),
            Command::Player(c) => self.player_command(line, c),
            Command::Press(c) => self.press_command(line, c),
            Command::Dips(c) => self.dips_command(line, c),
            Command::Timing(c) => self.timing_command(line, c),
            Command::Life(c) => self.life_command(line, c),
            Command::Settings(c) => self.settings_command(line, c),
            Command::Privacy(c) => self.privacy_command(line, c),
            Command::Signoff => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::def::{Read, POWER};
    use super::parse::{misfit, without_secrets};
    use super::*;
    use crate::judge::listed::Page;

    #[test]
    fn the_rows_name_the_games_to_load_and_who_may_act() {
        for (line, who, names) in [
            ("LIST", Who::Anyone, Names::Page(Page::default())),
            (
                "LIST FROM War",
                Who::Anyone,
                Names::Page(Page {
                    from: "war".into(),
                    full: false,
                }),
            ),
            (
                "LIST FULL FROM war",
                Who::Anyone,
                Names::Page(Page {
                    from: "war".into(),
                    full: true,
                }),
            ),
            ("LIST war", Who::Anyone, Names::Game("war".into())),
            (
                "GET MAP standard",
                Who::Anyone,
                Names::Game("standard".into()),
            ),
            ("GET MAP", Who::Anyone, Names::Nothing),
            ("SIGNON Fwar pw", Who::Anyone, Names::Game("war".into())),
            ("CREATE ?war pw", Who::Anyone, Names::Game("war".into())),
            ("SET DEADLINE 2026-12-24", Who::Master, Names::Nothing),
            ("PROCESS", Who::Master, Names::Nothing),
            ("SET NMR", Who::Master, Names::Nothing),
            ("SET FROBNICATE", Who::Anyone, Names::Nothing),
            ("SIGNOFF", Who::Anyone, Names::Nothing),
        ] {
            let Parsed { def, command } = parse(line);
            assert_eq!((def.who, command.names()), (who, names), "{line}");
        }
        let parsed = parse("A Par-Bur");
        assert!(parsed.command.is_other());
        assert!(matches!(parsed.def.who, Who::Signed(seats, _) if seats == POWER));
    }

    /// Each command's row is whole: a command that reads arguments has its right form, the
    /// example in the form reads back as that command, and a name is never another row's.
    #[test]
    fn every_row_is_whole() {
        for def in keywords() {
            if let Read::Args(_) = def.read {
                let Some(form) = def.form else {
                    panic!("{} reads arguments but has no form", def.name);
                };
                if let Some((_, example)) = form.split_once("e.g. ") {
                    let example = example.split(" (").next().unwrap_or(example);
                    assert_eq!(parse(example).def.name, def.name, "{form}");
                }
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for def in keywords() {
            assert!(names.insert(def.name), "two rows are named {}", def.name);
        }
        let mut seen = std::collections::BTreeSet::new();
        for def in keywords() {
            let kind = matches!(def.read, Read::Line(_));
            for spelling in def.spellings() {
                assert!(
                    seen.insert((kind, spelling)),
                    "{spelling} is spelled by two rows"
                );
            }
        }
    }

    #[test]
    fn a_line_that_does_not_fit_finds_its_command() {
        assert_eq!(misfit("set address").map(|f| f.0), Some("SET ADDRESS"));
        assert_eq!(
            misfit("SET ADDRESS a@b.org c@d.org").map(|f| f.0),
            Some("SET ADDRESS")
        );
        assert_eq!(misfit("become France").map(|f| f.0), Some("BECOME"));
        assert_eq!(misfit("A Par-Bur"), None);
        assert_eq!(misfit("SET FOO"), None);
    }

    /// The secret words come from the rows: passwords and join words never shown again.
    #[test]
    fn secrets_are_hidden_by_their_rows() {
        for (line, shown) in [
            ("SIGNON Fwar secret", "SIGNON Fwar ****"),
            ("sign on Fwar secret word", "sign on Fwar **** ****"),
            ("SIGNON Fwar secret Tuesdays", "SIGNON Fwar **** ****"),
            ("OBSERVE war secret", "OBSERVE war ****"),
            ("watch war secret", "watch war ****"),
            ("CREATE ?war secret standard", "CREATE ?war **** standard"),
            ("SET PASSWORD new", "SET PASSWORD ****"),
            ("SETPASSWORD new", "SETPASSWORD ****"),
            ("set private Tuesdays", "set private ****"),
            ("SET PRIVATE", "SET PRIVATE"),
            ("SIGNON Fwar", "SIGNON Fwar"),
            ("A Par-Bur", "A Par-Bur"),
        ] {
            assert_eq!(without_secrets(line), shown, "{line}");
        }
    }
}
