//! One line of a mail read as a command of the judge language (njudge's, with DPjudge's
//! improvements). Keywords match in any case, and spaces between keywords are optional
//! (`SET NOWAIT`, `SET NO WAIT`, `SETNOWAIT`). A line that is no command is, after SIGNON,
//! an order.

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
    /// `HISTORY game`
    History(String),
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
    /// `SET DRAW` / `SET NODRAW`
    Draw(bool),
    /// `SET PREFERENCE letters`
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

/// Reads one line.
pub fn parse_command(line: &str) -> Command {
    let words: Vec<&str> = line.split_whitespace().collect();
    let squashed: String = line
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let first = upper.first().map(String::as_str).unwrap_or("");
    let rest = |n: usize| words.get(n..).map(|w| w.join(" ")).unwrap_or_default();
    let arg = |n: usize| words.get(n).map(|w| w.to_string());
    match squashed.as_str() {
        "HELP" => return Command::Help,
        "VERSION" => return Command::Version,
        "SIGNOFF" => return Command::Signoff,
        "CLEAR" => return Command::Clear,
        "ENDPRESS" | "ENDBROADCAST" | "ENDP" => return Command::EndPress,
        "RESIGN" | "WITHDRAW" => return Command::Resign,
        "START" => return Command::Start,
        "PROCESS!" => {
            return Command::Process {
                phase: None,
                force: true,
            }
        }
        "PREVIEW" | "PREDICT" => return Command::Preview,
        "PAUSE" => return Command::Pause,
        "RESUME" => return Command::Resume,
        "TERMINATE" => return Command::Terminate,
        "SETMAP" | "SETMAPON" => return Command::OrderMap(true),
        "SETNOMAP" | "SETMAPOFF" => return Command::OrderMap(false),
        "SETWAIT" => return Command::Wait(true),
        "SETNOWAIT" => return Command::Wait(false),
        "SETDRAW" => return Command::Draw(true),
        "SETNODRAW" => return Command::Draw(false),
        "SETNMR" | "SETCD" => return Command::Nmr(true),
        "SETNONMR" | "SETNOCD" => return Command::Nmr(false),
        "SETWARNINGS" | "SETWARNINGSON" => return Command::Warnings(true),
        "SETNOWARNINGS" | "SETWARNINGSOFF" => return Command::Warnings(false),
        "SETPARTIAL" => return Command::Partial(true),
        "SETNOPARTIAL" => return Command::Partial(false),
        "SETNOABSENCE" | "SETNOHOLIDAY" | "SETNOVACATION" => return Command::NoAbsence,
        "SETNOPRESS" => return Command::PressPolicy(PressPolicy::None),
        "SETNOSHOW" | "SETANONYMOUS" | "SETANON" => return Command::Anonymous(true),
        "SETSHOW" | "SETNOANONYMOUS" | "SETNOANON" => return Command::Anonymous(false),
        "SETREVEAL" => return Command::Reveal(true),
        "SETNOREVEAL" => return Command::Reveal(false),
        "SETLIST" => return Command::Listed(true),
        "SETNOLIST" | "SETUNLISTED" | "SETPRIVATE" => return Command::Listed(false),
        "SETPUBLIC" => return Command::Public,
        "SETWHITE" => return Command::PressPolicy(PressPolicy::White),
        "SETGREY" | "SETGRAY" => return Command::PressPolicy(PressPolicy::Grey),
        // njudge's SET PORTAGE and DPjudge's RULE PORTAGE_CONVOY name the portage switch.
        "SETPORTAGE" | "RULEPORTAGE_CONVOY" | "SETRULEPORTAGE_CONVOY" => {
            return Command::Rule("portage".into())
        }
        _ => {}
    }
    match first {
        "GET" | "SEND" if arg(1).is_some_and(|t| t.eq_ignore_ascii_case("map")) => {
            let svg =
                |w: &Option<String>| w.as_ref().is_some_and(|w| w.eq_ignore_ascii_case("svg"));
            return match (arg(2), arg(3)) {
                (a, _) if svg(&a) => Command::Map(None, true),
                (a, b) => Command::Map(a, svg(&b)),
            };
        }
        "GET" | "SEND" => {
            return arg(1).map_or(Command::Help, |t| Command::Get(t.to_ascii_lowercase()))
        }
        "LIST" if upper.len() == 2 && upper[1] == "FULL" => return Command::ListFull,
        "LIST" => return Command::List(arg(1)),
        "HISTORY" if words.len() >= 2 => return Command::History(words[1].to_string()),
        "SUMMARY" if words.len() >= 2 => return Command::Summary(words[1].to_string()),
        "CREATE" if words.len() >= 3 => {
            return Command::Create {
                game: words[1].trim_start_matches('?').to_string(),
                password: words[2].to_string(),
                variant: arg(3),
                options: words
                    .get(4..)
                    .map(|w| w.iter().map(|s| s.to_string()).collect())
                    .unwrap_or_default(),
            }
        }
        "OBSERVE" | "WATCH" if words.len() >= 3 => {
            return Command::Observe {
                game: words[1].to_string(),
                password: words[2].to_string(),
            }
        }
        "SIGNON" if words.len() >= 3 => return signon(words[1], words[2]),
        "SIGN" if upper.get(1).map(String::as_str) == Some("ON") && words.len() >= 4 => {
            return signon(words[2], words[3])
        }
        "SIGN" if upper.get(1).map(String::as_str) == Some("OFF") => return Command::Signoff,
        "PHASE" if words.len() >= 2 => return Command::Phase(rest(1)),
        "PROCESS" => {
            return Command::Process {
                phase: (words.len() > 1).then(|| rest(1)),
                force: false,
            }
        }
        "PRESS" | "BROADCAST" => return press(&upper),
        "INTERCEPT" => return Command::Intercept(rest(1)),
        "PROTECT" if words.len() == 1 => return Command::Protect,
        "BECOME" if words.len() == 2 && words[1].len() == 1 => {
            return Command::Become(upper[1].chars().next().unwrap_or('?'))
        }
        "EJECT" if words.len() == 2 && words[1].len() == 1 => {
            return Command::Eject(upper[1].chars().next().unwrap_or('?'))
        }
        "ROLLBACK" if words.len() >= 2 => return Command::Rollback(rest(1)),
        "SET" => return set(&words, &upper),
        _ => {}
    }
    Command::Other(line.trim().to_string())
}

