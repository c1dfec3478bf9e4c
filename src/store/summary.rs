//! A game's summary, kept in columns of `games` next to its state (issue 38, point 1):
//! what a listing prints (LIST, `herald game list`, the web's `/`) is read from these
//! columns a page at a time, without reading or decoding any game's state. The judge fills
//! a [`Summary`] for every save; the store writes it in the same statement as the state.

use sqlx::{QueryBuilder, Row};

use super::backend::on;
use super::{db, text, Store, StoreError, Tx};

/// What a listing shows of a game, written with its state by every save.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The variant's name.
    pub variant: String,
    /// The phase's code (`S1901M`), once started.
    pub phase: Option<String>,
    /// The phase in words, once started.
    pub phase_shown: Option<String>,
    /// The current deadline (Unix seconds), if any.
    pub deadline: Option<i64>,
    /// The deadline as shown, in the game's time zone.
    pub deadline_shown: Option<String>,
    /// Whether LIST shows it to strangers (SET NOLIST clears it).
    pub listed: bool,
    /// The Master's address, in lower case.
    pub master: String,
    /// Its people, each as a role letter, a space and the address in lower case: `m` the
    /// Master, `p` a player, `a` the player of an abandoned seat, `o` an observer, `n` an
    /// address a seat waits to move to. LIST shows an unlisted game to all but `a` and `n`;
    /// a bounce is told to the Masters of the games an address is in; an address that
    /// confirms is looked for here (the games whose mail it missed, the seats waiting for
    /// it).
    pub members: Vec<String>,
    /// Seats taken.
    pub seats: i64,
    /// Seats in all (the variant's powers).
    pub powers: i64,
    /// The Master's comment, if any.
    pub comment: Option<String>,
}

/// A game as a listing reads it: its name, status, version and summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The game's name.
    pub name: String,
    /// Its status word (forming, running, paused, finished).
    pub status: String,
    /// The judge-wide count of saves when it was last written.
    pub version: i64,
    /// Its summary.
    pub summary: Summary,
}

/// The columns a [`Listed`] is read from, in the order `listed!` reads them.
const COLUMNS: &str = "name, status, version, COALESCE(variant, ''), phase, phase_shown, \
     deadline, deadline_shown, listed, master, members, seats, powers, comment";

/// The columns a save writes (after name, state, status, due, updated), each with the value
/// `bind_summary` gives it; `version` last, the largest so far plus one.
pub(super) const WRITTEN: &str = "variant, phase, phase_shown, deadline, deadline_shown, \
     listed, master, members, seats, powers, comment, version";

/// What a save sets on a conflict, from the row it tried to insert.
pub(super) const UPDATED: &str = "variant = excluded.variant, phase = excluded.phase, \
     phase_shown = excluded.phase_shown, deadline = excluded.deadline, \
     deadline_shown = excluded.deadline_shown, listed = excluded.listed, \
     master = excluded.master, members = excluded.members, seats = excluded.seats, \
     powers = excluded.powers, comment = excluded.comment, version = excluded.version";

/// The next version: every save takes the largest plus one (the write lock keeps it
/// unique to its transaction).
pub(super) const NEXT_VERSION: &str = "(SELECT COALESCE(MAX(version), 0) + 1 FROM games)";

/// How [`Summary::members`] is stored: each on a line of its own, between newlines, so
/// that one is found by a pattern (see [`Tx::games_with_member`]).
pub(super) fn members_text(members: &[String]) -> String {
    let mut out = String::from("\n");
    for m in members {
        out.push_str(m);
        out.push('\n');
    }
    out
}

/// A [`Listed`] from a row of [`COLUMNS`] (a macro: the row is each backend's own).
macro_rules! listed {
    ($r:expr) => {{
        let r = $r;
        Listed {
            name: r.get(0),
            status: r.get(1),
            version: r.get(2),
            summary: Summary {
                variant: r.get(3),
                phase: r.get(4),
                phase_shown: r.get(5),
                deadline: r.get(6),
                deadline_shown: r.get(7),
                listed: r.get::<i64, _>(8) != 0,
                master: r.get(9),
                members: r
                    .get::<String, _>(10)
                    .lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect(),
                seats: r.get(11),
                powers: r.get(12),
                comment: r.get(13),
            },
        }
    }};
}

/// Pushes a summary's values in the order of [`WRITTEN`] (but the version).
macro_rules! bind_summary {
    ($b:expr, $s:expr) => {{
        let s: &Summary = $s;
        $b.push_bind(text(&s.variant).into_owned())
            .push_bind(s.phase.as_deref().map(|t| text(t).into_owned()))
            .push_bind(s.phase_shown.as_deref().map(|t| text(t).into_owned()))
            .push_bind(s.deadline)
            .push_bind(s.deadline_shown.as_deref().map(|t| text(t).into_owned()))
            .push_bind(i64::from(s.listed))
            .push_bind(text(&s.master).into_owned())
            .push_bind(text(&$crate::store::summary::members_text(&s.members)).into_owned())
            .push_bind(s.seats)
            .push_bind(s.powers)
            .push_bind(s.comment.as_deref().map(|t| text(t).into_owned()));
    }};
}
pub(super) use bind_summary;

