//! HISTORY <game> [FROM <phase or date>] [TO <phase or date>] [LINES <n>]: what anyone may
//! read of a game (results, broadcasts, the notes of rollbacks, the summary), from one
//! phase (or day, as njudge) to another, cut at a number of lines ([`DEFAULT_LINES`] unless
//! asked, as njudge).

use chrono::{DateTime, Utc};

use super::def::Words;
use crate::game::calendar::Phase;
use crate::judge::cmd::context::Session;
use crate::judge::game::{Archived, Game};
use crate::judge::{deadline, Judge};

/// The lines a HISTORY answer holds at most unless LINES asks otherwise (njudge's cap).
pub const DEFAULT_LINES: usize = 1000;

/// The most lines LINES may ask for.
pub const MOST_LINES: usize = 20_000;

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

/// HISTORY's words after the game: FROM <phase>, TO <phase>, LINES <n>, in any order (a
/// phase may be several words: `FROM Spring 1902 Movement`).
pub(super) fn span(w: &Words) -> Span {
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

/// Where a HISTORY starts or ends: at a phase, or (as njudge) at a time.
#[derive(Clone, Copy)]
enum Bound {
    /// A phase code or name.
    Phase(Phase),
    /// A date.
    Time(DateTime<Utc>),
}

/// The phase an archived mail belongs to, read from its subject (`JUDGE:war - S1901M
/// Results`); none for what came before the game started.
fn phase_of(judge: &Judge, game: &Game, a: &Archived) -> Option<Phase> {
    let rest = a.subject.strip_prefix(&format!("JUDGE:{} - ", game.name))?;
    let code = rest.split_whitespace().next()?;
    judge.variant(game).calendar.parse(code).ok()
}

/// Whether an archived mail is partial press (`Press` or `Press from F` after the phase):
/// kept by games stored before HISTORY held results and broadcasts only, and never shown.
fn partial_press(game: &Game, a: &Archived) -> bool {
    let Some(rest) = a.subject.strip_prefix(&format!("JUDGE:{} - ", game.name)) else {
        return false;
    };
    let what = match rest.split_once(' ') {
        Some((first, tail)) if first != "Press" => tail,
        _ => rest,
    };
    what == "Press" || what.starts_with("Press from ")
}

impl Session<'_> {
    /// Answers HISTORY for a game.
    pub(in crate::judge) fn history(&mut self, line: &str, name: &str, span: Span) {
        let judge = self.judge;
        let Some(key) = self.game_to_show(line, name) else {
            return;
        };
        let g = &self.games[&key];
        let form = "write e.g. HISTORY <game> FROM S1902M TO F1903M LINES 2000, or FROM 2026-12-01";
        if let Some(stray) = &span.stray {
            let why = format!("'{stray}' is not part of a HISTORY; {form}");
            self.error(line, why);
            return;
        }
        let calendar = &judge.variant(g).calendar;
        let tz = g.settings.zone;
        let mut bounds = [None, None];
        for (i, text) in [&span.from, &span.to].into_iter().enumerate() {
            let Some(text) = text else { continue };
            match (
                calendar.parse(text),
                deadline::parse_date(text, self.now, tz),
            ) {
                (Ok(p), _) => bounds[i] = Some(Bound::Phase(p)),
                // As njudge: FROM Jan 1 2026 (from the start of that day), TO 2026-12-24.
                (_, Ok(t)) if i == 0 && !text.contains(':') => {
                    let day = t.with_timezone(&tz).date_naive();
                    let start = day
                        .and_hms_opt(0, 0, 0)
                        .and_then(|d| d.and_local_timezone(tz).earliest())
                        .map_or(t, |d| d.with_timezone(&Utc));
                    bounds[i] = Some(Bound::Time(start));
                }
                (_, Ok(t)) => bounds[i] = Some(Bound::Time(t)),
                (Err(e), Err(_)) => {
                    let why = format!(
                        "'{text}' is neither a phase of this game ({}) nor a date; {form}",
                        e.why
                    );
                    self.error(line, why);
                    return;
                }
            }
        }
        let cap = match span.lines.as_deref().map(str::parse::<usize>) {
            None => DEFAULT_LINES,
            Some(Ok(n)) if (1..=MOST_LINES).contains(&n) => n,
            Some(_) => {
                let why = format!(
                    "LINES takes a number from 1 to {MOST_LINES}, not '{}'; {form}",
                    span.lines.unwrap_or_default()
                );
                self.error(line, why);
                return;
            }
        };
        let [from, to] = bounds;
        let phase = |a: &Archived| phase_of(judge, g, a);
        let inside = |a: &Archived| {
            let after = match from {
                None => true,
                Some(Bound::Phase(f)) => phase(a).is_some_and(|p| p >= f),
                Some(Bound::Time(f)) => a.at >= f,
            };
            let before = match to {
                None => true,
                Some(Bound::Phase(t)) => phase(a).is_none_or(|p| p <= t),
                Some(Bound::Time(t)) => a.at <= t,
            };
            after && before
        };
        // "HISTORY holds results and broadcasts only" (issue 24).
        let chosen: Vec<&Archived> = g
            .archive
            .iter()
            .filter(|a| inside(a) && !partial_press(g, a))
            .collect();
        let show = |b: Bound| match b {
            Bound::Phase(p) => calendar.code(p),
            Bound::Time(t) => deadline::show(t, tz),
        };
        let range = match (from, to) {
            (None, None) => String::new(),
            (Some(f), None) => format!(" from {}", show(f)),
            (None, Some(t)) => format!(" up to {}", show(t)),
            (Some(f), Some(t)) => format!(" from {} to {}", show(f), show(t)),
        };
        if chosen.is_empty() {
            let what = if range.is_empty() { " yet" } else { &range };
            self.say(format!("Game '{}' has no history{what}.", g.name));
            return;
        }
        let mut out = vec![format!("History of game '{}'{range}:", g.name)];
        for a in chosen {
            out.push(String::new());
            out.push(format!(
                "==== {} ({})",
                a.subject,
                a.at.format("%Y-%m-%d %H:%M UTC")
            ));
            out.extend(a.body.lines().map(str::to_string));
        }
        if out.len() > cap {
            let all = out.len();
            out.truncate(cap);
            out.push(String::new());
            out.push(format!(
                "[HISTORY cut at {cap} of {all} lines: ask for a part with FROM <phase> TO <phase>, or for more with LINES <n> (at most {MOST_LINES})]"
            ));
        }
        self.lines.extend(out);
    }
}

#[cfg(test)]
mod tests {
    use super::partial_press;
    use crate::judge::game::Archived;
    use crate::judge::testkit::{judge, start, started};

    #[test]
    fn partial_press_kept_by_an_older_herald_is_not_shown() {
        let j = judge();
        let games = started(&j);
        let g = &games["g"];
        let kept = |subject: &str| Archived {
            at: start(),
            subject: subject.into(),
            body: String::new(),
        };
        for subject in [
            "JUDGE:g - S1901M Press from F",
            "JUDGE:g - Press",
            "JUDGE:g - S1901M Press",
        ] {
            assert!(partial_press(g, &kept(subject)), "{subject}");
        }
        for subject in [
            "JUDGE:g - S1901M Broadcast from F",
            "JUDGE:g - S1901M Results",
            "JUDGE:g - Broadcast",
            "JUDGE:other - S1901M Press from F",
        ] {
            assert!(!partial_press(g, &kept(subject)), "{subject}");
        }
    }
}
