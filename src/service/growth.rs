//! The growth limits on the store (issue 36, point 6: "CREATE capped per sender per day
//! and judge-wide per hour in the store (so `herald ingest` obeys it too); a game whose
//! Master never confirmed is not listed and lapses after a day; forming games lapse after N
//! days without a join ... A daily log line names the fastest-growing games"). The rules
//! are the judge's ([`judge::growth`]); here they are counted, swept and logged.

use std::collections::HashSet;

use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Utc};
use tracing::info;

use super::{Service, ServiceError};
use crate::envelope::Letter;
use crate::judge::growth::{self, Standing};
use crate::judge::{self, Games};
use crate::store::Tx;

/// The volume key of every CREATE (judge-wide).
const CREATED: &str = "create";

/// How many games the daily log line names.
const LARGEST: i64 = 5;

/// When the forming games were last swept and the largest games logged (Unix seconds; 0
/// before the first time): once an hour, once a day.
#[derive(Debug, Default)]
pub(super) struct Swept {
    /// The last sweep of the forming games.
    at: AtomicI64,
    /// The last log line of the largest games.
    logged: AtomicI64,
}

/// Counts a game `sender`'s mail created, if it did: one it names is there now and was not
/// before (`before`, the games it names that were).
pub(super) fn count_created(
    standing: &mut Standing,
    sender: &str,
    needs: &judge::Needs,
    before: &[(String, judge::Game)],
    games: &Games,
) {
    let created = needs
        .names
        .iter()
        .any(|n| games.contains_key(n) && !before.iter().any(|(b, _)| b == n));
    if created {
        standing.created(sender);
    }
}

/// The volume key of the CREATEs of one sender.
fn created_by(sender: &str) -> String {
    format!("create by {}", sender.to_ascii_lowercase())
}

impl Service {
    /// What a batch of mails needs counted for the growth limits: the CREATEs of their
    /// senders in the last day and of everyone in the last hour (the store's count, so one
    /// process a mail keeps the caps too). The games LIST may show whose Master never
    /// confirmed are added by `list_pages`.
    pub(super) async fn standing(
        &self,
        tx: &mut Tx,
        letters: &[Option<Letter>],
        ts: i64,
    ) -> Result<Standing, ServiceError> {
        let mut senders: Vec<String> = letters
            .iter()
            .flatten()
            .map(|l| created_by(&l.from))
            .collect();
        senders.sort();
        senders.dedup();
        let per_day = tx.volume_since(&senders, ts - 86_400).await?;
        let last_hour = tx.volume_since(&[CREATED.to_string()], ts - 3600).await?;
        let count = |n: Option<&i64>| u32::try_from(*n.unwrap_or(&0)).unwrap_or(u32::MAX);
        let mut standing = Standing {
            created_last_hour: count(last_hour.get(CREATED)),
            ..Standing::default()
        };
        for l in letters.iter().flatten() {
            let n = count(per_day.get(&created_by(&l.from)));
            standing.created_by.insert(l.from.to_ascii_lowercase(), n);
        }
        Ok(standing)
    }

    /// Those of these games whose Master never confirmed the address (but the keeper).
    pub(crate) async fn unlisted<'a>(
        &self,
        tx: &mut Tx,
        games: impl Iterator<Item = &'a judge::Game>,
    ) -> Result<HashSet<String>, ServiceError> {
        let games: Vec<&judge::Game> = games.collect();
        let mut masters: Vec<String> = games
            .iter()
            .map(|g| g.master.address.to_ascii_lowercase())
            .collect();
        masters.sort();
        masters.dedup();
        let confirmed = tx.confirmed_among(&masters).await?;
        Ok(games
            .iter()
            .filter(|g| {
                let m = g.master.address.to_ascii_lowercase();
                !confirmed.contains(&m) && m != self.judge.keeper
            })
            .map(|g| g.name.clone())
            .collect())
    }

    /// Counts, in this transaction, the games the batch's mails created (by sender).
    pub(super) async fn record_creations(
        &self,
        tx: &mut Tx,
        senders: &[String],
        ts: i64,
    ) -> Result<(), ServiceError> {
        let events: Vec<(String, i64)> = senders
            .iter()
            .flat_map(|s| [(created_by(s), 1), (CREATED.to_string(), 1)])
            .collect();
        tx.record_volume(&events, ts).await?;
        Ok(())
    }

    /// Once an hour of `now`: the forming games that lapse are removed (their names free
    /// again) and their Master and players told; once a day, a log line names the largest
    /// games written in the last day.
    pub(super) async fn growth_hourly(&self, now: DateTime<Utc>) -> Result<(), ServiceError> {
        let ts = now.timestamp();
        let last = self.growth.at.load(Ordering::Relaxed);
        if last != 0 && ts.saturating_sub(last) < 3600 && ts >= last {
            return Ok(());
        }
        self.growth.at.store(ts, Ordering::Relaxed);
        self.lapse(now).await?;
        let logged = self.growth.logged.load(Ordering::Relaxed);
        if logged == 0 || ts.saturating_sub(logged) >= 86_400 || ts < logged {
            self.growth.logged.store(ts, Ordering::Relaxed);
            let largest = self.store.largest_changed(ts - 86_400, LARGEST).await?;
            let names: Vec<String> = largest
                .iter()
                .map(|(name, bytes)| format!("{name} ({bytes} bytes)"))
                .collect();
            info!(games = %names.join(", "), "the largest games written in the last day");
        }
        Ok(())
    }

    /// Removes the forming games that lapse at `now`, in one transaction, and queues their
    /// notices (the gate holds them from addresses that never confirmed). A forming game
    /// older than the rule gets its time now.
    async fn lapse(&self, now: DateTime<Utc>) -> Result<(), ServiceError> {
        let ts = now.timestamp();
        let mut tx = self.store.begin().await?;
        let forming = tx.forming_games::<judge::Game>().await?;
        if forming.is_empty() {
            return tx.rollback().await.map_err(Into::into);
        }
        let unlisted = self.unlisted(&mut tx, forming.iter()).await?;
        let mut gone = Vec::new();
        let mut mails = Vec::new();
        let mut actions = Vec::new();
        let mut stamped = Vec::new();
        for mut g in forming {
            if g.formed.is_none() {
                g.formed = Some(now);
                stamped.push(g);
                continue;
            }
            let confirmed = !unlisted.contains(&g.name);
            let Some(why) = growth::lapse(&self.judge, &g, confirmed, now) else {
                continue;
            };
            info!(game = %g.name, ?why, "a forming game lapsed");
            let effects = growth::lapsed(&self.judge, &g, why);
            mails.extend(effects.mails);
            actions.extend(
                effects
                    .actions
                    .into_iter()
                    .map(|a| (a.game, a.actor, a.what)),
            );
            gone.push(g.name);
        }
        let saves = self.rows(stamped.iter());
        tx.save_games(&saves, ts).await?;
        tx.delete_games(&gone).await?;
        let mails = self.gate(&mut tx, mails, Default::default(), ts).await?;
        tx.queue_many(&mails, ts).await?;
        tx.log_many(&actions, ts).await?;
        tx.commit().await?;
        Ok(())
    }
}
