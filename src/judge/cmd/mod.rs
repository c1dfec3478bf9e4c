//! The mail commands, one file per family, and the one table that says for each command
//! which family applies it, who may give it and which game it names. Dispatch, permissions
//! and the loading of games (see [`crate::judge::session::needed_games`]) all read this
//! table, so they cannot disagree.
//!
//! To add a command: its grammar in [`crate::judge::command`], its row in [`spec`], its arm
//! in the family's file.

#[cfg(test)]
mod absences;
pub(crate) mod context;
mod dips;
mod draws;
mod guard;
mod history;
mod info;
mod life;
mod listing;
mod orders;
mod player;
mod press;
mod privacy;
mod rollback;
mod settings;
mod signon;
mod timing;

use super::command::Command;
use context::{Role, Session};

/// The family of commands that applies a command (one file each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// HELP, GET, GET MAP, VERSION, LIST, HISTORY, SUMMARY (`info.rs`).
    Info,
    /// CREATE, SIGNON, OBSERVE (`signon.rs`).
    Signon,
    /// Order lines, CLEAR, PHASE (`orders.rs`).
    Orders,
    /// WAIT, PASSWORD, ADDRESS, ABSENCE, DRAW, PREFERENCE, RESIGN (`player.rs`).
    Player,
    /// PRESS, BROADCAST, ENDPRESS (`press.rs`).
    Press,
    /// INTERCEPT, PROTECT (`dips.rs`).
    Dips,
    /// The Master's deadlines, timing, zone, PAUSE, RESUME (`timing.rs`).
    Timing,
    /// START, PROCESS, PREVIEW, BECOME, EJECT, ROLLBACK, TERMINATE (`life.rs`; ROLLBACK in
    /// `rollback.rs`).
    Life,
    /// NMR, press policy, partial press, rule switches (`settings.rs`).
    Settings,
    /// Anonymity, listing, the join word, allow and deny lists (`privacy.rs`).
    Privacy,
    /// SIGNOFF: the end of the mail (read by the session itself).
    End,
}

/// A role a signed-on sender can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A player of a forming game (`SIGNON ?game`).
    Joiner,
    /// A power.
    Power,
    /// The Master.
    Master,
    /// An observer.
    Observer,
}

/// Who may give a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// Anyone, signed on or not.
    Anyone,
    /// After SIGNON, in one of these roles; anyone else is told why not.
    Signed(&'static [Seat], &'static str),
    /// The Master (also while acting for a power through BECOME). Logged.
    Master,
}

/// The game a command names, to be loaded before the mail is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Names {
    /// None: it acts on the game signed on to, if any.
    Nothing,
    /// This game.
    Game(String),
    /// Every game (a bare LIST).
    All,
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The family that applies it.
    pub family: Family,
    /// Who may give it.
    pub who: Who,
    /// The game it names.
    pub names: Names,
}

const ANY_SEAT: &[Seat] = &[Seat::Joiner, Seat::Power, Seat::Master, Seat::Observer];
const POWER: &[Seat] = &[Seat::Power];

