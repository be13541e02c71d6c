//! bones-cli: the `bones` program over the library crates, and the front ends
//! it serves.
//!
//! - [`commands`]: the subcommands' arguments and what each runs.
//! - [`protocol`]: the JSON-lines bot protocol of `bones serve` (request in, reply out).
//! - [`web`]: the browser front end of `bones web` (an HTTP server, the page and its JSON API).
//! - [`terminal`]: the plain-text screens of `bones play`.
//! - [`plot`]: pictures as SVG (the Elo ladder of `bones eval --ladder --plot`).
//! - [`review`]: the review of finished hands (solver and network), for the page and `bones replay --review`.

#![warn(missing_docs)]

pub mod commands;
pub mod plot;
pub mod protocol;
pub mod terminal;
pub mod web;
