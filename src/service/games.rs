//! The games as the keeper reads them (`herald game list`, `herald game show`, `herald
//! export`) and the web face finds them.

use chrono::{DateTime, Utc};

use super::{Service, ServiceError};
use crate::judge::{self, Judge};
use crate::store::{Store, Summary};
use tracing::warn;

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

/// A game's summary as the store keeps it next to its state (issue 38): what the listings
/// print ([`judge::listed::Listed::of`]), read without decoding the state.
pub fn summary_of(judge: &Judge, g: &judge::Game) -> Summary {
    let l = judge::listed::Listed::of(judge, g);
    Summary {
        variant: l.variant,
        phase: l.phase,
        phase_shown: l.phase_shown,
        deadline: l.deadline,
        deadline_shown: l.deadline_shown,
        listed: l.listed,
        master: l.master,
        members: l.members,
        seats: l.seats,
        powers: l.powers,
        comment: l.comment,
    }
}

/// Games read at a time from the summaries for the keeper's listing.
const KEEPER_PAGE: i64 = 500;

/// Every status a game may have, for a listing of them all.
pub(super) const EVERY_STATUS: [&str; 4] = ["forming", "running", "paused", "finished"];

impl Service {
    /// Every game, by name, for the keeper's listing (`herald game list`): read from the
    /// summaries a page at a time, no game's state decoded.
    pub async fn game_list(&self) -> Result<Vec<GameSummary>, ServiceError> {
        let mut out = Vec::new();
        let mut tx = self.store.begin_read().await?;
        let mut from = String::new();
        loop {
            let mut page = tx.game_page(&from, &EVERY_STATUS, KEEPER_PAGE + 1).await?;
            // The row past the page is where the next page starts.
            let next = (page.len() as i64 > KEEPER_PAGE).then(|| page.remove(page.len() - 1));
            out.extend(page.into_iter().map(|row| {
                GameSummary {
                    name: row.name,
                    variant: row.summary.variant,
                    status: row.status,
                    phase: row.summary.phase,
                    deadline: row
                        .summary
                        .deadline
                        .and_then(|t| DateTime::<Utc>::from_timestamp(t, 0)),
                }
            }));
            match next {
                Some(row) => from = row.name,
                None => break,
            }
        }
        tx.rollback().await?;
        Ok(out)
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
    /// export`); `None` if there is no such game. Only that game's row is read.
    pub async fn game(&self, name: &str) -> Result<Option<judge::Game>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let game = tx.game_named::<judge::Game>(name).await;
        tx.rollback().await?;
        Ok(game?)
    }
}

/// Games whose summary is filled at a time when the database is opened.
const SUMMARISE_PAGE: i64 = 200;

/// Fills the summary of every game stored before summaries were kept (migration 0008), a
/// page of games a transaction; a game saved since has its own. Run at every open, it
/// finds nothing to do once done. A game whose state this herald cannot read is left
/// without one (and said so in the log): a listing shows its name only.
pub(super) async fn summarise_stored(store: &Store, judge: &Judge) -> Result<(), ServiceError> {
    let mut after = String::new();
    loop {
        let mut tx = store.begin().await?;
        let page = tx.unsummarised(&after, SUMMARISE_PAGE).await?;
        for (name, state) in &page {
            match serde_json::from_str::<judge::Game>(state) {
                Ok(g) => tx.fill_summary(name, &summary_of(judge, &g)).await?,
                Err(error) => {
                    warn!(game = %name, %error, "a stored game could not be read to list it")
                }
            }
        }
        tx.commit().await?;
        match page.last() {
            Some((name, _)) if page.len() as i64 == SUMMARISE_PAGE => after = name.clone(),
            _ => return Ok(()),
        }
    }
}
