//! Random mail against games of every variant (issue 13): a seeded stream of mails from
//! players, Masters, strangers, herald itself, auto-responders and mailer daemons, with
//! random commands, extreme numbers and dates, Unicode and raw bytes, read in batches at
//! the test's time, and the clock moved on at random (minutes to years, sometimes back a
//! little, sometimes by the keeper's `--now`). After every step herald ticks and sends, and
//! the test checks:
//!
//! - nothing panicked (a panic herald caught itself counts too: a quarantined mail, a game
//!   set aside), and the tick after the step succeeded;
//! - every mail was answered exactly once, to its sender (one outgoing mail with its
//!   Message-ID in In-Reply-To), or deliberately not: ignored with a reason, a duplicate of
//!   one read before, unreadable, or past the per-hour reply limit (herald sends the
//!   address one notice an hour then, which is no reply, so the test allows a missing reply
//!   only where the limit can have been reached, and checks that a flood of junk gets no
//!   more replies than the limit); every queued mail
//!   was written out, in CRLF lines of at most 998 octets, no two with one Message-ID,
//!   none to herald itself; no mail but an answer (or the request to confirm an address set
//!   with SET ADDRESS) to an address that has not confirmed it wants herald's mail, and
//!   that answer text only within 16 KB, nothing attached (issue 36);
//! - no dip balance below zero; every unit (and dislodged unit) on a space its kind may
//!   stand on, filed under its own province; dislodged units only in a retreat phase;
//!   owners only on supply centres; one seat per power;
//! - every running game has a deadline and none is left past its grace after a tick;
//!   every paused game says why; every finished game says how it ended.
//!
//! `HERALD_FUZZ_MAILS` sets how many mails are played in all (default 5,000, spread over
//! seeds of 1,250 mails each, every seed with one game of each variant, the seeds dealt to
//! four tests that the harness runs side by side);
//! `HERALD_FUZZ_SEED=n` plays that seed alone (in the first of the four). A failure prints its seed and the steps that
//! led to it, and writes the whole sequence to a file; it is then shrunk to a shorter
//! sequence that fails the same way (the first failure only; `HERALD_FUZZ_SHRINK` seconds,
//! default 90, 0: off).

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use herald::game::calendar::PhaseKind;
use herald::game::ids::{PowerId, ProvinceId, UnitKind};
use herald::game::map::{Map, Terrain};
use herald::game::position::{Position, Unit};
use herald::game::resolve::adjust::adjustment_count;
use herald::judge::game::{SeatState, Status};
use herald::judge::password::Passwords;
use herald::judge::{dips, Game, Judge};
use herald::mail::maildir::Maildir;
use herald::mail::read_letter;
use herald::service::{Clock, Ingested, ServiceError};
use support::rng::Rng;
use support::World;

/// A mail's bytes (read, and written: the text of every mail it made herald send, and each
/// picture once) may be at most this many times the median mail's (issue 24: "the time per
/// mail within a constant factor of the median (counted in operations, not seconds)").
/// What bounds them: 256 KiB read, a reply of at most 256 KiB and 4 pictures, 10 press
/// blocks, results to each power of a game. The median mail (about 1.5 KB read and
/// written) is measured by the test itself.
const WORK_FACTOR: u64 = 2_000;

/// A mail's argon2 runs are counted apart (each is worth megabytes of work, and a sign-on
/// that checks a password is an ordinary mail): at most one sender's allowance an hour.
const ARGON2_PER_MAIL: u64 = herald::judge::password::PER_SENDER as u64;

/// Mails handled before the median is taken as the measure.
const WORK_SAMPLE: usize = 100;

/// The median of a list of counts (the upper one of an even list).
fn median(values: &[u64]) -> u64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied().unwrap_or(0)
}

/// herald's address in the test World.
const JUDGE: &str = "judge@herald.test";
/// Every built-in variant; each seed plays one game of each.
const VARIANTS: [&str; 5] = ["standard", "portage", "world1880", "deluge", "classical"];
/// Mails per seed.
const MAILS_PER_SEED: usize = 1250;
/// The players' addresses (a world1880 game needs sixteen).
const PLAYERS: usize = 16;

// ---------------------------------------------------------------------------------------
// A small deterministic generator (xorshift), so a failure can be replayed from its seed:
// `Rng` of tests/support/rng.rs, the one generator the tests share.

// ---------------------------------------------------------------------------------------
// Panics: where the last one happened, so a failure can name it and the shrinker can tell
// one failure from another.

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);
static QUIET: AtomicBool = AtomicBool::new(false);

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                s.to_string()
            } else if let Some(s) = info.payload().downcast_ref::<String>() {
                s.clone()
            } else {
                "a panic".to_string()
            };
            let loc = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = Some((msg, loc));
            }
            if !QUIET.load(Ordering::Relaxed) {
                default(info);
            }
        }));
    });
}

fn take_panic() -> Option<(String, String)> {
    LAST_PANIC.lock().ok().and_then(|mut p| p.take())
}

// ---------------------------------------------------------------------------------------
// Steps, and what went wrong.

/// One step of a scenario; after each, herald ticks and sends, and the invariants are checked.
#[derive(Clone, Debug)]
enum Step {
    /// Mails that arrive together, read in one batch at the current time.
    Mails(Vec<Vec<u8>>),
    /// The clock moves to this time in one jump (forward, or deliberately back a little).
    Jump(DateTime<Utc>),
    /// The clock moves to this time as a running daemon sees it, ticking every so many
    /// minutes on the way.
    Sweep(DateTime<Utc>, i64),
    /// The keeper runs `herald tick --now T`: a time set on purpose, no outage.
    Keeper(DateTime<Utc>),
}

impl Step {
    fn mails(&self) -> usize {
        match self {
            Step::Mails(m) => m.len(),
            _ => 0,
        }
    }
}

/// A broken invariant.
#[derive(Clone, Debug)]
struct Failure {
    /// What kind of failure, with the panic's place when there was one: two failures of the
    /// same kind are taken to be the same bug when shrinking.
    kind: String,
    /// The details.
    detail: String,
    /// The step at which it happened (index into the steps played).
    step: usize,
}

fn fail(kind: impl Into<String>, detail: impl Into<String>) -> Failure {
    let (kind, mut detail) = (kind.into(), detail.into());
    let kind = match take_panic() {
        Some((msg, loc)) => {
            let _ = write!(detail, "\n    last panic: '{msg}' at {loc}");
            format!("{kind} (panic at {loc})")
        }
        None => kind,
    };
    Failure {
        kind,
        detail,
        step: 0,
    }
}

fn show_bytes(raw: &[u8], max: usize) -> String {
    if raw.len() <= max {
        format!("b\"{}\"", raw.escape_ascii())
    } else {
        format!(
            "b\"{}\" ... ({} bytes in all)",
            raw[..max].escape_ascii(),
            raw.len()
        )
    }
}

