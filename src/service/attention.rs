//! What the keeper must put right, told by a route that needs no mail server: the log, and a
//! file (`[storage] attention_file`) that holds one paragraph per current problem and is
//! removed once none is left. Issue 24: "a login refused (535) or any configuration fault
//! keeps the mail queued, tells the keeper by a route that does not need the same server
//! (the log and a file), and retries".

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use tracing::{error, info};

/// The problems herald has now, by what they stop (`sending`, `reading`), and the file that
/// shows them.
#[derive(Debug)]
pub struct Attention {
    /// The file.
    path: PathBuf,
    /// Each problem: since when, and what it is.
    now: std::sync::Mutex<BTreeMap<&'static str, (DateTime<Utc>, String)>>,
}

impl Attention {
    /// No problem yet; the file is written at the first.
    pub fn new(path: PathBuf) -> Attention {
        Attention {
            path,
            now: Default::default(),
        }
    }

    /// The file.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// Records that `what` (sending, reading) is stopped by `problem`; the file is rewritten
    /// when the problem is new or has changed.
    pub fn raise(&self, what: &'static str, problem: &str, at: DateTime<Utc>) {
        let changed = {
            let mut map = self.lock();
            match map.get(what) {
                Some((_, old)) if old == problem => false,
                _ => {
                    let since = map.get(what).map_or(at, |(since, _)| *since);
                    map.insert(what, (since, problem.to_string()));
                    true
                }
            }
        };
        if changed {
            error!(file = %self.path.display(), what, problem, "the keeper must put this right; written to the attention file");
            self.write();
        }
    }

    /// Records that `what` works again; the file loses its paragraph (and goes when empty).
    pub fn clear(&self, what: &'static str) {
        let gone = self.lock().remove(what).is_some();
        if gone {
            info!(what, "working again; the attention file says so no more");
            self.write();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<&'static str, (DateTime<Utc>, String)>> {
        // A panic while the map was held cannot leave it half changed.
        self.now
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes the file whole (a new file renamed over the old), or removes it.
    fn write(&self) {
        let text: String = self
            .lock()
            .iter()
            .map(|(what, (since, problem))| {
                format!(
                    "herald cannot go on {what} since {}: {problem}\n\
                     The mail stays queued (or unread) and herald tries again by itself; this \
                     paragraph goes once {what} works again.\n\n",
                    since.format("%Y-%m-%d %H:%M:%S UTC")
                )
            })
            .collect();
        let result = if text.is_empty() {
            match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                other => other,
            }
        } else {
            let tmp = self.path.with_extension("tmp");
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(dir);
            }
            std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &self.path))
        };
        if let Err(e) = result {
            error!(file = %self.path.display(), error = %e, "the attention file cannot be written");
        }
    }
}
