//! The pages of LIST a batch of mails asks for (issue 38), read from the games' summaries:
//! no game's state is read, and a page costs what it prints.

use super::{Service, ServiceError};
use crate::judge::game::Status;
use crate::judge::growth::Standing;
use crate::judge::listed::{Listed, Page, LIST_PAGE};
use crate::judge::Needs;
use crate::store::Tx;

/// Summaries read at a time while a page is filled.
const CHUNK: usize = 200;

impl Service {
    /// Reads, in `tx`, the pages of LIST these mails ask for into `standing`: each page's
    /// games from where it starts until it holds one more than a page of games anyone may
    /// see (the session keeps those its sender may see, and so knows whether a next page
    /// exists), and for a LIST without FULL the first finished games. Those of them whose
    /// Master never confirmed go in `standing.unlisted`. The unlisted games between are
    /// read too (their members may see them), and those of Masters who never confirmed
    /// only for a reader who is their Master: the store passes over the games no reader of
    /// the batch (`readers`, the senders of these mails) may see, however many.
    pub(super) async fn list_pages(
        &self,
        tx: &mut Tx,
        needs: &[Needs],
        readers: &[String],
        standing: &mut Standing,
    ) -> Result<(), ServiceError> {
        let mut pages: Vec<&Page> = Vec::new();
        for page in needs.iter().flat_map(|n| &n.pages) {
            if !pages.contains(&page) {
                pages.push(page);
            }
        }
        for page in &pages {
            let mut rows: Vec<Listed> = Vec::new();
            let mut public = 0;
            let mut from = page.from.clone();
            'read: loop {
                let mut chunk = tx
                    .list_page(
                        &from,
                        page.statuses(),
                        &self.judge.keeper,
                        readers,
                        CHUNK as i64 + 1,
                    )
                    .await?;
                // The row past the chunk is where the next one starts.
                let next = (chunk.len() > CHUNK).then(|| chunk.remove(CHUNK));
                for game in self.listed(tx, chunk, standing).await? {
                    if game.listed && !standing.unlisted.contains(&game.name) {
                        public += 1;
                    }
                    rows.push(game);
                    if public > LIST_PAGE {
                        break 'read;
                    }
                }
                match next {
                    Some(row) => from = row.name,
                    None => break,
                }
            }
            standing.pages.insert((*page).clone(), rows);
        }
        if pages.iter().any(|p| !p.full) {
            let first = tx
                .list_page(
                    "",
                    &["finished"],
                    &self.judge.keeper,
                    readers,
                    LIST_PAGE as i64,
                )
                .await?;
            standing.finished = self.listed(tx, first, standing).await?;
        }
        Ok(())
    }

    /// Stored summaries as LIST reads them; those whose Master never confirmed (but the
    /// keeper) are put in `standing.unlisted`.
    async fn listed(
        &self,
        tx: &mut Tx,
        rows: Vec<crate::store::Listed>,
        standing: &mut Standing,
    ) -> Result<Vec<Listed>, ServiceError> {
        let mut masters: Vec<String> = rows.iter().map(|r| r.summary.master.clone()).collect();
        masters.sort();
        masters.dedup();
        let confirmed = tx.confirmed_among(&masters).await?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let s = r.summary;
                if !confirmed.contains(&s.master) && s.master != self.judge.keeper {
                    standing.unlisted.insert(r.name.clone());
                }
                Listed {
                    status: match r.status.as_str() {
                        "forming" => Status::Forming,
                        "paused" => Status::Paused,
                        "finished" => Status::Finished,
                        _ => Status::Running,
                    },
                    name: r.name,
                    variant: s.variant,
                    phase: s.phase,
                    phase_shown: s.phase_shown,
                    deadline: s.deadline,
                    deadline_shown: s.deadline_shown,
                    seats: s.seats,
                    powers: s.powers,
                    listed: s.listed,
                    master: s.master,
                    members: s.members,
                    comment: s.comment,
                }
            })
            .collect())
    }
}
