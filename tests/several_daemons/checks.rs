//! The checks at the end of tests/several_daemons.rs: what the members' mailboxes, the
//! games' records and the database say. Each adds what it finds wrong to a list, which
//! names the subject or game and the count.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use herald::judge::Game;
use herald::service::Service;

use super::{order_id, order_subject, PHASES, PLAYERS};
use crate::support::stack::{Stack, DOMAIN};

/// The members whose mailboxes are read: the players, each with its power, and the Master.
fn members() -> impl Iterator<Item = (&'static str, &'static str, Option<char>)> {
    PLAYERS
        .iter()
        .map(|&(user, password, letter)| (user, password, Some(letter)))
        .chain([("gm", "gmpw", None)])
}

/// The subject of the results of `code` in `game`.
pub(super) fn results_subject(game: &str, code: &str) -> String {
    format!("JUDGE:{game} - {code} Results")
}

/// The distinct subjects holding `tag` that reached each member so far, all members
/// together: what the test waits for before it stops the daemons.
pub(super) async fn arrived(stack: &Stack, tag: &str) -> usize {
    let mut n = 0;
    for (user, password, _) in members() {
        let subjects: BTreeSet<String> = stack
            .envelopes(user, password, tag)
            .await
            .into_iter()
            .map(|e| e.subject)
            .collect();
        n += subjects.len();
    }
    n
}

/// How many distinct mails [`arrived`] waits for: each player an answer and the results
/// of each phase of each game, the Master the results.
pub(super) fn expected(games: usize) -> usize {
    games * PHASES * (2 * PLAYERS.len() + 1)
}

/// Checks 1 and 2 in the mailboxes: every order mail answered exactly once (one distinct
/// Message-ID), in reply to it; every phase's results mailed exactly once to each member;
/// nothing else sent about these games. Returns the distinct mails checked and the copies
/// in the mailboxes (a mail sent again after a kill is a second copy of one Message-ID).
pub(super) async fn mailboxes(
    stack: &Stack,
    tag: &str,
    games: &[String],
    codes: &[String],
    wrong: &mut Vec<String>,
) -> (usize, usize) {
    let mut distinct = 0;
    let mut copies = 0;
    for (user, password, letter) in members() {
        let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut answering: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for e in stack.envelopes(user, password, tag).await {
            copies += 1;
            answering
                .entry(e.subject.clone())
                .or_default()
                .insert(e.in_reply_to);
            ids.entry(e.subject).or_default().insert(e.message_id);
        }
        let mut wanted = BTreeSet::new();
        for game in games {
            for (n, code) in codes.iter().take(PHASES).enumerate() {
                wanted.insert(results_subject(game, code));
                let Some(letter) = letter else { continue };
                let subject = format!("Re: {}", order_subject(game, n, letter));
                let id = order_id(game, n, letter);
                let to = answering.get(&subject).cloned().unwrap_or_default();
                if to.iter().any(|r| *r != id) {
                    wrong.push(format!("{user}: '{subject}' answers {to:?}, not {id}"));
                }
                wanted.insert(subject);
            }
        }
        for subject in &wanted {
            let n = ids.get(subject).map_or(0, BTreeSet::len);
            distinct += n;
            if n != 1 {
                wrong.push(format!("{user}: {n} distinct mails '{subject}'"));
            }
        }
        for (subject, got) in &ids {
            if !wanted.contains(subject) {
                wrong.push(format!("{user}: unexpected '{subject}' ({})", got.len()));
            }
        }
    }
    (distinct, copies)
}

/// Check 2 in the games' records: each holds every phase once, in order, and stands at
/// the phase after the last.
pub(super) fn records(
    service: &Service,
    finals: &HashMap<String, Game>,
    games: &[String],
    codes: &[String],
    wrong: &mut Vec<String>,
) {
    for game in games {
        let g = &finals[game];
        let cal = &service.judge.variant(g).calendar;
        let history: Vec<String> = g.history.iter().map(|r| cal.code(r.phase())).collect();
        if history[..] != codes[..PHASES] {
            wrong.push(format!("{game}: phases played {history:?}"));
        }
        let now = g.position.as_ref().map(|p| cal.code(p.phase));
        if now.as_deref() != Some(&codes[PHASES][..]) {
            wrong.push(format!("{game}: now at {now:?}, not {}", codes[PHASES]));
        }
    }
}

/// Check 3 in the database: each order mail recorded, each answer and each phase's results
/// to each member queued exactly once, nothing left unsent or failed, nothing quarantined.
pub(super) async fn database(
    database: &str,
    tag: &str,
    games: &[String],
    codes: &[String],
    wrong: &mut Vec<String>,
) {
    use sqlx::Connection;
    let mut pg = sqlx::PgConnection::connect(database).await.unwrap();
    let recorded: BTreeSet<String> = sqlx::query_scalar("SELECT message_id FROM mails")
        .fetch_all(&mut pg)
        .await
        .unwrap()
        .into_iter()
        .collect();
    let queued: Vec<(String, String)> =
        sqlx::query_as("SELECT recipient, subject FROM outbox WHERE subject LIKE $1")
            .bind(format!("%{tag}%"))
            .fetch_all(&mut pg)
            .await
            .unwrap();
    let mut rows: HashMap<(String, String), usize> = HashMap::new();
    for row in queued {
        *rows.entry(row).or_default() += 1;
    }
    let mut once = |to: &str, subject: String| {
        let n = rows
            .get(&(format!("{to}@{DOMAIN}"), subject.clone()))
            .copied()
            .unwrap_or(0);
        if n != 1 {
            wrong.push(format!("'{subject}' queued {n} times to {to}"));
        }
    };
    let mut unrecorded = Vec::new();
    for game in games {
        for (n, code) in codes.iter().take(PHASES).enumerate() {
            for (user, _, letter) in PLAYERS {
                let id = order_id(game, n, letter);
                let bare = id.trim_start_matches('<').trim_end_matches('>');
                if !recorded.contains(&id) && !recorded.contains(bare) {
                    unrecorded.push(id);
                }
                once(user, format!("Re: {}", order_subject(game, n, letter)));
            }
            for (user, _, _) in members() {
                once(user, results_subject(game, code));
            }
        }
    }
    for id in unrecorded {
        wrong.push(format!("the database has no record of {id}"));
    }
    let count = |sql: &'static str| sqlx::query_scalar::<_, i64>(sql);
    let left = count("SELECT COUNT(*) FROM outbox WHERE sent IS NULL AND failed IS NULL")
        .fetch_one(&mut pg)
        .await
        .unwrap();
    let failed = count("SELECT COUNT(*) FROM outbox WHERE failed IS NOT NULL")
        .fetch_one(&mut pg)
        .await
        .unwrap();
    let quarantined = count("SELECT COUNT(*) FROM quarantine")
        .fetch_one(&mut pg)
        .await
        .unwrap();
    if (left, failed, quarantined) != (0, 0, 0) {
        wrong.push(format!(
            "outbox: {left} unsent, {failed} failed; {quarantined} mails quarantined"
        ));
    }
    pg.close().await.unwrap();
}
