//! Rule switches: the named options a variant turns on and the engine consults.
//!
//! A variant never branches the engine by its name; it sets these values, by name in its
//! variant file (`rules = [...]`, `variants/FORMAT.md`). DPjudge's rule flags are the model.
//! Switches that only later variants use are here already so their place in the engine is
//! fixed.

use super::partners::Partners;

/// Where a power may build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildSites {
    /// Only in vacant, owned home centres (the standard rule).
    Home,
    /// In any vacant owned centre (Deluge, world variants).
    AnyOwned,
    /// In any vacant owned centre, but only while the power still owns one of its home
    /// centres (Classical).
    AnyOwnedWhileHomeHeld,
}

/// The rulebook that decides the points where editions of the rules differ (DATC v3.0
/// section 4 says, issue by issue, what each decides). Everything else is the same in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edition {
    /// The February 1982 rules (Avalon Hill; Portage's base): a convoyed army does not cut the
    /// support of a fleet supporting an action in a body of water that holds a convoying
    /// fleet (4.A.2, no other paradox rule needed), and a power in civil disorder loses the
    /// unit farthest from its home centres, fleets counted by sea and armies over land and
    /// water (4.D.8).
    Rules1982,
    /// The 2000 rules with the DATC v3.0 preferences: the Szykman rule for convoy paradoxes,
    /// and civil-disorder removals by distance to the nearest owned centre over land and sea
    /// alike (the 2023 rules).
    Rules2000,
}

/// Who sets a switch: a Master for one game, or a variant file for every game of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A Master, at CREATE or with SET RULE before START; a variant file may too.
    Game,
    /// Only a variant file: the switch shapes the variant itself.
    Variant,
}

/// A rule switch as it is written: `name` or `name=value`.
#[derive(Clone, Copy, Debug)]
pub struct Switch {
    /// Its name as the help and the refusal of an unknown switch write it: `portage`, or
    /// with a value, `victory=N` (any number) or `rules=1982` (one value of several).
    pub name: &'static str,
    /// Other spellings read the same.
    pub aliases: &'static [&'static str],
    /// Who may set it.
    pub scope: Scope,
    /// Reads it, given the value after `=` (empty without one); the error says what the
    /// value needs.
    read: fn(&str) -> Result<Setting, &'static str>,
}

impl Switch {
    /// The name before any `=`.
    fn key(&self) -> &'static str {
        self.name.split('=').next().unwrap_or(self.name)
    }
}

/// Every rule switch herald reads, in the order the help lists them: the parser looks
/// switches up here, so this list is all there is.
pub const SWITCHES: &[Switch] = &[
    Switch {
        name: "remote_builds",
        aliases: &["any_centre", "anycentre"],
        scope: Scope::Game,
        read: |_| Ok(Setting::BuildSites(BuildSites::AnyOwned)),
    },
    Switch {
        name: "home_builds",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::BuildSites(BuildSites::Home)),
    },
    Switch {
        name: "victory=N",
        aliases: &[],
        scope: Scope::Game,
        read: |n| {
            let n: usize = n
                .parse()
                .map_err(|_| "victory=N needs a number of centres")?;
            if n == 0 {
                return Err("victory needs at least one centre");
            }
            Ok(Setting::Victory(n))
        },
    },
    Switch {
        name: "last_year=N",
        aliases: &[],
        scope: Scope::Game,
        read: |y| {
            y.parse()
                .map(Setting::LastYear)
                .map_err(|_| "last_year=N needs a judge year (1910)")
        },
    },
    Switch {
        name: "ocean_convoys",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::OceanConvoys(true)),
    },
    Switch {
        name: "no_ocean_convoys",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::OceanConvoys(false)),
    },
    Switch {
        name: "portage",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::Portage),
    },
    Switch {
        name: "conversion",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::Conversion),
    },
    Switch {
        name: "army_fleets",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::ArmyFleets),
    },
    Switch {
        name: "fast_ferry_only",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::FastFerryOnly),
    },
    Switch {
        name: "several_powers",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::SeveralPowers),
    },
    Switch {
        name: "dip_points",
        aliases: &[],
        scope: Scope::Game,
        read: |_| Ok(Setting::DipPoints),
    },
    Switch {
        name: "rules=1982",
        aliases: &[],
        scope: Scope::Game,
        read: edition,
    },
    Switch {
        name: "rules=2000",
        aliases: &[],
        scope: Scope::Game,
        read: edition,
    },
    Switch {
        name: "remote_builds_while_home_held",
        aliases: &[],
        scope: Scope::Variant,
        read: |_| Ok(Setting::BuildSites(BuildSites::AnyOwnedWhileHomeHeld)),
    },
    Switch {
        name: "survivors_share",
        aliases: &[],
        scope: Scope::Variant,
        read: |_| Ok(Setting::SurvivorsShare),
    },
    Switch {
        name: "free_oceans",
        aliases: &[],
        scope: Scope::Variant,
        read: |_| Ok(Setting::FreeOceans),
    },
    Switch {
        name: "ocean_network",
        aliases: &[],
        scope: Scope::Variant,
        read: |_| Ok(Setting::OceanNetwork),
    },
    Switch {
        name: "unit_choice",
        aliases: &[],
        scope: Scope::Variant,
        read: |_| Ok(Setting::UnitChoice),
    },
    Switch {
        name: "victory=majority",
        aliases: &[],
        scope: Scope::Variant,
        read: |_| Ok(Setting::VictoryMajority),
    },
];

