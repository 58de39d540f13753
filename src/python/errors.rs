//! Core errors become specific Python exceptions, and a Rust panic becomes a
//! RuntimeError instead of reaching Python. [`Signals`] carries what a
//! signal handler raised through core work that it stopped.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyKeyboardInterrupt, PyMemoryError, PyNotADirectoryError, PyOSError,
    PyPermissionError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;

use super::paths::FsPath;
use crate::error::Error;

/// The Python exception for a core error.
pub fn to_py(err: Error) -> PyErr {
    in_context(err, String::new())
}

/// `to_py`, with `context` before the message: the batch input an error
/// came from (`inputs[3]: ...`).
fn in_context(err: Error, context: String) -> PyErr {
    match err {
        Error::Input { index, source } => in_context(*source, format!("{context}inputs[{index}]: ")),
        Error::MissingSpecialTokens { .. } => {
            PyValueError::new_err(format!("{context}{err} (pass add_special_tokens=False)"))
        }
        Error::InvalidArgument(_) | Error::InvalidFile { .. } => PyValueError::new_err(format!("{context}{err}")),
        // Reading a file that does not fit (`/dev/zero`, a file larger than
        // memory): the room for its bytes could not be reserved, an error
        // of Rust's own (no errno), not one the OS gave. A MemoryError, as
        // for every size that cannot be reserved; the OS's ENOMEM stays an
        // OSError, as Python's own.
        Error::Io { ref path, ref source }
            if source.kind() == std::io::ErrorKind::OutOfMemory && source.raw_os_error().is_none() =>
        {
            in_context(Error::memory(format_args!("{}: reading it", path.display())), context)
        }
        Error::Io { ref path, ref source } => {
            // An error made here (not by the OS) gets the errno of its kind,
            // as Python's own: ENOENT, EACCES, EISDIR, ENOTDIR (the same
            // numbers on Linux, macOS and Windows' C runtime).
            let errno = source.raw_os_error().unwrap_or(match source.kind() {
                std::io::ErrorKind::NotFound => 2,
                std::io::ErrorKind::PermissionDenied => 13,
                std::io::ErrorKind::IsADirectory => 21,
                std::io::ErrorKind::NotADirectory => 20,
                _ => 0,
            });
            // The OS's words as Python's `strerror` gives them (Rust adds
            // " (os error N)"); `filename` is the str Python gives for the path.
            let words = source.to_string();
            let words = match source.raw_os_error() {
                Some(code) => words.strip_suffix(&format!(" (os error {code})")).unwrap_or(&words),
                None => &words,
            };
            let args = (errno, format!("{context}{words}"), FsPath(path.clone()));
            match source.kind() {
                std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
                std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
                std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
                std::io::ErrorKind::NotADirectory => PyNotADirectoryError::new_err(args),
                // OSError(errno, ...) keeps `errno` (ENOSPC, EROFS, ...) and
                // picks the subclass Python uses for it.
                _ if source.raw_os_error().is_some() => PyOSError::new_err(args),
                _ => PyOSError::new_err(format!("{context}{err}")),
            }
        }
        Error::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
        Error::Memory(_) => {
            crate::memory::reported();
            PyMemoryError::new_err(format!("{context}{err}"))
        }
    }
}

/// Runs core work, turning its errors and any panic into Python exceptions.
pub fn guard<T>(work: impl FnOnce() -> crate::error::Result<T>) -> Result<T, PyErr> {
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

/// The interrupt hook of long core work (training) run with the GIL
/// released: [`Signals::stop`] asks Python to run its signal handlers, and
/// keeps the exception one raised (KeyboardInterrupt for Ctrl-C, or whatever
/// an `alarm` or SIGTERM handler raises) so that the caller gets that very
/// exception, not the core's `Error::Interrupted`. The core sees only a flag.
#[derive(Default)]
pub struct Signals {
    raised: Mutex<Option<PyErr>>,
}

impl Signals {
    /// True once a signal handler has raised: the work must stop.
    pub fn stop(&self) -> bool {
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => false,
            Err(e) => {
                *self.raised.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                true
            }
        }
    }

    /// `result`, with the handler's exception in place of the error it
    /// caused (the work stopped because the handler raised).
    pub fn result<T>(self, result: PyResult<T>) -> PyResult<T> {
        let raised = self.raised.into_inner().unwrap_or_else(|p| p.into_inner());
        match (result, raised) {
            (Err(_), Some(e)) => Err(e),
            (result, _) => result,
        }
    }
}

/// Core work that reads files (a tokenizer's own files: `from_file`,
/// `load`, `from_pretrained`, `from_vocab_file`), run with the GIL released
/// and given [`Signals::stop`] as the stop hook of its reads: while it waits
/// for a FIFO's writer or data, a signal handler's exception (Ctrl-C's
/// KeyboardInterrupt, an `alarm` deadline's) stops it and comes back
/// unchanged, as it does from Python's `open`.
pub fn reading_files<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&dyn Fn() -> bool) -> crate::error::Result<T> + Send,
) -> PyResult<T> {
    let signals = Signals::default();
    let result = py.detach(|| guard(|| work(&|| signals.stop())));
    signals.result(result)
}