fn signon(who_game: &str, password: &str) -> Command {
    let mut chars = who_game.chars();
    let Some(first) = chars.next() else {
        return Command::Other(format!("SIGNON {who_game} {password}"));
    };
    let game: String = chars.collect();
    let who = match first.to_ascii_uppercase() {
        '?' => SignonAs::Join,
        'M' => SignonAs::Master,
        'O' => SignonAs::Observer,
        c => SignonAs::Power(c),
    };
    Command::Signon {
        who,
        game,
        password: password.to_string(),
    }
}

fn press(upper: &[String]) -> Command {
    let broadcast = upper[0] == "BROADCAST";
    let mut to = if broadcast {
        Recipients::All
    } else {
        Recipients::Nobody
    };
    let mut grey = None;
    let mut i = 1;
    while i < upper.len() {
        match upper[i].as_str() {
            "GREY" | "GRAY" | "ANONYMOUS" => grey = Some(true),
            "WHITE" | "UNANONYMOUS" => grey = Some(false),
            "TO" if upper.get(i + 1).map(String::as_str) == Some("ALL")
                && upper.get(i + 2).map(String::as_str) == Some("BUT") =>
            {
                to = Recipients::AllBut(upper.get(i + 3).cloned().unwrap_or_default());
                i += 3;
            }
            "TO" if upper.get(i + 1).map(String::as_str) == Some("ALL") => {
                to = Recipients::All;
                i += 1;
            }
            "TO" => {
                to = Recipients::To(upper.get(i + 1).cloned().unwrap_or_default());
                i += 1;
            }
            w if w.starts_with('+') => to = Recipients::To(w[1..].to_string()),
            w if w.starts_with('-') => to = Recipients::AllBut(w[1..].to_string()),
            _ => {}
        }
        i += 1;
    }
    Command::Press { to, grey }
}

