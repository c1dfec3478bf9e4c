//! The Master's timing: this phase's deadline, grace and START AFTER, later phases' timing, the zone, PAUSE and RESUME.

use super::def::{Def, Who};
use crate::game::calendar::PhaseKind;
use crate::judge::cmd::context::Session;
use crate::judge::deadline;
use crate::judge::deadline_error::TimingError;
use crate::judge::game::Status;
use crate::judge::timing_change::TimingChange;

/// The Master's timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimingCommand {
    /// `PAUSE`
    Pause,
    /// `RESUME`
    Resume,
    /// `SET DEADLINE date`
    Deadline(String),
    /// `SET GRACE date`
    Grace(String),
    /// `SET START date`
    StartAfter(String),
    /// `SET MOVE|RETREAT|ADJUST …`: later phases' timing, read with the line (a line that
    /// does not read is refused with the reason when applied).
    Timing(PhaseKind, Result<TimingChange, TimingError>),
    /// `SET ZONE tz`
    Zone(String),
}

use TimingCommand as C;

/// The Master's timing commands.
pub(super) const DEFS: &[Def] = &[
    Def::line("PAUSE", Who::Master, || C::Pause.into()),
    Def::line("RESUME", Who::Master, || C::Resume.into()),
    Def::args(
        "SET DEADLINE",
        "SET DEADLINE <date> <time>, e.g. SET DEADLINE 2026-12-20 18:00",
        Who::Master,
        |w| Some(C::Deadline(w.rest(0)).into()),
    ),
    Def::args(
        "SET GRACE",
        "SET GRACE <date> <time>, e.g. SET GRACE 2026-12-22 18:00",
        Who::Master,
        |w| Some(C::Grace(w.rest(0)).into()),
    ),
    Def::args(
        "SET START",
        "SET START <date> <time>, e.g. SET START 2026-12-10 18:00",
        Who::Master,
        |w| Some(C::StartAfter(w.rest(0)).into()),
    ),
    Def::args(
        "SET MOVE",
        "SET MOVE [NEXT <dur>] [GRACE <dur>] [AT <hh:mm>] [DAYS <days>], e.g. SET MOVE NEXT 7d GRACE 2d",
        Who::Master,
        |w| Some(C::Timing(PhaseKind::Movement, TimingChange::read(w.args())).into()),
    )
    .aka(&["SET MOVES", "SET MOVEMENT"]),
    Def::args(
        "SET RETREAT",
        "SET RETREAT [NEXT <dur>] [GRACE <dur>] [AT <hh:mm>], e.g. SET RETREAT NEXT 36h",
        Who::Master,
        |w| Some(C::Timing(PhaseKind::Retreat, TimingChange::read(w.args())).into()),
    )
    .aka(&["SET RETREATS"]),
    Def::args(
        "SET ADJUST",
        "SET ADJUST [NEXT <dur>] [GRACE <dur>] [AT <hh:mm>], e.g. SET ADJUST NEXT 2d",
        Who::Master,
        |w| Some(C::Timing(PhaseKind::Adjustment, TimingChange::read(w.args())).into()),
    )
    .aka(&[
        "SET ADJUSTMENT",
        "SET ADJUSTMENTS",
        "SET BUILD",
        "SET BUILDS",
    ]),
    Def::args(
        "SET ZONE",
        "SET ZONE <zone>, e.g. SET ZONE Europe/London",
        Who::Master,
        |w| w.count(1).and_then(|_| w.arg(0)).map(|z| C::Zone(z).into()),
    )
    .aka(&["SET TIMEZONE", "SET TZ"]),
];

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn timing_command(&mut self, line: &str, command: TimingCommand) -> bool {
        let judge = self.judge;
        let now = self.now;
        match command {
            C::Pause => {
                let g = self.game_mut();
                if g.status != Status::Running {
                    self.error(line, "only a running game can be paused");
                    return true;
                }
                let ends = g.pause_by_master(now, judge.durations.longest_pause);
                let tz = g.settings.zone;
                let text = format!(
                    "The Master has paused the game: deadlines are stopped. A pause lasts at most {}: unless the Master resumes it first, the game resumes by itself on {}.",
                    deadline::left(now, ends),
                    deadline::show(ends, tz)
                );
                let notices = judge.notice_all(self.game(), "Game Paused", &[text]);
                self.effects.mails.extend(notices);
            }
            C::Resume => {
                let g = self.game_mut();
                if g.status != Status::Paused {
                    self.error(line, "the game is not paused");
                    return true;
                }
                let d = g.resume(now);
                let tz = g.settings.zone;
                let text = format!(
                    "The Master has resumed the game. The deadline is {}.",
                    deadline::show(d, tz)
                );
                let notices = judge.notice_all(self.game(), "Game Resumed", &[text]);
                self.effects.mails.extend(notices);
            }
            C::Deadline(text) | C::Grace(text) | C::StartAfter(text)
                if self.game().position.is_none() =>
            {
                let _ = text;
                self.error(line, "the game has not started");
            }
            C::Deadline(text) => {
                let tz = self.game().settings.zone;
                match deadline::parse_hold(&text, now, tz, judge.durations.longest_pause) {
                    Err(e) => self.error(line, e.to_string()),
                    Ok(d) => {
                        let g = self.game_mut();
                        // Grace keeps its end if that is later than its length after the
                        // new deadline.
                        let grace = deadline::later(d, g.grace_length()).max(g.grace.unwrap_or(d));
                        g.schedule(d, Some(grace));
                        let text = format!(
                            "The deadline is now {}; grace ends {}.",
                            deadline::show(d, tz),
                            deadline::show(grace, tz)
                        );
                        let notices = judge.notice_all(self.game(), "Deadline Adjustment", &[text]);
                        self.effects.mails.extend(notices);
                    }
                }
            }
            C::Grace(text) => {
                let tz = self.game().settings.zone;
                match deadline::parse_hold(&text, now, tz, judge.durations.longest_pause) {
                    Err(e) => self.error(line, e.to_string()),
                    Ok(d) if self.game().deadline.is_some_and(|dl| d < dl) => {
                        self.error(line, "grace cannot end before the deadline")
                    }
                    Ok(d) => {
                        let g = self.game_mut();
                        if let Some(dl) = g.deadline {
                            g.schedule(dl, Some(d));
                        }
                        let notices = judge.notice_all(
                            self.game(),
                            "Grace Adjustment",
                            &[format!("Grace now ends {}.", deadline::show(d, tz))],
                        );
                        self.effects.mails.extend(notices);
                    }
                }
            }
            C::StartAfter(text) => {
                let tz = self.game().settings.zone;
                match deadline::parse_hold(&text, now, tz, judge.durations.longest_pause) {
                    Err(e) => self.error(line, e.to_string()),
                    Ok(d) => {
                        let g = self.game_mut();
                        g.start_after = Some(d);
                        if g.deadline.is_some_and(|dl| dl < d) {
                            let grace = g.grace.filter(|gr| *gr >= d);
                            g.schedule(d, grace);
                        }
                        self.say(format!(
                            "This phase will not be processed before {}.",
                            deadline::show(d, tz)
                        ));
                    }
                }
            }
            C::Timing(kind, change) => {
                let change = match change {
                    Ok(change) => change,
                    Err(e) => {
                        self.error(line, e.to_string());
                        return true;
                    }
                };
                // Issue 36: "Phase lengths under a floor (e.g. 1 h) only for the keeper's
                // games".
                let floor = change
                    .next
                    .and_then(|next| judge.growth.phase_refusal(judge, self.game(), next));
                if let Some(why) = floor {
                    self.error(line, why);
                    return true;
                }
                let i = match kind {
                    PhaseKind::Movement => 0,
                    PhaseKind::Retreat => 1,
                    PhaseKind::Adjustment => 2,
                };
                change.apply(&mut self.game_mut().settings.timing[i]);
                self.say(format!(
                    "Timing for {} phases changed; it applies from the next such phase.",
                    kind.name().to_lowercase()
                ));
            }
            C::Zone(name) => {
                let Ok(zone) = name.parse::<chrono_tz::Tz>() else {
                    self.error(line, format!("'{name}' is not a time zone; write e.g. Europe/London or America/New_York"));
                    return true;
                };
                self.game_mut().settings.zone = zone;
                self.say(format!("Dates in this game are now shown in {name}."));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use crate::judge::game::Status;
    use crate::judge::testkit::{judge, mail, reply, start, started, GM};

    #[test]
    fn the_master_moves_the_deadline_and_pauses_the_game() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nSET DEADLINE 2026-12-05 18:00\nSET ZONE Mars/Olympus",
            start(),
        );
        let text = &reply(&h, GM).body;
        assert!(text.contains("'Mars/Olympus' is not a time zone"), "{text}");
        let g = &games["g"];
        assert_eq!(
            g.deadline.unwrap().to_rfc3339(),
            "2026-12-05T18:00:00+00:00"
        );
        assert!(g.grace.unwrap() >= g.deadline.unwrap() + Duration::days(2));
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPAUSE", start());
        assert_eq!(games["g"].status, Status::Paused);
        assert_eq!(
            games["g"].pause_reason.as_deref(),
            Some("paused by the Master")
        );
        let later = start() + Duration::days(20);
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nRESUME", later);
        let g = &games["g"];
        assert_eq!(g.status, Status::Running);
        assert_eq!(
            g.deadline.unwrap() - later,
            Duration::hours(104),
            "the time that was left"
        );
    }

    #[test]
    fn only_the_master_sets_times_and_within_limits() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            "bob@example.org",
            "SIGNON Fg pwF\nSET DEADLINE 2026-12-05",
            start(),
        );
        assert!(reply(&h, "bob@example.org")
            .body
            .contains("only the Master may do this"));
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nSET MOVE NEXT 400d\nSET GRACE 2020-01-01",
            start(),
        );
        let text = &reply(&h, GM).body;
        assert!(
            text.contains("'400d' is too long: at most 365 days"),
            "{text}"
        );
        assert!(text.contains("has passed"), "{text}");
    }

    /// Issue 24: "SET START / SET DEADLINE / SET GRACE can hold a game 365 days although
    /// PAUSE is capped at 30": each is capped at `[timing] longest_pause` as PAUSE is.
    #[test]
    fn no_date_holds_a_game_longer_than_a_pause() {
        let j = judge();
        assert_eq!(j.durations.longest_pause, Duration::days(30));
        let mut games = started(&j);
        let before = games["g"].deadline;
        for set in ["SET DEADLINE +31d", "SET GRACE +200d", "SET START +365d"] {
            let h = mail(
                &j,
                &mut games,
                GM,
                &format!("SIGNON Mg gmpass\n{set}"),
                start(),
            );
            let text = &reply(&h, GM).body;
            assert!(
                text.contains("is more than 30 days ahead: a Master holds a game at most as long as a PAUSE lasts, so herald takes dates up to Thu Dec 31 2026 10:00 UTC"),
                "{set}: {text}"
            );
        }
        assert_eq!(games["g"].deadline, before);
        assert_eq!(games["g"].start_after, None);
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nSET DEADLINE +30d",
            start(),
        );
        assert!(!reply(&h, GM).subject.contains("[Error Flag]"));
        assert_eq!(games["g"].deadline, Some(start() + Duration::days(30)));
    }
}
