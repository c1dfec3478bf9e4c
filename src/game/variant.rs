//! Variants: a map, a calendar and a set of rules, by name, each declared by a variant file
//! (`variants/FORMAT.md`). The built-in variants are such files compiled in; a keeper's are
//! read from the maps directory by the catalog and parsed here ([`VariantFile::parse`]).

use std::ops::Range;
use std::sync::OnceLock;

use serde::Deserialize;
use toml::Spanned;

use super::calendar::{Calendar, CalendarError, Phase, PhaseKind, Season, YearError, YearStyle};
use super::map::{builtin, Map, MapError, MapSource};
use super::position::Position;
use super::rules::{Rules, SwitchError};

/// The variant files compiled into herald, by name, so a fresh install plays them without any
/// files.
const BUILTIN: [(&str, &str); 5] = [
    (
        "standard",
        include_str!("../../variants/standard.variant.toml"),
    ),
    (
        "classical",
        include_str!("../../variants/classical.variant.toml"),
    ),
    (
        "portage",
        include_str!("../../variants/portage.variant.toml"),
    ),
    ("deluge", include_str!("../../variants/deluge.variant.toml")),
    (
        "world1880",
        include_str!("../../variants/world1880.variant.toml"),
    ),
];

/// Lays the rules that change geography onto a map: free oceans, oceans joined for convoys.
fn rules_into_map(rules: &Rules, map: &mut Map) {
    map.free_oceans = rules.free_oceans;
    if rules.ocean_network {
        map.join_oceans();
    }
}

/// A playable variant.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Its name as players write it in CREATE (`standard`).
    pub name: String,
    /// The map as it stands at the start.
    pub map: Map,
    /// Seasons, phases and years.
    pub calendar: Calendar,
    /// Rule switches.
    pub rules: Rules,
    /// The map after each scheduled change, with the (year, season) whose end it follows,
    /// in the order they take effect.
    pub schedule: Vec<((i32, u8), Map)>,
}

/// A variant could not be made.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// No variant of that name.
    #[error("unknown variant '{name}' (known: {known})")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The variants there are, by name.
        known: String,
    },
    /// A scheduled map change names a season the calendar does not have.
    #[error("the map of variant '{name}' schedules a change for '{season}' (the map's line {line}), which is not a season of its calendar")]
    Season {
        /// The variant.
        name: String,
        /// The season named.
        season: String,
        /// The map file's line where the change begins.
        line: usize,
    },
    /// The map given is not the one the variant file names.
    #[error("variant '{name}' is played on the map '{wants}', not '{found}'")]
    WrongMap {
        /// The variant.
        name: String,
        /// The map its file names.
        wants: String,
        /// The map given.
        found: String,
    },
    /// Its map failed to load.
    #[error("the map of variant '{name}' does not load: {}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Map {
        /// The variant.
        name: String,
        /// What is wrong with its map.
        errors: Vec<MapError>,
    },
}

impl Variant {
    /// A variant from its parts, building its initial map.
    pub fn new(
        name: &str,
        map_text: &str,
        calendar: Calendar,
        rules: Rules,
    ) -> Result<Variant, VariantError> {
        let source = MapSource::new(map_text);
        let mut map = source.initial().map_err(|errors| VariantError::Map {
            name: name.to_string(),
            errors,
        })?;
        let mut rules = rules;
        rules_into_map(&rules, &mut map);
        map.scheduled = !source.changes.is_empty();
        if rules.victory_majority {
            rules.victory_centres = map.centres().count() / 2 + 1;
        }
        let mut when = Vec::new();
        for change in &source.changes {
            let Some(s) = calendar.season_index(&change.season) else {
                return Err(VariantError::Season {
                    name: name.to_string(),
                    season: change.season.clone(),
                    line: change.line,
                });
            };
            when.push((change.year, s));
        }
        when.sort();
        when.dedup();
        let mut schedule = Vec::with_capacity(when.len());
        for &(year, season) in &when {
            let mut built = source
                .build(|c| {
                    let s = calendar.season_index(&c.season).unwrap_or(u8::MAX);
                    (c.year, s) <= (year, season)
                })
                .map_err(|errors| VariantError::Map {
                    name: name.to_string(),
                    errors,
                })?;
            rules_into_map(&rules, &mut built);
            built.scheduled = true;
            schedule.push(((year, season), built));
        }
        Ok(Variant {
            name: name.to_string(),
            map,
            calendar,
            rules,
            schedule,
        })
    }

