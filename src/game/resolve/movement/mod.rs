//! Movement adjudication by Kruijswijk's method: every order's success is a decision
//! resolved by recursion; where decisions depend on each other in a cycle, both guesses are
//! tried, and if they disagree (or neither holds) the backup rule decides: circular movement
//! succeeds, and in a convoy paradox the convoys in the cycle fail (the Szykman rule, the
//! DATC v3.0 preference). Under the 1982 rules ([`Edition::Rules1982`]) a convoyed army does
//! not cut the support of a unit supporting an action in a body of water that holds a
//! convoying fleet (DATC 4.A.2), which leaves no convoy paradox for the backup rule.
//!
//! Head-to-head battles, the influence of dislodged units on the attacker's origin only in a
//! head-to-head (DATC 4.A.7 b), support cut by any attack except from the province the
//! support is aimed at (also by convoy, 4.A.4 a), and the 2000 rule for convoys to adjacent
//! provinces (4.A.3) are all here.

// Orders are identified by their index into every per-order table; loops over indexes say so.
#![allow(clippy::needless_range_loop)]

use super::csr::Csr;
use crate::game::ids::ProvinceId;
use crate::game::map::{Map, Terrain};
use crate::game::partners::Partners;
use crate::game::position::{Dislodged, Position};
use crate::game::rules::Edition;
use crate::game::screen::{Command, Ordered, Via};

mod build;
mod finish;

use build::touches;

const NONE: u16 = u16::MAX;
const UNRESOLVED: u8 = 0;
const GUESSING: u8 = 1;
const RESOLVED: u8 = 2;

/// Why an order did what it did, for the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A hold, or any order that stood.
    Held,
    /// The move succeeded.
    Moved,
    /// The move failed against a stronger or equal force: which, and the strengths.
    Bounced(Clash),
    /// A convoyed move found no convoy route: the convoying fleet whose dislodgement broke
    /// it, or `None` when no fleet's order carried it.
    NoConvoy(Option<ProvinceId>),
    /// A portaged move was not carried: an army on its route did not portage it (`None`),
    /// or this one was dislodged.
    NoPortage(Option<ProvinceId>),
    /// The portage order stood (its army was not dislodged).
    Portaged,
    /// The support was given.
    Supported,
    /// The support did not match what the supported unit did.
    SupportVoid,
    /// The support was cut: by the unit moving from this province (`None`: by a convoyed
    /// army whose route held until it was cut, or a move that cuts without being named).
    Cut(Option<ProvinceId>),
    /// The convoy order stood (its fleet was not dislodged).
    Convoyed,
    /// The convoy was disrupted: the fleet was dislodged, or the paradox rule stopped it.
    Disrupted,
    /// The army boarded its fleet: the two are an army-fleet now.
    Embarked,
    /// The army could not board (its fleet supported, convoyed, or was attacked from
    /// another sea): it stays ashore.
    NotEmbarked,
    /// The army went ashore from its army-fleet.
    Landed,
    /// The landing failed: the army stays aboard its fleet.
    StayedAboard,
    /// No army-fleet of this power is in (or sails into) that sea to land from.
    NoShip,
    /// A fast-ferried army that did not land stays aboard its own power's fleet.
    Aboard,
    /// The army became a fleet.
    Converted,
    /// The army was dislodged, so it did not convert.
    NotConverted,
}

/// What stopped a move, or dislodged a unit, and the strengths compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The unit that decided it: the defender or the strongest rival (for a bounce), the
    /// attacker (for a dislodgement); `None` when no unit did (an attack on one's own unit,
    /// or a move whose carrier failed).
    pub by: Option<ProvinceId>,
    /// The strength of the move (the bounced one, or the dislodging one).
    pub attack: u32,
    /// The strength it met.
    pub against: u32,
}

/// The backup rule that decided an order caught in a cycle of decisions, for the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backup {
    /// A convoy paradox: the convoys (and portages) in the cycle fail (the Szykman rule).
    Szykman,
    /// Circular movement: the moves in the cycle all succeed.
    Circular,
    /// Portage rule 4: a portaged fleet that dislodges a unit whose support it did not cut
    /// is carried.
    PortageRule4,
}

