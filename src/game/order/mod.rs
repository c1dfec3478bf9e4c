//! Orders as players write them, before they are checked against the board.
//!
//! [`parse`] reads the judges' dialect into an [`Order`]; [`Order::canonical`] prints it back
//! in the one form herald uses in every reply and result.

pub mod parse;

use super::ids::{Coast, PowerId, ProvinceId, UnitKind};
use super::map::Map;

pub use parse::{parse_order, OrderError};

/// A place named in an order: a province and, if the writer gave one, a coast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Loc {
    /// The province.
    pub province: ProvinceId,
    /// The coast written, if any.
    pub coast: Option<Coast>,
}

/// Another power's unit named in a support or convoy: `Italian A Ven`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Target {
    /// The nationality written before it, if any.
    pub power: Option<PowerId>,
    /// The unit kind written, if any.
    pub kind: Option<UnitKind>,
    /// Where it stands.
    pub at: Loc,
}

/// What a unit is told to do.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Stay put (`H`, `holds`, `stand`, or nothing at all).
    Hold,
    /// Move, or in a retreat phase retreat, to `to`; `via` is a convoy route written out
    /// (`A Lon-Nth-Nwy`), `convoy` says "via convoy" was written or a route given.
    Move {
        /// The destination.
        to: Loc,
        /// The water provinces written between origin and destination.
        via: Vec<ProvinceId>,
        /// Whether the writer asked for a convoy.
        convoy: bool,
    },
    /// Support a unit to hold (`to` is None) or to move to `to`.
    Support {
        /// The supported unit.
        target: Target,
        /// Its destination, for a supported move.
        to: Option<Loc>,
    },
    /// Convoy an army from its place to `to`.
    Convoy {
        /// The convoyed army.
        target: Target,
        /// Its destination.
        to: Loc,
    },
    /// Portage: carry the fleet in `target` over this army's land to `to` (`A Den P F Nth-Bal`).
    Portage {
        /// The carried fleet.
        target: Target,
        /// Its destination (water).
        to: Loc,
    },
    /// Disband (a retreat phase's alternative to retreating).
    Disband,
    /// Conversion (Deluge): the army turns into a fleet where it stands, on this coast if
    /// the province has several (`A Yor converts`).
    Convert {
        /// The coast the fleet will stand on, for a multi-coast province.
        coast: Option<Coast>,
    },
    /// Embark (Abstraction rules): the army boards its power's fleet in `fleet`, forming an
    /// army-fleet (`A Mar E F Lyo`).
    Embark {
        /// The sea where the fleet is.
        fleet: Loc,
    },
    /// Disembark (Abstraction rules): the army aboard the army-fleet in this order's sea
    /// lands in `to` (`A Wms D Tun`).
    Disembark {
        /// The coastal province where it lands.
        to: Loc,
    },
}

/// One order as written.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// An order to a unit on the board (or, in a retreat phase, a dislodged unit).
    Unit {
        /// The unit kind written, if any.
        kind: Option<UnitKind>,
        /// Where the unit stands.
        at: Loc,
        /// What it does.
        action: Action,
    },
    /// `Build A Par`.
    Build {
        /// Army or fleet; None when not written.
        kind: Option<UnitKind>,
        /// Where.
        at: Loc,
    },
    /// `Remove F Tri` (also `Disband F Tri` in an adjustment phase).
    Remove {
        /// The unit kind written, if any.
        kind: Option<UnitKind>,
        /// Where the unit stands.
        at: Loc,
    },
    /// `Waive`: a build not taken.
    Waive,
    /// `4 DIPS S A Lon`: a standing support bought with dip points (the world variant's
    /// D.2): +1 to the defence of that unit if it does not move; it cannot be cut.
    DipSupport {
        /// The supported unit.
        target: Target,
        /// Where the order says the unit moves, as a regular support of a move is written
        /// (`4 DIPS S A Vie - Mun`): read so that it is refused with D.2's reason (dips
        /// support a unit that is standing), not as an unreadable line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<Loc>,
    },
}