fn set(words: &[&str], upper: &[String]) -> Command {
    let key = upper.get(1).map(String::as_str).unwrap_or("");
    let arg = words.get(2).map(|w| w.to_string()).unwrap_or_default();
    let rest = words.get(2..).map(|w| w.join(" ")).unwrap_or_default();
    match key {
        "PASSWORD" if words.len() == 3 => Command::Password(arg),
        "ADDRESS" if words.len() == 3 => Command::Address(arg.to_ascii_lowercase()),
        "ABSENCE" | "HOLIDAY" | "VACATION" => Command::Absence(rest),
        "PREFERENCE" | "PREFERENCES" | "PREF" => {
            Command::Preference(rest.to_ascii_uppercase().replace([' ', '[', ']'], ""))
        }
        "DEADLINE" => Command::Deadline(rest),
        "GRACE" => Command::Grace(rest),
        "START" => Command::StartAfter(rest),
        "MOVE" | "MOVES" | "MOVEMENT" => Command::Timing(
            PhaseKind::Movement,
            words[2..].iter().map(|w| w.to_string()).collect(),
        ),
        "RETREAT" | "RETREATS" => Command::Timing(
            PhaseKind::Retreat,
            words[2..].iter().map(|w| w.to_string()).collect(),
        ),
        "ADJUST" | "ADJUSTMENT" | "ADJUSTMENTS" | "BUILD" | "BUILDS" => Command::Timing(
            PhaseKind::Adjustment,
            words[2..].iter().map(|w| w.to_string()).collect(),
        ),
        "PRESS" => match upper.get(2).map(String::as_str) {
            Some("WHITE") => Command::PressPolicy(PressPolicy::White),
            Some("GREY" | "GRAY") => Command::PressPolicy(PressPolicy::Grey),
            Some("NONE" | "NO") => Command::PressPolicy(PressPolicy::None),
            _ => Command::UnknownSet(words.join(" ")),
        },
        "ZONE" | "TIMEZONE" | "TZ" if words.len() == 3 => Command::Zone(arg),
        "MYZONE" | "MYTIMEZONE" | "MYTZ" if words.len() == 3 => Command::MyZone(Some(arg)),
        "MYZONE" | "MYTIMEZONE" | "MYTZ" | "NOMYZONE" if words.len() == 2 => Command::MyZone(None),
        "RULE" if words.len() == 3 => Command::Rule(arg),
        "PRIVATE" if words.len() == 3 => Command::JoinWord(arg),
        "ALLOW" | "DENY" | "NOALLOW" | "NODENY" | "NO" => invite(words, upper),
        _ => Command::UnknownSet(words.join(" ")),
    }
}

/// SET [NO] ALLOW|DENY [PLAYER] [-]address….
fn invite(all: &[&str], upper: &[String]) -> Command {
    let (key, mut words) = match upper.get(1..).unwrap_or(&[]) {
        [no, key, ..] if no == "NO" => (format!("NO{key}"), all.get(3..).unwrap_or(&[])),
        [key, ..] => (key.clone(), all.get(2..).unwrap_or(&[])),
        [] => (String::new(), &[][..]),
    };
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("player"))
    {
        words = &words[1..];
    }
    let (deny, add) = match key.as_str() {
        "ALLOW" => (false, true),
        "DENY" => (true, true),
        "NOALLOW" => (false, false),
        "NODENY" => (true, false),
        _ => return Command::UnknownSet(all.join(" ")),
    };
    let addresses: Vec<String> = words
        .iter()
        .flat_map(|w| w.split(','))
        .filter(|a| !a.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    Command::Invite {
        deny,
        add,
        addresses,
    }
}

#[cfg(test)]
mod tests;
