//! `gjk._gjk`: the native part of the `gjk` Python package (PyO3).
//!
//! * [`spec`]: shapes and poses as plain numbers (what pickling stores);
//! * [`engine`]: every call into the `gjk` library, and the status vocabulary of `gjk query`;
//! * [`api`]: the Python classes (`Shape`, `Pose`, results) and single queries;
//! * [`batch`]: numpy batches over all cores, the GIL released.
//!
//! The Python side (`python/gjk/__init__.py`) adds the shape constructors by name, pose arrays
//! in their several forms and the batch wrappers.

mod api;
mod batch;
mod engine;
mod spec;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _gjk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    api::register(m)?;
    batch::register(m)?;
    Ok(())
}
