//! Rule switches: the named options a variant turns on and the engine consults.
//!
//! A variant never branches the engine by its name; it sets these values, by name in its
//! variant file (`rules = [...]`, `variants/FORMAT.md`). DPjudge's rule flags are the model.
//! Switches that only later variants use are here already so their place in the engine is
//! fixed.

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

/// The switches a Master may set, as the refusal of an unknown one lists them.
const GAME_SWITCHES: &str = "remote_builds, home_builds, victory=N, last_year=N, ocean_convoys, no_ocean_convoys, portage, conversion, army_fleets, fast_ferry_only, several_powers, rules=1982, rules=2000";

/// Every switch, as a variant file may name them: a Master's, and those that shape a variant.
const ALL_SWITCHES: &str = "remote_builds, home_builds, victory=N, last_year=N, ocean_convoys, no_ocean_convoys, portage, conversion, army_fleets, fast_ferry_only, several_powers, rules=1982, rules=2000, dip_points, remote_builds_while_home_held, survivors_share, free_oceans, ocean_network, unit_choice, victory=majority";

/// Who sets a switch: a Master for one game, or a variant file for every game of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Game,
    Variant,
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
        known: &'static str,
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
        }
    }

    /// Turns a named switch on (or sets a value), as a Master asks at creation:
    /// `remote_builds` (builds in any owned centre), `home_builds`, `victory=N`,
    /// `ocean_convoys`, `no_ocean_convoys`, `portage`, `rules=1982` or `rules=2000` (the
    /// [`Edition`]). Switches of variants still to come are refused by name. Names match in
    /// any case, with `-` or `_`.
    pub fn apply_switch(&mut self, switch: &str) -> Result<(), String> {
        self.set(switch, Scope::Game).map_err(|e| e.to_string())
    }

    /// Sets a switch as a variant file names it: any switch a Master may set, and those that
    /// shape the variant itself and so are not changed in a running game:
    /// `remote_builds_while_home_held` (Classical), `survivors_share` (Deluge), `free_oceans`,
    /// `ocean_network`, `unit_choice`, `victory=majority` (the world of 1880).
    pub fn apply_variant_switch(&mut self, switch: &str) -> Result<(), SwitchError> {
        self.set(switch, Scope::Variant)
    }

    fn set(&mut self, switch: &str, scope: Scope) -> Result<(), SwitchError> {
        let s = switch.to_ascii_lowercase().replace('-', "_");
        let bad_value = |why: &'static str| SwitchError::Value {
            switch: switch.to_string(),
            why,
        };
        if scope == Scope::Variant {
            match s.as_str() {
                "remote_builds_while_home_held" => {
                    self.build_sites = BuildSites::AnyOwnedWhileHomeHeld
                }
                "survivors_share" => self.survivors_share = true,
                "free_oceans" => self.free_oceans = true,
                "ocean_network" => self.ocean_network = true,
                "unit_choice" => self.unit_choice = true,
                "victory=majority" => self.victory_majority = true,
                // The others are a Master's; an unknown one is refused with the whole list.
                _ => {
                    return self.set(switch, Scope::Game).map_err(|e| match e {
                        SwitchError::Unknown { switch, .. } => SwitchError::Unknown {
                            switch,
                            known: ALL_SWITCHES,
                        },
                        e => e,
                    })
                }
            }
            return Ok(());
        }
        if let Some(n) = s.strip_prefix("victory=") {
            let n: usize = n
                .parse()
                .map_err(|_| bad_value("victory=N needs a number of centres"))?;
            if n == 0 {
                return Err(bad_value("victory needs at least one centre"));
            }
            self.victory_centres = n;
            return Ok(());
        }
        if let Some(year) = s.strip_prefix("rules=") {
            self.edition = match year {
                "1982" => Edition::Rules1982,
                "2000" => Edition::Rules2000,
                _ => return Err(bad_value("the rule editions are rules=1982 and rules=2000")),
            };
            return Ok(());
        }
        if let Some(y) = s.strip_prefix("last_year=") {
            let y: i32 = y
                .parse()
                .map_err(|_| bad_value("last_year=N needs a judge year (1910)"))?;
            self.last_year = Some(y);
            return Ok(());
        }
        match s.as_str() {
            "remote_builds" | "any_centre" | "anycentre" => self.build_sites = BuildSites::AnyOwned,
            "home_builds" => self.build_sites = BuildSites::Home,
            "ocean_convoys" => self.ocean_convoys = true,
            "no_ocean_convoys" => self.ocean_convoys = false,
            "portage" => self.portage = true,
            "conversion" => self.conversion = true,
            "army_fleets" => self.army_fleets = true,
            "fast_ferry_only" => self.fast_ferry_only = true,
            "several_powers" => self.several_powers = true,
            "dip_points" => self.dip_points = true,
            _ => {
                return Err(SwitchError::Unknown {
                    switch: switch.to_string(),
                    known: GAME_SWITCHES,
                })
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            r.apply_switch("rules=1971").unwrap_err(),
            "'rules=1971': the rule editions are rules=1982 and rules=2000"
        );
        assert!(r
            .apply_switch("flying")
            .unwrap_err()
            .contains("unknown rule switch 'flying'"));
        assert!(r.apply_switch("victory=x").is_err());
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
        let refused = game.apply_switch("unit_choice").unwrap_err();
        assert!(refused.starts_with("unknown rule switch 'unit_choice' (remote_builds,"));
        assert!(!refused.contains("free_oceans"), "{refused}");
        assert!(game.apply_switch("victory=majority").is_err());
    }
}
