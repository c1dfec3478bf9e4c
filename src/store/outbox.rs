//! The outbox as the sender reads and marks it: mails due for a try with their files, each
//! attempt recorded before it is made, and what became of it.

use std::collections::HashMap;
use std::sync::Arc;

use sqlx::{QueryBuilder, Row};

use super::backend::{on, Conn};
use super::{OrClose, Store, StoreError};
use crate::envelope::{Attachment, Outgoing};

impl Store {
    /// Mails not yet sent and due for a try at `now`, oldest first, with their attachments
    /// (read for the whole batch at once; a file carried by several mails is read once and
    /// shared).
    pub async fn unsent(&self, now: i64, limit: i64) -> Result<Vec<(i64, Outgoing)>, StoreError> {
        self.unsent_after(now, 0, limit).await
    }

    /// [`Store::unsent`] queued after the row `after`: a round of sending goes through the
    /// outbox once, in order, passing over the mails another daemon is sending.
    pub async fn unsent_after(
        &self,
        now: i64,
        after: i64,
        limit: i64,
    ) -> Result<Vec<(i64, Outgoing)>, StoreError> {
        let mut conn = self.conn().await?;
        let mut mails: Vec<(i64, Outgoing)> = on!(&mut conn, |c, Db| {
            let rows = sqlx::query(
                "SELECT id, recipient, subject, body, in_reply_to FROM outbox \
                 WHERE sent IS NULL AND failed IS NULL AND (next_attempt IS NULL OR next_attempt <= $1) \
                 AND id > $2 ORDER BY id LIMIT $3",
            )
            .bind(now)
            .bind(after)
            .bind(limit)
            .fetch_all(&mut **c)
            .await
            .or_close(c, "reading the outbox")?;
            rows.iter()
                .map(|r| {
                    (
                        r.get(0),
                        Outgoing {
                            to: r.get(1),
                            subject: r.get(2),
                            body: r.get(3),
                            in_reply_to: r.get(4),
                            attachments: Vec::new(),
                        },
                    )
                })
                .collect()
        });
        let ids: Vec<i64> = mails.iter().map(|(id, _)| *id).collect();
        let mut files = Store::attachments_of(&mut conn, &ids).await?;
        for (id, mail) in &mut mails {
            if let Some(list) = files.remove(id) {
                mail.attachments = list;
            }
        }
        Ok(mails)
    }

    /// The attachments of these outbox rows, each row's in order.
    async fn attachments_of(
        conn: &mut Conn,
        ids: &[i64],
    ) -> Result<HashMap<i64, Vec<Attachment>>, StoreError> {
        let mut links = Vec::new();
        for chunk in ids.chunks(500) {
            on!(&mut *conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new(
                    "SELECT outbox_id, name, content_type, hash, inline FROM outbox_attachments WHERE outbox_id IN (",
                );
                let mut list = q.separated(", ");
                for id in chunk {
                    list.push_bind(*id);
                }
                q.push(") ORDER BY outbox_id, position");
                let rows = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .or_close(c, "reading attachments")?;
                links.extend(rows.iter().map(|r| {
                    (
                        r.get::<i64, _>(0),
                        r.get::<String, _>(1),
                        r.get::<String, _>(2),
                        r.get::<String, _>(3),
                        r.get::<Option<String>, _>(4),
                    )
                }));
            });
        }
        let mut hashes: Vec<&str> = links.iter().map(|l| l.3.as_str()).collect();
        hashes.sort_unstable();
        hashes.dedup();
        let mut blobs: HashMap<String, Arc<[u8]>> = HashMap::new();
        for chunk in hashes.chunks(500) {
            on!(&mut *conn, |c, Db| {
                let mut q =
                    QueryBuilder::<Db>::new("SELECT hash, bytes FROM blobs WHERE hash IN (");
                let mut list = q.separated(", ");
                for h in chunk {
                    list.push_bind(*h);
                }
                q.push(")");
                let rows = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .or_close(c, "reading attachment files")?;
                blobs.extend(
                    rows.iter()
                        .map(|r| (r.get::<String, _>(0), Arc::from(r.get::<&[u8], _>(1)))),
                );
            });
        }
        let mut out: HashMap<i64, Vec<Attachment>> = HashMap::new();
        for (id, name, content_type, hash, inline) in links {
            // The foreign key keeps every file a link names; were one gone, the mail still
            // goes, without it, rather than holding up the outbox.
            let Some(bytes) = blobs.get(&hash) else {
                tracing::error!(
                    id,
                    name,
                    hash,
                    "an attachment's file is missing; sent without it"
                );
                continue;
            };
            out.entry(id).or_default().push(Attachment {
                name,
                content_type,
                bytes: Arc::clone(bytes),
                inline,
            });
        }
        Ok(out)
    }

    /// Records a delivery attempt at `now` before it is made, and returns how many there
    /// have been; the next try waits until `next`. Nothing is recorded, and `None` returned,
    /// when the mail is no longer to be tried at `now`: sent, failed, or already tried by
    /// another daemon sharing the database, whose next try is later.
    pub async fn record_attempt(
        &self,
        id: i64,
        now: i64,
        next: i64,
    ) -> Result<Option<i64>, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query_scalar(
                "UPDATE outbox SET attempts = attempts + 1, next_attempt = $1 WHERE id = $2 \
                 AND sent IS NULL AND failed IS NULL AND (next_attempt IS NULL OR next_attempt <= $3) \
                 RETURNING attempts",
            )
            .bind(next)
            .bind(id)
            .bind(now)
            .fetch_optional(&mut **c)
            .await
            .or_close(c, "recording a delivery attempt")
        })
    }

    /// How many attempts a queued mail has had.
    pub async fn attempts(&self, id: i64) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query_scalar("SELECT attempts FROM outbox WHERE id = $1")
                .bind(id)
                .fetch_one(&mut **c)
                .await
                .or_close(c, "reading delivery attempts")
        })
    }

    /// Marks a queued mail refused for good, with the server's answer.
    pub async fn mark_failed(&self, id: i64, reason: &str) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query("UPDATE outbox SET failed = $1 WHERE id = $2")
                .bind(reason)
                .bind(id)
                .execute(&mut **c)
                .await
                .or_close(c, "marking a mail failed")?;
        });
        Ok(())
    }

    /// Marks an outbox mail sent.
    pub async fn mark_sent(&self, id: i64, now: i64) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            sqlx::query("UPDATE outbox SET sent = $1 WHERE id = $2")
                .bind(now)
                .bind(id)
                .execute(&mut **c)
                .await
                .or_close(c, "marking a mail sent")?;
        });
        Ok(())
    }
}
