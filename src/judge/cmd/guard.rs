//! Passwords at sign-on within the limits on guessing (see [`crate::judge::password`]).

use crate::judge::deadline;
use crate::judge::session::Session;

impl Session<'_> {
    /// Checks a password for a seat of the signed-on game within the limits on guessing
    /// (see [`crate::judge::password`]): refused unchecked while the seat or game is locked or
    /// herald's hour of password checks is spent; a wrong password is recorded and may lock
    /// the seat. `seat` names it in messages, `holder` is told of a lock.
    pub(in crate::judge) fn password_ok(
        &mut self,
        line: &str,
        seat: &str,
        holder: &str,
        stored: &str,
        password: &str,
    ) -> bool {
        if self.signon_locked(line, seat) {
            return false;
        }
        match self.check_password(line, stored, password) {
            None => false,
            Some(true) => {
                self.authenticated = true;
                true
            }
            Some(false) => {
                self.signon_failed(line, seat, holder);
                false
            }
        }
    }
    /// Whether sign-on to `seat` of the signed-on game is locked now (said if so).
    pub(in crate::judge) fn signon_locked(&mut self, line: &str, seat: &str) -> bool {
        let g = self.game();
        let Some(lock) = g.signon_guard.locked(seat, self.now) else {
            return false;
        };
        let whom = match &lock.seat {
            Some(s) => format!(" for {s}"),
            None => String::new(),
        };
        let why = format!(
            "too many wrong passwords{whom} in game '{}': try again after {}",
            g.name,
            deadline::show(lock.until, deadline::zone(&g.settings.zone))
        );
        self.error(line, why);
        true
    }
    /// A password checked against a stored hash, or None (and said) when herald's password
    /// checks for this hour are spent.
    pub(in crate::judge) fn check_password(
        &mut self,
        line: &str,
        stored: &str,
        password: &str,
    ) -> Option<bool> {
        match self.judge.passwords.check(stored, password, self.now) {
            Ok(ok) => Some(ok),
            Err(busy) => {
                self.password_busy(line, busy);
                None
            }
        }
    }
    /// A new password's hash, or None (and said) when herald's password work for this hour
    /// is spent.
    pub(in crate::judge) fn new_hash(&mut self, line: &str, password: &str) -> Option<String> {
        match self.judge.passwords.hash_at(password, self.now) {
            Ok(hash) => Some(hash),
            Err(busy) => {
                self.password_busy(line, busy);
                None
            }
        }
    }
    pub(in crate::judge) fn password_busy(
        &mut self,
        line: &str,
        busy: crate::judge::password::Busy,
    ) {
        let tz = deadline::zone(&self.game().settings.zone);
        self.error(
            line,
            format!(
                "herald is busy checking passwords; try again after {}",
                deadline::show(busy.until, tz)
            ),
        );
    }
    /// A wrong password for `seat`: recorded with the game, and when it trips a lock, the
    /// seat's holder and the Master are told (once per lock).
    pub(in crate::judge) fn signon_failed(&mut self, line: &str, seat: &str, holder: &str) {
        use crate::judge::password::WINDOW_MINUTES;
        const SHOWN: usize = 5;
        let (judge, now) = (self.judge, self.now);
        let from = self.letter.reply_to.clone();
        let tripped = self.game_mut().signon_guard.fail(seat, &from, holder, now);
        self.error(line, "Invalid password or power ID specified.");
        let g = self.game();
        let tz = deadline::zone(&g.settings.zone);
        let mut said = Vec::new();
        let mut notices = Vec::new();
        for t in tripped {
            let until = deadline::show(t.lock.until, tz);
            let (whom, scope) = match &t.lock.seat {
                Some(s) => (format!("for {s}"), format!("as {s}")),
                None => (
                    "for its seats".to_string(),
                    "to any of its seats".to_string(),
                ),
            };
            said.push(format!(
                "  Too many wrong passwords {whom} in game '{}': sign-on {scope} is locked until {until}.",
                g.name
            ));
            // Each reader sees the addresses it may (in an anonymous game, the Master alone).
            let lines = |reader: &str| {
                let shown: Vec<String> = t.from[..t.from.len().min(SHOWN)]
                    .iter()
                    .map(|a| g.address_for(reader, a))
                    .collect();
                let mut addresses = shown.join(", ");
                if t.from.len() > SHOWN {
                    addresses.push_str(&format!(" and {} more", t.from.len() - SHOWN));
                }
                vec![
                    format!(
                        "{} wrong passwords {whom} in game '{}' within {WINDOW_MINUTES} minutes, from {addresses}.",
                        t.failures, g.name
                    ),
                    format!("Sign-on {scope} is refused, right password or not, until {until}."),
                    "The addresses are those the mails gave, which a forger can choose. If the mails were not yours, someone is guessing: a long password (SET PASSWORD) holds out.".to_string(),
                ]
            };
            let mut to = t.holders.clone();
            to.push(g.master.address.clone());
            let mut seen = std::collections::HashSet::new();
            to.retain(|a| seen.insert(a.to_ascii_lowercase()));
            for addr in to {
                notices.push(judge.notice(g, &addr, "Signon Locked", &lines(&addr)));
            }
        }
        self.lines.extend(said);
        self.effects.mails.extend(notices);
    }
}
