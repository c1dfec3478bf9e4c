//! Why a call to the service failed.

use std::path::PathBuf;

use super::LockError;
use crate::catalog::CatalogError;
use crate::config::ConfigError;
use crate::judge::render::TemplateError;
use crate::mail::imap::ImapError;
use crate::store::StoreError;

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
    /// The IMAP inbox.
    #[error(transparent)]
    Imap(#[from] ImapError),
    /// A configured directory is not there.
    #[error("{key} = '{}': no such directory", path.display())]
    NoDirectory {
        /// The key.
        key: &'static str,
        /// The directory.
        path: PathBuf,
    },
    /// The SMTP settings.
    #[error("SMTP settings: {0}")]
    Smtp(crate::mail::security::TlsSetupError),
    /// The SMTP server cannot take mail now (no answer in time, login or TLS refused): the
    /// mail stays queued and is tried again next round.
    #[error("the SMTP server cannot take mail now, so the mail stays queued: {reason}")]
    SmtpServer {
        /// What the server did.
        reason: String,
    },
    /// Another herald holds the database's lock.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// `herald migrate --from` made no copy, or a copy that does not match its source.
    #[error(transparent)]
    Copy(#[from] crate::store::CopyError),
    /// A mailbox.
    #[error("mailbox {path}: {source}")]
    Mailbox {
        /// The Maildir.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
