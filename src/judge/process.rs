//! A phase adjudicated: orders on file (defaults for the missing), the engine's turn, the
//! results in njudge's layout, the game moved on with a new deadline, and the results mailed
//! to everyone. A preview does the same on a copy and mails only the Master.

use chrono::{DateTime, Utc};

use super::absence;
use super::deadline::{self, next_deadline};
use super::ending::Ending;
use super::game::{Archived, CentreCount, Game, PhaseRecord, Status};
use super::orders::must_act;
use super::results::{adjudicate, results_mail};
use super::summary::summary_mails;
use super::{Effects, Judge};
use crate::envelope::Outgoing;
use crate::game::calendar::PhaseKind;
use crate::game::ids::PowerId;

/// Adjudicates the current phase and moves the game on; returns the mails (none for a game
/// with no board yet).
pub fn process(judge: &Judge, game: &mut Game, now: DateTime<Utc>) -> Effects {
    let Some(before) = game.position.clone() else {
        return Effects::default();
    };
    // Lines an older herald stored that no longer read as orders were shown to their
    // players with the orders on file; the units they were for are unordered.
    for power in judge.map_of(game).power_ids() {
        for line in super::filed::unreadable(judge, game, power) {
            tracing::warn!(game = %game.name, power = power.0, %line, "a stored order no longer reads as an order; its unit is unordered");
        }
    }
    // Whether anyone played this phase: of the powers that had to act, one had orders on
    // file (none had to act: the phase says nothing of it).
    let acting = must_act(judge, game);
    let acted = (!acting.is_empty()).then(|| {
        acting
            .iter()
            .any(|p| game.orders.get(&p.0).is_some_and(|o| !o.is_empty()))
    });
    // The game's variant, map and rules, for the whole step (the seating does not change).
    let ctx = judge.context(game);
    let played = adjudicate(judge, &ctx, game, &before);
    let picture = super::pictures::results_picture(judge, game, &before, &played);
    let super::results::Played {
        next,
        text,
        winners,
        drawn,
        ..
    } = played;
    let variant = ctx.variant;
    let map = &variant.map;
    let code = variant.calendar.code(before.phase);
    let closes_turn = before.phase.kind == PhaseKind::Movement && ctx.rules.dip_points;
    game.history.push(PhaseRecord {
        before: before.clone(),
        results: text.clone(),
        dips: closes_turn.then(|| game.dips.clone()),
        orders: game.orders.clone(),
        deadline: game.deadline.zip(game.grace),
    });
    if next.phase.year != before.phase.year {
        let counts = map.power_ids().map(|p| next.centre_count(p)).collect();
        let played = game.history.len();
        game.centre_counts.push(CentreCount { played, counts });
    }
    game.enter_phase(next);
    let mut effects = Effects::default();
    if !winners.is_empty() {
        let names: Vec<String> = winners.iter().map(|&p| map.power(p).name.clone()).collect();
        game.finish(Ending::Victory(names));
    } else if !drawn.is_empty() {
        let names: Vec<String> = drawn.iter().map(|&p| map.power(p).name.clone()).collect();
        game.finish(Ending::SurvivorsShare(names));
    } else if let Some(pos) = game
        .position
        .as_ref()
        .filter(|p| ctx.rules.last_year.is_some_and(|y| p.phase.year > y))
    {
        let outcome = if ctx.rules.survivors_share {
            Ending::NoSurvivor
        } else {
            // No winner by then: the supply centres rank the powers.
            let mut rank: Vec<(String, usize)> = map
                .power_ids()
                .map(|p| (map.power(p).name.clone(), pos.centre_count(p)))
                .filter(|(_, c)| *c > 0)
                .collect();
            rank.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            Ending::Ranked(rank)
        };
        game.finish(outcome);
    }
    let moved = if game.status == Status::Finished {
        Vec::new()
    } else {
        set_deadline(judge, game, now)
    };
    // Orders filed earlier for the phase now come are put on file (their players are told
    // after the results); if they complete the phase, it runs early as after any mail.
    let (later, filed) = super::later::arrive(judge, game);
    if filed && game.status == Status::Running && all_ready(judge, game) {
        game.ready_at = Some(now + judge.durations.early_delay);
    }
    if closes_turn {
        // The dip turn ends with its movement phase: interceptions go out (headed with the
        // new deadline, titled with the turn's phase), the ledger starts again.
        effects
            .mails
            .extend(super::dips::close_turn(judge, game, &code));
    }
    let body = results_mail(judge, game, &code, &text, "");
    let subject = format!("JUDGE:{} - {code} Results", game.name);
    game.archive.push(Archived {
        at: now,
        subject: subject.clone(),
        body: body.clone(),
    });
    for to in judge.everyone(game) {
        // Each player reads the dates in their own zone (SET MYZONE).
        let body = if judge.zone_for(game, &to) == judge.zone_for(game, "") {
            body.clone()
        } else {
            results_mail(judge, game, &code, &text, &to)
        };
        effects.mails.push(Outgoing {
            to,
            subject: subject.clone(),
            body,
            in_reply_to: None,
            attachments: picture.clone(),
        });
    }
    effects.mails.extend(later);
    effects.mails.extend(moved);
    if game.status == Status::Finished {
        effects.mails.extend(summary_mails(judge, game, now));
    }
    let idle = super::growth::after_phase(judge, game, acted, now);
    effects.mails.extend(idle.mails);
    effects.actions.extend(idle.actions);
    effects
}

