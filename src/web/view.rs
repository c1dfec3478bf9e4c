//! Games as the pages read them: the stored state with its digest (the key of everything
//! rendered from it), and who may see which game.

use axum::http::HeaderMap;

use super::cache::digest;
use super::html::Keep;
use super::sessions::{viewer, Seat};
use super::{Web, WebError};
use crate::judge::Game;

/// A game as stored, read for a page.
pub(super) struct Stored {
    /// The game.
    pub game: Game,
    /// A digest of its stored state: what a page rendered from it is keyed by.
    pub digest: String,
}

/// The game named `name` (as written, else in lower case), if there is one.
pub(super) async fn load(web: &Web, name: &str) -> Result<Option<Stored>, WebError> {
    if name.is_empty() || name.len() > 64 {
        return Ok(None);
    }
    let mut names = vec![name.to_string()];
    let lower = name.to_ascii_lowercase();
    if lower != name {
        names.push(lower);
    }
    let mut tx = web.service.store.begin_read().await?;
    let states = tx.game_states(&names).await?;
    tx.rollback().await?;
    let Some(state) = names.iter().find_map(|n| states.get(n)) else {
        return Ok(None);
    };
    Ok(Some(Stored {
        game: serde_json::from_str(state)?,
        digest: digest(&[state]),
    }))
}

/// Whether `seat` (signed in, or a stranger) may see `game` at all: "private games as the
/// judge rules them: never listed to strangers" (issue 28) — an unlisted game is there for
/// the seats signed in to it alone.
pub(super) fn may_see(game: &Game, seat: Option<&Seat>) -> bool {
    !game.settings.privacy.unlisted || seat.is_some_and(|s| s.game == game.name)
}

/// The game named `name` if this request may see it, with how its pages may be kept.
pub(super) async fn visible(
    web: &Web,
    headers: &HeaderMap,
    name: &str,
) -> Result<Option<(Stored, Keep)>, WebError> {
    let Some(stored) = load(web, name).await? else {
        return Ok(None);
    };
    let seat = viewer(web, headers);
    if !may_see(&stored.game, seat.as_ref()) {
        return Ok(None);
    }
    let keep = if stored.game.settings.privacy.unlisted {
        Keep::Private
    } else {
        Keep::Public
    };
    Ok(Some((stored, keep)))
}
