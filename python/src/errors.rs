//! The Python exceptions of the package, all under `bones.BonesError`.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(bones, BonesError, PyValueError, "Base class of the errors raised by bones.");

/// Registers the exception classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BonesError", m.py().get_type::<BonesError>())?;
    Ok(())
}
