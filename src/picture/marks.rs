//! What a picture draws over the board for the orders of a phase: moves as arrows, supports,
//! convoys and portages as lines to what they help, holds as rings, dislodged units with
//! their retreat options, retreats, disbands, builds and removals. Taken from the engine's
//! report of a phase just played, or from orders on file (not yet adjudicated).

use crate::game::ids::{PowerId, ProvinceId, RegionId};
use crate::game::map::Map;
use crate::game::order::Order;
use crate::game::position::{Position, Unit};
use crate::game::resolve::{retreat_options, Adjustment, Outcome, RetreatOutcome};
use crate::game::screen::{Command, Ordered};
use crate::game::turn::Report;

/// What one order came to: it stood or succeeded, it failed, or it is not adjudicated yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move went, the support was given, the convoy carried, the hold held.
    Succeeded,
    /// It did not.
    Failed,
    /// An order on file: the phase has not been played.
    Pending,
}

impl Verdict {
    /// The word in `data-result`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Succeeded => "succeeded",
            Verdict::Failed => "failed",
            Verdict::Pending => "pending",
        }
    }
}

/// One thing drawn for an order, with the power whose colour it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A move (also a convoyed or portaged one, a conversion, a boarding or a landing).
    Move {
        /// The moving unit's power.
        power: PowerId,
        /// Where it stood.
        from: ProvinceId,
        /// Where it was ordered to.
        to: RegionId,
        /// The provinces the order names between origin and destination, in its order: a
        /// convoy's seas (`A Lon-Eng-Mao-Tun`), a portage's land (`F Bla-Bul-Con-Aeg`);
        /// empty when none were written ([`routed`] fills it from the orders).
        via: Vec<ProvinceId>,
        /// What came of it.
        result: Verdict,
    },
    /// A hold (or an order that only stands where the unit is).
    Hold {
        /// The unit's power.
        power: PowerId,
        /// Where it stands.
        at: ProvinceId,
        /// What came of it (failed: dislodged).
        result: Verdict,
    },
    /// A support, convoy or portage: a line from the helping unit to the helped move's
    /// middle, or to the unit it supports to hold.
    Help {
        /// `support`, `convoy` or `portage`.
        kind: &'static str,
        /// The helping unit's power.
        power: PowerId,
        /// Where the helping unit stands.
        by: ProvinceId,
        /// The helped unit's province.
        from: ProvinceId,
        /// The helped move's destination; `None` for a support to hold.
        to: Option<ProvinceId>,
        /// What came of it.
        result: Verdict,
    },
    /// A unit dislodged this phase, with the regions it may retreat to.
    Dislodged {
        /// The unit.
        unit: Unit,
        /// Where it was dislodged.
        at: ProvinceId,
        /// Its retreat options (none: it is destroyed).
        options: Vec<RegionId>,
    },
    /// A retreat (succeeded), or one that bounced (failed).
    Retreat {
        /// The unit's power.
        power: PowerId,
        /// Where it was dislodged.
        from: ProvinceId,
        /// Where it went or tried to go.
        to: ProvinceId,
        /// What came of it.
        result: Verdict,
    },
    /// A unit removed: disbanded, removed at an adjustment, or destroyed with no retreat.
    Removed {
        /// The unit.
        unit: Unit,
        /// Where it stood.
        at: ProvinceId,
    },
    /// A unit built.
    Built {
        /// The unit.
        unit: Unit,
    },
    /// A province that went under water at a scheduled change (Deluge's floods).
    Submerged {
        /// The province.
        at: ProvinceId,
    },
    /// A unit drowned by the floods (it stood where the water came).
    Drowned {
        /// The unit, where it stood.
        unit: Unit,
    },
    /// A supply centre made by a scheduled change.
    NewCentre {
        /// The centre.
        at: ProvinceId,
    },
    /// A province the next scheduled change puts under water.
    FloodsNext {
        /// The province.
        at: ProvinceId,
    },
    /// A unit that was given no order (it holds by default): drawn unlike an ordered hold,
    /// so that a player checking their orders sees the one they forgot (issue 27).
    Unordered {
        /// The unit's power.
        power: PowerId,
        /// Where it stands.
        at: ProvinceId,
        /// What came of it (failed: dislodged).
        result: Verdict,
    },
}

