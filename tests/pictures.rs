//! Board pictures: layout, shapes, colours, and the pictures herald mails, one binary.
//!
//! Issue 26 ("cheap tests"): a few test binaries instead of one per file; each file of
//! tests/ below is a module of this binary, and tests/support/ is declared here once.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

mod picture;
mod picture_colours;
mod picture_floods;
mod picture_mail;
mod picture_regions;
mod picture_routes;
mod picture_shapes;
mod picture_sizes;