    /// The board a new game starts with: the map's units and home centres, or with unit
    /// choice only the home centres (the powers build their units in the opening phase).
    pub fn opening(&self) -> Position {
        let mut pos = Position::initial(&self.map, self.calendar.start);
        if self.rules.unit_choice {
            pos.units.iter_mut().for_each(|u| *u = None);
            pos.afloat.clear();
        }
        pos
    }

    /// The map as it stands at a phase: the start map with every scheduled change whose
    /// season has ended before this phase.
    pub fn map_at(&self, phase: Phase) -> &Map {
        self.schedule
            .iter()
            .rev()
            .find(|((year, season), _)| (*year, *season) < (phase.year, phase.season))
            .map_or(&self.map, |(_, m)| m)
    }

    /// The next scheduled change from a phase on (the one at the end of its own season
    /// included): when it comes and the map it makes. `None` when no change is left.
    pub fn next_change(&self, phase: Phase) -> Option<((i32, u8), &Map)> {
        self.schedule
            .iter()
            .find(|(when, _)| *when >= (phase.year, phase.season))
            .map(|(when, m)| (*when, m))
    }

    /// The map change that takes effect when this season of this year ends, if any.
    pub fn change_after(&self, year: i32, season: u8) -> Option<&Map> {
        self.schedule
            .iter()
            .find(|(when, _)| *when == (year, season))
            .map(|(_, m)| m)
    }

    /// A variant as a variant file declares it, on the text of the map the file names.
    pub fn from_file(file: VariantFile, map_text: &str) -> Result<Variant, VariantError> {
        let variant = Variant::new(&file.name, map_text, file.calendar, file.rules)?;
        if !variant.map.name.eq_ignore_ascii_case(&file.map) {
            return Err(VariantError::WrongMap {
                name: file.name,
                wants: file.map,
                found: variant.map.name,
            });
        }
        Ok(variant)
    }

    /// Standard Diplomacy (`variants/standard.variant.toml`).
    pub fn standard() -> Variant {
        Variant::fresh("standard")
    }

    /// Classical: the ancient Mediterranean, years B.C., builds in any owned centre while a
    /// home centre is held (`variants/classical.variant.toml`).
    pub fn classical() -> Variant {
        Variant::fresh("classical")
    }

    /// Portage (Robert McMillan): the standard board, armies carry fleets over land
    /// (`variants/portage.variant.toml`).
    pub fn portage() -> Variant {
        Variant::fresh("portage")
    }

    /// Deluge II (Tim Sharrock, Stephen Agar): the standard board flooding year by year,
    /// from Winter 1900 to Winter 1908, with conversion and army-fleets
    /// (`variants/deluge.variant.toml`).
    pub fn deluge() -> Variant {
        Variant::fresh("deluge")
    }

    /// The world of 1880 to 1900 (Paul Barker), on herald's reconstruction of its map
    /// (`variants/world1880.variant.toml`).
    pub fn world1880() -> Variant {
        Variant::fresh("world1880")
    }

    /// A built-in variant by name, any case; built once and shared.
    pub fn builtin(name: &str) -> Result<&'static Variant, VariantError> {
        let i = BUILTIN
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| VariantError::Unknown {
                name: name.to_string(),
                known: Variant::builtin_names().collect::<Vec<_>>().join(", "),
            })?;
        Ok(Variant::shared(i))
    }

    /// The names of the built-in variants.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(name, _)| *name)
    }

    /// Every built-in variant, built once and shared.
    pub fn builtins() -> impl Iterator<Item = &'static Variant> {
        (0..BUILTIN.len()).map(Variant::shared)
    }

    fn shared(i: usize) -> &'static Variant {
        static BUILT: [OnceLock<Variant>; BUILTIN.len()] =
            [const { OnceLock::new() }; BUILTIN.len()];
        BUILT[i].get_or_init(|| Variant::fresh(BUILTIN[i].0))
    }

    /// A built-in variant built anew from its file.
    fn fresh(name: &str) -> Variant {
        let text = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| *text)
            .unwrap_or_default();
        // The built-in files and maps are data compiled in; tests/variant_files.rs loads each
        // one, so a failure here is a build that was never tested.
        let file = VariantFile::parse(text)
            .unwrap_or_else(|e| panic!("the built-in variant file '{name}' is wrong: {e}"));
        let map = builtin::source(&file.map)
            .unwrap_or_else(|| panic!("the built-in variant '{name}' names no built-in map"));
        Variant::from_file(file, map)
            .unwrap_or_else(|e| panic!("the built-in variant '{name}' does not load: {e}"))
    }
}

