//! herald as its keeper meets it: the command line, the binary on a failing database, the
//! README and the help held to the code, and the layering of the sources, one binary.
//!
//! Issue 26 ("cheap tests"): a few test binaries instead of one per file; each file of
//! tests/ below is a module of this binary, and tests/support/ is declared here once.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

mod cli;
mod database_fault;
mod help_truth;
mod layering;
mod mail_edges;
mod readme;
