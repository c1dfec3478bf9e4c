//! A Maildir: new mail is read from `new/` and moved to `cur/` once handled; outgoing mail
//! is written to `tmp/` and moved into `new/`, so a reader never sees half a file. A mail
//! delivered under a name of its own (herald's outbox) is written once, however often its
//! delivery is repeated after a crash.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// A Maildir directory with `tmp/`, `new/` and `cur/`.
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl Maildir {
    /// Opens (creating if needed) a Maildir.
    pub fn open(root: &Path) -> std::io::Result<Maildir> {
        for sub in ["tmp", "new", "cur"] {
            std::fs::create_dir_all(root.join(sub))?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
        })
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The files waiting in `new/`, oldest name first.
    pub fn waiting(&self) -> std::io::Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.root.join("new"))?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.path())
            .collect();
        files.sort();
        Ok(files)
    }

    /// Moves a handled mail from `new/` to `cur/`, marked seen.
    pub fn mark_handled(&self, path: &Path) -> std::io::Result<()> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = name.split(':').next().unwrap_or(&name).to_string();
        std::fs::rename(path, self.root.join("cur").join(format!("{base}:2,S")))
    }

    /// Removes what deliveries that never finished left in `tmp/`: the files last written
    /// at least `age` ago (Maildir readers wait 36 hours for a foreign writer; herald's own
    /// outbox has no other writer, so everything there is stale when herald starts).
    /// Returns how many files went.
    pub fn clean_tmp(&self, age: Duration) -> std::io::Result<usize> {
        let now = SystemTime::now();
        let mut removed = 0;
        for entry in std::fs::read_dir(self.root.join("tmp"))? {
            let entry = entry?;
            let meta = entry.metadata()?;
            if !meta.is_file() {
                continue;
            }
            let written = meta.modified()?;
            if now.duration_since(written).unwrap_or(Duration::ZERO) >= age {
                match std::fs::remove_file(entry.path()) {
                    Ok(()) => removed += 1,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(removed)
    }

    /// Writes a mail into `new/` under `name`, unless a file of that name is there already
    /// (an earlier delivery of the same mail, cut short by a crash before it was recorded):
    /// then that one is kept. The file is written in `tmp/`, flushed to disk and linked into
    /// `new/`, which fails rather than overwrite. `name` is a plain file name (letters,
    /// digits, `.`, `-`, `_`).
    pub fn deliver_once(&self, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let plain = !name.is_empty()
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if !plain {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("'{name}' is not a plain Maildir file name"),
            ));
        }
        let dest = self.root.join("new").join(name);
        if dest.exists() {
            return Ok(dest);
        }
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = self
            .root
            .join("tmp")
            .join(format!("{name}.{}_{n}", std::process::id()));
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        let linked = match std::fs::hard_link(&tmp, &dest) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
            // A file system without hard links: move it, unless the name is taken.
            Err(_) if !dest.exists() => std::fs::rename(&tmp, &dest),
            other => other,
        };
        let _ = std::fs::remove_file(&tmp);
        linked.map(|()| dest)
    }

    /// The mail delivered under `name`, in `new/` or, moved there by a reader with its
    /// flags (`name:2,S`), in `cur/`.
    pub fn find(&self, name: &str) -> std::io::Result<Option<PathBuf>> {
        let fresh = self.root.join("new").join(name);
        if fresh.exists() {
            return Ok(Some(fresh));
        }
        for entry in std::fs::read_dir(self.root.join("cur"))? {
            let entry = entry?;
            let file = entry.file_name();
            let file = file.to_string_lossy();
            if file == name || file.strip_prefix(name).is_some_and(|f| f.starts_with(':')) {
                return Ok(Some(entry.path()));
            }
        }
        Ok(None)
    }

    /// Writes a mail into `new/` under a fresh name and returns its path.
    pub fn deliver(&self, stamp: i64, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        // The counter zero-padded, so that mails delivered in one second are read (in name
        // order) in the order they came: `_10` sorted before `_9`.
        let name = format!("{stamp}.{}_{n:010}.herald", std::process::id());
        let tmp = self.root.join("tmp").join(&name);
        std::fs::write(&tmp, bytes)?;
        let dest = self.root.join("new").join(&name);
        std::fs::rename(&tmp, &dest)?;
        Ok(dest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("herald-maildir-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn files(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn delivering_the_same_mail_twice_writes_one_file() {
        let dir = scratch("once");
        let m = Maildir::open(&dir).unwrap();
        let first = m
            .deliver_once("outbox-000000000007.herald", b"first")
            .unwrap();
        // A crash after the write and before it was recorded: the same mail again.
        let again = m
            .deliver_once("outbox-000000000007.herald", b"second")
            .unwrap();
        assert_eq!(first, again);
        assert_eq!(files(&dir.join("new")), ["outbox-000000000007.herald"]);
        assert_eq!(std::fs::read(&first).unwrap(), b"first");
        assert!(files(&dir.join("tmp")).is_empty());
        // Once a reader has taken it to cur/, it is still found there.
        m.mark_handled(&first).unwrap();
        assert_eq!(
            m.find("outbox-000000000007.herald").unwrap(),
            Some(dir.join("cur").join("outbox-000000000007.herald:2,S"))
        );
        assert_eq!(m.find("outbox-000000000070.herald").unwrap(), None);
        assert!(m.deliver_once("../escape", b"x").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn stale_files_in_tmp_are_removed() {
        let dir = scratch("tmp");
        let m = Maildir::open(&dir).unwrap();
        std::fs::write(dir.join("tmp").join("half.herald"), b"From: herald").unwrap();
        let old = dir.join("tmp").join("old.herald");
        std::fs::write(&old, b"From: someone").unwrap();
        let two_days_ago = SystemTime::now() - Duration::from_secs(48 * 3600);
        std::fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(two_days_ago)
            .unwrap();
        assert_eq!(m.clean_tmp(Duration::from_secs(36 * 3600)).unwrap(), 1);
        assert_eq!(files(&dir.join("tmp")), ["half.herald"]);
        assert_eq!(m.clean_tmp(Duration::ZERO).unwrap(), 1);
        assert!(files(&dir.join("tmp")).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
