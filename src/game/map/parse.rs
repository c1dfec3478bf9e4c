//! Reads herald's map format (`maps/FORMAT.md`) into a [`Map`], refusing any duplicate,
//! unknown or one-way entry with the line it came from.

use std::collections::HashMap;
use std::fmt;

use super::{Map, MapParts, Power, Province, Region, StartUnit, Terrain};
use crate::game::ids::{Coast, PowerId, ProvinceId, RegionId, UnitKind};

/// One problem found in a map file, with its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct MapError {
    /// The 1-based line number (0 when the problem concerns the map as a whole).
    pub line: usize,
    /// What is wrong, naming the text at fault.
    pub message: String,
}

/// A map file's text with its scheduled changes, from which the map as it stands at any
/// point of the game can be built.
#[derive(Clone, Debug)]
pub struct MapSource {
    text: String,
    /// The `at <Season> <Year>` blocks in file order: season, year and first line.
    pub changes: Vec<ScheduledChange>,
}

/// A block of terrain changes that takes effect once the named phase has been adjudicated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledChange {
    /// The season named in the block header, lower case (`winter`).
    pub season: String,
    /// The judge year named in the block header.
    pub year: i32,
    /// The line the block starts on.
    pub line: usize,
}

impl MapSource {
    /// Reads the text and finds its scheduled blocks; the map itself is checked by `build`.
    pub fn new(text: impl Into<String>) -> MapSource {
        let text = text.into();
        let mut changes = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = strip_comment(raw).trim();
            if let Some((season, year)) = at_header(line) {
                changes.push(ScheduledChange {
                    season,
                    year,
                    line: i + 1,
                });
            }
        }
        MapSource { text, changes }
    }

    /// The map before any scheduled change.
    pub fn initial(&self) -> Result<Map, Vec<MapError>> {
        self.build(|_| false)
    }

    /// The map with the scheduled changes that `applied` accepts laid over the base.
    pub fn build(&self, applied: impl Fn(&ScheduledChange) -> bool) -> Result<Map, Vec<MapError>> {
        build(&self.text, &self.changes, &applied)
    }
}

/// Parses a map file with no scheduled change applied.
pub fn parse_map(text: &str) -> Result<Map, Vec<MapError>> {
    MapSource::new(text).initial()
}

fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    }
}

fn at_header(line: &str) -> Option<(String, i32)> {
    let rest = line.strip_prefix("at ")?.trim().strip_suffix(':')?;
    let mut words = rest.split_whitespace();
    let season = words.next()?.to_ascii_lowercase();
    let year = words.next()?.parse().ok()?;
    words.next().is_none().then_some((season, year))
}

struct SpaceDecl {
    abbr: String,
    name: String,
    terrain: Terrain,
    centre: bool,
    coasts: Vec<Coast>,
    aliases: Vec<String>,
    line: usize,
}

struct AdjDecl {
    from: String,
    to: Vec<String>,
    line: usize,
}

#[derive(Default)]
struct Collected {
    name: String,
    title: String,
    powers: Vec<(Power, usize)>,
    spaces: Vec<SpaceDecl>,
    army: Vec<AdjDecl>,
    fleet: Vec<AdjDecl>,
    homes: Vec<(String, Vec<String>, usize)>,
    territory: Vec<(String, Vec<String>, usize)>,
    dips: Vec<(String, String, usize)>,
    units: Vec<(String, String, usize)>,
    first_three_letters: bool,
}

