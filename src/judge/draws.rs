//! Draws and concessions (issue 18, point 3), as on njudge: `SET DRAW` votes for a draw of
//! every survivor (DIAS, the default); in a game set `NODIAS` a vote may name the powers
//! to share it (`SET DRAW AFG`), and the draw passes when every vote names the same
//! powers. `SET CONCEDE <power>` concedes the game to the largest power, in a game that
//! allows concessions. A survivor nobody plays (abandoned, or in civil disorder) agrees to
//! whatever the others agree on, so it never blocks a draw; votes last for the phase.

use super::game::{Game, SeatState};
use crate::game::ids::PowerId;
use crate::game::map::Map;
use crate::game::position::Position;

pub use super::votes::{DrawRules, Vote};

/// How a game ends by agreement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Agreed {
    /// A draw shared by these powers.
    Draw(Vec<PowerId>),
    /// The game conceded to this power.
    Conceded(PowerId),
}

/// The powers still in the game: with a unit or a centre.
pub fn survivors(map: &Map, pos: &Position) -> Vec<PowerId> {
    map.power_ids()
        .filter(|&q| pos.unit_count(q) > 0 || pos.centre_count(q) > 0)
        .collect()
}

/// The powers with the most centres.
pub fn largest(map: &Map, pos: &Position) -> Vec<PowerId> {
    let most = map
        .power_ids()
        .map(|q| pos.centre_count(q))
        .max()
        .unwrap_or(0);
    map.power_ids()
        .filter(|&q| most > 0 && pos.centre_count(q) == most)
        .collect()
}

/// A word of the sender's as a refusal quotes it: at most 30 characters.
pub fn clipped(word: &str) -> String {
    match word.char_indices().nth(30) {
        Some((cut, _)) => format!("{}…", &word[..cut]),
        None => word.to_string(),
    }
}

/// Why a draw's list of powers could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PowersError {
    /// A word that is no power's name and holds a letter that is no power's (the word as
    /// clipped for the reply, and the letter).
    #[error("'{0}' names no power ('{1}' is no power's letter); give letters as AFG or names")]
    NoSuchPower(String, char),
    /// Nothing named.
    #[error("no powers named")]
    Empty,
}

/// The words that ask for a draw of every survivor, as `SET DRAW` alone does: `ALL`,
/// `ALL SURVIVORS`, `ALL POWERS`, `EVERYONE` (any case).
pub fn names_everyone(text: &str) -> bool {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    matches!(
        words.as_slice(),
        ["all"] | ["all", "survivors"] | ["all", "powers"] | ["everyone"] | ["everybody"]
    )
}

/// Reads a draw's list of powers (`AFG`, or names and letters with spaces, commas or
/// slashes between them), in map order, or says what is wrong with it.
pub fn parse_powers(map: &Map, text: &str) -> Result<Vec<PowerId>, PowersError> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '/')
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    for w in &words {
        if let Some(p) = map.power_by_word(w) {
            out.push(p);
            continue;
        }
        // A run of letters: `AFG`.
        for c in w.chars() {
            match map
                .power_ids()
                .find(|&q| map.power(q).letter.eq_ignore_ascii_case(&c))
            {
                Some(q) => out.push(q),
                None => return Err(PowersError::NoSuchPower(clipped(w), c)),
            }
        }
    }
    out.sort();
    out.dedup();
    if out.is_empty() {
        return Err(PowersError::Empty);
    }
    Ok(out)
}

/// Whether someone plays `power`: it has a seat its player has not left (a player in civil
/// disorder still holds it). A dummy has no seat.
pub fn played(game: &Game, power: PowerId) -> bool {
    game.seat_of(power)
        .is_some_and(|seat| seat.state != SeatState::Abandoned)
}

/// The ending every survivor agrees on, if there is one: at least one played survivor
/// voted, and every played survivor voted the same way (a power nobody plays agrees); a
/// concession only to a power someone plays.
pub fn agreed(map: &Map, game: &Game) -> Option<Agreed> {
    let pos = game.position.as_ref()?;
    let alive = survivors(map, pos);
    let voters: Vec<(PowerId, &Vote)> = alive
        .iter()
        .filter_map(|&q| {
            let seat = game.seat_of(q)?;
            (seat.state == SeatState::Playing).then_some((q, &seat.vote))
        })
        .collect();
    let proposal = voters.iter().map(|(_, v)| *v).find(|v| **v != Vote::None)?;
    match proposal {
        Vote::None => None,
        Vote::Draw(with) => {
            let with = if with.is_empty() { &alive } else { with };
            voters
                .iter()
                .all(|(_, v)| match v {
                    Vote::Draw(w) if w.is_empty() => *with == alive,
                    Vote::Draw(w) => w == with,
                    _ => false,
                })
                .then(|| Agreed::Draw(with.clone()))
        }
        // Never to a power nobody plays (it may have been left since the votes were cast).
        Vote::Concede(to) => (played(game, *to)
            && voters
                .iter()
                .all(|(q, v)| q == to || *v == &Vote::Concede(*to)))
        .then_some(Agreed::Conceded(*to)),
    }
}
