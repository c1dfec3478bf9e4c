//! The mail language through the in-process judge (tests/support's `World`): games, commands
//! and their replies, one binary.
//!
//! Issue 26 ("cheap tests"): a few test binaries instead of one per file; each file of
//! tests/ below is a module of this binary, and tests/support/ is declared here once.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

mod address_mail;
mod anonymous_mail;
mod asked_mail;
mod bounded_reply;
mod calendar_mail;
mod classical_game;
mod client_quirks;
mod deluge_game;
mod dips_game;
mod draws_mail;
mod golden;
mod grey_press;
mod growth_mail;
mod mail_game;
mod maildir_bounds;
mod outbox_bounds;
mod paged_lists;
mod portage_game;
mod reasons_mail;
mod refusals_mail;
mod reply_limit;
mod running_mail;
mod signon_limits;
mod stored_game;
mod stranger_mail;
mod telling_mail;
mod trust;
mod warnings_mail;
mod world_game;