/// What one order did, and what befell its unit: the resolver's answer for that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderResult {
    /// The order as adjudicated (its unit and command).
    pub order: Ordered,
    /// What the order did.
    pub outcome: Outcome,
    /// The attack that dislodged the unit, if one did (`by` is the attacker's province).
    pub dislodged: Option<Clash>,
    /// The backup rule that decided the order, if it was caught in a cycle of decisions.
    pub decided_by: Option<Backup>,
}

/// The result of a movement phase: one [`OrderResult`] per order, and the board after it.
#[derive(Clone, Debug)]
pub struct MovementResult {
    /// One result per ordered unit, in the order given.
    pub orders: Vec<OrderResult>,
    /// The board after the phase: units moved, dislodged units set apart, standoffs marked.
    pub position: Position,
}

impl MovementResult {
    /// The outcome of each order, in the order given.
    pub fn outcomes(&self) -> impl Iterator<Item = Outcome> + '_ {
        self.orders.iter().map(|r| r.outcome)
    }

    /// The outcome of order `i`.
    pub fn outcome(&self, i: usize) -> Outcome {
        self.orders[i].outcome
    }
}

struct Resolver<'a> {
    map: &'a Map,
    /// Which powers one player holds together: M.2's ocean convoys are the player's.
    partners: &'a Partners,
    orders: &'a [Ordered],
    at: Vec<u16>,
    dest: Vec<u16>,
    /// Carried over water by convoy or over land by portage: never in a head-to-head.
    convoyed: Vec<bool>,
    /// Carried over land by portage.
    portaged: Vec<bool>,
    /// A portage whose route lacks a matching army somewhere: it cannot move.
    route_broken: Vec<bool>,
    /// The 1982 rules: for each province, whether a fleet there convoys (its order matches a
    /// convoyed move); empty under the 2000 rules or when nothing is convoyed.
    convoy_water: Vec<bool>,
    /// For each portaged move, the portage orders along its route.
    porters: Csr,
    /// For each province, the landing made from the army-fleet there (empty when none).
    landing_from: Vec<u16>,
    /// For each landing, the order of the army-fleet that carries its army: the one in its
    /// sea, or the one sailing into it (empty when nobody lands).
    carrier: Vec<u16>,
    /// For each province, the standing supports bought with dip points (empty when none).
    dips: Vec<u32>,
    h2h: Vec<u16>,
    matched: Vec<bool>,
    attackers: Csr,
    supports: Csr,
    fleets: Csr,
    state: Vec<u8>,
    result: Vec<bool>,
    deps: Vec<u16>,
    /// The backup rule that decided each order (empty until one is needed).
    decided_by: Vec<Option<Backup>>,
}

/// Adjudicates a movement phase: `orders` holds one checked order per unit on the board.
pub fn resolve_movement(map: &Map, pos: &Position, orders: &[Ordered]) -> MovementResult {
    resolve_movement_with_dips(map, pos, orders, &[])
}

/// [`resolve_movement`] with standing supports bought with dip points: each entry adds 1 to
/// the defence of the unit in that province if it is not ordered to move; none can be cut.
pub fn resolve_movement_with_dips(
    map: &Map,
    pos: &Position,
    orders: &[Ordered],
    dip_supports: &[ProvinceId],
) -> MovementResult {
    resolve_movement_in(
        map,
        Edition::Rules2000,
        pos,
        orders,
        dip_supports,
        &Partners::default(),
    )
}

/// [`resolve_movement_with_dips`] under a rule edition: the 2000 rules (Szykman for convoy
/// paradoxes) or the 1982 rules (their paradox rule, DATC 4.A.2), with the powers that one
/// player holds together (`partners`: M.2's ocean convoys are the player's).
pub fn resolve_movement_in(
    map: &Map,
    edition: Edition,
    pos: &Position,
    orders: &[Ordered],
    dip_supports: &[ProvinceId],
    partners: &Partners,
) -> MovementResult {
    let mut r = Resolver::new(map, orders, edition, partners);
    if !dip_supports.is_empty() {
        r.dips = vec![0; map.province_count()];
        for p in dip_supports {
            r.dips[p.index()] += 1;
        }
    }
    let n = orders.len();
    for i in 0..n {
        r.resolve(i);
    }
    r.finish(pos)
}

