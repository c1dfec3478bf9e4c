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
    /// The IMAP account read when `[inbox] kind = "imap"`.
    pub imap: ImapSection,
    /// The SMTP server used when `[outbox] kind = "smtp"`.
    pub smtp: SmtpSection,
    /// Default timing of new games.
    pub timing: TimingSection,
    /// Protection against floods.
    pub limits: LimitsSection,
    /// Extra map files.
    pub maps: DirSection,
    /// Template overrides.
    pub templates: DirSection,
    /// The web pages (issue 28); without the section there are none.
    pub web: Option<WebSection>,
}

/// `[web]`: the pages the daemon serves.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebSection {
    /// The address and port to listen on (`127.0.0.1:8080`).
    pub listen: String,
    /// The public address of the pages (`https://judge.example.org`), empty when not known;
    /// an `https` one makes the sign-in cookie Secure.
    pub base_url: String,
    /// Seconds a client has to send a request's complete headers (from connecting, or from
    /// the first byte of its next request), and as long again for its body; then the
    /// connection is closed (issue 36).
    pub header_timeout_seconds: u64,
    /// Seconds a kept-alive connection may wait idle for its next request.
    pub idle_timeout_seconds: u64,
    /// The most web connections open at once (and at most a quarter of the limit on open
    /// files); one more is closed at once, so that the mail keeps its descriptors.
    pub max_connections: usize,
    /// The proxy in front of the pages (`127.0.0.1`, or a list: `"127.0.0.1, ::1"`), whose
    /// `X-Forwarded-For` names the client a sign-in's guesses are counted by; empty (the
    /// default): no proxy is trusted and the header is ignored.
    pub trusted_proxy: String,
}

impl WebSection {
    /// The addresses of [`WebSection::trusted_proxy`] ([`Config::check`] refuses one that is
    /// not an IP address).
    pub fn trusted_proxies(&self) -> Vec<std::net::IpAddr> {
        proxies(&self.trusted_proxy)
            .filter_map(|p| p.parse().ok())
            .collect()
    }
}

/// The items of a `trusted_proxy` list, split at commas and spaces.
fn proxies(list: &str) -> impl Iterator<Item = &str> {
    list.split([',', ' ']).filter(|p| !p.is_empty())
}

impl Default for WebSection {
    fn default() -> Self {
        WebSection {
            listen: "127.0.0.1:8080".into(),
            base_url: String::new(),
            header_timeout_seconds: 10,
            idle_timeout_seconds: 30,
            max_connections: 256,
            trusted_proxy: String::new(),
        }
    }
}

impl WebSection {
    /// The edge's limits are within reason: a timeout of zero would close every connection,
    /// a cap of zero would serve nothing.
    fn check_limits(&self) -> Result<(), ConfigError> {
        let within = |key, value: u64, range: std::ops::RangeInclusive<u64>, expected| {
            if range.contains(&value) {
                Ok(())
            } else {
                Err(ConfigError::Choice {
                    key,
                    value: value.to_string(),
                    expected,
                })
            }
        };
        within(
            "[web] header_timeout_seconds",
            self.header_timeout_seconds,
            1..=300,
            "seconds, from 1 to 300",
        )?;
        within(
            "[web] idle_timeout_seconds",
            self.idle_timeout_seconds,
            1..=3600,
            "seconds, from 1 to 3600",
        )?;
        within(
            "[web] max_connections",
            u64::try_from(self.max_connections).unwrap_or(u64::MAX),
            1..=65_536,
            "a number of connections, from 1 to 65536",
        )
    }
}

/// `[judge]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JudgeSection {
    /// The From of every mail herald sends.
    pub address: String,
    /// The name in the `:: Judge:` header.
    pub name: String,
    /// The keeper's address: told by mail when herald sets a game aside after a fault in it,
    /// or quarantines a mail it failed on.
    pub keeper: String,
}

/// `[storage]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StorageSection {
    /// The database: an SQLite file (a path, or a `sqlite:` URL), the default; or a
    /// PostgreSQL server (`postgres://user:password@host/name`), which several daemons may
    /// share (issue 29).
    pub database: PathBuf,
    /// Where herald writes what the keeper must put right when mail cannot be sent or read
    /// (a login refused, a server that does not answer): a route that needs no mail server.
    /// The file is removed once mail goes out (or is read) again. Empty: `attention.txt`
    /// beside the database.
    pub attention_file: PathBuf,
}

