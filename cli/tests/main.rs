//! The `bones` program and its front ends, tested from outside: one test
//! binary, a module per front end.

mod agents;
mod bench;
mod benchmark;
mod bones_cmd;
mod cli_usage;
mod exploit;
mod models;
mod play;
mod runs;
mod serve;
mod views;
mod web_api;
mod web_deals;
mod web_hostile;