impl<'a> Resolver<'a> {
    fn resolve(&mut self, n: usize) -> bool {
        match self.state[n] {
            RESOLVED => return self.result[n],
            GUESSING => {
                if !self.deps.contains(&(n as u16)) {
                    self.deps.push(n as u16);
                }
                return self.result[n];
            }
            _ => {}
        }
        let old = self.deps.len();
        self.result[n] = false;
        self.state[n] = GUESSING;
        let first = self.adjudicate(n);
        if self.deps.len() == old {
            if self.state[n] != RESOLVED {
                self.result[n] = first;
                self.state[n] = RESOLVED;
            }
            return self.result[n];
        }
        if self.deps[old] != n as u16 {
            self.deps.push(n as u16);
            self.result[n] = first;
            return first;
        }
        self.reset_deps(old);
        self.result[n] = true;
        self.state[n] = GUESSING;
        let second = self.adjudicate(n);
        if first == second {
            self.reset_deps(old);
            self.result[n] = first;
            self.state[n] = RESOLVED;
            return first;
        }
        self.backup_rule(old);
        self.resolve(n)
    }

    fn reset_deps(&mut self, old: usize) {
        for &d in &self.deps[old..] {
            self.state[d as usize] = UNRESOLVED;
        }
        self.deps.truncate(old);
    }

    /// Szykman: a cycle with convoys in it is a paradox and those convoys fail; otherwise it is
    /// circular movement and its moves succeed.
    fn backup_rule(&mut self, old: usize) {
        let cycle: Vec<usize> = self.deps[old..].iter().map(|&d| d as usize).collect();
        let paradox = cycle.iter().any(|&d| {
            matches!(
                self.orders[d].command,
                Command::Convoy { .. } | Command::Portage { .. }
            )
        });
        // Portage rule 4 decides its own cycles: a portaged fleet that dislodges a unit whose
        // support it did not cut is carried (the seed's Italy/Turkey example with F Rom).
        let rule4 = cycle.iter().any(|&s| {
            let aimed_at = match self.orders[s].command {
                Command::SupportMove { to, .. } => Some(to),
                _ => return false,
            };
            cycle
                .iter()
                .any(|&m| self.dest[m] == self.orders[s].at.0 && self.portage_spares(m, aimed_at))
        });
        for &d in &cycle {
            let command = self.orders[d].command;
            let decided = match (paradox, command) {
                (true, Command::Portage { .. }) if rule4 => Some((true, Backup::PortageRule4)),
                (true, Command::Convoy { .. } | Command::Portage { .. }) => {
                    Some((false, Backup::Szykman))
                }
                (false, Command::Move { .. }) => Some((true, Backup::Circular)),
                _ => None,
            };
            match decided {
                Some((result, rule)) => {
                    self.state[d] = RESOLVED;
                    self.result[d] = result;
                    if self.decided_by.is_empty() {
                        self.decided_by = vec![None; self.orders.len()];
                    }
                    self.decided_by[d] = Some(rule);
                }
                None => self.state[d] = UNRESOLVED,
            }
        }
        self.deps.truncate(old);
    }

    fn adjudicate(&mut self, n: usize) -> bool {
        match self.orders[n].command {
            Command::Hold => true,
            Command::Move { .. } => self.move_succeeds(n),
            Command::SupportHold { .. } | Command::SupportMove { .. } => self.support_given(n),
            Command::Convoy { .. } | Command::Portage { .. } => self.not_dislodged(n),
            // Deluge's orders are turned into these before resolution (see `afloat`).
            Command::Convert { .. } | Command::Embark { .. } | Command::Disembark { .. } => true,
        }
    }

    /// The landing made from the army-fleet order `c` stands in, if any.
    #[inline]
    fn landing_of(&self, c: usize) -> Option<usize> {
        let l = *self.landing_from.get(self.orders[c].at.index())?;
        (l != NONE && self.at[self.orders[c].at.index()] == c as u16).then_some(l as usize)
    }

    /// Whether order `m` is an army landing from an army-fleet.
    #[inline]
    fn is_landing(&self, m: usize) -> bool {
        !self.landing_from.is_empty() && self.landing_from[self.orders[m].at.index()] == m as u16
    }

