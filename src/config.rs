//! herald's configuration (`config/herald.toml`): every key documented there, every key
//! optional, the defaults keep everything under `./var`.

use std::path::{Path, PathBuf};

use chrono::Duration;
use serde::Deserialize;

/// The whole configuration.
#[derive(Clone, Debug, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The judge's identity.
    pub judge: JudgeSection,
    /// Where games are kept.
    pub storage: StorageSection,
    /// Where mail comes from.
    pub inbox: InboxSection,
    /// Where mail goes.
    pub outbox: OutboxSection,
    /// Default timing of new games.
    pub timing: TimingSection,
    /// Protection against floods.
    pub limits: LimitsSection,
    /// Extra map files.
    pub maps: DirSection,
    /// Template overrides.
    pub templates: DirSection,
}

/// `[judge]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JudgeSection {
    /// The From of every mail herald sends.
    pub address: String,
    /// The name in the `:: Judge:` header.
    pub name: String,
}

/// `[storage]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StorageSection {
    /// The SQLite file.
    pub database: PathBuf,
}

/// `[inbox]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InboxSection {
    /// The Maildir read.
    pub maildir: PathBuf,
    /// Seconds between looks.
    pub poll_seconds: u64,
    /// Larger mails are refused.
    pub max_bytes: usize,
}

/// `[outbox]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutboxSection {
    /// The Maildir written.
    pub maildir: PathBuf,
}

/// `[timing]`, durations written `7d`, `36h`, `90m`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TimingSection {
    /// Movement: deadline this long after the phase starts.
    pub move_next: String,
    /// Movement: grace after the deadline.
    pub move_grace: String,
    /// Retreats: deadline.
    pub retreat_next: String,
    /// Retreats: grace.
    pub retreat_grace: String,
    /// Adjustments: deadline.
    pub adjust_next: String,
    /// Adjustments: grace.
    pub adjust_grace: String,
    /// Wait after the last needed orders before processing early.
    pub early_delay: String,
    /// Reminder this long before the deadline.
    pub remind_before: String,
    /// Down longer than this counts as an outage.
    pub outage: String,
    /// After an outage, passed deadlines move this far ahead.
    pub outage_margin: String,
}

/// `[limits]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsSection {
    /// Replies to one address per hour.
    pub replies_per_hour: u32,
}

/// A section naming a directory (empty: none).
#[derive(Clone, Debug, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct DirSection {
    /// The directory.
    pub dir: String,
}

impl Default for JudgeSection {
    fn default() -> Self {
        JudgeSection {
            address: "herald@localhost".into(),
            name: "herald".into(),
        }
    }
}

impl Default for StorageSection {
    fn default() -> Self {
        StorageSection {
            database: "var/herald.db".into(),
        }
    }
}

impl Default for InboxSection {
    fn default() -> Self {
        InboxSection {
            maildir: "var/inbox".into(),
            poll_seconds: 2,
            max_bytes: 256 * 1024,
        }
    }
}

impl Default for OutboxSection {
    fn default() -> Self {
        OutboxSection {
            maildir: "var/outbox".into(),
        }
    }
}

impl Default for TimingSection {
    fn default() -> Self {
        TimingSection {
            move_next: "7d".into(),
            move_grace: "2d".into(),
            retreat_next: "2d".into(),
            retreat_grace: "1d".into(),
            adjust_next: "2d".into(),
            adjust_grace: "1d".into(),
            early_delay: "30m".into(),
            remind_before: "24h".into(),
            outage: "1h".into(),
            outage_margin: "24h".into(),
        }
    }
}

impl Default for LimitsSection {
    fn default() -> Self {
        LimitsSection {
            replies_per_hour: 60,
        }
    }
}

/// The configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("reading {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid.
    #[error("{path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: toml::de::Error,
    },
    /// A duration is not written as `7d`, `36h` or `90m`.
    #[error("[timing] {key} = '{value}': write a duration like 7d, 36h or 90m")]
    Duration {
        /// The key.
        key: &'static str,
        /// Its value.
        value: String,
    },
}

impl Config {
    /// Reads a configuration file; a missing file at the default path gives the defaults.
    pub fn load(path: &Path, must_exist: bool) -> Result<Config, ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !must_exist => {
                return Ok(Config::default())
            }
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        let config: Config = toml::from_str(&text).map_err(|source| ConfigError::Parse {
            path: path.to_path_buf(),
            source,
        })?;
        config.timing.durations()?;
        Ok(config)
    }
}

/// The timing section with its durations read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Durations {
    /// (next, grace) for movement, retreat, adjustment.
    pub phases: [(Duration, Duration); 3],
    /// Early-processing delay.
    pub early_delay: Duration,
    /// Reminder lead.
    pub remind_before: Duration,
    /// Outage threshold.
    pub outage: Duration,
    /// Outage margin.
    pub outage_margin: Duration,
}

impl TimingSection {
    /// Reads the durations.
    pub fn durations(&self) -> Result<Durations, ConfigError> {
        let d = |key: &'static str, value: &str| {
            parse_duration(value).ok_or(ConfigError::Duration {
                key,
                value: value.to_string(),
            })
        };
        Ok(Durations {
            phases: [
                (
                    d("move_next", &self.move_next)?,
                    d("move_grace", &self.move_grace)?,
                ),
                (
                    d("retreat_next", &self.retreat_next)?,
                    d("retreat_grace", &self.retreat_grace)?,
                ),
                (
                    d("adjust_next", &self.adjust_next)?,
                    d("adjust_grace", &self.adjust_grace)?,
                ),
            ],
            early_delay: d("early_delay", &self.early_delay)?,
            remind_before: d("remind_before", &self.remind_before)?,
            outage: d("outage", &self.outage)?,
            outage_margin: d("outage_margin", &self.outage_margin)?,
        })
    }
}

/// `7d`, `36h`, `90m`, `1d12h`.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim().to_ascii_lowercase();
    if text.is_empty() {
        return None;
    }
    let mut total = Duration::zero();
    let mut number = String::new();
    for c in text.chars() {
        match c {
            '0'..='9' => number.push(c),
            'd' | 'h' | 'm' => {
                let n: i64 = number.parse().ok()?;
                number.clear();
                total += match c {
                    'd' => Duration::days(n),
                    'h' => Duration::hours(n),
                    _ => Duration::minutes(n),
                };
            }
            _ => return None,
        }
    }
    number.is_empty().then_some(total)
}
