//! herald against mail servers: small fake SMTP and IMAP servers on loopback
//! (tests/support/smtp.rs and the files here), and the real Dovecot and OpenSMTPD that
//! scripts/test starts (tests/support/stack.rs), one binary.
//!
//! Issue 26 ("cheap tests"): a few test binaries instead of one per file; each file of
//! tests/ below is a module of this binary, and tests/support/ is declared here once.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

mod attachments;
mod imap_check;
mod mail_crash;
mod mail_outage;
mod mail_stack;
mod mail_stack_twice;
mod mail_tls;
mod postgres;
mod servers_stall;
mod several_daemons;
mod smtp_refused;
mod smtp_sending;
