//! `herald migrate --from sqlite:PATH` (issue 29, point 3): a judge's SQLite database
//! copied into the database the configuration names (PostgreSQL), and the copy checked:
//! every table's rows counted in both, every game loaded.

use std::path::Path;

use crate::config::Config;
use crate::judge;
use crate::store::{Copied, CopyError, Store};

use super::{Service, ServiceError};

/// Games read a page at a time when a copy is checked.
const PAGE: i64 = 200;

impl Service {
    /// Copies the SQLite database at `source` (a path or a `sqlite:` URL) into the empty
    /// database of `config` (its schema brought up to date first), and checks the copy.
    pub async fn migrate_from(config: &Config, source: &Path) -> Result<Copied, ServiceError> {
        if !matches!(
            crate::store::backend::Location::parse(source),
            crate::store::backend::Location::Sqlite(_)
        ) {
            return Err(CopyError::NotAFile.into());
        }
        let from = Store::open(source).await?;
        let to = Store::open(&config.storage.database).await?;
        let copied = to.copy_from(&from).await?;
        from.close().await;
        copied.check()?;
        // The check is that every copied game loads, so every one is read (once, by the
        // keeper's `herald migrate --from`), a page of games at a time.
        let mut tx = to.begin_read().await?;
        let mut loaded = 0;
        let mut after = String::new();
        loop {
            let names = tx.game_names_after(&after, PAGE).await?;
            let Some(last) = names.last() else { break };
            after = last.clone();
            loaded += tx.games_named::<judge::Game>(&names).await?.len();
        }
        tx.rollback().await?;
        let stored = copied.rows("games");
        if i64::try_from(loaded).ok() != Some(stored) {
            return Err(CopyError::Games { loaded, stored }.into());
        }
        to.close().await;
        Ok(copied)
    }
}