/// `[inbox]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InboxSection {
    /// Where mail is read from.
    #[serde(deserialize_with = "inbox_kind")]
    pub kind: InboxKind,
    /// The Maildir read.
    pub maildir: PathBuf,
    /// Seconds between looks.
    pub poll_seconds: u64,
    /// Larger mails are refused: the size is read from the file (or the server) first,
    /// and of a larger mail only its first bytes (the headers) are read, to answer it.
    pub max_bytes: usize,
    /// The mails read and handled together hold at most this many bytes (and at most 100
    /// mails); a single mail is always taken.
    pub batch_bytes: usize,
    /// The authserv-id the keeper's receiving mail server writes in its
    /// `Authentication-Results` headers (RFC 8601), e.g. `mx.example.org`: when set, a mail
    /// whose From those results do not pass is not taken as from a seat's own address (see
    /// [`crate::mail::authres`]). Unset (the default): the headers are not read.
    pub authserv_id: Option<String>,
}

/// `[outbox]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutboxSection {
    /// Where mail is written to.
    #[serde(deserialize_with = "outbox_kind")]
    pub kind: OutboxKind,
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
    /// A Master's PAUSE lasts at most this long; then the game resumes by itself.
    pub longest_pause: String,
}

/// `[imap]`: the judge's mailbox.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ImapSection {
    /// Server host.
    pub host: String,
    /// Server port (143 plain or STARTTLS, 993 TLS).
    pub port: u16,
    /// `none` (loopback only), `tls` or `starttls`.
    pub security: crate::mail::security::Security,
    /// Login.
    pub user: String,
    /// Password (or use `password_env`).
    pub password: String,
    /// Read the password from this environment variable instead.
    pub password_env: String,
    /// The folder new mail arrives in.
    pub folder: String,
    /// Move handled mail to this folder; empty: flag it \Seen.
    pub handled_folder: String,
    /// A PEM file of extra certificates to trust for TLS (a private CA).
    #[serde(deserialize_with = "optional_path")]
    pub ca_file: Option<PathBuf>,
    /// While waiting for mail, ask the server (NOOP) this often, in milliseconds, instead of
    /// waiting in IDLE; 0: IDLE. Dovecot 2.3 tells an IDLE client of new mail only 500 ms
    /// after it lands; a server on the same machine can be asked every 50 ms for nothing.
    pub check_ms: u64,
    /// Seconds any one IMAP operation (connecting, logging in, searching, fetching one
    /// batch, marking mail handled, ending IDLE) may take before herald drops the
    /// connection and tries again later.
    pub timeout_seconds: u64,
    /// At most this many bytes of mail are fetched in one batch (never less than one mail
    /// of `[inbox] max_bytes`).
    pub batch_bytes: usize,
}

/// `[smtp]`: the server herald sends through.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmtpSection {
    /// Server host.
    pub host: String,
    /// Server port (25, 587 STARTTLS, 465 TLS).
    pub port: u16,
    /// `none` (loopback only), `tls` or `starttls`.
    pub security: crate::mail::security::Security,
    /// Login; empty: no authentication.
    pub user: String,
    /// Password (or use `password_env`).
    pub password: String,
    /// Read the password from this environment variable instead.
    pub password_env: String,
    /// Seconds before the first retry of a mail the server did not take (4xx, no
    /// connection); each further retry waits twice as long, at most an hour.
    pub retry_seconds: u64,
    /// A PEM file of extra certificates to trust for TLS (a private CA).
    #[serde(deserialize_with = "optional_path")]
    pub ca_file: Option<PathBuf>,
    /// Seconds connecting (greeting, TLS, login) or sending one mail may take; a server
    /// that takes longer ends this round of sending, and the queue waits for the next.
    pub timeout_seconds: u64,
}

impl Default for ImapSection {
    fn default() -> Self {
        ImapSection {
            host: "127.0.0.1".into(),
            port: 143,
            security: Default::default(),
            user: String::new(),
            password: String::new(),
            password_env: String::new(),
            folder: "INBOX".into(),
            handled_folder: String::new(),
            ca_file: None,
            check_ms: 0,
            timeout_seconds: 30,
            batch_bytes: 4 * 1024 * 1024,
        }
    }
}

