//! The integration tests of bones-env, in one binary (one link instead of one
//! per file): `cargo test -p bones-env --test main [FILTER]`.
//!
//! - `suite`: the conformance suite (`bones_env::testing`) over every game of
//!   the registry, under several rules, with each game's pinned digest, and
//!   against games broken on purpose;
//! - `texas42`, `doubles`: each game's rule scenarios and the properties that
//!   are its own;
//! - `records`: the shared conformance records, bad input, typed records;
//! - `golden`, `observation_digest`: today's behaviour pinned;
//! - `env_api`: `Env`/`VecEnv` errors, truncation, saves;
//! - `docs`: docs/interfaces/encodings.md holds the code's observation tables.

mod docs;
mod doubles;
mod env_api;
mod golden;
mod observation_digest;
mod records;
mod suite;
mod texas42;
