//! Calendars: the seasons of a year, the phases of each season, and how years are shown.
//!
//! The judge counts years as plain integers (`1901`, or `50` for Classical's 273 B.C.) and
//! names phases by code (`S1901M`); players see the variant's own form
//! (`Spring 273 B.C., Movement`). Both forms are accepted back.

use std::fmt;

/// What is ordered in a phase.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum PhaseKind {
    /// Units move, support, convoy.
    Movement,
    /// Dislodged units retreat or disband.
    Retreat,
    /// Builds and removals.
    Adjustment,
}

impl PhaseKind {
    /// The word used in results: `Movement`.
    pub fn name(self) -> &'static str {
        match self {
            PhaseKind::Movement => "Movement",
            PhaseKind::Retreat => "Retreat",
            PhaseKind::Adjustment => "Adjustment",
        }
    }

    /// The letter used in phase codes: `M`, `R`, `A`.
    pub fn letter(self) -> char {
        match self {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
        }
    }

    fn from_word(word: &str) -> Option<PhaseKind> {
        match word.to_ascii_lowercase().as_str() {
            "m" | "movement" | "move" | "moves" | "movements" => Some(PhaseKind::Movement),
            "r" | "retreat" | "retreats" | "retreating" => Some(PhaseKind::Retreat),
            "a" | "b" | "adjustment" | "adjustments" | "adjust" | "build" | "builds" => {
                Some(PhaseKind::Adjustment)
            }
            _ => None,
        }
    }
}

/// One season of the year and the phases it has, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Season {
    /// Its name, `Spring`.
    pub name: String,
    /// The phases played in it.
    pub phases: Vec<PhaseKind>,
    /// Whether supply centres change hands once this season's phases are over.
    pub takes_centres: bool,
}

/// How years are shown to players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YearStyle {
    /// The judge year as it is: `1901`.
    Plain,
    /// Counted down before Christ: shown = `epoch - year`, written `273 B.C.`.
    BeforeChrist {
        /// The judge year plus the shown year, a constant (323 for Classical).
        epoch: i32,
    },
}

/// A point in the game's time: year, season and phase.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Phase {
    /// The judge year.
    pub year: i32,
    /// The index of the season in the calendar.
    pub season: u8,
    /// The phase within the season.
    pub kind: PhaseKind,
}

/// A variant's calendar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calendar {
    /// The seasons of a year, in order.
    pub seasons: Vec<Season>,
    /// How years are shown.
    pub years: YearStyle,
    /// The first phase of a new game.
    pub start: Phase,
}

/// A phase text that could not be understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a phase of this game: {why}")]
pub struct PhaseError {
    /// The text refused.
    pub text: String,
    /// Why.
    pub why: String,
}

impl Calendar {
    /// Spring (movement, retreat), Fall (movement, retreat, centres change hands), Winter
    /// (adjustment), years shown as they are, starting Spring `year`.
    pub fn standard(year: i32) -> Calendar {
        Calendar {
            seasons: vec![
                Season {
                    name: "Spring".into(),
                    phases: vec![PhaseKind::Movement, PhaseKind::Retreat],
                    takes_centres: false,
                },
                Season {
                    name: "Fall".into(),
                    phases: vec![PhaseKind::Movement, PhaseKind::Retreat],
                    takes_centres: true,
                },
                Season {
                    name: "Winter".into(),
                    phases: vec![PhaseKind::Adjustment],
                    takes_centres: false,
                },
            ],
            years: YearStyle::Plain,
            start: Phase {
                year,
                season: 0,
                kind: PhaseKind::Movement,
            },
        }
    }

    /// The Classical calendar: the standard seasons, starting Spring 273 B.C. (judge year
    /// 50, years since the death of Alexander), years shown counting down B.C.
    pub fn classical() -> Calendar {
        Calendar {
            years: YearStyle::BeforeChrist { epoch: 323 },
            ..Calendar::standard(50)
        }
    }

    /// Deluge II's calendar: the standard seasons, starting with the adjustments of Winter
    /// 1900 (every power builds its first units).
    pub fn deluge() -> Calendar {
        Calendar {
            start: Phase {
                year: 1900,
                season: 2,
                kind: PhaseKind::Adjustment,
            },
            ..Calendar::standard(1901)
        }
    }

    /// The world of 1880: the standard seasons from Spring 1880, after an opening phase in
    /// Winter 1879 where each power chooses its units (builds in its home centres).
    pub fn world1880() -> Calendar {
        Calendar {
            start: Phase {
                year: 1879,
                season: 2,
                kind: PhaseKind::Adjustment,
            },
            ..Calendar::standard(1880)
        }
    }

    /// The index of the season with this name (any case).
    pub fn season_index(&self, name: &str) -> Option<u8> {
        self.seasons
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }

    /// The season a phase is in.
    pub fn season(&self, phase: Phase) -> &Season {
        &self.seasons[phase.season as usize]
    }

    /// The phase that follows, skipping none.
    pub fn next(&self, phase: Phase) -> Phase {
        let season = self.season(phase);
        if let Some(i) = season.phases.iter().position(|&k| k == phase.kind) {
            if let Some(&kind) = season.phases.get(i + 1) {
                return Phase { kind, ..phase };
            }
        }
        let (year, s) = if phase.season as usize + 1 < self.seasons.len() {
            (phase.year, phase.season + 1)
        } else {
            (phase.year + 1, 0)
        };
        Phase {
            year,
            season: s,
            kind: self.seasons[s as usize].phases[0],
        }
    }

