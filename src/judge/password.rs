//! Passwords, stored as argon2 hashes, and the limits on guessing them.
//!
//! A verification that succeeded is remembered in memory (as a digest of hash and password),
//! so a player who mails often costs one argon2 run per daemon start, not one per mail.
//!
//! Guessing is limited per sender, so that a forger's guesses hold up nobody but the forger
//! (issue 24: "Guessing limits apply per sender …, never to the seat's registered address
//! with the right password nor to the Master's"). A sender is the mail's reply address and,
//! where the mail shows it, the host it came from ([`sender_key`]).
//!
//! - Each game keeps its recent wrong passwords in a [`Guard`], stored with the game:
//!   [`SEAT_FAILURES`] for one seat, or [`GAME_FAILURES`] for the whole game, within
//!   [`WINDOW_MINUTES`] lock that seat (or the game) for [`LOCKOUT_MINUTES`] against every
//!   address but the seat's own registered one (the Master's, for the Master). While locked,
//!   sign-ons from other addresses are refused without looking at the password, so guessing
//!   from new addresses cannot go on; the registered address is still checked.
//! - Each sender may make [`PER_SENDER`] argon2 computations an hour (checks not answered
//!   from memory, and new hashes): what bounds guessing from a seat's own address, which no
//!   lock stops.
//! - Strangers' password checks (every check but a seat's registered address checking that
//!   seat's password) share [`CHECKS_PER_HOUR`] an hour judge-wide, so guessing across many
//!   games and addresses cannot use up the machine; a registered address checking its own
//!   seat, and every new hash (one a mail at most: CREATE, a join, SET PASSWORD), draw on
//!   the sender's own allowance alone, so strangers cannot spend them.
//!
//! The hourly counts are kept in memory only: a restart starts them from zero.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use chrono::{DateTime, Duration, Utc};
use rand_core::OsRng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Wrong passwords for one seat (a power, the Master, a joined player or an observer) within
/// [`WINDOW_MINUTES`] that lock it. Five is more than anyone mistyping needs, and few enough
/// that a guess list gets nowhere.
pub const SEAT_FAILURES: usize = 5;

/// Wrong passwords for any seats of one game within [`WINDOW_MINUTES`] that lock the whole
/// game, so that trying each seat in turn gains little: at most 20 guesses a game an hour.
pub const GAME_FAILURES: usize = 20;

/// How far back wrong passwords count, in minutes.
pub const WINDOW_MINUTES: i64 = 60;

/// How long a lock lasts once it trips, in minutes. A lock is as long as the window, so when
/// it ends the failures that tripped it no longer count.
pub const LOCKOUT_MINUTES: i64 = 60;

/// argon2 password checks (not answered from memory) made for strangers in one hour, over
/// all games: every check but a seat's registered address checking that seat's password.
/// At the few milliseconds each takes on a small server that is seconds of work an hour,
/// and what bounds guessing from many addresses at once.
pub const CHECKS_PER_HOUR: u32 = 1000;

/// argon2 computations one sender may have made in one hour, whatever for: enough for a
/// Master who creates and starts several games in an hour, or a player in ten games signing
/// on after a restart; few enough that guessing from one address (even a seat's own, which
/// no lock stops) gets nowhere.
pub const PER_SENDER: u32 = 20;

/// Senders counted in one hour at most; past it, new strangers wait for the next hour (the
/// shared [`CHECKS_PER_HOUR`] runs out first, so this only bounds the memory).
const SENDERS_PER_HOUR: usize = 100_000;

/// The key a sender is counted and locked under: the address (lower case), and the sending
/// host in brackets where the mail shows one (`ann@example.org [192.0.2.7]`).
pub fn sender_key(address: &str, host: Option<&str>) -> String {
    let address = address.to_ascii_lowercase();
    match host {
        Some(h) if !h.is_empty() => format!("{address} [{h}]"),
        _ => address,
    }
}

/// Whom an argon2 computation is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sender<'a> {
    /// The sender's key ([`sender_key`]).
    pub key: &'a str,
    /// Whether this run draws on the sender's own allowance only, never on the strangers'
    /// hour: a seat's registered address checking that seat's password, and every new
    /// hash ([`Passwords::hash_at`]).
    pub holder: bool,
}

