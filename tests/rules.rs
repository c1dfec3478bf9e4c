//! The rules without mail: maps, variants, the DATC and the adjudicator's reasons, one binary.
//!
//! Issue 26 ("cheap tests"): a few test binaries instead of one per file; each file of
//! tests/ below is a module of this binary, and tests/support/ is declared here once.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

mod classical_map;
mod datc;
mod deluge_map;
mod maps_dir;
mod reasons;
mod standard_map;
mod variant_files;
mod variant_fuzz;
mod world1880_map;