/// `rules=1982` or `rules=2000`.
fn edition(year: &str) -> Result<Setting, &'static str> {
    Ok(Setting::Edition(match year {
        "1982" => Edition::Rules1982,
        "2000" => Edition::Rules2000,
        _ => return Err("the rule editions are rules=1982 and rules=2000"),
    }))
}

/// A rule switch read and checked: what it sets, so that applying it cannot fail. A game
/// keeps the switches its Master chose as these (issue 26: "switches resolved at CREATE/SET
/// RULE into typed rules"), written as their canonical text ([`Setting`]'s `Display`, which
/// [`Setting::read`] reads back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `remote_builds`, `home_builds`, `remote_builds_while_home_held`.
    BuildSites(BuildSites),
    /// `victory=N`.
    Victory(usize),
    /// `victory=majority`.
    VictoryMajority,
    /// `last_year=N`.
    LastYear(i32),
    /// `ocean_convoys` (true) or `no_ocean_convoys` (false).
    OceanConvoys(bool),
    /// `portage`.
    Portage,
    /// `conversion`.
    Conversion,
    /// `army_fleets`.
    ArmyFleets,
    /// `fast_ferry_only`.
    FastFerryOnly,
    /// `several_powers`.
    SeveralPowers,
    /// `dip_points`.
    DipPoints,
    /// `rules=1982`, `rules=2000`.
    Edition(Edition),
    /// `survivors_share`.
    SurvivorsShare,
    /// `free_oceans`.
    FreeOceans,
    /// `ocean_network`.
    OceanNetwork,
    /// `unit_choice`.
    UnitChoice,
}

impl Setting {
    /// Reads a switch a Master may set (at CREATE or SET RULE): one of [`SWITCHES`] of
    /// [`Scope::Game`]; those that shape a variant are refused by name. Names match in any
    /// case, with `-` or `_`.
    pub fn read(switch: &str) -> Result<Setting, SwitchError> {
        read(switch, Scope::Game)
    }

    /// Reads a switch as a variant file names it: any of [`SWITCHES`].
    pub fn read_variant(switch: &str) -> Result<Setting, SwitchError> {
        read(switch, Scope::Variant)
    }
}

