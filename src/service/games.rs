//! The games as the keeper reads them (`herald game list`, `herald game show`, `herald
//! export`) and the web face finds them.

use super::{GameSummary, Service, ServiceError};
use crate::judge;

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
