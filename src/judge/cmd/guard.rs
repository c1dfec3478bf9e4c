//! Passwords at sign-on within the limits on guessing (see [`crate::judge::password`]).

use crate::judge::cmd::context::Session;
use crate::judge::deadline;
use crate::judge::password::{sender_key, Sender};

impl Session<'_> {
    /// A `SET ADDRESS` refused after wrong passwords for `seat` in the last hour: said in
    /// the reply, and the Master told (who may move a power's address with BECOME).
    pub(in crate::judge) fn address_held(&mut self, line: &str, seat: &str, addr: &str) {
        self.error(
            line,
            format!("wrong passwords were tried for {seat} in the last hour, so its address does not change now: send SET ADDRESS again after an hour without them, or ask the Master"),
        );
        let g = self.game();
        let lines = vec![
            format!("A SET ADDRESS for {seat} in '{}' to {addr} was refused: wrong passwords were tried for {seat} in the last hour, and the right one may be a guess.", g.name),
            format!("If the player asked for it, you can make the change: SIGNON M{} <password>, BECOME <letter>, SET ADDRESS {addr}.", g.name),
        ];
        let notice = self
            .judge
            .notice(g, &g.master.address, "Address Change Held", &lines);
        self.effects.mails.push(notice);
    }
    /// The sender of this mail as the limits on guessing count it: the reply address and,
    /// where known, the sending host.
    pub(in crate::judge) fn sender_key(&self) -> String {
        sender_key(&self.letter.reply_to, self.letter.host.as_deref())
    }
    /// Whether this mail comes from `holder`, a seat's registered address: no lock refuses
    /// it, and its checks for that seat draw on its own allowance only.
    pub(in crate::judge) fn sent_by(&self, holder: &str) -> bool {
        self.letter.reply_to.eq_ignore_ascii_case(holder)
    }
    /// Checks a password for a seat of the signed-on game within the limits on guessing
    /// (see [`crate::judge::password`]): refused unchecked while the seat or game is locked,
    /// unless the mail comes from the seat's registered address `holder`, or when the
    /// sender's argon2 allowance (or the strangers' hour) is spent; a wrong password is
    /// recorded and may lock the seat. `seat` names it in messages, `holder` is told of a
    /// lock.
    pub(in crate::judge) fn password_ok(
        &mut self,
        line: &str,
        seat: &str,
        holder: &str,
        stored: &str,
        password: &str,
    ) -> bool {
        // "Guessing limits apply per sender …, never to the seat's registered address with
        // the right password nor to the Master's" (issue 24).
        // A forger of the registered address sending through other hosts is not the
        // holder: the lock holds him (issue 36, point 5).
        // So is one the keeper's mail server did not pass (`[inbox] authserv_id`).
        let host = self.letter.host.clone();
        let own = self.sent_by(holder)
            && !self.letter.unauthenticated
            && self.game().signon_guard.own_host(seat, host.as_deref());
        if !own && self.signon_locked(line, seat) {
            return false;
        }
        match self.check_password(line, stored, password, own) {
            None => false,
            Some(true) => {
                self.authenticated = true;
                let known = self.game().signon_guard.last_own_host(seat) == host.as_deref();
                if self.sent_by(holder) && !self.letter.unauthenticated && !known {
                    self.game_mut()
                        .signon_guard
                        .signed_on_from(seat, host.as_deref());
                }
                if own {
                    self.lift_web_lock(seat);
                }
                true
            }
            Some(false) => {
                self.signon_failed(line, seat, holder);
                false
            }
        }
    }
    /// The seat's registered address signed on with the right password: the web's wrong
    /// passwords for `seat` no longer hold it (see [`crate::judge::password::Guard::lift_web`]).
    fn lift_web_lock(&mut self, seat: &str) {
        if self.game().signon_guard.web_guessed(seat) {
            let now = self.now;
            self.game_mut().signon_guard.lift_web(seat, now);
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
            deadline::show(lock.until, g.settings.zone)
        );
        self.error(line, why);
        true
    }
    /// A password checked against a stored hash, or None (and said) when this sender's
    /// password checks for this hour are spent (or, for a stranger, herald's). `holder`:
    /// the mail comes from the registered address of the seat whose password this is.
    pub(in crate::judge) fn check_password(
        &mut self,
        line: &str,
        stored: &str,
        password: &str,
        holder: bool,
    ) -> Option<bool> {
        let key = self.sender_key();
        let sender = Sender { key: &key, holder };
        match self
            .judge
            .passwords
            .check(stored, password, self.now, sender)
        {
            Ok(ok) => Some(ok),
            Err(busy) => {
                self.password_busy(line, busy);
                None
            }
        }
    }
    /// A new password's hash, or None (and said) when this sender's password work for this
    /// hour is spent.
    pub(in crate::judge) fn new_hash(&mut self, line: &str, password: &str) -> Option<String> {
        let key = self.sender_key();
        match self.judge.passwords.hash_at(password, self.now, &key) {
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
        // Before CREATE there is no game yet: its times are shown in UTC.
        let zone = self
            .game
            .as_deref()
            .and_then(|name| self.games.get(name))
            .map_or(chrono_tz::Tz::UTC, |g| g.settings.zone);
        let tz = zone;
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
        self.signon_failed_because(
            line,
            seat,
            holder,
            "Invalid password or power ID specified.",
        );
    }
    /// [`Self::signon_failed`], answered with `why` instead of njudge's words for a wrong
    /// password.
    pub(in crate::judge) fn signon_failed_because(
        &mut self,
        line: &str,
        seat: &str,
        holder: &str,
        why: &str,
    ) {
        use crate::judge::password::WINDOW_MINUTES;
        const SHOWN: usize = 5;
        let (judge, now) = (self.judge, self.now);
        let from = self.sender_key();
        let tripped = self.game_mut().signon_guard.fail(seat, &from, holder, now);
        self.error(line, why);
        let g = self.game();
        let tz = g.settings.zone;
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
                    format!("Sign-on {scope} is refused from other addresses, right password or not, until {until}; each seat's own registered address (the Master's too) signs on as before."),
                    "The addresses are those the mails gave, which a forger can choose. If the mails were not yours, someone is guessing: a long password (SET PASSWORD) holds out.".to_string(),
                ]
            };
            // A lock of one sender alone (its own on the join word: no holder) is said to
            // that sender only: nobody else is mailed over a forger's own lock.
            let mut to: Vec<String> = t
                .holders
                .iter()
                .filter(|h| !h.is_empty())
                .cloned()
                .collect();
            if to.is_empty() && t.lock.seat.is_some() {
                continue;
            }
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