fn build(
    text: &str,
    changes: &[ScheduledChange],
    applied: &dyn Fn(&ScheduledChange) -> bool,
) -> Result<Map, Vec<MapError>> {
    let mut errors = Vec::new();
    let mut c = Collected::default();
    let mut in_block: Option<bool> = None;
    let mut changed = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if at_header(line).is_some() {
            let change = changes.iter().find(|ch| ch.line == n);
            in_block = Some(change.is_some_and(applied));
            changed |= in_block == Some(true);
            continue;
        }
        if line == "end" {
            if in_block.is_none() {
                errors.push(err(n, "'end' without an 'at <Season> <Year>:' block"));
            }
            in_block = None;
            continue;
        }
        if in_block == Some(false) {
            continue;
        }
        if let Err(e) = directive(&mut c, line, n, in_block.is_some()) {
            errors.push(e);
        }
    }
    if in_block.is_some() {
        errors.push(err(0, "an 'at' block is not closed with 'end'"));
    }
    // Starting units are the board as the game starts; a map some change has reshaped
    // starts nothing (Deluge's armies in Venice would stand under water).
    if changed {
        c.units.clear();
    }
    if errors.is_empty() {
        assemble(c, &mut errors)
            .filter(|_| errors.is_empty())
            .ok_or(errors)
    } else {
        Err(errors)
    }
}

fn err(line: usize, message: impl Into<String>) -> MapError {
    MapError {
        line,
        message: message.into(),
    }
}

fn directive(c: &mut Collected, line: &str, n: usize, in_block: bool) -> Result<(), MapError> {
    let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match keyword {
        "map" => c.name = rest.to_string(),
        "title" => c.title = rest.to_string(),
        "power" => {
            let (head, aka) = match rest.split_once(" aka ") {
                Some((h, a)) => (
                    h,
                    a.split(',')
                        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
                        .filter(|s| !s.is_empty())
                        .collect(),
                ),
                None => (rest, Vec::new()),
            };
            let words: Vec<&str> = head.split_whitespace().collect();
            let [name, letter, adjective] = words[..] else {
                return Err(err(
                    n,
                    format!("'power {rest}': expected 'power <Name> <letter> <Adjective> [aka <name>, ...]'"),
                ));
            };
            let mut chars = letter.chars();
            let (Some(l), None) = (chars.next(), chars.next()) else {
                return Err(err(
                    n,
                    format!("power {name}: letter '{letter}' must be one character"),
                ));
            };
            let l = l.to_ascii_uppercase();
            if l == 'M' || l == 'O' {
                return Err(err(
                    n,
                    format!(
                        "power {name}: letter '{l}' is reserved (M is the Master, O observers)"
                    ),
                ));
            }
            c.powers.push((
                Power {
                    name: name.to_string(),
                    letter: l,
                    adjective: adjective.to_string(),
                    aka,
                    homes: Vec::new(),
                    dips: 0,
                },
                n,
            ));
        }
        "land" | "coast" | "sea" | "ocean" | "shut" => {
            let terrain = match keyword {
                "land" => Terrain::Land,
                "coast" => Terrain::Coast,
                "sea" => Terrain::Sea,
                "ocean" => Terrain::Ocean,
                _ => Terrain::Shut,
            };
            let decl = space(terrain, rest, n)?;
            match c
                .spaces
                .iter_mut()
                .find(|s| s.abbr.eq_ignore_ascii_case(&decl.abbr))
            {
                Some(old) if in_block => {
                    let mut aliases = std::mem::take(&mut old.aliases);
                    aliases.extend(decl.aliases.iter().cloned());
                    *old = SpaceDecl { aliases, ..decl };
                }
                Some(old) => {
                    return Err(err(
                        n,
                        format!(
                            "space '{}' is declared twice (first on line {})",
                            decl.abbr, old.line
                        ),
                    ));
                }
                None => c.spaces.push(decl),
            }
        }
        "army" | "fleet" => {
            let Some((from, to)) = rest.split_once(':') else {
                return Err(err(
                    n,
                    format!("'{line}': expected '{keyword} <Abbr>: <Abbr> <Abbr> ...'"),
                ));
            };
            let decl = AdjDecl {
                from: from.trim().to_ascii_lowercase(),
                to: to
                    .split_whitespace()
                    .map(|s| s.to_ascii_lowercase())
                    .collect(),
                line: n,
            };
            let list = if keyword == "army" {
                &mut c.army
            } else {
                &mut c.fleet
            };
            match list.iter_mut().find(|d| d.from == decl.from) {
                Some(old) if in_block => *old = decl,
                Some(old) => {
                    return Err(err(
                        n,
                        format!(
                            "{keyword} moves from '{}' are listed twice (first on line {})",
                            decl.from, old.line
                        ),
                    ));
                }
                None => list.push(decl),
            }
        }
        "abbreviations" => match rest {
            "first-three-letters" if !in_block => c.first_three_letters = true,
            "first-three-letters" => {
                return Err(err(
                    n,
                    "'abbreviations' holds for the whole game: put it outside the 'at' blocks",
                ))
            }
            _ => {
                return Err(err(
                    n,
                    format!("'abbreviations {rest}': the one rule known is 'abbreviations first-three-letters'"),
                ))
            }
        },
        "home" => power_list(&mut c.homes, "home", line, rest, n, in_block)?,
        "territory" => power_list(&mut c.territory, "territory", line, rest, n, in_block)?,
        "dips" => {
            let line_no = n;
            let Some((power, n)) = rest.split_once(':') else {
                return Err(err(
                    line_no,
                    format!("'{line}': expected 'dips <Power>: <number>'"),
                ));
            };
            c.dips
                .push((power.trim().to_string(), n.trim().to_string(), line_no));
        }
        "units" => {
            let Some((power, list)) = rest.split_once(':') else {
                return Err(err(
                    n,
                    format!("'{line}': expected 'units <Power>: A <Abbr>, F <Abbr>, ...'"),
                ));
            };
            for unit in list.split(',').map(str::trim).filter(|u| !u.is_empty()) {
                c.units
                    .push((power.trim().to_string(), unit.to_string(), n));
            }
        }
        // Where a space is drawn: read and checked by the picture module (maps/FORMAT.md).
        "draw" => {}
        other => return Err(err(n, format!("unknown keyword '{other}'"))),
    }
    Ok(())
}

