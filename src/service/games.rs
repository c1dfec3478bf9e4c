//! The games as the keeper reads them (`herald game list`, `herald game show`, `herald
//! export`) and the web face finds them.

use chrono::{DateTime, Utc};

use super::{Service, ServiceError};
use crate::judge;

/// One line of the keeper's game listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's name.
    pub name: String,
    /// Its variant.
    pub variant: String,
    /// Its status word (forming, running, paused, finished).
    pub status: String,
    /// The phase being played, once started.
    pub phase: Option<String>,
    /// The current deadline, if any.
    pub deadline: Option<DateTime<Utc>>,
}

impl std::fmt::Display for GameSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // To the minute, as deadlines are set.
        let deadline = self
            .deadline
            .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string());
        write!(
            f,
            "{:<13} {:<10} {:<9} {:<8} {}",
            self.name,
            self.variant,
            self.status,
            self.phase.as_deref().unwrap_or("-"),
            deadline.as_deref().unwrap_or("-")
        )
    }
}

impl Service {
    /// Every game, by name, for the keeper's listing (`herald game list`).
    pub async fn game_list(&self) -> Result<Vec<GameSummary>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let games = tx.all_games::<judge::Game>().await?;
        tx.rollback().await?;
        Ok(games
            .iter()
            .map(|g| GameSummary {
                name: g.name.clone(),
                variant: g.variant.clone(),
                status: g.status.word().to_string(),
                phase: g
                    .position
                    .as_ref()
                    .map(|p| self.judge.variant(g).calendar.code(p.phase)),
                deadline: g.deadline,
            })
            .collect())
    }

    /// One game in full for the keeper (`herald game show`), found by name in any case;
    /// `None` if there is no such game.
    pub async fn game_view(&self, name: &str) -> Result<Option<String>, ServiceError> {
        Ok(self
            .game(name)
            .await?
            .map(|g| judge::summary::keeper_view(&self.judge, &g)))
    }

    /// One game as stored, found by name in any case (`herald game show`, `herald
    /// export`); `None` if there is no such game.
    pub async fn game(&self, name: &str) -> Result<Option<judge::Game>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let games = tx.all_games::<judge::Game>().await?;
        tx.rollback().await?;
        Ok(games
            .into_iter()
            .find(|g| g.name.eq_ignore_ascii_case(name)))
    }
}
