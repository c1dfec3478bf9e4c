//! Rule switches: the named options a variant turns on and the engine consults.
//!
//! A variant never branches the engine by its name; it sets these values. DPjudge's rule
//! flags are the model. Switches that only later variants use are here already so their
//! place in the engine is fixed.

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
    /// For convoys the oceans count as one connected water (the world variant's M.2).
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
        }
    }

    /// Turns a named switch on (or sets a value), as a Master asks at creation:
    /// `remote_builds` (builds in any owned centre), `home_builds`, `victory=N`,
    /// `ocean_convoys`, `no_ocean_convoys`, `portage`. Switches of variants still to come are refused
    /// by name. Names match in any case, with `-` or `_`.
    pub fn apply_switch(&mut self, switch: &str) -> Result<(), String> {
        let s = switch.to_ascii_lowercase().replace('-', "_");
        if let Some(n) = s.strip_prefix("victory=") {
            let n: usize = n
                .parse()
                .map_err(|_| format!("'{switch}': victory=N needs a number of centres"))?;
            if n == 0 {
                return Err(format!("'{switch}': victory needs at least one centre"));
            }
            self.victory_centres = n;
            return Ok(());
        }
        if let Some(y) = s.strip_prefix("last_year=") {
            let y: i32 = y
                .parse()
                .map_err(|_| format!("'{switch}': last_year=N needs a judge year (1910)"))?;
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
                return Err(format!(
                    "unknown rule switch '{switch}' (remote_builds, home_builds, victory=N, last_year=N, ocean_convoys, no_ocean_convoys, portage, conversion, army_fleets, fast_ferry_only, several_powers)"
                ))
            }
        }
        Ok(())
    }

    /// Portage: the standard rules, and armies carry fleets over land.
    pub fn portage() -> Rules {
        Rules {
            portage: true,
            ..Rules::standard()
        }
    }

    /// Deluge II: builds in any owned centre, conversion, army-fleets with the fast ferry as
    /// the only convoy, and the game ends after Winter 1908 with the survivors.
    pub fn deluge() -> Rules {
        Rules {
            build_sites: BuildSites::AnyOwned,
            conversion: true,
            army_fleets: true,
            fast_ferry_only: true,
            last_year: Some(1908),
            survivors_share: true,
            ..Rules::standard()
        }
    }

    /// The world of 1880 (Paul Barker): free oceans joined for convoys, unit choice before
    /// the first turn, victory with more than half the centres, the game over after 1900.
    pub fn world1880() -> Rules {
        Rules {
            free_oceans: true,
            ocean_network: true,
            unit_choice: true,
            victory_majority: true,
            several_powers: true,
            dip_points: true,
            last_year: Some(1900),
            ..Rules::standard()
        }
    }

    /// Classical: builds in any owned centre while one home centre is held; 18 centres win.
    pub fn classical() -> Rules {
        Rules {
            build_sites: BuildSites::AnyOwnedWhileHomeHeld,
            ..Rules::standard()
        }
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
        assert!(r
            .apply_switch("flying")
            .unwrap_err()
            .contains("unknown rule switch 'flying'"));
        assert!(r.apply_switch("victory=x").is_err());
    }
}