impl Default for SmtpSection {
    fn default() -> Self {
        SmtpSection {
            host: "127.0.0.1".into(),
            port: 25,
            security: Default::default(),
            user: String::new(),
            password: String::new(),
            password_env: String::new(),
            retry_seconds: 60,
            ca_file: None,
            timeout_seconds: 30,
        }
    }
}

/// A password from the file, or from the environment variable named by `password_env`.
pub fn password(inline: &str, env: &str) -> Result<String, ConfigError> {
    if env.is_empty() {
        return Ok(inline.to_string());
    }
    std::env::var(env).map_err(|_| ConfigError::Env {
        name: env.to_string(),
    })
}

/// `[limits]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsSection {
    /// Replies to one address per hour.
    pub replies_per_hour: u32,
    /// The text of a reply holds at most this many bytes; what is over is left out with a
    /// notice saying so, and no further information command of the mail is run.
    pub reply_bytes: usize,
    /// The text of a reply holds at most this many lines (as `reply_bytes`).
    pub reply_lines: usize,
    /// A reply carries at most this many pictures (a deadline's calendar entry comes on top).
    pub reply_attachments: usize,
    /// A mail bigger than this, text and files, is never sent: it is marked failed with the
    /// reason (no mail herald writes today comes near it).
    pub send_bytes: usize,
    /// The text of a mail sent (or failed) this many days ago is dropped from the database
    /// (its files go once it is sent); the row saying it went stays.
    pub keep_outbox_days: u32,
    /// Press and broadcast blocks read from one mail; later ones are refused.
    pub press_per_mail: u32,
    /// Press and broadcast blocks from one address in one game in an hour.
    pub press_per_hour: u32,
    /// Deadline mails (results and their notices) that reach each observer of a game in an
    /// hour; later ones go to its players and Master only.
    pub observer_results_per_hour: u32,
    /// A Master's SET MOVE, RETREAT or ADJUST NEXT shorter than this many minutes is
    /// refused, but in a game whose Master is the keeper (issue 36: "nothing grows without
    /// bound"). 0: no floor.
    pub shortest_phase_minutes: u32,
    /// A running game in which no power had orders for this many processed phases in a row
    /// pauses, and its Master is told. 0: never.
    pub idle_phases: u32,
    /// Games one sender may CREATE in a day.
    pub creates_per_sender_day: u32,
    /// Games the whole judge CREATEs in an hour.
    pub creates_per_hour: u32,
    /// A forming game nobody joined for this many days lapses (its name is free again).
    pub forming_days: u32,
}

/// A section naming a directory, or none.
#[derive(Clone, Debug, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct DirSection {
    /// The directory.
    #[serde(deserialize_with = "optional_path")]
    pub dir: Option<PathBuf>,
}

/// `[inbox] kind`: where mail is read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InboxKind {
    /// A Maildir on this machine (`[inbox] maildir`).
    #[default]
    Maildir,
    /// An IMAP mailbox (`[imap]`).
    Imap,
}

/// `[outbox] kind`: where mail is written to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutboxKind {
    /// Files in a Maildir on this machine (`[outbox] maildir`).
    #[default]
    Maildir,
    /// An SMTP server (`[smtp]`).
    Smtp,
}

impl std::fmt::Display for InboxKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            InboxKind::Maildir => "maildir",
            InboxKind::Imap => "imap",
        })
    }
}

impl std::fmt::Display for OutboxKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OutboxKind::Maildir => "maildir",
            OutboxKind::Smtp => "smtp",
        })
    }
}

/// A value read by its own `Deserialize`, with the key named in its error: serde's
/// "unknown variant `pop3`, expected `maildir` or `imap`" alone does not say which `kind`.
fn named<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    key: &str,
) -> Result<T, D::Error> {
    T::deserialize(d).map_err(|e| serde::de::Error::custom(format!("{key}: {e}")))
}

fn inbox_kind<'de, D: serde::Deserializer<'de>>(d: D) -> Result<InboxKind, D::Error> {
    named(d, "[inbox] kind")
}

fn outbox_kind<'de, D: serde::Deserializer<'de>>(d: D) -> Result<OutboxKind, D::Error> {
    named(d, "[outbox] kind")
}

