//! herald: a play-by-email Diplomacy judge.
//!
//! # Layout
//! - [`game`]: the rules — maps, variants, orders and adjudication; pure and synchronous.
//! - [`catalog`]: the variants a judge can play: built in, or map files in a directory.
//! - [`config`]: `config/herald.toml`, every key optional.
//! - [`judge`]: the mail command language, game life, deadlines, press, replies and results.
//! - [`envelope`]: the letter read and the mail to send, shared by the judge and the edges.
//! - [`mail`]: incoming mail decoded into letters, Maildirs, outgoing mail.
//! - [`service`]: the judge on its store and mailboxes: ingest, tick, deliver.
//! - [`failpoint`]: crash points for the crash tests (`HERALD_FAILPOINT`).
//! - [`daemon`]: the loop that runs the service until told to stop.
//! - [`descriptors`]: the limit on open files, raised at start; the web's cap is kept under it.
//! - [`store`]: SQLite: games, handled mails, the outbox, the Master action log.
//! - [`picture`]: pictures of the board, SVG and PNG.
//! - [`web`]: the web pages the daemon serves (`[web]`): games, boards, history, press,
//!   and a signed-in page that takes the mail language.
//! - [`cases`]: the adjudication case runner (`herald datc`), reading jDip's DATC format.

pub mod cases;
pub mod catalog;
pub mod config;
pub mod daemon;
pub mod descriptors;
pub mod envelope;
pub mod failpoint;
pub mod game;
pub mod judge;
pub mod mail;
pub mod markup;
pub mod picture;
pub mod service;
pub mod store;
pub mod web;
