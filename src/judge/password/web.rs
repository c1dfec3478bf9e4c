//! The web's wrong passwords in a game's [`Guard`], and how a mail from the seat's own
//! address lifts them: the web has no "own address", so a player who shows by mail that she
//! holds the seat ends the web guessers' hold on it.

use chrono::{DateTime, Duration, Utc};

use super::{Failure, Guard, SEAT_FAILURES, WINDOW_MINUTES};

/// How the key of a web client's guesses begins (`web [192.0.2.7]`, [`super::sender_key`]
/// of the address `web`): no mail's sender key does, a mail's holds an `@`.
pub const WEB_KEY: &str = "web [";

/// Whether a wrong password was given on the web.
pub fn on_the_web(f: &Failure) -> bool {
    f.from.starts_with(WEB_KEY)
}

impl Guard {
    /// Whether `seat` has wrong passwords from the web on record.
    pub fn web_guessed(&self, seat: &str) -> bool {
        self.failures
            .iter()
            .any(|f| f.seat == seat && on_the_web(f))
    }

    /// A mail from `seat`'s registered address signed on with the right password at `now`:
    /// the web's wrong passwords for the seat are forgotten, and the seat's lock with them
    /// when the mail's own wrong passwords left would not have tripped it.
    pub fn lift_web(&mut self, seat: &str, now: DateTime<Utc>) {
        self.failures.retain(|f| !(f.seat == seat && on_the_web(f)));
        let since = now - Duration::minutes(WINDOW_MINUTES);
        let left = self
            .failures
            .iter()
            .filter(|f| f.seat == seat && f.at > since)
            .count();
        if left < SEAT_FAILURES {
            self.locks.retain(|l| l.seat.as_deref() != Some(seat));
        }
    }
}
