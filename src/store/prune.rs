//! The outbox keeps no text forever (issue 24): the text and files of mails sent, or
//! failed, long ago are dropped, their rows kept; and the outbox as the keeper sees it.

use sqlx::{QueryBuilder, Row};

use super::backend::on;
use super::{db, OrClose, Store, StoreError, Tx};

/// Drops the attachment links of the mails `ids`, and the files no mail names any more.
async fn drop_files(tx: &mut Tx, ids: &[i64]) -> Result<(), StoreError> {
    let hashes: Vec<String> = on!(&mut tx.conn, |c, Db| {
        let in_ids = |head: &str| {
            let mut q = QueryBuilder::<Db>::new(head);
            let mut list = q.separated(", ");
            for id in ids {
                list.push_bind(*id);
            }
            q.push(")");
            q
        };
        let hashes: Vec<String> =
            in_ids("SELECT DISTINCT hash FROM outbox_attachments WHERE outbox_id IN (")
                .build_query_scalar()
                .fetch_all(&mut **c)
                .await
                .map_err(db("finding the files of mails to prune"))?;
        in_ids("DELETE FROM outbox_attachments WHERE outbox_id IN (")
            .build()
            .execute(&mut **c)
            .await
            .map_err(db("pruning attachments"))?;
        hashes
    });
    for chunk in hashes.chunks(500) {
        on!(&mut tx.conn, |c, Db| {
            let mut q = QueryBuilder::<Db>::new("DELETE FROM blobs WHERE hash IN (");
            let mut list = q.separated(", ");
            for h in chunk {
                list.push_bind(h.as_str());
            }
            q.push(
                ") AND NOT EXISTS (SELECT 1 FROM outbox_attachments a WHERE a.hash = blobs.hash)",
            );
            q.build()
                .execute(&mut **c)
                .await
                .map_err(db("pruning attachment files"))?;
        });
    }
    Ok(())
}

/// One outbox row as the keeper sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    /// Its number.
    pub id: i64,
    /// The recipient.
    pub to: String,
    /// The subject.
    pub subject: String,
    /// The size of the text kept (0 once pruned).
    pub body_bytes: i64,
    /// When it was sent.
    pub sent: Option<i64>,
    /// Why it failed for good.
    pub failed: Option<String>,
    /// When its text and files were dropped.
    pub pruned: Option<i64>,
    /// How many files it still carries.
    pub attachments: i64,
}

/// How many mails one [`Store::prune_outbox`] call prunes at most.
pub const PRUNE_BATCH: usize = 1000;

impl Store {
    /// Drops the text and files of the mails sent, or failed, at or before `before` (a
    /// failed mail counts from when it was queued), at most [`PRUNE_BATCH`] a call, marking them
    /// pruned at `now`; a file no mail names any more goes too. Returns how many mails were
    /// pruned. The rows stay: they say that the mail went, and when.
    pub async fn prune_outbox(&self, before: i64, now: i64) -> Result<usize, StoreError> {
        let mut tx = self.begin().await?;
        let ids: Vec<i64> = on!(&mut tx.conn, |c, Db| {
            sqlx::query_scalar(
                "SELECT id FROM outbox WHERE pruned IS NULL \
                 AND ((sent IS NOT NULL AND sent <= $1) OR (failed IS NOT NULL AND created <= $1)) \
                 ORDER BY id LIMIT $2",
            )
            .bind(before)
            .bind(PRUNE_BATCH as i64)
            .fetch_all(&mut **c)
            .await
            .map_err(db("finding mails to prune"))?
        });
        if ids.is_empty() {
            tx.rollback().await?;
            return Ok(0);
        }
        drop_files(&mut tx, &ids).await?;
        on!(&mut tx.conn, |c, Db| {
            let mut q = QueryBuilder::<Db>::new("UPDATE outbox SET body = '', pruned = ");
            q.push_bind(now).push(" WHERE id IN (");
            let mut list = q.separated(", ");
            for id in &ids {
                list.push_bind(*id);
            }
            q.push(")");
            q.build()
                .execute(&mut **c)
                .await
                .map_err(db("pruning mails"))?;
        });
        tx.commit().await?;
        Ok(ids.len())
    }

    /// Drops the files (pictures, calendar entries) of mails that went, or failed for good,
    /// whenever they went, at most [`PRUNE_BATCH`] mails a call; a file no mail names any
    /// more goes too. A mail keeps its files only until it is sent: the pictures are drawn
    /// again from the stored position whenever they are asked for, and kept they filled the
    /// database (a game of one-minute phases stored 260 MB of pictures in a day). The text
    /// stays until [`Store::prune_outbox`]. Returns how many mails lost their files.
    pub async fn drop_sent_files(&self) -> Result<usize, StoreError> {
        let mut tx = self.begin().await?;
        let ids: Vec<i64> = on!(&mut tx.conn, |c, Db| {
            sqlx::query_scalar(
                "SELECT DISTINCT a.outbox_id FROM outbox_attachments a \
                 JOIN outbox o ON o.id = a.outbox_id \
                 WHERE o.sent IS NOT NULL OR o.failed IS NOT NULL \
                 ORDER BY a.outbox_id LIMIT $1",
            )
            .bind(PRUNE_BATCH as i64)
            .fetch_all(&mut **c)
            .await
            .map_err(db("finding the files of mails sent"))?
        });
        if ids.is_empty() {
            tx.rollback().await?;
            return Ok(0);
        }
        drop_files(&mut tx, &ids).await?;
        tx.commit().await?;
        Ok(ids.len())
    }

    /// Every outbox row as the keeper sees it, oldest first (for tests and the keeper).
    pub async fn outbox_rows(&self) -> Result<Vec<OutboxRow>, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            let rows = sqlx::query(
                "SELECT id, recipient, subject, CAST(octet_length(body) AS BIGINT), sent, failed, pruned, \
                 (SELECT COUNT(*) FROM outbox_attachments a WHERE a.outbox_id = outbox.id) \
                 FROM outbox ORDER BY id",
            )
            .fetch_all(&mut **c)
            .await
            .or_close(c, "reading the outbox")?;
            Ok(rows
                .iter()
                .map(|r| OutboxRow {
                    id: r.get(0),
                    to: r.get(1),
                    subject: r.get(2),
                    body_bytes: r.get(3),
                    sent: r.get(4),
                    failed: r.get(5),
                    pruned: r.get(6),
                    attachments: r.get(7),
                })
                .collect())
        })
    }

    /// How many attachment files the database holds (each kept once, by digest).
    pub async fn blob_count(&self) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query_scalar("SELECT COUNT(*) FROM blobs")
                .fetch_one(&mut **c)
                .await
                .or_close(c, "counting attachment files")
        })
    }
}
