//! A change to the timing of later phases, as the Master's SET MOVE, SET RETREAT and SET
//! ADJUST write it: read once when the line is read, applied when the command is.

use chrono::NaiveTime;

use super::deadline::{LONGEST, SHORTEST};
use super::deadline_error::TimingError;
use super::game::Timing;
use crate::config::parse_duration;

/// A change to the timing of one kind of phase, as `SET MOVE|RETREAT|ADJUST [NEXT 7d]
/// [GRACE 2d] [AT 18:00] [DAYS -MTWTF-]` writes it: read once, when the line is read, and
/// applied when the command is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimingChange {
    /// NEXT: minutes from the start of a phase to its deadline.
    pub next: Option<i64>,
    /// GRACE: minutes of grace.
    pub grace: Option<i64>,
    /// AT: the time of day of a deadline (minutes after midnight).
    pub at: Option<u32>,
    /// DAYS: the days a deadline may fall on, Sunday first.
    pub days: Option<[bool; 7]>,
}

impl TimingChange {
    /// Reads the words after SET MOVE (or RETREAT, ADJUST); every word must be a key with
    /// its value, every value in range.
    pub fn read(words: &[&str]) -> Result<TimingChange, TimingError> {
        if words.is_empty() {
            return Err(TimingError::Empty);
        }
        let mut change = TimingChange::default();
        let mut i = 0;
        while i < words.len() {
            let key = words[i].to_ascii_lowercase();
            let value = words
                .get(i + 1)
                .ok_or_else(|| TimingError::NoValue(words[i].to_string()))?;
            match key.as_str() {
                "next" | "grace" => {
                    let d = parse_duration(value)
                        .ok_or_else(|| TimingError::Duration(value.to_string()))?;
                    if d < SHORTEST {
                        return Err(TimingError::TooShort(value.to_string()));
                    }
                    if d > LONGEST {
                        return Err(TimingError::TooLong(value.to_string(), LONGEST.num_days()));
                    }
                    if key == "next" {
                        change.next = Some(d.num_minutes());
                    } else {
                        change.grace = Some(d.num_minutes());
                    }
                }
                "at" => {
                    let t = NaiveTime::parse_from_str(value, "%H:%M")
                        .map_err(|_| TimingError::Time(value.to_string()))?;
                    change.at = Some(hour_minute(t));
                }
                "days" => {
                    let chars: Vec<char> = value.chars().collect();
                    if chars.len() != 7 || chars.iter().all(|&c| c == '-') {
                        return Err(TimingError::DayMask(value.to_string()));
                    }
                    let mut days = [false; 7];
                    for (k, c) in chars.iter().enumerate() {
                        days[k] = *c != '-';
                    }
                    change.days = Some(days);
                }
                _ => return Err(TimingError::Word(words[i].to_string())),
            }
            i += 2;
        }
        Ok(change)
    }

    /// The timing with this change made.
    pub fn apply(&self, timing: &mut Timing) {
        if let Some(next) = self.next {
            timing.next = next;
        }
        if let Some(grace) = self.grace {
            timing.grace = grace;
        }
        if let Some(at) = self.at {
            timing.at = Some(at);
        }
        if let Some(days) = self.days {
            timing.days = days;
        }
    }
}

/// Minutes after midnight.
fn hour_minute(t: NaiveTime) -> u32 {
    use chrono::Timelike;
    t.hour() * 60 + t.minute()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::judge::deadline::tests::weekly;

    #[test]
    fn timing_templates_read_every_word() {
        let mut t = weekly();
        TimingChange::read(&[
            "NEXT", "3d", "GRACE", "12h", "AT", "18:00", "DAYS", "-MTWTF-",
        ])
        .unwrap()
        .apply(&mut t);
        assert_eq!((t.next, t.grace, t.at), (3 * 1440, 720, Some(1080)));
        assert_eq!(t.days, [false, true, true, true, true, true, false]);
        // A change names only what it changes.
        TimingChange::read(&["GRACE", "1d"]).unwrap().apply(&mut t);
        assert_eq!((t.next, t.grace, t.at), (3 * 1440, 1440, Some(1080)));
        assert!(TimingChange::read(&["NEXT", "soon"])
            .unwrap_err()
            .to_string()
            .contains("'soon'"));
        assert!(TimingChange::read(&["DAYS", "-------"]).is_err());
        assert!(TimingChange::read(&["NEXT"]).is_err());
        assert_eq!(TimingChange::read(&[]), Err(TimingError::Empty));
    }
}