/// The table: for each command, its family, who may give it and the game it names.
pub fn spec(command: &Command) -> Spec {
    use Command as C;
    use Family as F;
    let (family, who, names) = match command {
        C::Help | C::Get(_) | C::Map(None, _) | C::Version => {
            (F::Info, Who::Anyone, Names::Nothing)
        }
        C::List(None) | C::ListFull => (F::Info, Who::Anyone, Names::All),
        // `GET MAP <name>` may name a game (its map as it stands) as well as a variant.
        C::Map(Some(g), _) | C::List(Some(g)) | C::History(g, _) | C::Summary(g) => {
            (F::Info, Who::Anyone, Names::Game(g.clone()))
        }
        C::Create { game, .. } | C::Signon { game, .. } | C::Observe { game, .. } => {
            (F::Signon, Who::Anyone, Names::Game(game.clone()))
        }
        C::Signoff => (F::End, Who::Anyone, Names::Nothing),
        C::Other(_) => (
            F::Orders,
            Who::Signed(POWER, "not a command (only players send orders)"),
            Names::Nothing,
        ),
        C::Clear => (
            F::Orders,
            Who::Signed(POWER, "only a power has orders to clear"),
            Names::Nothing,
        ),
        C::Phase(_) => (F::Orders, Who::Signed(ANY_SEAT, ""), Names::Nothing),
        C::Wait(_) => (
            F::Player,
            Who::Signed(POWER, "only a power sets WAIT"),
            Names::Nothing,
        ),
        C::MyZone(_) => (
            F::Player,
            Who::Signed(ANY_SEAT, "only a player sets a zone of their own"),
            Names::Nothing,
        ),
        C::OrderMap(_) => (
            F::Player,
            Who::Signed(POWER, "only a power has orders to draw"),
            Names::Nothing,
        ),
        C::Password(_) => (F::Player, Who::Signed(ANY_SEAT, ""), Names::Nothing),
        C::Address(_) => (
            F::Player,
            Who::Signed(
                &[Seat::Joiner, Seat::Power, Seat::Master],
                "observers change their address by observing again from it",
            ),
            Names::Nothing,
        ),
        C::Absence(_) | C::NoAbsence => (
            F::Player,
            Who::Signed(POWER, "only a power sets absences"),
            Names::Nothing,
        ),
        C::Draw(_) | C::Concede(_) => (
            F::Player,
            Who::Signed(POWER, "only a power votes for a draw or a concession"),
            Names::Nothing,
        ),
        C::Preference(_) => (
            F::Player,
            Who::Signed(
                &[Seat::Joiner],
                "preferences are set before START, after SIGNON ?<game>",
            ),
            Names::Nothing,
        ),
        C::Resign => (
            F::Player,
            Who::Signed(
                &[Seat::Joiner, Seat::Power],
                "only a player resigns (the Master ends a game with TERMINATE)",
            ),
            Names::Nothing,
        ),
        C::Press { .. } | C::EndPress => (F::Press, Who::Signed(ANY_SEAT, ""), Names::Nothing),
        C::Intercept(..) | C::Protect => (
            F::Dips,
            Who::Signed(POWER, "only a power spends dip points"),
            Names::Nothing,
        ),
        C::Pause
        | C::Resume
        | C::Deadline(_)
        | C::Grace(_)
        | C::StartAfter(_)
        | C::Timing(..)
        | C::Zone(_) => (F::Timing, Who::Master, Names::Nothing),
        C::Start
        | C::ForceBegin
        | C::Process { .. }
        | C::Preview
        | C::Become(_)
        | C::Eject(_)
        | C::Rollback(_)
        | C::Terminate => (F::Life, Who::Master, Names::Nothing),
        C::Nmr(_)
        | C::PressPolicy(_)
        | C::Partial(_)
        | C::Comment(_)
        | C::MinorPress(_)
        | C::Warnings(_)
        | C::Dias(_)
        | C::Concessions(_)
        | C::Rule(_) => (F::Settings, Who::Master, Names::Nothing),
        // Named as unknown to whoever sent it, not refused as the Master's.
        C::UnknownSet(_) => (F::Settings, Who::Anyone, Names::Nothing),
        C::Anonymous(_)
        | C::Reveal(_)
        | C::Quiet(_)
        | C::Listed(_)
        | C::JoinWord(_)
        | C::Public
        | C::Invite { .. } => (F::Privacy, Who::Master, Names::Nothing),
    };
    Spec { family, who, names }
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
    pub(in crate::judge) fn command(&mut self, line: &str, command: Command) -> bool {
        // A line that starts with a command's words but does not fit it: its right form.
        if matches!(command, Command::Other(_) | Command::UnknownSet(_)) {
            if let Some((name, form)) = crate::judge::forms::misfit(line) {
                self.recognised = true;
                self.error(line, format!("{name} did not read: write {form}"));
                return true;
            }
        }
        let spec = spec(&command);
        if self.role == Role::Nobody && spec.who != Who::Anyone {
            if matches!(command, Command::Other(_)) {
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
        match spec.who {
            Who::Anyone => {}
            Who::Signed(seats, why) => {
                if !self.role.seat().is_some_and(|seat| seats.contains(&seat)) {
                    let why = match (&command, self.role) {
                        (Command::Other(_), Role::Master) => {
                            "not a Master command; to order for a power, BECOME <letter> first"
                        }
                        // Someone who just joined is a player already: told when orders
                        // come, not that only players send them (issue 25).
                        (Command::Other(_), Role::Joiner(_)) => {
                            "not a command; you have joined, and orders come once the Master starts the game and gives out the powers"
                        }
                        (Command::Other(_), Role::Observer) => {
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
        match spec.family {
            // Asked before in this mail, or the reply is full: not run again.
            Family::Info => {
                if self.info_may_run(line) {
                    self.info_command(line, command)
                } else {
                    true
                }
            }
            Family::Signon => self.signon_command(line, command),
            Family::Orders => self.orders_command(line, command),
            Family::Player => self.player_command(line, command),
            Family::Press => self.press_command(line, command),
            Family::Dips => self.dips_command(line, command),
            Family::Timing => self.timing_command(line, command),
            Family::Life => self.life_command(line, command),
            Family::Settings => self.settings_command(line, command),
            Family::Privacy => self.privacy_command(line, command),
            Family::End => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::command::parse_command;

    #[test]
    fn the_table_names_the_games_to_load_and_who_may_act() {
        for (line, family, who, names) in [
            ("LIST", Family::Info, Who::Anyone, Names::All),
            (
                "LIST war",
                Family::Info,
                Who::Anyone,
                Names::Game("war".into()),
            ),
            (
                "SIGNON Fwar pw",
                Family::Signon,
                Who::Anyone,
                Names::Game("war".into()),
            ),
            (
                "CREATE ?war pw",
                Family::Signon,
                Who::Anyone,
                Names::Game("war".into()),
            ),
            (
                "SET DEADLINE 2026-12-24",
                Family::Timing,
                Who::Master,
                Names::Nothing,
            ),
            ("PROCESS", Family::Life, Who::Master, Names::Nothing),
            ("SET NMR", Family::Settings, Who::Master, Names::Nothing),
            ("SIGNOFF", Family::End, Who::Anyone, Names::Nothing),
        ] {
            let spec = spec(&parse_command(line));
            assert_eq!(
                (spec.family, spec.who, spec.names),
                (family, who, names),
                "{line}"
            );
        }
        let spec = spec(&parse_command("A Par-Bur"));
        assert_eq!(spec.family, Family::Orders);
        assert!(matches!(spec.who, Who::Signed(seats, _) if seats == [Seat::Power]));
    }
}
