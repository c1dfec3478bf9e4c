//! Pages and pictures rendered once for what they show: each is keyed by the stored state
//! it was made from (a digest of the game's JSON, or of every game's for the list), so a
//! page is rendered once per change of its game (at most once per phase for a phase's
//! page), its ETag answers a browser that has it with 304, and the cache holds a bounded
//! number of entries.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

/// Entries kept at most; when full the cache starts again empty (cheap and bounded).
const MOST: usize = 256;

/// A rendered body with its content type.
#[derive(Clone, Debug)]
pub(super) struct Rendered {
    /// The bytes.
    pub body: Arc<[u8]>,
    /// Its MIME type.
    pub content_type: &'static str,
}

/// Rendered pages and pictures by key.
#[derive(Default)]
pub(super) struct Cache {
    entries: Mutex<HashMap<String, Rendered>>,
}

impl Cache {
    /// The entry for `key`, if rendered.
    pub fn get(&self, key: &str) -> Option<Rendered> {
        self.entries.lock().ok()?.get(key).cloned()
    }

    /// Keeps an entry.
    pub fn put(&self, key: String, value: Rendered) {
        if let Ok(mut map) = self.entries.lock() {
            if map.len() >= MOST {
                map.clear();
            }
            map.insert(key, value);
        }
    }
}

/// A short hex digest of some parts, for keys and ETags.
pub(super) fn digest(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