impl std::fmt::Display for Setting {
    /// The switch as the help writes it, which [`Setting::read`] reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Setting::BuildSites(BuildSites::Home) => f.write_str("home_builds"),
            Setting::BuildSites(BuildSites::AnyOwned) => f.write_str("remote_builds"),
            Setting::BuildSites(BuildSites::AnyOwnedWhileHomeHeld) => {
                f.write_str("remote_builds_while_home_held")
            }
            Setting::Victory(n) => write!(f, "victory={n}"),
            Setting::VictoryMajority => f.write_str("victory=majority"),
            Setting::LastYear(y) => write!(f, "last_year={y}"),
            Setting::OceanConvoys(true) => f.write_str("ocean_convoys"),
            Setting::OceanConvoys(false) => f.write_str("no_ocean_convoys"),
            Setting::Portage => f.write_str("portage"),
            Setting::Conversion => f.write_str("conversion"),
            Setting::ArmyFleets => f.write_str("army_fleets"),
            Setting::FastFerryOnly => f.write_str("fast_ferry_only"),
            Setting::SeveralPowers => f.write_str("several_powers"),
            Setting::DipPoints => f.write_str("dip_points"),
            Setting::Edition(Edition::Rules1982) => f.write_str("rules=1982"),
            Setting::Edition(Edition::Rules2000) => f.write_str("rules=2000"),
            Setting::SurvivorsShare => f.write_str("survivors_share"),
            Setting::FreeOceans => f.write_str("free_oceans"),
            Setting::OceanNetwork => f.write_str("ocean_network"),
            Setting::UnitChoice => f.write_str("unit_choice"),
        }
    }
}

/// A game's switches are stored as their text (`"remote_builds"`), as they always were; a
/// stored switch this herald cannot read fails the game's load with an error naming it,
/// rather than being skipped (issue 26: "failures silently skipped").
impl serde::Serialize for Setting {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Setting {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Setting, D::Error> {
        let text = String::deserialize(d)?;
        Setting::read(&text).map_err(serde::de::Error::custom)
    }
}

/// Finds a switch by name among those `scope` may set and reads its value.
fn read(switch: &str, scope: Scope) -> Result<Setting, SwitchError> {
    let s = switch.to_ascii_lowercase().replace('-', "_");
    let (key, value) = s.split_once('=').unwrap_or((s.as_str(), ""));
    let allowed = SWITCHES
        .iter()
        .filter(|w| scope == Scope::Variant || w.scope == Scope::Game);
    // The exact spelling first (`victory=majority`), else the name before `=`.
    let found = allowed
        .clone()
        .find(|w| w.name == s || w.aliases.contains(&s.as_str()))
        .or_else(|| {
            allowed
                .clone()
                .find(|w| w.name.contains('=') && w.key() == key)
        });
    let Some(found) = found else {
        return Err(SwitchError::Unknown {
            switch: switch.to_string(),
            known: switch_names(scope),
        });
    };
    (found.read)(value).map_err(|why| SwitchError::Value {
        switch: switch.to_string(),
        why,
    })
}

/// The names of the switches a scope may set, joined for a refusal or a help line.
pub fn switch_names(scope: Scope) -> String {
    SWITCHES
        .iter()
        .filter(|s| scope == Scope::Variant || s.scope == Scope::Game)
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A rule switch that could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwitchError {
    /// No switch has that name.
    #[error("unknown rule switch '{switch}' ({known})")]
    Unknown {
        /// The switch as written.
        switch: String,
        /// The switches that exist there.
        known: String,
    },
    /// The switch exists but its value is wrong.
    #[error("'{switch}': {why}")]
    Value {
        /// The switch as written.
        switch: String,
        /// What it needs.
        why: &'static str,
    },
}

/// The set of rule switches for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Supply centres that win the game, counted after adjustments.
    pub victory_centres: usize,
    /// Where builds may be placed.
    pub build_sites: BuildSites,
    /// Armies may carry fleets over land (`A Den P F Nth-Bal`).
    pub portage: bool,
    /// Fleets in ocean spaces may convoy (off: oceans cannot carry a convoy).
    pub ocean_convoys: bool,
    /// Armies may convert to fleets in place (`A Yor converts`).
    pub conversion: bool,
    /// Army-fleets (`A/F`) and the Abstraction convoy orders.
    pub army_fleets: bool,
    /// Convoys only by fast ferry (Deluge).
    pub fast_ferry_only: bool,
    /// Dip points are kept and spent (the world variant).
    pub dip_points: bool,
    /// The last year played; after its adjustments the game ends (None: no limit).
    pub last_year: Option<i32>,
    /// When the last year ends, the powers still on the board share the game (a sole
    /// survivor wins it) — Deluge's rule 9.
    pub survivors_share: bool,
    /// Oceans are free: any number of fleets share one without combat, and entering one
    /// always succeeds (the world variant's M.1).
    pub free_oceans: bool,
    /// Convoys over oceans by the world variant's M.2: the oceans count as one connected
    /// water, an army boards and lands from a sea (never straight from an ocean), and only
    /// its own power's fleets carry it over an ocean (laid onto the map by
    /// `Map::join_oceans`).
    pub ocean_network: bool,
    /// Before the first turn each power chooses army or fleet for each home centre, by
    /// build orders in an opening adjustment phase; a centre left unordered gets the map's
    /// starting unit.
    pub unit_choice: bool,
    /// Victory takes more than half of all the map's centres (`victory_centres` is set from
    /// the map).
    pub victory_majority: bool,
    /// One player may hold several powers: a second SIGNON to a forming game from the same
    /// address with another password takes another seat.
    pub several_powers: bool,
    /// The rulebook for the points where editions differ (`rules=1982`, `rules=2000`).
    pub edition: Edition,
    /// Which powers one player holds together: not a switch but the game's seating, which
    /// the judge fills in; every power on its own unless it does. M.2's ocean convoys are
    /// the player's, by the fleets of any of her powers.
    pub partners: Partners,
}

impl Rules {
    /// The 2000 rulebook with the DATC v3.0 preferences: 18 centres, home builds.
    pub fn standard() -> Rules {
        Rules {
            victory_centres: 18,
            build_sites: BuildSites::Home,
            portage: false,
            ocean_convoys: true,
            conversion: false,
            army_fleets: false,
            fast_ferry_only: false,
            dip_points: false,
            last_year: None,
            survivors_share: false,
            free_oceans: false,
            ocean_network: false,
            unit_choice: false,
            victory_majority: false,
            several_powers: false,
            edition: Edition::Rules2000,
            partners: Partners::default(),
        }
    }

