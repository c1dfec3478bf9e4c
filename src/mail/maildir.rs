//! A Maildir: new mail is read from `new/` and moved to `cur/` once handled; outgoing mail
//! is written to `tmp/` and renamed into `new/`, so a reader never sees half a file.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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

    /// Writes a mail into `new/` and returns its path.
    pub fn deliver(&self, stamp: i64, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!("{stamp}.{}_{n}.herald", std::process::id());
        let tmp = self.root.join("tmp").join(&name);
        std::fs::write(&tmp, bytes)?;
        let dest = self.root.join("new").join(&name);
        std::fs::rename(&tmp, &dest)?;
        Ok(dest)
    }
}
