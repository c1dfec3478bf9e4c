//! One line of a mail read as a command of the judge language (njudge's, with DPjudge's
//! improvements). Every command is a row of [`KEYWORDS`]: its words as the help writes them,
//! the other spellings read the same, and how its line is read. Keywords match in any case;
//! in a command that is the whole line, spaces between them are optional (`SET NOWAIT`,
//! `SET NO WAIT`, `SETNOWAIT`). A line that is no command is, after SIGNON, an order.

mod keywords;

pub use keywords::KEYWORDS;

use crate::game::calendar::PhaseKind;

use super::game::PressPolicy;

/// Who a SIGNON is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignonAs {
    /// `SIGNON ?game pw`: join a forming game.
    Join,
    /// `SIGNON Fgame pw`: a power by letter.
    Power(char),
    /// `SIGNON Mgame pw`: the Master.
    Master,
    /// `SIGNON Ogame pw`: an observer.
    Observer,
}

/// Who press goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipients {
    /// `PRESS` alone: nobody (a guard against accidental broadcasts).
    Nobody,
    /// `TO letters`.
    To(String),
    /// `TO ALL BUT letters`.
    AllBut(String),
    /// `BROADCAST`: everyone.
    All,
}

/// What part of a game's history HISTORY asks for, as written (checked when applied).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// After FROM: the first phase.
    pub from: Option<String>,
    /// After TO: the last phase.
    pub to: Option<String>,
    /// After LINES: the most lines of the answer.
    pub lines: Option<String>,
    /// Words after the game that belong to none of these.
    pub stray: Option<String>,
}