/// A variant file as read: the variant's name, the name of the map it is played on, its
/// calendar and its rules. The map itself is found by name (the catalog's maps, then the
/// built-in ones) and laid under it by [`Variant::from_file`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantFile {
    /// The variant's name as players write it in CREATE.
    pub name: String,
    /// The name of its map (a map file's `map` line).
    pub map: String,
    /// Seasons, phases, years, the first phase and, through `rules.last_year`, the last year.
    pub calendar: Calendar,
    /// The rule switches, victory conditions and the last year.
    pub rules: Rules,
}

/// One problem in a variant file, with its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct VariantFileError {
    /// The 1-based line the problem is on (the file's first line when the TOML reader gave
    /// none).
    pub line: usize,
    /// What is wrong.
    pub problem: FileProblem,
}

/// What can be wrong in a variant file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    /// Not TOML, a missing or unknown key, or a value of the wrong type, as the TOML reader
    /// says it.
    #[error("{0}")]
    Toml(String),
    /// The variant's name cannot be written in CREATE.
    #[error("name '{0}': a variant's name is one word of letters, digits, '_' or '-'")]
    Name(String),
    /// A rule switch that is unknown or has a bad value.
    #[error(transparent)]
    Switch(#[from] SwitchError),
    /// A phase that no season can have.
    #[error("season '{season}': unknown phase '{phase}' (movement, retreat, adjustment)")]
    Phase {
        /// The season.
        season: String,
        /// The phase as written.
        phase: String,
    },
    /// A calendar the engine cannot play.
    #[error("calendar: {0}")]
    Calendar(#[from] CalendarError),
    /// Years numbered neither way.
    #[error("years '{0}': write \"ad\" (years as they are) or \"bc\" (counted down B.C.)")]
    Years(String),
    /// Years B.C. without the epoch they count from.
    #[error("years = \"bc\" needs 'epoch', the year B.C. that judge year 0 stands for (323 for Classical)")]
    NoEpoch,
    /// An epoch for years that are not B.C.
    #[error("'epoch' is only for years = \"bc\"")]
    EpochWithoutBc,
    /// The last year is not a year of this calendar.
    #[error("last_year: {0}")]
    LastYear(YearError),
    /// A bare number as the last year of a calendar counted B.C.
    #[error(
        "last_year: the years are counted B.C., so write the year as players see it ('250 B.C.', or '5 A.D.' after 1 B.C.)"
    )]
    LastYearNotBc,
    /// The last year before the first.
    #[error("last_year {last} comes before the start, {start}")]
    LastYearBeforeStart {
        /// The last year as written.
        last: String,
        /// The start as shown.
        start: String,
    },
    /// The last year given twice.
    #[error("the last year is given both by the switch 'last_year=N' and by [calendar] last_year; keep the one in [calendar]")]
    LastYearTwice,
}

