//! The edges where mail comes in and goes out: MIME decoding into a plain [`Letter`], the
//! Maildir inbox, and outgoing mail written as files.

pub mod letter;
pub mod maildir;
pub mod outgoing;

pub use letter::{read_letter, Letter};
pub use outgoing::Outgoing;
