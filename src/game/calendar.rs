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

    /// The kind a word names, as players and variant files write it: `movement`, `M`,
    /// `retreats`, `adjustment`, `builds` (any case).
    pub fn from_word(word: &str) -> Option<PhaseKind> {
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
    /// Counted down before Christ: shown = `epoch - year`, written `273 B.C.`, down to
    /// `1 B.C.` (judge year `epoch - 1`); then up from `1 A.D.` (judge year `epoch`): there is
    /// no year 0.
    BeforeChrist {
        /// The judge year plus the shown year, a constant (323 for Classical).
        epoch: i32,
    },
}

/// The era a year is written in: `B.C.` or `A.D.`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Era {
    BeforeChrist,
    AnnoDomini,
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

/// A year text that could not be understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a year of this game: {why}")]
pub struct YearError {
    /// The text refused.
    pub text: String,
    /// Why.
    pub why: String,
}

/// A calendar that cannot be played, as a variant file declares it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CalendarError {
    /// No seasons at all.
    #[error("a calendar needs at least one season")]
    NoSeasons,
    /// More seasons than a phase can count.
    #[error("{0} seasons are too many (at most 255)")]
    TooManySeasons(usize),
    /// A season's name is not one word of letters.
    #[error("season '{0}': a season's name is one word of letters (its initial begins the phase codes, S1901M)")]
    SeasonName(String),
    /// Two seasons would give the same phase codes.
    #[error("seasons '{0}' and '{1}' begin with the same letter, so their phase codes would be the same")]
    SameInitial(String, String),
    /// A season without phases.
    #[error("season '{0}' has no phases")]
    NoPhases(String),
    /// A season's phases out of order or twice.
    #[error("season '{0}': its phases come in the order movement, retreat, adjustment, each at most once")]
    PhaseOrder(String),
    /// No movement phase in the year: nothing would ever happen.
    #[error("no season has a movement phase")]
    NoMovement,
    /// The start is not a phase of this calendar.
    #[error("start: {0}")]
    Start(PhaseError),
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

    /// A calendar from its seasons, checked so that the engine can play it and every phase
    /// has a code of its own, starting at the phase `start` names (`Winter 1900, Adjustment`,
    /// `Spring 273 B.C., Movement`, `S1901M`).
    ///
    /// A season's name is one word of letters, and no two begin with the same letter (the
    /// initial begins the phase code: `S1901M`); its phases come in the order movement,
    /// retreat, adjustment, each at most once; some season has a movement phase.
    pub fn new(
        seasons: Vec<Season>,
        years: YearStyle,
        start: &str,
    ) -> Result<Calendar, CalendarError> {
        if seasons.is_empty() {
            return Err(CalendarError::NoSeasons);
        }
        if seasons.len() > usize::from(u8::MAX) {
            return Err(CalendarError::TooManySeasons(seasons.len()));
        }
        for (i, season) in seasons.iter().enumerate() {
            if season.name.is_empty() || !season.name.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(CalendarError::SeasonName(season.name.clone()));
            }
            if let Some(other) = seasons[..i]
                .iter()
                .find(|o| o.name[..1].eq_ignore_ascii_case(&season.name[..1]))
            {
                return Err(CalendarError::SameInitial(
                    other.name.clone(),
                    season.name.clone(),
                ));
            }
            if season.phases.is_empty() {
                return Err(CalendarError::NoPhases(season.name.clone()));
            }
            if season.phases.windows(2).any(|w| w[0] >= w[1]) {
                return Err(CalendarError::PhaseOrder(season.name.clone()));
            }
        }
        if !seasons
            .iter()
            .any(|s| s.phases.contains(&PhaseKind::Movement))
        {
            return Err(CalendarError::NoMovement);
        }
        let mut calendar = Calendar {
            seasons,
            years,
            start: Phase {
                year: 0,
                season: 0,
                kind: PhaseKind::Movement,
            },
        };
        calendar.start = calendar.parse(start).map_err(CalendarError::Start)?;
        Ok(calendar)
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

    /// The year as players see it: `1901`, `273 B.C.`, and after `1 B.C.` (judge year
    /// `epoch - 1`) `1 A.D.` (judge year `epoch`).
    pub fn show_year(&self, year: i32) -> String {
        match self.years {
            YearStyle::Plain => year.to_string(),
            YearStyle::BeforeChrist { epoch } if year < epoch => {
                format!("{} B.C.", i64::from(epoch) - i64::from(year))
            }
            YearStyle::BeforeChrist { epoch } => {
                format!("{} A.D.", i64::from(year) - i64::from(epoch) + 1)
            }
        }
    }

    /// Reads a year as players see it (`1908`, `273 B.C.`, `273 BC`, `1 A.D.`, `AD 1`) into
    /// the judge year. A bare number is the judge year, as in phase codes (`S50M`).
    pub fn parse_year(&self, text: &str) -> Result<i32, YearError> {
        let fail = |why: &str| YearError {
            text: text.trim().to_string(),
            why: why.to_string(),
        };
        let cleaned = text.replace('.', " ").to_ascii_lowercase();
        let (number, era) = match cleaned.split_whitespace().collect::<Vec<_>>()[..] {
            [n] => (n, None),
            [n, "b", "c"] | [n, "bc"] => (n, Some(Era::BeforeChrist)),
            [n, "a", "d"] | [n, "ad"] | ["a", "d", n] | ["ad", n] => (n, Some(Era::AnnoDomini)),
            _ => return Err(fail("expected a year, e.g. '1908', '273 B.C.' or '1 A.D.'")),
        };
        self.judge_year(number, era).map_err(fail)
    }

    /// The judge year of a year number as written, with the era written after it (or `A.D.`
    /// before it), if any. A year B.C. or A.D. counts from 1: there is no year 0.
    fn judge_year(&self, number: &str, era: Option<Era>) -> Result<i32, &'static str> {
        let shown: i32 = number.parse().map_err(|_| "the year is not a number")?;
        if era.is_some() && shown < 1 {
            return Err("years B.C. and A.D. count from 1: there is no year 0");
        }
        let out_of_range = "the year is out of range";
        match (self.years, era) {
            (_, None) => Ok(shown),
            (YearStyle::Plain, Some(Era::AnnoDomini)) => Ok(shown),
            (YearStyle::Plain, Some(Era::BeforeChrist)) => {
                Err("this game's years are not counted B.C.")
            }
            (YearStyle::BeforeChrist { epoch }, Some(Era::BeforeChrist)) => {
                epoch.checked_sub(shown).ok_or(out_of_range)
            }
            (YearStyle::BeforeChrist { epoch }, Some(Era::AnnoDomini)) => {
                epoch.checked_add(shown - 1).ok_or(out_of_range)
            }
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

    /// The judge's code for a phase: `S1901M`, `W50A`. It carries the judge year on either
    /// side of 1 A.D. (`S323M` is Classical's Spring 1 A.D.), signed before year 0 (`S-77M`),
    /// so no two phases share a code.
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
    /// `Spring 1901 Movement`, `Spring 1901, Movement`, `Spring 273 B.C., Movement`,
    /// `Spring 1 A.D., Movement`, `Spring A.D. 1, Movement`, `W50A`, `S-77M`.
    /// An adjustment named in a season without one (`Fall 1901, Adjustment`, as jDip writes
    /// it) is that year's adjustment phase. A season and year without a phase (`Spring 1
    /// A.D.`, `Fall 273 BC`, as the help writes PHASE) is the season's first phase: its
    /// movement, or a winter's adjustment.
    pub fn parse(&self, text: &str) -> Result<Phase, PhaseError> {
        let fail = |why: &str| PhaseError {
            text: text.trim().to_string(),
            why: why.to_string(),
        };
        let cleaned = text.replace([',', '.'], " ").to_ascii_lowercase();
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        let (season_word, year_text, era, kind_word) = match words[..] {
            [code] => {
                let digit = code
                    .find(|c: char| c.is_ascii_digit())
                    .ok_or_else(|| fail("expected a code like S1901M"))?;
                let end = code.rfind(|c: char| c.is_ascii_digit()).unwrap_or(digit) + 1;
                // A judge year before year 0 is signed: S-77M.
                let split = match code[..digit].strip_suffix('-') {
                    Some(season) if !season.is_empty() => season.len(),
                    _ => digit,
                };
                (&code[..split], &code[split..end], None, &code[end..])
            }
            // No phase kind (the help's `PHASE Spring 1 A.D.`): the season's first phase.
            [s, y] => (s, y, None, ""),
            [s, y, "b", "c"] | [s, y, "bc"] => (s, y, Some(Era::BeforeChrist), ""),
            [s, y, "a", "d"] | [s, y, "ad"] | [s, "a", "d", y] | [s, "ad", y] => {
                (s, y, Some(Era::AnnoDomini), "")
            }
            [s, y, k] => (s, y, None, k),
            [s, y, "b", "c", k] | [s, y, "bc", k] => (s, y, Some(Era::BeforeChrist), k),
            [s, y, "a", "d", k] | [s, y, "ad", k] | [s, "a", "d", y, k] | [s, "ad", y, k] => {
                (s, y, Some(Era::AnnoDomini), k)
            }
            _ => return Err(fail(
                "expected a season, a year and a phase, e.g. 'Spring 1901 Movement' or 'S1901M'",
            )),
        };
        let year = self.judge_year(year_text, era).map_err(fail)?;
        let season = self
            .seasons
            .iter()
            .position(|s| {
                let name = s.name.to_ascii_lowercase();
                name == season_word
                    || (season_word.len() == 1 && name.starts_with(season_word))
                    || (season_word == "autumn" && name == "fall")
                    || (season_word == "fall" && name == "autumn")
            })
            .ok_or_else(|| fail("unknown season"))?;
        let kind = match kind_word {
            // A season named without a phase is its first phase: a season's movement
            // (Spring 1901 is Spring 1901, Movement), a winter's adjustment.
            "" => *self.seasons[season]
                .phases
                .first()
                .ok_or_else(|| fail("that season has no phases"))?,
            word => PhaseKind::from_word(word)
                .ok_or_else(|| fail("unknown phase kind (Movement, Retreat, Adjustment)"))?,
        };
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

    fn classical() -> Calendar {
        let mut cal = Calendar::standard(50);
        cal.years = YearStyle::BeforeChrist { epoch: 323 };
        cal
    }

    /// Classical's rule 3: "Because years before 1 A.D. count backwards, Spring 273 B.C. is
    /// followed by Fall 273 B.C., Winter 273 B.C., and then Spring 272 B.C." Counting
    /// backwards ends at 1 B.C.: the next year is 1 A.D., there is no year 0.
    #[test]
    fn after_winter_1_bc_comes_spring_1_ad() {
        let cal = classical();
        let w = cal.parse("Winter 1 B.C., Adjustment").unwrap();
        assert_eq!(w.year, 322);
        let s = cal.next(w);
        assert_eq!(cal.show(s), "Spring 1 A.D., Movement");
        assert_eq!(cal.show_year(322), "1 B.C.");
        assert_eq!(cal.show_year(323), "1 A.D.");
        assert_eq!(cal.show_year(324), "2 A.D.");
        assert_eq!(cal.show_year(50), "273 B.C.");
        for text in [
            "Spring 1 A.D., Movement",
            "Spring 1 AD Movement",
            "spring 1 a.d. movement",
            "Spring A.D. 1, Movement",
            "Spring AD 1 Movement",
            "S323M",
        ] {
            assert_eq!(cal.parse(text), Ok(s), "{text}");
        }
        assert_eq!(cal.parse_year("1 A.D."), Ok(323));
        assert_eq!(cal.parse_year("AD 2"), Ok(324));
        assert_eq!(cal.parse_year("2 ad"), Ok(324));
        assert_eq!(cal.parse_year("1 B.C."), Ok(322));
        // No year 0 on either side, and no year counted below 1.
        for text in ["0 B.C.", "0 A.D.", "-1 B.C.", "-5 AD"] {
            assert!(cal.parse_year(text).is_err(), "{text}");
        }
        assert!(cal.parse("Spring 0 B.C., Movement").is_err());
        assert!(cal.parse_year("2147483647 A.D.").is_err());
        assert!(cal.parse_year("-2147483648 AD").is_err());
    }

    /// The help's own PHASE examples, "PHASE takes either form (Spring 1 A.D., Spring 1
    /// AD)" (templates/help/variants.txt), name no phase kind: a season and a year is the
    /// season's first phase, its movement (a winter's adjustment); `BC` and `AD` need no dots.
    #[test]
    fn a_season_and_year_without_a_phase_is_the_seasons_first_phase() {
        let cal = classical();
        let movement = |text: &str| cal.parse(&format!("{text} Movement")).unwrap();
        for (text, meant) in [
            ("Spring 1 A.D.", "Spring 1 A.D."),
            ("Spring 1 AD", "Spring 1 A.D."),
            ("Spring AD 1", "Spring 1 A.D."),
            ("Fall 273 B.C.", "Fall 273 B.C."),
            ("Fall 273 BC", "Fall 273 B.C."),
            ("Fall 273 BC,", "Fall 273 B.C."),
            ("Spring 50", "Spring 273 B.C."),
        ] {
            assert_eq!(cal.parse(text), Ok(movement(meant)), "{text}");
        }
        assert_eq!(
            cal.parse("Fall 273 BC Retreat").map(|p| p.kind),
            Ok(PhaseKind::Retreat)
        );
        assert_eq!(
            cal.parse("Winter 273 B.C."),
            cal.parse("Winter 273 B.C., Adjustment")
        );
        assert!(cal.parse("Fall 273 BC Xyz").is_err());
        assert!(cal.parse("Fall").is_err());
    }

    /// Phase codes carry the judge year on both sides of 1 A.D., so no code means two phases:
    /// S1M is judge year 1 (322 B.C.), Spring 1 A.D. is S323M; a year before the epoch's
    /// year 0 (a keeper's start) has a signed code that reads back.
    #[test]
    fn codes_stay_judge_years_across_the_epoch() {
        let cal = classical();
        let ad = cal.parse("Spring 1 A.D., Movement").unwrap();
        assert_eq!(cal.code(ad), "S323M");
        let one = cal.parse("S1M").unwrap();
        assert_eq!(cal.show(one), "Spring 322 B.C., Movement");
        assert_ne!(one, ad);
        let early = cal.parse("Spring 400 B.C., Movement").unwrap();
        assert_eq!(early.year, -77);
        assert_eq!(cal.code(early), "S-77M");
        assert_eq!(cal.parse("S-77M"), Ok(early));
        let extreme = Phase {
            year: i32::MIN,
            ..early
        };
        assert_eq!(cal.show_year(extreme.year), "2147483971 B.C.");
        assert_eq!(cal.show_year(i32::MAX), "2147483325 A.D.");
    }

    /// Plain years are the years A.D. as they are, and read `A.D.` written before or after.
    #[test]
    fn plain_years_read_ad() {
        let cal = Calendar::standard(1901);
        assert_eq!(cal.parse_year("1901 A.D."), Ok(1901));
        assert_eq!(
            cal.parse("Spring A.D. 1901, Movement"),
            Ok(cal.start),
            "A.D. before the year"
        );
        assert!(cal.parse_year("0 AD").is_err());
    }

    fn season(name: &str, phases: &[PhaseKind]) -> Season {
        Season {
            name: name.into(),
            phases: phases.to_vec(),
            takes_centres: false,
        }
    }

    #[test]
    fn a_calendar_is_made_from_its_seasons_and_refused_when_it_cannot_be_played() {
        use PhaseKind::{Adjustment as A, Movement as M, Retreat as R};
        let standard = Calendar::standard(1901);
        let made = Calendar::new(standard.seasons.clone(), YearStyle::Plain, "S1901M");
        assert_eq!(made, Ok(standard));
        let bc = YearStyle::BeforeChrist { epoch: 323 };
        let cal = Calendar::new(
            vec![season("Spring", &[M, R, A])],
            bc,
            "Spring 273 BC Movement",
        )
        .unwrap();
        assert_eq!(cal.start.year, 50);
        assert_eq!(cal.code(cal.next(cal.start)), "S50R");
        assert_eq!(cal.code(cal.next(cal.next(cal.next(cal.start)))), "S51M");

        let refused = |seasons: Vec<Season>, start: &str| {
            Calendar::new(seasons, YearStyle::Plain, start).unwrap_err()
        };
        assert_eq!(refused(vec![], "S1901M"), CalendarError::NoSeasons);
        assert_eq!(
            refused(vec![season("Early Spring", &[M])], "S1901M"),
            CalendarError::SeasonName("Early Spring".into())
        );
        assert_eq!(
            refused(
                vec![season("Spring", &[M]), season("summer", &[M])],
                "S1901M"
            ),
            CalendarError::SameInitial("Spring".into(), "summer".into())
        );
        assert_eq!(
            refused(vec![season("Spring", &[])], "S1901M"),
            CalendarError::NoPhases("Spring".into())
        );
        assert_eq!(
            refused(vec![season("Spring", &[M, M])], "S1901M"),
            CalendarError::PhaseOrder("Spring".into())
        );
        assert_eq!(
            refused(vec![season("Spring", &[R, A])], "S1901R"),
            CalendarError::NoMovement
        );
        assert!(matches!(
            refused(vec![season("Spring", &[M])], "W1901A"),
            CalendarError::Start(_)
        ));
    }

    #[test]
    fn years_are_read_as_shown() {
        let mut cal = Calendar::standard(50);
        assert_eq!(cal.parse_year("1908"), Ok(1908));
        assert!(cal.parse_year("250 B.C.").is_err());
        assert!(cal.parse_year("nineteen").is_err());
        cal.years = YearStyle::BeforeChrist { epoch: 323 };
        assert_eq!(cal.parse_year("250 B.C."), Ok(73));
        assert_eq!(cal.parse_year("250 bc"), Ok(73));
        assert_eq!(cal.parse_year("73"), Ok(73));
        assert!(cal.parse_year("-2147483648 BC").is_err());
        assert!(cal.parse("Spring -2147483648 B.C. Movement").is_err());
    }
}