/// Steps as text, numbered from `first`, each mail shown up to `max` bytes.
fn show_steps(steps: &[Step], first: usize, max: usize) -> String {
    let mut out = String::new();
    for (i, s) in (first..).zip(steps) {
        match s {
            Step::Mails(mails) => {
                let _ = writeln!(out, "  step {i}: {} mail(s) read together", mails.len());
                for m in mails {
                    let _ = writeln!(out, "    {}", show_bytes(m, max));
                }
            }
            Step::Jump(t) => {
                let _ = writeln!(out, "  step {i}: the clock jumps to {}", t.to_rfc3339());
            }
            Step::Keeper(t) => {
                let _ = writeln!(
                    out,
                    "  step {i}: the keeper ticks with the time set to {}",
                    t.to_rfc3339()
                );
            }
            Step::Sweep(t, every) => {
                let _ = writeln!(
                    out,
                    "  step {i}: the clock runs to {}, ticking every {every} minutes",
                    t.to_rfc3339()
                );
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The executor: a judge on a temporary directory, fed steps, checked after each.

/// The time every scenario starts at.
fn start_time() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

struct Exec {
    /// A runtime of its own, so that nothing of one scenario outlives it.
    rt: tokio::runtime::Runtime,
    world: Option<World>,
    outbox: Maildir,
    now: DateTime<Utc>,
    /// The reply limit per address and hour, from the configuration.
    limit: usize,
    /// Replies herald sent (mails with an In-Reply-To), by address and time: the reply
    /// limit may drop a reply only to an address that had `limit` of them in the hour.
    replied: Vec<(String, i64)>,
    /// Mails read so far, as herald tells them apart: Message-ID, body digest, sender.
    seen: HashSet<(String, String, String)>,
    /// The replies owed to each Message-ID (as In-Reply-To writes it): at least, at most.
    owed: HashMap<String, (usize, usize)>,
    /// Where the replies to each Message-ID may go: the sender's reply address.
    reply_to: HashMap<String, Vec<String>>,
    /// Replies found in the outbox, by the Message-ID they answer.
    answered: HashMap<String, usize>,
    /// Message-IDs of everything herald sent.
    sent_ids: HashSet<String>,
    /// The reply addresses of the mails read in this step (until it is collected).
    senders: HashSet<String>,
    /// The confirmation code herald last sent each address (in an answer's subject).
    codes: HashMap<String, String>,
    /// The games as stored after the last step, and their stored form (a game whose
    /// stored form did not change is not read again).
    games: Vec<Game>,
    states: Vec<String>,
    /// Mails read so far.
    mails: usize,
    /// What was seen, for the summary of a seed.
    stats: Stats,
}

/// What a scenario went through.
#[derive(Debug, Default)]
struct Stats {
    handled: usize,
    ignored: usize,
    duplicates: usize,
    unreadable: usize,
    replies: usize,
    sent: usize,
    ticks: usize,
    /// Mails whose reply the reply limit may have dropped.
    limited: usize,
    /// The bytes read and written for each mail handled ([`herald::service::Work`]).
    work: Vec<u64>,
    /// The most argon2 runs one mail caused.
    argon2: u64,
}

impl Drop for Exec {
    fn drop(&mut self) {
        let _enter = self.rt.enter();
        self.world.take();
    }
}

impl Exec {
    fn new(name: &str) -> Exec {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let world = rt.block_on(World::new(name));
        assert_eq!(world.service.judge.address, JUDGE);
        let outbox = Maildir::open(&world.dir.join("outbox")).unwrap();
        let limit = world.service.config.limits.replies_per_hour as usize;
        Exec {
            rt,
            world: Some(world),
            outbox,
            now: start_time(),
            limit,
            replied: Vec::new(),
            seen: HashSet::new(),
            owed: HashMap::new(),
            reply_to: HashMap::new(),
            answered: HashMap::new(),
            sent_ids: HashSet::new(),
            senders: HashSet::new(),
            codes: HashMap::new(),
            games: Vec::new(),
            states: Vec::new(),
            mails: 0,
            stats: Stats::default(),
        }
    }

    fn judge(&self) -> &Judge {
        &self.world.as_ref().expect("open").service.judge
    }

    /// Runs one service call to completion; a panic or an error is a failure.
    fn call<T>(
        &self,
        what: &str,
        f: impl std::future::Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, Failure> {
        match catch_unwind(AssertUnwindSafe(|| self.rt.block_on(f))) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(fail(
                format!("{what} returned an error"),
                format!("{what} at {}: {e}", self.now.to_rfc3339()),
            )),
            Err(_) => Err(fail(
                format!("{what} panicked"),
                format!("{what} at {}", self.now.to_rfc3339()),
            )),
        }
    }

    /// A panic herald caught itself (a mail quarantined, a game set aside) is a failure too.
    fn no_panic(&self, during: &str) -> Result<(), Failure> {
        match take_panic() {
            None => Ok(()),
            Some((msg, loc)) => Err(Failure {
                kind: format!("herald panicked (at {loc})"),
                detail: format!(
                    "'{msg}' at {loc}, during {during} at {}",
                    self.now.to_rfc3339()
                ),
                step: 0,
            }),
        }
    }

    fn step(&mut self, step: &Step) -> Result<(), Failure> {
        take_panic();
        let mut read: Vec<String> = Vec::new();
        match step {
            Step::Mails(raws) => read = self.read(raws)?,
            Step::Jump(t) => self.now = *t,
            Step::Keeper(t) => {
                self.now = *t;
                let service = &self.world.as_ref().expect("open").service;
                self.call("tick_at", service.tick_at(*t, Clock::Set))?;
                self.no_panic("a tick with the time set")?;
            }
            Step::Sweep(t, every) => {
                while self.now + Duration::minutes(*every) < *t {
                    self.now += Duration::minutes(*every);
                    self.tick()?;
                    self.collect(&[])?;
                }
                self.now = *t;
            }
        }
        self.tick()?;
        self.collect(&read)?;
        self.check_games()
    }

    fn tick(&mut self) -> Result<(), Failure> {
        let now = self.now;
        let service = &self.world.as_ref().expect("open").service;
        self.call("tick", service.tick(now))?;
        self.stats.ticks += 1;
        self.no_panic("a tick")
    }

    /// Reads a batch of mails and checks each outcome; returns the Message-IDs read, whose
    /// replies `collect` then counts.
    fn read(&mut self, raws: &[Vec<u8>]) -> Result<Vec<String>, Failure> {
        let raws: Vec<Vec<u8>> = raws.iter().map(|r| self.with_code(r)).collect();
        let raws = raws.as_slice();
        let now = self.now;
        let service = &self.world.as_ref().expect("open").service;
        let refs: Vec<&[u8]> = raws.iter().map(Vec::as_slice).collect();
        let outcomes = self.call("ingest_batch", service.ingest_batch(&refs, now))?;
        self.mails += raws.len();
        if outcomes.len() != raws.len() {
            return Err(fail(
                "an outcome per mail",
                format!("{} mails, {} outcomes", raws.len(), outcomes.len()),
            ));
        }
        let mut costs: Vec<(herald::service::Work, String)> = Vec::new();
        let mut ids = Vec::new();
        // Replies this batch may have made, by address (for the reply limit).
        let mut batch: HashMap<String, usize> = HashMap::new();
        for (k, (raw, outcome)) in raws.iter().zip(&outcomes).enumerate() {
            let letter = read_letter(raw);
            let what = format!(
                "mail {k} of the batch ({outcome:?}): {}",
                show_bytes(raw, 600)
            );
            if let Ingested::Quarantined(reason) = outcome {
                if reason.contains("herald failed") || reason.contains("bug") {
                    return Err(fail("a mail was quarantined as herald's own failure", what));
                }
            }
            let Some(letter) = letter else {
                if !matches!(outcome, Ingested::Quarantined(_)) {
                    return Err(fail("an unreadable mail was not quarantined", what));
                }
                self.stats.unreadable += 1;
                continue;
            };
            let key = (
                letter.message_id.clone(),
                letter.body_hash.clone(),
                letter.from.clone(),
            );
            let first = self.seen.insert(key);
            let own = letter.from.eq_ignore_ascii_case(JUDGE);
            let to = if letter.reply_to.eq_ignore_ascii_case(JUDGE) {
                letter.from.clone()
            } else {
                letter.reply_to.clone()
            };
            self.senders.insert(to.clone());
            let owed = match outcome {
                Ingested::Duplicate if first => {
                    return Err(fail("a new mail was taken for a duplicate", what))
                }
                Ingested::Duplicate => {
                    self.stats.duplicates += 1;
                    (0, 0)
                }
                _ if !first => return Err(fail("a mail read before was handled again", what)),
                Ingested::Quarantined(_) => {
                    return Err(fail("a readable mail was quarantined", what))
                }
                Ingested::Ignored(_) => {
                    let deliberate =
                        letter.automatic.is_some() || letter.bounce_for.is_some() || own;
                    if !deliberate {
                        return Err(fail("a person's mail was ignored", what));
                    }
                    self.stats.ignored += 1;
                    (0, 0)
                }
                Ingested::Handled(queued, work) => {
                    costs.push((*work, what.clone()));
                    let since = now.timestamp() - 3600;
                    let before = self
                        .replied
                        .iter()
                        .filter(|(a, at)| *a == to && *at >= since)
                        .count();
                    let mine = batch.entry(to.clone()).or_insert(0);
                    let limited = before + *mine >= self.limit;
                    *mine += 1;
                    self.stats.handled += 1;
                    if limited {
                        self.stats.limited += 1;
                        (0, 1)
                    } else if *queued == 0 {
                        return Err(fail("a handled mail queued nothing", what));
                    } else {
                        (1, 1)
                    }
                }
            };
            let link = link_id(&letter.message_id);
            if link.is_empty() || link.len() > 900 {
                // In-Reply-To leaves such an id out: its reply cannot be told apart.
                continue;
            }
            let entry = self.owed.entry(link.clone()).or_insert((0, 0));
            entry.0 += owed.0;
            entry.1 += owed.1;
            self.reply_to.entry(link.clone()).or_default().push(to);
            ids.push(link);
        }
        self.no_panic("reading mail")?;
        self.bound_work(costs)?;
        Ok(ids)
    }

    /// Each mail's bytes (read and written) stay within [`WORK_FACTOR`] times the median of
    /// the mails handled so far, once there are [`WORK_SAMPLE`] of them, and its argon2 runs
    /// within [`ARGON2_PER_MAIL`].
    fn bound_work(&mut self, costs: Vec<(herald::service::Work, String)>) -> Result<(), Failure> {
        for (work, what) in costs {
            let bytes = work.read + work.wrote;
            if work.argon2 > ARGON2_PER_MAIL {
                return Err(fail(
                    "a mail cost more argon2 runs than one sender may have",
                    format!("{} runs: {what}", work.argon2),
                ));
            }
            let seen = &mut self.stats.work;
            if seen.len() >= WORK_SAMPLE {
                let median = median(seen);
                if bytes > median.max(1) * WORK_FACTOR {
                    return Err(fail(
                        "a mail cost more than the bound on work",
                        format!(
                            "{bytes} bytes read and written, over {WORK_FACTOR} times the median {median}: {what}"
                        ),
                    ));
                }
            }
            seen.push(bytes);
            self.stats.argon2 = self.stats.argon2.max(work.argon2);
        }
        Ok(())
    }

    /// A mail with `[CONFIRM]` in it, as its sender writes it: with the code herald last
    /// sent the sender (a made-up one when there was none).
    fn with_code(&self, raw: &[u8]) -> Vec<u8> {
        const MARK: &[u8] = b"[CONFIRM]";
        if !raw.windows(MARK.len()).any(|w| w == MARK) {
            return raw.to_vec();
        }
        let from = read_letter(raw).map(|l| l.from).unwrap_or_default();
        let code = self
            .codes
            .get(&from)
            .cloned()
            .unwrap_or_else(|| "confirm-0000000000000000".into());
        let code = format!("[{code}]");
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            if raw[i..].starts_with(MARK) {
                out.extend_from_slice(code.as_bytes());
                i += MARK.len();
            } else {
                out.push(raw[i]);
                i += 1;
            }
        }
        out
    }

    /// Sends what herald queued, reads the outbox, and checks the replies: each mail read
    /// in this step got what it is owed, and nothing answers a mail from an earlier step.
    fn collect(&mut self, read: &[String]) -> Result<(), Failure> {
        let now = self.now;
        let service = &self.world.as_ref().expect("open").service;
        self.call("deliver", service.deliver(now))?;
        self.no_panic("sending")?;
        let files = self
            .outbox
            .waiting()
            .map_err(|e| fail("reading the outbox", e.to_string()))?;
        let mut answering: Vec<String> = Vec::new();
        for path in files {
            let raw =
                std::fs::read(&path).map_err(|e| fail("reading the outbox", e.to_string()))?;
            self.outbox
                .mark_handled(&path)
                .map_err(|e| fail("reading the outbox", e.to_string()))?;
            let long = raw.split(|&b| b == b'\n').any(|l| l.len() > 999);
            let bare = raw
                .iter()
                .enumerate()
                .any(|(i, &b)| b == b'\n' && (i == 0 || raw[i - 1] != b'\r'));
            if long || bare {
                return Err(fail(
                    "herald wrote a line over 998 octets or a bare line feed",
                    show_bytes(&raw, 400),
                ));
            }
            let Some(msg) = mail_parser::MessageParser::default().parse(&raw) else {
                return Err(fail(
                    "herald wrote a mail no reader can parse",
                    show_bytes(&raw, 400),
                ));
            };
            let to = msg
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if to.is_empty() || to == JUDGE {
                return Err(fail(
                    "herald mailed itself or nobody",
                    format!("To: '{to}' in {}", show_bytes(&raw, 400)),
                ));
            }
            let Some(mid) = msg.message_id().map(str::to_string) else {
                return Err(fail(
                    "an outgoing mail without a Message-ID",
                    show_bytes(&raw, 400),
                ));
            };
            if !self.sent_ids.insert(mid.clone()) {
                return Err(fail(
                    "two outgoing mails with one Message-ID",
                    format!("{mid} in {}", show_bytes(&raw, 400)),
                ));
            }
            self.stats.sent += 1;
            // Issue 24: "The only mail an unconfirmed address gets is the one answer to a
            // mail sent in its name" (or the request to confirm an address a seat's holder
            // set with SET ADDRESS); the keeper gets everything meant for them.
            // (An answer to a mail with a Message-ID too odd to name in In-Reply-To goes
            // without one: any mail to a sender of this step may be its answer.)
            let subject = msg.subject().unwrap_or("");
            if let Some(code) = subject
                .rsplit_once("[confirm-")
                .and_then(|(_, c)| c.strip_suffix(']'))
            {
                self.codes.insert(to.clone(), format!("confirm-{code}"));
            }
            if msg.in_reply_to().as_text().is_none()
                && !self.senders.contains(&to)
                && !subject.starts_with("Confirm your address for game")
                && to != service.judge.keeper
            {
                let asked = self.call("is_confirmed", async {
                    service
                        .store
                        .is_confirmed(&to)
                        .await
                        .map_err(ServiceError::from)
                })?;
                if !asked {
                    return Err(fail(
                        "game mail to an address that did not ask for it",
                        format!("'{subject}' to {to}"),
                    ));
                }
            }
            if let Some(irt) = msg.in_reply_to().as_text() {
                self.stats.replies += 1;
                let id = irt.trim().to_string();
                let allowed = self.reply_to.get(&id).map(Vec::as_slice).unwrap_or(&[]);
                if !allowed.is_empty() && !allowed.contains(&to) {
                    return Err(fail(
                        "a reply went to someone other than the sender",
                        format!("reply to <{id}> sent to {to}, not {allowed:?}"),
                    ));
                }
                // Issue 24, point 1: no reply over the limits of `[limits] reply_bytes`,
                // `reply_lines` and `reply_attachments`.
                let limits = service.judge.limits;
                let text = msg.body_text(0).unwrap_or_default();
                let bytes = text.len() - text.matches('\r').count();
                let pictures = msg
                    .attachments()
                    .filter(|a| {
                        use mail_parser::MimeHeaders;
                        a.content_type().is_some_and(|c| c.ctype() == "image")
                    })
                    .count();
                if bytes > limits.bytes
                    || text.lines().count() > limits.lines
                    || pictures > limits.attachments
                {
                    return Err(fail(
                        "a reply over the limits",
                        format!(
                            "{bytes} bytes, {} lines, {pictures} pictures to {to}",
                            text.lines().count()
                        ),
                    ));
                }
                // Issue 36, point 1: "An address that has not confirmed gets text only, at
                // most 16 KB, no attachments".
                let confirmed = to == service.judge.keeper
                    || self.call("is_confirmed", async {
                        service
                            .store
                            .is_confirmed(&to)
                            .await
                            .map_err(ServiceError::from)
                    })?;
                let files = msg.attachments().count();
                if (!confirmed || subject.contains("[confirm-"))
                    && (bytes > herald::judge::budget::STRANGER_BYTES || files > 0)
                {
                    return Err(fail(
                        "an answer to an address that has not confirmed over the stranger limit",
                        format!("{bytes} bytes, {files} files to {to}: '{subject}'"),
                    ));
                }
                *self.answered.entry(id.clone()).or_insert(0) += 1;
                self.replied.push((to, now.timestamp()));
                answering.push(id);
            }
        }
        self.senders.clear();
        let queued = self.call("outbox_count", async {
            service
                .store
                .outbox_count()
                .await
                .map_err(ServiceError::from)
        })?;
        if queued != self.stats.sent as i64 {
            return Err(fail(
                "a queued mail was not sent",
                format!(
                    "{queued} mails queued, {} written to the outbox",
                    self.stats.sent
                ),
            ));
        }
        let since = now.timestamp() - 3600;
        for flooder in ["f0@flood.test", "f1@flood.test", "f2@flood.test"] {
            let n = self
                .replied
                .iter()
                .filter(|(a, at)| a == flooder && *at >= since)
                .count();
            if n > self.limit {
                return Err(fail(
                    "the reply limit was not kept",
                    format!(
                        "{n} replies to {flooder} within the hour, limit {}",
                        self.limit
                    ),
                ));
            }
        }
        for id in read.iter().chain(&answering) {
            let (least, most) = self.owed.get(id).copied().unwrap_or((0, 0));
            let got = self.answered.get(id).copied().unwrap_or(0);
            if got < least || got > most {
                let kind = if got < least {
                    "a mail was not answered"
                } else if read.contains(id) {
                    "a mail was answered more than once"
                } else {
                    "a reply to a mail not read in this step"
                };
                return Err(fail(
                    kind,
                    format!("Message-ID <{id}>: owed {least} to {most} replies, {got} sent"),
                ));
            }
        }
        Ok(())
    }

    /// Loads every game and checks the invariants; keeps them for the generator.
    fn check_games(&mut self) -> Result<(), Failure> {
        let service = &self.world.as_ref().expect("open").service;
        let rows = self.call("store.games", async {
            service.store.games().await.map_err(ServiceError::from)
        })?;
        let judge = &service.judge;
        let mut old: HashMap<String, (String, Game)> = std::mem::take(&mut self.states)
            .into_iter()
            .zip(std::mem::take(&mut self.games))
            .map(|(s, g)| (g.name.clone(), (s, g)))
            .collect();
        let mut games = Vec::with_capacity(rows.len());
        let mut states = Vec::with_capacity(rows.len());
        for row in rows {
            let g: Game = match old.remove(&row.name) {
                Some((state, g)) if state == row.state => g,
                _ => serde_json::from_str(&row.state)
                    .map_err(|e| fail("a stored game does not read back", e.to_string()))?,
            };
            if row.status != g.status.word() {
                return Err(fail(
                    "a game's status column disagrees with its state",
                    format!(
                        "{}: column {}, state {}",
                        g.name,
                        row.status,
                        g.status.word()
                    ),
                ));
            }
            check_game(judge, &g, self.now)
                .map_err(|(kind, detail)| fail(kind, format!("game '{}': {detail}", g.name)))?;
            games.push(g);
            states.push(row.state);
        }
        self.games = games;
        self.states = states;
        Ok(())
    }
}

/// A Message-ID as herald's In-Reply-To writes it: printable ASCII, without the angle
/// brackets.
fn link_id(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>'))
        .collect()
}

/// Whether a paused game says why it is paused.
fn paused_with_reason(g: &Game) -> bool {
    g.pause_reason
        .as_deref()
        .is_some_and(|r| !r.trim().is_empty())
}

/// The invariants of one stored game, at `now`, after a tick.
fn check_game(judge: &Judge, g: &Game, now: DateTime<Utc>) -> Result<(), (String, String)> {
    let bad = |kind: &str, detail: String| Err((kind.to_string(), detail));
    match g.status {
        Status::Forming if g.position.is_some() => {
            return bad("a forming game has a board", String::new());
        }
        Status::Running => {
            if g.position.is_none() {
                return bad("a running game has no board", String::new());
            }
            let (Some(deadline), Some(grace)) = (g.deadline, g.grace) else {
                return bad(
                    "a running game has no deadline",
                    format!("deadline {:?}, grace {:?}", g.deadline, g.grace),
                );
            };
            let held = g.start_after.is_some_and(|s| now < s);
            if grace < now && deadline < now && !g.waiting && !held {
                return bad(
                    "a running game was left past its grace",
                    format!("deadline {deadline}, grace {grace}, now {now}"),
                );
            }
        }
        Status::Paused if !paused_with_reason(g) => {
            return bad("a paused game does not say why", String::new());
        }
        Status::Finished if g.outcome.is_none() => {
            return bad("a finished game does not say how it ended", String::new());
        }
        _ => {}
    }
    let Some(pos) = &g.position else {
        return Ok(());
    };
    let map = judge.map_of(g);
    let n = map.province_count();
    if pos.units.len() != n || pos.dislodged.len() != n || pos.owners.len() != n {
        return bad(
            "the board does not fit the map",
            format!(
                "{} unit slots, {} dislodged slots, {} owner slots, {n} provinces",
                pos.units.len(),
                pos.dislodged.len(),
                pos.owners.len(),
            ),
        );
    }
    if pos.phase.kind != PhaseKind::Retreat && pos.all_dislodged().next().is_some() {
        return bad(
            "a dislodged unit outside a retreat phase",
            judge.variant(g).calendar.code(pos.phase),
        );
    }
    for p in map.province_ids() {
        if pos.owners[p.index()].is_some() && !map.province(p).centre {
            return bad(
                "a province that is no supply centre has an owner",
                format!(
                    "{} at {}",
                    map.abbr(p),
                    judge.variant(g).calendar.code(pos.phase)
                ),
            );
        }
    }
    let mut powers: Vec<PowerId> = g.seats.iter().filter_map(|s| s.power).collect();
    powers.sort_unstable_by_key(|p| p.0);
    if powers.windows(2).any(|w| w[0] == w[1]) {
        return bad("two seats play one power", format!("{powers:?}"));
    }
    let placed = pos
        .all_units()
        .map(|(p, u)| (p, u, ""))
        .chain(pos.all_dislodged().map(|(p, d)| (p, d.unit, "dislodged ")));
    for (p, u, how) in placed {
        let prov = map.province(p);
        if map.province_of(u.region) != p {
            return bad(
                "a unit is filed under another province",
                format!(
                    "{how}{} {} filed under {}",
                    u.kind,
                    map.region_abbr(u.region),
                    prov.abbr
                ),
            );
        }
        if !map.standable(u.kind, p).contains(&u.region) {
            return bad(
                "a unit stands where it cannot",
                format!(
                    "{how}{} in {} ({:?}) at {}",
                    u.kind,
                    map.region_abbr(u.region),
                    prov.terrain,
                    judge.variant(g).calendar.code(pos.phase)
                ),
            );
        }
    }
    if dips::played(judge, g) && g.status != Status::Forming {
        for p in map.power_ids() {
            let used: u32 = dips::spent(judge, g, p).iter().map(|(c, _)| c).sum();
            let allowance = dips::allowance(judge, g, p);
            if used > allowance {
                return bad(
                    "a dip balance went below zero",
                    format!(
                        "{} spent {used} of {allowance}: {:?}",
                        map.power(p).name,
                        dips::spent(judge, g, p)
                    ),
                );
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Building mails.

/// How a body is put in the mail.
#[derive(Clone, Copy)]
enum Wrap {
    Plain,
    LfOnly,
    Base64,
    QuotedPrintable,
    Html,
    Alternative,
    Latin1,
    Attachment,
    Bom,
}

struct Draft {
    /// Header lines in order, without line ends.
    headers: Vec<Vec<u8>>,
    body: Vec<u8>,
    wrap: Wrap,
}

impl Draft {
    fn new(from: &str, subject: &str, id: &str, body: &str) -> Draft {
        Draft {
            headers: vec![
                format!("From: {from}").into_bytes(),
                format!("To: {JUDGE}").into_bytes(),
                format!("Subject: {subject}").into_bytes(),
                format!("Message-ID: <{id}>").into_bytes(),
            ],
            body: body.as_bytes().to_vec(),
            wrap: Wrap::Plain,
        }
    }

    fn set(&mut self, name: &str, value: Option<Vec<u8>>) {
        let prefix = format!("{name}:").to_ascii_lowercase();
        self.headers
            .retain(|h| !h.to_ascii_lowercase().starts_with(prefix.as_bytes()));
        if let Some(v) = value {
            let mut line = format!("{name}: ").into_bytes();
            line.extend(v);
            self.headers.push(line);
        }
    }

    fn add(&mut self, line: impl Into<Vec<u8>>) {
        self.headers.push(line.into());
    }

    fn render(&self) -> Vec<u8> {
        let eol: &[u8] = if matches!(self.wrap, Wrap::LfOnly) {
            b"\n"
        } else {
            b"\r\n"
        };
        let crlf = |text: &[u8]| -> Vec<u8> {
            let mut out = Vec::with_capacity(text.len() + text.len() / 20);
            for (i, line) in text.split(|&b| b == b'\n').enumerate() {
                if i > 0 {
                    out.extend_from_slice(eol);
                }
                out.extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
            }
            out
        };
        let mut out = Vec::new();
        for h in &self.headers {
            out.extend_from_slice(h);
            out.extend_from_slice(eol);
        }
        let text_lines = || String::from_utf8_lossy(&self.body).into_owned();
        match self.wrap {
            Wrap::Plain | Wrap::LfOnly => {
                out.extend_from_slice(eol);
                out.extend(crlf(&self.body));
            }
            Wrap::Bom => {
                out.extend_from_slice(b"Content-Type: text/plain; charset=utf-8\r\n\r\n");
                out.extend_from_slice("\u{feff}".as_bytes());
                out.extend(crlf(&self.body));
            }
            Wrap::Base64 => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n",
                );
                let encoded = base64(&crlf(&self.body));
                for chunk in encoded.as_bytes().chunks(76) {
                    out.extend_from_slice(chunk);
                    out.extend_from_slice(b"\r\n");
                }
            }
            Wrap::QuotedPrintable => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n",
                );
                out.extend(quoted_printable(&crlf(&self.body)));
            }
            Wrap::Html => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body>",
                );
                for line in text_lines().lines() {
                    out.extend_from_slice(format!("<p>{}</p>\r\n", html_escape(line)).as_bytes());
                }
                out.extend_from_slice(b"</body></html>\r\n");
            }
            Wrap::Alternative => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n",
                );
                out.extend(crlf(&self.body));
                out.extend_from_slice(
                    b"\r\n--zz\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>",
                );
                out.extend_from_slice(html_escape(&text_lines()).as_bytes());
                out.extend_from_slice(b"</p>\r\n--zz--\r\n");
            }
            Wrap::Latin1 => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n",
                );
                let latin: Vec<u8> = text_lines()
                    .chars()
                    .map(|c| {
                        if (c as u32) < 256 {
                            c as u32 as u8
                        } else {
                            b'?'
                        }
                    })
                    .collect();
                out.extend(crlf(&latin));
            }
            Wrap::Attachment => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\npreamble\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n",
                );
                out.extend(crlf(&self.body));
                out.extend_from_slice(
                    b"\r\n--b1\r\nContent-Type: application/octet-stream; name=\"orders.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\nAAEC/wD+3q2+7w==\r\n--b1--\r\n",
                );
            }
        }
        out
    }
}

fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            if k <= c.len() {
                out.push(T[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn quoted_printable(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut col = 0;
    for &b in bytes {
        if b == b'\r' || b == b'\n' {
            out.push(b);
            col = 0;
            continue;
        }
        let piece = if (33..=126).contains(&b) && b != b'=' || b == b' ' {
            vec![b]
        } else {
            format!("={b:02X}").into_bytes()
        };
        if col + piece.len() > 75 {
            out.extend_from_slice(b"=\r\n");
            col = 0;
        }
        col += piece.len();
        out.extend(piece);
    }
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Odd pieces of text: byte-order marks, NUL, direction marks, combining marks, emoji,
/// header syntax, quote and signature markers.
const ODD: &[&str] = &[
    "\u{feff}",
    "\u{0}",
    "\u{202e}",
    "\u{200b}",
    "é",
    "ß",
    "İ",
    "ﬁ",
    "🦀",
    "👨‍👩‍👧",
    "e\u{301}",
    "\r",
    "\t",
    "\u{1b}[31m",
    "日本語",
    "\u{fffd}",
    "\u{ffff}",
    "\u{10ffff}",
    "Ⅻ",
    "\u{85}",
    "\u{2028}",
    "> ",
    "-- ",
    "//",
    "?",
    "@",
    "<",
    ">",
    "\"",
    ",",
    ";",
    ":",
    "=?utf-8?B?",
    "?=",
    "%s",
    "{{ judge }}",
    "{% if %}",
    "\\",
    "'",
    " ",
    "-",
    "/",
    "ENDPRESS",
    "SIGNOFF",
];

fn unicode(rng: &mut Rng, max: usize) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(max + 1) {
        match rng.below(4) {
            0 => s.push_str(rng.pick::<&str>(ODD)),
            1 => {
                if let Some(c) = char::from_u32(rng.below(0x11_0000) as u32) {
                    s.push(c);
                }
            }
            2 => s.push(*rng.pick(&['a', 'Z', '1', ' ', '-', 'é', 'ö', 'Ж'])),
            _ => s.push(b"abcdefghijklmnopqrstuvwxyz0123456789 "[rng.below(37)] as char),
        }
    }
    s
}

fn bytes(rng: &mut Rng, max: usize) -> Vec<u8> {
    (0..rng.below(max + 1))
        .map(|_| match rng.below(6) {
            0 => *rng.pick(&[
                0u8, 0xff, 0xfe, 0x80, 0xc3, 0xe2, 0xed, 0xf4, 0xf8, b'\r', b'\n',
            ]),
            1 => b'\n',
            _ => rng.below(256) as u8,
        })
        .collect()
}

fn word(rng: &mut Rng) -> String {
    let n = 3 + rng.below(6);
    (0..n)
        .map(|_| b"abcdefghijklmnopqrstuvwxyz0123456789"[rng.below(36)] as char)
        .collect()
}

// ---------------------------------------------------------------------------------------
// Extreme and ordinary arguments.

const DATES: &[&str] = &[
    "9999-12-31",
    "9999-12-31 23:59",
    "1970-01-01",
    "1970-01-01 00:00",
    "0000-01-01",
    "262143-12-31",
    "+262143-12-31",
    "-262144-01-01",
    "-0001-01-01",
    "2026-02-30",
    "2026-12-24 18:00",
    "24 Dec 2026 18:00",
    "Dec 24 18:00",
    "24 Dec",
    "31 Feb",
    "18:00",
    "25:61",
    "24:00",
    "00:00",
    "+0m",
    "+1m",
    "+2d",
    "+36h",
    "+99999999999d",
    "+106751991167d",
    "+106751991168d",
    "+9999999999999999999d",
    "+153722867280912930m",
    "+1d1d1d1d1d",
    "4294967295",
    "4294967296 Jan 1",
    "1 jan 2147483647",
    "1 jan 2147483648",
    "99999 Jan 1",
    "Mon",
    "sunday 2026-12-06",
    "tomorrow",
    "",
    "2026-12-24 TO 2027-01-02",
    "1 Jan 1 00:01",
    "29 Feb 2027",
    "29 Feb",
    "2026-12-06 02:30",
];

const DURATIONS: &[&str] = &[
    "7d",
    "2d",
    "1d",
    "36h",
    "90m",
    "1d12h",
    "0m",
    "0d",
    "1m",
    "59s",
    "-5d",
    "d",
    "",
    "99999999999d",
    "999999999999d",
    "106751991167d",
    "106751991168d",
    "9223372036854775807m",
    "153722867280912930m",
    "99999999h",
    "2562047788015215h",
    "1d1d1d1d1d1d1d1d1d1d",
    "５d",
    "1w",
];

const CLOCKS: &[&str] = &[
    "18:00", "00:00", "23:59", "25:61", "24:00", "12:60", "-1:00", "7:5", "1800", "",
];

const MASKS: &[&str] = &[
    "-MTWTF-",
    "SMTWTFS",
    "-------",
    "S------",
    "------S",
    "S",
    "XXXXXXXX",
    "ÄÖÜÄÖÜÄ",
    "-M-W-F-",
];

const ZONES: &[&str] = &[
    "UTC",
    "Europe/London",
    "America/New_York",
    "Mars/Olympus",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Etc/GMT+12",
    "Etc/GMT-14",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "America/Santiago",
    "America/Havana",
    "Asia/Tehran",
    "Africa/Casablanca",
    "europe/paris",
    "Local",
    "+05:00",
    "../../etc/passwd",
];

const SWITCHES: &[&str] = &[
    "remote_builds",
    "home_builds",
    "victory=1",
    "victory=0",
    "victory=-3",
    "victory=99999999999999999999",
    "victory=18",
    "last_year=0",
    "last_year=-2147483648",
    "last_year=2147483647",
    "last_year=1902",
    "last_year=x",
    "ocean_convoys",
    "no_ocean_convoys",
    "portage",
    "conversion",
    "army_fleets",
    "fast_ferry_only",
    "several_powers",
    "dip_points",
    "no_such_rule",
];

/// The switches of [`SWITCHES`] that refuse the creation of a game.
const REFUSED: &[&str] = &[
    "victory=0",
    "victory=-3",
    "victory=99999999999999999999",
    "last_year=x",
    "no_such_rule",
];

// ---------------------------------------------------------------------------------------
// The generator: a scenario's steps, chosen from the games as they stand.

struct Gen {
    rng: Rng,
    seed: u64,
    /// Mails made so far (for Message-IDs).
    n: u64,
    now: DateTime<Utc>,
    /// Password hashes herald stored, with the password when it is one the test chose.
    known: HashMap<String, Option<String>>,
    /// argon2 for learning them, apart from herald's (whose work is budgeted per hour).
    passwords: Passwords,
    /// Passwords used in the step being made, with the address of the mail that used them
    /// (to learn the new hashes after it).
    used: Vec<(Option<String>, String)>,
    /// Mails sent so far, for redelivery.
    sent: Vec<Vec<u8>>,
    /// Games made by the test, per variant: the current name.
    ours: BTreeMap<&'static str, String>,
    /// Games created so far (for fresh names).
    created: usize,
}

/// A power of a running game, as the generator sees it.
struct Seat<'a> {
    game: &'a Game,
    power: PowerId,
    letter: char,
    address: String,
    password: Option<String>,
    state: SeatState,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            seed,
            n: 0,
            now: start_time(),
            known: HashMap::new(),
            passwords: Passwords::default(),
            used: Vec::new(),
            sent: Vec::new(),
            ours: BTreeMap::new(),
            created: 0,
        }
    }

    fn id(&mut self) -> String {
        self.n += 1;
        format!("s{}.{}@fuzz.test", self.seed, self.n)
    }

    fn password(&mut self) -> String {
        let pw = match self.rng.below(12) {
            0 => unicode(&mut self.rng, 6).replace(char::is_whitespace, "x"),
            1 => "x".repeat(1 + self.rng.below(300)),
            _ => format!("pw{}", word(&mut self.rng)),
        };
        let pw = if pw.is_empty() { "e".to_string() } else { pw };
        self.used.push((None, pw.clone()));
        pw
    }

    fn player(&mut self) -> String {
        let i = self.rng.below(PLAYERS);
        match self.rng.below(10) {
            0 => format!("P{i}@Example.ORG"),
            1 => format!("\"Player {i}\" <p{i}@example.org>"),
            _ => format!("p{i}@example.org"),
        }
    }

    fn stranger(&mut self) -> String {
        match self.rng.below(8) {
            0 => format!("{}@example.net", unicode(&mut self.rng, 8)),
            1 => "\"Ünïcødé Nämé\" <uni@example.net>".into(),
            2 => format!("s{}@example.net", self.rng.below(5)),
            _ => format!("{}@example.net", word(&mut self.rng)),
        }
    }

    /// Learns the hashes herald stored in the last step. A new hash on an address that used
    /// one password in the step is that password; otherwise the step's passwords are tried
    /// (argon2 is slow, so this is kept for the rare case).
    fn learn(&mut self, games: &[Game]) {
        let used = std::mem::take(&mut self.used);
        for g in games {
            let members = std::iter::once(&g.master)
                .chain(g.seats.iter().map(|s| &s.member))
                .chain(&g.observers);
            for m in members {
                if self.known.contains_key(&m.password) {
                    continue;
                }
                let theirs: Vec<&String> = used
                    .iter()
                    .filter(|(a, _)| a.as_deref() == Some(m.address.as_str()))
                    .map(|(_, pw)| pw)
                    .collect();
                let pw = match theirs.as_slice() {
                    [pw] => Some((*pw).clone()),
                    _ => used
                        .iter()
                        .rev()
                        .map(|(_, pw)| pw)
                        .find(|pw| self.passwords.verify(&m.password, pw))
                        .cloned(),
                };
                self.known.insert(m.password.clone(), pw);
            }
        }
    }

    fn pw_of(&self, hash: &str) -> Option<String> {
        self.known.get(hash).cloned().flatten()
    }

    /// The next step.
    fn step(&mut self, judge: &Judge, games: &[Game]) -> Step {
        // Each of our games: a fresh one when the last has finished (or at the start).
        for v in VARIANTS {
            let missing = match self.ours.get(v) {
                None => true,
                Some(name) => games
                    .iter()
                    .find(|g| &g.name == name)
                    .is_none_or(|g| g.status == Status::Finished && self.rng.odds(1, 20)),
            };
            if missing {
                return Step::Mails(vec![self.create(v)]);
            }
        }
        // Games of ours still forming fill up quickly: players join a few at a time.
        let forming: Vec<&Game> = games
            .iter()
            .filter(|g| g.status == Status::Forming && self.ours.values().any(|n| *n == g.name))
            .collect();
        if !forming.is_empty() && self.rng.odds(3, 4) {
            let g = *self.rng.pick(&forming);
            let n = 1 + self.rng.below(6);
            let mut joined: Vec<String> = Vec::new();
            let mut mails = Vec::new();
            for _ in 0..n {
                let m = self.join(judge, g, &joined);
                joined.extend(read_letter(&m).map(|l| l.reply_to));
                mails.push(m);
            }
            return Step::Mails(mails);
        }
        match self.rng.weighted(&[310, 70, 25, 30, 10, 5, 10, 1]) {
            7 => Step::Mails(self.flood(judge, games)),
            0 => {
                let n = match self.rng.below(20) {
                    0 => 5 + self.rng.below(6),
                    1..=3 => 2 + self.rng.below(3),
                    _ => 1,
                };
                Step::Mails((0..n).map(|_| self.mail(judge, games)).collect())
            }
            1 => {
                self.now += Duration::minutes(self.rng.range(1, 120));
                Step::Jump(self.now)
            }
            2 => {
                self.now += Duration::hours(self.rng.range(1, 96));
                Step::Jump(self.now)
            }
            3 => {
                let every = *self.rng.pick(&[20, 50, 50, 60]);
                let to = self.now + Duration::minutes(every * self.rng.range(2, 40));
                self.now = to;
                Step::Sweep(to, every)
            }
            4 => {
                self.now += match self.rng.below(4) {
                    0 => Duration::days(365 * self.rng.range(1, 40)),
                    _ => Duration::days(self.rng.range(4, 30)),
                };
                Step::Jump(self.now)
            }
            5 => {
                // Deliberately back a little, as a clock corrected by NTP.
                self.now -= Duration::minutes(self.rng.range(1, 90));
                Step::Jump(self.now)
            }
            _ => {
                self.now += Duration::hours(self.rng.range(1, 24 * 10));
                Step::Keeper(self.now)
            }
        }
    }

    fn create(&mut self, variant: &'static str) -> Vec<u8> {
        self.created += 1;
        let name = format!("{}{}", &variant[..3], self.created);
        self.ours.insert(variant, name.clone());
        let pw = self.password();
        let mut line = format!("CREATE ?{name} {pw} {variant}");
        if self.rng.odds(1, 6) {
            // Not a switch that refuses the game: that would keep the variant out of play.
            let s = *self.rng.pick(SWITCHES);
            if !REFUSED.contains(&s) {
                let _ = write!(line, " {s}");
            }
        }
        let id = self.id();
        let body = format!("{line}\nSET PRESS GREY\nLIST {name}\n");
        let master = format!("gm{}@example.org", self.rng.below(3));
        self.finish(Draft::new(&master, "new game", &id, &body))
    }

    /// Finishes a mail: sometimes odd headers or encodings; remembers it for redelivery.
    fn finish(&mut self, mut d: Draft) -> Vec<u8> {
        if self.rng.odds(1, 8) {
            d.wrap = *self.rng.pick(&[
                Wrap::Plain,
                Wrap::LfOnly,
                Wrap::Base64,
                Wrap::QuotedPrintable,
                Wrap::Html,
                Wrap::Alternative,
                Wrap::Latin1,
                Wrap::Attachment,
                Wrap::Bom,
            ]);
        }
        if self.rng.odds(1, 10) {
            match self.rng.below(12) {
                0 => d.set(
                    "Date",
                    Some(
                        self.rng
                            .pick(&[
                                "Thu, 01 Jan 1970 00:00:00 +0000",
                                "Fri, 31 Dec 9999 23:59:59 +9959",
                                "yesterday",
                                "",
                                "Mon, 32 Foo 2026 99:99:99 GMT",
                            ])
                            .as_bytes()
                            .to_vec(),
                    ),
                ),
                1 => d.set("Subject", Some(unicode(&mut self.rng, 40).into_bytes())),
                2 => d.set(
                    "Subject",
                    Some(b"=?utf-8?B?w6nDqcOp?= =?iso-8859-1?Q?caf=E9?= =?bogus?X?zz?=".to_vec()),
                ),
                3 => d.set("Subject", Some("s".repeat(5000).into_bytes())),
                4 => d.set("Subject", None),
                5 => d.add(b"X-Junk: \xff\xfe\x00 bytes".to_vec()),
                6 => d.add(format!("X-Long: {}", "y".repeat(20_000))),
                7 => d.add(" folded continuation without a header"),
                8 => d.set("Content-Type", Some(b"text/plain; charset=utf-16".to_vec())),
                9 => d.set(
                    "Content-Type",
                    Some(b"text/plain; charset=x-unknown".to_vec()),
                ),
                10 => d.add("Auto-Submitted: no"),
                _ => d.set("Message-ID", None),
            }
        }
        let raw = d.render();
        self.sent.push(raw.clone());
        self.tag(&raw);
        raw
    }

    /// Notes which address used the passwords of the mail just made.
    fn tag(&mut self, raw: &[u8]) {
        let to = read_letter(raw).map(|l| l.reply_to);
        for (a, _) in self.used.iter_mut().filter(|(a, _)| a.is_none()) {
            a.clone_from(&to);
        }
    }

    fn plain(&mut self, from: &str, subject: &str, body: &str) -> Vec<u8> {
        let id = self.id();
        self.finish(Draft::new(from, subject, &id, body))
    }

    /// One mail, of any kind.
    fn mail(&mut self, judge: &Judge, games: &[Game]) -> Vec<u8> {
        let kind = self
            .rng
            .weighted(&[30, 6, 3, 8, 4, 5, 3, 8, 5, 3, 3, 2, 2, 1, 3, 4]);
        let made = match kind {
            0 => self.orders(judge, games),
            1 => self.player_settings(judge, games),
            2 => self.forming(judge, games),
            3 => self.press(judge, games),
            4 => self.dip_mail(judge, games),
            5 => self.master(judge, games),
            6 => self.takeover(judge, games),
            7 => Some(self.stranger_mail(games)),
            8 => Some(self.garbage()),
            9 => self.duplicate(),
            10 => Some(self.automatic(games)),
            11 => self.impostor(judge, games),
            12 => Some(self.own_address()),
            13 => Some(self.huge(games)),
            14 => self.master_acts(judge, games),
            _ => self.confirming(games),
        };
        match made {
            Some(m) => m,
            None => self.stranger_mail(games),
        }
    }

    /// Someone of a game (its Master, a player, an observer) replies to herald's answer to
    /// confirm the address: `[CONFIRM]` becomes, when the mail is read, the code herald
    /// last sent that address (see `Exec::with_code`); sometimes only in the quoted text.
    fn confirming(&mut self, games: &[Game]) -> Option<Vec<u8>> {
        if games.is_empty() {
            return None;
        }
        let g = self.rng.pick(games);
        let people: Vec<String> = std::iter::once(g.master.address.clone())
            .chain(g.seats.iter().map(|s| s.member.address.clone()))
            .chain(g.observers.iter().map(|o| o.address.clone()))
            .collect();
        let who = self.rng.pick(&people).clone();
        let subject = if self.rng.odds(1, 3) {
            "Re: your answer"
        } else {
            "Re: your answer [CONFIRM]"
        };
        let body = "\n\nOn Tue, 1 Dec 2026, herald wrote:\n> [CONFIRM]\n> the answer\n";
        Some(self.plain(&who, subject, body))
    }

    fn running<'a>(&mut self, games: &'a [Game]) -> Option<&'a Game> {
        let live: Vec<&Game> = games
            .iter()
            .filter(|g| matches!(g.status, Status::Running | Status::Paused))
            .collect();
        if live.is_empty() {
            None
        } else {
            Some(*self.rng.pick(&live))
        }
    }

    fn any_game<'a>(&mut self, games: &'a [Game]) -> Option<&'a Game> {
        if games.is_empty() {
            None
        } else {
            Some(self.rng.pick(games))
        }
    }

    fn seat<'a>(&mut self, judge: &Judge, g: &'a Game) -> Option<Seat<'a>> {
        let seated: Vec<_> = g.seats.iter().filter(|s| s.power.is_some()).collect();
        if seated.is_empty() {
            return None;
        }
        let s = *self.rng.pick(&seated);
        let power = s.power?;
        Some(Seat {
            game: g,
            power,
            letter: judge.map_of(g).power(power).letter,
            address: s.member.address.clone(),
            password: self.pw_of(&s.member.password),
            state: s.state,
        })
    }

    fn signon(&mut self, seat: &Seat) -> String {
        let pw = match &seat.password {
            Some(pw) if !self.rng.odds(1, 60) => pw.clone(),
            _ => self.password(),
        };
        let game = if self.rng.odds(1, 8) {
            seat.game.name.to_ascii_uppercase()
        } else {
            seat.game.name.clone()
        };
        match self.rng.below(20) {
            0 => format!("sign on {}{game} {pw}", seat.letter),
            1 => format!(
                "  signon {}{game}   {pw}  ",
                seat.letter.to_ascii_lowercase()
            ),
            _ => format!("SIGNON {}{game} {pw}", seat.letter),
        }
    }

    /// A power's orders: valid ones from the board, odd ones, and now and then a whole set.
    fn orders(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let g = self.running(games)?;
        let seat = self.seat(judge, g)?;
        let mut body = vec![self.signon(&seat)];
        let pos = g.position.as_ref()?;
        let map = judge.map_of(g);
        let code = judge.variant(g).calendar.code(pos.phase);
        if self.rng.odds(1, 4) {
            body.push(match self.rng.below(6) {
                0 => format!("PHASE {}", judge.variant(g).calendar.show(pos.phase)),
                1 => format!("PHASE {}", self.phase_text()),
                _ => format!("PHASE {code}"),
            });
        }
        let whole = self.rng.odds(1, 3);
        let n = if whole { 40 } else { 1 + self.rng.below(6) };
        let mut orders = board_orders(&mut self.rng, map, pos, seat.power, whole);
        orders.truncate(n);
        for _ in 0..self.rng.below(3) {
            let odd = self.odd_order(map, pos);
            orders.push(odd);
        }
        body.extend(orders);
        if self.rng.odds(1, 6) {
            body.push(
                self.rng
                    .pick(&[
                        "SET WAIT",
                        "SET NOWAIT",
                        "SET DRAW",
                        "SET NODRAW",
                        "CLEAR",
                        "setnowait",
                    ])
                    .to_string(),
            );
        }
        if self.rng.odds(1, 10) {
            body.push("SIGNOFF".into());
            body.push("A Par-Bur after signoff".into());
        }
        if self.rng.odds(1, 10) {
            body.push("-- ".into());
            body.push("My signature, A Lon-Yor".into());
        }
        if self.rng.odds(1, 12) {
            body.push(String::new());
            body.push(format!("On Mon, 1 Dec 2026, herald <{JUDGE}> wrote:"));
            body.push("> A Par-Bur".into());
        }
        let from = if self.rng.odds(1, 10) {
            self.player()
        } else {
            seat.address.clone()
        };
        Some(self.plain(&from, &format!("{} orders", seat.letter), &body.join("\n")))
    }

    fn phase_text(&mut self) -> String {
        self.rng
            .pick(&[
                "S1901M",
                "F1901R",
                "W1901A",
                "W1879A",
                "S1880M",
                "S99999M",
                "Spring 1901 Movement",
                "Fall 2147483647 Retreat",
                "Winter -5 Adjustment",
                "X",
                "S273BCM",
                "Spring 273 B.C. Movement",
                "S0M",
                "S-1M",
                "S2147483648M",
                "🦀",
            ])
            .to_string()
    }

    fn odd_order(&mut self, map: &Map, pos: &Position) -> String {
        let any = |rng: &mut Rng| {
            map.abbr(ProvinceId(rng.below(map.province_count()) as u16))
                .to_string()
        };
        let units: Vec<(ProvinceId, Unit)> = pos.all_units().collect();
        let here = if units.is_empty() {
            any(&mut self.rng)
        } else {
            map.abbr(self.rng.pick(&units).0).to_string()
        };
        let (a, b) = (any(&mut self.rng), any(&mut self.rng));
        match self.rng.below(16) {
            0 => format!("A {here} - {a}"),
            1 => format!("F {here} - {a}/nc"),
            2 => format!("A {here} - {a} - {b} - {a} via convoy"),
            3 => format!("F {here} C A {a} - {b}"),
            4 => format!("A {here} S F {a} - {b}"),
            5 => format!("A/F {here} - {a}"),
            6 => format!("A {here} E F {a}"),
            7 => format!("A {here} D {a}"),
            8 => format!("A {here} converts"),
            9 => format!(
                "{} DIPS S A {a}",
                self.rng.pick(&["4", "0", "-4", "99999999999", "1"])
            ),
            10 => format!("Build {} {a}", self.rng.pick(&["A", "F", "A/F", "X"])),
            11 => format!("Remove A {a}"),
            12 => "Waive".into(),
            13 => unicode(&mut self.rng, 30),
            14 => format!("A {here} P F {a} - {b}"),
            _ => format!("army {} move to {}", map.province(ProvinceId(0)).name, b),
        }
    }

    fn player_settings(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let g = self.running(games)?;
        let seat = self.seat(judge, g)?;
        let mut body = vec![self.signon(&seat)];
        for _ in 0..1 + self.rng.below(3) {
            let line = match self.rng.below(10) {
                0 => {
                    let pw = self.password();
                    format!("SET PASSWORD {pw}")
                }
                1 => format!(
                    "SET ADDRESS {}",
                    self.rng.pick(&[
                        "p3@example.org",
                        "nobody",
                        "a b@c",
                        "new@example.net",
                        "p0@example.org",
                        JUDGE,
                        "JUDGE@herald.test",
                        "a@b@c",
                        "<x@example.org>",
                        "x@example.org,y@example.org",
                        "é@example.org",
                        "x@",
                        "@example.org",
                        "\"q u\"@example.org",
                        "x@[127.0.0.1]",
                        "mailer-daemon@example.org",
                    ])
                ),
                2 => format!(
                    "SET ABSENCE {} TO {}",
                    self.rng.pick(DATES),
                    self.rng.pick(DATES)
                ),
                3 => {
                    let a = self.now + Duration::days(self.rng.range(-3, 40));
                    let b = a + Duration::hours(self.rng.range(-10, 500));
                    format!(
                        "SET ABSENCE {} TO {}",
                        a.format("%Y-%m-%d %H:%M"),
                        b.format("%Y-%m-%d")
                    )
                }
                4 => "SET NOABSENCE".into(),
                5 => "RESIGN".into(),
                6 => format!("SET PREFERENCE {}", unicode(&mut self.rng, 5)),
                7 => format!("SET {}", unicode(&mut self.rng, 10)),
                8 => format!("LIST {}", g.name),
                _ => format!("SUMMARY {}", g.name),
            };
            body.push(line);
        }
        let from = seat.address.clone();
        Some(self.plain(&from, "settings", &body.join("\n")))
    }

    /// Joining forming games, and starting them once full.
    fn forming(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let forming: Vec<&Game> = games
            .iter()
            .filter(|g| g.status == Status::Forming)
            .collect();
        if forming.is_empty() {
            return None;
        }
        let g = *self.rng.pick(&forming);
        Some(self.join(judge, g, &[]))
    }

    /// A player joining a forming game (`others` joined in the same batch), or its Master
    /// starting it once full.
    fn join(&mut self, judge: &Judge, g: &Game, others: &[String]) -> Vec<u8> {
        let powers = judge.variant(g).map.powers.len();
        let several = judge.rules(g).several_powers;
        if g.seats.len() + others.len() >= powers || self.rng.odds(1, 25) {
            let pw = self
                .pw_of(&g.master.password)
                .unwrap_or_else(|| "wrong".into());
            let extra = match self.rng.below(6) {
                0 => format!("\nSET RULE {}", self.rng.pick(SWITCHES)),
                1 => "\nSET NMR".into(),
                2 => format!("\nSET ZONE {}", self.rng.pick(ZONES)),
                3 => format!(
                    "\nSET MOVE NEXT {} GRACE {}",
                    self.rng.pick(DURATIONS),
                    self.rng.pick(DURATIONS)
                ),
                _ => String::new(),
            };
            let gm = g.master.address.clone();
            return self.plain(
                &gm,
                "start",
                &format!("SIGNON M{} {pw}{extra}\nSTART\n", g.name),
            );
        }
        // Someone not yet in the game (or, where one player may hold several powers,
        // sometimes someone who is).
        let taken: Vec<&str> = g
            .seats
            .iter()
            .map(|s| s.member.address.as_str())
            .chain(others.iter().map(String::as_str))
            .collect();
        let free: Vec<String> = (0..PLAYERS)
            .map(|i| format!("p{i}@example.org"))
            .filter(|a| !taken.contains(&a.as_str()) || several && self.rng.odds(1, 8))
            .collect();
        let from = if free.is_empty() || self.rng.odds(1, 20) {
            self.stranger()
        } else {
            self.rng.pick(&free).clone()
        };
        let letters: Vec<char> = judge
            .variant(g)
            .map
            .powers
            .iter()
            .map(|p| p.letter)
            .collect();
        let pref: String = (0..1 + self.rng.below(3))
            .map(|_| *self.rng.pick(&letters))
            .collect();
        let pw = self.password();
        let mut body = format!("SIGNON ?{} {pw}\nSET PREFERENCE {pref}\n", g.name);
        if self.rng.odds(1, 15) {
            body.push_str("RESIGN\n");
        }
        self.plain(&from, "join", &body)
    }

    fn press_block(&mut self, judge: &Judge, g: &Game, broadcast: bool) -> Vec<String> {
        let map = judge.map_of(g);
        let mut letters: Vec<char> = map.powers.iter().map(|p| p.letter).collect();
        letters.extend(['M', 'O', 'Z', '?', 'é']);
        let some: String = (0..1 + self.rng.below(4))
            .map(|_| *self.rng.pick(&letters))
            .collect();
        let colour = *self
            .rng
            .pick(&["", " GREY", " WHITE", " GRAY", " ANONYMOUS"]);
        let head = if broadcast {
            format!("BROADCAST{colour}")
        } else {
            match self.rng.below(6) {
                0 => format!("PRESS TO ALL BUT {some}{colour}"),
                1 => format!("PRESS +{some}{colour}"),
                2 => format!("PRESS -{some}{colour}"),
                3 => format!("PRESS{colour}"),
                _ => format!("PRESS TO {some}{colour}"),
            }
        };
        let mut out = vec![head];
        for _ in 0..self.rng.below(5) {
            out.push(match self.rng.below(6) {
                0 => unicode(&mut self.rng, 60),
                1 => "x".repeat(1 + self.rng.below(3000)),
                2 => String::new(),
                3 => "SIGNON Fxx pw".into(),
                _ => "Shall we keep Burgundy empty this year?".into(),
            });
        }
        if !self.rng.odds(1, 8) {
            out.push(
                self.rng
                    .pick(&["ENDPRESS", "ENDP", "endbroadcast", "END PRESS"])
                    .to_string(),
            );
        }
        out
    }

    fn press(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let g = self.running(games)?;
        let (from, mut body) = if self.rng.odds(1, 5) {
            let pw = self
                .pw_of(&g.master.password)
                .unwrap_or_else(|| "nope".into());
            (
                g.master.address.clone(),
                vec![format!("SIGNON M{} {pw}", g.name)],
            )
        } else {
            let seat = self.seat(judge, g)?;
            (seat.address.clone(), vec![self.signon(&seat)])
        };
        for _ in 0..1 + self.rng.below(2) {
            let broadcast = self.rng.odds(1, 3);
            let block = self.press_block(judge, g, broadcast);
            body.extend(block);
        }
        Some(self.plain(&from, "press", &body.join("\n")))
    }

    /// Dip points: interceptions, protection, standing supports, press (any game; only
    /// those with dip points take them).
    fn dip_mail(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let dipped: Vec<&Game> = games
            .iter()
            .filter(|g| g.status == Status::Running && dips::played(judge, g))
            .collect();
        let g = if dipped.is_empty() {
            self.running(games)?
        } else {
            *self.rng.pick(&dipped)
        };
        let seat = self.seat(judge, g)?;
        let map = judge.map_of(g);
        let pos = g.position.as_ref()?;
        let mut body = vec![self.signon(&seat)];
        let names: Vec<String> = map
            .powers
            .iter()
            .flat_map(|p| [p.letter.to_string(), p.name.clone()])
            .chain(["Z".to_string(), "Nobody".into(), "é".into()])
            .collect();
        let units: Vec<(ProvinceId, Unit)> = pos.all_units().collect();
        for _ in 0..1 + self.rng.below(5) {
            let line = match self.rng.below(6) {
                0 | 1 => format!(
                    "INTERCEPT {} {}",
                    self.rng.pick(&names),
                    self.rng.pick(&names)
                ),
                2 => "PROTECT".into(),
                3 | 4 if !units.is_empty() => {
                    let (p, u) = *self.rng.pick(&units);
                    let adj = if self.rng.odds(1, 3) {
                        format!("{} ", map.power(u.power).adjective)
                    } else {
                        String::new()
                    };
                    format!("4 DIPS S {adj}{} {}", u.kind, map.abbr(p))
                }
                _ => {
                    let broadcast = self.rng.odds(1, 2);
                    let block = self.press_block(judge, g, broadcast);
                    block.join("\n")
                }
            };
            body.push(line);
        }
        let from = seat.address.clone();
        Some(self.plain(&from, "dips", &body.join("\n")))
    }

    /// A Master's commands, with ordinary and extreme arguments.
    fn master(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let g = self.any_game(games)?;
        let pw = match self.pw_of(&g.master.password) {
            Some(pw) if !self.rng.odds(1, 40) => pw,
            _ => self.password(),
        };
        let mut body = vec![format!("SIGNON M{} {pw}", g.name)];
        for _ in 0..1 + self.rng.below(3) {
            let line = self.master_line(judge, g);
            body.push(line);
        }
        let from = g.master.address.clone();
        Some(self.plain(&from, "master", &body.join("\n")))
    }

    fn master_line(&mut self, judge: &Judge, g: &Game) -> String {
        let map = judge.map_of(g);
        let letter = *self.rng.pick(
            &map.powers
                .iter()
                .map(|p| p.letter)
                .chain(['Z', 'M'])
                .collect::<Vec<_>>(),
        );
        let timing = |rng: &mut Rng| {
            let mut words = Vec::new();
            for _ in 0..1 + rng.below(3) {
                match rng.below(5) {
                    0 => words.push(format!("NEXT {}", rng.pick(DURATIONS))),
                    1 => words.push(format!("GRACE {}", rng.pick(DURATIONS))),
                    2 => words.push(format!("AT {}", rng.pick(CLOCKS))),
                    3 => words.push(format!("DAYS {}", rng.pick(MASKS))),
                    _ => words.push(rng.pick(&["NEXT", "BOGUS 1d", "AT"]).to_string()),
                }
            }
            words.join(" ")
        };
        match self.rng.weighted(&[
            8, 6, 3, 4, 4, 3, 3, 3, 6, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 1, 2, 1, 3,
        ]) {
            0 => "PROCESS!".into(),
            1 => "PROCESS".into(),
            2 => format!("PROCESS {}", self.phase_text()),
            3 => "PAUSE".into(),
            4 => "RESUME".into(),
            5 => format!("SET DEADLINE {}", self.rng.pick(DATES)),
            6 => format!("SET GRACE {}", self.rng.pick(DATES)),
            7 => format!("SET START {}", self.rng.pick(DATES)),
            8 => {
                let t = self.now + Duration::minutes(self.rng.range(-3000, 20000));
                let what = *self.rng.pick(&["DEADLINE", "GRACE", "START"]);
                format!("SET {what} {}", t.format("%Y-%m-%d %H:%M"))
            }
            9 => format!("SET MOVE {}", timing(&mut self.rng)),
            10 => format!("SET RETREAT {}", timing(&mut self.rng)),
            11 => format!("SET ADJUST {}", timing(&mut self.rng)),
            12 => format!("SET ZONE {}", self.rng.pick(ZONES)),
            13 => self
                .rng
                .pick(&["SET NMR", "SET NONMR", "SET CD"])
                .to_string(),
            14 => self
                .rng
                .pick(&[
                    "SET PRESS GREY",
                    "SET PRESS WHITE",
                    "SET PRESS NONE",
                    "SET PRESS",
                    "SET NOPRESS",
                ])
                .to_string(),
            15 => self.rng.pick(&["SET PARTIAL", "SET NOPARTIAL"]).to_string(),
            16 => format!("EJECT {letter}"),
            17 => {
                let code = if g.history.is_empty() || self.rng.odds(1, 4) {
                    self.phase_text()
                } else {
                    let phase = self.rng.pick(&g.history).phase();
                    judge.variant(g).calendar.code(phase)
                };
                format!("ROLLBACK {code}")
            }
            18 => "PREVIEW".into(),
            19 => "TERMINATE".into(),
            20 => format!("SET RULE {}", self.rng.pick(SWITCHES)),
            21 => "START".into(),
            _ => format!(
                "BECOME {letter}\nA {} H",
                map.abbr(ProvinceId(self.rng.below(map.province_count()) as u16))
            ),
        }
    }

    /// The Master acting for a power (BECOME) with orders from the board.
    fn master_acts(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let g = self.running(games)?;
        let seat = self.seat(judge, g)?;
        let pos = g.position.as_ref()?;
        let pw = self.pw_of(&g.master.password)?;
        let mut body = vec![
            format!("SIGNON M{} {pw}", g.name),
            format!("BECOME {}", seat.letter),
        ];
        body.extend(board_orders(
            &mut self.rng,
            judge.map_of(g),
            pos,
            seat.power,
            true,
        ));
        if self.rng.odds(1, 2) {
            body.push("PROCESS".into());
        }
        let from = g.master.address.clone();
        Some(self.plain(&from, "become", &body.join("\n")))
    }

    /// Taking over an abandoned power, or resigning one.
    fn takeover(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let g = self.running(games)?;
        let seat = self.seat(judge, g)?;
        if seat.state == SeatState::Abandoned {
            let pw = self.password();
            let from = self.player();
            let body = format!("SIGNON {}{} {pw}\nLIST {}\n", seat.letter, g.name, g.name);
            return Some(self.plain(&from, "takeover", &body));
        }
        let line = self.signon(&seat);
        let from = seat.address.clone();
        let what = if self.rng.odds(1, 2) {
            "RESIGN"
        } else {
            "WITHDRAW"
        };
        Some(self.plain(&from, "resign", &format!("{line}\n{what}\n")))
    }

    /// A player or stranger trying Master commands, or a wrong password.
    fn impostor(&mut self, judge: &Judge, games: &[Game]) -> Option<Vec<u8>> {
        let g = self.any_game(games)?;
        let mut body = Vec::new();
        let from = match self.seat(judge, g) {
            Some(seat) if self.rng.odds(1, 2) => {
                body.push(self.signon(&seat));
                seat.address.clone()
            }
            _ => {
                let pw = self.password();
                body.push(format!("SIGNON M{} {pw}", g.name));
                self.stranger()
            }
        };
        for _ in 0..1 + self.rng.below(3) {
            let line = self.master_line(judge, g);
            body.push(line);
        }
        Some(self.plain(&from, "not the master", &body.join("\n")))
    }

    /// Someone not in any game: the commands anyone may send, and more.
    fn stranger_mail(&mut self, games: &[Game]) -> Vec<u8> {
        let name = match games.is_empty() || self.rng.odds(1, 5) {
            true => word(&mut self.rng),
            false => self.rng.pick(games).name.clone(),
        };
        let mut body = Vec::new();
        for _ in 0..1 + self.rng.below(3) {
            body.push(match self.rng.below(16) {
                0 => "HELP".to_string(),
                1 => format!(
                    "GET {}",
                    self.rng.pick(&[
                        "info",
                        "syntax",
                        "press",
                        "deadlines",
                        "master",
                        "variants",
                        "nothing",
                        "../../etc/passwd",
                        "{{x}}"
                    ])
                ),
                2 => format!(
                    "GET MAP {}",
                    self.rng.pick(&[
                        "standard",
                        "world1880",
                        "deluge",
                        "classical",
                        "portage",
                        "nosuch",
                        &name
                    ])
                ),
                3 => "LIST".into(),
                4 => format!("LIST {name}"),
                5 => format!("HISTORY {name}"),
                6 => format!("SUMMARY {name}"),
                7 => "VERSION".into(),
                8 => {
                    let pw = self.password();
                    format!("OBSERVE {name} {pw}")
                }
                9 if self.rng.odds(1, 4) => {
                    let n = match self.rng.below(4) {
                        0 => unicode(&mut self.rng, 14),
                        1 => "x".repeat(13),
                        _ => word(&mut self.rng),
                    };
                    let pw = self.password();
                    let v = *self
                        .rng
                        .pick(&["standard", "nosuch", "", "classical", "world1880"]);
                    let s = *self.rng.pick(SWITCHES);
                    format!("CREATE ?{n} {pw} {v} {s}")
                }
                9 | 10 => {
                    self.used.push((None, "pw".into()));
                    format!("SIGNON ?{name} {}", self.rng.pick(&["pw", ""]))
                }
                11 => format!(
                    "SIGNON {} {}",
                    unicode(&mut self.rng, 6),
                    unicode(&mut self.rng, 6)
                ),
                12 => "A Par-Bur".into(),
                13 => unicode(&mut self.rng, 40),
                14 => "SET WAIT".into(),
                _ => "PRESS TO F\nhello\nENDPRESS".into(),
            });
        }
        let from = if self.rng.odds(1, 3) {
            self.player()
        } else {
            self.stranger()
        };
        self.plain(&from, "hello", &body.join("\n"))
    }

    /// Mails that are hardly mails: raw bytes, broken headers, odd addresses.
    fn garbage(&mut self) -> Vec<u8> {
        let id = self.id();
        let raw = match self.rng.below(14) {
            0 => bytes(&mut self.rng, 400),
            1 => {
                let mut r =
                    format!("From: {}\r\nMessage-ID: <{id}>\r\n\r\n", self.stranger()).into_bytes();
                r.extend(bytes(&mut self.rng, 600));
                r
            }
            2 => Vec::new(),
            3 => b"\r\n\r\n".to_vec(),
            4 => format!("From: x@example.net\r\nMessage-ID: <{id}>\r\nSubject: no body")
                .into_bytes(),
            5 => {
                let mut d = Draft::new(
                    &self.stranger(),
                    "unicode",
                    &id,
                    &unicode(&mut self.rng, 300),
                );
                d.wrap = Wrap::LfOnly;
                d.render()
            }
            6 => {
                let from = *self.rng.pick(&[
                    "<>",
                    "",
                    "a@b, c@d",
                    "<a@b>@c",
                    "no address at all",
                    "\"quoted\"@example.net",
                    "ann@",
                    "@example.org",
                    "ann@example.org (Ann)",
                    "=?utf-8?B?w6k=?= <e@example.net>",
                    "p1@example.org\0",
                ]);
                Draft::new(from, "odd from", &id, "HELP\nLIST\n").render()
            }
            7 => {
                let mut d = Draft::new("p2@example.org", "odd reply-to", &id, "LIST\n");
                let rt = *self.rng.pick(&[
                    JUDGE,
                    "JUDGE@HERALD.TEST",
                    "a@b, c@d",
                    "<>",
                    "",
                    "p5@example.org",
                    "not an address",
                ]);
                d.set("Reply-To", Some(rt.as_bytes().to_vec()));
                d.render()
            }
            8 => {
                let mid = self.rng.pick(&[
                    "",
                    "<>",
                    "<a b@c>",
                    "no-brackets@x",
                    "<é@ü>",
                    "<x@y> <z@w>",
                    "<\0@x>",
                ]);
                let mut d = Draft::new("p4@example.org", "odd id", &id, "VERSION\n");
                d.set("Message-ID", Some(mid.as_bytes().to_vec()));
                let long = format!("<{}@x>", "i".repeat(3000));
                if self.rng.odds(1, 4) {
                    d.set("Message-ID", Some(long.into_bytes()));
                }
                d.render()
            }
            9 => {
                // Long lines, NUL and a BOM in the body.
                let body = format!(
                    "\u{feff}HELP\u{0}\n{}\nLIST\n{}\n",
                    "A Par-Bur ".repeat(3000),
                    "\u{0}".repeat(100)
                );
                Draft::new(&self.player(), "long", &id, &body).render()
            }
            10 => {
                let mut r = format!(
                    "From: p6@example.org\r\nMessage-ID: <{id}>\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                )
                .into_bytes();
                r.extend_from_slice(b"!!!not base64 at all===\r\nSElFTFA=\r\n");
                r
            }
            11 => {
                let mut r = format!(
                    "From: p7@example.org\r\nMessage-ID: <{id}>\r\nContent-Type: multipart/mixed; boundary=\"unclosed\"\r\n\r\n--unclosed\r\nContent-Type: text/plain\r\n\r\nHELP\r\n"
                )
                .into_bytes();
                r.extend(bytes(&mut self.rng, 100));
                r
            }
            12 => {
                let mut r = format!("From: p8@example.org\r\nMessage-ID: <{id}>\r\n").into_bytes();
                r.extend_from_slice(b"Subject: \xff\xfe\r\n\r\nHELP\r\n");
                r.extend(bytes(&mut self.rng, 50));
                r
            }
            _ => {
                let mut d = Draft::new(&self.player(), "html", &id, "SIGNON Fx pw\nA Par-Bur\n");
                d.wrap = Wrap::Html;
                d.add(b"X-Bytes: \x80\x81".to_vec());
                d.render()
            }
        };
        self.sent.push(raw.clone());
        raw
    }

    /// A mail delivered again: the same bytes, or the same Message-ID with another body.
    fn duplicate(&mut self) -> Option<Vec<u8>> {
        if self.sent.is_empty() {
            return None;
        }
        let k = self.sent.len() - 1 - self.rng.below(self.sent.len().min(30));
        let old = self.sent[k].clone();
        if self.rng.odds(1, 2) {
            return Some(old);
        }
        let text = String::from_utf8_lossy(&old);
        let id_line = text
            .split("\r\n")
            .chain(text.split('\n'))
            .find(|l| l.to_ascii_lowercase().starts_with("message-id:"))?
            .trim_end_matches('\r')
            .to_string();
        let raw = format!(
            "From: {}\r\n{id_line}\r\nSubject: again\r\n\r\nTERMINATE\r\nPROCESS!\r\nLIST\r\n",
            self.player()
        )
        .into_bytes();
        self.sent.push(raw.clone());
        Some(raw)
    }

    /// Auto-replies, bounces and mailer daemons.
    fn automatic(&mut self, games: &[Game]) -> Vec<u8> {
        let id = self.id();
        let addr = games
            .iter()
            .flat_map(|g| g.seats.iter().map(|s| s.member.address.clone()))
            .next()
            .unwrap_or_else(|| "p1@example.org".into());
        let raw = match self.rng.below(6) {
            0 => {
                let mut d = Draft::new(&self.player(), "Out of office", &id, "I am away.\nSIGNON Mx y\nTERMINATE\n");
                d.add(*self.rng.pick(&["Auto-Submitted: auto-replied", "Auto-Submitted: auto-generated", "Precedence: bulk", "Precedence: junk"]));
                d.render()
            }
            1 => Draft::new("MAILER-DAEMON@mx.example.org", "Undelivered", &id, "HELP\n").render(),
            2 => {
                let mut d = Draft::new("postmaster@example.org", "failure", &id, "LIST\n");
                d.add("Return-Path: <>");
                d.render()
            }
            3 => {
                let mut d = Draft::new("p9@example.org", "bounce", &id, "HELP\n");
                d.add("Return-Path: <>");
                d.render()
            }
            _ => format!(
                "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\r\nTo: {JUDGE}\r\nSubject: Undelivered Mail\r\nMessage-ID: <{id}>\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; {addr}\r\nAction: failed\r\nStatus: 5.1.1\r\n--b--\r\n"
            )
            .into_bytes(),
        };
        self.sent.push(raw.clone());
        raw
    }

    /// Mail from herald's own address (a loop, or a forgery).
    fn own_address(&mut self) -> Vec<u8> {
        let from = *self
            .rng
            .pick(&[JUDGE, "Judge@Herald.Test", "herald <judge@herald.test>"]);
        self.plain(from, "Re: orders", "HELP\nLIST\nCREATE ?loop pw\n")
    }

    /// A flood: more mails from one address at once than the reply limit lets herald
    /// answer, junk from an address of its own (`@flood.test`, never signed on anywhere), or
    /// a player's orders.
    fn flood(&mut self, judge: &Judge, games: &[Game]) -> Vec<Vec<u8>> {
        let n = 55 + self.rng.below(20);
        if self.rng.odds(1, 3) {
            if let Some(g) = self.running(games) {
                if let (Some(seat), Some(pos)) = (self.seat(judge, g), &g.position) {
                    let map = judge.map_of(g);
                    return (0..n)
                        .map(|_| {
                            let mut body = vec![self.signon(&seat)];
                            body.extend(board_orders(&mut self.rng, map, pos, seat.power, false));
                            self.plain(&seat.address, "orders", &body.join("\n"))
                        })
                        .collect();
                }
            }
        }
        let from = format!("f{}@flood.test", self.rng.below(3));
        (0..n)
            .map(|_| {
                let body = match self.rng.below(4) {
                    0 => "HELP".to_string(),
                    1 => "LIST".to_string(),
                    2 => "A Par-Bur".to_string(),
                    _ => unicode(&mut self.rng, 20),
                };
                self.plain(&from, "flood", &body)
            })
            .collect()
    }

    /// A mail over the size limit.
    fn huge(&mut self, games: &[Game]) -> Vec<u8> {
        let name = games.first().map(|g| g.name.clone()).unwrap_or_default();
        let body = format!("LIST {name}\n{}\n", "z".repeat(300 * 1024));
        let from = self.player();
        self.plain(&from, "big", &body)
    }
}

