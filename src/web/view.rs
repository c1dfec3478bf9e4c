//! Games as the pages read them: first a game's head (its stored name, version and whether
//! it is listed, read from the summary columns by name), which says who may see it and what
//! every page rendered from it is keyed by; the state itself is read and decoded only when a
//! page must be rendered.

use axum::http::HeaderMap;

use super::html::Keep;
use super::sessions::{viewer, Seat};
use super::{Web, WebError};
use crate::judge::Game;
use crate::store::Head;

/// A game found for a page, before its state is read.
pub(super) struct Found {
    /// Its head.
    pub head: Head,
    /// How its pages may be kept.
    pub keep: Keep,
}

impl Found {
    /// The game's name as stored.
    pub fn name(&self) -> &str {
        &self.head.name
    }

    /// What names this stored state in a cache key: its version and last write.
    pub fn mark(&self) -> String {
        format!("{}.{}", self.head.version, self.head.updated)
    }

    /// The game's state, read and decoded (none if it was removed since its head was read).
    pub async fn game(&self, web: &Web) -> Result<Option<Game>, WebError> {
        read(web, std::slice::from_ref(&self.head.name)).await
    }

    /// `read` if the game was read already, else the game's state read now.
    pub async fn game_or(&self, web: &Web, read: Option<Game>) -> Result<Option<Game>, WebError> {
        match read {
            Some(game) => Ok(Some(game)),
            None => self.game(web).await,
        }
    }
}

/// `name` as written, then in lower case: the names a game is looked up by.
fn names(name: &str) -> Option<Vec<String>> {
    if name.is_empty() || name.len() > 64 {
        return None;
    }
    let mut names = vec![name.to_string()];
    let lower = name.to_ascii_lowercase();
    if lower != name {
        names.push(lower);
    }
    Some(names)
}

/// The first of these games stored, read and decoded.
async fn read(web: &Web, names: &[String]) -> Result<Option<Game>, WebError> {
    let mut tx = web.service.store.begin_read().await?;
    let states = tx.game_states(names).await?;
    tx.rollback().await?;
    match names.iter().find_map(|n| states.get(n)) {
        Some(state) => Ok(Some(serde_json::from_str(state)?)),
        None => Ok(None),
    }
}

/// The game named `name` (as written, else in lower case), read whole, if there is one.
pub(super) async fn load(web: &Web, name: &str) -> Result<Option<Game>, WebError> {
    match names(name) {
        Some(names) => read(web, &names).await,
        None => Ok(None),
    }
}

/// Whether `seat` (signed in, or a stranger) may see the game of `head` at all: a private
/// game, never listed to strangers, is there for the seats signed in to it alone.
pub(super) fn may_see(head: &Head, seat: Option<&Seat>) -> bool {
    head.listed || seat.is_some_and(|s| s.game == head.name)
}

/// The game named `name` if this request may see it, with how its pages may be kept; its
/// state not read yet.
pub(super) async fn visible(
    web: &Web,
    headers: &HeaderMap,
    name: &str,
) -> Result<Option<Found>, WebError> {
    let Some(names) = names(name) else {
        return Ok(None);
    };
    let Some(head) = web.service.store.game_head(&names).await? else {
        return Ok(None);
    };
    let seat = viewer(web, headers);
    if !may_see(&head, seat.as_ref()) {
        return Ok(None);
    }
    let keep = if head.listed {
        Keep::Public
    } else {
        Keep::Private
    };
    Ok(Some(Found { head, keep }))
}
