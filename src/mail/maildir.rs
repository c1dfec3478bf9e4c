//! A Maildir: new mail is read from `new/` and moved to `cur/` once handled; outgoing mail
//! is written to `tmp/` and moved into `new/`, so a reader never sees half a file. A mail
//! delivered under a name of its own (herald's outbox) is written once, however often its
//! delivery is repeated after a crash.

use std::io::{Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// A Maildir directory with `tmp/`, `new/` and `cur/`.
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Of a mail over the size limit, at most this many of its first bytes are read: its
/// headers, to answer the sender.
pub const HEAD_BYTES: usize = 64 * 1024;

/// A mail file as read within the size limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MailFile {
    /// The whole mail.
    Whole(Vec<u8>),
    /// A mail over the limit: its header block alone (at most [`HEAD_BYTES`]), and its size.
    Head {
        /// The headers, up to and with the blank line that ends them.
        head: Vec<u8>,
        /// The file's size in bytes.
        size: u64,
    },
}

impl MailFile {
    /// The bytes read, and the size of the mail.
    pub fn bytes_and_size(&self) -> (&[u8], usize) {
        match self {
            MailFile::Whole(bytes) => (bytes, bytes.len()),
            MailFile::Head { head, size } => (head, usize::try_from(*size).unwrap_or(usize::MAX)),
        }
    }
}

/// Reads a mail file of at most `max` bytes whole; of a larger one (its size read from the
/// file's metadata first, or found while reading, were it still growing) only the headers,
/// at most [`HEAD_BYTES`]. Nothing over `max.max(HEAD_BYTES)` bytes is ever read.
pub fn read_bounded(path: &Path, max: usize) -> std::io::Result<MailFile> {
    let mut file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    if size <= max as u64 {
        let mut bytes = Vec::with_capacity(size as usize);
        (&mut file).take(max as u64 + 1).read_to_end(&mut bytes)?;
        if bytes.len() <= max {
            return Ok(MailFile::Whole(bytes));
        }
        bytes.truncate(HEAD_BYTES);
        return Ok(head_of(bytes, size.max(max as u64 + 1)));
    }
    let mut head = Vec::with_capacity(HEAD_BYTES);
    file.take(HEAD_BYTES as u64).read_to_end(&mut head)?;
    Ok(head_of(head, size))
}

/// The header block of a mail's first bytes (all of them if no blank line ends it there).
fn head_of(mut bytes: Vec<u8>, size: u64) -> MailFile {
    let end = [&b"\r\n\r\n"[..], b"\n\n"]
        .iter()
        .filter_map(|blank| {
            bytes
                .windows(blank.len())
                .position(|w| w == *blank)
                .map(|at| at + blank.len())
        })
        .min();
    if let Some(end) = end {
        bytes.truncate(end);
    }
    MailFile::Head { head: bytes, size }
}

/// The waiting mails (with their sizes) cut into batches handled together: each holds at
/// most `files` mails and `bytes` bytes (a mail over `max` counts as the [`HEAD_BYTES`]
/// read of it), and at least one mail whatever its size.
pub fn batches(sizes: &[u64], files: usize, bytes: u64, max: u64) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut held = 0u64;
    for (i, &size) in sizes.iter().enumerate() {
        let cost = if size > max { HEAD_BYTES as u64 } else { size };
        if i > start && (i - start >= files || held + cost > bytes) {
            out.push(start..i);
            start = i;
            held = 0;
        }
        held += cost;
    }
    if start < sizes.len() {
        out.push(start..sizes.len());
    }
    out
}

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

    /// How many entries `new/` holds (0 when it cannot be read: the reader reports that).
    /// Cheaper than [`Maildir::waiting`]: nothing is collected or sorted.
    pub fn waiting_count(&self) -> usize {
        std::fs::read_dir(self.root.join("new")).map_or(0, |entries| entries.count())
    }

    /// The files waiting in `new/`, oldest name first, with their sizes (from the
    /// directory, nothing read).
    pub fn waiting_sized(&self) -> std::io::Result<Vec<(PathBuf, u64)>> {
        let mut files: Vec<(PathBuf, u64)> = std::fs::read_dir(self.root.join("new"))?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let meta = e.metadata().ok().filter(|m| m.is_file())?;
                Some((e.path(), meta.len()))
            })
            .collect();
        files.sort();
        Ok(files)
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

    /// "a 50 MB mail is read whole (2.4 s, 290 MB) before being refused as too large"
    /// (issue 24): of a mail over the limit only its headers are read.
    #[test]
    fn a_mail_over_the_limit_is_read_no_further_than_its_headers() {
        let dir = scratch("bounded");
        let m = Maildir::open(&dir).unwrap();
        let head = "From: ann@example.org\r\nSubject: big\r\n\r\n";
        let big = format!("{head}{}", "HELP\r\n".repeat(200_000));
        let path = m.deliver(1, big.as_bytes()).unwrap();
        assert_eq!(
            read_bounded(&path, 256 * 1024).unwrap(),
            MailFile::Head {
                head: head.as_bytes().to_vec(),
                size: big.len() as u64
            }
        );
        assert_eq!(
            read_bounded(&path, big.len()).unwrap(),
            MailFile::Whole(big.clone().into_bytes())
        );
        // A terabyte (sparse: no disk used) is answered from its first 64 KiB.
        let huge = dir.join("new").join("huge");
        let file = std::fs::File::create(&huge).unwrap();
        file.set_len(1 << 40).unwrap();
        let got = read_bounded(&huge, 256 * 1024).unwrap();
        assert_eq!(got.bytes_and_size(), (&[0u8; HEAD_BYTES][..], 1 << 40));
        let sizes: Vec<u64> = m.waiting_sized().unwrap().iter().map(|f| f.1).collect();
        assert_eq!(sizes.len(), 2);
        assert!(sizes.contains(&(1 << 40)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_batch_holds_at_most_so_many_mails_and_bytes() {
        let k = 1024;
        // Files of 100 KiB under a limit of 256 KiB, in batches of at most 3 files and 250 KiB.
        let sizes = [100 * k; 7];
        assert_eq!(
            batches(&sizes, 3, 250 * k, 256 * k),
            [0..2, 2..4, 4..6, 6..7]
        );
        assert_eq!(batches(&sizes, 3, 10_000 * k, 256 * k), [0..3, 3..6, 6..7]);
        // One mail larger than a batch is a batch of its own; one over the limit counts
        // the head read of it.
        assert_eq!(
            batches(&[10, 400 * k, 10], 100, 300 * k, 500 * k),
            [0..1, 1..2, 2..3]
        );
        let all = batches(&[10, 1 << 40, 10], 100, 300 * k, 256 * k);
        assert_eq!((all.len(), all.first()), (1, Some(&(0..3))));
        assert!(batches(&[], 100, 300 * k, 256 * k).is_empty());
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