/// The provinces of the units that orders name (`A Par-Bur` names Par): the units given
/// an order, for [`unordered`].
pub fn given(orders: &[(PowerId, Order)]) -> Vec<ProvinceId> {
    orders
        .iter()
        .filter_map(|(_, o)| match o {
            Order::Unit { at, .. } => Some(at.province),
            _ => None,
        })
        .collect()
}

/// The marks with each move given the route its order names (`via`), taken from the
/// orders as written: the checked orders keep no route (a portage's is only marked
/// complete), and a picture draws the route in the order's own sequence.
pub fn routed(marks: Vec<Mark>, orders: &[(PowerId, Order)]) -> Vec<Mark> {
    use crate::game::order::Action;
    let written = |power: PowerId, from: ProvinceId| {
        orders.iter().find_map(|(p, o)| match o {
            Order::Unit {
                at,
                action: Action::Move { via, .. },
                ..
            } if *p == power && at.province == from && !via.is_empty() => Some(via.clone()),
            _ => None,
        })
    };
    marks
        .into_iter()
        .map(|m| match m {
            Mark::Move {
                power,
                from,
                to,
                via,
                result,
            } if via.is_empty() => Mark::Move {
                power,
                from,
                to,
                via: written(power, from).unwrap_or_default(),
                result,
            },
            m => m,
        })
        .collect()
}

/// The marks with each hold of a unit that was given no order (its province not in
/// `ordered`) marked as unordered instead.
pub fn unordered(marks: Vec<Mark>, ordered: &[ProvinceId]) -> Vec<Mark> {
    marks
        .into_iter()
        .map(|m| match m {
            Mark::Hold { power, at, result } if !ordered.contains(&at) => {
                Mark::Unordered { power, at, result }
            }
            m => m,
        })
        .collect()
}

/// Did this movement outcome do what the order asked?
pub fn succeeded(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Held
            | Outcome::Moved
            | Outcome::Portaged
            | Outcome::Supported
            | Outcome::Convoyed
            | Outcome::Embarked
            | Outcome::Landed
            | Outcome::Converted
    )
}

/// The marks of one ordered unit, before adjudication or with its result.
fn order_mark(map: &Map, o: &Ordered, result: Verdict) -> Option<Mark> {
    let power = o.unit.power;
    let help = |kind, from, to| Mark::Help {
        kind,
        power,
        by: o.at,
        from,
        to,
        result,
    };
    Some(match o.command {
        Command::Hold => Mark::Hold {
            power,
            at: o.at,
            result,
        },
        Command::Move { to, .. } | Command::Convert { to } | Command::Disembark { to } => {
            if map.province_of(to) == o.at {
                Mark::Hold {
                    power,
                    at: o.at,
                    result,
                }
            } else {
                Mark::Move {
                    power,
                    from: o.at,
                    to,
                    via: Vec::new(),
                    result,
                }
            }
        }
        Command::Embark { fleet } => Mark::Move {
            power,
            from: o.at,
            to: map.province(fleet).main,
            via: Vec::new(),
            result,
        },
        Command::SupportHold { target } => help("support", target, None),
        Command::SupportMove { from, to, .. } => help("support", from, Some(to)),
        Command::Convoy { from, to } => help("convoy", from, Some(to)),
        Command::Portage { from, to, .. } => help("portage", from, Some(to)),
    })
}

