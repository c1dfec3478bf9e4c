//! One phase played: orders checked, adjudicated, and the board moved on to the next phase
//! that needs orders (empty retreat and adjustment phases are skipped; centres change hands
//! when a season that takes them ends).

use super::calendar::PhaseKind;
use super::flood::{self, MapEvent};
use super::ids::PowerId;
use super::ids::ProvinceId;
use super::map::Map;
use super::order::Order;
use super::position::{Position, Unit};
use super::resolve::{self, Adjustment, MovementResult, RetreatOutcome};
use super::rules::Rules;
use super::screen::{screen_dip_supports, screen_movement, Command, Ordered, Refusal, Rejection};
use super::variant::Variant;

/// What a phase produced, for the results mail.
#[derive(Clone, Debug)]
pub enum Report {
    /// A movement phase: each unit's order and outcome, and the dislodged units that had
    /// nowhere to retreat and were disbanded at once.
    Movement {
        /// The orders as adjudicated, one per unit.
        orders: Vec<Ordered>,
        /// The adjudication.
        result: Box<MovementResult>,
        /// Dislodged units with no retreat, removed.
        destroyed: Vec<Unit>,
        /// Standing supports bought with dip points: who bought it, the supported unit's
        /// province, and whether it was given (void when that unit was ordered to move).
        dip_supports: Vec<(PowerId, ProvinceId, bool)>,
    },
    /// A retreat phase: each dislodged unit's fate.
    Retreat(Vec<(super::ids::ProvinceId, RetreatOutcome)>),
    /// An adjustment phase: builds, removals and waives.
    Adjustment(Vec<Adjustment>),
}

/// The outcome of playing one phase.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The board at the next phase that needs orders.
    pub position: Position,
    /// What happened.
    pub report: Report,
    /// Orders refused before adjudication (each by its index in the orders played).
    pub rejections: Vec<Rejection<Illegal>>,
    /// Powers that reached the victory count when centres changed hands.
    pub winners: Vec<PowerId>,
    /// What scheduled map changes did to the board on the way (Deluge's floods).
    pub events: Vec<MapEvent>,
    /// When the last year ended with the survivors sharing the game (Deluge): the powers
    /// still on the board (a sole survivor wins). Empty otherwise.
    pub survivors: Vec<PowerId>,
}