/// The meta counter of changes to what the web's list shows that no save makes: a game
/// removed, an address confirmed (which may list a Master's games).
pub(super) const LISTING_CHANGES: &str = "listing_changes";

/// What the web's list of games is keyed by: it changes whenever a game is written,
/// created or removed, or an address confirms. Read by two point lookups, whatever the
/// number of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListMark {
    /// The largest version (every save takes a larger one).
    pub version: i64,
    /// Games removed and addresses confirmed so far.
    pub changes: i64,
}

impl Store {
    /// A page of the web's list (`limit` games from the `offset`th, by name): the games a
    /// stranger may see, and the unlisted game `seat` is signed in to; in either case only
    /// a game whose Master confirmed the address, or the keeper's.
    pub async fn web_page(
        &self,
        seat: Option<&str>,
        keeper: &str,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<Listed>, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {COLUMNS} FROM games WHERE (listed = 1 OR name = "
            ));
            q.push_bind(text(seat.unwrap_or("")).into_owned())
                .push(") AND (master = ")
                .push_bind(text(keeper).into_owned())
                .push(" OR master IN (SELECT address FROM confirmed)) ORDER BY name LIMIT ")
                .push_bind(limit)
                .push(" OFFSET ")
                .push_bind(offset);
            let rows = q
                .build()
                .fetch_all(&mut **c)
                .await
                .map_err(db("listing games"))?;
            Ok(rows.iter().map(|r| listed!(r)).collect())
        })
    }

    /// What the web's list is keyed by (see [`ListMark`]).
    pub async fn list_mark(&self) -> Result<ListMark, StoreError> {
        let mut conn = self.conn().await?;
        on!(&mut conn, |c, Db| {
            let r = sqlx::query(
                "SELECT COALESCE(MAX(version), 0), \
                 (SELECT value FROM meta WHERE key = $1) FROM games",
            )
            .bind(LISTING_CHANGES)
            .fetch_one(&mut **c)
            .await
            .map_err(db("reading the games' versions"))?;
            Ok(ListMark {
                version: r.get(0),
                changes: r
                    .get::<Option<String>, _>(1)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0),
            })
        })
    }
}

/// What a page is keyed by, read without the game's state: its stored name, version, last
/// write and whether it is listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// The game's name as stored.
    pub name: String,
    /// Its version (see [`Listed::version`]).
    pub version: i64,
    /// When it was last written (Unix seconds): with the version, what names this state
    /// even when a removed game's name and version are taken again.
    pub updated: i64,
    /// Whether strangers may see it.
    pub listed: bool,
}

impl Store {
    /// The head of the first of `names` stored (a point lookup by name each).
    pub async fn game_head(&self, names: &[String]) -> Result<Option<Head>, StoreError> {
        let mut conn = self.conn().await?;
        for name in names {
            let row = on!(&mut conn, |c, Db| {
                sqlx::query("SELECT name, version, updated, listed FROM games WHERE name = $1")
                    .bind(text(name).into_owned())
                    .fetch_optional(&mut **c)
                    .await
                    .map_err(db("reading a game's version"))?
                    .map(|r| Head {
                        name: r.get(0),
                        version: r.get(1),
                        updated: r.get(2),
                        listed: r.get::<i64, _>(3) != 0,
                    })
            });
            if row.is_some() {
                return Ok(row);
            }
        }
        Ok(None)
    }
}

/// The `LIKE` pattern (escaped with `!`) that finds `address` among a game's members.
fn member_pattern(address: &str) -> String {
    let escaped: String = address
        .to_ascii_lowercase()
        .chars()
        .flat_map(|c| match c {
            '!' | '%' | '_' => vec!['!', c],
            c => vec![c],
        })
        .collect();
    format!("%\n_ {escaped}\n%")
}

