//! The judge on its store and mailboxes: one incoming mail handled in one transaction,
//! deadlines swept, the outbox drained. Every entry point takes `now`, so the CLI's `--now`
//! and the tests can replay time.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use tracing::{info, instrument, warn};

use crate::catalog::Catalog;
use crate::config::{Config, ConfigError, InboxKind, OutboxKind};
use crate::envelope::MailKind;
use crate::judge::render::Templates;
use crate::judge::{self, Games, Judge};
use crate::mail::imap::{ImapInbox, ImapSettings};
use crate::mail::maildir::Maildir;
use crate::mail::smtp::{SendError, SmtpOutbox, SmtpSettings};
use crate::mail::Outgoing;
use crate::store::Store;

mod attention;
mod copy;
mod error;
mod games;
pub use games::{summary_of, GameSummary};
mod gate;
mod growth;
mod inbox;
mod ingested;
mod listing;
mod lock;
mod message_id;
mod prune;
mod reply_limit;
use message_id::OutboxIds;
use reply_limit::told_key;
mod servers;
mod sweep;
mod work;

pub use attention::Attention;
pub use error::ServiceError;
pub use ingested::{Ingested, Unanswered};
pub use lock::{lock_path, LockError, RunLock};
pub use work::Work;

/// How many times a mail that keeps failing with a transient error is tried before herald
/// gives up on it and reports it (with retries doubling up to an hour apart, about a day).
pub const MAX_ATTEMPTS: i64 = 30;

/// How often a bounce for one address brings the Masters a notice at most: once a day.
pub const BOUNCE_NOTICE_SECONDS: i64 = 24 * 3600;

/// How often a Maildir inbox is looked at while waiting for mail.
const MAILDIR_LOOK: std::time::Duration = std::time::Duration::from_millis(50);

/// The identity a mail is recorded under when its Message-ID was already taken by a
/// different mail (another body or sender): the ID with the body's hash and the sender.
fn reused_id_key(letter: &crate::mail::Letter) -> String {
    format!(
        "{} {} {}",
        letter.message_id,
        &letter.body_hash[..letter.body_hash.len().min(16)],
        letter.from
    )
}

/// A random mark of 16 hex digits.
fn random_mark() -> String {
    use rand_core::RngCore;
    let mut bytes = [0u8; 8];
    rand_core::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a caught panic said, for the keeper.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "an internal error".into())
}

/// The games `address` is in, by name: for the notices that go to each of them (a bounce,
/// a mail the server refused). The summaries find them; only their states are read.
async fn games_of(tx: &mut crate::store::Tx, address: &str) -> Result<Games, ServiceError> {
    let names = tx.games_with_member(address).await?;
    Ok(tx
        .games_named::<judge::Game>(&names)
        .await?
        .into_iter()
        .map(|g| (g.name.clone(), g))
        .collect())
}

/// Where a tick's time comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The machine's clock, as the daemon reads it: a long gap since the last tick means
    /// herald was down.
    Wall,
    /// A time the keeper gave on purpose (`--now`): no gap is an outage.
    Set,
}

/// The judge with its store and mailboxes.
pub struct Service {
    /// The configuration.
    pub config: Config,
    /// The judge.
    pub judge: Judge,
    /// The database.
    pub store: Store,
    /// Where mail arrives.
    pub inbox: Maildir,
    /// Where mail is written (the Maildir outbox).
    pub outbox: Maildir,
    /// The IMAP inbox, when `[inbox] kind = "imap"`.
    pub imap: Option<tokio::sync::Mutex<ImapInbox>>,
    /// The SMTP sender, when `[outbox] kind = "smtp"`.
    pub smtp: Option<SmtpOutbox>,
    /// What the keeper must put right, in the log and `[storage] attention_file`.
    pub attention: Attention,
    /// This database's own random mark, made once and kept in it: part of every Message-ID
    /// herald writes, so that outbox row numbers, which start again in every new database,
    /// never make two different mails share one.
    pub instance: String,
    /// The secret the confirmation codes are made with (see `gate`).
    confirm_key: String,
    /// Mails that went out (to the SMTP server, or into the outbox Maildir) whose record as
    /// sent failed, with when they went: recorded again before anything else is sent, and
    /// never sent again meanwhile.
    unrecorded: std::sync::Mutex<Vec<(i64, i64)>>,
    /// When the outbox was last pruned (Unix seconds; 0 before the first time): pruning
    /// runs at most once an hour, not in every delivery round.
    pruned_at: std::sync::atomic::AtomicI64,
    /// When the files of mails sent were last dropped (Unix seconds).
    files_dropped_at: std::sync::atomic::AtomicI64,
    /// When the forming games were last swept and the largest logged (see `growth`).
    growth: growth::Swept,
}