/// An optional path: absent is none. An empty string is none too, as configuration
/// files written for earlier versions of herald (`dir = ""`) say it.
fn optional_path<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<PathBuf>, D::Error> {
    let path = PathBuf::deserialize(d)?;
    Ok((!path.as_os_str().is_empty()).then_some(path))
}

impl Default for JudgeSection {
    fn default() -> Self {
        JudgeSection {
            address: "herald@localhost".into(),
            name: "herald".into(),
            keeper: "postmaster@localhost".into(),
        }
    }
}

impl StorageSection {
    /// `database` as herald prints it: a server URL's password replaced by `***`.
    pub fn database_shown(&self) -> String {
        database_shown(&self.database)
    }
}

/// A `[storage] database` as herald prints it: a server URL's password replaced by `***`.
pub fn database_shown(database: &Path) -> String {
    let text = database.to_string_lossy();
    let Some((scheme, rest)) = text.split_once("://") else {
        return text.into_owned();
    };
    let Some((login, host)) = rest.rsplit_once('@') else {
        return text.into_owned();
    };
    match login.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => text.into_owned(),
    }
}

impl Default for StorageSection {
    fn default() -> Self {
        StorageSection {
            database: "var/herald.db".into(),
            attention_file: PathBuf::new(),
        }
    }
}

impl Default for InboxSection {
    fn default() -> Self {
        InboxSection {
            kind: InboxKind::Maildir,
            maildir: "var/inbox".into(),
            poll_seconds: 2,
            max_bytes: 256 * 1024,
            batch_bytes: 4 * 1024 * 1024,
            authserv_id: None,
        }
    }
}

impl Default for OutboxSection {
    fn default() -> Self {
        OutboxSection {
            kind: OutboxKind::Maildir,
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
            longest_pause: "30d".into(),
        }
    }
}

