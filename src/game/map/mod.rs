//! Maps as data: spaces, coasts, adjacency, centres, powers and starting units.
//!
//! A map is read from herald's text format (`maps/FORMAT.md`) by [`parse`]; the standard
//! map and the variants' maps are embedded ([`builtin`]), and a keeper can load more from a
//! directory. Once built, a [`Map`] answers every geographic question the engine asks in
//! constant time through small ids.

mod bits;
pub mod builtin;
pub mod check;
pub mod parse;

use std::collections::HashMap;

pub use bits::BitMatrix;
pub use parse::{parse_map, MapError, MapSource};

use super::ids::{Coast, PowerId, ProvinceId, RegionId, UnitKind};

/// What a space is made of, which decides who may stand there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Inland: armies only.
    Land,
    /// Coastal land: armies, and fleets on its coast(s).
    Coast,
    /// Open water: fleets only; fleets here may convoy.
    Sea,
    /// Open ocean: a sea that variants may treat apart (the world map's oceans).
    Ocean,
    /// Impassable: nobody enters.
    Shut,
}

impl Terrain {
    /// The keyword used in map files.
    pub fn keyword(self) -> &'static str {
        match self {
            Terrain::Land => "land",
            Terrain::Coast => "coast",
            Terrain::Sea => "sea",
            Terrain::Ocean => "ocean",
            Terrain::Shut => "shut",
        }
    }

    /// Whether this is water (sea or ocean).
    pub fn is_water(self) -> bool {
        matches!(self, Terrain::Sea | Terrain::Ocean)
    }
}

/// One province of the map.
#[derive(Clone, Debug)]
pub struct Province {
    /// The abbreviation as the map file writes it (`Stp`).
    pub abbr: String,
    /// The full name (`St Petersburg`).
    pub name: String,
    /// What the province is made of.
    pub terrain: Terrain,
    /// Whether it is a supply centre.
    pub centre: bool,
    /// The region a unit without a coast stands in (armies; fleets on a single coast).
    pub main: RegionId,
    /// The separate coasts of a multi-coast province, empty otherwise.
    pub coasts: Vec<RegionId>,
    /// Extra names players may use.
    pub aliases: Vec<String>,
    /// The power whose home country it lies in (its home centres, and the `territory`
    /// lines of the map file).
    pub territory: Option<PowerId>,
}

/// One place a unit may stand: a province or one coast of it.
#[derive(Clone, Copy, Debug)]
pub struct Region {
    /// The province this region belongs to.
    pub province: ProvinceId,
    /// The coast, for a coast region of a multi-coast province.
    pub coast: Option<Coast>,
}

/// A power of the map.
#[derive(Clone, Debug)]
pub struct Power {
    /// Its name, `England`.
    pub name: String,
    /// Its one-letter code used in SIGNON and press, `E`.
    pub letter: char,
    /// Its adjective, `English`.
    pub adjective: String,
    /// Other names players write for it, of one or more words (`Great Britain`, `Ottoman
    /// Empire`): the map's `aka` on its `power` line.
    pub aka: Vec<String>,
    /// Its home supply centres.
    pub homes: Vec<ProvinceId>,
    /// Its dip-point allowance per turn, where dip points are played (0: not given).
    pub dips: u32,
}

/// A unit on the board at the start of the game.
#[derive(Clone, Copy, Debug)]
pub struct StartUnit {
    /// Who owns it.
    pub power: PowerId,
    /// Army or fleet.
    pub kind: UnitKind,
    /// Where it stands.
    pub region: RegionId,
}

/// A built map: geography, powers and the starting position.
#[derive(Clone, Debug)]
pub struct Map {
    /// The map's short name (`standard`).
    pub name: String,
    /// Its title for display.
    pub title: String,
    /// The powers in the order the file gives.
    pub powers: Vec<Power>,
    /// The provinces in file order.
    pub provinces: Vec<Province>,
    /// The regions: first one main region per province (same index), then the coasts.
    pub regions: Vec<Region>,
    /// Starting units.
    pub start: Vec<StartUnit>,
    army_adj: Vec<Vec<ProvinceId>>,
    fleet_adj: Vec<Vec<RegionId>>,
    army_bits: BitMatrix,
    fleet_bits: BitMatrix,
    fleet_reach: BitMatrix,
    fleet_touch: Vec<Vec<ProvinceId>>,
    names: HashMap<String, ProvinceId>,
    name_words: usize,
    ambiguous: Vec<String>,
    /// Oceans are free (the world variant's rule M.1): any number of fleets share one,
    /// without combat. Set by the variant from its rules.
    pub free_oceans: bool,
    /// The map's file schedules changes to the board (Deluge's floods): its pictures key
    /// the floods. Set by the variant that builds it.
    pub scheduled: bool,
    /// Convoys over oceans follow the world variant's M.2 (see [`Map::join_oceans`]).
    ocean_network: bool,
}

