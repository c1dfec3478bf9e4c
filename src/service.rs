//! The judge on its store and mailboxes: one incoming mail handled in one transaction,
//! deadlines swept, the outbox drained. Every entry point takes `now`, so the CLI's `--now`
//! and the tests can replay time.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use tracing::{info, instrument, warn};

use crate::catalog::{Catalog, CatalogError};
use crate::config::{Config, ConfigError};
use crate::judge::render::{TemplateError, Templates};
use crate::judge::{self, Games, Judge};
use crate::mail::maildir::Maildir;
use crate::mail::{read_letter, Outgoing};
use crate::store::{Store, StoreError, Tx};

/// Why the service failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The configuration.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The maps directory.
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// A template override.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// A mailbox.
    #[error("mailbox {path}: {source}")]
    Mailbox {
        /// The Maildir.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What became of one incoming mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ingested {
    /// Handled; this many mails queued.
    Handled(usize),
    /// Seen before (same Message-ID): nothing changed.
    Duplicate,
    /// Not answered, and why (auto-reply, bounce, herald's own).
    Ignored(String),
    /// Kept in quarantine with the reason.
    Quarantined(String),
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
    /// Where mail is written.
    pub outbox: Maildir,
}

impl Service {
    /// Opens the store (applying migrations), the mailboxes, maps and templates.
    pub async fn open(config: Config) -> Result<Service, ServiceError> {
        let durations = config.timing.durations()?;
        let catalog = if config.maps.dir.is_empty() {
            Catalog::builtin()
        } else {
            Catalog::with_maps_dir(std::path::Path::new(&config.maps.dir))?
        };
        let templates = Templates::load(
            (!config.templates.dir.is_empty()).then(|| std::path::Path::new(&config.templates.dir)),
        )?;
        let store = Store::open(&config.storage.database).await?;
        let open = |p: &PathBuf| {
            Maildir::open(p).map_err(|source| ServiceError::Mailbox {
                path: p.clone(),
                source,
            })
        };
        let inbox = open(&config.inbox.maildir)?;
        let outbox = open(&config.outbox.maildir)?;
        let judge = Judge {
            address: config.judge.address.to_ascii_lowercase(),
            name: config.judge.name.clone(),
            durations,
            catalog,
            templates,
            passwords: Default::default(),
        };
        Ok(Service {
            config,
            judge,
            store,
            inbox,
            outbox,
        })
    }