/// A command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `HELP`
    Help,
    /// `GET topic`
    Get(String),
    /// `GET MAP <variant or game>`: every space with its kind, coasts and neighbours.
    Map(Option<String>, bool),
    /// `LIST [game]`: open games (forming and running apart), or one game.
    List(Option<String>),
    /// `LIST FULL`: every game the sender may see, finished ones too.
    ListFull,
    /// `CREATE ?game password [variant]`
    Create {
        /// Game name.
        game: String,
        /// Master's password.
        password: String,
        /// Variant, standard if absent.
        variant: Option<String>,
        /// Rule switches after the variant (`remote_builds`, `victory=20`).
        options: Vec<String>,
    },
    /// `SET RULE switch` (the Master, before START).
    Rule(String),
    /// `SIGNON <who><game> <password>`
    Signon {
        /// Who.
        who: SignonAs,
        /// Game name.
        game: String,
        /// Password.
        password: String,
    },
    /// `OBSERVE game password`
    Observe {
        /// Game name.
        game: String,
        /// Password.
        password: String,
    },
    /// `HISTORY game [FROM phase] [TO phase] [LINES n]`
    History(String, Span),
    /// `SUMMARY game`
    Summary(String),
    /// `VERSION`
    Version,
    /// `SIGNOFF`: the end of the mail.
    Signoff,
    /// `CLEAR`
    Clear,
    /// `PHASE S1901M`
    Phase(String),
    /// `SET WAIT` / `SET NOWAIT`
    Wait(bool),
    /// SET MAP ON|OFF (SET MAP, SET NOMAP): a picture of the player's own orders on file
    /// with each order reply.
    OrderMap(bool),
    /// `SET PASSWORD pw`
    Password(String),
    /// `SET ADDRESS addr`
    Address(String),
    /// `SET ABSENCE from TO to`
    Absence(String),
    /// `SET NOABSENCE`
    NoAbsence,
    /// `SET DRAW [powers]` (the powers to share it, empty for all survivors) / `SET
    /// NODRAW` (`None`).
    Draw(Option<String>),
    /// `SET CONCEDE <power>` / `SET NOCONCEDE` (`None`).
    Concede(Option<String>),
    /// `SET DIAS` / `SET NODIAS`: draws include all survivors, or the votes name them.
    Dias(bool),
    /// `SET CONCESSIONS` / `SET NOCONCESSIONS`: whether powers may concede.
    Concessions(bool),
    /// `SET PREFERENCE letters` as written: `E[FG]I`, `*` (see [`super::preference`]).
    Preference(String),
    /// `PRESS …` / `BROADCAST …`: starts a press block.
    Press {
        /// Recipients.
        to: Recipients,
        /// GREY (true), WHITE (false), or the game's default.
        grey: Option<bool>,
    },
    /// `ENDPRESS` / `ENDBROADCAST`
    EndPress,
    /// `INTERCEPT X Y`: buy the copies of all messages between two countries this turn. The
    /// text after the keyword: country names may be several words (`Great Britain`), so
    /// they are told apart against the game's powers when it is applied.
    Intercept(String),
    /// `PROTECT`: buy protection of all one's messages from interception this turn.
    Protect,
    /// `RESIGN` / `WITHDRAW`
    Resign,
    /// `START`
    Start,
    /// `FORCE BEGIN`: START with fewer players than powers; the powers nobody took are
    /// dummies in civil disorder (see [`super::dummies`]).
    ForceBegin,
    /// `PROCESS [phase]`, `PROCESS!`
    Process {
        /// The phase named, if any.
        phase: Option<String>,
        /// `PROCESS!`: with default orders for missing ones.
        force: bool,
    },
    /// `PREVIEW` (also njudge's `PREDICT`)
    Preview,
    /// `PAUSE`
    Pause,
    /// `RESUME`
    Resume,
    /// `SET DEADLINE date`
    Deadline(String),
    /// `SET GRACE date`
    Grace(String),
    /// `SET START date`
    StartAfter(String),
    /// `SET MOVE|RETREAT|ADJUST …`
    Timing(PhaseKind, Vec<String>),
    /// `SET NMR` / `SET NONMR`
    Nmr(bool),
    /// `SET PRESS WHITE|GREY|NONE`
    PressPolicy(PressPolicy),
    /// `SET PARTIAL` / `SET NOPARTIAL`
    Partial(bool),
    /// `SET COMMENT <text>` / `SET NOCOMMENT` (`None`): the Master's comment shown in LIST.
    Comment(Option<String>),
    /// `SET MINOR PRESS` / `SET NO MINOR PRESS`: press between players in retreats and
    /// adjustments too, or then only to and from the Master.
    MinorPress(bool),
    /// SET WARNINGS ON|OFF: order replies list what looks like a mistake.
    Warnings(bool),
    /// `SET ZONE tz`
    Zone(String),
    /// SET MYZONE <zone>: the time zone a player's own mails show dates in (none: the
    /// game's).
    MyZone(Option<String>),
    /// `BECOME letter`
    Become(char),
    /// `EJECT letter`
    Eject(char),
    /// `ROLLBACK phase`
    Rollback(String),
    /// `TERMINATE`
    Terminate,
    /// SET NOSHOW / SET ANONYMOUS (true), SET SHOW / SET NOANONYMOUS (false): whether the
    /// game hides who plays which power and every address from all but the Master.
    Anonymous(bool),
    /// SET REVEAL / SET NOREVEAL: whether an anonymous game shows its players once over.
    Reveal(bool),
    /// SET QUIET / SET NOQUIET: whether the players are told who resigns, is ejected or
    /// abandoned, falls into or leaves civil disorder, or takes over a power.
    Quiet(bool),
    /// SET LIST (true) / SET NOLIST, SET UNLISTED, SET PRIVATE (false): whether LIST shows
    /// the game to strangers.
    Listed(bool),
    /// SET PRIVATE <word>: unlisted, and newcomers must give the word.
    JoinWord(String),
    /// SET PUBLIC: listed, and no join word.
    Public,
    /// SET ALLOW / SET DENY [PLAYER] [-]address…, SET NOALLOW / SET NODENY address…: the
    /// Master's lists of who may and who may not come into the game.
    Invite {
        /// The deny list (true) or the allow list.
        deny: bool,
        /// Add (true) or remove (false) each address.
        add: bool,
        /// The addresses, lower case (a leading `-` removes that one).
        addresses: Vec<String>,
    },
    /// A `SET` this judge does not know.
    UnknownSet(String),
    /// Anything else: an order after SIGNON, an error before.
    Other(String),
}

