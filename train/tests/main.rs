//! bones-train from outside: whole (tiny) training runs, every file of
//! `configs/` run, the oracle critic's input, export of a trained run, and the
//! trainer on a toy game. One test binary, a module per subject.

mod actor_learner;
mod configs;
mod evaluation;
mod export;
mod oracle;
mod remote;
mod resume;
mod smoke;
mod toy_game;
