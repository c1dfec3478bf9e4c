//! The gate every mail passes before it is queued, from a mail or from a deadline (issue 24:
//! "An address receives game mail (notices, results, press, broadcasts) only after it has
//! confirmed that it wants it, by answering a confirmation mail with a token from that
//! address ... The only mail an unconfirmed address gets is the one answer to a mail sent
//! in its name.").
//!
//! - The answer to a mail always goes (still under `[limits] replies_per_hour`); to an
//!   address that has not confirmed it carries the request: a code, in its subject and its
//!   text, which a plain reply from any mail program brings back (`Re:` keeps the subject,
//!   the quoted text keeps the text). herald reads the code in the raw subject and text
//!   itself, quoted lines included. The code is a keyed digest of the address: only mail
//!   sent there carries it, so a forger cannot confirm someone else's address.
//! - Every other mail (results, notices, press, broadcasts) goes only to a confirmed
//!   address or to the keeper; the rest is held: counted in the `held` table per address,
//!   not kept whole, and never sent.
//! - `SET ADDRESS` to an address that has not confirmed sends it one request, at most one a
//!   day for one seat: the seat's holder asked for it with the password.
//! - A game's observers get at most `[limits] observer_results_per_hour` mails of its
//!   deadlines an hour each; the Master is told once an hour when that bites.

use std::collections::{BTreeMap, HashMap, HashSet};

use sha2::{Digest, Sha256};
use tracing::info;

use super::{Service, ServiceError};
use crate::envelope::{Letter, Outgoing};
use crate::judge;
use crate::store::{Store, Tx};

/// The meta key of the secret the codes are made with.
const KEY: &str = "confirm_key";
/// The meta key set once the addresses of games older than the gate were taken as confirmed.
const ADOPTED: &str = "confirm_adopted";
/// At most one request to confirm a new address (`SET ADDRESS`) a day for one seat (or a
/// game's Master), whatever the address (issue 36, point 4: "At most one confirmation
/// request a day per seat for `SET ADDRESS`").
const REQUEST_EVERY: i64 = 86_400;

/// The answers of a batch of incoming mails: who each went to and what it answers.
#[derive(Debug, Default)]
pub(super) struct Answers {
    /// (address answered, Message-ID answered).
    answered: HashSet<(String, String)>,
    /// Addresses that confirmed with a mail of this batch.
    confirmed_now: HashSet<String>,
    /// Requests to confirm a new address (`SET ADDRESS`), each with the seat that asked
    /// (the key its daily count is kept under).
    requests: Vec<(String, Outgoing)>,
}

impl Answers {
    /// A mail read: its answer is let through.
    pub(super) fn read(&mut self, letter: &Letter) {
        self.answered
            .insert((letter.reply_to.clone(), letter.message_id.clone()));
    }

    /// Whether `mail` is the answer to a mail of the batch, to the address it came from.
    fn is_answer(&self, mail: &Outgoing) -> bool {
        mail.in_reply_to
            .as_ref()
            .is_some_and(|id| self.answered.contains(&(mail.to.clone(), id.clone())))
    }
}

/// The secret the confirmation codes are made with: made once, kept in the database. Of
/// several daemons starting together on a new database, every one keeps the first one's,
/// so that a code one made is read by all.
pub(super) async fn confirm_key(store: &Store) -> Result<String, ServiceError> {
    if let Some(key) = store.meta(KEY).await? {
        return Ok(key);
    }
    let key = format!("{}{}", super::random_mark(), super::random_mark());
    Ok(store.meta_or_set(KEY, &key).await?)
}

/// A database made before the gate: the Masters and players of its games were getting
/// their mail, and are taken as confirmed (observers, who never had to give a password
/// that anyone checked, are not). Done once.
pub(super) async fn adopt_old_games(store: &Store, ts: i64) -> Result<(), ServiceError> {
    if store.meta(ADOPTED).await?.is_some() {
        return Ok(());
    }
    let mut tx = store.begin().await?;
    // Every game, whole: each one's people are adopted. This runs once in a database's
    // life (the `ADOPTED` mark), so it is the one place the gate reads them all, a page
    // of games at a time.
    let mut after = String::new();
    loop {
        let names = tx.game_names_after(&after, 200).await?;
        let Some(last) = names.last() else { break };
        after = last.clone();
        for g in tx.games_named::<judge::Game>(&names).await? {
            let addresses =
                std::iter::once(&g.master.address).chain(g.seats.iter().map(|s| &s.member.address));
            for a in addresses {
                tx.confirm(a, "in a game before herald asked for confirmation", ts)
                    .await?;
            }
        }
    }
    tx.commit().await?;
    store.set_meta(ADOPTED, &ts.to_string()).await?;
    Ok(())
}

