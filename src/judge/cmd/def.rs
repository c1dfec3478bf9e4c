//! What a command is, in one row: its words as the help writes them, the other spellings read
//! the same (njudge's and DPjudge's), the right form of its line, which of its words are
//! secret, who may give it, and how its line is read into a typed value. Each family's file
//! (`info.rs`, `player.rs`, …) holds the rows of its commands in a `DEFS` table beside the
//! code that applies them; the parser, the refusals of misfit lines, the masking of
//! passwords, the permission check and the help's checks (`tests/help_truth.rs`) all read
//! these rows, so nothing about a command is written twice.

use super::Command;

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

/// Every role.
pub const ANY_SEAT: &[Seat] = &[Seat::Joiner, Seat::Power, Seat::Master, Seat::Observer];
/// A power only.
pub const POWER: &[Seat] = &[Seat::Power];

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
    /// A page of the list of games (LIST, LIST FULL, LIST FROM): read from the games'
    /// summaries, none loaded.
    Page(crate::judge::listed::Page),
}

/// The words of a command's line that are secret (a password, a join word): replaced by
/// `****` wherever the line is shown again (the reply, the outbox), counted among the
/// arguments after the command's own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Secret {
    /// The first secret argument.
    pub from: usize,
    /// One past the last, or every argument to the end of the line.
    pub to: Option<usize>,
}

/// A line's words, as a command's reader gets them.
pub struct Words<'a> {
    /// Every word as written.
    pub(super) all: Vec<&'a str>,
    /// Every word in upper case.
    pub(super) upper: Vec<String>,
    /// Where the arguments start: after the command's own words.
    pub(super) at: usize,
}

impl Words<'_> {
    /// The arguments as written.
    pub fn args(&self) -> &[&str] {
        self.all.get(self.at..).unwrap_or(&[])
    }
    /// The `n`th argument as written.
    pub fn arg(&self, n: usize) -> Option<String> {
        self.args().get(n).map(|w| w.to_string())
    }
    /// The `n`th argument in upper case.
    pub fn upper(&self, n: usize) -> Option<&str> {
        self.upper.get(self.at + n).map(String::as_str)
    }
    /// Every word of the line in upper case, the command's own too.
    pub fn all_upper(&self) -> &[String] {
        &self.upper
    }
    /// Every word of the line as written, the command's own too.
    pub fn all(&self) -> &[&str] {
        &self.all
    }
    /// The arguments from the `n`th on, joined by a space.
    pub fn rest(&self, n: usize) -> String {
        self.args()
            .get(n..)
            .map(|w| w.join(" "))
            .unwrap_or_default()
    }
    /// Exactly `n` arguments.
    pub fn count(&self, n: usize) -> Option<()> {
        (self.args().len() == n).then_some(())
    }
    /// At least `n` arguments.
    pub fn least(&self, n: usize) -> Option<()> {
        (self.args().len() >= n).then_some(())
    }
    /// The arguments, owned.
    pub fn owned(&self) -> Vec<String> {
        self.args().iter().map(|w| w.to_string()).collect()
    }
}

/// Reads a command's arguments.
pub type Reader = for<'a> fn(&Words<'a>) -> Option<Command>;

/// How a command's line is read.
#[derive(Clone, Copy)]
pub enum Read {
    /// The line is the command's words and nothing else (spaces between them optional).
    Line(fn() -> Command),
    /// The line starts with the command's words; the reader takes the arguments after them,
    /// or gives None when they do not fit (the line is then read as a shorter command, or an
    /// order).
    Args(Reader),
}

/// One command: everything herald knows about it but the code that applies it, which is the
/// arm of its family's exhaustive match in the same file.
#[derive(Clone, Copy)]
pub struct Def {
    /// As the help writes it: `SET NOWAIT`, `GET MAP`.
    pub name: &'static str,
    /// Other spellings.
    pub aliases: &'static [&'static str],
    /// The right form with an example, for a line that starts with the command's words but
    /// does not fit (every command that reads arguments has one: `Def::args` asks for it).
    pub form: Option<&'static str>,
    /// Its secret words, if any.
    pub secret: Option<Secret>,
    /// Who may give it.
    pub who: Who,
    /// How the line is read.
    pub read: Read,
}

/// A row is known by its name (no two rows share one: `cmd::tests::every_row_is_whole`).
impl PartialEq for Def {
    fn eq(&self, other: &Def) -> bool {
        self.name == other.name
    }
}

impl Eq for Def {}

impl std::fmt::Debug for Def {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Def({})", self.name)
    }
}

impl Def {
    /// A command that is its words alone (`SET NOWAIT`, `PROCESS!`).
    pub const fn line(name: &'static str, who: Who, command: fn() -> Command) -> Def {
        Def {
            name,
            aliases: &[],
            form: None,
            secret: None,
            who,
            read: Read::Line(command),
        }
    }

    /// A command with arguments, its right form (with an example) and its reader.
    pub const fn args(name: &'static str, form: &'static str, who: Who, read: Reader) -> Def {
        Def {
            name,
            aliases: &[],
            form: Some(form),
            secret: None,
            who,
            read: Read::Args(read),
        }
    }

    /// The same command with other spellings.
    pub const fn aka(mut self, aliases: &'static [&'static str]) -> Def {
        self.aliases = aliases;
        self
    }

    /// The same command with its arguments `from..to` (`None`: to the end) secret.
    pub const fn secret(mut self, from: usize, to: Option<usize>) -> Def {
        self.secret = Some(Secret { from, to });
        self
    }

    /// Every spelling: the name, then the aliases.
    pub fn spellings(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.name).chain(self.aliases.iter().copied())
    }
}
