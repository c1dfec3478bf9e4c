//! What the clock brings a running game: early processing once everyone is ready, a
//! reminder before the deadline, late notices from the deadline on (daily), and at the end
//! of grace either civil disorder with default orders (NMR) or the late powers declared
//! abandoned while the game waits (NONMR). After an outage, passed deadlines are moved on.

use chrono::{DateTime, Duration, Utc};

use super::deadline;
use super::game::{Game, SeatState, Status};
use super::process::{all_ready, late_powers, process};
use super::{Action, Effects, Judge};
use crate::game::calendar::PhaseKind;

/// Late notices repeat this often until grace ends.
const LATE_EVERY: i64 = 24;

/// Does what is due for a game at `now`.
pub fn tick(judge: &Judge, game: &mut Game, now: DateTime<Utc>) -> Effects {
    let mut effects = due(judge, game, now);
    let name = game.name.to_ascii_lowercase();
    let g = &*game;
    super::calendars::attach(judge, |n| (n == name).then_some(g), &mut effects, now);
    effects
}

/// What is due for one game at `now` (see [`tick`]).
fn due(judge: &Judge, game: &mut Game, now: DateTime<Utc>) -> Effects {
    if game.status == Status::Paused && game.pause_ends.is_some_and(|end| now >= end) {
        return resume_by_itself(judge, game, now);
    }
    let mut effects = Effects::default();
    if game.status != Status::Running || game.position.is_none() {
        return effects;
    }
    let (Some(deadline), Some(grace)) = (game.deadline, game.grace) else {
        return effects;
    };
    let held = game.start_after.is_some_and(|s| now < s);
    if let Some(ready) = game.ready_at {
        if now >= ready && !held {
            if all_ready(judge, game) {
                return process(judge, game, now);
            }
            game.ready_at = None;
        }
    }
    if now >= deadline {
        let late = late_powers(judge, game);
        if late.is_empty() {
            if !held {
                return process(judge, game, now);
            }
            return effects;
        }
        let map = judge.map_of(game);
        let names: Vec<String> = late.iter().map(|&p| map.power(p).name.clone()).collect();
        if now >= grace {
            if game.settings.nmr {
                // Civil disorder is a power that sent nothing, as njudge's NMR; a power with
                // some orders on file is late and incomplete: its unordered units hold, and
                // only it and the Master are told (issue 36, point 7).
                let (incomplete, silent): (Vec<_>, Vec<_>) =
                    late.iter().copied().partition(|&p| has_orders(game, p));
                let mut lines = Vec::new();
                for &p in &silent {
                    if let Some(seat) = game.seat_of_mut(p) {
                        seat.state = SeatState::Disorder;
                    }
                    lines.push(format!(
                        "{} is in civil disorder: grace ended without orders from it. {}",
                        map.power(p).name,
                        what_is_used(game, p)
                    ));
                }
                if !lines.is_empty() {
                    effects
                        .mails
                        .extend(judge.notice_of_players(game, "Civil Disorder", &lines));
                }
                for &p in &silent {
                    if let Some(mail) = own_notice(judge, game, p, "You Are In Civil Disorder",
                        "Grace ended without orders from you, so your power is in civil disorder. This phase is adjudicated with these orders:", what_is_used(game, p)) {
                        effects.mails.push(mail);
                    }
                }
                for &p in &incomplete {
                    if let Some(mail) = own_notice(judge, game, p, "Late, Incomplete Orders",
                        "Grace ended with your orders incomplete. This phase is adjudicated with the orders you sent:", what_is_used(game, p)) {
                        effects.mails.push(mail);
                    }
                }
                if !incomplete.is_empty() {
                    let names: Vec<&str> = incomplete
                        .iter()
                        .map(|&p| map.power(p).name.as_str())
                        .collect();
                    let lines = vec![format!(
                        "Grace ended with incomplete orders from {}: the orders they sent are used and their units without an order hold.",
                        names.join(", ")
                    )];
                    effects.mails.push(judge.notice(
                        game,
                        &game.master.address,
                        "Late, Incomplete Orders",
                        &lines,
                    ));
                }
                let silent_names: Vec<String> =
                    silent.iter().map(|&p| map.power(p).name.clone()).collect();
                let incomplete_names: Vec<String> = incomplete
                    .iter()
                    .map(|&p| map.power(p).name.clone())
                    .collect();
                effects.actions.push(Action {
                    game: Some(game.name.clone()),
                    actor: "herald".into(),
                    what: format!(
                        "at grace: civil disorder: {}; late, incomplete: {}",
                        silent_names.join(", "),
                        incomplete_names.join(", ")
                    ),
                });
                let processed = process(judge, game, now);
                effects.mails.extend(processed.mails);
                return effects;
            }
            game.waiting = true;
            let newly: Vec<_> = late
                .iter()
                .copied()
                .filter(|&p| {
                    game.seat_of(p)
                        .is_some_and(|s| s.state == SeatState::Playing)
                })
                .collect();
            if !newly.is_empty() {
                let mut lines = Vec::new();
                for &p in &newly {
                    // Told before the seat is given up, while the address is still theirs.
                    // The game waits: nothing is adjudicated now, so the notice says what
                    // happens when it is, not that the units hold (issue 25).
                    let closing = format!(
                        "Nothing is adjudicated until a new player takes your power over or the Master processes the phase; if the Master does first: {}",
                        what_is_used(game, p)
                    );
                    if let Some(mail) = own_notice(judge, game, p, "Your Power Is Abandoned",
                        "Grace ended without complete orders from you, so your power is declared abandoned and offered to a new player. The game waits; these orders were on file:", &closing) {
                        effects.mails.push(mail);
                    }
                    if let Some(seat) = game.seat_of_mut(p) {
                        seat.state = SeatState::Abandoned;
                    }
                    let letter = map.power(p).letter;
                    lines.push(format!(
                        "{} is abandoned: the grace period ended without its orders. A new player may take it over with {}.",
                        map.power(p).name,
                        game.newcomer_signon(letter)
                    ));
                }
                lines.push("The game waits until every late power is taken over, or the Master processes it (PROCESS!).".into());
                effects
                    .mails
                    .extend(judge.notice_of_players(game, "Abandoned Power", &lines));
                effects.actions.push(Action {
                    game: Some(game.name.clone()),
                    actor: "herald".into(),
                    what: format!("abandoned at grace: {}", names.join(", ")),
                });
            }
            return effects;
        }
        let due_notice = game
            .last_late
            .is_none_or(|t| now >= deadline::later(t, Duration::hours(LATE_EVERY)));
        if due_notice {
            game.last_late = Some(now);
            let tz = game.settings.zone;
            for &p in &late {
                if let Some(seat) = game.seat_of(p) {
                    let lines = vec![
                        format!(
                            "The deadline has passed and {} has not sent complete orders.",
                            map.power(p).name
                        ),
                        format!(
                            "The grace period ends {} ({} from now).",
                            deadline::show(grace, tz),
                            deadline::left(now, grace)
                        ),
                        if game.settings.nmr {
                            "After that, your power is put in civil disorder and default orders are used.".into()
                        } else {
                            "After that, your power is declared abandoned and offered to a new player.".into()
                        },
                    ];
                    let mut mail = judge.notice(game, &seat.member.address, "Late Notice", &lines);
                    mail.subject = format!("[You are late!] {}", mail.subject);
                    effects.mails.push(mail);
                }
            }
            let lines = vec![format!(
                "Diplomacy game '{}' is waiting for the orders of: {}.",
                game.name,
                names.join(", ")
            )];
            effects
                .mails
                .push(judge.notice(game, &game.master.address, "Late Notice", &lines));
        }
        return effects;
    }
    let remind_at = deadline::earlier(deadline, judge.durations.remind_before);
    if !game.reminded && now >= remind_at {
        game.reminded = true;
        let tz = game.settings.zone;
        let map = judge.map_of(game);
        for p in super::orders::must_act(judge, game) {
            if super::orders::ready(judge, game, p) {
                continue;
            }
            if let Some(seat) = game.seat_of(p).filter(|s| s.state == SeatState::Playing) {
                let lines = vec![format!(
                    "The deadline ({}) is {} away, and {} has not yet sent complete orders.",
                    deadline::show(deadline, tz),
                    deadline::left(now, deadline),
                    map.power(p).name
                )];
                effects
                    .mails
                    .push(judge.notice(game, &seat.member.address, "Reminder", &lines));
            }
        }
    }
    effects
}