impl Service {
    /// Checks a configuration without connecting anywhere or opening the database: its
    /// values, that no password goes in clear text to another machine, that the passwords'
    /// environment variables are set, and that the maps and templates directories load.
    pub fn check_config(config: &Config) -> Result<(), ServiceError> {
        config.check()?;
        if let Some(dir) = &config.maps.dir {
            Catalog::with_maps_dir(dir)?;
        }
        if let Some(dir) = config.templates.dir.as_ref().filter(|d| !d.is_dir()) {
            return Err(ServiceError::NoDirectory {
                key: "[templates] dir",
                path: dir.clone(),
            });
        }
        Templates::load(config.templates.dir.as_deref())?;
        if config.inbox.kind == crate::config::InboxKind::Imap {
            crate::config::password(&config.imap.password, &config.imap.password_env)?;
        }
        if config.outbox.kind == crate::config::OutboxKind::Smtp {
            crate::config::password(&config.smtp.password, &config.smtp.password_env)?;
        }
        Ok(())
    }

    /// Opens the store (applying migrations), the mailboxes, maps and templates.
    pub async fn open(config: Config) -> Result<Service, ServiceError> {
        config.check()?;
        let durations = config.timing.durations()?;
        let catalog = match &config.maps.dir {
            Some(dir) => Catalog::with_maps_dir(dir)?,
            None => Catalog::builtin(),
        };
        let templates = Templates::load(config.templates.dir.as_deref())?;
        let store = Store::open(&config.storage.database).await?;
        // Daemons sharing one database and starting together keep the first one's mark.
        let instance = match store.meta("instance").await? {
            Some(mark) => mark,
            None => store.meta_or_set("instance", &random_mark()).await?,
        };
        let confirm_key = gate::confirm_key(&store).await?;
        gate::adopt_old_games(&store, chrono::Utc::now().timestamp()).await?;
        let open = |p: &PathBuf| {
            Maildir::open(p).map_err(|source| ServiceError::Mailbox {
                path: p.clone(),
                source,
            })
        };
        let inbox = open(&config.inbox.maildir)?;
        let outbox = open(&config.outbox.maildir)?;
        // Files half written before a crash: in the outbox only herald writes, so all of
        // tmp/ is stale now; in the inbox, Maildir's convention gives a writer 36 hours.
        for (maildir, age) in [(&inbox, 36 * 3600), (&outbox, 0)] {
            maildir
                .clean_tmp(std::time::Duration::from_secs(age))
                .map_err(|source| ServiceError::Mailbox {
                    path: maildir.root().to_path_buf(),
                    source,
                })?;
        }
        let imap = if config.inbox.kind == InboxKind::Imap {
            let c = &config.imap;
            Some(tokio::sync::Mutex::new(ImapInbox::new(ImapSettings {
                host: c.host.clone(),
                port: c.port,
                security: c.security,
                user: c.user.clone(),
                password: crate::config::password(&c.password, &c.password_env)?,
                folder: c.folder.clone(),
                handled_folder: c.handled_folder.clone(),
                ca_file: c.ca_file.clone(),
                check: (c.check_ms > 0).then(|| std::time::Duration::from_millis(c.check_ms)),
                timeout: std::time::Duration::from_secs(c.timeout_seconds.max(1)),
                max_bytes: config.inbox.max_bytes,
                batch_bytes: c.batch_bytes,
            })))
        } else {
            None
        };
        let smtp = if config.outbox.kind == OutboxKind::Smtp {
            let c = &config.smtp;
            let settings = SmtpSettings {
                host: c.host.clone(),
                port: c.port,
                security: c.security,
                user: c.user.clone(),
                password: crate::config::password(&c.password, &c.password_env)?,
                ca_file: c.ca_file.clone(),
            };
            Some(
                SmtpOutbox::new(&settings)
                    .map_err(ServiceError::Smtp)?
                    .with_timeout(std::time::Duration::from_secs(c.timeout_seconds.max(1))),
            )
        } else {
            None
        };
        let judge = Judge {
            address: config.judge.address.to_ascii_lowercase(),
            name: config.judge.name.clone(),
            keeper: config.judge.keeper.to_ascii_lowercase(),
            durations,
            catalog,
            templates,
            passwords: Default::default(),
            painter: Default::default(),
            limits: judge::budget::ReplyLimits {
                bytes: config.limits.reply_bytes,
                lines: config.limits.reply_lines,
                attachments: config.limits.reply_attachments,
                ..Default::default()
            },
            press_limits: judge::volume::Limits {
                press_per_mail: config.limits.press_per_mail as usize,
                press_per_hour: config.limits.press_per_hour as usize,
            },
            growth: judge::growth::Limits::of(&config.limits),
            web: config
                .web
                .as_ref()
                .map(|w| w.base_url.trim().trim_end_matches('/').to_string())
                .filter(|b| !b.is_empty()),
        };
        let attention = Attention::new(match &config.storage.attention_file {
            // Beside the database file; for a server, in the directory herald runs in.
            p if p.as_os_str().is_empty() => {
                if store.is_shared() {
                    PathBuf::from("attention.txt")
                } else {
                    config.storage.database.with_file_name("attention.txt")
                }
            }
            p => p.clone(),
        });
        games::summarise_stored(&store, &judge).await?;
        Ok(Service {
            config,
            judge,
            store,
            inbox,
            outbox,
            imap,
            smtp,
            attention,
            instance,
            confirm_key,
            unrecorded: Default::default(),
            pruned_at: Default::default(),
            files_dropped_at: Default::default(),
            growth: Default::default(),
        })
    }

