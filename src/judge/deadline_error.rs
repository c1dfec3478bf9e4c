//! What can be wrong with a date or a timing a player or Master writes by mail: the errors of
//! [`super::deadline`], each worded as herald answers it.

/// A date that cannot be read, or lies where herald does not take it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    /// Nothing was written.
    #[error("a date is missing: write e.g. 2026-12-24 18:00")]
    Missing,
    /// A duration from now that overflows the calendar (`+99999999999d`).
    #[error("'{0}' is too far ahead")]
    TooFar(String),
    /// A number above 31 that is no year herald takes.
    #[error("{0} is not a year herald takes (1970 to 9999)")]
    Year(u32),
    /// A word that is no part of a date.
    #[error("'{0}' is not part of a date: write e.g. 2026-12-24 18:00 or 24 Dec 18:00")]
    Word(String),
    /// Day, month and year that make no date (`29 Feb 2027`), as written.
    #[error("{0} is not a date")]
    NoSuchDay(String),
    /// A day without a month, or a month without a day.
    #[error("'{0}' is not a full date: write e.g. 2026-12-24 18:00")]
    NotFull(String),
    /// The date has passed: the date and now, as shown in the game's zone.
    #[error("{0} has passed (it is now {1})")]
    Passed(String, String),
    /// More than a year ahead: the date, the days herald takes, and the last date it takes.
    #[error("{0} is more than {1} days ahead; herald takes dates up to {2}")]
    TooLate(String, i64, String),
    /// A Master's date that would hold the game longer than a PAUSE: the date, how far ahead
    /// a PAUSE may last, and the last date taken.
    #[error("{0} is more than {1} ahead: a Master holds a game at most as long as a PAUSE lasts, so herald takes dates up to {2}")]
    LongerThanPause(String, String, String),
}

/// A timing template (`NEXT 3d GRACE 12h AT 18:00 DAYS -MTWTF-`) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimingError {
    /// A word without its value.
    #[error("'{0}' needs a value")]
    NoValue(String),
    /// A value of NEXT or GRACE that is no duration.
    #[error("'{0}' is not a duration: write 7d, 36h or 90m")]
    Duration(String),
    /// Shorter than a minute.
    #[error("'{0}' is too short: at least 1 minute")]
    TooShort(String),
    /// Longer than herald takes: the value and the days it takes.
    #[error("'{0}' is too long: at most {1} days")]
    TooLong(String, i64),
    /// A value of AT that is no time of day.
    #[error("'{0}' is not a time: write 18:00")]
    Time(String),
    /// A value of DAYS that is no day mask.
    #[error(
        "'{0}' is not a day mask: write 7 letters from Sunday, '-' for no deadline, e.g. -MTWTF-"
    )]
    DayMask(String),
    /// A word that is not NEXT, GRACE, AT or DAYS.
    #[error("'{0}' is not a timing word: use NEXT, GRACE, AT or DAYS")]
    Word(String),
    /// No word at all: nothing to change.
    #[error("nothing to change: write NEXT, GRACE, AT or DAYS with its value, e.g. NEXT 7d")]
    Empty,
}
