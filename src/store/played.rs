//! A game's played phases in rows of their own (issue 38, point 2). A state's lists that
//! only grow — the keys in [`LISTS`]: the judge's history of phases played (board before,
//! orders, results) and its archive of results and broadcasts — are kept one item a row in
//! `played (game, list, seq, digest, body)`; the rest of the state, the live part (the
//! current phase, orders on file, ledgers), is the `state` of its `games` row, and `lists`
//! there names the keys taken out. A save rewrites the live part and writes only the items
//! that are not stored as they are now; loading puts the items back, so every reader still
//! gets the whole state as it was saved.
//!
//! # Why a digest per row
//!
//! The lists are appended to, but ROLLBACK cuts the history back and the phases replayed
//! after it are new items at old places. A save tells an item it need not write by the
//! digest stored beside it (the first 128 bits of SHA-256 of its JSON): the items whose
//! digest differs or that are missing are written, those past the list's end deleted. This
//! is correct whatever changed since the state was read (by this daemon or another), needs
//! nothing of the judge, and reads a few bytes a row, not the rows. Its cost is that a save
//! encodes the whole state, as it always did, and digests every item (SHA-256 runs at
//! gigabytes a second: a tenth of a millisecond at twenty game-years); what it saves is the
//! database rewriting the whole history — some 10 KB a game-year — on every order mail.
//!
//! A mark kept by the judge of how many items are unchanged since the game was read would
//! spare even the encoding, but it would have to be right at every place the judge touches
//! its lists, and trusted across daemons; the digests are checked against the database
//! itself.
//!
//! The store stays generic: it knows the keys, not the game. A state that is not an
//! object, or has no array under a key, is kept as it is.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};
use sqlx::{QueryBuilder, Row};

use super::backend::on;
use super::{db, hex, text, StoreError, Tx};

/// The keys of a state's lists kept in rows of their own, in the order loading puts them
/// back.
pub const LISTS: [&str; 2] = ["history", "archive"];

/// A state taken apart for saving.
pub(super) struct Split {
    /// The live part: the state without its lists, as JSON.
    pub live: String,
    /// The keys taken out, space separated (the `lists` column).
    pub keys: String,
    /// Each list taken out: its key and its items as JSON, each with its digest.
    pub lists: Vec<(&'static str, Vec<(String, String)>)>,
}

/// The digest a row is stored with.
fn digest(body: &str) -> String {
    hex(&Sha256::digest(body.as_bytes())[..16])
}

/// `state` taken apart (see the module's notes). It is encoded once, and its top level and
/// lists read back as raw JSON: no item is parsed into values or encoded again.
pub(super) fn split<T: Serialize>(name: &str, state: &T) -> Result<Split, StoreError> {
    let encode = |source| StoreError::Decode {
        name: name.to_string(),
        source,
    };
    let whole = serde_json::to_string(state).map_err(encode)?;
    let kept_whole = |live: String| Split {
        live,
        keys: String::new(),
        lists: Vec::new(),
    };
    let Ok(mut fields) = serde_json::from_str::<BTreeMap<String, &RawValue>>(&whole) else {
        return Ok(kept_whole(whole));
    };
    let mut lists = Vec::new();
    for key in LISTS {
        let Some(raw) = fields.get(key) else {
            continue;
        };
        let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(raw.get()) else {
            continue;
        };
        fields.remove(key);
        let rows = items
            .iter()
            .map(|item| (digest(item.get()), item.get().to_string()))
            .collect();
        lists.push((key, rows));
    }
    if lists.is_empty() {
        return Ok(kept_whole(whole));
    }
    let mut live = String::with_capacity(whole.len() / 4);
    live.push('{');
    for (i, (key, value)) in fields.iter().enumerate() {
        if i > 0 {
            live.push(',');
        }
        live.push_str(&serde_json::to_string(key).map_err(encode)?);
        live.push(':');
        live.push_str(value.get());
    }
    live.push('}');
    let keys = lists.iter().map(|l| l.0).collect::<Vec<_>>().join(" ");
    Ok(Split { live, keys, lists })
}

/// The whole state: `live` with each list named in `keys` put back from `items` (the
/// list's rows in order, by key).
fn assemble(live: &str, keys: &str, items: &HashMap<&str, Vec<&str>>) -> String {
    let mut keys = keys.split_whitespace().peekable();
    if keys.peek().is_none() {
        return live.to_string();
    }
    let size = items.values().flatten().map(|b| b.len() + 1).sum::<usize>();
    let open = live.trim_end().strip_suffix('}').unwrap_or(live).trim_end();
    let mut out = String::with_capacity(open.len() + size + 64);
    out.push_str(open);
    let mut first = open.ends_with('{');
    for key in keys {
        if !first {
            out.push(',');
        }
        first = false;
        out.push('"');
        out.push_str(key);
        out.push_str("\":[");
        for (i, body) in items.get(key).into_iter().flatten().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(body);
        }
        out.push(']');
    }
    out.push('}');
    out
}