impl Map {
    /// The number of provinces.
    pub fn province_count(&self) -> usize {
        self.provinces.len()
    }

    /// The province with this id.
    pub fn province(&self, p: ProvinceId) -> &Province {
        &self.provinces[p.index()]
    }

    /// The region with this id.
    pub fn region(&self, r: RegionId) -> &Region {
        &self.regions[r.index()]
    }

    /// The province a region belongs to.
    #[inline]
    pub fn province_of(&self, r: RegionId) -> ProvinceId {
        self.regions[r.index()].province
    }

    /// The power with this id.
    pub fn power(&self, p: PowerId) -> &Power {
        &self.powers[p.index()]
    }

    /// All power ids.
    pub fn power_ids(&self) -> impl Iterator<Item = PowerId> + '_ {
        (0..self.powers.len()).map(|i| PowerId(i as u8))
    }

    /// All province ids.
    pub fn province_ids(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        (0..self.provinces.len()).map(|i| ProvinceId(i as u16))
    }

    /// The province a name, abbreviation or alias stands for, or one of their [`spellings`]
    /// (normalized by [`normalize`]). The index is built with the map, once.
    pub fn lookup(&self, normalized: &str) -> Option<ProvinceId> {
        self.names.get(normalized).copied()
    }

    /// Spellings (see [`spellings`]) that would fit two provinces and so name neither,
    /// sorted, so that a map's tests can ask for none.
    pub fn ambiguous_spellings(&self) -> &[String] {
        &self.ambiguous
    }

    /// The longest number of words any name has, for greedy matching.
    pub fn longest_name_words(&self) -> usize {
        self.name_words
    }

    /// The power whose name, adjective, letter or other name (`aka`) this is (any case; the
    /// words of another name may be spaced in any way).
    pub fn power_by_word(&self, word: &str) -> Option<PowerId> {
        let w = word.to_ascii_lowercase();
        let spaced = w.split_whitespace().collect::<Vec<_>>().join(" ");
        self.powers
            .iter()
            .position(|p| {
                p.name.to_ascii_lowercase() == w
                    || p.adjective.to_ascii_lowercase() == w
                    || (w.len() == 1 && p.letter.to_ascii_lowercase().to_string() == w)
                    || p.aka.iter().any(|a| a.eq_ignore_ascii_case(&spaced))
            })
            .map(|i| PowerId(i as u8))
    }

    /// The coast region of a province, if it has that coast.
    pub fn coast_region(&self, p: ProvinceId, coast: Coast) -> Option<RegionId> {
        self.province(p)
            .coasts
            .iter()
            .copied()
            .find(|&r| self.region(r).coast == Some(coast))
    }

    /// Whether an army may move from one province to another.
    #[inline]
    pub fn army_adjacent(&self, from: ProvinceId, to: ProvinceId) -> bool {
        self.army_bits.get(from.index(), to.index())
    }

    /// Whether a fleet may move from one region to another.
    #[inline]
    pub fn fleet_adjacent(&self, from: RegionId, to: RegionId) -> bool {
        self.fleet_bits.get(from.index(), to.index())
    }

    /// Whether a fleet in `from` may move to some coast of province `to` (enough to support there).
    #[inline]
    pub fn fleet_reaches(&self, from: RegionId, to: ProvinceId) -> bool {
        self.fleet_reach.get(from.index(), to.index())
    }

    /// Whether a unit of this kind standing in `from` could move into province `to`.
    #[inline]
    pub fn can_reach(&self, kind: UnitKind, from: RegionId, to: ProvinceId) -> bool {
        match kind {
            UnitKind::Army => self.army_adjacent(self.province_of(from), to),
            UnitKind::Fleet | UnitKind::ArmyFleet => self.fleet_reaches(from, to),
        }
    }

    /// The provinces an army may move to from a province.
    pub fn army_neighbours(&self, p: ProvinceId) -> &[ProvinceId] {
        &self.army_adj[p.index()]
    }

    /// The regions a fleet may move to from a region.
    pub fn fleet_neighbours(&self, r: RegionId) -> &[RegionId] {
        &self.fleet_adj[r.index()]
    }

    /// The provinces that share water with a province: a fleet could pass between them on
    /// some coast. Used for convoy routes (army's coast to the first sea, sea to sea, last sea
    /// to the landing).
    pub fn water_neighbours(&self, p: ProvinceId) -> &[ProvinceId] {
        &self.fleet_touch[p.index()]
    }

    /// The regions a unit of this kind may stand in within a province.
    pub fn standable(&self, kind: UnitKind, p: ProvinceId) -> Vec<RegionId> {
        let prov = self.province(p);
        match (kind, prov.terrain) {
            (_, Terrain::Shut) => vec![],
            (UnitKind::Army, Terrain::Land | Terrain::Coast) => vec![prov.main],
            (UnitKind::Army, _) => vec![],
            (UnitKind::ArmyFleet, Terrain::Sea | Terrain::Ocean) => vec![prov.main],
            (UnitKind::ArmyFleet, _) => vec![],
            (UnitKind::Fleet, Terrain::Land) => vec![],
            (UnitKind::Fleet, _) if !prov.coasts.is_empty() => prov.coasts.clone(),
            (UnitKind::Fleet, _) => vec![prov.main],
        }
    }

    /// How a region is written in orders and results: `Stp`, `Stp/nc`.
    pub fn region_abbr(&self, r: RegionId) -> String {
        let region = self.region(r);
        let abbr = &self.province(region.province).abbr;
        match region.coast {
            Some(c) => format!("{abbr}/{}", c.abbr()),
            None => abbr.clone(),
        }
    }

    /// Lays the world variant's M.2 onto the convoy routes ([`Map::water_neighbours`]): the
    /// oceans are one water, each touching every sea along any ocean; and an ocean touches
    /// no land, since an army boards from "the adjacent sea zone" and disembarks from "the
    /// sea zone adjacent to the land zone". Sets [`Map::ocean_network`], by which the
    /// resolver lets only the army's own fleets carry it over an ocean.
    pub fn join_oceans(&mut self) {
        self.ocean_network = true;
        let is_ocean = |map: &Map, p: ProvinceId| map.province(p).terrain == Terrain::Ocean;
        let oceans: Vec<ProvinceId> = self.province_ids().filter(|&p| is_ocean(self, p)).collect();
        let mut waters: Vec<ProvinceId> = Vec::new();
        for &o in &oceans {
            for &q in &self.fleet_touch[o.index()] {
                if self.province(q).terrain.is_water() && !waters.contains(&q) {
                    waters.push(q);
                }
            }
        }
        let provinces = &self.provinces;
        for (i, touch) in self.fleet_touch.iter_mut().enumerate() {
            let land = !provinces[i].terrain.is_water();
            let ocean = provinces[i].terrain == Terrain::Ocean;
            touch.retain(|q| {
                let q_ocean = provinces[q.index()].terrain == Terrain::Ocean;
                let q_land = !provinces[q.index()].terrain.is_water();
                !(ocean && q_land || land && q_ocean)
            });
        }
        for &o in &oceans {
            for &q in &waters {
                if q != o && !self.fleet_touch[o.index()].contains(&q) {
                    self.fleet_touch[o.index()].push(q);
                }
                if q != o && !self.fleet_touch[q.index()].contains(&o) {
                    self.fleet_touch[q.index()].push(o);
                }
            }
        }
    }

    /// Whether a convoy over an ocean follows the world variant's M.2 (set by
    /// [`Map::join_oceans`]): "the player must have a naval unit in the adjacent sea zone
    /// and ocean, and the sea zone adjacent to the land zone where the army is to
    /// disembark", so only the army's own power's fleets carry it on a route through an
    /// ocean; a route over seas alone is convoyed "in the usual manner", by anyone's fleets.
    #[inline]
    pub fn own_fleets_over_oceans(&self) -> bool {
        self.ocean_network
    }

    /// Whether fleets share this province without combat (an ocean, where oceans are free).
    #[inline]
    pub fn is_free_ocean(&self, p: ProvinceId) -> bool {
        self.free_oceans && self.provinces[p.index()].terrain == Terrain::Ocean
    }

    /// The province's abbreviation.
    pub fn abbr(&self, p: ProvinceId) -> &str {
        &self.province(p).abbr
    }

    /// The supply centres.
    pub fn centres(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        self.province_ids().filter(|&p| self.province(p).centre)
    }

    /// The power whose home centre this province is, if any.
    pub fn home_power(&self, p: ProvinceId) -> Option<PowerId> {
        self.powers
            .iter()
            .position(|pw| pw.homes.contains(&p))
            .map(|i| PowerId(i as u8))
    }
}

