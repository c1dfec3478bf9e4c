//! The table of every command herald reads ([`KEYWORDS`]): each command's words, its other
//! spellings and how the rest of its line is read.

use super::{Command, Keyword, Read, Reader, Recipients, SignonAs, Span, Words};
use crate::game::calendar::PhaseKind;
use crate::judge::game::PressPolicy;
const fn line(name: &'static str, aliases: &'static [&'static str], c: fn() -> Command) -> Keyword {
    Keyword {
        name,
        aliases,
        read: Read::Line(c),
    }
}

const fn args(name: &'static str, aliases: &'static [&'static str], r: Reader) -> Keyword {
    Keyword {
        name,
        aliases,
        read: Read::Args(r),
    }
}

/// Every command herald reads. `parse_command` knows no other words, so the help files and
/// the guides can be checked against this list (`tests/help_truth.rs`).
pub const KEYWORDS: &[Keyword] = &[
    line("HELP", &[], || Command::Help),
    args("GET MAP", &["SEND MAP"], |w| {
        let svg = |a: Option<&str>| a == Some("SVG");
        Some(match (w.arg(0), w.upper(1)) {
            (_, _) if svg(w.upper(0)) => Command::Map(None, true),
            (a, b) => Command::Map(a, svg(b)),
        })
    }),
    args("GET", &["SEND"], |w| {
        Some(
            w.arg(0)
                .map_or(Command::Help, |t| Command::Get(t.to_ascii_lowercase())),
        )
    }),
    line("LIST FULL", &[], || Command::ListFull),
    args("LIST", &[], |w| Some(Command::List(w.arg(0)))),
    args("HISTORY", &[], |w| {
        Some(Command::History(w.arg(0)?, span(w)))
    }),
    args("SUMMARY", &[], |w| w.arg(0).map(Command::Summary)),
    line("VERSION", &[], || Command::Version),
    args("CREATE", &[], |w| {
        w.least(2)?;
        let a = w.args();
        Some(Command::Create {
            game: a[0].trim_start_matches('?').to_string(),
            password: a[1].to_string(),
            variant: w.arg(2),
            options: a
                .get(3..)
                .unwrap_or(&[])
                .iter()
                .map(|s| s.to_string())
                .collect(),
        })
    }),
    args("OBSERVE", &["WATCH"], |w| {
        w.least(2)?;
        Some(Command::Observe {
            game: w.arg(0)?,
            password: w.arg(1)?,
        })
    }),
    args("SIGNON", &["SIGN ON"], |w| {
        w.least(2)?;
        Some(signon(w.args()[0], w.args()[1]))
    }),
    line("SIGNOFF", &[], || Command::Signoff),
    args("SIGN OFF", &[], |_| Some(Command::Signoff)),
    line("CLEAR", &[], || Command::Clear),
    args("PHASE", &[], |w| {
        w.least(1).map(|_| Command::Phase(w.rest(0)))
    }),
    args("PRESS", &[], |w| Some(press(&w.upper))),
    args("BROADCAST", &[], |w| Some(press(&w.upper))),
    line("ENDPRESS", &["ENDBROADCAST", "ENDP"], || Command::EndPress),
    args("INTERCEPT", &[], |w| Some(Command::Intercept(w.rest(0)))),
    line("PROTECT", &[], || Command::Protect),
    line("RESIGN", &["WITHDRAW"], || Command::Resign),
    line("SET WAIT", &[], || Command::Wait(true)),
    line("SET NOWAIT", &[], || Command::Wait(false)),
    line("SET MAP ON", &["SET MAP"], || Command::OrderMap(true)),
    line("SET MAP OFF", &["SET NOMAP"], || Command::OrderMap(false)),
    args("SET MYZONE", &["SET MYTIMEZONE", "SET MYTZ"], |w| {
        match w.args() {
            [zone] => Some(Command::MyZone(Some(zone.to_string()))),
            [] => Some(Command::MyZone(None)),
            _ => None,
        }
    }),
    line("SET NOMYZONE", &[], || Command::MyZone(None)),
    args("SET PASSWORD", &[], |w| {
        w.count(1).and_then(|_| w.arg(0)).map(Command::Password)
    }),
    args("SET ADDRESS", &[], |w| {
        w.count(1)?;
        Some(Command::Address(w.arg(0)?.to_ascii_lowercase()))
    }),
    args("SET ABSENCE", &["SET HOLIDAY", "SET VACATION"], |w| {
        Some(Command::Absence(w.rest(0)))
    }),
    line(
        "SET NOABSENCE",
        &["SET NOHOLIDAY", "SET NOVACATION"],
        || Command::NoAbsence,
    ),
    args("SET DRAW", &[], |w| Some(Command::Draw(Some(w.rest(0))))),
    line("SET NODRAW", &[], || Command::Draw(None)),
    args("SET CONCEDE", &["SET CONC"], |w| {
        w.least(1).map(|_| Command::Concede(Some(w.rest(0))))
    }),
    line("SET NOCONCEDE", &[], || Command::Concede(None)),
    line("SET DIAS", &[], || Command::Dias(true)),
    line("SET NODIAS", &[], || Command::Dias(false)),
    line("SET CONCESSIONS", &[], || Command::Concessions(true)),
    line("SET NOCONCESSIONS", &[], || Command::Concessions(false)),
    args("SET PREFERENCE", &["SET PREFERENCES", "SET PREF"], |w| {
        Some(Command::Preference(w.rest(0)))
    }),
    line("START", &[], || Command::Start),
    line("FORCE BEGIN", &["FORCE START"], || Command::ForceBegin),
    line("PROCESS!", &[], || Command::Process {
        phase: None,
        force: true,
    }),
    args("PROCESS", &[], |w| {
        Some(Command::Process {
            phase: w.least(1).map(|_| w.rest(0)),
            force: false,
        })
    }),
    line("PREVIEW", &["PREDICT"], || Command::Preview),
    line("PAUSE", &[], || Command::Pause),
    line("RESUME", &[], || Command::Resume),
    args("SET DEADLINE", &[], |w| Some(Command::Deadline(w.rest(0)))),
    args("SET GRACE", &[], |w| Some(Command::Grace(w.rest(0)))),
    args("SET START", &[], |w| Some(Command::StartAfter(w.rest(0)))),
    args("SET MOVE", &["SET MOVES", "SET MOVEMENT"], |w| {
        Some(Command::Timing(PhaseKind::Movement, owned(w.args())))
    }),
    args("SET RETREAT", &["SET RETREATS"], |w| {
        Some(Command::Timing(PhaseKind::Retreat, owned(w.args())))
    }),
    args(
        "SET ADJUST",
        &[
            "SET ADJUSTMENT",
            "SET ADJUSTMENTS",
            "SET BUILD",
            "SET BUILDS",
        ],
        |w| Some(Command::Timing(PhaseKind::Adjustment, owned(w.args()))),
    ),
    args("SET ZONE", &["SET TIMEZONE", "SET TZ"], |w| {
        w.count(1).and_then(|_| w.arg(0)).map(Command::Zone)
    }),
    line("SET NMR", &["SET CD"], || Command::Nmr(true)),
    line("SET NONMR", &["SET NOCD"], || Command::Nmr(false)),
    line("SET PRESS WHITE", &["SET WHITE"], || {
        Command::PressPolicy(PressPolicy::White)
    }),
    line(
        "SET PRESS GREY",
        &["SET PRESS GRAY", "SET GREY", "SET GRAY"],
        || Command::PressPolicy(PressPolicy::Grey),
    ),
    line("SET PRESS NONE", &["SET PRESS NO", "SET NOPRESS"], || {
        Command::PressPolicy(PressPolicy::None)
    }),
    line("SET PARTIAL", &[], || Command::Partial(true)),
    args("SET COMMENT", &[], |w| {
        Some(Command::Comment(Some(w.rest(0)).filter(|t| !t.is_empty())))
    }),
    line("SET NOCOMMENT", &[], || Command::Comment(None)),
    line("SET MINOR PRESS", &[], || Command::MinorPress(true)),
    line("SET NO MINOR PRESS", &[], || Command::MinorPress(false)),
    line("SET NOPARTIAL", &[], || Command::Partial(false)),
    line("SET WARNINGS ON", &["SET WARNINGS"], || {
        Command::Warnings(true)
    }),
    line("SET WARNINGS OFF", &["SET NOWARNINGS"], || {
        Command::Warnings(false)
    }),
    args("SET RULE", &[], |w| {
        w.count(1).and_then(|_| w.arg(0)).map(Command::Rule)
    }),
    // njudge's SET PORTAGE and DPjudge's RULE PORTAGE_CONVOY name the portage switch.
    line(
        "SET PORTAGE",
        &["RULE PORTAGE_CONVOY", "SET RULE PORTAGE_CONVOY"],
        || Command::Rule("portage".into()),
    ),
    line("SET NOSHOW", &["SET ANONYMOUS", "SET ANON"], || {
        Command::Anonymous(true)
    }),
    line("SET SHOW", &["SET NOANONYMOUS", "SET NOANON"], || {
        Command::Anonymous(false)
    }),
    line("SET REVEAL", &[], || Command::Reveal(true)),
    line("SET NOREVEAL", &[], || Command::Reveal(false)),
    line("SET QUIET", &[], || Command::Quiet(true)),
    line("SET NOQUIET", &[], || Command::Quiet(false)),
    line("SET LIST", &[], || Command::Listed(true)),
    line("SET NOLIST", &["SET UNLISTED", "SET PRIVATE"], || {
        Command::Listed(false)
    }),
    args("SET PRIVATE", &[], |w| {
        w.count(1).and_then(|_| w.arg(0)).map(Command::JoinWord)
    }),
    line("SET PUBLIC", &[], || Command::Public),
    args("SET ALLOW", &[], |w| Some(invite(&w.all, &w.upper))),
    args("SET DENY", &[], |w| Some(invite(&w.all, &w.upper))),
    args("SET NOALLOW", &["SET NO ALLOW"], |w| {
        Some(invite(&w.all, &w.upper))
    }),
    args("SET NODENY", &["SET NO DENY"], |w| {
        Some(invite(&w.all, &w.upper))
    }),
    args("BECOME", &[], |w| letter(w).map(Command::Become)),
    args("EJECT", &[], |w| letter(w).map(Command::Eject)),
    args("ROLLBACK", &[], |w| {
        w.least(1).map(|_| Command::Rollback(w.rest(0)))
    }),
    line("TERMINATE", &[], || Command::Terminate),
    // Any other SET: refused by name.
    args("SET", &[], |w| Some(Command::UnknownSet(w.all.join(" ")))),
];

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// BECOME and EJECT: one power letter.
fn letter(w: &Words) -> Option<char> {
    match w.args() {
        [one] if one.len() == 1 => one.chars().next().map(|c| c.to_ascii_uppercase()),
        _ => None,
    }
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

/// HISTORY's words after the game: FROM <phase>, TO <phase>, LINES <n>, in any order (a
/// phase may be several words: `FROM Spring 1902 Movement`).
fn span(w: &Words) -> Span {
    // The words after each keyword: stray ones, FROM, TO, LINES.
    let mut parts: [Vec<&str>; 4] = Default::default();
    let mut seen = [true, false, false, false];
    let mut slot = 0;
    for (i, word) in w.args().iter().enumerate().skip(1) {
        let next = match w.upper(i) {
            Some("FROM") => 1,
            Some("TO") => 2,
            Some("LINES") => 3,
            _ => {
                parts[slot].push(word);
                continue;
            }
        };
        slot = next;
        seen[slot] = true;
        parts[slot].clear();
    }
    let text = |k: usize| seen[k].then(|| parts[k].join(" "));
    Span {
        from: text(1),
        to: text(2),
        lines: text(3),
        stray: text(0).filter(|t| !t.is_empty()),
    }
}
