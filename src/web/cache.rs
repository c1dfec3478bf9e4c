//! Pages and pictures rendered once for what they show. Each is keyed by what it was made
//! from — a game's stored version (a number every save of the game changes), a played
//! phase's board, the list's mark — and never by a Host header or a query the page does not
//! read, so a page is rendered once per change of its game, its ETag answers a browser that
//! has it with 304 before any game is read or decoded, and no stranger can fill the cache
//! with invented variants of one page.
//!
//! Two shelves, each a least-recently-used cache bounded by the bytes it holds: pages (and
//! feeds) on one, boards (SVG and PNG, the large ones) on the other, so that a burst of
//! boards cannot push every page out. Text answers are kept gzipped beside the plain bytes
//! for browsers that take gzip.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

/// Bytes the pages' shelf holds at most.
const PAGE_BYTES: usize = 16 << 20;

/// Bytes the boards' shelf holds at most.
const BOARD_BYTES: usize = 48 << 20;

/// Text answers shorter than this are sent as they are (gzip would save little).
const GZIP_FROM: usize = 1024;

/// A rendered body with its content type, and its gzipped bytes when worth having.
#[derive(Clone, Debug)]
pub(super) struct Rendered {
    /// The bytes.
    pub body: Arc<[u8]>,
    /// Its MIME type.
    pub content_type: &'static str,
    /// The body gzipped, for a text body of [`GZIP_FROM`] bytes or more.
    pub gzip: Option<Arc<[u8]>>,
}

impl Rendered {
    /// A body of `content_type`, gzipped beside when it is text and long enough.
    pub fn new(body: Vec<u8>, content_type: &'static str) -> Rendered {
        let text = content_type.starts_with("text/")
            || content_type.starts_with("image/svg")
            || content_type.starts_with("application/json")
            || content_type.ends_with("+xml");
        let gzip = (text && body.len() >= GZIP_FROM)
            .then(|| gzipped(&body))
            .flatten()
            .map(Arc::from);
        Rendered {
            body: body.into(),
            content_type,
            gzip,
        }
    }

    /// What it weighs in a shelf.
    fn bytes(&self) -> usize {
        self.body.len() + self.gzip.as_ref().map_or(0, |g| g.len())
    }
}

/// `body` gzipped (at the default level: a board's SVG in a few milliseconds, to a third).
fn gzipped(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    out.write_all(body).ok()?;
    out.finish().ok()
}

/// Which shelf an entry goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shelf {
    /// HTML pages and feeds.
    Pages,
    /// Board pictures.
    Boards,
}

/// One shelf: entries by key, the order they were last used in, and the bytes held.
struct Lru {
    entries: HashMap<String, (Rendered, u64)>,
    used: BTreeMap<u64, String>,
    tick: u64,
    bytes: usize,
    limit: usize,
}

impl Lru {
    fn new(limit: usize) -> Lru {
        Lru {
            entries: HashMap::new(),
            used: BTreeMap::new(),
            tick: 0,
            bytes: 0,
            limit,
        }
    }

    fn get(&mut self, key: &str) -> Option<Rendered> {
        self.tick += 1;
        let tick = self.tick;
        let (value, last) = self.entries.get_mut(key)?;
        self.used.remove(last);
        *last = tick;
        self.used.insert(tick, key.to_string());
        Some(value.clone())
    }

    fn put(&mut self, key: String, value: Rendered) {
        let weight = value.bytes() + key.len();
        if weight > self.limit / 4 {
            return;
        }
        self.remove(&key);
        while self.bytes + weight > self.limit {
            let Some((_, oldest)) = self.used.pop_first() else {
                break;
            };
            if let Some((old, _)) = self.entries.remove(&oldest) {
                self.bytes -= old.bytes() + oldest.len();
            }
        }
        self.tick += 1;
        self.used.insert(self.tick, key.clone());
        self.entries.insert(key, (value, self.tick));
        self.bytes += weight;
    }

    fn remove(&mut self, key: &str) {
        if let Some((old, last)) = self.entries.remove(key) {
            self.used.remove(&last);
            self.bytes -= old.bytes() + key.len();
        }
    }
}

/// Rendered pages and pictures by key, on two shelves.
pub(super) struct Cache {
    pages: Mutex<Lru>,
    boards: Mutex<Lru>,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache::with_limits(PAGE_BYTES, BOARD_BYTES)
    }
}

impl Cache {
    /// A cache whose shelves hold at most these many bytes.
    pub fn with_limits(pages: usize, boards: usize) -> Cache {
        Cache {
            pages: Mutex::new(Lru::new(pages)),
            boards: Mutex::new(Lru::new(boards)),
        }
    }