/// The judge's argon2 work for this hour is spent, for this sender or for strangers: no more
/// until `until`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy {
    /// The start of the next hour.
    pub until: DateTime<Utc>,
}

/// The hour being counted and the argon2 runs in it.
#[derive(Debug, Default)]
struct Spent {
    /// Seconds since the epoch / 3600.
    hour: i64,
    /// Runs for strangers.
    shared: u32,
    /// Runs for holders of a seat (not in `shared`).
    holders: u32,
    /// Runs by sender key.
    by_sender: HashMap<String, u32>,
}

/// Hashes and checks passwords, within [`PER_SENDER`] and [`CHECKS_PER_HOUR`].
#[derive(Debug)]
pub struct Passwords {
    /// Digests of (hash, password) pairs that verified, so a repeat costs no argon2 run.
    verified: Mutex<HashSet<[u8; 32]>>,
    /// This hour's runs.
    spent: Mutex<Spent>,
    /// argon2 runs allowed an hour for strangers.
    per_hour: u32,
    /// argon2 runs taken since herald started, every kind and sender (see [`Passwords::runs`]).
    runs: AtomicU64,
}

impl Default for Passwords {
    fn default() -> Self {
        Passwords::with_budget(CHECKS_PER_HOUR)
    }
}

/// Argon2id with 4 MiB and 2 passes: a few milliseconds here, still costly to guess. Checked
/// when herald is compiled.
const ARGON_PARAMS: Params = match Params::new(4096, 2, 1, None) {
    Ok(params) => params,
    Err(_) => panic!("argon2 parameters out of range"),
};

fn argon() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, ARGON_PARAMS)
}

fn digest(stored: &str, password: &str) -> [u8; 32] {
    Sha256::digest(format!("{stored}\u{0}{password}").as_bytes()).into()
}

impl Passwords {
    /// Hashing and checking with `per_hour` argon2 runs an hour for strangers instead of
    /// [`CHECKS_PER_HOUR`].
    pub fn with_budget(per_hour: u32) -> Passwords {
        Passwords {
            verified: Mutex::default(),
            spent: Mutex::default(),
            per_hour,
            runs: AtomicU64::new(0),
        }
    }

    fn spent(&self) -> std::sync::MutexGuard<'_, Spent> {
        // A panic while the counts were held leaves them whole (each change is one step).
        self.spent.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes one argon2 run for `sender` from the hour of `now`, or says when the next hour
    /// starts: refused when the sender's own [`PER_SENDER`] is spent, or (for a stranger)
    /// the strangers' hour.
    pub fn take(&self, now: DateTime<Utc>, sender: Sender<'_>) -> Result<(), Busy> {
        let hour = now.timestamp().div_euclid(3600);
        let mut spent = self.spent();
        if hour > spent.hour {
            *spent = Spent {
                hour,
                ..Spent::default()
            };
        }
        let busy = || {
            let next = (hour.max(spent.hour) + 1) * 3600;
            Busy {
                until: DateTime::from_timestamp(next, 0).unwrap_or(now + Duration::hours(1)),
            }
        };
        let mine = spent.by_sender.get(sender.key).copied().unwrap_or(0);
        let crowded = mine == 0 && spent.by_sender.len() >= SENDERS_PER_HOUR;
        if mine >= PER_SENDER || crowded || (!sender.holder && spent.shared >= self.per_hour) {
            return Err(busy());
        }
        *spent.by_sender.entry(sender.key.to_string()).or_insert(0) += 1;
        self.runs.fetch_add(1, Ordering::Relaxed);
        if sender.holder {
            spent.holders = spent.holders.saturating_add(1);
        } else {
            spent.shared += 1;
        }
        Ok(())
    }

    /// The argon2 runs taken since herald started (every one a mail caused goes through
    /// [`Passwords::take`]): what handling a mail cost is counted from it.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// The argon2 runs counted in the hour of `now` so far, for everyone.
    pub fn used(&self, now: DateTime<Utc>) -> u32 {
        let spent = self.spent();
        if spent.hour == now.timestamp().div_euclid(3600) {
            spent.shared.saturating_add(spent.holders)
        } else {
            0
        }
    }

