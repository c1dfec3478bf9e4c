//! How a game ended, as a value: the judge decides it (victory, a draw, the last year, the
//! Master's TERMINATE) and shows it in words; a stored game keeps those words, which are
//! read back into the value when it loads (issue 26: "outcomes ... as types (text only at
//! the serde boundary)"). Every text herald has written reads back to the same text.

use std::fmt;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A power (or several holding one player's powers) reached the victory centres.
    Victory(Vec<String>),
    /// The last year of a `survivors_share` game ended: the survivors share it.
    SurvivorsShare(Vec<String>),
    /// The last year of a `survivors_share` game ended with no power on the board.
    NoSurvivor,
    /// The last year ended with no winner: the powers ranked by supply centres (name,
    /// centres), most first.
    Ranked(Vec<(String, usize)>),
    /// Every survivor agreed to a draw among these powers.
    Draw(Vec<String>),
    /// Every survivor conceded to this power.
    Conceded(String),
    /// The Master ended the game (TERMINATE).
    Terminated,
}

const VICTORY: &str = "Victory for ";
const SURVIVORS: &str = "Draw shared by the survivors: ";
const NO_SURVIVOR: &str = "No power survived the last year: the game ends without a winner";
const RANKED: &str = "The game reached its last year; ranked by supply centres: ";
const DRAW: &str = "Draw among ";
const CONCEDED: &str = "Conceded to ";
const TERMINATED: &str = "Terminated by the Master";

impl fmt::Display for Ending {
    /// The ending in words, as results, summaries and replies show it (and as it is stored).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Victory(names) => write!(f, "{VICTORY}{}", names.join(" and ")),
            Ending::SurvivorsShare(names) => write!(f, "{SURVIVORS}{}", names.join(", ")),
            Ending::NoSurvivor => f.write_str(NO_SURVIVOR),
            Ending::Ranked(rank) => {
                let list: Vec<String> = rank.iter().map(|(n, c)| format!("{n} {c}")).collect();
                write!(f, "{RANKED}{}", list.join(", "))
            }
            Ending::Draw(names) => write!(f, "{DRAW}{}", names.join(", ")),
            Ending::Conceded(name) => write!(f, "{CONCEDED}{name}"),
            Ending::Terminated => f.write_str(TERMINATED),
        }
    }
}

/// Stored text that is none of the endings herald writes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a game ending herald wrote")]
pub struct UnknownEnding(String);

impl std::str::FromStr for Ending {
    type Err = UnknownEnding;

    /// Reads an ending back from its words ([`Ending`]'s `Display`).
    fn from_str(s: &str) -> Result<Ending, UnknownEnding> {
        let names = |list: &str, sep: &str| list.split(sep).map(str::to_string).collect();
        let ending = if s == TERMINATED {
            Some(Ending::Terminated)
        } else if s == NO_SURVIVOR {
            Some(Ending::NoSurvivor)
        } else if let Some(list) = s.strip_prefix(VICTORY) {
            Some(Ending::Victory(names(list, " and ")))
        } else if let Some(list) = s.strip_prefix(SURVIVORS) {
            Some(Ending::SurvivorsShare(names(list, ", ")))
        } else if let Some(list) = s.strip_prefix(DRAW) {
            Some(Ending::Draw(names(list, ", ")))
        } else if let Some(name) = s.strip_prefix(CONCEDED) {
            Some(Ending::Conceded(name.to_string()))
        } else if let Some(list) = s.strip_prefix(RANKED) {
            ranked(list).map(Ending::Ranked)
        } else {
            None
        };
        ending
            .filter(|e| e.to_string() == s)
            .ok_or_else(|| UnknownEnding(s.to_string()))
    }
}

/// `England 12, France 10`: names (which may hold ", " themselves) each ending in a count.
fn ranked(list: &str) -> Option<Vec<(String, usize)>> {
    let mut out = Vec::new();
    let mut name = String::new();
    for part in list.split(", ") {
        if !name.is_empty() {
            name.push_str(", ");
        }
        match part.rsplit_once(' ').map(|(n, c)| (n, c.parse::<usize>())) {
            Some((n, Ok(count))) => {
                name.push_str(n);
                out.push((std::mem::take(&mut name), count));
            }
            _ => name.push_str(part),
        }
    }
    name.is_empty().then_some(out)
}

/// Stored as its words; words this herald did not write fail the game's load, naming them.
impl serde::Serialize for Ending {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Ending {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Ending, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Every ending herald writes reads back from its words to the same words (the texts
    /// are those `process.rs`, `cmd/draws.rs` and TERMINATE wrote as strings before).
    #[test]
    fn every_ending_reads_back_from_its_words() {
        let cases = [
            ("Victory for England", Ending::Victory(names(&["England"]))),
            (
                "Victory for Great Britain and France",
                Ending::Victory(names(&["Great Britain", "France"])),
            ),
            (
                "Draw shared by the survivors: England, France",
                Ending::SurvivorsShare(names(&["England", "France"])),
            ),
            (
                "No power survived the last year: the game ends without a winner",
                Ending::NoSurvivor,
            ),
            (
                "The game reached its last year; ranked by supply centres: Russia 12, Turkey 9",
                Ending::Ranked(vec![("Russia".into(), 12), ("Turkey".into(), 9)]),
            ),
            (
                "Draw among Austria, England, France",
                Ending::Draw(names(&["Austria", "England", "France"])),
            ),
            ("Conceded to Italy", Ending::Conceded("Italy".into())),
            ("Terminated by the Master", Ending::Terminated),
        ];
        for (text, ending) in cases {
            assert_eq!(text.parse::<Ending>(), Ok(ending.clone()), "{text}");
            assert_eq!(ending.to_string(), text);
        }
    }

    /// A name with a comma in a ranking still reads back to the same words.
    #[test]
    fn a_ranking_reads_names_with_commas() {
        let text =
            "The game reached its last year; ranked by supply centres: Kingdom of A, B 7, C 2";
        let e: Ending = text.parse().unwrap();
        assert_eq!(
            e,
            Ending::Ranked(vec![("Kingdom of A, B".into(), 7), ("C".into(), 2)])
        );
        assert_eq!(e.to_string(), text);
    }

    /// Words herald never wrote are refused, quoting them.
    #[test]
    fn other_words_are_refused() {
        for text in [
            "Won by default",
            "",
            "The game reached its last year; ranked by supply centres: England",
        ] {
            let err = text.parse::<Ending>().unwrap_err();
            assert!(err.to_string().contains(&format!("'{text}'")), "{err}");
        }
    }
}
