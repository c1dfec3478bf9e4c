//! Power preference lists, as njudge reads them (`SET PREFERENCE E[FG]I`): letters best
//! first, letters in brackets equally good (taken in a random order at START), and `*` for
//! a random power (alone, or after the powers wanted most).

use crate::game::map::Map;

/// Why a preference list could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PreferenceError {
    /// Something after `*`.
    #[error("nothing may follow '*' (a random power)")]
    AfterStar,
    /// A `[` inside brackets.
    #[error("brackets may not be nested")]
    Nested,
    /// `[]`.
    #[error("'[]' holds no power")]
    EmptyBrackets,
    /// A `]` with no `[` before it.
    #[error("a ']' without its '['")]
    Unopened,
    /// A `[` never closed.
    #[error("a '[' without its ']'")]
    Unclosed,
    /// `*` inside brackets.
    #[error("'*' may not be inside brackets")]
    StarInBrackets,
    /// A power named twice (its letter).
    #[error("{0} is named twice")]
    Twice(char),
    /// A letter that is no power's (the letter, and all the game's letters).
    #[error("'{0}' is no power of this game (its powers: {1})")]
    NoSuchLetter(char, String),
    /// A word that is no power's name and not a run of power letters (as written, and the
    /// game's powers as `England (E)`).
    #[error("'{0}' names no power of this game (its powers: {1})")]
    NoSuchName(String, String),
    /// A word that reads both as the start of a power's name and as a run of letters
    /// (`Ger`: Germany, or G, E, R): as written, the power, and the letters.
    #[error("'{0}' could be {1} or the letters {2}: write the name in full, or the letters apart")]
    Ambiguous(String, String, String),
}

/// A preference list read: groups of equally good power letters, best group first; empty
/// (or ending in `*`) where the rest is left to chance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preference {
    /// The groups, best first; each holds letters equally good.
    pub groups: Vec<Vec<char>>,
}

impl Preference {
    /// Reads a list as a player writes it against the game's map: njudge's letters
    /// (`E[FG]I`), or the powers' names, adjectives or other names (`France, England`,
    /// `[French German] Italian`), with spaces, commas, slashes, semicolons or `>` between
    /// them. A word that is both the start of a power's name and a run of letters (`Ger`)
    /// is refused as ambiguous rather than guessed.
    pub fn read(text: &str, map: &Map) -> Result<Preference, PreferenceError> {
        let letters: Vec<char> = map.powers.iter().map(|p| p.letter).collect();
        let mut code = String::new();
        let mut word = String::new();
        let flush = |word: &mut String, code: &mut String| -> Result<(), PreferenceError> {
            if word.is_empty() {
                return Ok(());
            }
            let w = std::mem::take(word);
            if let Some(p) = map.power_by_word(&w) {
                code.push(map.power(p).letter);
                return Ok(());
            }
            let as_letters = w.chars().all(|c| letters.contains(&c.to_ascii_uppercase()));
            let lower = w.to_lowercase();
            let begins = (w.chars().count() >= 3)
                .then(|| {
                    map.powers.iter().find(|p| {
                        p.name.to_lowercase().starts_with(&lower)
                            || p.adjective.to_lowercase().starts_with(&lower)
                    })
                })
                .flatten();
            match (as_letters, begins) {
                (true, Some(p)) => Err(PreferenceError::Ambiguous(
                    w.clone(),
                    p.name.clone(),
                    w.to_ascii_uppercase(),
                )),
                (true, None) => {
                    code.push_str(&w);
                    Ok(())
                }
                // The start of one power's name and no run of letters: that power.
                (false, Some(p)) => {
                    code.push(p.letter);
                    Ok(())
                }
                // Short, or in capitals: meant as letters (`E[FX`), the wrong one named.
                (false, _) if w.chars().count() <= 2 || w.chars().all(|c| c.is_uppercase()) => {
                    let c = w
                        .chars()
                        .map(|c| c.to_ascii_uppercase())
                        .find(|c| !letters.contains(c))
                        .unwrap_or('?');
                    Err(PreferenceError::NoSuchLetter(c, letters.iter().collect()))
                }
                (false, _) => Err(PreferenceError::NoSuchName(w, powers_listed(map))),
            }
        };
        for c in text.chars() {
            if c.is_alphanumeric() {
                word.push(c);
                continue;
            }
            flush(&mut word, &mut code)?;
            if matches!(c, '[' | ']' | '*') {
                code.push(c);
            } else if !(c.is_whitespace() || matches!(c, ',' | '/' | ';' | '>')) {
                // Anything else is no part of a list: refused by the parser below.
                code.push(c);
            }
        }
        flush(&mut word, &mut code)?;
        Preference::parse(&code, &letters)
    }

