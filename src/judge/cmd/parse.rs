//! One line of a mail read as a command of the judge language (njudge's, with DPjudge's
//! improvements), from the commands' rows ([`super::def::Def`]) alone. Keywords match in any
//! case; in a command that is the whole line, spaces between them are optional (`SET
//! NOWAIT`, `SET NO WAIT`, `SETNOWAIT`). A line that is no command is, after SIGNON, an
//! order. The same rows give the right form of a misfit line and the secret words to hide.

use super::def::{Def, Read, Reader, Words};
use super::{keywords, orders, Command};

/// A line read: the command's row and its typed value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The row of the command (for an order line, the orders' row).
    pub def: &'static Def,
    /// The command with its arguments.
    pub command: Command,
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

/// Reads one line into its command and the command's row.
pub fn parse(line: &str) -> Parsed {
    for def in keywords() {
        if let Read::Line(command) = def.read {
            if def.spellings().any(|s| is_line(line, s)) {
                return Parsed {
                    def,
                    command: command(),
                };
            }
        }
    }
    let all: Vec<&str> = line.split_whitespace().collect();
    let upper: Vec<String> = all.iter().map(|w| w.to_ascii_uppercase()).collect();
    // The longest spelling that starts the line first: GET MAP before GET, SET RULE before
    // SET; a shorter one when the longer one's arguments do not fit.
    let mut starting: Vec<(usize, &'static Def, Reader)> = keywords()
        .filter_map(|def| match def.read {
            Read::Args(read) => def
                .spellings()
                .filter_map(|s| starts(&upper, s))
                .max()
                .map(|n| (n, def, read)),
            Read::Line(_) => None,
        })
        .collect();
    starting.sort_by_key(|(n, _, _)| std::cmp::Reverse(*n));
    let mut words = Words { all, upper, at: 0 };
    for (n, def, read) in starting {
        words.at = n;
        if let Some(command) = read(&words) {
            return Parsed { def, command };
        }
    }
    Parsed {
        def: &orders::ORDER,
        command: orders::OrdersCommand::Order(line.trim().to_string()).into(),
    }
}

/// Reads one line into its command.
pub fn parse_command(line: &str) -> Command {
    parse(line).command
}

/// The command whose words start `line` (the longest spelling that does, among those that
/// take arguments, the catch-all `SET` aside) and its right form, for a line that did not
/// read.
pub fn misfit(line: &str) -> Option<(&'static str, &'static str)> {
    let upper: Vec<String> = line
        .split_whitespace()
        .map(|w| w.to_ascii_uppercase())
        .collect();
    keywords()
        .filter(|def| matches!(def.read, Read::Args(_)) && def.name != "SET")
        .filter_map(|def| {
            let n = def.spellings().filter_map(|s| starts(&upper, s)).max()?;
            Some((n, def))
        })
        .max_by_key(|(n, _)| *n)
        .and_then(|(_, def)| def.form.map(|form| (def.name, form)))
}

/// A line as the reply may show it: the secret words of its command (the password of a
/// SIGNON, CREATE, OBSERVE or SET PASSWORD, a join word after a SIGNON's or OBSERVE's
/// password or in SET PRIVATE) replaced by `****`, so that a mistyped one is neither mailed
/// back nor stored in the outbox. The command is found by its words even where its line
/// did not read (`SIGNON Fwar`, `SETPASSWORD x`).
pub fn without_secrets(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let joined = |spelling: &str| {
        let first = upper.first()?;
        (spelling.split_whitespace().collect::<String>() == *first).then_some(1)
    };
    let found = keywords()
        .filter_map(|def| Some((def, def.secret?)))
        .filter_map(|(def, secret)| {
            let n = def
                .spellings()
                .filter_map(|s| starts(&upper, s).or_else(|| joined(s)))
                .max()?;
            Some((n, secret))
        })
        .max_by_key(|(n, _)| *n);
    let Some((n, secret)) = found else {
        return line.to_string();
    };
    let from = n + secret.from;
    let to = secret.to.map_or(words.len(), |to| n + to).min(words.len());
    if from >= to {
        return line.to_string();
    }
    let mut shown = words;
    for w in &mut shown[from..to] {
        *w = "****";
    }
    shown.join(" ")
}

#[cfg(test)]
mod tests;
