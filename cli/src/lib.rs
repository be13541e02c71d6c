//! bones-cli: the `bones` program, a thin layer over the library crates (the
//! shape of ripgrep's binary): each command parses its arguments, calls the
//! library that does the work and prints what it returns.
//!
//! - [`commands`]: the subcommands' arguments and what each runs.
//! - [`terminal`]: the plain-text screens of `bones play`.
//! - [`plot`]: pictures as SVG (the Elo ladder of `bones eval --ladder --plot`).
//!
//! The work is in the libraries: the environments (`bones_env`), the agents,
//! the arena and the review of finished deals (`bones_agents`), the trainer
//! (`bones_train`), trained policies, export and the bot protocol of `bones
//! serve` (`bones_policy`, its `protocol`), and the server and page of `bones
//! web` (`bones_web`).

#![warn(missing_docs)]

pub mod commands;
pub mod plot;
pub mod terminal;