    fn path_ok(&mut self, m: usize) -> bool {
        if !self.convoyed[m] {
            return true;
        }
        if self.is_landing(m) {
            // The army lands unless its fleet, staying in the sea, is dislodged (rule 4). A
            // fleet that sails on after landing it leaves the army ashore; one ordered on
            // whose move fails on its own (it bounces, or loses a head-to-head) stays, and
            // if it is dislodged there the landing fails and the two retreat together.
            let here = self.orders[m].at.index();
            let carrier = self.carrier[m];
            if self.lands_after_voyage(m) {
                // At a voyage's end the army lands if its army-fleet gets there.
                return carrier != NONE && self.resolve(carrier as usize);
            }
            if carrier == NONE {
                return true;
            }
            let carrier = carrier as usize;
            if self.dest[carrier] != NONE && self.sails(carrier) {
                return true;
            }
            let count = self.attackers.get(here).len();
            for k in 0..count {
                let a = self.attackers.get(here)[k] as usize;
                if self.resolve(a) {
                    return false;
                }
            }
            return true;
        }
        if self.is_portaged(m) {
            if self.route_broken[m] {
                return false;
            }
            let range = self.porters.range(m);
            for k in range {
                let porter = self.porters.item(k) as usize;
                if !self.resolve(porter) {
                    return false;
                }
            }
            return true;
        }
        if !self.map.own_fleets_over_oceans() {
            return self.convoy_reaches(m, 0);
        }
        // M.2: a route over seas alone is anyone's; one through an ocean is all of the
        // army's player's fleets. Each search leaves out the fleets it may not use.
        let range = self.fleets.range(m);
        let count = range.len().min(64);
        let (mut oceans, mut foreign) = (0u64, 0u64);
        for k in 0..count {
            let f = &self.orders[self.fleets.item(range.start + k) as usize];
            if self.map.province(f.at).terrain == Terrain::Ocean {
                oceans |= 1 << k;
            }
            if !self.partners.same(f.unit.power, self.orders[m].unit.power) {
                foreign |= 1 << k;
            }
        }
        self.convoy_reaches(m, oceans) || self.convoy_reaches(m, foreign)
    }

    /// Whether the convoy orders for move `m`, leaving out those in `skip` (a bit per
    /// candidate fleet), carry it: a chain of fleets that stand, from water touching its
    /// origin to water touching its destination.
    fn convoy_reaches(&mut self, m: usize, skip: u64) -> bool {
        let origin = self.orders[m].at;
        let target = ProvinceId(self.dest[m]);
        let range = self.fleets.range(m);
        // Convoy chains are short: at most 64 candidate fleets are searched (bit masks).
        let count = range.len().min(64);
        let fleet_at = |r: &Self, k: usize| r.orders[r.fleets.item(range.start + k) as usize].at;
        let mut reached: u64 = skip;
        let mut frontier: u64 = 0;
        for k in 0..count {
            if reached & (1 << k) == 0
                && touches(self.map, origin, fleet_at(self, k))
                && self.resolve(self.fleets.item(range.start + k) as usize)
            {
                reached |= 1 << k;
                frontier |= 1 << k;
            }
        }
        while frontier != 0 {
            let k = frontier.trailing_zeros() as usize;
            frontier &= !(1 << k);
            let here = fleet_at(self, k);
            if touches(self.map, here, target) {
                return true;
            }
            for j in 0..count {
                if reached & (1 << j) == 0
                    && touches(self.map, here, fleet_at(self, j))
                    && self.resolve(self.fleets.item(range.start + j) as usize)
                {
                    reached |= 1 << j;
                    frontier |= 1 << j;
                }
            }
        }
        false
    }

    fn support_count(&mut self, m: usize, exclude_power: Option<u8>) -> u32 {
        let mut count = 0;
        let list = self.supports.get(m);
        for k in 0..list.len() {
            let s = self.supports.get(m)[k] as usize;
            if exclude_power == Some(self.orders[s].unit.power.0) {
                continue;
            }
            if self.resolve(s) {
                count += 1;
            }
        }
        count
    }

