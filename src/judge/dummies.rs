//! Powers nobody plays from the start: the Master's FORCE BEGIN starts a game with fewer
//! players than powers, and the powers nobody took are dummies. A dummy has no seat; it is
//! in civil disorder from the first phase (its units hold, its retreats disband, its builds
//! are waived and its removals chosen by rule), it never makes the game wait and it agrees
//! to any draw, and a newcomer may take it over as an abandoned power. (Before START no
//! power has a seat, and none is a dummy.)

use super::game::{Game, Member, Seat, SeatState};
use crate::game::ids::PowerId;
use crate::game::map::Map;

impl Game {
    /// Whether a power is in civil disorder: its seat is, or it is a dummy.
    pub fn in_disorder(&self, power: PowerId) -> bool {
        match self.seat_of(power) {
            Some(seat) => seat.state == SeatState::Disorder,
            None => self.position.is_some(),
        }
    }

    /// The powers of a started game that nobody plays (dummies), in the map's order.
    pub fn dummies(&self, map: &Map) -> Vec<PowerId> {
        if self.position.is_none() {
            return Vec::new();
        }
        map.power_ids()
            .filter(|&p| self.seat_of(p).is_none())
            .collect()
    }

    /// A power's seat as SIGNON sees it: its own, or for a dummy an empty abandoned seat
    /// (open for takeover); none before the game has started.
    pub fn seat_or_dummy(&self, power: PowerId) -> Option<Seat> {
        if let Some(seat) = self.seat_of(power) {
            return Some(seat.clone());
        }
        self.position.is_some().then(|| Seat {
            power: Some(power),
            member: Member {
                address: String::new(),
                password: String::new(),
                pending: None,
            },
            preference: String::new(),
            state: SeatState::Abandoned,
            wait: false,
            vote: Default::default(),
            absences: Vec::new(),
            map: false,
            zone: None,
        })
    }

    /// The seat a newcomer takes over: the power's own, or for a dummy a new one.
    pub fn seat_to_take(&mut self, power: PowerId) -> Option<&mut Seat> {
        if self.seat_of(power).is_none() {
            let seat = self.seat_or_dummy(power)?;
            self.seats.push(seat);
        }
        self.seat_of_mut(power)
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::testkit;

    #[test]
    fn a_power_with_no_seat_in_a_started_game_is_a_dummy_in_disorder() {
        let j = testkit::judge();
        let mut g = testkit::running_game();
        let italy = crate::game::ids::PowerId(3);
        g.seats.retain(|s| s.power != Some(italy));
        let map = j.map_of(&g);
        assert_eq!(g.dummies(map), [italy]);
        assert!(g.in_disorder(italy) && !g.in_disorder(crate::game::ids::PowerId(0)));
        let seat = g.seat_to_take(italy).unwrap();
        assert_eq!(seat.state, crate::judge::game::SeatState::Abandoned);
        assert!(g.dummies(j.map_of(&g)).is_empty());
    }
}
