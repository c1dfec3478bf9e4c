//! A game's life as methods of [`Game`]: the one place its deadline and grace are set, the
//! one place a phase starts afresh, the one place it pauses, resumes and ends. The judge's
//! commands and the clock call these; none of them sets those fields itself.

use chrono::{DateTime, Duration, Utc};

use super::deadline;
use super::game::{Game, Status};
use crate::game::position::Position;

impl Game {
    /// How long grace lasts after a deadline in the phase now being played (within the
    /// limits a Master may set).
    pub fn grace_length(&self) -> Duration {
        self.phase_kind().map_or(Duration::days(1), |kind| {
            deadline::minutes(self.timing(kind).grace).clamp(deadline::SHORTEST, deadline::LONGEST)
        })
    }

    /// Sets this phase's deadline and the end of its grace: `grace` if given, else the
    /// phase's grace length after the deadline; never before the deadline. A moved deadline
    /// gets its reminder again, late notices start over, and a game waiting for a
    /// replacement waits no more. Returns the end of grace set.
    pub fn schedule(
        &mut self,
        deadline: DateTime<Utc>,
        grace: Option<DateTime<Utc>>,
    ) -> DateTime<Utc> {
        let grace = grace
            .unwrap_or_else(|| deadline::later(deadline, self.grace_length()))
            .max(deadline);
        if self.deadline != Some(deadline) {
            self.reminded = false;
        }
        if (self.deadline, self.grace) != (Some(deadline), Some(grace)) {
            // Calendar programs update an event whose SEQUENCE rises.
            self.calendar_seq = self.calendar_seq.saturating_add(1);
        }
        self.deadline = Some(deadline);
        self.grace = Some(grace);
        self.last_late = None;
        self.waiting = false;
        grace
    }

    /// Moves the game to a new phase on `position`: orders, WAIT and draw votes, early
    /// processing, the reminder, late notices and START AFTER all start afresh. The caller
    /// then schedules the phase or ends the game.
    pub fn enter_phase(&mut self, position: Position) {
        self.position = Some(position);
        self.orders.clear();
        for seat in &mut self.seats {
            seat.wait = false;
            seat.vote = Default::default();
        }
        self.ready_at = None;
        self.reminded = false;
        self.last_late = None;
        self.start_after = None;
        self.waiting = false;
    }

    /// Ends the game with its outcome (victory, draw, termination): no deadline any more.
    pub fn finish(&mut self, outcome: super::ending::Ending) {
        self.status = Status::Finished;
        self.outcome = Some(outcome);
        self.deadline = None;
        self.grace = None;
        self.ready_at = None;
        self.pause_reason = None;
        self.pause_ends = None;
    }

    /// Pauses a running game with the reason (the Master's PAUSE, or herald setting it aside
    /// after a fault), keeping the time left to the deadline (at least an hour).
    pub fn pause(&mut self, reason: String, now: DateTime<Utc>) {
        self.pause_ends = None;
        if self.status == Status::Running {
            self.paused_left = self.deadline.map(|d| (d - now).num_seconds().max(3600));
        }
        self.status = Status::Paused;
        self.pause_reason = Some(reason);
        self.ready_at = None;
    }

    /// Pauses a running game at the Master's word (see [`Game::pause`]); it resumes by itself
    /// `longest` later (the keeper's `[timing] longest_pause`) unless the Master resumes it
    /// first. Returns when that is.
    pub fn pause_by_master(&mut self, now: DateTime<Utc>, longest: Duration) -> DateTime<Utc> {
        self.pause("paused by the Master".into(), now);
        let ends = deadline::later(now, longest);
        self.pause_ends = Some(ends);
        ends
    }

    /// Resumes a paused game: the deadline is the time that was left when it paused (a day
    /// if none was kept) from `now`. Returns the new deadline.
    pub fn resume(&mut self, now: DateTime<Utc>) -> DateTime<Utc> {
        self.status = Status::Running;
        self.pause_reason = None;
        self.pause_ends = None;
        let left = self.paused_left.take().unwrap_or(86_400);
        let deadline = deadline::later(
            now,
            Duration::try_seconds(left).unwrap_or(Duration::days(1)),
        );
        self.schedule(deadline, None);
        deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testkit;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn schedule_sets_deadline_and_grace_and_starts_notices_over() {
        let (deadline, given, expect_grace) = (
            utc("2026-12-09T10:00:00Z"), // a day later than the game had
            [
                None,
                Some(utc("2026-12-10T10:00:00Z")),
                Some(utc("2026-12-01T00:00:00Z")),
            ],
            [
                utc("2026-12-11T10:00:00Z"), // two days' grace, the movement default
                utc("2026-12-10T10:00:00Z"),
                utc("2026-12-09T10:00:00Z"), // never before the deadline
            ],
        );
        for (grace, expected) in given.into_iter().zip(expect_grace) {
            let mut g = testkit::running_game();
            g.reminded = true;
            g.last_late = Some(deadline);
            g.waiting = true;
            g.schedule(deadline, grace);
            assert_eq!(
                (g.deadline, g.grace, g.reminded, g.last_late, g.waiting),
                (Some(deadline), Some(expected), false, None, false)
            );
        }
    }

    #[test]
    fn pause_keeps_the_time_left_and_resume_gives_it_back() {
        let now = utc("2026-12-01T10:00:00Z");
        // (time left to the deadline, time given back on RESUME)
        for (left, back) in [
            (Duration::days(3), Duration::days(3)),
            (Duration::minutes(5), Duration::hours(1)),
            (Duration::days(-2), Duration::hours(1)),
        ] {
            let mut g = testkit::running_game();
            g.schedule(now + left, None);
            g.pause("paused by the Master".into(), now);
            assert_eq!(g.status, Status::Paused);
            assert_eq!(g.pause_reason.as_deref(), Some("paused by the Master"));
            let later = now + Duration::days(30);
            assert_eq!(g.resume(later), later + back);
            assert_eq!((g.status, g.pause_reason.clone()), (Status::Running, None));
        }
    }

    #[test]
    fn a_masters_pause_ends_at_the_longest_and_any_resume_forgets_the_end() {
        let now = utc("2026-12-01T10:00:00Z");
        let mut g = testkit::running_game();
        g.schedule(now + Duration::days(3), None);
        let longest = Duration::days(30);
        assert_eq!(g.pause_by_master(now, longest), now + longest);
        assert_eq!(g.pause_ends, Some(now + longest));
        g.resume(now + Duration::days(1));
        assert_eq!(g.pause_ends, None);
        // herald setting a game aside sets no end: only the Master's pause has one.
        g.pause_by_master(now, longest);
        g.pause("set aside".into(), now);
        assert_eq!(g.pause_ends, None);
    }

    #[test]
    fn a_new_phase_starts_afresh_and_a_finished_game_has_no_deadline() {
        let mut g = testkit::running_game();
        g.seats[0].wait = true;
        g.seats[0].vote = crate::judge::draws::Vote::Draw(Vec::new());
        g.reminded = true;
        g.start_after = Some(utc("2026-12-01T00:00:00Z"));
        g.orders.insert(0, Default::default());
        let board = g.position.clone().unwrap();
        g.enter_phase(board);
        assert!(!g.seats[0].wait && g.seats[0].vote == Default::default() && !g.reminded);
        assert!(g.orders.is_empty() && g.start_after.is_none());
        g.finish(crate::judge::ending::Ending::Terminated);
        assert_eq!(g.status, Status::Finished);
        assert_eq!((g.deadline, g.grace), (None, None));
        assert_eq!(g.outcome, Some(crate::judge::ending::Ending::Terminated));
    }
}