    /// Reads a list in njudge's form (as stored) against the variant's power letters
    /// (upper case). Spaces are ignored. Refuses an unknown or repeated letter, brackets
    /// that do not pair, and anything after `*`, saying which.
    pub fn parse(text: &str, letters: &[char]) -> Result<Preference, PreferenceError> {
        let mut groups: Vec<Vec<char>> = Vec::new();
        let mut open: Option<Vec<char>> = None;
        let mut seen: Vec<char> = Vec::new();
        let mut star = false;
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            let c = c.to_ascii_uppercase();
            if star {
                return Err(PreferenceError::AfterStar);
            }
            match c {
                '[' if open.is_none() => open = Some(Vec::new()),
                '[' => return Err(PreferenceError::Nested),
                ']' => match open.take() {
                    Some(g) if !g.is_empty() => groups.push(g),
                    Some(_) => return Err(PreferenceError::EmptyBrackets),
                    None => return Err(PreferenceError::Unopened),
                },
                '*' if open.is_none() => star = true,
                '*' => return Err(PreferenceError::StarInBrackets),
                c if letters.contains(&c) => {
                    if seen.contains(&c) {
                        return Err(PreferenceError::Twice(c));
                    }
                    seen.push(c);
                    match open.as_mut() {
                        Some(g) => g.push(c),
                        None => groups.push(vec![c]),
                    }
                }
                c => {
                    return Err(PreferenceError::NoSuchLetter(c, letters.iter().collect()));
                }
            }
        }
        if open.is_some() {
            return Err(PreferenceError::Unclosed);
        }
        Ok(Preference { groups })
    }

    /// The list in njudge's form, as stored: `E[FG]I`, `*` when empty.
    pub fn code(&self) -> String {
        if self.groups.is_empty() {
            return "*".into();
        }
        self.groups
            .iter()
            .map(|g| match g.as_slice() {
                [one] => one.to_string(),
                many => format!("[{}]", many.iter().collect::<String>()),
            })
            .collect()
    }

    /// The list in words, for the player, each power by name: `England, then France or
    /// Germany (in a random order), then Italy, then a random power`.
    pub fn describe(&self, map: &Map) -> String {
        if self.groups.is_empty() {
            return "a random power".into();
        }
        let name = |c: &char| {
            map.powers
                .iter()
                .find(|p| p.letter == *c)
                .map_or_else(|| c.to_string(), |p| p.name.clone())
        };
        let parts: Vec<String> = self
            .groups
            .iter()
            .map(|g| match g.as_slice() {
                [one] => name(one),
                many => {
                    let names: Vec<String> = many.iter().map(name).collect();
                    format!("{} (in a random order)", names.join(" or "))
                }
            })
            .collect();
        format!("{}, then a random power", parts.join(", then "))
    }

    /// The letters best first, each group shuffled by `pick` (given a length, an index
    /// below it).
    pub fn order(&self, pick: &mut impl FnMut(usize) -> usize) -> Vec<char> {
        let mut out = Vec::new();
        for group in &self.groups {
            let mut left = group.clone();
            while !left.is_empty() {
                let k = pick(left.len()) % left.len();
                out.push(left.remove(k));
            }
        }
        out
    }
}