    /// The argon2 runs counted for one sender key in the hour of `now` so far.
    pub fn used_by(&self, now: DateTime<Utc>, key: &str) -> u32 {
        let spent = self.spent();
        if spent.hour == now.timestamp().div_euclid(3600) {
            spent.by_sender.get(key).copied().unwrap_or(0)
        } else {
            0
        }
    }

    // Hashing fails only on a salt it did not make, parameters out of range (checked when
    // compiled) or a password over 4 GiB, which no mail herald accepts can hold.
    #[allow(clippy::expect_used)]
    fn argon_hash(password: &str) -> String {
        let salt = SaltString::generate(&mut OsRng);
        argon()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .expect("argon2 hashing with valid parameters")
    }

    fn argon_verify(stored: &str, password: &str) -> bool {
        PasswordHash::new(stored)
            .is_ok_and(|h| argon().verify_password(password.as_bytes(), &h).is_ok())
    }

    fn remember(&self, key: [u8; 32]) {
        if let Ok(mut set) = self.verified.lock() {
            set.insert(key);
        }
    }

    fn known(&self, key: &[u8; 32]) -> bool {
        self.verified
            .lock()
            .map(|set| set.contains(key))
            .unwrap_or(false)
    }

    /// The stored form of a password, uncounted: for the keeper's tools and tests, never
    /// for what a mail asks.
    pub fn hash(&self, password: &str) -> String {
        Self::argon_hash(password)
    }

    /// The stored form of a new password, if the sender `key` has an argon2 run left in the
    /// hour of `now`. A new password is one run per mail and guesses nothing, so it draws
    /// on the sender's own allowance alone: strangers who spent their shared hour cannot
    /// keep a newcomer from joining.
    pub fn hash_at(&self, password: &str, now: DateTime<Utc>, key: &str) -> Result<String, Busy> {
        self.take(now, Sender { key, holder: true })?;
        Ok(Self::argon_hash(password))
    }

    /// Whether `password` matches the stored hash, uncounted: for the keeper's tools and
    /// tests, never for what a mail asks.
    pub fn verify(&self, stored: &str, password: &str) -> bool {
        let key = digest(stored, password);
        if self.known(&key) {
            return true;
        }
        let ok = Self::argon_verify(stored, password);
        if ok {
            self.remember(key);
        }
        ok
    }

    /// Whether `password` matches the stored hash, if `sender` has an argon2 run left in the
    /// hour of `now`; a password that verified before is answered from memory at no cost.
    pub fn check(
        &self,
        stored: &str,
        password: &str,
        now: DateTime<Utc>,
        sender: Sender<'_>,
    ) -> Result<bool, Busy> {
        let key = digest(stored, password);
        if self.known(&key) {
            return Ok(true);
        }
        self.take(now, sender)?;
        let ok = Self::argon_verify(stored, password);
        if ok {
            self.remember(key);
        }
        Ok(ok)
    }
}

/// One wrong password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// When.
    pub at: DateTime<Utc>,
    /// The seat, as messages name it (`France`, `the Master`, `the observer at x@y`).
    pub seat: String,
    /// Who tried: the sender's key ([`sender_key`]: the reply address, which a forger
    /// chooses, and the sending host where known).
    pub from: String,
    /// The seat's holder then, who is told when a lock trips.
    pub holder: String,
}

/// A lock on sign-ons.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lock {
    /// The seat locked; None: the whole game.
    pub seat: Option<String>,
    /// Until when.
    pub until: DateTime<Utc>,
}

/// A lock that has just tripped, with what tripped it (for the notices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tripped {
    /// The lock.
    pub lock: Lock,
    /// The wrong passwords in the window that tripped it.
    pub failures: usize,
    /// The addresses they came from, each once, oldest first.
    pub from: Vec<String>,
    /// The holders of the seats tried, each once.
    pub holders: Vec<String>,
}

/// A game's recent wrong passwords and the locks they set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    /// Wrong passwords of the last [`WINDOW_MINUTES`].
    pub failures: Vec<Failure>,
    /// Locks not yet over.
    pub locks: Vec<Lock>,
    /// By seat (as messages name it), the sending hosts from which the seat's registered
    /// address signed on with the right password, the latest last, at most [`OWN_HOSTS`]:
    /// mail "from" that address through another host is not spared by a lock (issue 36,
    /// point 5: "The seat's own address is not a free pass").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub own_hosts: BTreeMap<String, Vec<String>>,
}

