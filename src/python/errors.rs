//! Core errors become specific Python exceptions, and a Rust panic becomes a
//! RuntimeError instead of reaching Python.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyKeyboardInterrupt, PyOSError, PyPermissionError, PyRuntimeError,
    PyValueError,
};
use pyo3::PyErr;

use crate::error::Error;

pub fn to_py(err: Error) -> PyErr {
    match err {
        Error::InvalidArgument(_) | Error::InvalidFile { .. } => PyValueError::new_err(err.to_string()),
        Error::Io { ref path, ref source } => {
            let args = (source.raw_os_error().unwrap_or(0), source.to_string(), path.display().to_string());
            match source.kind() {
                std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
                std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
                std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
                _ => PyOSError::new_err(err.to_string()),
            }
        }
        Error::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
    }
}

/// Runs core work, turning its errors and any panic into Python exceptions.
pub fn guard<T>(work: impl FnOnce() -> crate::Result<T>) -> Result<T, PyErr> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(result) => result.map_err(to_py),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!("internal error in fast_wordpiece (please report): {what}")))
        }
    }
}
