//! Which powers one player holds together, where one player may hold several (the world
//! variant: "Where agreed, players can control some combination of countries"). The engine
//! knows powers, not players: the judge tells it who plays with whom, as data. M.2's "the
//! player must have a naval unit in the adjacent sea zone and ocean, and the sea zone
//! adjacent to the land zone where the army is to disembark" counts all of a player's
//! fleets, whichever of her powers each belongs to.

use super::ids::PowerId;

/// The powers grouped by player. The default has every power on its own, as in a game of
/// one power per player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Partners {
    /// For each power (by index), the first power its player holds; a power past the end
    /// is on its own.
    first: Vec<PowerId>,
}

impl Partners {
    /// The groups from who holds each power: `holders[i]` names the player of power `i`
    /// (`None`: nobody holds it); equal names are one player.
    pub fn from_holders<K: PartialEq>(holders: &[Option<K>]) -> Partners {
        let first = holders
            .iter()
            .enumerate()
            .map(|(i, holder)| {
                let same = |other: &Option<K>| holder.is_some() && other == holder;
                let j = holders.iter().position(same).unwrap_or(i);
                PowerId(u8::try_from(j).unwrap_or(u8::MAX))
            })
            .collect();
        Partners { first }
    }

    /// Whether one player holds both powers (a power is its own partner).
    pub fn same(&self, a: PowerId, b: PowerId) -> bool {
        a == b || self.first_of(a) == self.first_of(b)
    }

    fn first_of(&self, p: PowerId) -> PowerId {
        self.first.get(p.index()).copied().unwrap_or(p)
    }
}

#[cfg(test)]
mod tests {
    use super::{Partners, PowerId};

    #[test]
    fn powers_of_one_holder_are_partners_and_nobody_is_nobodys() {
        let p = Partners::from_holders(&[Some("ann"), Some("bob"), None, Some("ann"), None]);
        let id = PowerId;
        assert!(p.same(id(0), id(3)) && p.same(id(3), id(0)));
        assert!(!p.same(id(0), id(1)));
        assert!(!p.same(id(2), id(4)), "two unheld powers are no one player");
        assert!(p.same(id(2), id(2)));
        assert!(!p.same(id(1), id(9)) && p.same(id(9), id(9)));
        let alone = Partners::default();
        assert!(!alone.same(id(0), id(3)) && alone.same(id(5), id(5)));
    }
}
