//! The inbox Maildir read within bounds (issue 24): sizes first, batches of bounded bytes.

use chrono::{DateTime, Utc};
use tracing::warn;

use super::{Service, ServiceError};
use crate::mail::maildir;

impl Service {
    /// Handles every mail waiting in the inbox Maildir, in batches of up to 100 mails and
    /// `[inbox] batch_bytes` bytes, moving each to `cur/` only after its batch committed.
    /// A mail's size is taken from the directory before it is read; of one over `[inbox]
    /// max_bytes` only the headers are read, to tell the sender. Returns how many were read.
    pub(super) async fn poll_maildir(&self, now: DateTime<Utc>) -> Result<usize, ServiceError> {
        let files = self
            .inbox
            .waiting_sized()
            .map_err(|source| ServiceError::Mailbox {
                path: self.inbox.root().to_path_buf(),
                source,
            })?;
        let max = self.config.inbox.max_bytes;
        let sizes: Vec<u64> = files.iter().map(|(_, size)| *size).collect();
        let batches = maildir::batches(
            &sizes,
            100,
            self.config.inbox.batch_bytes as u64,
            max as u64,
        );
        let mut n = 0;
        for range in batches {
            let batch = &files[range];
            let mut read = Vec::with_capacity(batch.len());
            let mut paths = Vec::with_capacity(batch.len());
            for (path, _) in batch {
                match maildir::read_bounded(path, max) {
                    Ok(r) => {
                        read.push(r);
                        paths.push(path);
                    }
                    Err(e) => warn!(path = %path.display(), error = %e, "cannot read a mail file"),
                }
            }
            let mails: Vec<(&[u8], usize)> =
                read.iter().map(maildir::MailFile::bytes_and_size).collect();
            self.ingest_sized(&mails, now).await?;
            for path in paths {
                self.inbox
                    .mark_handled(path)
                    .map_err(|source| ServiceError::Mailbox {
                        path: path.clone(),
                        source,
                    })?;
                n += 1;
            }
        }
        Ok(n)
    }
}