/// A line's words, as a command's reader gets them.
pub struct Words<'a> {
    /// Every word as written.
    all: Vec<&'a str>,
    /// Every word in upper case.
    upper: Vec<String>,
    /// Where the arguments start: after the command's own words.
    at: usize,
}

impl Words<'_> {
    /// The arguments as written.
    fn args(&self) -> &[&str] {
        self.all.get(self.at..).unwrap_or(&[])
    }
    /// The `n`th argument as written.
    fn arg(&self, n: usize) -> Option<String> {
        self.args().get(n).map(|w| w.to_string())
    }
    /// The `n`th argument in upper case.
    fn upper(&self, n: usize) -> Option<&str> {
        self.upper.get(self.at + n).map(String::as_str)
    }
    /// The arguments from the `n`th on, joined by a space.
    fn rest(&self, n: usize) -> String {
        self.args()
            .get(n..)
            .map(|w| w.join(" "))
            .unwrap_or_default()
    }
    /// Exactly `n` arguments.
    fn count(&self, n: usize) -> Option<()> {
        (self.args().len() == n).then_some(())
    }
    /// At least `n` arguments.
    fn least(&self, n: usize) -> Option<()> {
        (self.args().len() >= n).then_some(())
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

/// A command herald reads: its words as the help files and the guides (`docs/players.md`,
/// `docs/masters.md`) write them, the other spellings read the same (njudge's and
/// DPjudge's), and how its line is read.
#[derive(Clone, Copy)]
pub struct Keyword {
    /// As the help writes it: `SET NOWAIT`, `GET MAP`.
    pub name: &'static str,
    /// Other spellings.
    pub aliases: &'static [&'static str],
    /// How the line is read.
    pub read: Read,
}

/// Whether a line, spaces left out and in any case, is these words.
fn is_line(line: &str, words: &str) -> bool {
    let mut a = line.chars().filter(|c| !c.is_whitespace());
    let mut b = words.chars().filter(|c| !c.is_whitespace());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.eq_ignore_ascii_case(&y) => {}
            _ => return false,
        }
    }
}

/// How many of a line's first words (upper case) a spelling is, if it starts the line.
fn starts(upper: &[String], spelling: &str) -> Option<usize> {
    let mut n = 0;
    for word in spelling.split_whitespace() {
        (upper.get(n)? == word).then_some(())?;
        n += 1;
    }
    Some(n)
}

/// Reads one line.
pub fn parse_command(line: &str) -> Command {
    let spellings = |k: &'static Keyword| std::iter::once(k.name).chain(k.aliases.iter().copied());
    for k in KEYWORDS {
        if let Read::Line(command) = k.read {
            if spellings(k).any(|s| is_line(line, s)) {
                return command();
            }
        }
    }
    let all: Vec<&str> = line.split_whitespace().collect();
    let upper: Vec<String> = all.iter().map(|w| w.to_ascii_uppercase()).collect();
    // The longest spelling that starts the line first: GET MAP before GET, SET RULE before
    // SET; a shorter one when the longer one's arguments do not fit.
    let mut starting: Vec<(usize, Reader)> = KEYWORDS
        .iter()
        .filter_map(|k| match k.read {
            Read::Args(read) => spellings(k)
                .filter_map(|s| starts(&upper, s))
                .max()
                .map(|n| (n, read)),
            Read::Line(_) => None,
        })
        .collect();
    starting.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    let mut words = Words { all, upper, at: 0 };
    for (n, read) in starting {
        words.at = n;
        if let Some(command) = read(&words) {
            return command;
        }
    }
    Command::Other(line.trim().to_string())
}

#[cfg(test)]
mod tests;
