//! What was mailed to one address, read back for the web face's signed-in page (issue
//! 28): the answer to a mail given on the web, and the game's mails to a seat's address.

use sqlx::Row;

use super::backend::on;
use super::{OrClose, Store, StoreError};

/// One mail in the outbox, as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mailed {
    /// When it was queued (Unix seconds).
    pub created: i64,
    /// Its subject.
    pub subject: String,
    /// Its text (empty once pruned).
    pub body: String,
}

impl Store {
    /// The mails to `to` answering the mail with this Message-ID (with its angle brackets
    /// or without), oldest first.
    pub async fn answers(&self, message_id: &str, to: &str) -> Result<Vec<Mailed>, StoreError> {
        let id = message_id
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>');
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            let rows = sqlx::query(
                "SELECT created, subject, body FROM outbox WHERE in_reply_to = $1 AND recipient = $2 ORDER BY id",
            )
            .bind(id)
            .bind(to)
            .fetch_all(&mut **c)
            .await
            .or_close(c, "reading answers")?;
            Ok(rows
                .iter()
                .map(|r| Mailed {
                    created: r.get(0),
                    subject: r.get(1),
                    body: r.get(2),
                })
                .collect())
        })
    }

    /// The last `limit` mails to `to` whose subject begins with `prefix` (a game's
    /// `JUDGE:name - `), newest first.
    pub async fn mailed_to(
        &self,
        to: &str,
        prefix: &str,
        limit: i64,
    ) -> Result<Vec<Mailed>, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            let rows = sqlx::query(
                "SELECT created, subject, body FROM outbox WHERE recipient = $1 \
                 AND substr(subject, 1, length($2)) = $2 ORDER BY id DESC LIMIT $3",
            )
            .bind(to)
            .bind(prefix)
            .bind(limit)
            .fetch_all(&mut **c)
            .await
            .or_close(c, "reading the mails to an address")?;
            Ok(rows
                .iter()
                .map(|r| Mailed {
                    created: r.get(0),
                    subject: r.get(1),
                    body: r.get(2),
                })
                .collect())
        })
    }
}
