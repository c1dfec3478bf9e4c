//! HISTORY <game> [FROM <phase>] [TO <phase>] [LINES <n>]: what observers could read of a
//! game (results, broadcasts, the notes of rollbacks, the summary), from one phase to
//! another, cut at a number of lines ([`DEFAULT_LINES`] unless asked, as njudge).

use super::listing::private;
use crate::game::calendar::Phase;
use crate::judge::command::Span;
use crate::judge::game::{Archived, Game};
use crate::judge::session::Session;
use crate::judge::Judge;

/// The lines a HISTORY answer holds at most unless LINES asks otherwise (njudge's cap).
pub const DEFAULT_LINES: usize = 1000;

/// The most lines LINES may ask for.
pub const MOST_LINES: usize = 20_000;

/// The phase an archived mail belongs to, read from its subject (`JUDGE:war - S1901M
/// Results`); none for what came before the game started.
fn phase_of(judge: &Judge, game: &Game, a: &Archived) -> Option<Phase> {
    let rest = a.subject.strip_prefix(&format!("JUDGE:{} - ", game.name))?;
    let code = rest.split_whitespace().next()?;
    judge.variant(game).calendar.parse(code).ok()
}

impl Session<'_> {
    /// Answers HISTORY for a game.
    pub(in crate::judge) fn history(&mut self, line: &str, name: &str, span: Span) {
        let judge = self.judge;
        let Some(g) = self.games.get(&name.to_ascii_lowercase()) else {
            self.error(line, format!("there is no game '{name}'"));
            return;
        };
        if !g.listed_for(&self.reader()) {
            let why = private(&g.name);
            self.error(line, why);
            return;
        }
        let form = "write e.g. HISTORY <game> FROM S1902M TO F1903M LINES 2000";
        if let Some(stray) = &span.stray {
            let why = format!("'{stray}' is not part of a HISTORY; {form}");
            self.error(line, why);
            return;
        }
        let calendar = &judge.variant(g).calendar;
        let mut bounds = [None, None];
        for (bound, text) in bounds.iter_mut().zip([&span.from, &span.to]) {
            let Some(text) = text else { continue };
            match calendar.parse(text) {
                Ok(p) => *bound = Some(p),
                Err(e) => {
                    let why = format!("{e}; {form}");
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
        let inside = |a: &Archived| match phase_of(judge, g, a) {
            Some(p) => from.is_none_or(|f| p >= f) && to.is_none_or(|t| p <= t),
            None => from.is_none(),
        };
        let chosen: Vec<&Archived> = g.archive.iter().filter(|a| inside(a)).collect();
        let range = match (from, to) {
            (None, None) => String::new(),
            (Some(f), None) => format!(" from {}", calendar.code(f)),
            (None, Some(t)) => format!(" up to {}", calendar.code(t)),
            (Some(f), Some(t)) => format!(" from {} to {}", calendar.code(f), calendar.code(t)),
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