/// A trial adjudication mailed to the Master only (none for a game with no board yet); the
/// game is unchanged.
pub fn preview(judge: &Judge, game: &Game) -> Option<Outgoing> {
    let pos = game.position.as_ref()?;
    let ctx = judge.context(game);
    let played = adjudicate(judge, &ctx, game, pos);
    let picture = super::pictures::results_picture(judge, game, pos, &played);
    let text = played.text;
    let variant = ctx.variant;
    let code = variant.calendar.code(pos.phase);
    let mut lines = vec![
        format!("PREVIEW of {code}: a trial adjudication of the orders on file now. Nothing was processed."),
        String::new(),
    ];
    lines.extend(text.lines().map(str::to_string));
    let mut mail = judge.notice(game, &game.master.address, "Preview", &lines);
    mail.attachments.extend(picture);
    Some(mail)
}

/// Sets the deadline and grace of the phase the game is now at, starting now. A deadline
/// that falls in an absence of a player who must act moves to the first allowed day after
/// it, at the same time of day; then everyone in the game is told why (in an anonymous game
/// without naming whose absence). Returns that notice, if any.
pub fn set_deadline(judge: &Judge, game: &mut Game, now: DateTime<Utc>) -> Vec<Outgoing> {
    let Some(kind) = game.phase_kind() else {
        return Vec::new();
    };
    let tz = game.settings.zone;
    let timing = game.timing(kind).clone();
    let d = next_deadline(now, &timing, tz);
    let acting = must_act(judge, game);
    let (mut owners, mut spans) = (Vec::new(), Vec::new());
    for seat in &game.seats {
        let Some(p) = seat.power.filter(|p| acting.contains(p)) else {
            continue;
        };
        for &span in &seat.absences {
            owners.push(p);
            spans.push(span);
        }
    }
    let pushed = absence::push(d, &spans, &timing, tz);
    game.schedule(pushed.at, None);
    if pushed.by.is_empty() {
        return Vec::new();
    }
    let map = judge.map_of(game);
    let mut names: Vec<String> = pushed
        .by
        .iter()
        .filter_map(|&i| owners.get(i))
        .map(|&p| map.power(p).name.clone())
        .collect();
    names.dedup();
    let whose = if game.hides_people() {
        "a player's absence (SET ABSENCE)".to_string()
    } else {
        format!("the absence (SET ABSENCE) of {}", names.join(" and "))
    };
    let lines = vec![format!(
        "The deadline is {} instead of {}, because of {whose}.",
        deadline::show(pushed.at, tz),
        deadline::show(d, tz)
    )];
    judge.notice_all(game, "Absence Notice", &lines)
}

/// Whether the game may be processed early: every power that must act is ready and nobody
/// waits.
pub fn all_ready(judge: &Judge, game: &Game) -> bool {
    let acting = must_act(judge, game);
    acting.iter().all(|&p| {
        let seat = game.seat_of(p);
        game.in_disorder(p)
            || (super::orders::ready(judge, game, p) && !seat.is_some_and(|s| s.wait))
    })
}

/// The powers that must act and are not ready (late, at the deadline).
pub fn late_powers(judge: &Judge, game: &Game) -> Vec<PowerId> {
    must_act(judge, game)
        .into_iter()
        .filter(|&p| !game.in_disorder(p) && !super::orders::ready(judge, game, p))
        .collect()
}
