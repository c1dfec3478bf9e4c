//! Why a movement order was refused before adjudication: a kind to match on, with the
//! units and provinces it names (as written in orders: `A Par`, `Stp`) quoted once in its
//! text.

/// Why a movement order was refused (see [`super::screen_movement`]). Screening returns it
/// boxed: a refusal is rare, and a small `Result` keeps the common path as fast as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A build, removal or waive in a movement phase.
    #[error("builds, removals and waives are for adjustment phases")]
    AdjustmentOrder,
    /// A disband for a unit that was not dislodged.
    #[error("a unit on the board can only disband in a retreat phase")]
    DisbandOnBoard,
    /// No unit stands in the ordered province.
    #[error("there is no unit in {0}")]
    NoUnit(String),
    /// The ordered unit is another power's.
    #[error("the unit in {0} is not yours")]
    NotYours(String),
    /// A convoyed move with no fleet at sea on any route.
    #[error("no fleets at sea could convoy {unit} to {to}")]
    NoConvoyingFleets {
        /// The army.
        unit: String,
        /// Where it was to go.
        to: String,
    },
    /// A unit supporting itself.
    #[error("a unit cannot support itself")]
    SupportsItself,
    /// A support to hold for a fleet in its own ocean, which nothing attacks.
    #[error("{0} is an ocean: no unit in an ocean is attacked or dislodged, so a support to hold there does nothing")]
    OceanHoldSupport(String),
    /// A support for a province with no unit.
    #[error("there is no unit in {0} to support")]
    NothingToSupport(String),
    /// A support to hold in a province the supporter cannot reach.
    #[error("{unit} cannot reach {to}, so cannot support a unit there")]
    CannotSupportThere {
        /// The supporting unit.
        unit: String,
        /// The supported unit's province.
        to: String,
    },
    /// A supported move that stays where it is.
    #[error("a supported move must go somewhere else")]
    SupportedMoveGoesNowhere,
    /// A support of a move into the supporter's own province.
    #[error("{0} cannot support a move into its own province")]
    SupportIntoOwnProvince(String),
    /// A support of a move into a province the supporter cannot reach.
    #[error("{unit} cannot reach {to}, so cannot support a move there")]
    CannotSupportMoveThere {
        /// The supporting unit.
        unit: String,
        /// The move's destination.
        to: String,
    },
    /// A portage in a game without the portage rules.
    #[error("portage is not played in this game")]
    NoPortageRule,
    /// A portage ordered to a fleet.
    #[error("only armies portage fleets")]
    OnlyArmiesPortage,
    /// A portage of a province with no fleet.
    #[error("there is no fleet in {0} to portage")]
    NoFleetToPortage(String),
    /// A portage that does not go from water to water.
    #[error("a portage carries a fleet from water to water")]
    PortageNotWater,
    /// A convoy ordered to an army-fleet.
    #[error("an army-fleet cannot ferry another army")]
    ArmyFleetFerries,
    /// A convoy ordered to an army.
    #[error("only fleets convoy")]
    OnlyFleetsConvoy,
    /// A convoy by a fleet that is not at sea.
    #[error("a fleet in {0} cannot convoy: only fleets at sea do")]
    NotAtSea(String),
    /// A convoy of a fleet.
    #[error("the unit in {0} is a fleet; only armies are convoyed")]
    ConvoyOfFleet(String),
    /// A convoy of a province with no army.
    #[error("there is no army in {0} to convoy")]
    NoArmyToConvoy(String),
    /// A convoy to the army's own province.
    #[error("a convoy must take the army somewhere else")]
    ConvoyGoesNowhere,
    /// A fast ferry over more than one sea.
    #[error("the fast ferry crosses one sea only: F {fleet} must touch both {from} and {to} (for a longer voyage, embark the army: A {from} E F ...)")]
    FastFerryOneSea {
        /// The fleet's province.
        fleet: String,
        /// The army's province.
        from: String,
        /// Where the army was to go.
        to: String,
    },
    /// A convoy by a fleet on no convoy route of that move.
    #[error("F {fleet} is not needed by any convoy route from {from} to {to}")]
    ConvoyNotNeeded {
        /// The fleet's province.
        fleet: String,
        /// The army's province.
        from: String,
        /// Where the army was to go.
        to: String,
    },
    /// A move to the province the unit is in.
    #[error("a unit cannot move to the province it is in")]
    MoveInPlace,
    /// An army moved to water.
    #[error("an army cannot move to {0}, which is water")]
    ArmyToWater(String),
    /// A move to an impassable province.
    #[error("{0} is impassable")]
    Impassable(String),
    /// A convoy route through a province that is not water.
    #[error("a convoy route goes by water, and {0} is not")]
    RouteNotWater(String),
    /// An army's move to a province it cannot reach.
    #[error("{to} is not next to {from}")]
    NotAdjacent {
        /// The destination.
        to: String,
        /// The army's province.
        from: String,
    },
    /// An army-fleet moved to land instead of landing its army.
    #[error("an army-fleet moves only at sea: to land its army in {to}, order `A {from} D {to}`")]
    ArmyFleetToLand {
        /// The land.
        to: String,
        /// The army-fleet's sea.
        from: String,
    },
    /// A convoyed fleet.
    #[error("only armies can be convoyed")]
    ConvoyedFleet,
    /// A fleet moved inland.
    #[error("a fleet cannot move to {0}, which is inland")]
    FleetInland(String),
    /// A fleet's move to a province or coast it cannot reach.
    #[error("{unit} cannot reach {to}")]
    CannotReach {
        /// The fleet.
        unit: String,
        /// The destination (with its coast when one was named).
        to: String,
    },
    /// A fleet's move to a province with several reachable coasts, naming none.
    #[error("{to} has several coasts {unit} can reach: name one, e.g. {example}")]
    CoastUnsaid {
        /// The destination.
        to: String,
        /// The fleet.
        unit: String,
        /// One coast it can reach (`Spa/nc`).
        example: String,
    },
    /// A standing support bought with dip points in a game without them.
    #[error("dip points are not played in this game")]
    NoDipPoints,
    /// A standing support for a fleet in an ocean, where nobody is dislodged (M.1).
    #[error("{0} is an ocean: no unit in an ocean is attacked or dislodged, so a standing support there would do nothing; none was bought")]
    OceanStandingSupport(String),
    /// Not dips enough left this turn for a standing support (how many are left).
    #[error("a standing support costs {cost} dips, and you have {0} left this turn", cost = crate::game::dips::STANDING_SUPPORT)]
    DipsShort(u32),
    /// A standing support naming a move (`4 DIPS S A Vie - Mun`): D.2 sells support for a
    /// unit that is standing only.
    #[error("dips support a unit that is standing (\"4 Dips to support a unit that is standing\"), not {unit}'s move to {to}: write '4 DIPS S {unit}', which counts if it stands; none was bought")]
    DipSupportOfMove {
        /// The supported unit as written (`A Vie`).
        unit: String,
        /// Where the order moves it.
        to: String,
    },
    /// A refusal of the army-fleet and shared-ocean rules (`afloat.rs`).
    #[error(transparent)]
    Afloat(#[from] super::afloat::AfloatError),
    /// A refusal of the portage rule (`routes.rs`).
    #[error(transparent)]
    Portage(#[from] super::routes::PortageError),
}

impl From<super::afloat::AfloatError> for Box<Refusal> {
    fn from(why: super::afloat::AfloatError) -> Self {
        Box::new(Refusal::Afloat(why))
    }
}

impl From<super::routes::PortageError> for Box<Refusal> {
    fn from(why: super::routes::PortageError) -> Self {
        Box::new(Refusal::Portage(why))
    }
}

#[cfg(test)]
mod tests {
    use super::super::check_one;
    use super::Refusal;
    use crate::game::order::parse_order;
    use crate::game::position::Position;
    use crate::game::variant::Variant;

    /// Issue 26: "rejections carry a matchable kind and quote the input once in `Display`".
    #[test]
    fn a_refused_order_says_which_kind_and_quotes_its_places_once() {
        let v = Variant::standard();
        let map = &v.map;
        let pos = Position::initial(map, v.calendar.start);
        let france = map.power_by_word("France").unwrap();
        let check = |text: &str| {
            check_one(
                map,
                &v.rules,
                &pos,
                france,
                &parse_order(map, text).unwrap(),
            )
            .map(|(_, command)| command)
        };
        let refused = *check("A Par-Lon").unwrap_err();
        assert_eq!(
            refused,
            Refusal::NotAdjacent {
                to: "Lon".into(),
                from: "Par".into()
            }
        );
        assert_eq!(refused.to_string(), "Lon is not next to Par");
        assert_eq!(
            *check("A Mun-Ruh").unwrap_err(),
            Refusal::NotYours("Mun".into())
        );
        assert_eq!(
            *check("A Pic-Bel").unwrap_err(),
            Refusal::NoUnit("Pic".into())
        );
        assert_eq!(
            *check("F Bre-Par").unwrap_err(),
            Refusal::FleetInland("Par".into())
        );
        assert_eq!(
            *check("A Par S A Par").unwrap_err(),
            Refusal::SupportsItself
        );
        assert_eq!(*check("Build A Par").unwrap_err(), Refusal::AdjustmentOrder);
        let coast = *check("F Bre-Spa").unwrap_err();
        assert!(
            matches!(&coast, Refusal::CannotReach { unit, to } if unit == "F Bre" && to == "Spa"),
            "{coast:?}"
        );
        assert_eq!(coast.to_string().matches("Spa").count(), 1, "{coast}");
    }
}