    fn shelf(&self, shelf: Shelf) -> &Mutex<Lru> {
        match shelf {
            Shelf::Pages => &self.pages,
            Shelf::Boards => &self.boards,
        }
    }

    /// The entry for `key`, if rendered and still kept.
    pub fn get(&self, shelf: Shelf, key: &str) -> Option<Rendered> {
        self.shelf(shelf).lock().ok()?.get(key)
    }

    /// Keeps an entry, making room by dropping the least recently used.
    pub fn put(&self, shelf: Shelf, key: String, value: Rendered) {
        if let Ok(mut lru) = self.shelf(shelf).lock() {
            lru.put(key, value);
        }
    }

    /// What `key` stands for, if kept: the key of what a game's page or board shows at a
    /// stored version (the phase's results, the position drawn), so that a page asked
    /// again at that version is found without reading the game.
    pub fn alias(&self, key: &str) -> Option<String> {
        let kept = self.get(Shelf::Pages, &format!("alias|{key}"))?;
        String::from_utf8(kept.body.to_vec()).ok()
    }

    /// Keeps what `key` stands for.
    pub fn set_alias(&self, key: &str, to: &str) {
        self.put(
            Shelf::Pages,
            format!("alias|{key}"),
            Rendered::new(to.as_bytes().to_vec(), "text/plain"),
        );
    }

    /// The bytes each shelf holds (pages, boards).
    #[cfg(test)]
    fn held(&self) -> (usize, usize) {
        let bytes = |m: &Mutex<Lru>| m.lock().map_or(0, |l| l.bytes);
        (bytes(&self.pages), bytes(&self.boards))
    }
}

/// A short digest of a position: what a board is keyed by, and the `?at=` of a played
/// phase's board address (which therefore names what it shows for good).
pub(super) fn position_digest(position: &crate::game::position::Position) -> String {
    digest(&[&serde_json::to_string(position).unwrap_or_default()])
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

#[cfg(test)]
mod tests {
    use super::*;

    fn page(n: usize) -> Rendered {
        Rendered::new(vec![b'x'; n], "application/octet-stream")
    }

    #[test]
    fn a_full_shelf_drops_the_least_recently_used_and_stays_in_its_bytes() {
        // Room for five entries of 2,000 bytes and their keys, not six.
        let cache = Cache::with_limits(10_100, 10_000);
        for k in 0..5 {
            cache.put(Shelf::Pages, format!("k{k}"), page(2_000));
        }
        // k0 read again: the oldest now is k1.
        assert!(cache.get(Shelf::Pages, "k0").is_some());
        cache.put(Shelf::Pages, "k5".into(), page(2_000));
        assert!(cache.get(Shelf::Pages, "k0").is_some());
        assert!(cache.get(Shelf::Pages, "k1").is_none());
        assert!(cache.get(Shelf::Pages, "k5").is_some());
        let (pages, boards) = cache.held();
        assert!(pages <= 10_100, "{pages}");
        assert_eq!(boards, 0);
    }

    #[test]
    fn boards_do_not_push_pages_out() {
        let cache = Cache::with_limits(10_000, 10_000);
        cache.put(Shelf::Pages, "page".into(), page(1_000));
        for k in 0..100 {
            cache.put(Shelf::Boards, format!("b{k}"), page(2_000));
        }
        assert!(cache.get(Shelf::Pages, "page").is_some());
    }

    #[test]
    fn an_entry_too_large_for_its_shelf_is_not_kept() {
        let cache = Cache::with_limits(10_000, 10_000);
        cache.put(Shelf::Pages, "small".into(), page(100));
        cache.put(Shelf::Pages, "huge".into(), page(9_000));
        assert!(cache.get(Shelf::Pages, "huge").is_none());
        assert!(cache.get(Shelf::Pages, "small").is_some());
    }

    #[test]
    fn a_key_written_again_is_weighed_once() {
        let cache = Cache::with_limits(10_000, 10_000);
        for _ in 0..10 {
            cache.put(Shelf::Pages, "same".into(), page(1_000));
        }
        assert_eq!(cache.held().0, 1_000 + "same".len());
    }

    #[test]
    fn text_is_kept_gzipped_beside_and_unpacks_to_itself() {
        use std::io::Read;
        let html = "<p>Spring 1901</p>\n".repeat(200).into_bytes();
        let r = Rendered::new(html.clone(), "text/html; charset=utf-8");
        let gz = r.gzip.expect("gzipped");
        assert!(gz.len() < html.len() / 4, "{} of {}", gz.len(), html.len());
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, html);
        let png = Rendered::new(vec![0; 4_000], "image/png");
        assert!(png.gzip.is_none());
    }
}