/// A variant file as TOML has it, before it is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Spanned<String>,
    map: String,
    #[serde(default)]
    rules: Vec<Spanned<String>>,
    calendar: Option<RawCalendar>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCalendar {
    seasons: Option<Spanned<Vec<RawSeason>>>,
    years: Option<Spanned<String>>,
    epoch: Option<Spanned<i32>>,
    start: Option<Spanned<String>>,
    last_year: Option<Spanned<YearText>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSeason {
    name: String,
    phases: Vec<Spanned<String>>,
    #[serde(default)]
    takes_centres: bool,
}

/// A year written as a number (`1908`) or as text (`"250 B.C."`).
struct YearText(String);

impl<'de> Deserialize<'de> for YearText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<YearText, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = YearText;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a year, as a number (1908) or as text (\"250 B.C.\")")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<YearText, E> {
                Ok(YearText(v.to_string()))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<YearText, E> {
                Ok(YearText(v.to_string()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl VariantFile {
    /// Reads a variant file's text (`variants/FORMAT.md`), checking its name, switches and
    /// calendar; every problem is reported with its line.
    pub fn parse(text: &str) -> Result<VariantFile, VariantFileError> {
        let lines = Lines(text);
        let raw: RawFile = toml::from_str(text).map_err(|e| {
            let problem = FileProblem::Toml(e.message().trim().replace('\n', ", "));
            lines.at(e.span().unwrap_or(0..0), problem)
        })?;

        let name = raw.name.get_ref().trim();
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if name.is_empty() || !name.chars().all(word) {
            let problem = FileProblem::Name(name.to_string());
            return Err(lines.at(raw.name.span(), problem));
        }

        let mut rules = Rules::standard();
        for switch in &raw.rules {
            rules
                .apply_variant_switch(switch.get_ref())
                .map_err(|e| lines.at(switch.span(), e.into()))?;
        }

        let calendar = match raw.calendar {
            Some(cal) => {
                let (calendar, last_year) = read_calendar(cal, &lines)?;
                if let Some(last) = last_year {
                    if rules.last_year.is_some() {
                        return Err(lines.at(last.span, FileProblem::LastYearTwice));
                    }
                    rules.last_year = Some(last.year);
                }
                calendar
            }
            None => Calendar::standard(1901),
        };
        Ok(VariantFile {
            name: name.to_string(),
            map: raw.map,
            calendar,
            rules,
        })
    }

    /// The variant a map file alone makes: named after the map, with the standard calendar
    /// from Spring 1901 and the standard rules.
    pub fn plain(map: &str) -> VariantFile {
        VariantFile {
            name: map.to_string(),
            map: map.to_string(),
            calendar: Calendar::standard(1901),
            rules: Rules::standard(),
        }
    }
}

/// A file's text, to turn the byte spans the TOML reader gives into lines for errors.
struct Lines<'a>(&'a str);

impl Lines<'_> {
    /// The problem at the line where `span` begins.
    fn at(&self, span: Range<usize>, problem: FileProblem) -> VariantFileError {
        let line = self
            .0
            .get(..span.start)
            .map_or(1, |before| before.matches('\n').count() + 1);
        VariantFileError { line, problem }
    }
}

/// The last year a `[calendar]` table gives: the judge year, and where it is written.
struct LastYear {
    year: i32,
    span: Range<usize>,
}

/// The calendar a `[calendar]` table declares, and its last year if it gives one.
fn read_calendar(
    cal: RawCalendar,
    lines: &Lines,
) -> Result<(Calendar, Option<LastYear>), VariantFileError> {
    let (style, style_span) = cal.years.map_or((String::from("ad"), 0..0), |y| {
        (y.get_ref().to_ascii_lowercase(), y.span())
    });
    let years = match (style.as_str(), &cal.epoch) {
        ("ad", None) => YearStyle::Plain,
        ("bc", Some(epoch)) => YearStyle::BeforeChrist {
            epoch: *epoch.get_ref(),
        },
        ("bc", None) => return Err(lines.at(style_span, FileProblem::NoEpoch)),
        ("ad", Some(epoch)) => return Err(lines.at(epoch.span(), FileProblem::EpochWithoutBc)),
        _ => return Err(lines.at(style_span, FileProblem::Years(style))),
    };

    // A problem with the seasons is reported at the `seasons` key (the file's first line when
    // they are the default ones).
    let (seasons, seasons_span) = match cal.seasons {
        Some(seasons) => {
            let span = seasons.span();
            let mut out = Vec::new();
            for s in seasons.into_inner() {
                let mut phases = Vec::new();
                for p in &s.phases {
                    let kind = PhaseKind::from_word(p.get_ref()).ok_or_else(|| {
                        let problem = FileProblem::Phase {
                            season: s.name.clone(),
                            phase: p.get_ref().clone(),
                        };
                        lines.at(p.span(), problem)
                    })?;
                    phases.push(kind);
                }
                out.push(Season {
                    name: s.name,
                    phases,
                    takes_centres: s.takes_centres,
                });
            }
            (out, span)
        }
        None => (Calendar::standard(1901).seasons, 0..0),
    };
    // Without a start, the first phase of 1901.
    let (start, start_span) = match cal.start {
        Some(s) => (s.get_ref().clone(), s.span()),
        None => {
            let first = seasons.first();
            let phase = first.and_then(|s| s.phases.first()).map(|k| k.name());
            let season = first.map_or("", |s| s.name.as_str());
            (format!("{season} 1901 {}", phase.unwrap_or("")), 0..0)
        }
    };
    let calendar = Calendar::new(seasons, years, &start).map_err(|e| match e {
        CalendarError::Start(_) => lines.at(start_span, e.into()),
        _ => lines.at(seasons_span, e.into()),
    })?;

    let Some(last) = cal.last_year else {
        return Ok((calendar, None));
    };
    let (text, span) = (&last.get_ref().0, last.span());
    let year = calendar
        .parse_year(text)
        .map_err(|e| lines.at(span.clone(), FileProblem::LastYear(e)))?;
    // The text read as a year, so "bc" or "ad" in it can only be its era.
    let letters = text.to_ascii_lowercase().replace(['.', ' '], "");
    let written_era =
        letters.ends_with("bc") || letters.ends_with("ad") || letters.starts_with("ad");
    if matches!(years, YearStyle::BeforeChrist { .. }) && !written_era {
        return Err(lines.at(span, FileProblem::LastYearNotBc));
    }
    if year < calendar.start.year {
        let problem = FileProblem::LastYearBeforeStart {
            last: text.clone(),
            start: calendar.show(calendar.start),
        };
        return Err(lines.at(span, problem));
    }
    Ok((calendar, Some(LastYear { year, span })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_with_only_a_name_and_a_map_is_the_standard_calendar_and_rules() {
        let file = VariantFile::parse("name = \"plain\"\nmap = \"standard\"\n").unwrap();
        assert_eq!(
            file,
            VariantFile {
                name: "plain".into(),
                map: "standard".into(),
                ..VariantFile::plain("standard")
            }
        );
        let v = Variant::from_file(file, builtin::STANDARD).unwrap();
        assert_eq!(v.calendar.code(v.calendar.start), "S1901M");
    }

    #[test]
    fn without_a_start_a_calendar_begins_with_its_first_phase_of_1901() {
        let text = "name = \"w\"\nmap = \"standard\"\n[calendar]\nseasons = [\n  { name = \"Winter\", phases = [\"adjustment\"] },\n  { name = \"Spring\", phases = [\"movement\", \"retreat\"], takes_centres = true },\n]\n";
        let file = VariantFile::parse(text).unwrap();
        assert_eq!(file.calendar.code(file.calendar.start), "W1901A");
    }

    /// Classical's rule 3: years "before 1 A.D. count backwards", so a calendar counted B.C.
    /// goes on into A.D. years, and its last year may be one of them.
    #[test]
    fn a_last_year_after_1_bc_is_written_ad() {
        let classical = include_str!("../../variants/classical.variant.toml");
        let with = |last: &str| {
            VariantFile::parse(&format!("{classical}last_year = \"{last}\"\n"))
                .map(|f| f.rules.last_year)
        };
        assert_eq!(with("5 A.D."), Ok(Some(327)));
        assert_eq!(with("AD 5"), Ok(Some(327)));
        assert_eq!(with("1 B.C."), Ok(Some(322)));
        assert!(
            with("327").is_err(),
            "a bare number would be the judge year"
        );
        assert!(with("0 A.D.").is_err(), "there is no year 0");
    }

    #[test]
    fn a_file_on_another_map_than_the_one_given_is_refused() {
        let file = VariantFile::parse("name = \"x\"\nmap = \"classical\"\n").unwrap();
        let err = Variant::from_file(file, builtin::STANDARD).unwrap_err();
        assert!(matches!(err, VariantError::WrongMap { .. }), "{err}");
    }
}