    /// Whether this phase is the last of its season.
    pub fn ends_season(&self, phase: Phase) -> bool {
        self.season(phase).phases.last() == Some(&phase.kind)
    }

    /// The year as players see it: `1901`, `273 B.C.`.
    pub fn show_year(&self, year: i32) -> String {
        match self.years {
            YearStyle::Plain => year.to_string(),
            YearStyle::BeforeChrist { epoch } => format!("{} B.C.", epoch - year),
        }
    }

    /// The phase as players see it: `Spring 1901, Movement`.
    pub fn show(&self, phase: Phase) -> String {
        format!(
            "{} {}, {}",
            self.season(phase).name,
            self.show_year(phase.year),
            phase.kind.name()
        )
    }

    /// The judge's code for a phase: `S1901M`, `W50A`.
    pub fn code(&self, phase: Phase) -> String {
        let initial = self.season(phase).name.chars().next().unwrap_or('?');
        format!(
            "{}{}{}",
            initial.to_ascii_uppercase(),
            phase.year,
            phase.kind.letter()
        )
    }

    /// Reads a phase in any form the judge prints or players write: `S1901M`,
    /// `Spring 1901 Movement`, `Spring 1901, Movement`, `Spring 273 B.C., Movement`, `W50A`.
    /// An adjustment named in a season without one (`Fall 1901, Adjustment`, as jDip writes
    /// it) is that year's adjustment phase.
    pub fn parse(&self, text: &str) -> Result<Phase, PhaseError> {
        let fail = |why: &str| PhaseError {
            text: text.trim().to_string(),
            why: why.to_string(),
        };
        let cleaned = text.replace([',', '.'], " ").to_ascii_lowercase();
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        let (season_word, year_text, bc, kind_word) = match words[..] {
            [code] => {
                let split = code
                    .find(|c: char| c.is_ascii_digit())
                    .ok_or_else(|| fail("expected a code like S1901M"))?;
                let end = code.rfind(|c: char| c.is_ascii_digit()).unwrap_or(split) + 1;
                (&code[..split], &code[split..end], false, &code[end..])
            }
            [s, y, k] => (s, y, false, k),
            [s, y, "b", "c", k] | [s, y, "bc", k] => (s, y, true, k),
            _ => return Err(fail(
                "expected a season, a year and a phase, e.g. 'Spring 1901 Movement' or 'S1901M'",
            )),
        };
        let kind = PhaseKind::from_word(kind_word)
            .ok_or_else(|| fail("unknown phase kind (Movement, Retreat, Adjustment)"))?;
        let shown: i32 = year_text
            .parse()
            .map_err(|_| fail("the year is not a number"))?;
        let year = match (self.years, bc) {
            (YearStyle::BeforeChrist { epoch }, true) => epoch - shown,
            (YearStyle::Plain, true) => return Err(fail("this game's years are not counted B.C.")),
            _ => shown,
        };
        let season = self
            .seasons
            .iter()
            .position(|s| {
                let name = s.name.to_ascii_lowercase();
                name == season_word
                    || (season_word.len() == 1 && name.starts_with(season_word))
                    || (season_word == "autumn" && name == "fall")
            })
            .ok_or_else(|| fail("unknown season"))?;
        if self.seasons[season].phases.contains(&kind) {
            return Ok(Phase {
                year,
                season: season as u8,
                kind,
            });
        }
        self.seasons
            .iter()
            .enumerate()
            .skip(season)
            .find(|(_, s)| s.phases.contains(&kind))
            .map(|(i, _)| Phase {
                year,
                season: i as u8,
                kind,
            })
            .ok_or_else(|| fail("that season has no such phase"))
    }
}

impl fmt::Display for PhaseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_year_runs_spring_fall_winter() {
        let cal = Calendar::standard(1901);
        let mut p = cal.start;
        let mut codes = Vec::new();
        for _ in 0..6 {
            codes.push(cal.code(p));
            p = cal.next(p);
        }
        assert_eq!(
            codes,
            ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]
        );
    }

    #[test]
    fn phases_parse_in_every_written_form() {
        let cal = Calendar::standard(1901);
        let f = cal.parse("F1901R").unwrap();
        assert_eq!(cal.show(f), "Fall 1901, Retreat");
        assert_eq!(cal.parse("Fall 1901, Retreat").unwrap(), f);
        assert_eq!(cal.parse("fall 1901 retreats").unwrap(), f);
        let w = cal.parse("Fall 1901, Adjustment").unwrap();
        assert_eq!(cal.code(w), "W1901A");
        assert!(cal.parse("Summer 1901 Movement").is_err());
    }

    #[test]
    fn years_before_christ_count_down() {
        let mut cal = Calendar::standard(50);
        cal.years = YearStyle::BeforeChrist { epoch: 323 };
        let w = Phase {
            year: 50,
            season: 2,
            kind: PhaseKind::Adjustment,
        };
        assert_eq!(cal.show(w), "Winter 273 B.C., Adjustment");
        assert_eq!(cal.show(cal.next(w)), "Spring 272 B.C., Movement");
        assert_eq!(cal.parse("Spring 272 B.C., Movement").unwrap(), cal.next(w));
        assert_eq!(cal.parse("S51M").unwrap(), cal.next(w));
    }
}
