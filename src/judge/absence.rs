//! Absences (SET ABSENCE) as pure functions of the dates and the game's zone: what a written
//! absence covers, how many calendar days a player's absences take, and where a deadline
//! that falls inside one moves to.
//!
//! A date written without a time of day means the whole day in the game's zone: `SET ABSENCE
//! 24 Dec 2026 TO 2 Jan 2027` covers 24 December from midnight to the end of 2 January, so a
//! deadline on the 24th is protected. A date with a time means that moment. An absence is
//! stored as the moment it starts and the moment it ends (the end itself not covered).

use std::collections::BTreeSet;

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, Utc};
use chrono_tz::Tz;

use super::deadline::{self, DateError, Written};
use super::game::Timing;

/// The most calendar days a player's absences may cover together (njudge's MAX ABSENCE);
/// the Master may set more for a player with BECOME.
pub const MAX_DAYS: usize = 15;

/// The most absences a player has at once (njudge's three slots).
pub const MAX_ABSENCES: usize = 3;

/// An absence: from its first covered moment to its end (not covered).
pub type Span = (DateTime<Utc>, DateTime<Utc>);

/// Why an absence was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AbsenceError {
    /// No `TO` between the two dates.
    #[error("write SET ABSENCE <date> TO <date>")]
    Form,
    /// A date that cannot be read, has passed or lies too far ahead.
    #[error(transparent)]
    Date(#[from] DateError),
    /// The end is not after the start.
    #[error("the absence ends before it starts")]
    Backwards,
}

/// Reads `<date> TO <date>` at `now` in the zone `tz`: a day without a time counts whole (from
/// its midnight, to the midnight after it). The end must lie ahead (at most a year); a start
/// before today is taken as today.
pub fn parse(text: &str, now: DateTime<Utc>, tz: Tz) -> Result<Span, AbsenceError> {
    let upper = text.to_ascii_uppercase();
    let i = upper.find(" TO ").ok_or(AbsenceError::Form)?;
    let (from, to) = (&text[..i], &text[i + 4..]);
    let from = match deadline::read(from, now, tz)? {
        Written::Moment(t) => t,
        Written::Day(day, time) => deadline::at(tz, day, time.unwrap_or(NaiveTime::MIN)),
    };
    let to = match deadline::read(to, now, tz)? {
        Written::Moment(t) => t,
        Written::Day(day, Some(time)) => deadline::at(tz, day, time),
        Written::Day(day, None) => deadline::at(tz, day.succ_opt().unwrap_or(day), NaiveTime::MIN),
    };
    let to = deadline::check_ahead(to, now, tz)?;
    // The days before today are of no deadline's concern: they neither count nor are kept.
    let today = deadline::at(tz, now.with_timezone(&tz).date_naive(), NaiveTime::MIN);
    let from = from.max(today.min(now));
    if to <= from {
        return Err(AbsenceError::Backwards);
    }
    Ok((from, to))
}

/// Whether the absence covers the moment `t`.
pub fn covers(span: &Span, t: DateTime<Utc>) -> bool {
    span.0 <= t && t < span.1
}

/// The calendar days (in the zone `tz`) that the absences touch, each once however many
/// absences cover it. At most [`deadline::LONGEST`] days are counted per absence.
pub fn days(spans: &[Span], tz: Tz) -> BTreeSet<NaiveDate> {
    let mut out = BTreeSet::new();
    for &(from, to) in spans {
        let first = from.with_timezone(&tz).date_naive();
        let last = deadline::earlier(to, Duration::seconds(1))
            .with_timezone(&tz)
            .date_naive();
        let mut day = first;
        for _ in 0..=deadline::LONGEST.num_days() {
            if day > last {
                break;
            }
            out.insert(day);
            match day.succ_opt() {
                Some(next) => day = next,
                None => break,
            }
        }
    }
    out
}

/// A deadline moved out of absences: where it now lies, and which absences (indices into the
/// list given) moved it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pushed {
    /// The deadline after the absences.
    pub at: DateTime<Utc>,
    /// The absences that moved it; empty if none covered it.
    pub by: Vec<usize>,
}

