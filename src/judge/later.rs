//! Orders for a later phase, as njudge takes them: `PHASE F1901M` while S1901M is current
//! files the order lines after it for F1901M. They are read for their form when they come
//! and kept with the game ([`Game::later`]); when their phase comes they are checked against
//! the board and put on file as if mailed then, and the player is told what was filed and
//! what refused. Orders for a phase the game passes by (a retreat phase with no retreats)
//! are dropped, and the player told.

use super::game::{Game, LaterOrders, Status};
use super::Judge;
use crate::envelope::Outgoing;
use crate::game::calendar::Phase;
use crate::game::ids::PowerId;
use crate::game::order::parse_order;

/// How many years ahead of the current phase orders may be kept for (njudge's limit).
pub const YEARS_AHEAD: i32 = 5;

/// Files one mail's order lines of a power for a later phase: each line that reads as an
/// order is kept (after any kept before for that phase); each that does not is refused now.
/// Returns the reply lines (each order as understood, or the text with `*** why` below it)
/// and whether any line was refused.
pub fn file(
    judge: &Judge,
    game: &mut Game,
    power: PowerId,
    phase: Phase,
    texts: &[String],
) -> (Vec<String>, bool) {
    let map = judge.map_of(game);
    let mut lines = Vec::new();
    let mut kept = Vec::new();
    let mut errors = false;
    for text in texts {
        match parse_order(map, text) {
            Ok(order) => {
                lines.push(order.canonical(map));
                kept.push(text.clone());
            }
            Err(e) => {
                lines.push(text.clone());
                lines.push(format!("  *** {}", super::orders::unread(map, text, e)));
                errors = true;
            }
        }
    }
    match game
        .later
        .iter_mut()
        .find(|l| l.phase == phase && l.power == power)
    {
        Some(entry) => entry.lines.extend(kept),
        None if !kept.is_empty() => game.later.push(LaterOrders {
            phase,
            power,
            lines: kept,
        }),
        None => {}
    }
    (lines, errors)
}

/// Forgets the orders a power filed for a later phase (CLEAR after `PHASE <later>`).
pub fn clear(game: &mut Game, power: PowerId, phase: Phase) {
    game.later
        .retain(|l| !(l.phase == phase && l.power == power));
}

/// The orders a power has filed for a later phase, as kept.
pub fn filed(game: &Game, power: PowerId, phase: Phase) -> Vec<String> {
    game.later
        .iter()
        .filter(|l| l.phase == phase && l.power == power)
        .flat_map(|l| l.lines.iter().cloned())
        .collect()
}

/// The game has entered a new phase: the orders filed for it are checked and put on file,
/// those for a phase it passed by are dropped (all of them once it is over), and each player
/// concerned is told. Returns the mails, and whether any orders were put on file (the caller
/// then sees whether the phase may run early).
pub fn arrive(judge: &Judge, game: &mut Game) -> (Vec<Outgoing>, bool) {
    if game.later.is_empty() {
        return (Vec::new(), false);
    }
    let calendar = &judge.variant(game).calendar;
    let current = match (&game.position, game.status) {
        (Some(pos), Status::Running | Status::Paused) => Some(pos.phase),
        _ => None,
    };
    let (due, kept): (Vec<LaterOrders>, Vec<LaterOrders>) = std::mem::take(&mut game.later)
        .into_iter()
        .partition(|l| current.is_none_or(|c| l.phase <= c));
    game.later = kept;
    let mut mails = Vec::new();
    let mut applied = false;
    for entry in due {
        let code = calendar.code(entry.phase);
        let Some(to) = game.seat_of(entry.power).map(|s| s.member.address.clone()) else {
            continue;
        };
        let (what, lines) = if Some(entry.phase) == current {
            let texts: Vec<(String, Option<String>)> =
                entry.lines.into_iter().map(|t| (t, None)).collect();
            let (checked, _) = super::orders::submit(judge, game, entry.power, &texts);
            let (on_file, status) = super::orders::echo(judge, game, entry.power);
            applied = true;
            let mut lines = vec![
                format!(
                    "The orders you sent earlier for {code} are checked now that {code} has come:"
                ),
                String::new(),
            ];
            lines.extend(checked.into_iter().map(|l| format!("  {l}")));
            lines.push(String::new());
            lines.push("Orders on file:".into());
            lines.extend(on_file.into_iter().map(|l| format!("  {l}")));
            lines.push(status);
            ("Orders Sent Earlier".to_string(), lines)
        } else {
            let why = match current {
                Some(c) => format!(
                    "the game went from an earlier phase to {} without playing {code}",
                    calendar.code(c)
                ),
                None => "the game is over".to_string(),
            };
            let mut lines = vec![format!(
                "The orders you sent earlier for {code} are dropped: {why}. They were:"
            )];
            lines.extend(entry.lines.into_iter().map(|l| format!("  {l}")));
            (format!("Orders For {code} Dropped"), lines)
        };
        // The subject names the phase now played (see `Judge::subject`).
        mails.push(judge.notice(game, &to, &what, &lines));
    }
    (mails, applied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testkit::{judge, started};

    /// A game stored before issue 18's point 4 (no later orders, pause end, comment or minor
    /// press in its JSON) loads with none of them and minor press on.
    #[test]
    fn a_game_stored_before_these_fields_loads() {
        let j = judge();
        let games = started(&j);
        let mut json = serde_json::to_value(&games["g"]).unwrap();
        let game = json.as_object_mut().unwrap();
        game.remove("later");
        game.remove("pause_ends");
        let settings = game["settings"].as_object_mut().unwrap();
        settings.remove("comment");
        settings.remove("minor_press");
        let old: Game = serde_json::from_value(json).unwrap();
        assert!(old.later.is_empty() && old.pause_ends.is_none());
        assert!(old.settings.comment.is_none() && old.settings.minor_press);
    }

    #[test]
    fn orders_filed_for_a_later_phase_are_checked_when_it_comes() {
        let j = judge();
        let mut games = started(&j);
        let g = games.get_mut("g").unwrap();
        let cal = &j.variant(g).calendar;
        let fall = cal.parse("F1901M").unwrap();
        let france = PowerId(2);
        let (lines, errors) = file(&j, g, france, fall, &["A Bur-Mun".into(), "A Bur-".into()]);
        assert!(errors && lines[0] == "A Bur - Mun", "{lines:?}");
        assert_eq!(filed(g, france, fall), ["A Bur-Mun"]);
        // Spring is played with A Par to Bur; in the fall the kept order is on file.
        let mut board = g.position.clone().unwrap();
        board.phase = fall;
        g.enter_phase(board);
        let (mails, applied) = arrive(&j, g);
        assert!(applied);
        assert!(g.later.is_empty());
        assert_eq!(mails.len(), 1);
        assert!(
            mails[0].subject.ends_with("- F1901M Orders Sent Earlier"),
            "{}",
            mails[0].subject
        );
        // A Bur is not on the board: the order is refused then, and the player told why.
        assert!(
            mails[0].body.contains("A Bur-Mun\n    *** "),
            "{}",
            mails[0].body
        );
    }
}