/// What civil disorder uses for a power this phase, in one sentence for everyone.
/// Whether `power` has any orders on file this phase.
fn has_orders(game: &Game, power: crate::game::ids::PowerId) -> bool {
    game.orders.get(&power.0).is_some_and(|o| !o.is_empty())
}

fn what_is_used(game: &Game, power: crate::game::ids::PowerId) -> &'static str {
    let filed = has_orders(game, power);
    match (game.phase_kind(), filed) {
        (Some(PhaseKind::Movement), true) => "Its orders on file are used; its units without an order hold.",
        (Some(PhaseKind::Movement), false) => "It has no orders on file: its units hold.",
        (Some(PhaseKind::Retreat), true) => "Its retreats on file are used; its other dislodged units disband.",
        (Some(PhaseKind::Retreat), false) => "It has no retreats on file: its dislodged units disband.",
        (_, true) => "Its adjustments on file are used; builds not ordered are waived and removals not ordered are chosen by the civil-disorder rule.",
        (_, false) => "It has no adjustments on file: its builds are waived and its removals are chosen by the civil-disorder rule.",
    }
}

/// A notice to the player of `power` alone, with its orders on file as herald echoes them
/// between `opening` and `closing`.
fn own_notice(
    judge: &Judge,
    game: &Game,
    power: crate::game::ids::PowerId,
    what: &str,
    opening: &str,
    closing: &str,
) -> Option<crate::envelope::Outgoing> {
    let seat = game.seat_of(power)?;
    let (orders, _) = super::orders::echo(judge, game, power);
    let mut lines = vec![opening.to_string(), String::new()];
    lines.extend(orders.into_iter().map(|l| format!("  {l}")));
    lines.push(String::new());
    lines.push(closing.to_string());
    Some(judge.notice(game, &seat.member.address, what, &lines))
}

