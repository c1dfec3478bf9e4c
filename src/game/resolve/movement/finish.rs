//! The resolved phase read back: each order's outcome, the units moved, the dislodged and
//! the contested provinces.

use super::*;

impl Resolver<'_> {
    pub(super) fn finish(mut self, pos: &Position) -> MovementResult {
        let n = self.orders.len();
        let mut results = Vec::with_capacity(n);
        let mut next = Position {
            phase: pos.phase,
            units: vec![None; pos.units.len()],
            dislodged: vec![None; pos.units.len()],
            contested: vec![false; pos.units.len()],
            owners: pos.owners.clone(),
            last_seen: pos.last_seen.clone(),
            afloat: Vec::new(),
        };
        for i in 0..n {
            let o = self.orders[i];
            let moved = self.dest[i] != NONE && self.resolve(i);
            let outcome = match o.command {
                Command::Hold => Outcome::Held,
                Command::Move { .. } if moved => Outcome::Moved,
                Command::Move { .. } if self.is_portaged(i) && !self.path_ok(i) => {
                    Outcome::NoPortage(self.broken_carrier(i))
                }
                Command::Move { .. } if self.convoyed[i] && !self.path_ok(i) => {
                    Outcome::NoConvoy(self.broken_carrier(i))
                }
                Command::Move { .. } => Outcome::Bounced(self.clash(i)),
                Command::SupportHold { .. } | Command::SupportMove { .. } if !self.matched[i] => {
                    Outcome::SupportVoid
                }
                Command::SupportHold { .. } | Command::SupportMove { .. } if self.resolve(i) => {
                    Outcome::Supported
                }
                Command::SupportHold { .. } | Command::SupportMove { .. } => {
                    Outcome::Cut(self.support_cutter(i).flatten().map(|m| self.orders[m].at))
                }
                Command::Convoy { .. } if self.matched[i] && self.resolve(i) => Outcome::Convoyed,
                Command::Convoy { .. } if self.matched[i] => Outcome::Disrupted,
                Command::Convoy { .. } => Outcome::Held,
                Command::Portage { .. } if self.matched[i] && self.resolve(i) => Outcome::Portaged,
                Command::Portage { .. } if self.matched[i] => Outcome::Disrupted,
                Command::Portage { .. } => Outcome::Held,
                Command::Convert { .. } | Command::Embark { .. } | Command::Disembark { .. } => {
                    Outcome::Held
                }
            };
            results.push(OrderResult {
                order: o,
                outcome,
                dislodged: None,
                decided_by: self.decided_by.get(i).copied().flatten(),
            });
            if let (true, Command::Move { to, .. }) = (moved, o.command) {
                next.place(
                    self.map,
                    crate::game::position::Unit {
                        region: to,
                        ..o.unit
                    },
                );
                continue;
            }
            if self.map.is_free_ocean(o.at) {
                next.afloat.push(o.unit);
                continue;
            }
            if self.is_landing(i) {
                // A landing that failed leaves the army aboard its fleet (see `afloat`).
                continue;
            }
            let attackers = self.attackers.get(o.at.index()).to_vec();
            let winner = attackers.into_iter().find(|&m| self.resolve(m as usize));
            match winner {
                Some(m) => {
                    let m = m as usize;
                    let from = if self.convoyed[m] {
                        None
                    } else {
                        Some(self.orders[m].at)
                    };
                    results[i].dislodged = Some(self.beaten(m));
                    next.dislodged[o.at.index()] = Some(Dislodged {
                        unit: o.unit,
                        attacker_from: from,
                    });
                }
                None => {
                    if next.units[o.at.index()].is_none() {
                        next.units[o.at.index()] = Some(o.unit);
                    }
                }
            }
        }
        for p in 0..pos.units.len() {
            if next.units[p].is_some() {
                continue;
            }
            let attackers = self.attackers.get(p).to_vec();
            next.contested[p] = attackers
                .into_iter()
                .any(|m| self.path_ok(m as usize) && !self.result[m as usize]);
        }
        MovementResult {
            orders: results,
            position: next,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::order::parse_order;
    use crate::game::resolve::{resolve_movement, Clash, Outcome};
    use crate::game::screen::screen_movement;
    use crate::game::variant::Variant;

    /// Issue 26: "one result per order in the resolver": each order's result carries the
    /// order, its outcome and what befell its unit, instead of four parallel vectors.
    #[test]
    fn each_order_has_one_result_with_what_befell_its_unit() {
        let v = Variant::standard();
        let map = &v.map;
        let mut pos = crate::game::position::Position::initial(map, v.calendar.start);
        let german = map.power_by_word("Germany").unwrap();
        let at = |name: &str| map.lookup(&crate::game::map::normalize(name)).unwrap();
        // A German army in Burgundy, attacked from Paris with support from Marseilles.
        let unit = crate::game::position::Unit {
            power: german,
            kind: crate::game::ids::UnitKind::Army,
            region: map.province(at("Bur")).main,
        };
        pos.place(map, unit);
        let orders: Vec<_> = [
            ("France", "A Par-Bur"),
            ("France", "A Mar S A Par-Bur"),
            ("Germany", "A Mun-Ruh"),
        ]
        .iter()
        .map(|(p, t)| (map.power_by_word(p).unwrap(), parse_order(map, t).unwrap()))
        .collect();
        let (ordered, rejected) = screen_movement(map, &v.rules, &pos, &orders);
        assert!(rejected.is_empty(), "{rejected:?}");
        let result = resolve_movement(map, &pos, &ordered);
        assert_eq!(result.orders.len(), ordered.len());
        for (r, o) in result.orders.iter().zip(&ordered) {
            assert_eq!(r.order, *o);
        }
        let of = |p: &str| result.orders.iter().find(|r| r.order.at == at(p)).unwrap();
        assert_eq!(of("Par").outcome, Outcome::Moved);
        assert_eq!(of("Mar").outcome, Outcome::Supported);
        assert_eq!(of("Bur").outcome, Outcome::Held);
        assert_eq!(
            of("Bur").dislodged,
            Some(Clash {
                by: Some(at("Par")),
                attack: 2,
                against: 1
            })
        );
        assert_eq!(of("Par").dislodged, None);
        assert!(result.orders.iter().all(|r| r.decided_by.is_none()));
        assert_eq!(result.outcomes().count(), ordered.len());
    }
}
