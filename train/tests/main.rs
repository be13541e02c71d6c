//! bones-train from outside: whole (tiny) training runs, the oracle critic's
//! input, export of a trained run, and the trainer on a toy game. One test
//! binary, a module per subject.

mod actor_learner;
mod evaluation;
mod export;
mod oracle;
mod remote;
mod resume;
mod smoke;
mod toy_game;