    /// Turns a named switch on (or sets a value), as a Master asks at creation or with SET
    /// RULE: one of [`SWITCHES`] of [`Scope::Game`]. Switches that shape a variant are
    /// refused by name. Names match in any case, with `-` or `_`.
    pub fn apply_switch(&mut self, switch: &str) -> Result<(), SwitchError> {
        self.apply(Setting::read(switch)?);
        Ok(())
    }

    /// Sets a switch as a variant file names it: any of [`SWITCHES`], those a Master may set
    /// and those of [`Scope::Variant`] that shape the variant itself and so are not changed
    /// in a running game.
    pub fn apply_variant_switch(&mut self, switch: &str) -> Result<(), SwitchError> {
        self.apply(Setting::read_variant(switch)?);
        Ok(())
    }

    /// Applies a switch read before: it cannot fail.
    pub fn apply(&mut self, setting: Setting) {
        match setting {
            Setting::BuildSites(b) => self.build_sites = b,
            Setting::Victory(n) => self.victory_centres = n,
            Setting::VictoryMajority => self.victory_majority = true,
            Setting::LastYear(y) => self.last_year = Some(y),
            Setting::OceanConvoys(on) => self.ocean_convoys = on,
            Setting::Portage => self.portage = true,
            Setting::Conversion => self.conversion = true,
            Setting::ArmyFleets => self.army_fleets = true,
            Setting::FastFerryOnly => self.fast_ferry_only = true,
            Setting::SeveralPowers => self.several_powers = true,
            Setting::DipPoints => self.dip_points = true,
            Setting::Edition(e) => self.edition = e,
            Setting::SurvivorsShare => self.survivors_share = true,
            Setting::FreeOceans => self.free_oceans = true,
            Setting::OceanNetwork => self.ocean_network = true,
            Setting::UnitChoice => self.unit_choice = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every switch's canonical text reads back as the same setting, so a game's switches
    /// survive being stored as text.
    #[test]
    fn every_setting_reads_back_from_its_text() {
        for switch in SWITCHES {
            let text = switch.name.replace("=N", "=7");
            let setting = Setting::read_variant(&text).unwrap();
            assert_eq!(Setting::read_variant(&setting.to_string()), Ok(setting));
            let mut by_text = Rules::standard();
            by_text.apply_variant_switch(&text).unwrap();
            let mut by_setting = Rules::standard();
            by_setting.apply(setting);
            assert_eq!(by_text, by_setting, "{text}");
        }
    }

    /// Issue 26: a refused switch is a kind to match on (`apply_switch` threw the
    /// `SwitchError` away as text), quoting the switch once.
    #[test]
    fn a_refused_switch_says_which_kind() {
        let mut r = Rules::standard();
        let unknown = r.apply_switch("no-such-rule").unwrap_err();
        assert!(
            matches!(&unknown, SwitchError::Unknown { switch, .. } if switch == "no-such-rule"),
            "{unknown:?}"
        );
        assert_eq!(unknown.to_string().matches("no-such-rule").count(), 1);
        let value = r.apply_switch("victory=many").unwrap_err();
        assert_eq!(
            value,
            SwitchError::Value {
                switch: "victory=many".into(),
                why: "victory=N needs a number of centres"
            }
        );
    }

    #[test]
    fn switches_change_the_rules_by_name() {
        let mut r = Rules::standard();
        r.apply_switch("Remote-Builds").unwrap();
        assert_eq!(r.build_sites, BuildSites::AnyOwned);
        r.apply_switch("victory=20").unwrap();
        assert_eq!(r.victory_centres, 20);
        r.apply_switch("dip_points").unwrap();
        assert!(r.dip_points);
        r.apply_switch("conversion").unwrap();
        assert!(r.conversion);
        r.apply_switch("portage").unwrap();
        assert!(r.portage);
        assert_eq!(r.edition, Edition::Rules2000);
        r.apply_switch("Rules=1982").unwrap();
        assert_eq!(r.edition, Edition::Rules1982);
        r.apply_switch("rules=2000").unwrap();
        assert_eq!(r.edition, Edition::Rules2000);
        assert_eq!(
            r.apply_switch("rules=1971").unwrap_err().to_string(),
            "'rules=1971': the rule editions are rules=1982 and rules=2000"
        );
        assert!(r
            .apply_switch("flying")
            .unwrap_err()
            .to_string()
            .contains("unknown rule switch 'flying'"));
        assert!(r.apply_switch("victory=x").is_err());
    }

    #[test]
    fn every_listed_switch_and_spelling_is_read_and_only_where_its_scope_allows() {
        for switch in SWITCHES {
            for name in std::iter::once(&switch.name).chain(switch.aliases) {
                let written = name.replace("=N", "=20");
                let by_file = Rules::standard().apply_variant_switch(&written);
                assert_eq!(by_file, Ok(()), "{written}");
                let by_master = Rules::standard().apply_switch(&written);
                assert_eq!(by_master.is_ok(), switch.scope == Scope::Game, "{written}");
            }
        }
        assert!(switch_names(Scope::Game).contains("dip_points"));
        assert!(!switch_names(Scope::Game).contains("unit_choice"));
        assert!(switch_names(Scope::Variant).contains("unit_choice"));
    }

    #[test]
    fn a_variant_file_sets_the_switches_that_shape_a_variant_and_a_master_does_not() {
        let mut r = Rules::standard();
        for s in [
            "Remote-Builds-While-Home-Held",
            "survivors_share",
            "free_oceans",
            "ocean_network",
            "unit_choice",
            "victory=majority",
            "portage",
        ] {
            r.apply_variant_switch(s).unwrap();
        }
        assert_eq!(r.build_sites, BuildSites::AnyOwnedWhileHomeHeld);
        assert!(r.survivors_share && r.free_oceans && r.ocean_network && r.unit_choice);
        assert!(r.victory_majority && r.portage);
        let err = r.apply_variant_switch("flying").unwrap_err();
        assert!(
            matches!(&err, SwitchError::Unknown { switch, known } if switch == "flying" && known.contains("unit_choice")),
            "{err}"
        );
        assert_eq!(
            r.apply_variant_switch("victory=x").unwrap_err().to_string(),
            "'victory=x': victory=N needs a number of centres"
        );
        let mut game = Rules::standard();
        let refused = game.apply_switch("unit_choice").unwrap_err().to_string();
        assert!(refused.starts_with("unknown rule switch 'unit_choice' (remote_builds,"));
        assert!(!refused.contains("free_oceans"), "{refused}");
        assert!(game.apply_switch("victory=majority").is_err());
    }
}
