//! The limits on guessing a password on the web, per client and per seat, on the game's
//! own record of wrong passwords (the [`Guard`] the mail path keeps; a web guess is
//! recorded there under the client's key, `web [192.0.2.7]`).
//!
//! The web has no "own address" to spare, so instead it spares the clients that have not
//! guessed wrong:
//! - a client with [`PER_CLIENT`] wrong passwords for the game's seats within
//!   [`WINDOW_MINUTES`] is refused there, right password or not;
//! - a seat (or game) locked by wrong passwords refuses the clients that gave one of them
//!   (any wrong password in the game from that client within the window), and checks the
//!   others' as before;
//! - a seat with [`SEAT_CEILING`] wrong passwords within the window (a guesser with many
//!   addresses) refuses every client on the web until they age out, or until a mail from
//!   the seat's registered address signs on ([`Guard::lift_web`]).
//!
//! The argon2 allowance stays the mail path's: each client key has its own
//! [`crate::judge::password::PER_SENDER`] an hour, within the strangers' shared hour.

use chrono::{DateTime, Duration, Utc};

use crate::judge::password::{on_the_web, Guard, SEAT_FAILURES, WINDOW_MINUTES};

/// Wrong passwords one client may give for the seats of one game within [`WINDOW_MINUTES`]
/// before the web refuses it there: as many as lock one seat.
pub(super) const PER_CLIENT: usize = SEAT_FAILURES;

/// Wrong passwords for one seat on the web within [`WINDOW_MINUTES`], from every client,
/// past which the web refuses that seat to every client: ten clients' worth, so one client
/// (or a few) can never keep the seat's player off the web, and a guesser with a thousand
/// addresses still gets no more than this an hour at one seat.
pub(super) const SEAT_CEILING: usize = 10 * PER_CLIENT;

/// Why the web refuses a sign-in unchecked, and until when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refused {
    /// This client guessed wrong too often in this game.
    Client(DateTime<Utc>),
    /// The seat is locked and this client gave one of the wrong passwords, or the seat's
    /// wrong passwords on the web reached [`SEAT_CEILING`].
    Seat(DateTime<Utc>),
}

/// Whether the web refuses a sign-in to `seat` from the client `key` at `now`, unchecked.
pub(super) fn refused(guard: &Guard, seat: &str, key: &str, now: DateTime<Utc>) -> Option<Refused> {
    let window = Duration::minutes(WINDOW_MINUTES);
    let since = now - window;
    let recent = || guard.failures.iter().filter(move |f| f.at > since);
    // Each list is oldest first (failures are recorded in order): the n-th from the end
    // leaving the window is when the count drops below n.
    let until = |times: &[DateTime<Utc>], limit: usize| {
        times
            .len()
            .checked_sub(limit)
            .and_then(|i| times.get(i))
            .map(|at| *at + window)
    };
    let mine: Vec<DateTime<Utc>> = recent().filter(|f| f.from == key).map(|f| f.at).collect();
    if let Some(t) = until(&mine, PER_CLIENT) {
        return Some(Refused::Client(t));
    }
    if !mine.is_empty() {
        if let Some(lock) = guard.locked(seat, now) {
            return Some(Refused::Seat(lock.until));
        }
    }
    let seat_web: Vec<DateTime<Utc>> = recent()
        .filter(|f| f.seat == seat && on_the_web(f))
        .map(|f| f.at)
        .collect();
    until(&seat_web, SEAT_CEILING).map(Refused::Seat)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minute: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + minute * 60, 0).unwrap()
    }

    #[test]
    fn a_client_is_held_by_its_own_guesses_only() {
        let mut g = Guard::default();
        for i in 0..5 {
            g.fail("France", "web [192.0.2.1]", "f@x", at(i));
        }
        // The guesser is refused until its first guess leaves the window.
        assert_eq!(
            refused(&g, "France", "web [192.0.2.1]", at(10)),
            Some(Refused::Client(at(60)))
        );
        // Then, the seat's lock (to minute 64) still holds it, having guessed; after, nothing.
        assert_eq!(
            refused(&g, "France", "web [192.0.2.1]", at(61)),
            Some(Refused::Seat(at(64)))
        );
        assert_eq!(refused(&g, "France", "web [192.0.2.1]", at(65)), None);
        // France is locked, but not for a client that never guessed.
        assert!(g.locked("France", at(10)).is_some());
        assert_eq!(refused(&g, "France", "web [192.0.2.2]", at(10)), None);
        // A client with one wrong password in the game is held by the seat's lock.
        g.fail("England", "web [192.0.2.3]", "e@x", at(11));
        assert_eq!(
            refused(&g, "France", "web [192.0.2.3]", at(12)),
            Some(Refused::Seat(at(64)))
        );
    }

    #[test]
    fn the_ceiling_holds_every_client_until_the_own_mail_lifts_it() {
        let mut g = Guard::default();
        for i in 0..SEAT_CEILING {
            g.fail("France", &format!("web [192.0.2.{i}]"), "f@x", at(1));
        }
        assert_eq!(
            refused(&g, "France", "web [198.51.100.1]", at(2)),
            Some(Refused::Seat(at(61)))
        );
        assert_eq!(refused(&g, "England", "web [198.51.100.1]", at(2)), None);
        g.lift_web("France", at(3));
        assert_eq!(refused(&g, "France", "web [198.51.100.1]", at(3)), None);
        assert_eq!(refused(&g, "France", "web [192.0.2.1]", at(3)), None);
        // The seat's own lock went with them (the game's, for mail strangers, stays).
        assert!(!g.locks.iter().any(|l| l.seat.as_deref() == Some("France")));
    }
}