    /// Handles one raw mail in one transaction: dedupe, judge, games, outbox, actions.
    #[instrument(skip_all)]
    pub async fn ingest(&self, raw: &[u8], now: DateTime<Utc>) -> Result<Ingested, ServiceError> {
        let ts = now.timestamp();
        let Some(letter) = read_letter(raw) else {
            self.store
                .quarantine(raw, "not a readable mail", ts)
                .await?;
            return Ok(Ingested::Quarantined("not a readable mail".into()));
        };
        let span = tracing::info_span!("mail", id = %letter.message_id, from = %letter.from);
        let _enter = span.enter();
        let mut tx = self.store.begin().await?;
        if tx.seen(&letter.message_id).await? {
            tx.commit().await?;
            info!("duplicate mail ignored");
            return Ok(Ingested::Duplicate);
        }
        if raw.len() > self.config.inbox.max_bytes
            && letter.automatic.is_none()
            && letter.from != self.judge.address
        {
            let reply = Outgoing {
                to: letter.reply_to.clone(),
                subject: format!("Re: {} [Error Flag]", letter.subject),
                body: format!(
                    ":: Judge: {}\n\nYour mail is {} bytes; herald reads mails of at most {} bytes, so it was not read.\nPlease send your commands as plain text without attachments.\n",
                    self.judge.address,
                    raw.len(),
                    self.config.inbox.max_bytes
                ),
                in_reply_to: Some(letter.message_id.clone()),
            };
            self.queue_reply(&mut tx, &letter.reply_to, &reply, ts)
                .await?;
            tx.record_mail(
                &letter.message_id,
                &letter.body_hash,
                &letter.from,
                ts,
                "refused: too large",
            )
            .await?;
            tx.commit().await?;
            return Ok(Ingested::Handled(1));
        }
        let needs = judge::needed_games(&letter.body);
        let mut games = Games::new();
        if needs.all {
            for g in tx.all_games::<judge::Game>().await? {
                games.insert(g.name.clone(), g);
            }
        }
        for name in &needs.names {
            if !games.contains_key(name) {
                if let Some(g) = tx.game::<judge::Game>(name).await? {
                    games.insert(name.clone(), g);
                }
            }
        }
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
            judge::session::handle(&self.judge, &letter, &mut games, now)
        }));
        let handled = match result {
            Ok(h) => h,
            Err(_) => {
                drop(tx);
                let reason =
                    "herald failed while handling this mail (a bug); it is kept for the keeper";
                self.store.quarantine(raw, reason, ts).await?;
                let mut tx = self.store.begin().await?;
                let reply = Outgoing {
                    to: letter.reply_to.clone(),
                    subject: format!("Re: {} [Error Flag]", letter.subject),
                    body: format!(":: Judge: {}\n\nherald could not handle your mail because of an error of its own. Nothing in it was applied.\nThe mail is kept and the keeper will look at it; you may send it again.\n", self.judge.address),
                    in_reply_to: Some(letter.message_id.clone()),
                };
                self.queue_reply(&mut tx, &letter.reply_to, &reply, ts)
                    .await?;
                tx.record_mail(
                    &letter.message_id,
                    &letter.body_hash,
                    &letter.from,
                    ts,
                    "quarantined",
                )
                .await?;
                tx.commit().await?;
                warn!("mail quarantined after a failure");
                return Ok(Ingested::Quarantined(reason.into()));
            }
        };
        for name in &handled.touched {
            let g = &games[name];
            let due = self.judge.next_due(g).map(|d| d.timestamp());
            tx.save_game(name, g.status.word(), g, due, ts).await?;
        }
        let mut queued = 0;
        for mail in &handled.effects.mails {
            if mail.to == letter.reply_to && mail.in_reply_to.is_some() {
                if self
                    .queue_reply(&mut tx, &letter.reply_to, mail, ts)
                    .await?
                {
                    queued += 1;
                }
            } else {
                tx.queue(mail, ts).await?;
                queued += 1;
            }
        }
        for a in &handled.effects.actions {
            tx.log(a.game.as_deref(), &a.actor, &a.what, ts).await?;
        }
        tx.record_mail(
            &letter.message_id,
            &letter.body_hash,
            &letter.from,
            ts,
            &handled.outcome,
        )
        .await?;
        tx.commit().await?;
        info!(queued, outcome = %handled.outcome, "mail handled");
        if handled.outcome.starts_with("ignored") {
            return Ok(Ingested::Ignored(handled.outcome));
        }
        Ok(Ingested::Handled(queued))
    }

    /// Queues a reply unless the address had too many this hour. Returns whether queued.
    async fn queue_reply(
        &self,
        tx: &mut Tx,
        to: &str,
        mail: &Outgoing,
        ts: i64,
    ) -> Result<bool, ServiceError> {
        let recent = tx.replies_since(to, ts - 3600).await?;
        if recent >= self.config.limits.replies_per_hour as i64 {
            warn!(to, "reply rate limit reached; reply dropped");
            return Ok(false);
        }
        tx.record_reply(to, ts).await?;
        tx.queue(mail, ts).await?;
        Ok(true)
    }

    /// Handles every mail waiting in the inbox Maildir, moving each to `cur/` only after its
    /// transaction committed. Returns how many were read.
    pub async fn poll_inbox(&self, now: DateTime<Utc>) -> Result<usize, ServiceError> {
        let files = self
            .inbox
            .waiting()
            .map_err(|source| ServiceError::Mailbox {
                path: self.inbox.root().to_path_buf(),
                source,
            })?;
        let mut n = 0;
        for path in files {
            let raw = match std::fs::read(&path) {
                Ok(r) => r,
                Err(e) => {
                    warn!(path = %path.display(), error = %e, "cannot read a mail file");
                    continue;
                }
            };
            self.ingest(&raw, now).await?;
            self.inbox
                .mark_handled(&path)
                .map_err(|source| ServiceError::Mailbox {
                    path: path.clone(),
                    source,
                })?;
            n += 1;
        }
        Ok(n)
    }

    /// Does what is due at `now` for every game; first, after an outage, moves deadlines that
    /// passed while herald was down. Returns how many games were ticked.
    pub async fn tick(&self, now: DateTime<Utc>) -> Result<usize, ServiceError> {
        let ts = now.timestamp();
        if let Some(last) = self
            .store
            .meta("last_tick")
            .await?
            .and_then(|v| v.parse::<i64>().ok())
        {
            let since = DateTime::from_timestamp(last, 0).unwrap_or(now);
            if now - since > self.judge.durations.outage {
                let mut tx = self.store.begin().await?;
                for mut g in tx.all_games::<judge::Game>().await? {
                    let effects = judge::tick::after_outage(&self.judge, &mut g, since, now);
                    if effects.mails.is_empty() {
                        continue;
                    }
                    warn!(game = %g.name, "deadline moved after an outage");
                    self.commit_effects(&mut tx, &g, &effects, ts).await?;
                }
                tx.commit().await?;
            }
        }
        let due = self.store.due_games(ts).await?;
        for name in &due {
            let mut tx = self.store.begin().await?;
            let Some(mut g) = tx.game::<judge::Game>(name).await? else {
                continue;
            };
            let span = tracing::info_span!("game", game = %name);
            let _enter = span.enter();
            let effects = judge::tick::tick(&self.judge, &mut g, now);
            self.commit_effects(&mut tx, &g, &effects, ts).await?;
            tx.commit().await?;
        }
        self.store.set_meta("last_tick", &ts.to_string()).await?;
        Ok(due.len())
    }

    async fn commit_effects(
        &self,
        tx: &mut Tx,
        g: &judge::Game,
        effects: &judge::Effects,
        ts: i64,
    ) -> Result<(), ServiceError> {
        let due = self.judge.next_due(g).map(|d| d.timestamp());
        tx.save_game(&g.name, g.status.word(), g, due, ts).await?;
        for mail in &effects.mails {
            tx.queue(mail, ts).await?;
        }
        for a in &effects.actions {
            tx.log(a.game.as_deref(), &a.actor, &a.what, ts).await?;
        }
        Ok(())
    }

    /// Writes queued mail into the outbox Maildir; returns how many.
    pub async fn deliver(&self, now: DateTime<Utc>) -> Result<usize, ServiceError> {
        let mut n = 0;
        loop {
            let batch = self.store.unsent(200).await?;
            if batch.is_empty() {
                return Ok(n);
            }
            for (id, mail) in batch {
                let domain = self.judge.address.split('@').nth(1).unwrap_or("localhost");
                let bytes = mail.render(
                    &self.judge.name,
                    &self.judge.address,
                    &format!("outbox-{id}@{domain}"),
                    now,
                );
                self.outbox
                    .deliver(now.timestamp(), &bytes)
                    .map_err(|source| ServiceError::Mailbox {
                        path: self.outbox.root().to_path_buf(),
                        source,
                    })?;
                self.store.mark_sent(id, now.timestamp()).await?;
                n += 1;
            }
        }
    }
}
