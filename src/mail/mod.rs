//! The edges where mail comes in and goes out: MIME decoding into a plain [`Letter`], the
//! Maildir inbox and the IMAP inbox, outgoing mail written as files or sent by SMTP.

pub mod authres;
pub mod html;
pub mod imap;
pub mod letter;
pub mod maildir;
pub mod outgoing;
mod page;
pub mod security;
pub mod smtp;

pub use letter::{read_letter, Letter};
pub use outgoing::Outgoing;