impl Tx {
    /// Up to `limit` games of these statuses from `from` on (by name, `from` itself
    /// included), summaries only.
    pub async fn game_page(
        &mut self,
        from: &str,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<Listed>, StoreError> {
        on!(&mut self.conn, |c, Db| {
            let mut q =
                QueryBuilder::<Db>::new(format!("SELECT {COLUMNS} FROM games WHERE name >= "));
            q.push_bind(text(from).into_owned())
                .push(" AND status IN (");
            let mut list = q.separated(", ");
            for s in statuses {
                list.push_bind(*s);
            }
            q.push(") ORDER BY name LIMIT ").push_bind(limit);
            let rows = q
                .build()
                .fetch_all(&mut **c)
                .await
                .map_err(db("listing games"))?;
            Ok(rows.iter().map(|r| listed!(r)).collect())
        })
    }

    /// Up to `limit` games' names after `after`, by name: for going through every game a
    /// page at a time (each page read with [`Tx::games_named`]), never all at once.
    pub async fn game_names_after(
        &mut self,
        after: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        on!(&mut self.conn, |c, Db| {
            sqlx::query_scalar("SELECT name FROM games WHERE name > $1 ORDER BY name LIMIT $2")
                .bind(text(after).into_owned())
                .bind(limit)
                .fetch_all(&mut **c)
                .await
                .map_err(db("paging through the games"))
        })
    }

    /// [`Tx::game_page`] of only the games one of `readers` may be shown by LIST: those
    /// whose Master confirmed (or is the keeper) and that are listed or have the reader
    /// among their people, and those a reader is the Master of. A superset of what the
    /// judge shows each reader (it filters each mail's page again), read without passing
    /// the games no reader of the batch may see to the judge.
    pub async fn list_page(
        &mut self,
        from: &str,
        statuses: &[&str],
        keeper: &str,
        readers: &[String],
        limit: i64,
    ) -> Result<Vec<Listed>, StoreError> {
        on!(&mut self.conn, |c, Db| {
            // The names first, from the listing index alone (migration 0010): a game no
            // reader may see is passed over without reading its row.
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {COLUMNS} FROM games WHERE name IN (SELECT name FROM games WHERE name >= "
            ));
            q.push_bind(text(from).into_owned())
                .push(" AND status IN (");
            let mut list = q.separated(", ");
            for s in statuses {
                list.push_bind(*s);
            }
            q.push(") AND (((master = ")
                .push_bind(text(keeper).to_ascii_lowercase())
                .push(" OR master IN (SELECT address FROM confirmed)) AND (listed = 1");
            for r in readers {
                q.push(" OR members LIKE ")
                    .push_bind(member_pattern(r))
                    .push(" ESCAPE '!'");
            }
            q.push(")) OR master IN (''");
            for r in readers {
                q.push(", ").push_bind(r.to_ascii_lowercase());
            }
            q.push(")) ORDER BY name LIMIT ")
                .push_bind(limit)
                .push(") ORDER BY name");
            let rows = q
                .build()
                .fetch_all(&mut **c)
                .await
                .map_err(db("listing games"))?;
            Ok(rows.iter().map(|r| listed!(r)).collect())
        })
    }

    /// The names of the games `address` is in as anything (Master, player, observer, an
    /// abandoned seat's player), found in the summaries (lower case): those whose states a
    /// notice about the address must read.
    pub async fn games_with_member(&mut self, address: &str) -> Result<Vec<String>, StoreError> {
        let pattern = member_pattern(address);
        on!(&mut self.conn, |c, Db| {
            sqlx::query_scalar(
                "SELECT name FROM games WHERE members LIKE $1 ESCAPE '!' ORDER BY name",
            )
            .bind(text(&pattern).into_owned())
            .fetch_all(&mut **c)
            .await
            .map_err(db("finding an address's games"))
        })
    }

    /// One game, found by name in any case (names are stored in lower case), if it exists.
    pub async fn game_named<T: serde::de::DeserializeOwned>(
        &mut self,
        name: &str,
    ) -> Result<Option<T>, StoreError> {
        Ok(self
            .games_named(&[name.to_ascii_lowercase()])
            .await?
            .into_iter()
            .next())
    }

    /// Up to `limit` games stored before their summary was kept (by name, after `after`):
    /// (name, state).
    pub async fn unsummarised(
        &mut self,
        after: &str,
        limit: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows: Vec<(String, String, Option<String>)> = on!(&mut self.conn, |c, Db| {
            sqlx::query(
                "SELECT name, state, lists FROM games WHERE variant IS NULL AND name > $1 \
                 ORDER BY name LIMIT $2",
            )
            .bind(text(after).into_owned())
            .bind(limit)
            .fetch_all(&mut **c)
            .await
            .map_err(db("finding games without a summary"))?
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect()
        });
        self.assembled(rows).await
    }

    /// Writes the summary of a game stored without one (a game saved since keeps its own).
    pub async fn fill_summary(&mut self, name: &str, summary: &Summary) -> Result<(), StoreError> {
        on!(&mut self.conn, |c, Db| {
            let mut q = QueryBuilder::<Db>::new(format!("UPDATE games SET ({WRITTEN}) = ("));
            let mut b = q.separated(", ");
            bind_summary!(b, summary);
            b.push(NEXT_VERSION);
            q.push(") WHERE variant IS NULL AND name = ")
                .push_bind(name.to_string());
            q.build()
                .execute(&mut **c)
                .await
                .map_err(db("filling a game's summary"))?;
        });
        Ok(())
    }
}
