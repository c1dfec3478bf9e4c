//! The deadline sweep: every game whose time has come is ticked (adjudicated, reminded,
//! late notices sent), after an outage the deadlines that passed are moved first.

use std::panic::AssertUnwindSafe;

use chrono::{DateTime, Utc};
use tracing::warn;

use super::{panic_text, Clock, Service, ServiceError};
use crate::judge;
use crate::store::Tx;

/// Games read a page at a time by the sweep after an outage.
const OUTAGE_PAGE: i64 = 200;

impl Service {
    /// Does what is due at `now`, the wall clock, for every game; first, after an outage
    /// (more than `[timing] outage` since the last tick), moves deadlines that passed while
    /// herald was down. Returns how many games this daemon ticked.
    pub async fn tick(&self, now: DateTime<Utc>) -> Result<usize, ServiceError> {
        self.tick_at(now, Clock::Wall).await
    }

    /// Does what is due at `now` for every game. With [`Clock::Wall`] a long gap since the
    /// last tick is an outage of herald and moves passed deadlines; with [`Clock::Set`] the
    /// keeper has set the time deliberately (`herald tick --now T`), so deadlines passed on
    /// the way are processed as they fall due.
    pub async fn tick_at(&self, now: DateTime<Utc>, clock: Clock) -> Result<usize, ServiceError> {
        let ts = now.timestamp();
        if clock == Clock::Wall {
            self.after_outage(now).await?;
        }
        self.growth_hourly(now).await?;
        let due = self.store.due_games(ts).await?;
        let mut ticked = 0;
        // Due games are swept in batches of 200. Each batch is leased (on a database several
        // daemons share, the games another daemon is judging are left to it), read in a
        // transaction that only reads (those still due: another daemon may have judged one
        // since the list was read), judged (adjudicated, its pictures drawn) outside any
        // transaction, on every core, then written in one transaction that checks each game
        // is as it was read: one changed meanwhile (by a mail) is left for the next sweep.
        for names in due.chunks(200) {
            let mut leases = self.store.leases().await?;
            let names = leases.games(names).await?;
            if names.is_empty() {
                leases.release().await;
                continue;
            }
            let mut read = self.store.begin_read().await?;
            let states = read.due_game_states(&names, ts).await?;
            read.rollback().await?;
            let mut games: Vec<(judge::Game, String)> = Vec::with_capacity(states.len());
            for (name, state) in states {
                match serde_json::from_str::<judge::Game>(&state) {
                    Ok(g) => games.push((g, state)),
                    Err(error) => {
                        tracing::error!(game = %name, %error, "a game's record cannot be read; it is left as it is");
                    }
                }
            }
            if games.is_empty() {
                leases.release().await;
                continue;
            }
            games.sort_by(|a, b| a.0.name.cmp(&b.0.name));
            let Some(effects) = self.tick_all(&mut games, now) else {
                tracing::error!(
                    "processing a batch of due games failed; it is left for the next sweep"
                );
                continue;
            };
            let mut tx = self.store.begin().await?;
            let current = tx.game_states(&names).await?;
            let mut mails = Vec::new();
            let mut actions = Vec::new();
            let mut changed = Vec::new();
            for ((g, state), effects) in games.iter().zip(effects) {
                if current.get(&g.name) != Some(state) {
                    warn!(game = %g.name, "the game changed while it was processed; it is left for the next sweep");
                    continue;
                }
                changed.push(g);
                mails.extend(self.observer_limit(&mut tx, g, effects.mails, ts).await?);
                actions.extend(
                    effects
                        .actions
                        .into_iter()
                        .map(|a| (a.game, a.actor, a.what)),
                );
            }
            ticked += changed.len();
            let saves = self.rows(changed.into_iter());
            tx.save_games(&saves, ts).await?;
            let mails = self.gate(&mut tx, mails, Default::default(), ts).await?;
            tx.queue_many(&mails, ts).await?;
            tx.log_many(&actions, ts).await?;
            crate::failpoint::hit("during-sweep");
            tx.commit().await?;
            // Only now, with the results written, may another daemon look at these games.
            leases.release().await;
        }
        // Only the wall clock says when herald last looked: a time the keeper set is no
        // evidence that herald was running then.
        if clock == Clock::Wall {
            self.store.set_meta("last_tick", &ts.to_string()).await?;
        }
        Ok(ticked)
    }