/// Moves the deadline `d` out of every absence that covers it: to the first day after the
/// absence's end that the timing allows (DAYS), at the same time of day as `d` in the zone
/// `tz` (so a game's AT time is kept). Absences that overlap or follow each other move it on
/// until none covers it.
pub fn push(d: DateTime<Utc>, spans: &[Span], timing: &Timing, tz: Tz) -> Pushed {
    let time = d.with_timezone(&tz).time();
    let mut at = d;
    let mut by = Vec::new();
    // Each round leaves behind, for good, every absence that covered the deadline, since
    // the deadline only moves later: so there are at most as many rounds as absences.
    for _ in 0..spans.len() {
        let covering: Vec<usize> = (0..spans.len())
            .filter(|&i| covers(&spans[i], at))
            .collect();
        let Some(end) = covering.iter().map(|&i| spans[i].1).max() else {
            break;
        };
        by.extend(covering);
        at = first_after(end, time, timing, tz);
    }
    by.sort_unstable();
    by.dedup();
    Pushed { at, by }
}

/// The first moment at or after `end` that falls at `time` of day in `tz` on a day the
/// timing allows.
fn first_after(end: DateTime<Utc>, time: NaiveTime, timing: &Timing, tz: Tz) -> DateTime<Utc> {
    let mut day = end.with_timezone(&tz).date_naive();
    if deadline::at(tz, day, time) < end {
        day = day.succ_opt().unwrap_or(day);
    }
    for _ in 0..7 {
        if timing.days[day.weekday().num_days_from_sunday() as usize] {
            break;
        }
        day = day.succ_opt().unwrap_or(day);
    }
    deadline::at(tz, day, time).max(end)
}