/// When the game next needs the clock.
pub fn next_due(judge: &Judge, game: &Game) -> Option<DateTime<Utc>> {
    if game.status == Status::Paused {
        return game.pause_ends;
    }
    if game.status != Status::Running {
        return None;
    }
    let (deadline, grace) = (game.deadline?, game.grace?);
    let mut due = vec![];
    if let Some(r) = game.ready_at {
        due.push(r.max(game.start_after.unwrap_or(r)));
    }
    if !game.reminded {
        due.push(deadline::earlier(deadline, judge.durations.remind_before));
    }
    match game.last_late {
        None => due.push(deadline.max(game.start_after.unwrap_or(deadline))),
        Some(t) => {
            due.push(deadline::later(t, Duration::hours(LATE_EVERY)).min(grace));
        }
    }
    if game.waiting {
        return None;
    }
    due.push(grace);
    due.into_iter().min()
}

/// A Master's pause has lasted as long as a pause may (the keeper's `[timing]
/// longest_pause`):
/// the game resumes with the time that was left, and everyone is told.
fn resume_by_itself(judge: &Judge, game: &mut Game, now: DateTime<Utc>) -> Effects {
    let deadline = game.resume(now);
    let tz = game.settings.zone;
    let text = format!(
        "The game was paused for {}, the longest a Master may pause it, and resumes by itself. The deadline is {}.",
        deadline::left(now, now + judge.durations.longest_pause),
        deadline::show(deadline, tz)
    );
    Effects {
        mails: judge.notice_all(game, "Game Resumed", &[text]),
        actions: vec![Action {
            game: Some(game.name.clone()),
            actor: "herald".into(),
            what: "resumed by itself at the end of the longest pause".into(),
        }],
    }
}

/// herald was down from `since` to `now`: deadlines and grace ends that passed meanwhile
/// move to `now` plus the configured margin, and the Master is told — nobody is put in
/// civil disorder for the judge's absence.
pub fn after_outage(
    judge: &Judge,
    game: &mut Game,
    since: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Effects {
    let mut effects = Effects::default();
    if game.status != Status::Running {
        return effects;
    }
    let Some(deadline) = game.deadline else {
        return effects;
    };
    let passed = |t: DateTime<Utc>| t > since && t <= now;
    let grace_passed = game.grace.is_some_and(passed);
    if !passed(deadline) && !grace_passed {
        return effects;
    }
    let margin = judge.durations.outage_margin;
    let tz = game.settings.zone;
    let new_deadline = if passed(deadline) {
        deadline::later(now, margin)
    } else {
        deadline
    };
    // Grace is never shortened: a later end the Master set stands.
    let grace = deadline::later(new_deadline, game.grace_length())
        .max(deadline::later(now, margin))
        .max(game.grace.unwrap_or(new_deadline));
    let grace = game.schedule(new_deadline, Some(grace));
    let lines = vec![
        format!("herald was not running from {} to {}.", deadline::show(since, tz), deadline::show(now, tz)),
        format!(
            "So that nobody is put in civil disorder for that, the deadline is now {} and grace ends {}.",
            deadline::show(new_deadline, tz),
            deadline::show(grace, tz)
        ),
    ];
    effects
        .mails
        .push(judge.notice(game, &game.master.address, "Outage Recovery", &lines));
    effects.actions.push(Action {
        game: Some(game.name.clone()),
        actor: "herald".into(),
        what: format!(
            "outage recovery: deadline moved to {}",
            new_deadline.to_rfc3339()
        ),
    });
    effects
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use crate::judge::testkit::{judge, running_game};

    // Issue 25, 17: "'less than 1 minute' with 78 s left". The reminder says the time left
    // as it is.
    #[test]
    fn the_reminder_says_the_time_left_truthfully() {
        let j = judge();
        let mut g = running_game();
        let deadline = g.deadline.unwrap();
        let effects = super::tick(&j, &mut g, deadline - Duration::seconds(78));
        let reminders: Vec<_> = effects
            .mails
            .iter()
            .filter(|m| m.subject.contains("Reminder"))
            .collect();
        assert_eq!(reminders.len(), 7, "{:#?}", effects.mails);
        for m in reminders {
            assert!(
                m.body
                    .contains("The deadline (Tue Dec 08 2026 10:00 UTC) is 1 minute away, and"),
                "{}",
                m.body
            );
            assert!(!m.body.contains("less than"), "{}", m.body);
        }
    }
}
