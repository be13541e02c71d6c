//! The extension module `bones._bones` behind the Python package `bones`: thin
//! bindings over bones-env, bones-agents and bones-train. Every game is reached
//! through the registry (`bones_env::registry::AnyGame`); the Python package
//! (`python/bones/`) builds the PettingZoo, Gymnasium and vector APIs on it.
//!
//! Each Rust file registers its own classes and functions (`register`), one
//! line each in the module function `_bones` below.

#![warn(missing_docs)]

use pyo3::prelude::*;

pub mod agent;
pub mod errors;
pub mod evaluate;
pub mod game;
pub mod position;
pub mod seat;
pub mod table;
pub mod train;
pub mod vec;

/// The module `bones._bones`.
#[pymodule]
fn _bones(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    game::register(m)?;
    table::register(m)?;
    vec::register(m)?;
    agent::register(m)?;
    evaluate::register(m)?;
    train::register(m)?;
    Ok(())
}
