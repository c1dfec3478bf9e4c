//! A seat's move to a new address, held until the new address confirms (issue 36, point 4:
//! "the seat stays on its confirmed address until the new one confirms").
//!
//! `SET ADDRESS b@y` from a seat whose address `a@x` confirmed, to an address that has not,
//! leaves the seat on `a@x` (its mail goes on arriving there) and keeps `b@y` as the seat's
//! pending address ([`crate::judge::game::PendingAddress`]). When `b@y` confirms, by a plain
//! reply to herald's request, the seat moves to it and both addresses are told ("Address
//! Changed"). A second `SET ADDRESS` replaces the pending address; a pending address not
//! confirmed within [`PENDING_DAYS`] lapses. A seat whose own address never confirmed has no
//! confirmed address to stay on: it moves at once, as does a move to an address that
//! confirmed already, or one the Master makes for a power (BECOME).

use chrono::{DateTime, Duration, Utc};

use crate::envelope::Outgoing;
use crate::judge::game::{Game, Member, PendingAddress};
use crate::judge::Judge;

/// Days a pending address waits to confirm before it lapses: a week, long enough for a
/// player away for some days to read the request, short enough that an old request a
/// stranger finds later moves nothing.
pub const PENDING_DAYS: i64 = 7;

/// The key under which the store counts the requests to confirm a new address one seat of
/// `game` asked for (`seat`: its index in the game's seats; None for the Master): one a day
/// (issue 36, point 4).
pub fn request_key(game: &str, seat: Option<usize>) -> String {
    match seat {
        Some(i) => format!("address request in {game} by seat {i}"),
        None => format!("address request in {game} by the Master"),
    }
}

/// Whether a pending address still waits at `now` (it has not lapsed).
pub fn waits(pending: &PendingAddress, now: DateTime<Utc>) -> bool {
    now < pending.since + Duration::days(PENDING_DAYS)
}

/// `address` confirmed: each seat of `game` (the Master's included) whose pending address
/// it is, and has not lapsed, moves there, and its old and new addresses are told. Lapsed
/// pending addresses are dropped. Returns whether the game changed, and the notices.
pub fn confirmed(
    judge: &Judge,
    game: &mut Game,
    address: &str,
    now: DateTime<Utc>,
) -> (bool, Vec<Outgoing>) {
    let mut changed = false;
    let mut moved: Vec<(String, String)> = Vec::new();
    let names: Vec<String> = game
        .seats
        .iter()
        .map(|s| match s.power {
            Some(p) => judge.map_of(game).power(p).name.clone(),
            None => "your place".to_string(),
        })
        .collect();
    let members = std::iter::once((&mut game.master, "the Master".to_string())).chain(
        game.seats
            .iter_mut()
            .zip(names)
            .map(|(s, name)| (&mut s.member, name)),
    );
    for (member, name) in members {
        if let Some(old) = settle(member, address, now) {
            moved.push((name, old));
            changed = true;
        }
    }
    // Lapsed pending addresses of any seat are dropped as well.
    for member in
        std::iter::once(&mut game.master).chain(game.seats.iter_mut().map(|s| &mut s.member))
    {
        if member.pending.as_ref().is_some_and(|p| !waits(p, now)) {
            member.pending = None;
            changed = true;
        }
    }
    let mut notices = Vec::new();
    for (name, old) in moved {
        let lines = vec![
            format!(
                "The mail of {name} in game '{}' now goes to {address}: it was asked for with SET ADDRESS, and {address} confirmed by replying to herald's request. It went to {old} before.",
                game.name
            ),
            "If you did not ask for this, someone knows the password: ask the Master to move the mail back, and choose a new password (SET PASSWORD).".to_string(),
        ];
        for to in [old.as_str(), address] {
            notices.push(judge.notice(game, to, "Address Changed", &lines));
        }
    }
    (changed, notices)
}

/// Moves `member` to `address` if that is its pending address and it still waits; returns
/// the address it leaves.
fn settle(member: &mut Member, address: &str, now: DateTime<Utc>) -> Option<String> {
    let pending = member.pending.as_ref()?;
    if pending.address != address || !waits(pending, now) {
        return None;
    }
    member.pending = None;
    Some(std::mem::replace(&mut member.address, address.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testkit::{judge, start, started};

    #[test]
    fn a_confirmed_pending_address_moves_the_seat_and_a_lapsed_one_does_not() {
        let j = judge();
        let mut games = started(&j);
        let g = games.get_mut("g").unwrap();
        let asked = start();
        g.seats[1].member.pending = Some(PendingAddress {
            address: "bob@new.example".into(),
            since: asked,
        });
        let late = asked + Duration::days(PENDING_DAYS);
        let (changed, notices) = confirmed(&j, &mut g.clone(), "bob@new.example", late);
        assert!(
            changed && notices.is_empty(),
            "lapsed: dropped, nothing moved"
        );
        let (changed, notices) = confirmed(&j, g, "bob@new.example", late - Duration::minutes(1));
        assert!(changed);
        assert_eq!(g.seats[1].member.address, "bob@new.example");
        assert_eq!(g.seats[1].member.pending, None);
        let to: Vec<&str> = notices.iter().map(|m| m.to.as_str()).collect();
        assert_eq!(to, ["bob@example.org", "bob@new.example"]);
        assert!(
            notices[0].subject.contains("Address Changed"),
            "{notices:?}"
        );
        assert!(
            notices[0].body.contains("The mail of France"),
            "{}",
            notices[0].body
        );
    }
}
