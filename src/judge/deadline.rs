//! Deadlines as pure functions of the game's timing, a start time and its time zone: when
//! the next deadline falls, how dates are read from mail and shown back.

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

pub use super::deadline_error::{DateError, TimingError};
use super::game::Timing;
use crate::config::parse_duration;

/// The longest a phase may run before its deadline, or its grace after it, and the furthest
/// ahead a date set by mail may lie (a real game never comes near a year).
pub const LONGEST: Duration = Duration::days(365);

/// The shortest phase or grace a Master may set.
pub const SHORTEST: Duration = Duration::minutes(1);

/// `t` moved on by `d`, saturating at the end of time instead of overflowing.
pub fn later(t: DateTime<Utc>, d: Duration) -> DateTime<Utc> {
    t.checked_add_signed(d).unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// `t` moved back by `d`, saturating at the beginning of time instead of overflowing.
pub fn earlier(t: DateTime<Utc>, d: Duration) -> DateTime<Utc> {
    t.checked_sub_signed(d).unwrap_or(DateTime::<Utc>::MIN_UTC)
}

/// A number of minutes as a duration, saturating instead of overflowing.
pub fn minutes(n: i64) -> Duration {
    Duration::try_minutes(n).unwrap_or(if n < 0 { Duration::MIN } else { Duration::MAX })
}

/// The deadline of a phase that starts at `start`: `next` later, moved forward to the `at`
/// time of day and to an allowed day, in the game's zone.
pub fn next_deadline(start: DateTime<Utc>, timing: &Timing, tz: Tz) -> DateTime<Utc> {
    // Stored timings were range-checked when set; clamping keeps an old or hand-edited one
    // from overflowing the calendar.
    let next = minutes(timing.next).clamp(SHORTEST, LONGEST);
    let mut t = later(start, next).with_timezone(&tz);
    let next_day = |d: NaiveDate| d.succ_opt().unwrap_or(d);
    if let Some(at) = timing.at {
        let time = NaiveTime::from_hms_opt(at / 60, at % 60, 0).unwrap_or(NaiveTime::MIN);
        let mut candidate = local(tz, t.date_naive(), time);
        if candidate < t {
            candidate = local(tz, next_day(t.date_naive()), time);
        }
        t = candidate;
    }
    for _ in 0..7 {
        if timing.days[t.weekday().num_days_from_sunday() as usize] {
            break;
        }
        t = local(tz, next_day(t.date_naive()), t.time());
    }
    t.with_timezone(&Utc)
}

fn local(tz: Tz, date: NaiveDate, time: NaiveTime) -> DateTime<Tz> {
    tz.from_local_datetime(&date.and_time(time))
        .earliest()
        .unwrap_or_else(|| tz.from_utc_datetime(&date.and_time(time)))
}

/// A date set by mail for what lies ahead (a deadline, the end of grace, START AFTER, an
/// absence): read as [`parse_date`] does, and refused when it has passed or lies more than
/// [`LONGEST`] ahead.
pub fn parse_ahead(text: &str, now: DateTime<Utc>, tz: Tz) -> Result<DateTime<Utc>, DateError> {
    let t = parse_date(text, now, tz)?;
    check_ahead(t, now, tz)
}

/// A date the Master sets to hold this phase (its deadline, the end of its grace, START
/// AFTER): read as [`parse_ahead`] does, and refused when it lies more than `longest` ahead
/// (the keeper's `[timing] longest_pause`), so that no date holds a game longer than a PAUSE
/// can.
pub fn parse_hold(
    text: &str,
    now: DateTime<Utc>,
    tz: Tz,
    longest: Duration,
) -> Result<DateTime<Utc>, DateError> {
    let t = parse_date(text, now, tz)?;
    let t = check_ahead(t, now, tz)?;
    let limit = later(now, longest.min(LONGEST));
    if t > limit {
        return Err(DateError::LongerThanPause(
            show(t, tz),
            left(now, limit),
            show(limit, tz),
        ));
    }
    Ok(t)
}

/// `t` if it is neither past nor more than [`LONGEST`] ahead.
pub fn check_ahead(
    t: DateTime<Utc>,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<DateTime<Utc>, DateError> {
    if t < now {
        return Err(DateError::Passed(show(t, tz), show(now, tz)));
    }
    if t > later(now, LONGEST) {
        return Err(DateError::TooLate(
            show(t, tz),
            LONGEST.num_days(),
            show(later(now, LONGEST), tz),
        ));
    }
    Ok(t)
}

/// The time of a date written without one: its last minute (checked when herald is compiled).
const LAST_MINUTE: NaiveTime = match NaiveTime::from_hms_opt(23, 59, 0) {
    Some(t) => t,
    None => panic!("23:59 is a time"),
};

/// A date as players write it, in the game's zone: `2026-12-24`, `2026-12-24 18:00`,
/// `24 Dec 2026`, `Dec 24 18:00`, `24 Dec`, `18:00` (today), or a duration from now
/// (`+2d`). A date without a year is the next such date; a date without a time means its
/// last minute. Nothing it is given can make it overflow: an impossible date is an error.
pub fn parse_date(text: &str, now: DateTime<Utc>, tz: Tz) -> Result<DateTime<Utc>, DateError> {
    Ok(match read(text, now, tz)? {
        Written::Moment(t) => t,
        Written::Day(day, time) => at(tz, day, time.unwrap_or(LAST_MINUTE)),
    })
}

/// A date as written: a moment (a duration from now), or a day in the game's zone with the
/// time of day if one was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// `+2d`: a moment.
    Moment(DateTime<Utc>),
    /// A day, and its time if written.
    Day(NaiveDate, Option<NaiveTime>),
}

/// `time` of `day` in the zone `tz` (the earlier of two, or the moment after a gap, when the
/// clocks change).
pub fn at(tz: Tz, day: NaiveDate, time: NaiveTime) -> DateTime<Utc> {
    local(tz, day, time).with_timezone(&Utc)
}

/// Reads a date as [`parse_date`] takes it, keeping whether a time of day was written.
pub fn read(text: &str, now: DateTime<Utc>, tz: Tz) -> Result<Written, DateError> {
    let words: Vec<String> = text
        .replace(',', " ")
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    if words.is_empty() {
        return Err(DateError::Missing);
    }
    if let Some(d) = words[0].strip_prefix('+').and_then(parse_duration) {
        return now
            .checked_add_signed(d)
            .map(Written::Moment)
            .ok_or_else(|| DateError::TooFar(words[0].clone()));
    }
    let today = now.with_timezone(&tz).date_naive();
    let mut date: Option<NaiveDate> = None;
    let mut time = None;
    let (mut day, mut month, mut year) = (None, None, None);
    for w in &words {
        if let Ok(d) = NaiveDate::parse_from_str(w, "%Y-%m-%d") {
            date = Some(d);
        } else if let Ok(t) = NaiveTime::parse_from_str(w, "%H:%M") {
            time = Some(t);
        } else if let Some(m) = month_number(w) {
            month = Some(m);
        } else if let Ok(n) = w.parse::<u32>() {
            if n > 31 {
                if !(1970..=9999).contains(&n) {
                    return Err(DateError::Year(n));
                }
                year = Some(n as i32);
            } else {
                day = Some(n);
            }
        } else if weekday(w) {
            continue;
        } else {
            return Err(DateError::Word(w.clone()));
        }
    }
    let date = match (date, day, month) {
        (Some(d), _, _) => d,
        (None, Some(d), Some(m)) => {
            let y = year.unwrap_or(today.year());
            let mut candidate = NaiveDate::from_ymd_opt(y, m, d)
                .ok_or_else(|| DateError::NoSuchDay(format!("{d}/{m}/{y}")))?;
            if year.is_none() && candidate < today {
                candidate = NaiveDate::from_ymd_opt(y.saturating_add(1), m, d)
                    .ok_or_else(|| DateError::NoSuchDay(format!("{d}/{m}")))?;
            }
            candidate
        }
        (None, None, None) => today,
        _ => return Err(DateError::NotFull(text.to_string())),
    };
    Ok(Written::Day(date, time))
}

fn month_number(w: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let head: String = w.chars().take(3).collect();
    MONTHS
        .iter()
        .position(|m| *m == head && w.len() >= 3)
        .map(|i| i as u32 + 1)
}

fn weekday(w: &str) -> bool {
    ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        .iter()
        .any(|d| w.starts_with(d))
}

/// A time as the judge prints it: `Sun Dec 06 2026 18:00 UTC`.
pub fn show(t: DateTime<Utc>, tz: Tz) -> String {
    t.with_timezone(&tz)
        .format("%a %b %d %Y %H:%M %Z")
        .to_string()
}

/// The time left, `5 days, 23 hours, 10 minutes` (whole minutes, the seconds left out);
/// `less than a minute` under one; `passed` when none is left.
pub fn left(now: DateTime<Utc>, then: DateTime<Utc>) -> String {
    let secs = (then - now).num_seconds();
    if secs <= 0 {
        return "passed".into();
    }
    if secs < 60 {
        return "less than a minute".into();
    }
    let (d, h, m) = (secs / 86_400, secs % 86_400 / 3600, secs % 3600 / 60);
    let part = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(part(d, "day"));
    }
    if h > 0 {
        parts.push(part(h, "hour"));
    }
    if m > 0 || parts.is_empty() {
        parts.push(part(m, "minute"));
    }
    parts.join(", ")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    /// A week to the deadline, two days' grace, any day.
    pub(crate) fn weekly() -> Timing {
        Timing {
            next: 7 * 24 * 60,
            grace: 2 * 24 * 60,
            at: None,
            days: [true; 7],
        }
    }

    #[test]
    fn deadlines_follow_next_at_and_days() {
        let start = utc("2026-12-01T10:00:00Z"); // a Tuesday
        assert_eq!(
            next_deadline(start, &weekly(), Tz::UTC),
            utc("2026-12-08T10:00:00Z")
        );
        let mut t = weekly();
        t.at = Some(18 * 60);
        assert_eq!(
            next_deadline(start, &t, Tz::UTC),
            utc("2026-12-08T18:00:00Z")
        );
        t.at = Some(9 * 60);
        assert_eq!(
            next_deadline(start, &t, Tz::UTC),
            utc("2026-12-09T09:00:00Z")
        );
        t.next = 4 * 24 * 60; // Saturday
        t.days = [false, true, true, true, true, true, false];
        assert_eq!(
            next_deadline(start, &t, Tz::UTC),
            utc("2026-12-07T09:00:00Z")
        );
        let london: Tz = "Europe/Paris".parse().unwrap();
        t.days = [true; 7];
        t.at = Some(18 * 60);
        assert_eq!(
            next_deadline(start, &t, london),
            utc("2026-12-05T17:00:00Z")
        );
    }

    #[test]
    fn no_timing_or_date_overflows() {
        let start = utc("2026-12-01T10:00:00Z");
        // A timing stored before the limits existed is clamped to a year.
        let mut t = weekly();
        t.next = i64::MAX;
        assert_eq!(
            next_deadline(start, &t, Tz::UTC),
            utc("2027-12-01T10:00:00Z")
        );
        t.next = i64::MIN;
        assert_eq!(
            next_deadline(start, &t, Tz::UTC),
            utc("2026-12-01T10:01:00Z")
        );
        assert_eq!(
            later(DateTime::<Utc>::MAX_UTC, Duration::days(1)),
            DateTime::<Utc>::MAX_UTC
        );
        assert_eq!(
            earlier(DateTime::<Utc>::MIN_UTC, Duration::days(1)),
            DateTime::<Utc>::MIN_UTC
        );
        assert_eq!(minutes(i64::MAX), Duration::MAX);
        for text in [
            "+99999999999d",
            "+9223372036854775807m",
            "4294967295-01-01",
            "31 Dec 4294967295",
            "31 Dec 262143",
            "29 Feb 2027",
        ] {
            assert!(parse_date(text, start, Tz::UTC).is_err(), "{text}");
        }
        assert!(parse_ahead("2026-11-30", start, Tz::UTC)
            .unwrap_err()
            .to_string()
            .contains("has passed"));
        assert!(parse_ahead("2028-01-01", start, Tz::UTC)
            .unwrap_err()
            .to_string()
            .contains("more than 365 days ahead"));
        assert!(parse_ahead("+365d", start, Tz::UTC).is_ok());
    }

    #[test]
    fn dates_in_the_forms_players_write() {
        let now = utc("2026-12-01T10:00:00Z");
        let tz = Tz::UTC;
        assert_eq!(
            parse_date("2026-12-24 18:00", now, tz).unwrap(),
            utc("2026-12-24T18:00:00Z")
        );
        assert_eq!(
            parse_date("24 Dec 18:00", now, tz).unwrap(),
            utc("2026-12-24T18:00:00Z")
        );
        assert_eq!(
            parse_date("Dec 24 2026", now, tz).unwrap(),
            utc("2026-12-24T23:59:00Z")
        );
        assert_eq!(
            parse_date("Jan 3", now, tz).unwrap(),
            utc("2027-01-03T23:59:00Z")
        );
        assert_eq!(
            parse_date("+2d", now, tz).unwrap(),
            utc("2026-12-03T10:00:00Z")
        );
        assert!(parse_date("someday", now, tz)
            .unwrap_err()
            .to_string()
            .contains("'someday'"));
    }

    #[test]
    fn times_show_in_the_zone_and_time_left_reads_well() {
        let t = utc("2026-12-06T18:00:00Z");
        assert_eq!(show(t, Tz::UTC), "Sun Dec 06 2026 18:00 UTC");
        assert_eq!(
            show(t, "Europe/London".parse().unwrap()),
            "Sun Dec 06 2026 18:00 GMT"
        );
        assert_eq!(left(utc("2026-12-01T18:00:00Z"), t), "5 days");
        assert_eq!(left(utc("2026-12-06T16:59:00Z"), t), "1 hour, 1 minute");
        assert_eq!(left(t, t), "passed");
        // Issue 25, 17: "'less than 1 minute' with 78 s left". The time left is said as it
        // is: whole minutes, and "less than a minute" only under one.
        assert_eq!(left(t - Duration::seconds(78), t), "1 minute");
        assert_eq!(left(t - Duration::seconds(59), t), "less than a minute");
    }
}