/// An absence as herald says it back: `Thu Dec 24 2026 to Sat Jan 02 2027` for whole days,
/// with the times when it starts or ends within a day.
pub fn describe(span: &Span, tz: Tz) -> String {
    let (from, to) = (span.0.with_timezone(&tz), span.1.with_timezone(&tz));
    if from.time() == NaiveTime::MIN && to.time() == NaiveTime::MIN {
        let last = to.date_naive().pred_opt().unwrap_or(to.date_naive());
        format!(
            "{} to {} (whole days)",
            from.format("%a %b %d %Y"),
            last.format("%a %b %d %Y")
        )
    } else {
        format!(
            "{} to {}",
            deadline::show(span.0, tz),
            deadline::show(span.1, tz)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn daily(at: Option<u32>) -> Timing {
        Timing {
            next: 24 * 60,
            grace: 24 * 60,
            at,
            days: [true; 7],
        }
    }

    // Issue 25, 11: "`SET ABSENCE 24 Dec 2026 TO 2 Jan 2027` starts at 23:59 of the 24th, so
    // a deadline that day is not protected".
    #[test]
    fn an_absence_of_dates_covers_those_whole_days() {
        let now = utc("2026-12-01T10:00:00Z");
        let paris: Tz = "Europe/Paris".parse().unwrap();
        let span = parse("24 Dec 2026 TO 2 Jan 2027", now, paris).unwrap();
        assert_eq!(
            span,
            (utc("2026-12-23T23:00:00Z"), utc("2027-01-02T23:00:00Z"))
        );
        assert!(
            covers(&span, utc("2026-12-24T17:00:00Z")),
            "18:00 in Paris on the 24th"
        );
        assert!(
            covers(&span, utc("2027-01-02T22:59:00Z")),
            "the last minute of the 2nd"
        );
        assert!(
            !covers(&span, utc("2027-01-02T23:00:00Z")),
            "the 3rd is free"
        );
        assert_eq!(days(&[span], paris).len(), 10);
        assert_eq!(
            describe(&span, paris),
            "Thu Dec 24 2026 to Sat Jan 02 2027 (whole days)"
        );
        // A time written is the moment meant.
        let span = parse("24 Dec 18:00 TO 2 Jan 09:00", now, Tz::UTC).unwrap();
        assert_eq!(
            span,
            (utc("2026-12-24T18:00:00Z"), utc("2027-01-02T09:00:00Z"))
        );
        assert_eq!(days(&[span], Tz::UTC).len(), 10);
        // An absence that began before today counts from today.
        let since = parse("1 Jan 2026 TO 2 Dec 2026", now, Tz::UTC).unwrap();
        assert_eq!(since.0, utc("2026-12-01T00:00:00Z"));
        assert_eq!(days(&[since], Tz::UTC).len(), 2);
        assert_eq!(parse("24 Dec", now, Tz::UTC), Err(AbsenceError::Form));
        assert_eq!(
            parse("2 Jan 2027 TO 24 Dec 2026", now, Tz::UTC),
            Err(AbsenceError::Backwards)
        );
        assert!(matches!(
            parse("1 Nov 2026 TO 2 Nov 2026", now, Tz::UTC),
            Err(AbsenceError::Date(DateError::Passed(..)))
        ));
    }

    // Issue 25, 11: "16 calendar days pass the 15-day check; overlapping absences count twice".
    #[test]
    fn days_are_counted_once_across_overlapping_absences() {
        let now = utc("2026-12-01T10:00:00Z");
        let a = parse("1 Dec 2026 TO 16 Dec 2026", now, Tz::UTC).unwrap();
        assert_eq!(days(&[a], Tz::UTC).len(), 16, "1 to 16 December is 16 days");
        let b = parse("10 Dec 2026 TO 12 Dec 2026", now, Tz::UTC).unwrap();
        let c = parse("5 Dec 2026 TO 11 Dec 2026", now, Tz::UTC).unwrap();
        assert_eq!(days(&[b, c], Tz::UTC).len(), 8, "5 to 12 December");
    }

    // Issue 25, 11: "the deadline it pushes drops the game's `AT` time".
    #[test]
    fn a_pushed_deadline_keeps_its_time_of_day_and_allowed_days() {
        let now = utc("2026-12-01T10:00:00Z");
        let d = utc("2026-12-24T18:00:00Z");
        let span = parse("24 Dec 2026 TO 2 Jan 2027", now, Tz::UTC).unwrap();
        let pushed = push(d, &[span], &daily(Some(18 * 60)), Tz::UTC);
        assert_eq!(pushed.at, utc("2027-01-03T18:00:00Z"));
        assert_eq!(pushed.by, vec![0]);
        // 3 January 2027 is a Sunday: a game without Sunday deadlines goes to Monday.
        let mut weekdays = daily(Some(18 * 60));
        weekdays.days[0] = false;
        assert_eq!(
            push(d, &[span], &weekdays, Tz::UTC).at,
            utc("2027-01-04T18:00:00Z")
        );
        // Overlapping and following absences of several players move it on until none
        // covers it; one that does not cover it is not named.
        let later = parse("3 Jan 2027 TO 4 Jan 2027", now, Tz::UTC).unwrap();
        let aside = parse("10 Dec 2026 TO 11 Dec 2026", now, Tz::UTC).unwrap();
        let pushed = push(d, &[later, aside, span], &daily(Some(18 * 60)), Tz::UTC);
        assert_eq!(pushed.at, utc("2027-01-05T18:00:00Z"));
        assert_eq!(pushed.by, vec![0, 2]);
        // An absence that ends at a written time lets the deadline fall that day.
        let morning = parse("20 Dec 2026 TO 24 Dec 2026 09:00", now, Tz::UTC).unwrap();
        assert_eq!(push(d, &[morning], &daily(None), Tz::UTC).at, d);
        let evening = parse("20 Dec 2026 TO 24 Dec 2026 20:00", now, Tz::UTC).unwrap();
        assert_eq!(
            push(d, &[evening], &daily(None), Tz::UTC).at,
            utc("2026-12-25T18:00:00Z")
        );
    }
}
