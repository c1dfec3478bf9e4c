//! The service's side of the mail servers: reading the IMAP inbox in bounded batches, and
//! telling the keeper (the log and the attention file) when reading or sending is stopped
//! by something only the keeper can put right.

use chrono::{DateTime, Utc};

use super::{Service, ServiceError};
use crate::mail::imap::ImapInbox;
use crate::mail::smtp::SendError;

impl Service {
    /// Sends queued mail that is due (SMTP, or files in the outbox Maildir); returns how many
    /// went out. Each attempt is recorded before it is made, so a crash between sending and
    /// recording resends with the same Message-ID rather than losing the mail; a file is
    /// named after its outbox row, so one written before such a crash is found and not
    /// written twice. A transient failure is retried with backoff (`[smtp] retry_seconds`,
    /// doubling, at most an hour); a permanent one is kept with the server's answer and
    /// reported in the log, as is a mail that cannot be written (no valid recipient, larger
    /// than `[limits] send_bytes`, or a failure while writing it): that one is marked
    /// failed with its reason and never tried again. Mails sent or failed `[limits]
    /// keep_outbox_days` ago lose their text and files first (the rows stay). A mail
    /// that went out but could not be recorded as sent (the database refusing to write) is
    /// kept in memory and its record retried first, next time, before anything else is
    /// sent: the record is retried, never the send.
    ///
    /// The SMTP server is asked to be ready before any mail is claimed: a server that does
    /// not answer, or refuses herald's login (535), ends the round at once (one timeout a
    /// round, not one a mail), leaves every mail queued without counting a try, and is
    /// told to the keeper in the log and the attention file, as is a wrong `[judge]
    /// address`; the file goes once mail goes out again.
    pub async fn deliver(&self, now: DateTime<Utc>) -> Result<usize, ServiceError> {
        let result = self.deliver_due(now).await;
        match &result {
            Ok(_) => self.attention.clear("sending"),
            Err(
                e @ (ServiceError::SmtpServer { .. }
                | ServiceError::Config(_)
                | ServiceError::Mailbox { .. }),
            ) => {
                self.attention.raise("sending", &e.to_string(), now);
            }
            Err(_) => {}
        }
        result
    }

    /// Reads new mail over IMAP, handles it, and only then marks it handled on the server:
    /// the sizes first, then batch by batch (at most `[imap] batch_bytes` held at once), a
    /// mail over `[inbox] max_bytes` fetched only up to its head and refused by its size.
    pub(super) async fn poll_imap(
        &self,
        imap: &tokio::sync::Mutex<ImapInbox>,
        now: DateTime<Utc>,
    ) -> Result<usize, ServiceError> {
        let mut inbox = imap.lock().await;
        let result = self.read_imap(&mut inbox, now).await;
        match &result {
            Ok(_) => self.attention.clear("reading"),
            Err(e) => {
                inbox.reset();
                self.attention.raise("reading", &e.to_string(), now);
            }
        }
        result
    }

    async fn read_imap(
        &self,
        inbox: &mut ImapInbox,
        now: DateTime<Utc>,
    ) -> Result<usize, ServiceError> {
        let waiting = inbox.waiting().await?;
        let mut n = 0;
        for batch in inbox.batches(&waiting) {
            let fetched = inbox.fetch(&batch).await?;
            if fetched.is_empty() {
                continue;
            }
            crate::failpoint::hit("after-fetch");
            let sized: Vec<(&[u8], usize)> =
                fetched.iter().map(|f| (f.raw.as_slice(), f.size)).collect();
            self.ingest_sized(&sized, now).await?;
            crate::failpoint::hit("after-commit");
            let uids: Vec<u32> = fetched.iter().map(|f| f.uid).collect();
            inbox.mark_handled(&uids).await?;
            n += fetched.len();
        }
        Ok(n)
    }
}

/// A send that failed for the server's sake, as the round's error.
pub(super) fn server_fault(why: SendError) -> ServiceError {
    let reason = match why {
        SendError::Server(r) | SendError::Transient(r) | SendError::Permanent(r) => r,
    };
    ServiceError::SmtpServer { reason }
}