/// A `home`/`territory` line, `<keyword> <Power>: <Abbr> ...`; inside a scheduled block it
/// replaces the power's earlier list.
fn power_list(
    lists: &mut Vec<(String, Vec<String>, usize)>,
    keyword: &str,
    line: &str,
    rest: &str,
    n: usize,
    in_block: bool,
) -> Result<(), MapError> {
    let Some((power, list)) = rest.split_once(':') else {
        return Err(err(
            n,
            format!("'{line}': expected '{keyword} <Power>: <Abbr> ...'"),
        ));
    };
    let list = list
        .split_whitespace()
        .map(|s| s.to_ascii_lowercase())
        .collect();
    lists.retain(|(p, _, _)| !(in_block && p.eq_ignore_ascii_case(power.trim())));
    lists.push((power.trim().to_string(), list, n));
    Ok(())
}

/// `<Abbr> "<Full name>" [centre] [coasts nc sc] [aka a, b c, d]`
fn space(terrain: Terrain, rest: &str, n: usize) -> Result<SpaceDecl, MapError> {
    let (abbr, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let rest = rest.trim();
    let Some(after_quote) = rest.strip_prefix('"') else {
        return Err(err(
            n,
            format!("space '{abbr}': expected its full name in double quotes"),
        ));
    };
    let Some((name, rest)) = after_quote.split_once('"') else {
        return Err(err(
            n,
            format!("space '{abbr}': the full name's closing quote is missing"),
        ));
    };
    let (flags, aliases) = match rest.split_once(" aka ") {
        Some((f, a)) => (
            f,
            a.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
        ),
        None => (rest, Vec::new()),
    };
    let mut centre = false;
    let mut coasts = Vec::new();
    let mut in_coasts = false;
    for word in flags.split_whitespace() {
        match word {
            "centre" | "center" => {
                centre = true;
                in_coasts = false;
            }
            "coasts" => in_coasts = true,
            w if in_coasts => match Coast::from_word(w) {
                Some(coast) if !coasts.contains(&coast) => coasts.push(coast),
                Some(_) => {
                    return Err(err(
                        n,
                        format!("space '{abbr}': coast '{w}' is listed twice"),
                    ))
                }
                None => {
                    return Err(err(
                        n,
                        format!("space '{abbr}': unknown coast '{w}' (nc, sc, ec, wc)"),
                    ))
                }
            },
            w => return Err(err(n, format!("space '{abbr}': unexpected '{w}'"))),
        }
    }
    if !coasts.is_empty() && terrain != Terrain::Coast {
        return Err(err(
            n,
            format!("space '{abbr}': only a coast space may have separate coasts"),
        ));
    }
    if coasts.len() == 1 {
        return Err(err(
            n,
            format!("space '{abbr}': a single coast needs no 'coasts' entry"),
        ));
    }
    Ok(SpaceDecl {
        abbr: abbr.to_string(),
        name: name.to_string(),
        terrain,
        centre,
        coasts,
        aliases,
        line: n,
    })
}

fn assemble(c: Collected, errors: &mut Vec<MapError>) -> Option<Map> {
    let mut provinces = Vec::new();
    let mut regions = Vec::new();
    let mut by_abbr: HashMap<String, ProvinceId> = HashMap::new();
    let mut names: HashMap<String, (String, usize)> = HashMap::new();
    for (i, s) in c.spaces.iter().enumerate() {
        let id = ProvinceId(i as u16);
        by_abbr.insert(s.abbr.to_ascii_lowercase(), id);
        regions.push(Region {
            province: id,
            coast: None,
        });
        for name in std::iter::once(&s.abbr)
            .chain(std::iter::once(&s.name))
            .chain(&s.aliases)
        {
            let key = super::normalize(name);
            match names.get(&key) {
                Some((other, _)) if !other.eq_ignore_ascii_case(&s.abbr) => errors.push(err(
                    s.line,
                    format!("name '{name}' of '{}' is also a name of '{other}'", s.abbr),
                )),
                _ => {
                    names.insert(key, (s.abbr.clone(), s.line));
                }
            }
        }
    }
    for (i, s) in c.spaces.iter().enumerate() {
        let mut coasts = Vec::new();
        for &coast in &s.coasts {
            coasts.push(RegionId(regions.len() as u16));
            regions.push(Region {
                province: ProvinceId(i as u16),
                coast: Some(coast),
            });
        }
        provinces.push(Province {
            abbr: s.abbr.clone(),
            name: s.name.clone(),
            terrain: s.terrain,
            centre: s.centre,
            main: RegionId(i as u16),
            coasts,
            aliases: s.aliases.clone(),
            territory: None,
        });
    }
    let region_of = |text: &str| -> Option<RegionId> {
        match text.split_once('/') {
            None => by_abbr.get(text).map(|p| RegionId(p.0)),
            Some((p, coast)) => {
                let p = *by_abbr.get(p)?;
                let coast = Coast::from_word(coast)?;
                provinces[p.index()]
                    .coasts
                    .iter()
                    .copied()
                    .find(|r| regions[r.index()].coast == Some(coast))
            }
        }
    };

    let mut army_adj = vec![Vec::new(); provinces.len()];
    for d in &c.army {
        let Some(from) = by_abbr.get(&d.from).copied() else {
            errors.push(err(
                d.line,
                format!("army moves from unknown space '{}'", d.from),
            ));
            continue;
        };
        if !d.to.is_empty()
            && !matches!(
                provinces[from.index()].terrain,
                Terrain::Land | Terrain::Coast
            )
        {
            errors.push(err(
                d.line,
                format!("army moves from '{}', which is not land", d.from),
            ));
        }
        for to in &d.to {
            match by_abbr.get(to.as_str()) {
                None => errors.push(err(
                    d.line,
                    format!("army move {}-{to}: unknown space '{to}'", d.from),
                )),
                Some(&t)
                    if !matches!(provinces[t.index()].terrain, Terrain::Land | Terrain::Coast) =>
                {
                    errors.push(err(
                        d.line,
                        format!("army move {}-{to}: '{to}' is not land", d.from),
                    ))
                }
                Some(&t) if army_adj[from.index()].contains(&t) => errors.push(err(
                    d.line,
                    format!("army move {}-{to} is listed twice", d.from),
                )),
                Some(&t) => army_adj[from.index()].push(t),
            }
        }
    }
    let mut fleet_adj = vec![Vec::new(); regions.len()];
    let fleet_can_stand = |r: RegionId| {
        let region = regions[r.index()];
        let prov = &provinces[region.province.index()];
        match prov.terrain {
            Terrain::Sea | Terrain::Ocean => true,
            Terrain::Coast => prov.coasts.is_empty() || region.coast.is_some(),
            _ => false,
        }
    };
    for d in &c.fleet {
        // An empty list says no fleet moves from there (a coast that is gone, or one a
        // scheduled change leaves without water).
        if d.to.is_empty() {
            continue;
        }
        let Some(from) = region_of(&d.from) else {
            errors.push(err(
                d.line,
                format!("fleet moves from unknown space '{}'", d.from),
            ));
            continue;
        };
        if !fleet_can_stand(from) {
            errors.push(err(d.line, format!("fleet moves from '{}', where no fleet can stand (inland, or a coast must be named)", d.from)));
        }
        for to in &d.to {
            match region_of(to) {
                None => errors.push(err(d.line, format!("fleet move {}-{to}: unknown space '{to}'", d.from))),
                Some(t) if !fleet_can_stand(t) => errors.push(err(
                    d.line,
                    format!("fleet move {}-{to}: no fleet can stand in '{to}' (inland, or a coast must be named)", d.from),
                )),
                Some(t) if fleet_adj[from.index()].contains(&t) => {
                    errors.push(err(d.line, format!("fleet move {}-{to} is listed twice", d.from)))
                }
                Some(t) => fleet_adj[from.index()].push(t),
            }
        }
    }
    let line_of =
        |list: &[AdjDecl], key: &str| list.iter().find(|d| d.from == key).map_or(0, |d| d.line);
    for (from, list) in army_adj.iter().enumerate() {
        for to in list {
            if !army_adj[to.index()].contains(&ProvinceId(from as u16)) {
                let (a, b) = (&provinces[from].abbr, &provinces[to.index()].abbr);
                errors.push(err(
                    line_of(&c.army, &a.to_ascii_lowercase()),
                    format!("one-way army adjacency: {a}-{b} is listed but {b}-{a} is not"),
                ));
            }
        }
    }
    let region_name = |r: RegionId| {
        let region = regions[r.index()];
        let abbr = &provinces[region.province.index()].abbr;
        match region.coast {
            Some(coast) => format!("{abbr}/{}", coast.abbr()),
            None => abbr.clone(),
        }
    };
    for (from, list) in fleet_adj.iter().enumerate() {
        for to in list {
            if !fleet_adj[to.index()].contains(&RegionId(from as u16)) {
                let (a, b) = (region_name(RegionId(from as u16)), region_name(*to));
                errors.push(err(
                    line_of(&c.fleet, &a.to_ascii_lowercase()),
                    format!("one-way fleet adjacency: {a}-{b} is listed but {b}-{a} is not"),
                ));
            }
        }
    }

    let mut powers: Vec<Power> = Vec::new();
    for (p, line) in c.powers {
        if powers.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
            errors.push(err(line, format!("power '{}' is declared twice", p.name)));
        } else if let Some(q) = powers.iter().find(|q| q.letter == p.letter) {
            errors.push(err(
                line,
                format!(
                    "power {}: letter '{}' is already {}'s",
                    p.name, p.letter, q.name
                ),
            ));
        } else {
            powers.push(p);
        }
    }
    let power_of = |powers: &[Power], name: &str| {
        powers
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
    };
    let mut territory: Vec<Option<PowerId>> = vec![None; provinces.len()];
    for (power, list, line) in &c.homes {
        let Some(pi) = power_of(&powers, power) else {
            errors.push(err(
                *line,
                format!("home centres of unknown power '{power}'"),
            ));
            continue;
        };
        for abbr in list {
            match by_abbr.get(abbr.as_str()) {
                None => errors.push(err(
                    *line,
                    format!("home centre '{abbr}' of {power} is not a space"),
                )),
                Some(&p) if !provinces[p.index()].centre => errors.push(err(
                    *line,
                    format!("home centre '{abbr}' of {power} is not a supply centre"),
                )),
                Some(&p) => {
                    powers[pi].homes.push(p);
                    territory[p.index()] = Some(PowerId(pi as u8));
                }
            }
        }
    }
    for (power, list, line) in &c.territory {
        let Some(pi) = power_of(&powers, power) else {
            errors.push(err(*line, format!("territory of unknown power '{power}'")));
            continue;
        };
        for abbr in list {
            match by_abbr.get(abbr.as_str()) {
                None => errors.push(err(
                    *line,
                    format!("territory '{abbr}' of {power} is not a space"),
                )),
                Some(&p) => match territory[p.index()] {
                    Some(q) if q.index() != pi => errors.push(err(
                        *line,
                        format!(
                            "territory '{abbr}' of {power} is already {}'s",
                            powers[q.index()].name
                        ),
                    )),
                    _ => territory[p.index()] = Some(PowerId(pi as u8)),
                },
            }
        }
    }
    for (power, n, line) in &c.dips {
        let Some(pi) = power_of(&powers, power) else {
            errors.push(err(*line, format!("dips of unknown power '{power}'")));
            continue;
        };
        match n.parse::<u32>() {
            Ok(n) => powers[pi].dips = n,
            Err(_) => errors.push(err(
                *line,
                format!("dips of {power}: '{n}' is not a number"),
            )),
        }
    }
    let mut start = Vec::new();
    for (power, unit, line) in &c.units {
        let Some(pi) = power_of(&powers, power) else {
            errors.push(err(
                *line,
                format!("starting unit of unknown power '{power}'"),
            ));
            continue;
        };
        let (kind, place) = unit.split_once(char::is_whitespace).unwrap_or((unit, ""));
        let Some(kind) = UnitKind::from_word(kind) else {
            errors.push(err(
                *line,
                format!("starting unit '{unit}': expected 'A <Abbr>' or 'F <Abbr>'"),
            ));
            continue;
        };
        let Some(region) = region_of(&place.trim().to_ascii_lowercase()) else {
            errors.push(err(
                *line,
                format!("starting unit '{unit}': unknown space '{}'", place.trim()),
            ));
            continue;
        };
        let ok = match kind {
            UnitKind::Army => {
                matches!(
                    provinces[regions[region.index()].province.index()].terrain,
                    Terrain::Land | Terrain::Coast
                ) && regions[region.index()].coast.is_none()
            }
            UnitKind::Fleet => fleet_can_stand(region),
            UnitKind::ArmyFleet => provinces[regions[region.index()].province.index()]
                .terrain
                .is_water(),
        };
        if !ok {
            errors.push(err(
                *line,
                format!("starting unit '{unit}' cannot stand there"),
            ));
        }
        start.push(StartUnit {
            power: PowerId(pi as u8),
            kind,
            region,
        });
    }
    if c.name.is_empty() {
        errors.push(err(0, "the map has no 'map <name>' line"));
    }
    if !errors.is_empty() {
        return None;
    }
    for (prov, owner) in provinces.iter_mut().zip(territory) {
        prov.territory = owner;
    }
    Some(Map::from_parts(MapParts {
        first_three_letters: c.first_three_letters,
        name: c.name,
        title: c.title,
        powers,
        provinces,
        regions,
        start,
        army_adj,
        fleet_adj,
    }))
}

impl fmt::Display for ScheduledChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {} {}", self.season, self.year)
    }
}
