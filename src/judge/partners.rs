//! Which powers one player holds together (a `several_powers` game), as the rules engine
//! takes it: M.2's "the player must have a naval unit in the adjacent sea zone and ocean"
//! counts every fleet of the player, whichever of her powers it belongs to.

use super::game::{Game, SeatState};
use super::Judge;
use crate::game::ids::PowerId;
use crate::game::partners::Partners;

/// The address that plays a power now: its seat's, unless the seat is abandoned (an
/// abandoned seat keeps its last address, but nobody plays it until it is taken over).
pub fn holder(game: &Game, power: PowerId) -> Option<&str> {
    game.seat_of(power)
        .filter(|s| s.state != SeatState::Abandoned)
        .map(|s| s.member.address.as_str())
}

/// Who plays with whom in a game: the powers one address holds now (in any case) are one
/// player's. A power nobody holds is on its own.
pub fn of(judge: &Judge, game: &Game) -> Partners {
    let powers = judge.variant(game).map.powers.len();
    let holders: Vec<Option<String>> = (0..powers)
        .map(|i| {
            let power = PowerId(u8::try_from(i).unwrap_or(u8::MAX));
            holder(game, power).map(str::to_ascii_lowercase)
        })
        .collect();
    Partners::from_holders(&holders)
}

#[cfg(test)]
mod tests {
    use crate::game::ids::UnitKind;
    use crate::game::position::Unit;
    use crate::judge::testkit::{judge, mail, reply, start, started_as, GM};

    const ANN: &str = "ann@example.org";

    /// World1880 game `w` where Ann holds Great Britain (B) and Spain (S).
    fn britain_and_spain() -> Vec<(String, char)> {
        let mut out: Vec<(String, char)> = "BS".chars().map(|l| (ANN.to_string(), l)).collect();
        for letter in "FRGAITUCJZXKPH".chars() {
            out.push((
                format!("p{}@example.org", letter.to_ascii_lowercase()),
                letter,
            ));
        }
        out
    }

    // M.2: "To convoy an army unit to another continent the player must have a naval unit in
    // the adjacent sea zone and ocean, and the sea zone adjacent to the land zone where the
    // army is to disembark." A player holding Great Britain and Spain convoys a Spanish army
    // on British and Spanish fleets; herald refused it because the fleets were not the
    // army's power (issue 25, 3).
    #[test]
    fn a_player_convoys_over_an_ocean_with_the_fleets_of_all_her_powers() {
        let j = judge();
        let mut games = started_as(&j, "w gmpass world1880", &britain_and_spain());
        mail(&j, &mut games, GM, "SIGNON Mw gmpass\nPROCESS!", start());
        let g = games.get_mut("w").unwrap();
        let map = j.map_of(g);
        let (b, s) = (
            map.power_by_word("GreatBritain").unwrap(),
            map.power_by_word("Spain").unwrap(),
        );
        let pos = g.position.as_mut().unwrap();
        let board = [
            ("Mon", s, UnitKind::Army),
            ("Gsl", b, UnitKind::Fleet),
            ("Nao", s, UnitKind::Fleet),
            ("Sto", b, UnitKind::Fleet),
        ];
        for (at, _, _) in board {
            let p = map.lookup(&at.to_lowercase()).unwrap();
            pos.units[p.index()] = None;
        }
        for (at, power, kind) in board {
            let p = map.lookup(&at.to_lowercase()).unwrap();
            let region = map.province(p).main;
            pos.place(
                map,
                Unit {
                    power,
                    kind,
                    region,
                },
            );
        }
        for (who, orders) in [
            ("Sw pwS", "A Mon - Wal\nF Nao C A Mon - Wal"),
            (
                "Bw pwB",
                "F Gsl C Spanish A Mon - Wal\nF Sto C Spanish A Mon - Wal",
            ),
        ] {
            let h = mail(
                &j,
                &mut games,
                ANN,
                &format!("SIGNON {who}\n{orders}"),
                start(),
            );
            let text = &reply(&h, ANN).body;
            assert!(!text.contains("***"), "{text}");
        }
        let h = mail(&j, &mut games, GM, "SIGNON Mw gmpass\nPROCESS!", start());
        let results = h
            .effects
            .mails
            .iter()
            .find(|m| m.to == ANN && m.subject.contains("S1880M Results"))
            .unwrap();
        assert!(
            results.body.contains("Spain: Army Montreal -> Walvis Bay."),
            "{}",
            results.body
        );
    }
}
