//! Power preference lists, as njudge reads them (`SET PREFERENCE E[FG]I`): letters best
//! first, letters in brackets equally good (taken in a random order at START), and `*` for
//! a random power (alone, or after the powers wanted most).

/// A preference list read: groups of equally good power letters, best group first; empty
/// (or ending in `*`) where the rest is left to chance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preference {
    /// The groups, best first; each holds letters equally good.
    pub groups: Vec<Vec<char>>,
}

impl Preference {
    /// Reads a list against the variant's power letters (upper case). Spaces are ignored.
    /// Refuses an unknown or repeated letter, brackets that do not pair, and anything after
    /// `*`, saying which.
    pub fn parse(text: &str, letters: &[char]) -> Result<Preference, String> {
        let mut groups: Vec<Vec<char>> = Vec::new();
        let mut open: Option<Vec<char>> = None;
        let mut seen: Vec<char> = Vec::new();
        let mut star = false;
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            let c = c.to_ascii_uppercase();
            if star {
                return Err("nothing may follow '*' (a random power)".into());
            }
            match c {
                '[' if open.is_none() => open = Some(Vec::new()),
                '[' => return Err("brackets may not be nested".into()),
                ']' => match open.take() {
                    Some(g) if !g.is_empty() => groups.push(g),
                    Some(_) => return Err("'[]' holds no power".into()),
                    None => return Err("a ']' without its '['".into()),
                },
                '*' if open.is_none() => star = true,
                '*' => return Err("'*' may not be inside brackets".into()),
                c if letters.contains(&c) => {
                    if seen.contains(&c) {
                        return Err(format!("{c} is named twice"));
                    }
                    seen.push(c);
                    match open.as_mut() {
                        Some(g) => g.push(c),
                        None => groups.push(vec![c]),
                    }
                }
                c => {
                    let all: String = letters.iter().collect();
                    return Err(format!(
                        "'{c}' is no power of this game (its powers: {all})"
                    ));
                }
            }
        }
        if open.is_some() {
            return Err("a '[' without its ']'".into());
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

    /// The list in words, for the player: `E, then F or G (either first), then I`.
    pub fn describe(&self) -> String {
        if self.groups.is_empty() {
            return "a random power".into();
        }
        let parts: Vec<String> = self
            .groups
            .iter()
            .map(|g| match g.as_slice() {
                [one] => one.to_string(),
                many => {
                    let names: Vec<String> = many.iter().map(char::to_string).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    const SEVEN: &[char] = &['A', 'E', 'F', 'G', 'I', 'R', 'T'];

    #[test]
    fn lists_read_with_ties_and_chance() {
        for (text, code, words) in [
            (
                "E[FG]I",
                "E[FG]I",
                "E, then F or G (in a random order), then I, then a random power",
            ),
            (
                "e [f g] i",
                "E[FG]I",
                "E, then F or G (in a random order), then I, then a random power",
            ),
            ("*", "*", "a random power"),
            ("F*", "F", "F, then a random power"),
            (
                "[EFGIART]",
                "[EFGIART]",
                "E or F or G or I or A or R or T (in a random order), then a random power",
            ),
        ] {
            let p = Preference::parse(text, SEVEN).unwrap();
            assert_eq!(
                (p.code(), p.describe()),
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
                Preference::parse(text, SEVEN),
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