    /// Brings the database's schema up to date (`herald migrate`); opening the service
    /// does it too.
    pub async fn migrate(config: &Config) -> Result<(), ServiceError> {
        Store::open(&config.storage.database).await?;
        Ok(())
    }

    /// Handles one raw mail in one transaction: dedupe, judge, games, outbox, actions.
    // `ingest_batch` returns one outcome for each mail it is given, so the pop finds one.
    #[allow(clippy::expect_used)]
    pub async fn ingest(&self, raw: &[u8], now: DateTime<Utc>) -> Result<Ingested, ServiceError> {
        let mut out = self.ingest_batch(&[raw], now).await?;
        Ok(out.pop().expect("one outcome per mail"))
    }

    /// Handles mails that arrived together, in order, in one transaction: each mail's
    /// identity, every state change and every outgoing mail are committed together, and
    /// nothing is sent (or marked handled in the Maildir) before that commit. A crash before
    /// the commit means the mails are read again; their Message-IDs make that harmless.
    pub async fn ingest_batch(
        &self,
        raws: &[&[u8]],
        now: DateTime<Utc>,
    ) -> Result<Vec<Ingested>, ServiceError> {
        let mails: Vec<(&[u8], usize)> = raws.iter().map(|r| (*r, r.len())).collect();
        self.ingest_sized(&mails, now).await
    }

