//! The resolved phase read back: each order's outcome, the units moved, the dislodged and
//! the contested provinces.

use super::*;

impl Resolver<'_> {
    pub(super) fn finish(mut self, pos: &Position) -> MovementResult {
        let n = self.orders.len();
        let mut outcomes = Vec::with_capacity(n);
        let mut dislodged_by = vec![None; n];
        let mut dislodged_clash = vec![None; n];
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
            outcomes.push(outcome);
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
                    dislodged_by[i] = Some(self.orders[m].at);
                    dislodged_clash[i] = Some(self.beaten(m));
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
            outcomes,
            dislodged_by,
            dislodged_clash,
            decided_by: self.decided_by,
            position: next,
        }
    }
}