/// The marks of a phase just played on `before`, from the engine's report; `after` is the
/// board at the next phase (where dislodged units wait to retreat).
pub fn of_report(map: &Map, before: &Position, after: &Position, report: &Report) -> Vec<Mark> {
    let mut marks = Vec::new();
    match report {
        Report::Movement {
            orders,
            result,
            destroyed,
            ..
        } => {
            for (o, outcome) in orders.iter().zip(result.outcomes()) {
                let dislodged = result.position.dislodged[o.at.index()].is_some_and(|d| {
                    d.unit.power == o.unit.power && d.unit.region == o.unit.region
                });
                let done = if succeeded(&outcome) && !dislodged {
                    Verdict::Succeeded
                } else {
                    Verdict::Failed
                };
                marks.extend(order_mark(map, o, done));
            }
            for p in map.province_ids() {
                if let Some(d) = after.dislodged.get(p.index()).copied().flatten() {
                    marks.push(Mark::Dislodged {
                        unit: d.unit,
                        at: p,
                        options: retreat_options(map, after, p),
                    });
                }
            }
            for unit in destroyed {
                marks.push(Mark::Removed {
                    unit: *unit,
                    at: map.province_of(unit.region),
                });
            }
        }
        Report::Retreat(outcomes) => {
            for &(at, outcome) in outcomes {
                let Some(d) = before.dislodged.get(at.index()).copied().flatten() else {
                    continue;
                };
                let power = d.unit.power;
                let mark = match outcome {
                    RetreatOutcome::Retreated(to) => Mark::Retreat {
                        power,
                        from: at,
                        to: map.province_of(to),
                        result: Verdict::Succeeded,
                    },
                    RetreatOutcome::Bounced(to) => {
                        // A retreat that fails disbands the unit: its chip is crossed
                        // out where it waited, at the arrow's start.
                        marks.push(Mark::Removed { unit: d.unit, at });
                        Mark::Retreat {
                            power,
                            from: at,
                            to,
                            result: Verdict::Failed,
                        }
                    }
                    RetreatOutcome::Disbanded => Mark::Removed { unit: d.unit, at },
                };
                marks.push(mark);
            }
        }
        Report::Adjustment(done) => {
            for a in done {
                match *a {
                    Adjustment::Built(unit) => marks.push(Mark::Built { unit }),
                    Adjustment::Removed(unit) | Adjustment::RemovedInDisorder(unit) => {
                        marks.push(Mark::Removed {
                            unit,
                            at: map.province_of(unit.region),
                        })
                    }
                    Adjustment::Waived(_) => {}
                }
            }
        }
    }
    marks
}

/// The marks of one power's adjustment orders on file (`BUILD A Ven`, `REMOVE F Tri`),
/// as they would be carried out on `position`: a build or removal refused (no build left,
/// no unit there) draws nothing, nor do civil disorder's removals, which are no order of
/// hers (issue 40: "`SET MAP` pictures of adjustment orders draw no builds").
pub fn of_adjustment_orders(
    map: &Map,
    rules: &crate::game::rules::Rules,
    position: &Position,
    power: PowerId,
    orders: &[(PowerId, Order)],
) -> Vec<Mark> {
    let own: Vec<(PowerId, Order)> = orders
        .iter()
        .filter(|(p, _)| *p == power)
        .cloned()
        .collect();
    let (_, done, _) = crate::game::resolve::resolve_adjustments(map, rules, position, &own);
    done.into_iter()
        .filter_map(|a| match a {
            Adjustment::Built(unit) if unit.power == power => Some(Mark::Built { unit }),
            Adjustment::Removed(unit) if unit.power == power => Some(Mark::Removed {
                unit,
                at: map.province_of(unit.region),
            }),
            _ => None,
        })
        .collect()
}

/// The marks of orders on file, not yet adjudicated (a player's own orders).
pub fn of_orders(map: &Map, orders: &[Ordered]) -> Vec<Mark> {
    orders
        .iter()
        .filter_map(|o| order_mark(map, o, Verdict::Pending))
        .collect()
}