/// Why an order was refused when its phase was played: the kind of its phase's check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// A movement order or standing support ([`super::screen`]).
    #[error(transparent)]
    Movement(#[from] Refusal),
    /// A retreat order ([`resolve::screen_retreats`]).
    #[error(transparent)]
    Retreat(#[from] resolve::RetreatError),
    /// A build, removal or waive ([`resolve::resolve_adjustments`]).
    #[error(transparent)]
    Adjustment(#[from] resolve::AdjustError),
}

/// What moving the board on to the next phase that needs orders brought.
#[derive(Clone, Debug, Default)]
pub struct Advance {
    /// Powers that reached the victory count.
    pub winners: Vec<PowerId>,
    /// What scheduled map changes did.
    pub events: Vec<MapEvent>,
    /// The survivors, when the last year ended and they share the game.
    pub survivors: Vec<PowerId>,
}

/// Plays the phase `pos` is at with these orders (missing orders get the defaults: hold,
/// disband, waive or civil-disorder removal).
pub fn play(variant: &Variant, map: &Map, pos: &Position, orders: &[(PowerId, Order)]) -> Turn {
    play_with(variant, &variant.rules, map, pos, orders)
}

/// [`play`] with rules other than the variant's own (a game's switches).
pub fn play_with(
    variant: &Variant,
    rules: &Rules,
    map: &Map,
    pos: &Position,
    orders: &[(PowerId, Order)],
) -> Turn {
    let (mut next, report, rejections) = match pos.phase.kind {
        PhaseKind::Movement => {
            let (ordered, mut rejections) = screen_movement(map, rules, pos, orders);
            let (bought, refused) = screen_dip_supports(map, rules, pos, orders);
            rejections.extend(refused);
            let rejections = rejections
                .into_iter()
                .map(|r| r.map_kind(Illegal::from))
                .collect();
            let dips: Vec<ProvinceId> = bought.iter().map(|&(_, p)| p).collect();
            let (ordered, result) = if resolve::afloat::needed(rules, &ordered) {
                let plan = resolve::afloat::prepare(map, rules, pos, ordered);
                let result = resolve::resolve_movement_in(
                    map,
                    rules.edition,
                    pos,
                    &plan.resolver,
                    &dips,
                    &rules.partners,
                );
                let given = plan.given.clone();
                (given, resolve::afloat::settle(map, plan, result))
            } else {
                let result = resolve::resolve_movement_in(
                    map,
                    rules.edition,
                    pos,
                    &ordered,
                    &dips,
                    &rules.partners,
                );
                (ordered, result)
            };
            let dip_supports = bought
                .iter()
                .map(|&(by, p)| {
                    let still = ordered
                        .iter()
                        .any(|o| o.at == p && !matches!(o.command, Command::Move { .. }));
                    (by, p, still)
                })
                .collect();
            let mut next = result.position.clone();
            let mut destroyed = Vec::new();
            for p in map.province_ids() {
                if let Some(d) = next.dislodged[p.index()] {
                    if resolve::retreat_options(map, &next, p).is_empty() {
                        destroyed.push(d.unit);
                        next.dislodged[p.index()] = None;
                    }
                }
            }
            // Only a map that changes needs the record (Deluge's new centres).
            if !variant.schedule.is_empty() {
                next.note_occupants(pos);
                next.note_own_occupants();
            }
            (
                next,
                Report::Movement {
                    orders: ordered,
                    result: Box::new(result),
                    destroyed,
                    dip_supports,
                },
                rejections,
            )
        }
        PhaseKind::Retreat => {
            let (retreats, rejections) = resolve::screen_retreats(map, pos, orders);
            let rejections = rejections
                .into_iter()
                .map(|r| r.map_kind(Illegal::from))
                .collect();
            let (mut next, outcomes) = resolve::resolve_retreats(map, pos, &retreats);
            if !variant.schedule.is_empty() {
                next.note_own_occupants();
            }
            (next, Report::Retreat(outcomes), rejections)
        }
        PhaseKind::Adjustment => {
            let (mut next, mut done, rejections) =
                resolve::resolve_adjustments(map, rules, pos, orders);
            if rules.unit_choice && pos.phase == variant.calendar.start {
                // Unit choice: a home centre still without a unit gets the map's.
                let defaults = default_units(map, &next);
                let (filled, more, _) = resolve::resolve_adjustments(map, rules, &next, &defaults);
                for a in more {
                    if let resolve::Adjustment::Built(u) = a {
                        if let Some(k) = done
                            .iter()
                            .position(|d| *d == resolve::Adjustment::Waived(u.power))
                        {
                            done.remove(k);
                        }
                        done.push(a);
                    }
                }
                next = filled;
            }
            let rejections = rejections
                .into_iter()
                .map(|r| r.map_kind(Illegal::from))
                .collect();
            (next, Report::Adjustment(done), rejections)
        }
    };
    let moved_on = advance_with(variant, rules, map, &mut next);
    Turn {
        position: next,
        report,
        rejections,
        winners: moved_on.winners,
        events: moved_on.events,
        survivors: moved_on.survivors,
    }
}

/// The builds of the map's starting units in the home centres that are still vacant and
/// owned by their power (unit choice: what a power did not choose).
fn default_units(map: &Map, pos: &Position) -> Vec<(PowerId, Order)> {
    map.start
        .iter()
        .filter(|s| {
            let p = map.province_of(s.region);
            pos.unit_at(p).is_none() && pos.owners[p.index()] == Some(s.power)
        })
        .map(|s| {
            let p = map.province_of(s.region);
            let at = crate::game::order::Loc {
                province: p,
                coast: map.region(s.region).coast,
            };
            (
                s.power,
                Order::Build {
                    kind: Some(s.kind),
                    at,
                },
            )
        })
        .collect()
}

/// Moves the board's phase on to the next one that needs orders, laying scheduled map
/// changes onto the board as their seasons end; returns what that brought.
pub fn advance(variant: &Variant, pos: &mut Position) -> Advance {
    advance_with(variant, &variant.rules, &variant.map, pos)
}

/// [`advance`] with rules other than the variant's own. `map` is the map of the phase just
/// played; later phases use the variant's map as it stands then.
pub fn advance_with(variant: &Variant, rules: &Rules, map: &Map, pos: &mut Position) -> Advance {
    let cal = &variant.calendar;
    let mut out = Advance::default();
    let mut map = map;
    loop {
        if cal.ends_season(pos.phase) && cal.season(pos.phase).takes_centres {
            pos.take_centres(map);
            out.winners = map
                .power_ids()
                .filter(|&p| pos.centre_count(p) >= rules.victory_centres)
                .collect();
        }
        if cal.ends_season(pos.phase) {
            if let Some(after) = variant.change_after(pos.phase.year, pos.phase.season) {
                out.events.extend(flood::reshape(map, after, pos));
                map = after;
            }
        }
        let next = cal.next(pos.phase);
        let last_ends = rules
            .last_year
            .is_some_and(|y| next.year > y && pos.phase.year <= y);
        pos.phase = next;
        if last_ends && rules.survivors_share && out.winners.is_empty() {
            out.survivors = map
                .power_ids()
                .filter(|&p| pos.unit_count(p) > 0 || pos.centre_count(p) > 0)
                .collect();
        }
        if !out.winners.is_empty() || last_ends {
            return out;
        }
        let needed = match pos.phase.kind {
            PhaseKind::Movement => true,
            PhaseKind::Retreat => pos.has_dislodged(),
            PhaseKind::Adjustment => map
                .power_ids()
                .any(|p| resolve::adjust::adjustment_count(pos, p) != 0),
        };
        if needed {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ids::UnitKind;

    #[test]
    fn eighteen_centres_after_fall_win() {
        let v = Variant::standard();
        let map = &v.map;
        let italy = map.power_by_word("italy").unwrap();
        let mut pos = Position::empty(map, v.calendar.parse("F1905R").unwrap());
        let bel = map.lookup("bel").unwrap();
        for p in map.centres().filter(|&p| p != bel).take(17) {
            pos.owners[p.index()] = Some(italy);
        }
        pos.place(
            map,
            Unit {
                power: italy,
                kind: UnitKind::Army,
                region: map.province(bel).main,
            },
        );
        let turn = play(&v, map, &pos, &[]);
        assert_eq!(pos.centre_count(italy), 17);
        assert_eq!(turn.position.centre_count(italy), 18);
        assert_eq!(turn.winners, vec![italy]);

        let mut short = pos.clone();
        short.units[bel.index()] = None;
        assert!(play(&v, map, &short, &[]).winners.is_empty());
    }
}