/// Orders for a power from the board: moves to neighbours, holds, supports, convoys,
/// retreats, builds and removals, as players write them. With `whole`, one for each unit
/// (or as many builds as due).
fn board_orders(
    rng: &mut Rng,
    map: &Map,
    pos: &Position,
    power: PowerId,
    whole: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    match pos.phase.kind {
        PhaseKind::Movement => {
            let mine: Vec<(ProvinceId, Unit)> =
                pos.all_units().filter(|(_, u)| u.power == power).collect();
            let all: Vec<(ProvinceId, Unit)> = pos.all_units().collect();
            for &(p, u) in &mine {
                if !whole && rng.odds(1, 2) {
                    continue;
                }
                let here = map.region_abbr(u.region);
                let kind = u.kind;
                let dest = neighbour(rng, map, u);
                let line = match rng.below(9) {
                    0 => format!("{kind} {here} H"),
                    1..=4 => match &dest {
                        Some(d) => format!("{kind} {here} - {d}"),
                        None => format!("{kind} {here} H"),
                    },
                    5 => {
                        let (op, ou) = *rng.pick(&all);
                        format!("{kind} {here} S {} {}", ou.kind, map.abbr(op))
                    }
                    6 => {
                        let (op, ou) = *rng.pick(&all);
                        match neighbour(rng, map, ou) {
                            Some(d) => {
                                format!("{kind} {here} S {} {} - {d}", ou.kind, map.abbr(op))
                            }
                            None => format!("{kind} {here} H"),
                        }
                    }
                    7 if map.province(p).terrain.is_water() => {
                        let (op, _) = *rng.pick(&all);
                        let d = map.abbr(ProvinceId(rng.below(map.province_count()) as u16));
                        format!("F {here} C A {} - {d}", map.abbr(op))
                    }
                    _ => {
                        let (op, ou) = *rng.pick(&all);
                        format!("4 DIPS S {} {}", ou.kind, map.abbr(op))
                    }
                };
                out.push(line);
            }
        }
        PhaseKind::Retreat => {
            for (_, d) in pos.all_dislodged().filter(|(_, d)| d.unit.power == power) {
                let here = map.region_abbr(d.unit.region);
                let kind = d.unit.kind;
                out.push(match neighbour(rng, map, d.unit) {
                    Some(to) if rng.odds(2, 3) => format!("{kind} {here} - {to}"),
                    _ => format!("{kind} {here} disband"),
                });
            }
        }
        PhaseKind::Adjustment => {
            let due = adjustment_count(pos, power);
            let n = if whole {
                due.unsigned_abs() as usize
            } else {
                1 + rng.below(2)
            };
            if due >= 0 {
                let homes: Vec<ProvinceId> = map.power(power).homes.clone();
                for _ in 0..n {
                    if homes.is_empty() || rng.odds(1, 6) {
                        out.push("Waive".into());
                        continue;
                    }
                    let h = *rng.pick(&homes);
                    let kind = if map.province(h).terrain == Terrain::Coast && rng.odds(1, 2) {
                        "F"
                    } else {
                        "A"
                    };
                    let at = match map.province(h).coasts.as_slice() {
                        [] => map.abbr(h).to_string(),
                        coasts if kind == "F" => map.region_abbr(*rng.pick(coasts)),
                        _ => map.abbr(h).to_string(),
                    };
                    out.push(format!("Build {kind} {at}"));
                }
            } else {
                let mine: Vec<(ProvinceId, Unit)> =
                    pos.all_units().filter(|(_, u)| u.power == power).collect();
                for _ in 0..n {
                    if mine.is_empty() {
                        break;
                    }
                    let (p, u) = *rng.pick(&mine);
                    out.push(format!("Remove {} {}", u.kind, map.abbr(p)));
                }
            }
        }
    }
    out
}