    /// [`Service::ingest_batch`] for mails given with their sizes: of a mail over `[inbox]
    /// max_bytes` only its headers were read (see [`crate::mail::maildir::read_bounded`]),
    /// enough to tell the sender it is too large.
    #[instrument(skip_all, fields(mails = sized.len()))]
    pub async fn ingest_sized(
        &self,
        sized: &[(&[u8], usize)],
        now: DateTime<Utc>,
    ) -> Result<Vec<Ingested>, ServiceError> {
        let raws: Vec<&[u8]> = sized.iter().map(|m| m.0).collect();
        let ts = now.timestamp();
        let letters: Vec<Option<crate::mail::Letter>> =
            raws.iter().map(|r| self.letter_of(r)).collect();
        let mut tx = self.store.begin().await?;
        let ids: Vec<String> = letters
            .iter()
            .flatten()
            .flat_map(|l| [l.message_id.clone(), reused_id_key(l)])
            .collect();
        let mut seen = tx.seen_among(&ids).await?;
        // Each mail's lines read once into commands: the games to load, the reply counts
        // and the session below all use them.
        let mut parsed: Vec<Option<judge::session::Parsed>> = letters
            .iter()
            .map(|l| l.as_ref().map(|l| judge::session::parse(&l.body)))
            .collect();
        let needs: Vec<judge::Needs> = parsed
            .iter()
            .map(|p| p.as_ref().map(|p| p.needs()).unwrap_or_default())
            .collect();
        let mut names: Vec<String> = Vec::new();
        for needs in &needs {
            for n in &needs.names {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        let mut games = Games::new();
        for g in tx.games_named::<judge::Game>(&names).await? {
            games.insert(g.name.clone(), g);
        }
        let mut standing = self.standing(&mut tx, &letters, ts).await?;
        let readers: Vec<String> = letters
            .iter()
            .zip(&needs)
            .filter(|(_, n)| !n.pages.is_empty())
            .filter_map(|(l, _)| l.as_ref())
            .flat_map(|l| [l.from.to_ascii_lowercase(), l.reply_to.to_ascii_lowercase()])
            .collect();
        self.list_pages(&mut tx, &needs, &readers, &mut standing)
            .await?;
        self.address_standing(&mut tx, &parsed, &games, &mut standing, ts)
            .await?;
        // Replies to mails that signed on with a right password are counted apart, per
        // address and game (see `reply` below), under keys of their own.
        let signed_on_key = |to: &str, game: &str| format!("{to} signed on to {game}");
        let repliers: Vec<String> = letters
            .iter()
            .zip(&needs)
            .filter_map(|(l, needs)| l.as_ref().map(|l| (l, needs)))
            .flat_map(|(l, needs)| {
                [l.reply_to.clone(), told_key(&l.reply_to)]
                    .into_iter()
                    .chain(needs.names.iter().map(|g| signed_on_key(&l.reply_to, g)))
            })
            .collect();
        let mut replies = tx.replies_counts(&repliers, ts - 3600).await?;
        // Who of the senders has confirmed: an answer to one who has not is made short
        // and without pictures (issue 36, point 1), so that strangers cost little.
        let mut senders: Vec<String> = letters
            .iter()
            .flatten()
            .map(|l| l.reply_to.clone())
            .collect();
        senders.sort();
        senders.dedup();
        let confirmed_senders = tx.confirmed_among(&senders).await?;
        let limit = self.config.limits.replies_per_hour as i64;
        let mut outcomes = Vec::with_capacity(raws.len());
        let mut mails: Vec<Outgoing> = Vec::new();
        let mut replied: Vec<String> = Vec::new();
        let mut actions: Vec<(Option<String>, String, String)> = Vec::new();
        let mut records: Vec<(String, String, String, String)> = Vec::new();
        let mut touched: std::collections::BTreeSet<String> = Default::default();
        let mut answers = gate::Answers::default();
        // At most `limit` replies to an address an hour, so forged mail cannot make herald
        // flood it. A reply to a mail that signed on to a game with a right password
        // (`signed_on`) is counted apart, for that address and game: junk mail forged in a
        // player's name, which cannot sign on there, never silences their confirmations,
        // and a forger who signs on in a game of their own cannot use it up either.
        let mut reply = |mail: Outgoing,
                         signed_on: Option<&str>,
                         mails: &mut Vec<Outgoing>,
                         replied: &mut Vec<String>| {
            let key = match signed_on {
                Some(game) => signed_on_key(&mail.to, game),
                None => mail.to.clone(),
            };
            let n = replies.entry(key.clone()).or_insert(0);
            if *n >= limit {
                warn!(to = %mail.to, "reply rate limit reached; reply dropped");
                // The first reply to an address left out in an hour brings a notice that
                // says so (not a reply itself, and not counted as one), so that silence is
                // explained.
                let told = told_key(&mail.to);
                let notices = replies.entry(told.clone()).or_insert(0);
                if *notices == 0 {
                    *notices += 1;
                    replied.push(told);
                    mails.push(self.limit_notice(&mail.to, limit));
                }
                return false;
            }
            *n += 1;
            replied.push(key);
            mails.push(mail);
            true
        };
        for (((raw, size), letter), (parsed, needs)) in sized
            .iter()
            .zip(&letters)
            .zip(parsed.iter_mut().zip(&needs))
        {
            let size = (*size).max(raw.len());
            let Some(letter) = letter else {
                tx.quarantine(raw, "not a readable mail", ts).await?;
                outcomes.push(Ingested::Quarantined("not a readable mail".into()));
                continue;
            };
            let span = tracing::info_span!("mail", id = %letter.message_id, from = %letter.from);
            let _enter = span.enter();
            // A mail is the same mail only with the same Message-ID, body and sender; a
            // different mail reusing a Message-ID is read as the new mail it is.
            let same =
                |(hash, from): &(String, String)| *hash == letter.body_hash && *from == letter.from;
            let key = match seen.get(&letter.message_id) {
                None => letter.message_id.clone(),
                Some(earlier) if same(earlier) => {
                    info!("duplicate mail ignored");
                    outcomes.push(Ingested::Duplicate);
                    continue;
                }
                Some(_) => {
                    let key = reused_id_key(letter);
                    if seen.contains_key(&key) {
                        info!("duplicate mail ignored");
                        outcomes.push(Ingested::Duplicate);
                        continue;
                    }
                    warn!("a different mail reuses a Message-ID seen before; read as new");
                    key
                }
            };
            seen.insert(key.clone(), (letter.body_hash.clone(), letter.from.clone()));
            answers.read(letter);
            let record = |outcome: &str| {
                (
                    key.clone(),
                    letter.body_hash.clone(),
                    letter.from.clone(),
                    outcome.to_string(),
                )
            };
            if size > self.config.inbox.max_bytes
                && letter.automatic.is_none()
                && letter.from != self.judge.address
            {
                let refusal = judge::incidents::too_large(
                    &self.judge,
                    letter,
                    size,
                    self.config.inbox.max_bytes,
                );
                let n = reply(refusal, None, &mut mails, &mut replied) as usize;
                records.push(record("refused: too large"));
                let work = Work {
                    read: size as u64,
                    wrote: Work::bytes_of(&mails[mails.len() - n..]),
                    argon2: 0,
                };
                outcomes.push(Ingested::Handled(n, work));
                continue;
            }
            if let Some(gone) = &letter.bounce_for {
                // "forged bounces cannot make herald mail the Master more than once a day
                // per address (and only bounces that match a Message-ID herald sent count)"
                // (issue 24).
                let sent = OutboxIds::new(&self.instance, &self.judge.address);
                let ids: Vec<i64> = letter
                    .bounce_refs
                    .iter()
                    .filter_map(|r| sent.row(r))
                    .collect();
                if !tx.queued_to(&ids, gone).await? {
                    warn!(address = %gone, "a bounce that names no mail herald sent there; ignored");
                    let why = Unanswered::StrayBounce(gone.clone());
                    records.push(record(&why.to_string()));
                    outcomes.push(Ingested::Ignored(why));
                    continue;
                }
                tx.record_bounce(gone, letter.automatic.as_deref().unwrap_or("bounce"), ts)
                    .await?;
                if !tx
                    .bounce_told_since(gone, ts - BOUNCE_NOTICE_SECONDS)
                    .await?
                {
                    let all = games_of(&mut tx, gone).await?;
                    mails.extend(judge::incidents::bounced(&self.judge, &all, gone));
                    tx.record_bounce_told(gone, ts).await?;
                }
                warn!(address = %gone, "a bounce came back");
                let why = Unanswered::Bounce(gone.clone());
                records.push(record(&why.to_string()));
                outcomes.push(Ingested::Ignored(why));
                continue;
            }
            let (moved, told) = self
                .confirm_sender(
                    &mut tx,
                    letter,
                    &mut answers,
                    &mut games,
                    &mut standing,
                    now,
                )
                .await?;
            touched.extend(moved);
            mails.extend(told);
            // The games this mail may change, kept aside so a failure leaves them untouched.
            let backup: Vec<(String, judge::Game)> = needs
                .names
                .iter()
                .filter_map(|n| games.get(n).map(|g| (n.clone(), g.clone())))
                .collect();
            let runs = self.judge.passwords.runs();
            let parsed = parsed.take().unwrap_or_default();
            let mut limits = self.judge.limits;
            if self.is_stranger(&letter.reply_to, &confirmed_senders, &answers) {
                limits = limits.unconfirmed();
            }
            limits.confirms = self.confirms(letter).as_ref() == Some(&letter.reply_to);
            let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                judge::session::handle_within(
                    &self.judge,
                    letter,
                    parsed,
                    &mut games,
                    now,
                    limits,
                    &standing,
                )
            }));
            let handled = match result {
                Ok(h) => h,
                Err(panic) => {
                    for n in &needs.names {
                        games.remove(n);
                    }
                    games.extend(backup);
                    let reason =
                        "herald failed while handling this mail (a bug); it is kept for the keeper";
                    tx.quarantine(raw, reason, ts).await?;
                    mails.extend(judge::incidents::quarantined(
                        &self.judge,
                        letter,
                        &panic_text(panic.as_ref()),
                    ));
                    let sorry = judge::incidents::failed(&self.judge, letter);
                    reply(sorry, None, &mut mails, &mut replied);
                    records.push(record("quarantined"));
                    warn!("mail quarantined after a failure");
                    outcomes.push(Ingested::Quarantined(reason.into()));
                    continue;
                }
            };
            growth::count_created(&mut standing, &letter.from, needs, &backup, &games);
            if let Some(game) = &handled.authenticated {
                let before = backup.iter().find(|(n, _)| n == game).map(|(_, g)| g);
                let asked = &mut standing.asked_today;
                self.new_addresses(before, games.get(game), letter, &mut answers, asked);
            }
            let work = Work {
                read: size as u64,
                wrote: Work::bytes_of(&handled.effects.mails),
                argon2: self.judge.passwords.runs().saturating_sub(runs),
            };
            let mut queued = 0;
            for mail in handled.effects.mails {
                if mail.to == letter.reply_to && mail.in_reply_to.is_some() {
                    let signed_on = handled.authenticated.as_deref();
                    queued += reply(mail, signed_on, &mut mails, &mut replied) as usize;
                } else {
                    mails.push(mail);
                    queued += 1;
                }
            }
            actions.extend(
                handled
                    .effects
                    .actions
                    .into_iter()
                    .map(|a| (a.game, a.actor, a.what)),
            );
            touched.extend(handled.touched);
            let outcome = handled.outcome.to_string();
            records.push(record(&outcome));
            info!(queued, outcome = %outcome, "mail handled");
            outcomes.push(match handled.outcome {
                judge::session::Outcome::Handled => Ingested::Handled(queued, work),
                judge::session::Outcome::Ignored(why) => Ingested::Ignored(Unanswered::Judge(why)),
            });
        }
        mails.extend(self.caught_up(&mut tx, &answers, &games).await?);
        let saves = self.rows(touched.iter().filter_map(|n| games.get(n)));
        tx.save_games(&saves, ts).await?;
        let mails = self.gate(&mut tx, mails, answers, ts).await?;
        tx.queue_many(&mails, ts).await?;
        tx.log_many(&actions, ts).await?;
        tx.record_mails(&records, ts).await?;
        tx.record_replies(&replied, ts).await?;
        self.record_creations(&mut tx, &standing.created_now, ts)
            .await?;
        if !records.is_empty() {
            crate::failpoint::hit("during-processing");
        }
        tx.commit().await?;
        Ok(outcomes)
    }

    /// Handles every mail waiting in the inbox (the Maildir, read within `[inbox]`'s
    /// bounds, or IMAP). Returns how many were read.
    pub async fn poll_inbox(&self, now: DateTime<Utc>) -> Result<usize, ServiceError> {
        if let Some(imap) = &self.imap {
            return self.poll_imap(imap, now).await;
        }
        self.poll_maildir(now).await
    }

    /// Games as stored: name, status, state, summary and when each next needs the clock.
    fn rows<'a>(
        &self,
        games: impl Iterator<Item = &'a judge::Game>,
    ) -> Vec<(
        &'a str,
        &'a str,
        &'a judge::Game,
        crate::store::Summary,
        Option<i64>,
    )> {
        games
            .map(|g| {
                (
                    g.name.as_str(),
                    g.status.word(),
                    g,
                    games::summary_of(&self.judge, g),
                    self.judge.next_due(g).map(|d| d.timestamp()),
                )
            })
            .collect()
    }

    /// Waits for new mail (IMAP IDLE where the server offers it) or for `timeout`. A Maildir
    /// is looked at every [`MAILDIR_LOOK`] (a directory listing, cheap), so a mail dropped in
    /// `new/` is read within that time rather than after a whole `poll_seconds`.
    pub async fn wait_for_mail(&self, timeout: std::time::Duration) -> Result<(), ServiceError> {
        match &self.imap {
            Some(imap) => {
                let mut inbox = imap.lock().await;
                if let Err(e) = inbox.wait(timeout).await {
                    inbox.reset();
                    return Err(e.into());
                }
                Ok(())
            }
            None => {
                // New mail is more entries than at the start: a file the reader left
                // (unreadable) does not wake it 20 times a second.
                let before = self.inbox.waiting_count();
                let until = tokio::time::Instant::now() + timeout;
                while tokio::time::Instant::now() < until {
                    tokio::time::sleep(MAILDIR_LOOK.min(timeout)).await;
                    if self.inbox.waiting_count() > before {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// [`Service::deliver`] without telling the keeper of the faults that stop it.
    pub(crate) async fn deliver_due(&self, now: DateTime<Utc>) -> Result<usize, ServiceError> {
        self.record_sent().await?;
        let mut n = 0;
        let ts = now.timestamp();
        self.prune_hourly(ts).await?;
        let ids = OutboxIds::new(&self.instance, &self.judge.address);
        // Each mail is looked at once a round, in the order queued: one that another daemon
        // sharing the database is sending (its lease held) is passed over, to be looked at
        // again next round, when it is sent or its sender gone.
        let mut after = 0;
        loop {
            let batch = self.store.unsent_after(ts, after, 200).await?;
            let Some((last, _)) = batch.last() else {
                return Ok(n);
            };
            after = *last;
            if let Some(smtp) = &self.smtp {
                if let Err(why) = smtp.ready().await {
                    return Err(servers::server_fault(why));
                }
            }
            let mut leases = self.store.leases().await?;
            let mut stalled = false;
            for (id, mail) in batch {
                // Leased, then claimed by a write that holds only while the mail is still
                // unsent and due: a daemon that sent it and let go meanwhile has marked it.
                if !leases.mail(id).await? {
                    continue;
                }
                let bytes = match mail.render_within(
                    self.config.limits.send_bytes,
                    &self.judge.name,
                    &self.judge.address,
                    &ids.make(id),
                    now,
                ) {
                    Ok(bytes) => bytes,
                    // herald's own address is wrong: every mail waits until it is put right.
                    Err(crate::mail::outgoing::RenderError::Sender(address)) => {
                        return Err(ConfigError::Choice {
                            key: "[judge] address",
                            value: address,
                            expected: "write a mail address, like herald@example.org",
                        }
                        .into());
                    }
                    Err(why) => {
                        tracing::error!(id, to = %mail.to, error = %why, "a mail cannot be written; kept as failed");
                        self.store.mark_failed(id, &why.to_string()).await?;
                        continue;
                    }
                };
                match &self.smtp {
                    None => {
                        let mailbox = |source| ServiceError::Mailbox {
                            path: self.outbox.root().to_path_buf(),
                            source,
                        };
                        // Named after the outbox row, so a mail written just before a crash
                        // (and not yet marked sent) is found, not written a second time; a
                        // reader may have moved it to cur/ meanwhile, which is only looked
                        // at for a mail tried before.
                        let name = format!("outbox-{id:012}.herald");
                        let Some(tried) = self.store.record_attempt(id, ts, ts).await? else {
                            leases.let_go_mail(id).await?;
                            continue;
                        };
                        let written = if tried > 1 {
                            self.outbox.find(&name).map_err(mailbox)?
                        } else {
                            None
                        };
                        if written.is_none() {
                            self.outbox.deliver_once(&name, &bytes).map_err(mailbox)?;
                        }
                        crate::failpoint::hit("after-writing");
                    }
                    Some(smtp) => {
                        let tried = self.store.attempts(id).await?;
                        let backoff =
                            (self.config.smtp.retry_seconds.max(1) as i64) << tried.min(12);
                        let claimed = self
                            .store
                            .record_attempt(id, ts, ts + backoff.min(3600))
                            .await?;
                        if claimed.is_none() {
                            leases.let_go_mail(id).await?;
                            continue;
                        }
                        match smtp.send(&self.judge.address, &mail.to, &bytes).await {
                            Ok(()) => crate::failpoint::hit("during-sending"),
                            Err(SendError::Transient(why)) if tried + 1 < MAX_ATTEMPTS => {
                                warn!(id, to = %mail.to, error = %why, "sending failed; will retry");
                                stalled = true;
                                continue;
                            }
                            Err(SendError::Transient(why)) => {
                                let why = format!("{why} (given up after {MAX_ATTEMPTS} tries)");
                                tracing::error!(id, to = %mail.to, error = %why, "a mail kept failing; given up");
                                self.give_up(id, &mail, &why, ts).await?;
                                continue;
                            }
                            Err(SendError::Permanent(why)) => {
                                tracing::error!(id, to = %mail.to, error = %why, "the server refused a mail for good");
                                self.give_up(id, &mail, &why, ts).await?;
                                continue;
                            }
                            // The server stalled or dropped the session: the rest waits
                            // for the next round rather than a timeout each.
                            Err(why @ SendError::Server(_)) => {
                                return Err(servers::server_fault(why))
                            }
                        }
                    }
                }
                self.unrecorded().push((id, ts));
                n += 1;
                self.record_sent().await?;
                leases.let_go_mail(id).await?;
            }
            leases.release().await;
            if stalled {
                return Ok(n);
            }
        }
    }

    /// Marks a mail failed for good and, in the same transaction, queues its reports to the
    /// keeper and to the Master of each game its recipient is in (a report that fails is
    /// only logged), and notes the address as bouncing.
    async fn give_up(
        &self,
        id: i64,
        mail: &Outgoing,
        why: &str,
        ts: i64,
    ) -> Result<(), ServiceError> {
        let mut tx = self.store.begin().await?;
        if tx.mark_failed(id, why).await? == MailKind::Ordinary {
            tx.record_bounce(&mail.to, why, ts).await?;
            let all = games_of(&mut tx, &mail.to).await?;
            let reports =
                judge::incidents::refused(&self.judge, &all, &mail.to, &mail.subject, why);
            let reports = self.gate(&mut tx, reports, Default::default(), ts).await?;
            tx.queue_kind(&reports, MailKind::Undeliverable, ts).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Records as sent the mails that went out and are not recorded yet (see
    /// [`Service::deliver`]). On a failure the rest stay to be recorded at the next try;
    /// a mail leaves the list only once its record is in the database.
    pub async fn record_sent(&self) -> Result<(), ServiceError> {
        loop {
            let Some((id, at)) = self.unrecorded().first().copied() else {
                return Ok(());
            };
            self.store.mark_sent(id, at).await?;
            self.unrecorded().retain(|(sent, _)| *sent != id);
        }
    }

    /// The list of mails sent and not yet recorded, locked (for a moment, never across an
    /// await).
    fn unrecorded(&self) -> std::sync::MutexGuard<'_, Vec<(i64, i64)>> {
        // A panic while the list was held cannot leave it half changed (a push or a
        // retain), so a poisoned lock's list is as good as any.
        self.unrecorded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