    /// After an outage (more than `[timing] outage` since the last sweep by the wall clock)
    /// moves the deadlines that passed while herald was down. The last sweep's time is read
    /// and moved on in the transaction that moves them: of several daemons coming back
    /// together, the first moves them and the others find nothing to move.
    async fn after_outage(&self, now: DateTime<Utc>) -> Result<(), ServiceError> {
        let ts = now.timestamp();
        let Some(last) = self.store.meta("last_tick").await? else {
            return Ok(());
        };
        let gap = |last: Option<String>| {
            let since = last
                .and_then(|v| v.parse::<i64>().ok())
                .and_then(|t| DateTime::from_timestamp(t, 0))?;
            (now - since > self.judge.durations.outage).then_some(since)
        };
        if gap(Some(last)).is_none() {
            return Ok(());
        }
        let mut tx = self.store.begin().await?;
        let Some(since) = gap(tx.meta("last_tick").await?) else {
            return tx.rollback().await.map_err(Into::into);
        };
        // Every game, whole: any one's deadline may have to move. This runs once after an
        // outage (not at every tick), so it is the one sweep that reads them all, a page of
        // games at a time (100,000 games at once would not fit in memory).
        let mut after = String::new();
        loop {
            let names = tx.game_names_after(&after, OUTAGE_PAGE).await?;
            let Some(last) = names.last() else { break };
            after = last.clone();
            for mut g in tx.games_named::<judge::Game>(&names).await? {
                let effects = judge::tick::after_outage(&self.judge, &mut g, since, now);
                if effects.mails.is_empty() {
                    continue;
                }
                warn!(game = %g.name, "deadline moved after an outage");
                self.commit_effects(&mut tx, &g, &effects, ts).await?;
            }
        }
        tx.set_meta("last_tick", &ts.to_string()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Does what is due for each game, the games shared among the machine's cores (at most
    /// four): adjudicating and drawing are pure work on one game at a time.
    fn tick_all(
        &self,
        games: &mut [(judge::Game, String)],
        now: DateTime<Utc>,
    ) -> Option<Vec<judge::Effects>> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        let per = games.len().div_ceil(cores).max(1);
        let tick = |part: &mut [(judge::Game, String)]| -> Vec<judge::Effects> {
            part.iter_mut()
                .map(|(g, _)| {
                    let span = tracing::info_span!("game", game = %g.name);
                    let _enter = span.enter();
                    self.tick_one(g, now)
                })
                .collect()
        };
        if cores == 1 || games.len() < 2 {
            return Some(tick(games));
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = games
                .chunks_mut(per)
                .map(|part| scope.spawn(move || tick(part)))
                .collect();
            // tick_one catches a game's panic itself; should a thread fail all the same,
            // nothing of the batch is written.
            let mut all = Vec::new();
            for h in handles {
                all.extend(h.join().ok()?);
            }
            Some(all)
        })
    }

    /// Does what is due for one game. A panic in herald while doing it never reaches the
    /// daemon: the game is put back as it was, set aside (paused with the reason), and its
    /// Master and the keeper are told; every other game goes on.
    fn tick_one(&self, game: &mut judge::Game, now: DateTime<Utc>) -> judge::Effects {
        let before = game.clone();
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
            judge::tick::tick(&self.judge, game, now)
        }));
        match result {
            Ok(effects) => effects,
            Err(panic) => {
                let what = panic_text(panic.as_ref());
                tracing::error!(game = %before.name, error = %what, "processing a game failed; it is set aside");
                *game = before;
                self.judge
                    .set_aside(game, &format!("an error of herald's own: {what}"), now)
            }
        }
    }

    async fn commit_effects(
        &self,
        tx: &mut Tx,
        g: &judge::Game,
        effects: &judge::Effects,
        ts: i64,
    ) -> Result<(), ServiceError> {
        let due = self.judge.next_due(g).map(|d| d.timestamp());
        let summary = super::games::summary_of(&self.judge, g);
        tx.save_game(&g.name, g.status.word(), g, &summary, due, ts)
            .await?;
        let mails = self
            .gate(tx, effects.mails.clone(), Default::default(), ts)
            .await?;
        tx.queue_many(&mails, ts).await?;
        for a in &effects.actions {
            tx.log(a.game.as_deref(), &a.actor, &a.what, ts).await?;
        }
        Ok(())
    }
}