/// An answer to an address that has not confirmed, held to what such an answer may be
/// (issue 36, point 1: "text only, at most 16 KB, no attachments"): the judge made it within
/// those limits already ([`judge::budget::ReplyLimits::unconfirmed`]); this is the bound that
/// holds whatever made the answer. Room is left for the request to confirm.
fn short_for_a_stranger(mail: &mut Outgoing) {
    mail.attachments.clear();
    let room = judge::budget::STRANGER_BYTES - REQUEST_ROOM;
    if mail.body.len() <= room {
        return;
    }
    let mut end = room;
    while !mail.body.is_char_boundary(end) {
        end -= 1;
    }
    let cut = mail.body[..end].rfind('\n').map_or(end, |i| i + 1);
    mail.body.truncate(cut);
    mail.body.push_str(
        "*** The rest of this answer was left out: answers to an address that has not confirmed hold at most 16 KB.\n",
    );
}

/// A subject without the ` [confirm-…]` code a reply to herald's request brought back.
fn without_code(subject: &str) -> String {
    let mut out = subject.to_string();
    while let Some(start) = out.find(" [confirm-") {
        match out[start..].find(']') {
            Some(end) => out.replace_range(start..start + end + 1, ""),
            None => break,
        }
    }
    out
}

/// Bytes kept in an answer to a stranger for the request to confirm (`templates/confirm.txt`:
/// 600 bytes, and at most 1,024 with the longest address and the code). The judge keeps
/// its reply within [`judge::budget::STRANGER_BYTES`] less 2,048 already, so this cut is a
/// bound, not the rule.
const REQUEST_ROOM: usize = 1024;

/// The most games an address that confirmed late is told of, each in a mail of its own.
const CAUGHT_UP_GAMES: usize = 10;

/// The addresses a game mails as its Master and players.
fn members(g: &judge::Game) -> HashSet<String> {
    std::iter::once(g.master.address.clone())
        .chain(g.seats.iter().map(|s| s.member.address.clone()))
        .collect()
}

/// The Master's and each seat's address, each with the key its requests to confirm are
/// counted under: one seat's `SET ADDRESS` lines, however many and to whatever addresses,
/// ask at most once a day.
fn seats(g: &judge::Game) -> Vec<(String, &judge::game::Member)> {
    std::iter::once((judge::pending::request_key(&g.name, None), &g.master))
        .chain(
            g.seats
                .iter()
                .enumerate()
                .map(|(i, s)| (judge::pending::request_key(&g.name, Some(i)), &s.member)),
        )
        .collect()
}

impl Service {
    /// The confirmation code of an address: a keyed digest, so only mail sent to the
    /// address carries it.
    pub(super) fn confirm_code(&self, address: &str) -> String {
        let mut h = Sha256::new();
        h.update(self.confirm_key.as_bytes());
        h.update(b"\n");
        h.update(address.to_ascii_lowercase().as_bytes());
        let digest = h.finalize();
        let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        format!("confirm-{hex}")
    }

    /// A raw mail read as the gate needs it: a Reply-To naming herald itself set aside, and
    /// its From judged by the keeper's mail server's `Authentication-Results` (`[inbox]
    /// authserv_id`, when set).
    pub(super) fn letter_of(&self, raw: &[u8]) -> Option<Letter> {
        let letter = crate::mail::read_letter(raw)?.without_own_reply_to(&self.judge.address);
        let id = self.config.inbox.authserv_id.as_deref();
        Some(crate::mail::authres::checked(letter, id))
    }

    /// The address this mail confirms, if any: not an automatic mail, and its subject or
    /// text (quoted lines included) carries the code of the address herald's answer went to
    /// (its Reply-To, issue 36: "a plain reply confirms the address the answer was sent to
    /// (Reply-To included) and only that one"), or of its From. Only mail sent to an
    /// address carries that address's code, so neither can be forged.
    pub(super) fn confirms(&self, letter: &Letter) -> Option<String> {
        if letter.automatic.is_some() {
            return None;
        }
        let subject = letter.subject.to_ascii_lowercase();
        let body = letter.body.to_ascii_lowercase();
        [&letter.reply_to, &letter.from]
            .into_iter()
            .find(|a| {
                let code = self.confirm_code(a);
                subject.contains(&code) || body.contains(&code)
            })
            .cloned()
    }

