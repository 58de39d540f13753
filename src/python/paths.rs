//! Paths given back to Python (the files `save_pretrained` wrote,
//! `name_or_path`, an OSError's `filename`) as the str Python itself would
//! give for them: `os.fsdecode` of the OS's bytes. On POSIX that is the
//! filesystem encoding with `surrogateescape`, so a name that is not UTF-8
//! (`b"caf\xe9"`) comes back as `"caf\udce9"`, which `open` and
//! `os.path.exists` take back to the very same bytes; a lossy display
//! (`"caf\u{fffd}"`) would name another file. The inverse of the decoding
//! `args::path` does.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyString;

/// `path` as Python's str for it: `os.fsdecode` of its bytes.
pub fn path_str<'py>(py: Python<'py>, path: &Path) -> PyResult<Bound<'py, PyString>> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        // Not pyo3's own conversion of an OsStr, which takes valid UTF-8 as
        // it is: os.fsdecode decodes with the filesystem encoding, which is
        // not UTF-8 under every locale.
        // SAFETY: the GIL is held (`py`); `bytes` are that many bytes; the
        // call gives a new reference or NULL with an error set.
        unsafe {
            let ptr = pyo3::ffi::PyUnicode_DecodeFSDefaultAndSize(bytes.as_ptr().cast(), bytes.len() as _);
            Ok(Bound::from_owned_ptr_or_err(py, ptr)?.cast_into_unchecked())
        }
    }
    #[cfg(not(unix))]
    {
        // Windows: the path's UTF-16, as it is (lone surrogates too).
        let s: Result<_, std::convert::Infallible> = path.as_os_str().into_pyobject(py);
        Ok(s.unwrap_or_else(|never| match never {}))
    }
}

/// A path that converts to Python as [`path_str`]: a return value
/// (`Vec<FsPath>` is a list of str) or an exception's argument, made
/// without the GIL and converted when Python needs it.
pub struct FsPath(pub PathBuf);

impl<'py> IntoPyObject<'py> for FsPath {
    type Target = PyString;
    type Output = Bound<'py, PyString>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        path_str(py, &self.0)
    }
}