impl Tx {
    /// Each game of `rows` (name, live state, `lists`) whole, its lists put back from
    /// `played`: (name, state) in the order given.
    pub(super) async fn assembled(
        &mut self,
        rows: Vec<(String, String, Option<String>)>,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let apart: Vec<String> = rows
            .iter()
            .filter(|r| r.2.as_deref().is_some_and(|k| !k.trim().is_empty()))
            .map(|r| r.0.clone())
            .collect();
        let mut bodies: HashMap<String, Vec<(String, String)>> = HashMap::new();
        for chunk in apart.chunks(200) {
            on!(&mut self.conn, |c, Db| {
                let mut q =
                    QueryBuilder::<Db>::new("SELECT game, list, body FROM played WHERE game IN (");
                let mut list = q.separated(", ");
                for n in chunk {
                    list.push_bind(text(n).into_owned());
                }
                q.push(") ORDER BY game, list, seq");
                let found = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .map_err(db("loading played phases"))?;
                for r in &found {
                    bodies
                        .entry(r.get::<String, _>(0))
                        .or_default()
                        .push((r.get(1), r.get(2)));
                }
            });
        }
        Ok(rows
            .into_iter()
            .map(|(name, live, keys)| {
                let Some(keys) = keys else {
                    return (name, live);
                };
                let mut items: HashMap<&str, Vec<&str>> = HashMap::new();
                for (list, body) in bodies.get(&name).into_iter().flatten() {
                    items.entry(list).or_default().push(body);
                }
                let whole = assemble(&live, &keys, &items);
                (name, whole)
            })
            .collect())
    }