    /// Records a confirmation read in this batch: the address confirmed is known to the
    /// batch's sessions (`standing`), and the seats waiting to move there move
    /// ([`Service::move_pending`]). Returns the games changed and the notices of the moves.
    pub(super) async fn confirm_sender(
        &self,
        tx: &mut Tx,
        letter: &Letter,
        answers: &mut Answers,
        games: &mut judge::Games,
        standing: &mut judge::growth::Standing,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<(Vec<String>, Vec<Outgoing>), ServiceError> {
        let Some(address) = self.confirms(letter) else {
            return Ok(Default::default());
        };
        tx.confirm(&address, "replied with the code", now.timestamp())
            .await?;
        info!(address = %address, "address confirmed");
        answers.confirmed_now.insert(address.clone());
        standing.confirmed.insert(address.clone());
        self.move_pending(tx, &address, games, now).await
    }

    /// `address` confirmed: the seats waiting to move there ([`judge::pending`]) move, in
    /// the games of `games` and in those the store holds (loaded into `games`). Returns the
    /// games changed and the notices of the moves.
    pub(super) async fn move_pending(
        &self,
        tx: &mut Tx,
        address: &str,
        games: &mut judge::Games,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<(Vec<String>, Vec<Outgoing>), ServiceError> {
        let names = tx.games_with_member(address).await?;
        let elsewhere: Vec<String> = names
            .iter()
            .filter(|n| !games.contains_key(*n))
            .cloned()
            .collect();
        for g in tx.games_named::<judge::Game>(&elsewhere).await? {
            games.insert(g.name.clone(), g);
        }
        let (mut changed, mut notices) = (Vec::new(), Vec::new());
        for name in names {
            if let Some(g) = games.get_mut(&name) {
                let (moved, told) = judge::pending::confirmed(&self.judge, g, address, now);
                if moved {
                    info!(game = %name, address = %address, "a seat moved to its confirmed address");
                    changed.push(name);
                }
                notices.extend(told);
            }
        }
        Ok((changed, notices))
    }

    /// What the sessions of a batch need to know to move a seat (`SET ADDRESS`, see
    /// [`judge::pending`]): which of the addresses concerned confirmed, and which seats asked
    /// a new address to confirm in the last day. Read only for mails with a `SET ADDRESS`.
    pub(super) async fn address_standing(
        &self,
        tx: &mut Tx,
        parsed: &[Option<judge::session::Parsed>],
        games: &judge::Games,
        standing: &mut judge::growth::Standing,
        ts: i64,
    ) -> Result<(), ServiceError> {
        let mut addresses: Vec<String> = Vec::new();
        let mut keys: Vec<String> = Vec::new();
        for p in parsed.iter().flatten() {
            let set = p.addresses_set();
            if set.is_empty() {
                continue;
            }
            addresses.extend(set);
            for name in p.needs().names {
                if let Some(g) = games.get(&name) {
                    for (key, m) in seats(g) {
                        addresses.push(m.address.clone());
                        keys.push(key);
                    }
                }
            }
        }
        if addresses.is_empty() {
            return Ok(());
        }
        addresses.sort();
        addresses.dedup();
        keys.sort();
        keys.dedup();
        standing.confirmed = tx.confirmed_among(&addresses).await?;
        let asked = tx.volume_since(&keys, ts - REQUEST_EVERY).await?;
        standing.asked_today = asked.into_keys().collect();
        Ok(())
    }

    /// Whether herald's answer to `address` is an answer to a stranger: the address has
    /// not confirmed (`confirmed` holds those of the batch that have), did not confirm
    /// earlier in this batch, and is not the keeper's.
    pub(super) fn is_stranger(
        &self,
        address: &str,
        confirmed: &HashSet<String>,
        answers: &Answers,
    ) -> bool {
        !(confirmed.contains(address)
            || answers.confirmed_now.contains(address)
            || address == self.judge.keeper)
    }

    /// For each address that confirmed in this batch, where each game it plays in or masters
    /// stands now (issue 36, point 4: "A player who confirms late gets what she missed that
    /// matters"): the mail held back before was counted, not kept. At most
    /// [`CAUGHT_UP_GAMES`] games an address; `games` holds those this batch loaded (and may
    /// have changed), the others are read.
    pub(super) async fn caught_up(
        &self,
        tx: &mut Tx,
        answers: &Answers,
        games: &judge::Games,
    ) -> Result<Vec<Outgoing>, ServiceError> {
        let mut out = Vec::new();
        let mut addresses: Vec<&String> = answers.confirmed_now.iter().collect();
        addresses.sort();
        for address in addresses {
            let names = tx.games_with_member(address).await?;
            let (here, elsewhere): (Vec<String>, Vec<String>) =
                names.into_iter().partition(|n| games.contains_key(n));
            let read = tx.games_named::<judge::Game>(&elsewhere).await?;
            let found = here.iter().filter_map(|n| games.get(n)).chain(read.iter());
            out.extend(
                found
                    .filter_map(|g| judge::caught_up::caught_up(&self.judge, g, address))
                    .take(CAUGHT_UP_GAMES),
            );
        }
        Ok(out)
    }

    /// After a mail signed on to `game` with its password: each address it newly set for
    /// the Master or a seat (`SET ADDRESS`), or newly asked a seat to move to, gets a
    /// request to confirm; `asked` (the batch's [`judge::growth::Standing::asked_today`])
    /// gets the key of each seat asking.
    pub(super) fn new_addresses(
        &self,
        before: Option<&judge::Game>,
        after: Option<&judge::Game>,
        letter: &Letter,
        answers: &mut Answers,
        asked: &mut HashSet<String>,
    ) {
        let (Some(before), Some(after)) = (before, after) else {
            return;
        };
        let old = members(before);
        let waiting: HashSet<&judge::game::PendingAddress> = seats(before)
            .into_iter()
            .filter_map(|(_, m)| m.pending.as_ref())
            .collect();
        // A seat moved to a new address, or asking to (its pending address, newly set): the
        // sender (a seat taken over from the address the mail came from, or asking to move
        // to it) gets the answer, which asks already.
        let mut new: Vec<(String, String, bool)> = seats(after)
            .into_iter()
            .flat_map(|(key, m)| {
                let moved =
                    (!old.contains(&m.address)).then(|| (key.clone(), m.address.clone(), false));
                let asked = m
                    .pending
                    .as_ref()
                    .filter(|p| !waiting.contains(p))
                    .map(|p| (key, p.address.clone(), true));
                moved.into_iter().chain(asked)
            })
            .filter(|(_, a, _)| *a != letter.reply_to)
            .collect();
        new.sort();
        new.dedup_by(|a, b| a.1 == b.1);
        for (key, address, waits) in new {
            let body = self.judge.templates.render(
                "confirm.txt",
                minijinja::context! {
                    kind => "address",
                    header => self.judge.header(after),
                    address => &address,
                    asked_by => &letter.from,
                    days => waits.then_some(judge::pending::PENDING_DAYS),
                    game => &after.name,
                    token => self.confirm_code(&address),
                },
            );
            let request = Outgoing {
                subject: format!(
                    "Confirm your address for game '{}' [{}]",
                    after.name,
                    self.confirm_code(&address)
                ),
                to: address,
                body,
                in_reply_to: None,
                attachments: Vec::new(),
            };
            asked.insert(key.clone());
            answers.requests.push((key, request));
        }
    }

    /// What of `mails` may be queued: answers (each to an address that has not confirmed
    /// carrying the request), mail to the keeper and to confirmed addresses, and the
    /// requests of `SET ADDRESS` (one an hour to an address). The rest is counted as held.
    pub(super) async fn gate(
        &self,
        tx: &mut Tx,
        mails: Vec<Outgoing>,
        answers: Answers,
        ts: i64,
    ) -> Result<Vec<Outgoing>, ServiceError> {
        let mut recipients: Vec<String> = mails
            .iter()
            .chain(answers.requests.iter().map(|(_, m)| m))
            .map(|m| m.to.clone())
            .collect();
        recipients.sort();
        recipients.dedup();
        let confirmed = tx.confirmed_among(&recipients).await?;
        let ok = |a: &str| {
            confirmed.contains(a) || answers.confirmed_now.contains(a) || a == self.judge.keeper
        };
        let mut out = Vec::with_capacity(mails.len());
        let mut held: BTreeMap<String, (i64, String)> = BTreeMap::new();
        for mut mail in mails {
            if answers.is_answer(&mail) {
                if answers.confirmed_now.contains(&mail.to) {
                    // The reply kept herald's subject, code and all: the answer to it no
                    // longer asks (issue 36, N12).
                    mail.subject = without_code(&mail.subject);
                    mail.body.push_str(&self.judge.templates.render(
                        "confirm.txt",
                        minijinja::context! { kind => "done", address => &mail.to },
                    ));
                } else if !ok(&mail.to) {
                    short_for_a_stranger(&mut mail);
                    let code = self.confirm_code(&mail.to);
                    mail.subject = format!("{} [{code}]", mail.subject);
                    mail.body.push_str(&self.judge.templates.render(
                        "confirm.txt",
                        minijinja::context! { kind => "ask", address => &mail.to, token => code },
                    ));
                }
                out.push(mail);
            } else if ok(&mail.to) {
                out.push(mail);
            } else {
                let entry = held.entry(mail.to).or_insert((0, String::new()));
                entry.0 += 1;
                entry.1 = mail.subject;
            }
        }
        let asked: Vec<String> = answers.requests.iter().map(|(k, _)| k.clone()).collect();
        let recent = tx.volume_since(&asked, ts - REQUEST_EVERY).await?;
        let mut counted: Vec<(String, i64)> = Vec::new();
        for (key, mail) in answers.requests {
            if ok(&mail.to) || recent.contains_key(&key) || counted.iter().any(|(k, _)| *k == key) {
                if !ok(&mail.to) {
                    info!(to = %mail.to, seat = %key, "request to confirm not sent: this seat asked once today");
                }
                continue;
            }
            counted.push((key, 1));
            out.push(mail);
        }
        tx.record_volume(&counted, ts).await?;
        if !held.is_empty() {
            let n: i64 = held.values().map(|(n, _)| n).sum();
            info!(
                mails = n,
                addresses = held.len(),
                "game mail held: its addresses have not confirmed"
            );
            let rows: Vec<(String, i64, String)> =
                held.into_iter().map(|(a, (n, s))| (a, n, s)).collect();
            tx.record_held(&rows, ts).await?;
        }
        Ok(out)
    }

    /// A deadline's mails for game `g`: those to its observers only while each observer
    /// stays within `[limits] observer_results_per_hour` deadline mails (results, notices)
    /// in the last hour; beyond, held (counted) and the Master told, once an hour.
    pub(super) async fn observer_limit(
        &self,
        tx: &mut Tx,
        g: &judge::Game,
        mails: Vec<Outgoing>,
        ts: i64,
    ) -> Result<Vec<Outgoing>, ServiceError> {
        let members = members(g);
        let observers: HashSet<&str> = g
            .observers
            .iter()
            .map(|o| o.address.as_str())
            .filter(|a| !members.contains(*a))
            .collect();
        // What this deadline sends one observer (results, and a notice with them).
        let mut each: HashMap<&str, i64> = HashMap::new();
        for m in mails.iter().filter(|m| observers.contains(m.to.as_str())) {
            *each.entry(m.to.as_str()).or_insert(0) += 1;
        }
        let Some(n) = each.values().max().copied() else {
            return Ok(mails);
        };
        let limit = i64::from(self.config.limits.observer_results_per_hour);
        let key = format!("deadline mail to the observers of {}", g.name);
        let told = format!("Master told of the observer limit in {}", g.name);
        let counts = tx
            .volume_since(&[key.clone(), told.clone()], ts - 3600)
            .await?;
        if counts.get(&key).copied().unwrap_or(0) + n <= limit {
            tx.record_volume(&[(key, n)], ts).await?;
            return Ok(mails);
        }
        let (kept, cut): (Vec<Outgoing>, Vec<Outgoing>) = mails
            .into_iter()
            .partition(|m| !observers.contains(m.to.as_str()));
        let mut out = kept;
        let mut held: HashMap<String, (i64, String)> = HashMap::new();
        for m in cut {
            let e = held.entry(m.to).or_insert((0, String::new()));
            e.0 += 1;
            e.1 = m.subject;
        }
        let rows: Vec<(String, i64, String)> =
            held.into_iter().map(|(a, (n, s))| (a, n, s)).collect();
        tx.record_held(&rows, ts).await?;
        info!(game = %g.name, "observer limit reached: results held from the observers");
        if !counts.contains_key(&told) {
            tx.record_volume(&[(told, 1)], ts).await?;
            let lines = [
                format!(
                    "The observers of '{}' have had {limit} mails of its deadlines in the last hour, as many as herald sends them in an hour ([limits] observer_results_per_hour).",
                    g.name
                ),
                "Until fewer than that went out in the last hour, results go to the players and to you only; observers can read them with HISTORY.".to_string(),
                "This notice comes at most once an hour for this game.".to_string(),
            ];
            out.push(Outgoing {
                to: g.master.address.clone(),
                subject: self.judge.subject(g, "Observer limit reached"),
                body: self.judge.templates.render(
                    "notice.txt",
                    minijinja::context! { header => self.judge.header(g), lines => lines },
                ),
                in_reply_to: None,
                attachments: Vec::new(),
            });
        }
        Ok(out)
    }
}