/// A space next to a unit that it could move to, as an order writes it.
fn neighbour(rng: &mut Rng, map: &Map, u: Unit) -> Option<String> {
    if u.kind == UnitKind::Army {
        let n = map.army_neighbours(map.province_of(u.region));
        (!n.is_empty()).then(|| map.abbr(*rng.pick(n)).to_string())
    } else {
        let n = map.fleet_neighbours(u.region);
        (!n.is_empty()).then(|| map.region_abbr(*rng.pick(n)))
    }
}

// ---------------------------------------------------------------------------------------
// Scenarios: generate and play, replay, shrink.

/// Plays a seed's scenario of `mails` mails; returns the steps played and the failure.
fn play(seed: u64, mails: usize) -> (Vec<Step>, Exec, Option<Failure>) {
    let mut exec = Exec::new(&format!("fuzz{seed}"));
    let mut gen = Gen::new(seed);
    let mut steps = Vec::new();
    while exec.mails < mails {
        let step = gen.step(exec.judge(), &exec.games);
        steps.push(step.clone());
        if let Err(mut f) = exec.step(&step) {
            f.step = steps.len() - 1;
            return (steps, exec, Some(f));
        }
        gen.learn(&exec.games);
    }
    (steps, exec, None)
}

/// Plays recorded steps on a fresh judge; returns the first failure.
fn replay(name: &str, steps: &[Step]) -> Option<Failure> {
    let mut exec = Exec::new(name);
    for (i, s) in steps.iter().enumerate() {
        if let Err(mut f) = exec.step(s) {
            f.step = i;
            return Some(f);
        }
    }
    None
}