/// Sending hosts remembered for a seat's registered address (a player's home, work and
/// phone, and one more).
pub const OWN_HOSTS: usize = 4;

impl Guard {
    /// Whether a mail from `seat`'s registered address through `host` is the holder's: no
    /// lock refuses it. So it is when herald cannot tell the host, when the address has not
    /// signed on through a known host yet, or when `host` is one it signed on through. A
    /// forger of the address sending from elsewhere is held by the seat's lock like anyone.
    pub fn own_host(&self, seat: &str, host: Option<&str>) -> bool {
        let Some(host) = host.filter(|h| !h.is_empty()) else {
            return true;
        };
        self.own_hosts
            .get(seat)
            .is_none_or(|hosts| hosts.is_empty() || hosts.iter().any(|h| h == host))
    }

    /// Records that `seat`'s registered address signed on with the right password through
    /// `host`.
    pub fn signed_on_from(&mut self, seat: &str, host: Option<&str>) {
        let Some(host) = host.filter(|h| !h.is_empty()) else {
            return;
        };
        let hosts = self.own_hosts.entry(seat.to_string()).or_default();
        hosts.retain(|h| h != host);
        hosts.push(host.to_string());
        if hosts.len() > OWN_HOSTS {
            hosts.remove(0);
        }
    }

    /// The host `seat`'s registered address last signed on through, if known.
    pub fn last_own_host(&self, seat: &str) -> Option<&str> {
        self.own_hosts
            .get(seat)
            .and_then(|h| h.last())
            .map(String::as_str)
    }

    /// Whether wrong passwords for `seat` were given in the last [`WINDOW_MINUTES`]: a
    /// `SET ADDRESS` for it then waits (issue 36, point 5).
    pub fn recently_guessed(&self, seat: &str, now: DateTime<Utc>) -> bool {
        let since = now - Duration::minutes(WINDOW_MINUTES);
        self.failures.iter().any(|f| f.seat == seat && f.at > since)
    }

    /// The lock that keeps `seat` closed at `now` (its own or the game's, the later), if any.
    pub fn locked(&self, seat: &str, now: DateTime<Utc>) -> Option<&Lock> {
        self.locks
            .iter()
            .filter(|l| l.until > now && l.seat.as_deref().is_none_or(|s| s == seat))
            .max_by_key(|l| l.until)
    }

    /// Records a wrong password for `seat` from `from`; returns the locks this failure
    /// trips (the seat's, the game's, or both), each once per lockout.
    pub fn fail(
        &mut self,
        seat: &str,
        from: &str,
        holder: &str,
        now: DateTime<Utc>,
    ) -> Vec<Tripped> {
        let since = now - Duration::minutes(WINDOW_MINUTES);
        self.failures.retain(|f| f.at > since);
        self.locks.retain(|l| l.until > now);
        self.failures.push(Failure {
            at: now,
            seat: seat.to_string(),
            from: from.to_string(),
            holder: holder.to_string(),
        });
        let until = now + Duration::minutes(LOCKOUT_MINUTES);
        let mut tripped = Vec::new();
        for scope in [Some(seat), None] {
            let (limit, counted): (usize, Vec<&Failure>) = match scope {
                Some(s) => (
                    SEAT_FAILURES,
                    self.failures.iter().filter(|f| f.seat == s).collect(),
                ),
                None => (GAME_FAILURES, self.failures.iter().collect()),
            };
            let open = !self
                .locks
                .iter()
                .any(|l| l.seat.as_deref() == scope && l.until > now);
            if counted.len() >= limit && open {
                let mut from: Vec<String> = Vec::new();
                let mut holders: Vec<String> = Vec::new();
                for f in &counted {
                    if !from.contains(&f.from) {
                        from.push(f.from.clone());
                    }
                    if !holders.contains(&f.holder) {
                        holders.push(f.holder.clone());
                    }
                }
                tripped.push(Tripped {
                    lock: Lock {
                        seat: scope.map(str::to_string),
                        until,
                    },
                    failures: counted.len(),
                    from,
                    holders,
                });
            }
        }
        self.locks.extend(tripped.iter().map(|t| t.lock.clone()));
        tripped
    }
}

mod web;
pub use web::{on_the_web, WEB_KEY};

#[cfg(test)]
mod tests;