    fn hold_strength(&mut self, p: usize) -> u32 {
        let u = self.at[p];
        if u == NONE {
            return 0;
        }
        let u = u as usize;
        if self.dest[u] != NONE {
            return if self.resolve(u) { 0 } else { 1 };
        }
        let dips = self.dips.get(p).copied().unwrap_or(0);
        1 + dips + self.support_count(u, None)
    }

    fn attack_strength(&mut self, m: usize) -> u32 {
        if !self.path_ok(m) {
            return 0;
        }
        let d = self.at[self.dest[m] as usize];
        let stays = if d == NONE {
            false
        } else {
            let d = d as usize;
            self.dest[d] == NONE || self.h2h[m] == d as u16 || !self.resolve(d)
        };
        if !stays {
            return 1 + self.support_count(m, None);
        }
        let defender = self.orders[d as usize].unit.power.0;
        if defender == self.orders[m].unit.power.0 {
            return 0;
        }
        1 + self.support_count(m, Some(defender))
    }

    fn prevent_strength(&mut self, m: usize) -> u32 {
        if !self.path_ok(m) {
            return 0;
        }
        let o = self.h2h[m];
        if o != NONE && self.resolve(o as usize) {
            return 0;
        }
        1 + self.support_count(m, None)
    }

    fn move_succeeds(&mut self, m: usize) -> bool {
        if self.map.is_free_ocean(ProvinceId(self.dest[m])) {
            return true;
        }
        // A fleet sails on after landing its army only if the landing succeeds (rule 3).
        if let Some(l) = self.landing_of(m) {
            if !self.resolve(l) {
                return false;
            }
        }
        self.prevails(m)
    }

    /// Whether move `m` would succeed on its own strength, whatever becomes of a landing
    /// from its sea: what a landing asks of its fleet ordered on (the landing's success
    /// and the fleet's move otherwise wait on each other).
    fn sails(&mut self, m: usize) -> bool {
        self.map.is_free_ocean(ProvinceId(self.dest[m])) || self.prevails(m)
    }

    /// The strength test of a move: its attack beats the defence and every rival.
    fn prevails(&mut self, m: usize) -> bool {
        let attack = self.attack_strength(m);
        if attack == 0 {
            return false;
        }
        let dest = self.dest[m] as usize;
        let o = self.h2h[m];
        let defence = if o != NONE {
            1 + self.support_count(o as usize, None)
        } else {
            self.hold_strength(dest)
        };
        if attack <= defence {
            return false;
        }
        let count = self.attackers.get(dest).len();
        for k in 0..count {
            let other = self.attackers.get(dest)[k] as usize;
            if other != m && attack <= self.prevent_strength(other) {
                return false;
            }
        }
        true
    }

    /// Why move `m` (resolved, failed, its route sound) did not go: the strength test of
    /// [`Resolver::prevails`] read back.
    fn clash(&mut self, m: usize) -> Clash {
        let attack = self.attack_strength(m);
        let dest = self.dest[m] as usize;
        let holder = self.at[dest];
        let o = self.h2h[m];
        let defence = if o != NONE {
            1 + self.support_count(o as usize, None)
        } else {
            self.hold_strength(dest)
        };
        let holder_at = (holder != NONE).then(|| self.orders[holder as usize].at);
        if attack == 0 || attack <= defence {
            return Clash {
                by: holder_at,
                attack,
                against: defence,
            };
        }
        let count = self.attackers.get(dest).len();
        for k in 0..count {
            let other = self.attackers.get(dest)[k] as usize;
            if other != m {
                let prevent = self.prevent_strength(other);
                if attack <= prevent {
                    return Clash {
                        by: Some(self.orders[other].at),
                        attack,
                        against: prevent,
                    };
                }
            }
        }
        // It would have won on strength: what held it was its carrier or its landing.
        Clash {
            by: None,
            attack,
            against: defence,
        }
    }

    /// The defence a successful move `m` beat, for a dislodgement's account.
    fn beaten(&mut self, m: usize) -> Clash {
        let dest = self.dest[m] as usize;
        let o = self.h2h[m];
        let against = if o != NONE {
            1 + self.support_count(o as usize, None)
        } else {
            self.hold_strength(dest)
        };
        Clash {
            by: Some(self.orders[m].at),
            attack: self.attack_strength(m),
            against,
        }
    }

