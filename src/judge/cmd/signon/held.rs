//! What a newcomer's address already holds in a game, for "one player, one power".

use crate::game::ids::PowerId;
use crate::judge::cmd::context::Session;
use crate::judge::game::SeatState;

impl Session<'_> {
    /// What `address` already holds in the signed-on game besides `power`: the powers it
    /// plays (by name), and "the Master's seat" if it is the Master's address.
    pub(super) fn held_elsewhere(&self, power: PowerId, address: &str) -> Vec<String> {
        let g = self.game();
        let map = self.judge.map_of(g);
        let mut held: Vec<String> = g
            .seats
            .iter()
            .filter(|s| {
                s.state != SeatState::Abandoned
                    && s.power != Some(power)
                    && s.member.address.eq_ignore_ascii_case(address)
            })
            .filter_map(|s| s.power.map(|p| map.power(p).name.clone()))
            .collect();
        if g.master.address.eq_ignore_ascii_case(address) {
            held.push("the Master's seat".to_string());
        }
        held
    }
}