/// Removes steps (and mails from batches) while the same kind of failure remains, for at
/// most `budget`.
fn shrink(seed: u64, steps: Vec<Step>, kind: &str, budget: std::time::Duration) -> Vec<Step> {
    let start = Instant::now();
    let mut best = steps;
    let mut tries = 0;
    QUIET.store(true, Ordering::Relaxed);
    let still = |cand: &[Step], tries: &mut usize| -> Option<usize> {
        *tries += 1;
        replay(&format!("shrink{seed}-{tries}"), cand)
            .filter(|f| f.kind == kind)
            .map(|f| f.step)
    };
    let mut chunk = best.len() / 2;
    while chunk >= 1 && start.elapsed() < budget {
        let mut i = 0;
        while i < best.len() && start.elapsed() < budget {
            let mut cand = best.clone();
            cand.drain(i..(i + chunk).min(cand.len()));
            match still(&cand, &mut tries) {
                Some(at) => {
                    cand.truncate(at + 1);
                    best = cand;
                }
                None => i += chunk,
            }
        }
        chunk /= 2;
    }
    // Then single mails out of the batches that are left.
    let mut i = 0;
    while i < best.len() && start.elapsed() < budget {
        let mut k = 0;
        while best[i].mails() > 1 && k < best[i].mails() && start.elapsed() < budget {
            let mut cand = best.clone();
            if let Step::Mails(m) = &mut cand[i] {
                m.remove(k);
            }
            match still(&cand, &mut tries) {
                Some(at) => {
                    cand.truncate(at + 1);
                    best = cand;
                }
                None => k += 1,
            }
        }
        i += 1;
    }
    QUIET.store(false, Ordering::Relaxed);
    eprintln!(
        "seed {seed}: shrunk to {} steps in {tries} replays, {:.0?}",
        best.len(),
        start.elapsed()
    );
    best
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// The tests the seeds are dealt to: test `k` plays seeds `k`, `k + TESTS`, `k + 2 TESTS`, …
/// as far as `HERALD_FUZZ_MAILS` reaches, so that the harness runs them side by side (one
/// seed of 1,250 mails is about a minute in a test build) and the whole run plays every mail
/// asked for.
const TESTS: u64 = 4;

/// The seeds test `index` plays and the mails of each (all but the last seed are whole).
fn seeds_of(index: u64, total: usize, chosen: Option<u64>) -> Vec<(u64, usize)> {
    if let Some(seed) = chosen {
        // One seed alone, played by the first test.
        return if index == 0 {
            vec![(seed, MAILS_PER_SEED.min(total).max(1))]
        } else {
            Vec::new()
        };
    }
    (0..total.div_ceil(MAILS_PER_SEED) as u64)
        .filter(|seed| seed % TESTS == index)
        .map(|seed| {
            let before = seed as usize * MAILS_PER_SEED;
            (seed, MAILS_PER_SEED.min(total - before))
        })
        .collect()
}

#[test]
fn the_seeds_cover_every_mail_asked_for() {
    for total in [1, 50, 1250, 1251, 5000, 7777] {
        let mut seeds: Vec<(u64, usize)> =
            (0..TESTS).flat_map(|k| seeds_of(k, total, None)).collect();
        seeds.sort_unstable();
        let numbers: Vec<u64> = seeds.iter().map(|s| s.0).collect();
        let expected: Vec<u64> = (0..total.div_ceil(MAILS_PER_SEED) as u64).collect();
        assert_eq!(numbers, expected, "{total} mails");
        assert_eq!(
            seeds.iter().map(|s| s.1).sum::<usize>(),
            total,
            "{total} mails"
        );
    }
    assert_eq!(seeds_of(0, 5000, Some(9)), vec![(9, MAILS_PER_SEED)]);
    assert!(seeds_of(1, 5000, Some(9)).is_empty());
}

/// Plays test `index`'s seeds; a failure prints its seed, its steps (shrunk, for the first),
/// and fails the test.
fn play_seeds(index: u64) {
    install_panic_hook();
    let total = env_number("HERALD_FUZZ_MAILS").unwrap_or(5000) as usize;
    let shrink_budget =
        std::time::Duration::from_secs(env_number("HERALD_FUZZ_SHRINK").unwrap_or(90));
    let seeds = seeds_of(index, total, env_number("HERALD_FUZZ_SEED"));
    let started = Instant::now();
    let mut played = 0;
    let mut asked = 0;
    let mut failures = Vec::new();
    for &(seed, budget) in &seeds {
        asked += budget;
        let t = Instant::now();
        let (steps, exec, failure) = play(seed, budget);
        played += exec.mails;
        let st = &exec.stats;
        let phases: usize = exec.games.iter().map(|g| g.history.len()).sum();
        eprintln!(
            "seed {seed}: work per mail: bytes read and written, median {}, largest {}; argon2 runs, at most {}",
            median(&st.work),
            st.work.iter().max().copied().unwrap_or(0),
            st.argon2
        );
        eprintln!(
            "seed {seed}: {} mails in {} steps, {:.1?}{}: {} handled, {} ignored, {} duplicates, {} unreadable, {} under the reply limit; {} mails sent, {} replies; {} ticks; {} games, {phases} phases played",
            exec.mails,
            steps.len(),
            t.elapsed(),
            if failure.is_some() { " (FAILED)" } else { "" },
            st.handled,
            st.ignored,
            st.duplicates,
            st.unreadable,
            st.limited,
            st.sent,
            st.replies,
            st.ticks,
            exec.games.len(),
        );
        drop(exec);
        let Some(f) = failure else { continue };
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("mail_fuzz-seed{seed}.txt"));
        let _ = std::fs::write(&path, show_steps(&steps, 0, usize::MAX));
        let mut report = format!(
            "seed {seed}, step {}: {}\n  {}\n  all {} steps: {}\n",
            f.step,
            f.kind,
            f.detail,
            steps.len(),
            path.display()
        );
        // The first failure is shrunk; the others show their failing step.
        if !shrink_budget.is_zero() && failures.is_empty() {
            let small = shrink(seed, steps.clone(), &f.kind, shrink_budget);
            let _ = write!(
                report,
                "  shrunk to {} steps (replay with HERALD_FUZZ_SEED={seed}):\n{}",
                small.len(),
                show_steps(&small, 0, 3000)
            );
        } else {
            let _ = write!(
                report,
                "  the failing step:\n{}",
                show_steps(&steps[f.step..=f.step], f.step, 3000)
            );
        }
        eprintln!("{report}");
        failures.push(report);
    }
    eprintln!(
        "test {index}: {played} mails over {} seeds in {:.1?}",
        seeds.len(),
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} seed(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(played >= asked, "{played} mails played, {asked} asked for");
}

#[test]
fn random_mail_against_every_variant_keeps_the_judge_sound_0() {
    play_seeds(0);
}

#[test]
fn random_mail_against_every_variant_keeps_the_judge_sound_1() {
    play_seeds(1);
}

#[test]
fn random_mail_against_every_variant_keeps_the_judge_sound_2() {
    play_seeds(2);
}

#[test]
fn random_mail_against_every_variant_keeps_the_judge_sound_3() {
    play_seeds(3);
}
