//! What the outbox lets go as it delivers: the files of mails sent, within a minute; their
//! text `keep_outbox_days` after.

use super::{Service, ServiceError};
use crate::store::PRUNE_BATCH;

/// How many batches of [`PRUNE_BATCH`] mails one hourly pruning goes through at most.
const PRUNE_BATCHES: usize = 20;

impl Service {
    /// Drops the files of mails sent (at most once a minute), and the text of mails sent
    /// `keep_outbox_days` ago (their rows stay, at most once an hour); a backlog goes in
    /// batches, at most [`PRUNE_BATCHES`] a time.
    pub(super) async fn prune_hourly(&self, now: i64) -> Result<(), ServiceError> {
        use std::sync::atomic::Ordering;
        if now.saturating_sub(self.files_dropped_at.load(Ordering::Relaxed)) >= 60 {
            self.files_dropped_at.store(now, Ordering::Relaxed);
            self.store.drop_sent_files().await?;
        }
        let last = self.pruned_at.load(Ordering::Relaxed);
        if last != 0 && now.saturating_sub(last) < 3600 {
            return Ok(());
        }
        self.pruned_at.store(now, Ordering::Relaxed);
        let keep = i64::from(self.config.limits.keep_outbox_days) * 86_400;
        for _ in 0..PRUNE_BATCHES {
            if self.store.prune_outbox(now - keep, now).await? < PRUNE_BATCH {
                break;
            }
        }
        Ok(())
    }
}
