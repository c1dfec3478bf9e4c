//! `herald migrate --from sqlite:PATH` (issue 29, point 3): a judge's SQLite database
//! copied into the database the configuration names (PostgreSQL), and the copy checked:
//! every table's rows counted in both, every game loaded.

use std::path::Path;

use crate::config::Config;
use crate::judge;
use crate::store::{Copied, CopyError, Store};

use super::{Service, ServiceError};

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
        // keeper's `herald migrate --from`).
        let mut tx = to.begin_read().await?;
        let games = tx.all_games::<judge::Game>().await?;
        tx.rollback().await?;
        let stored = copied.rows("games");
        if i64::try_from(games.len()).ok() != Some(stored) {
            return Err(CopyError::Games {
                loaded: games.len(),
                stored,
            }
            .into());
        }
        to.close().await;
        Ok(copied)
    }
}