    /// The convoying fleet (or portaging army) dislodged on move `m`'s route, if one was.
    fn broken_carrier(&mut self, m: usize) -> Option<ProvinceId> {
        let (from, to) = (self.orders[m].at, ProvinceId(self.dest[m]));
        for c in 0..self.orders.len() {
            let carries = match self.orders[c].command {
                Command::Convoy { from: f, to: t } | Command::Portage { from: f, to: t, .. } => {
                    f == from && t == to
                }
                _ => false,
            };
            if carries && self.matched[c] && !self.not_dislodged(c) {
                return Some(self.orders[c].at);
            }
        }
        None
    }

    fn support_given(&mut self, s: usize) -> bool {
        self.support_cutter(s).is_none()
    }

    /// What stops support `s`: `None` when it is given, else `Some` of the move that cut it
    /// (`Some(None)`: the support matched nothing).
    fn support_cutter(&mut self, s: usize) -> Option<Option<usize>> {
        if !self.matched[s] {
            return Some(None);
        }
        let here = self.orders[s].at;
        let (aimed_at, action_in) = match self.orders[s].command {
            Command::SupportMove { to, .. } => (Some(to), to),
            Command::SupportHold { target } => (None, target),
            _ => (None, here),
        };
        // The 1982 rule: "If a convoyed army attacks a fleet which is supporting an action in
        // a body of water; and that body of water contains a convoying fleet, that support is
        // not cut" (it stands even if the army dislodges its giver, DATC 6.F.17).
        let convoys_spare = self
            .convoy_water
            .get(action_in.index())
            .copied()
            .unwrap_or(false);
        let power = self.orders[s].unit.power;
        let count = self.attackers.get(here.index()).len();
        for k in 0..count {
            let m = self.attackers.get(here.index())[k] as usize;
            if convoys_spare && self.convoyed_by_sea(m) {
                continue;
            }
            if self.orders[m].at == action_in && self.lands_after_voyage(m) {
                // The army lands once its army-fleet has sailed: it cannot cut a support
                // for the fight over the sea it sails into.
                continue;
            }
            let from = self.orders[m].at;
            if Some(from) == aimed_at || self.portage_spares(m, aimed_at) {
                if self.resolve(m) {
                    return Some(Some(m));
                }
                continue;
            }
            if self.orders[m].unit.power == power {
                continue;
            }
            if self.path_ok(m) {
                return Some(Some(m));
            }
        }
        None
    }

    /// Whether move `m` is carried over land (the tables are empty when nothing is).
    #[inline]
    fn is_portaged(&self, m: usize) -> bool {
        !self.portaged.is_empty() && self.portaged[m]
    }

    /// Portage rule 4: a portaged fleet does not cut the support of a unit supporting an
    /// attack on a province the fleet is carried through (it may still dislodge it).
    /// A province is on a portaged fleet's route when its army portages that fleet there (as
    /// screening matched them).
    fn portage_spares(&self, m: usize, aimed_at: Option<ProvinceId>) -> bool {
        let Some(target) = aimed_at else {
            return false;
        };
        let j = self.at[target.index()];
        self.is_portaged(m)
            && j != NONE
            && matches!(
                self.orders[j as usize].command,
                Command::Portage { from, to, on_route: true }
                    if from == self.orders[m].at && to.0 == self.dest[m]
            )
    }

    /// Whether move `m` is an army landing at the end of its army-fleet's voyage.
    #[inline]
    fn lands_after_voyage(&self, m: usize) -> bool {
        matches!(
            self.orders[m].command,
            Command::Move {
                via: Via::Voyage,
                ..
            }
        )
    }

    /// Whether move `m` is an army carried by fleets' convoy orders (not a portage, nor a
    /// landing from an army-fleet).
    #[inline]
    fn convoyed_by_sea(&self, m: usize) -> bool {
        self.convoyed[m] && !self.is_portaged(m) && !self.is_landing(m)
    }

    fn not_dislodged(&mut self, c: usize) -> bool {
        if !self.matched[c] {
            return true;
        }
        let here = self.orders[c].at.index();
        let count = self.attackers.get(here).len();
        for k in 0..count {
            let m = self.attackers.get(here)[k] as usize;
            if self.resolve(m) {
                return false;
            }
        }
        true
    }
}