    /// Writes the rows of `played` that `splits` (by game) need and are not stored as
    /// they are, and deletes those past each list's end. Returns the bytes written.
    pub(super) async fn write_played(
        &mut self,
        splits: &[(&str, &Split)],
    ) -> Result<u64, StoreError> {
        let names: Vec<&str> = splits.iter().map(|s| s.0).collect();
        // What is stored: (game, list) -> digests by place.
        let mut stored: HashMap<(String, String), Vec<String>> = HashMap::new();
        for chunk in names.chunks(200) {
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new(
                    "SELECT game, list, digest FROM played WHERE game IN (",
                );
                let mut list = q.separated(", ");
                for n in chunk {
                    list.push_bind(text(n).into_owned());
                }
                q.push(") ORDER BY game, list, seq");
                let found = q
                    .build()
                    .fetch_all(&mut **c)
                    .await
                    .map_err(db("reading played phases"))?;
                for r in &found {
                    stored
                        .entry((r.get(0), r.get(1)))
                        .or_default()
                        .push(r.get(2));
                }
            });
        }
        let mut writes: Vec<(&str, &str, i64, &str, &str)> = Vec::new();
        let mut cuts: Vec<(&str, String, i64)> = Vec::new();
        for (game, split) in splits {
            let key = |list: &str| (text(game).into_owned(), list.to_string());
            for (list, items) in &split.lists {
                let have = stored.remove(&key(list)).unwrap_or_default();
                for (seq, (digest, body)) in items.iter().enumerate() {
                    if have.get(seq) != Some(digest) {
                        writes.push((game, list, seq as i64, digest, body));
                    }
                }
                if have.len() > items.len() {
                    cuts.push((game, list.to_string(), items.len() as i64));
                }
            }
        }
        // Lists stored for these games that the states no longer have.
        cuts.extend(
            stored
                .into_keys()
                .filter_map(|(g, l)| names.iter().find(|n| text(n) == g).map(|n| (*n, l, 0))),
        );
        for (game, list, from) in &cuts {
            on!(&mut self.conn, |c, Db| {
                sqlx::query("DELETE FROM played WHERE game = $1 AND list = $2 AND seq >= $3")
                    .bind(text(game).into_owned())
                    .bind(list.as_str())
                    .bind(*from)
                    .execute(&mut **c)
                    .await
                    .map_err(db("cutting played phases back"))?;
            });
        }
        let mut bytes = 0u64;
        for part in writes.chunks(100) {
            bytes += part.iter().map(|w| w.4.len() as u64).sum::<u64>();
            on!(&mut self.conn, |c, Db| {
                let mut q =
                    QueryBuilder::<Db>::new("INSERT INTO played (game, list, seq, digest, body) ");
                q.push_values(part, |mut b, (game, list, seq, digest, body)| {
                    b.push_bind(text(game).into_owned())
                        .push_bind(*list)
                        .push_bind(*seq)
                        .push_bind(*digest)
                        .push_bind(text(body).into_owned());
                });
                q.push(
                    " ON CONFLICT (game, list, seq) DO UPDATE SET digest = excluded.digest, \
                     body = excluded.body",
                );
                q.build()
                    .execute(&mut **c)
                    .await
                    .map_err(db("writing played phases"))?;
            });
        }
        Ok(bytes)
    }

    /// Removes the played rows of these games (the games go).
    pub(super) async fn delete_played(&mut self, names: &[String]) -> Result<(), StoreError> {
        for chunk in names.chunks(500) {
            on!(&mut self.conn, |c, Db| {
                let mut q = QueryBuilder::<Db>::new("DELETE FROM played WHERE game IN (");
                let mut list = q.separated(", ");
                for n in chunk {
                    list.push_bind(text(n).into_owned());
                }
                q.push(")");
                q.build()
                    .execute(&mut **c)
                    .await
                    .map_err(db("removing played phases"))?;
            });
        }
        Ok(())
    }

    /// Takes apart up to `limit` games stored whole (before played phases had rows of
    /// their own): their lists go to `played`, their state keeps the live part. Returns how
    /// many were moved; their version and summary stay as they were (nothing in them
    /// changed).
    pub(super) async fn move_whole_games(&mut self, limit: i64) -> Result<usize, StoreError> {
        let rows: Vec<(String, String)> = on!(&mut self.conn, |c, Db| {
            let found = sqlx::query(
                "SELECT name, state FROM games WHERE lists IS NULL ORDER BY name LIMIT $1",
            )
            .bind(limit)
            .fetch_all(&mut **c)
            .await
            .map_err(db("finding games stored whole"))?;
            found.iter().map(|r| (r.get(0), r.get(1))).collect()
        });
        for (name, state) in &rows {
            // A state that is not JSON is left whole (`lists` empty, so it is not looked at
            // again): loading reports it by name, as it did.
            let split = match serde_json::from_str::<serde_json::Value>(state) {
                Ok(value) => split(name, &value)?,
                Err(error) => {
                    tracing::error!(game = %name, %error, "a game's record cannot be read; it is left whole");
                    Split {
                        live: state.clone(),
                        keys: String::new(),
                        lists: Vec::new(),
                    }
                }
            };
            self.write_played(&[(name, &split)]).await?;
            on!(&mut self.conn, |c, Db| {
                sqlx::query("UPDATE games SET state = $1, lists = $2 WHERE name = $3")
                    .bind(text(&split.live).into_owned())
                    .bind(split.keys.as_str())
                    .bind(name.as_str())
                    .execute(&mut **c)
                    .await
                    .map_err(db("moving a game's played phases"))?;
            });
        }
        Ok(rows.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_taken_apart_is_put_back_whole() {
        let state = serde_json::json!({
            "name": "g",
            "history": [{"a": 1}, {"b": "}"}],
            "archive": [],
            "orders": {"1": [2]},
        });
        let s = split("g", &state).unwrap();
        assert_eq!(s.keys, "history archive");
        assert!(!s.live.contains("history") && !s.live.contains("archive"));
        let mut items: HashMap<&str, Vec<&str>> = HashMap::new();
        for (key, rows) in &s.lists {
            items.insert(key, rows.iter().map(|r| r.1.as_str()).collect());
        }
        let back: serde_json::Value =
            serde_json::from_str(&assemble(&s.live, &s.keys, &items)).unwrap();
        assert_eq!(back, state);
    }

    #[test]
    fn a_state_without_lists_is_kept_as_it_is() {
        for state in [
            serde_json::json!({"n": 1}),
            serde_json::json!({}),
            serde_json::json!({"history": 3}),
            serde_json::json!([1, 2]),
        ] {
            let s = split("g", &state).unwrap();
            assert_eq!(s.keys, "");
            let back = assemble(&s.live, &s.keys, &HashMap::new());
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&back).unwrap(),
                state
            );
        }
        let s = split("g", &serde_json::json!({"history": []})).unwrap();
        assert_eq!(
            assemble(&s.live, &s.keys, &HashMap::new()),
            "{\"history\":[]}"
        );
    }
}
