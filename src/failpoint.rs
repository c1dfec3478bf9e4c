//! Crash points for the crash tests: with `HERALD_FAILPOINT=<name>:<n>` in its environment,
//! herald aborts (like `kill -9`: no cleanup, no flush) the n-th time it reaches the point
//! of that name. Without the variable a point costs one relaxed atomic load.
//!
//! Points: `after-fetch` (mail read from the inbox, not yet handled), `during-processing`
//! (mail judged, transaction not committed), `after-commit` (committed, not yet marked
//! handled on the server), `during-sending` (accepted by SMTP, not yet marked sent),
//! `after-writing` (written to the file outbox, not yet marked sent), `during-sweep` (due
//! games judged and written, the transaction not committed).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

static ARMED: OnceLock<Option<(String, u64)>> = OnceLock::new();
static HITS: AtomicU64 = AtomicU64::new(0);

/// Aborts the process here if this point is armed and its count is reached.
pub fn hit(name: &str) {
    let armed = ARMED.get_or_init(|| {
        let value = std::env::var("HERALD_FAILPOINT").ok()?;
        let (point, n) = value.split_once(':').unwrap_or((&value, "1"));
        Some((point.to_string(), n.parse().unwrap_or(1)))
    });
    if let Some((point, n)) = armed {
        if point == name && HITS.fetch_add(1, Ordering::Relaxed) + 1 >= *n {
            eprintln!("herald: failpoint {name} reached: aborting");
            std::process::abort();
        }
    }
}