/// The game's powers as `England (E), France (F), …`, for a refusal.
fn powers_listed(map: &Map) -> String {
    map.powers
        .iter()
        .map(|p| format!("{} ({})", p.name, p.letter))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEVEN: &[char] = &['A', 'E', 'F', 'G', 'I', 'R', 'T'];

    #[test]
    fn lists_read_with_ties_and_chance() {
        let v = crate::game::variant::Variant::standard();
        let map = &v.map;
        for (text, code, words) in [
            (
                "E[FG]I",
                "E[FG]I",
                "England, then France or Germany (in a random order), then Italy, then a random power",
            ),
            (
                "e [f g] i",
                "E[FG]I",
                "England, then France or Germany (in a random order), then Italy, then a random power",
            ),
            ("*", "*", "a random power"),
            ("F*", "F", "France, then a random power"),
            (
                "[EFGIART]",
                "[EFGIART]",
                "England or France or Germany or Italy or Austria or Russia or Turkey (in a random order), then a random power",
            ),
        ] {
            let p = Preference::parse(text, SEVEN).unwrap();
            assert_eq!(
                (p.code(), p.describe(map)),
                (code.to_string(), words.to_string()),
                "{text}"
            );
        }
        for (text, why) in [
            ("EX", "'X' is no power of this game (its powers: AEFGIRT)"),
            ("EFE", "E is named twice"),
            ("E[FG", "a '[' without its ']'"),
            ("E]", "a ']' without its '['"),
            ("[E[F]]", "brackets may not be nested"),
            ("*E", "nothing may follow '*' (a random power)"),
            ("[]", "'[]' holds no power"),
        ] {
            assert_eq!(
                Preference::parse(text, SEVEN).map_err(|e| e.to_string()),
                Err(why.to_string()),
                "{text}"
            );
        }
    }

    // "`SET PREFERENCE France, England` … misread" (issue 25): names are read as the
    // powers they name, letters as before, and a word that reads both ways is refused.
    #[test]
    fn names_are_read_as_powers_and_an_ambiguous_word_is_refused() {
        let v = crate::game::variant::Variant::standard();
        let map = &v.map;
        for (text, code) in [
            ("France, England", "FE"),
            ("FRANCE ENGLAND", "FE"),
            ("France > England > Germany", "FEG"),
            ("[French German] Italian", "[FG]I"),
            ("england; turkey/russia", "ETR"),
            ("Fran, Engl", "FE"),
            ("E[FG]I", "E[FG]I"),
            ("F, E *", "FE"),
        ] {
            let p = Preference::read(text, map).map_err(|e| e.to_string());
            assert_eq!(p.map(|p| p.code()), Ok(code.to_string()), "{text}");
        }
        for (text, why) in [
            (
                "Ger, Fra",
                "'Ger' could be Germany or the letters GER: write the name in full, or the letters apart",
            ),
            ("France, Spain", "'Spain' names no power of this game (its powers: Austria (A), England (E), France (F), Germany (G), Italy (I), Russia (R), Turkey (T))"),
            ("France, France", "F is named twice"),
            ("X", "'X' is no power of this game (its powers: AEFGIRT)"),
        ] {
            assert_eq!(
                Preference::read(text, map).map_err(|e| e.to_string()),
                Err(why.to_string()),
                "{text}"
            );
        }
    }

    #[test]
    fn ties_are_taken_in_the_order_chance_gives() {
        let p = Preference::parse("E[FG]I", SEVEN).unwrap();
        assert_eq!(p.order(&mut |_| 0), ['E', 'F', 'G', 'I']);
        assert_eq!(p.order(&mut |n| n - 1), ['E', 'G', 'F', 'I']);
    }
}