impl Default for LimitsSection {
    fn default() -> Self {
        LimitsSection {
            replies_per_hour: 60,
            reply_bytes: 256 * 1024,
            reply_lines: 5_000,
            reply_attachments: 5,
            send_bytes: 16 * 1024 * 1024,
            keep_outbox_days: 30,
            press_per_mail: 10,
            press_per_hour: 30,
            observer_results_per_hour: 6,
            shortest_phase_minutes: 60,
            idle_phases: 6,
            creates_per_sender_day: 5,
            creates_per_hour: 20,
            forming_days: 14,
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
    /// A password's environment variable is not set.
    #[error("the environment variable {name} (a password_env) is not set")]
    Env {
        /// The variable.
        name: String,
    },
    /// A value is not one of its choices.
    #[error("{key} = '{value}': {expected}")]
    Choice {
        /// The key.
        key: &'static str,
        /// Its value.
        value: String,
        /// What it may be.
        expected: &'static str,
    },
    /// A duration is not written as `7d`, `36h` or `90m`.
    #[error("[timing] {key} = '{value}': write a duration like 7d, 36h or 90m, at most 365d")]
    Duration {
        /// The key.
        key: &'static str,
        /// Its value.
        value: String,
    },
    /// A password would travel in clear text to another machine.
    #[error("[{section}] security = \"none\" would send the password in clear text to {host}: only a server on loopback (127.0.0.1, ::1, localhost) may be reached without TLS; set security = \"tls\" or \"starttls\"")]
    Cleartext {
        /// `imap` or `smtp`.
        section: &'static str,
        /// The host.
        host: String,
    },
}

/// Whether a host name is this machine's loopback.
fn loopback(host: &str) -> bool {
    let host = host.trim().trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
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
        let parse_error = |source| ConfigError::Parse {
            path: path.to_path_buf(),
            source,
        };
        let mut config: Config = toml::from_str(&text).map_err(parse_error)?;
        let given: toml::Table = toml::from_str(&text).map_err(parse_error)?;
        config.resolve_paths(&given, path.parent().unwrap_or(Path::new("")));
        config.check()?;
        Ok(config)
    }

    /// Reads the relative paths the file gives from the file's own directory, so that the
    /// same file means the same places whatever directory herald is started in. A key the
    /// file leaves out keeps its default, relative to the current directory as without a
    /// file.
    fn resolve_paths(&mut self, given: &toml::Table, dir: &Path) {
        let from_dir = |path: &mut PathBuf| {
            if path.is_relative() {
                *path = dir.join(&*path);
            }
        };
        let written =
            |section: &str, key: &str| given.get(section).and_then(|s| s.get(key)).is_some();
        // A URL (`postgres://`, `sqlite:`) is not a path relative to the file; a `sqlite:`
        // URL's own path is read from the current directory, as sqlx reads it.
        let url = crate::store::backend::Location::is_url(&self.storage.database);
        for (section, key, path) in [
            ("storage", "database", &mut self.storage.database),
            ("inbox", "maildir", &mut self.inbox.maildir),
            ("outbox", "maildir", &mut self.outbox.maildir),
        ] {
            if written(section, key) && !(section == "storage" && url) {
                from_dir(path);
            }
        }
        // Empty: beside the database (see `Service::open`).
        if !self.storage.attention_file.as_os_str().is_empty() {
            from_dir(&mut self.storage.attention_file);
        }
        // These have no default: a path there was written in the file.
        for path in [
            &mut self.imap.ca_file,
            &mut self.smtp.ca_file,
            &mut self.maps.dir,
            &mut self.templates.dir,
        ]
        .into_iter()
        .flatten()
        {
            from_dir(path);
        }
    }

    /// Checks what can be checked without connecting anywhere: the durations, and that no
    /// password would go in clear text to another machine (IMAP always logs in; SMTP does
    /// when a user is set).
    pub fn check(&self) -> Result<(), ConfigError> {
        use crate::mail::security::Security;
        self.timing.durations()?;
        if self.inbox.kind == InboxKind::Imap
            && self.imap.security == Security::None
            && !loopback(&self.imap.host)
        {
            return Err(ConfigError::Cleartext {
                section: "imap",
                host: self.imap.host.clone(),
            });
        }
        if self.outbox.kind == OutboxKind::Smtp
            && self.smtp.security == Security::None
            && !self.smtp.user.is_empty()
            && !loopback(&self.smtp.host)
        {
            return Err(ConfigError::Cleartext {
                section: "smtp",
                host: self.smtp.host.clone(),
            });
        }
        if let Some(web) = &self.web {
            if web.listen.parse::<std::net::SocketAddr>().is_err() {
                return Err(ConfigError::Choice {
                    key: "[web] listen",
                    value: web.listen.clone(),
                    expected: "an address and port, like 127.0.0.1:8080",
                });
            }
            web.check_limits()?;
            if proxies(&web.trusted_proxy).any(|p| p.parse::<std::net::IpAddr>().is_err()) {
                return Err(ConfigError::Choice {
                    key: "[web] trusted_proxy",
                    value: web.trusted_proxy.clone(),
                    expected: "an IP address or a list of them, like \"127.0.0.1, ::1\"",
                });
            }
        }
        Ok(())
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
    /// The longest a Master's PAUSE lasts.
    pub longest_pause: Duration,
}

impl TimingSection {
    /// Reads the durations.
    pub fn durations(&self) -> Result<Durations, ConfigError> {
        // A year bounds every duration, as it bounds what a Master may set by mail.
        let d = |key: &'static str, value: &str| {
            parse_duration(value)
                .filter(|d| *d <= Duration::days(365))
                .ok_or(ConfigError::Duration {
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
            longest_pause: d("longest_pause", &self.longest_pause)?,
        })
    }
}

/// `7d`, `36h`, `90m`, `1d12h`.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim().to_ascii_lowercase();
    if text.is_empty() {
        return None;
    }
    // Arithmetic saturates, so no text can overflow it: a huge value reads as the longest
    // duration there is, and range checks refuse it by name.
    let mut total = Duration::zero();
    let mut number = String::new();
    for c in text.chars() {
        match c {
            '0'..='9' => number.push(c),
            'd' | 'h' | 'm' => {
                if number.is_empty() {
                    return None;
                }
                let n: i64 = number.parse().unwrap_or(i64::MAX);
                number.clear();
                let part = match c {
                    'd' => Duration::try_days(n),
                    'h' => Duration::try_hours(n),
                    _ => Duration::try_minutes(n),
                };
                total = part
                    .and_then(|p| total.checked_add(&p))
                    .unwrap_or(Duration::MAX);
            }
            _ => return None,
        }
    }
    number.is_empty().then_some(total)
}

#[cfg(test)]
mod tests;
