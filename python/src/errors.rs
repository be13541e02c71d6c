//! The Python exceptions of the package, all subclasses of `bones.BonesError`
//! (itself a `ValueError`), and the conversions of the Rust errors into them.
//! Nothing in the bindings panics on bad input: every Rust error comes back as
//! one of these, with the Rust message.

use bones_agents::SpecError as RustSpecError;
use bones_env::registry::GameError as RustGameError;
use bones_env::{EnvError, VecEnvError};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

create_exception!(bones, BonesError, PyValueError, "Base class of the errors raised by bones (a ValueError).");
create_exception!(
    bones,
    IllegalActionError,
    BonesError,
    "An action that is not legal now. Attributes: `action` (the id given), `action_name` \
     (its name, `?` when out of range), `legal` (the legal action names) and `legal_ids`."
);
create_exception!(bones, GameError, BonesError, "An unknown game, bad rules or a bad player count.");
create_exception!(bones, SpecError, BonesError, "A bad agent spec, or one that does not play the game.");
create_exception!(bones, RecordError, BonesError, "A game record that cannot be replayed; `error` holds the details.");
create_exception!(bones, RestoreError, BonesError, "Saved bytes that cannot be restored.");
create_exception!(bones, EpisodeOverError, BonesError, "`step` after the episode ended, before `reset`.");

/// Registers the exception classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("BonesError", py.get_type::<BonesError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("GameError", py.get_type::<GameError>())?;
    m.add("SpecError", py.get_type::<SpecError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("RestoreError", py.get_type::<RestoreError>())?;
    m.add("EpisodeOverError", py.get_type::<EpisodeOverError>())?;
    Ok(())
}

/// An `IllegalActionError` with its attributes.
pub fn illegal(py: Python<'_>, message: String, action: i64, name: &str, legal: &[(usize, &str)]) -> PyErr {
    let err = IllegalActionError::new_err(message);
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("action", action)?;
        value.setattr("action_name", name)?;
        value.setattr("legal", PyList::new(py, legal.iter().map(|(_, n)| *n))?)?;
        value.setattr("legal_ids", PyList::new(py, legal.iter().map(|(a, _)| *a))?)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A game error as `bones.GameError`.
pub fn game_error(e: RustGameError) -> PyErr {
    GameError::new_err(e.to_string())
}

/// A spec error as `bones.SpecError`.
pub fn spec_error(e: RustSpecError) -> PyErr {
    SpecError::new_err(e.to_string())
}

/// An env error other than an illegal action (those are built by the caller,
/// which knows the legal ids).
pub fn env_error(e: EnvError) -> PyErr {
    match e {
        EnvError::EpisodeOver => EpisodeOverError::new_err(e.to_string()),
        EnvError::Restore(_) => RestoreError::new_err(e.to_string()),
        EnvError::Illegal { .. } => IllegalActionError::new_err(e.to_string()),
    }
}

/// A vector-step error.
pub fn vec_error(e: VecEnvError) -> PyErr {
    match e {
        VecEnvError::Illegal { .. } => IllegalActionError::new_err(e.to_string()),
        VecEnvError::WrongLength { .. } => BonesError::new_err(e.to_string()),
    }
}