impl Loc {
    /// `Spa/nc`, `Par`.
    pub fn show(&self, map: &Map) -> String {
        match self.coast {
            Some(c) => format!("{}/{}", map.abbr(self.province), c.abbr()),
            None => map.abbr(self.province).to_string(),
        }
    }
}

impl Target {
    /// `Austrian A Vie`, `F Nth`: the unit as written, with the map's abbreviations.
    pub fn show(&self, map: &Map) -> String {
        let mut s = String::new();
        if let Some(p) = self.power {
            s.push_str(&map.power(p).adjective);
            s.push(' ');
        }
        if let Some(k) = self.kind {
            s.push_str(k.code());
            s.push(' ');
        }
        s.push_str(&self.at.show(map));
        s
    }
}

impl Order {
    /// The canonical text: `A Par - Bur`, `F Nth C A Lon - Nwy`, `A Mun S A Par - Bur`,
    /// `A Lon - Nth - Nwy`, `Build F Stp/nc`, `Remove A War`, `Waive`.
    pub fn canonical(&self, map: &Map) -> String {
        let unit = |kind: &Option<UnitKind>, at: &Loc| match kind {
            Some(k) => format!("{} {}", k.code(), at.show(map)),
            None => at.show(map),
        };
        match self {
            Order::Unit { kind, at, action } => {
                let u = unit(kind, at);
                match action {
                    Action::Hold => format!("{u} H"),
                    Action::Move { to, via, convoy } => {
                        let mut s = u;
                        for p in via {
                            s.push_str(" - ");
                            s.push_str(map.abbr(*p));
                        }
                        s.push_str(" - ");
                        s.push_str(&to.show(map));
                        if *convoy && via.is_empty() {
                            s.push_str(" via convoy");
                        }
                        s
                    }
                    Action::Support { target, to: None } => format!("{u} S {}", target.show(map)),
                    Action::Support {
                        target,
                        to: Some(to),
                    } => {
                        format!("{u} S {} - {}", target.show(map), to.show(map))
                    }
                    Action::Convoy { target, to } => {
                        format!("{u} C {} - {}", target.show(map), to.show(map))
                    }
                    Action::Portage { target, to } => {
                        format!("{u} P {} - {}", target.show(map), to.show(map))
                    }
                    Action::Disband => format!("{u} Disband"),
                    Action::Convert { coast: None } => format!("{u} converts"),
                    Action::Convert { coast: Some(c) } => format!("{u} converts {}", c.abbr()),
                    Action::Embark { fleet } => format!("{u} E F {}", fleet.show(map)),
                    Action::Disembark { to } => format!("{u} D {}", to.show(map)),
                }
            }
            Order::Build { kind, at } => format!("Build {}", unit(kind, at)),
            Order::Remove { kind, at } => format!("Remove {}", unit(kind, at)),
            Order::Waive => "Waive".to_string(),
            Order::DipSupport { target, to: None } => format!("4 DIPS S {}", target.show(map)),
            Order::DipSupport {
                target,
                to: Some(to),
            } => format!("4 DIPS S {} - {}", target.show(map), to.show(map)),
        }
    }

    /// The piece an order is for: its province, and whether it is for the army aboard an
    /// army-fleet there (a landing), which is ordered apart from the fleet. A later order
    /// for the same piece replaces an earlier one.
    pub fn slot(&self) -> Option<(ProvinceId, bool)> {
        let landing = matches!(
            self,
            Order::Unit {
                action: Action::Disembark { .. },
                ..
            }
        );
        self.province().map(|p| (p, landing))
    }

    /// The province of the unit this order is for, if it names one.
    pub fn province(&self) -> Option<ProvinceId> {
        match self {
            Order::Unit { at, .. } | Order::Build { at, .. } | Order::Remove { at, .. } => {
                Some(at.province)
            }
            Order::Waive | Order::DipSupport { .. } => None,
        }
    }
}