/// Normalizes a name the way the order parser tokenizes: lower case, `.` dropped, `-` set
/// apart by spaces, runs of whitespace and `_` made one space.
pub fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for ch in name.chars() {
        match ch {
            '.' | '\'' => {}
            '-' => out.push_str(" - "),
            '_' => out.push(' '),
            c => out.extend(c.to_lowercase()),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The other spellings of a name a player may type, besides its [`normalize`]d form, each
/// normalized: a hyphen read as a space or left out (`mid atlantic ocean`,
/// `midatlantic ocean`); `st` and `saint` for each other, and with a hyphen after them
/// (`saint petersburg`, `st - petersburg`); a last word `sea` or `ocean` left off
/// (`mid atlantic`, `north atlantic`); and all the words run together (`stpetersburg`, what
/// `St.Petersburg` reads as). `add_sea`: also the name with `sea` after it
/// (`eastern mediterranean sea`), for a water space whose name does not end in a word for
/// water nor say "… of …". `maps/FORMAT.md` describes the same rules for map authors.
pub fn spellings(name: &str, add_sea: bool) -> Vec<String> {
    const WATER_WORDS: &[&str] = &[
        "sea", "ocean", "gulf", "bay", "bight", "channel", "strait", "passage", "current", "sound",
    ];
    let key = normalize(name);
    let mut forms = vec![key.clone()];
    let add = |forms: &mut Vec<String>, form: String| {
        if !form.is_empty() && !forms.contains(&form) {
            forms.push(form);
        }
    };
    if key.contains(" - ") {
        add(&mut forms, key.replace(" - ", " "));
        add(&mut forms, key.replace(" - ", ""));
    }
    for form in forms.clone() {
        let swapped: Vec<&str> = form
            .split(' ')
            .map(|w| match w {
                "st" => "saint",
                "saint" => "st",
                w => w,
            })
            .collect();
        add(&mut forms, swapped.join(" "));
    }
    for form in forms.clone() {
        for saint in ["st", "saint"] {
            if let Some(rest) = form.strip_prefix(saint).and_then(|r| r.strip_prefix(' ')) {
                add(&mut forms, format!("{saint} - {rest}"));
            }
            let inner = format!(" {saint} ");
            if form.contains(&inner) {
                add(&mut forms, form.replace(&inner, &format!(" {saint} - ")));
            }
        }
    }
    for form in forms.clone() {
        match form.rsplit_once(' ') {
            Some((stem, "sea" | "ocean"))
                if !matches!(stem.rsplit(' ').next(), Some("-" | "of" | "the")) =>
            {
                add(&mut forms, stem.to_string());
            }
            _ if add_sea
                && !form.contains(" of ")
                && !WATER_WORDS.contains(&form.rsplit(' ').next().unwrap_or("")) =>
            {
                add(&mut forms, format!("{form} sea"));
            }
            _ => {}
        }
    }
    for form in forms.clone() {
        if form.contains(' ') {
            add(&mut forms, form.replace([' ', '-'], ""));
        }
    }
    forms.remove(0);
    forms
}

/// The first three letters of a full name, "The" ignored (`The Fetters`: `fet`), as
/// Classical's section 9 abbreviates land locations (`Desert of Palms`: `des`); none for a
/// name of fewer letters. A map file asks for these with `abbreviations first-three-letters`.
pub fn first_three_letters(name: &str) -> Option<String> {
    let key = normalize(name);
    let key = key.strip_prefix("the ").unwrap_or(&key);
    let letters: String = key.chars().filter(|c| c.is_alphabetic()).take(3).collect();
    (letters.chars().count() == 3).then_some(letters)
}

/// Everything [`Map`] needs, gathered by the parser, turned into tables here.
pub(crate) struct MapParts {
    pub name: String,
    pub title: String,
    pub powers: Vec<Power>,
    pub provinces: Vec<Province>,
    pub regions: Vec<Region>,
    pub start: Vec<StartUnit>,
    pub army_adj: Vec<Vec<ProvinceId>>,
    pub fleet_adj: Vec<Vec<RegionId>>,
    /// The file's `abbreviations first-three-letters`: land and coastal provinces are also
    /// named by the first three letters of their full names.
    pub first_three_letters: bool,
}

impl Map {
    pub(crate) fn from_parts(parts: MapParts) -> Map {
        let np = parts.provinces.len();
        let nr = parts.regions.len();
        let mut army_bits = BitMatrix::new(np, np);
        for (from, list) in parts.army_adj.iter().enumerate() {
            for to in list {
                army_bits.set(from, to.index());
            }
        }
        let mut fleet_bits = BitMatrix::new(nr, nr);
        let mut fleet_reach = BitMatrix::new(nr, np);
        let mut fleet_touch: Vec<Vec<ProvinceId>> = vec![Vec::new(); np];
        for (from, list) in parts.fleet_adj.iter().enumerate() {
            let from_prov = parts.regions[from].province;
            for to in list {
                fleet_bits.set(from, to.index());
                let to_prov = parts.regions[to.index()].province;
                fleet_reach.set(from, to_prov.index());
                if !fleet_touch[from_prov.index()].contains(&to_prov) {
                    fleet_touch[from_prov.index()].push(to_prov);
                }
            }
        }
        // The names the map gives win; then the spellings derived from them, unless a
        // spelling is a power's word (it would stop `S Japan F Soj` reading) or fits two
        // provinces, when it names neither.
        let mut names = HashMap::new();
        for (i, p) in parts.provinces.iter().enumerate() {
            let id = ProvinceId(i as u16);
            for name in [&p.abbr, &p.name].into_iter().chain(&p.aliases) {
                names.insert(normalize(name), id);
            }
        }
        let power_word = |w: &str| {
            parts.powers.iter().any(|pw| {
                pw.name.eq_ignore_ascii_case(w)
                    || pw.adjective.eq_ignore_ascii_case(w)
                    || w.chars().eq(pw.letter.to_lowercase())
                    || pw.aka.iter().any(|a| a.eq_ignore_ascii_case(w))
            })
        };
        let mut derived: HashMap<String, Option<ProvinceId>> = HashMap::new();
        for (i, p) in parts.provinces.iter().enumerate() {
            let id = ProvinceId(i as u16);
            let mut forms = spellings(&p.name, p.terrain.is_water());
            // "The" is never needed in a name: "the North Sea" finds "North Sea".
            if let Some(rest) = normalize(&p.name).strip_prefix("the ") {
                forms.push(rest.to_string());
            }
            for a in &p.aliases {
                forms.extend(spellings(a, false));
            }
            if parts.first_three_letters && matches!(p.terrain, Terrain::Land | Terrain::Coast) {
                forms.extend(first_three_letters(&p.name));
            }
            for form in forms {
                if names.contains_key(&form) || power_word(&form) {
                    continue;
                }
                let owner = derived.entry(form).or_insert(Some(id));
                if *owner != Some(id) {
                    *owner = None;
                }
            }
        }
        let mut ambiguous = Vec::new();
        for (form, owner) in derived {
            match owner {
                Some(id) => {
                    names.insert(form, id);
                }
                None => ambiguous.push(form),
            }
        }
        ambiguous.sort();
        let name_words = names
            .keys()
            .map(|k| k.split(' ').count())
            .max()
            .unwrap_or(1);
        Map {
            name_words,
            ambiguous,
            name: parts.name,
            title: parts.title,
            powers: parts.powers,
            provinces: parts.provinces,
            regions: parts.regions,
            start: parts.start,
            army_adj: parts.army_adj,
            fleet_adj: parts.fleet_adj,
            army_bits,
            fleet_bits,
            fleet_reach,
            fleet_touch,
            names,
            free_oceans: false,
            scheduled: false,
            ocean_network: false,
        }
    }
}
