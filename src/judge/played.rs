//! What a game keeps of its phases for SUMMARY, as phases: when each player's tenure began,
//! and the centre counts of each year. Text a herald before December 2026 stored still
//! loads (see each type).

use serde::{Deserialize, Serialize};

use crate::game::calendar::{Calendar, Phase};

/// The phase a tenure began: the phase itself, or, for a tenure a herald before December
/// 2026 stored, the code it wrote (`S1901M`), read with the game's calendar where it is
/// shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Since {
    /// The phase.
    Phase(Phase),
    /// Its code as stored before phases were kept typed.
    Code(String),
}

impl Since {
    /// The phase, read from the code with `calendar` when stored as one (None when the code
    /// is not one of that calendar's).
    pub fn phase(&self, calendar: &Calendar) -> Option<Phase> {
        match self {
            Since::Phase(p) => Some(*p),
            Since::Code(code) => calendar.parse(code).ok(),
        }
    }

    /// The phase's code (`S1901M`); a stored code that is not the calendar's is shown as it is.
    pub fn code(&self, calendar: &Calendar) -> String {
        match (self.phase(calendar), self) {
            (Some(p), _) => calendar.code(p),
            (None, Since::Code(code)) => code.clone(),
            (None, Since::Phase(p)) => calendar.code(*p),
        }
    }
}

/// The supply centres each power held at the end of a year, for SUMMARY.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CentreCount {
    /// How many phases had been played when the count was taken: the year is that of the
    /// last of them (`history[played - 1]`), and a ROLLBACK drops the counts of the phases
    /// it undoes.
    pub played: usize,
    /// The count per power, by power index.
    pub counts: Vec<usize>,
}

impl<'de> Deserialize<'de> for CentreCount {
    /// A count as stored now, or as a herald before December 2026 stored it: `[shown year,
    /// counts, played]` (the shown year is the year of the phase `played` names, so it is
    /// not kept).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CentreCount, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Named { played: usize, counts: Vec<usize> },
            Tuple(serde::de::IgnoredAny, Vec<usize>, usize),
        }
        Ok(match Stored::deserialize(d)? {
            Stored::Named { played, counts } => CentreCount { played, counts },
            Stored::Tuple(_, counts, played) => CentreCount { played, counts },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Since;
    use crate::judge::game::Game;
    use crate::judge::testkit::{judge, mail, reply, start, started, GM};
    use crate::judge::{process, summary};

    /// The game `g` after Spring and Fall 1901 are played (all units holding).
    fn a_year_played(j: &crate::judge::Judge) -> crate::judge::Games {
        let mut games = started(j);
        let g = games.get_mut("g").unwrap();
        process::process(j, g, start());
        process::process(j, g, start());
        assert_eq!(g.history.len(), 2);
        games
    }

    // Issue 26: "stored orders, phases, zones, endings and mail kinds as types (text only
    // at the serde boundary)"; review 4.5: "`PhaseRecord.code`, `Tenure.from` are strings;
    // `centre_counts: Vec<(String, Vec<usize>, usize)>`".
    #[test]
    fn phases_are_kept_as_phases_and_centre_counts_by_name() {
        let j = judge();
        let games = a_year_played(&j);
        let g = &games["g"];
        let cal = &j.variant(g).calendar;
        let phases: Vec<String> = g.history.iter().map(|h| cal.code(h.phase())).collect();
        assert_eq!(phases, ["S1901M", "F1901M"]);
        let json = serde_json::to_value(g).unwrap();
        assert!(
            json["history"][0].get("code").is_none(),
            "{}",
            json["history"][0]
        );
        assert!(
            json["tenures"][0]["from"].is_object(),
            "{}",
            json["tenures"][0]
        );
        assert_eq!(
            json["centre_counts"][0]["played"], 2,
            "{}",
            json["centre_counts"]
        );
        assert_eq!(g.year_of(&g.centre_counts[0]), Some(1901));
        let text = summary::summary_text(&j, g, "").join("\n");
        assert!(text.contains("through F1901M"), "{text}");
        assert!(text.contains("(from S1901M)"), "{text}");
        assert!(text.contains("   1901"), "{text}");
    }

    // A game stored with phase codes and tuple centre counts loads, reads as before, and
    // plays on: ROLLBACK finds the phase by its phase, not its code.
    #[test]
    fn a_game_stored_with_phase_codes_loads_and_rolls_back() {
        let j = judge();
        let mut games = a_year_played(&j);
        let typed = summary::summary_text(&j, &games["g"], "");
        let mut json = serde_json::to_value(&games["g"]).unwrap();
        for (record, code) in json["history"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .zip(["S1901M", "F1901M"])
        {
            record["code"] = code.into();
        }
        for tenure in json["tenures"].as_array_mut().unwrap() {
            tenure["from"] = "S1901M".into();
        }
        let counts = json["centre_counts"][0]["counts"].clone();
        json["centre_counts"][0] = serde_json::json!(["1901", counts, 2]);
        let old: Game = serde_json::from_value(json).unwrap();
        assert_eq!(summary::summary_text(&j, &old, ""), typed);
        games.insert("g".into(), old);
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nROLLBACK S1901M",
            start(),
        );
        let text = &reply(&h, GM).body;
        assert!(text.contains("Rolled back to S1901M"), "{text}");
        let g = &games["g"];
        assert!(g.history.is_empty() && g.centre_counts.is_empty(), "{text}");
        // A stored code the calendar does not know is shown as it was stored.
        let cal = &j.variant(g).calendar;
        assert_eq!(Since::Code("X1901Q".into()).code(cal), "X1901Q");
    }
}
