//! bones-cli: the `bones` program over the library crates, and the front ends
//! it serves.
//!
//! - [`commands`]: the subcommands' arguments and what each runs.
//! - [`web`]: the browser front end of `bones web` (an HTTP server, the page and its JSON API).
//! - [`terminal`]: the plain-text screens of `bones play`.
//! - [`plot`]: pictures as SVG (the Elo ladder of `bones eval --ladder --plot`).
//!
//! The bot protocol (`bones serve`) is `bones_policy::protocol`, the review of
//! finished deals `bones_agents::review`: the commands here parse and print.

#![warn(missing_docs)]

pub mod commands;
pub mod plot;
pub mod terminal;
pub mod web;
