//! `PyTokenizer.from_pretrained` and `save_pretrained`: local model
//! directories (see the core's `tokenizer::pretrained`).

use pyo3::prelude::*;

use super::args;
use super::errors::guard;
use super::tokenizer::PyTokenizer;
use crate::tokenizer::Tokenizer;

#[pymethods]
impl PyTokenizer {
    /// A tokenizer from a local model directory: its `tokenizer.json`, or its
    /// `vocab.txt` with `tokenizer_config.json` (and `special_tokens_map.json`).
    /// Never downloads: a name that is not a directory is a FileNotFoundError.
    #[staticmethod]
    fn from_pretrained(py: Python<'_>, directory: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dir = args::path(directory, "directory")?;
        py.detach(|| guard(|| Tokenizer::from_pretrained(&dir))).map(Self::wrap)
    }

    /// Writes `tokenizer.json`, `vocab.txt`, `tokenizer_config.json` and
    /// `special_tokens_map.json` into `directory` (created if needed), for
    /// `transformers.AutoTokenizer.from_pretrained`; returns their paths.
    fn save_pretrained(&self, py: Python<'_>, directory: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let dir = args::path(directory, "directory")?;
        let paths = py.detach(|| guard(|| self.inner.save_pretrained(&dir)))?;
        Ok(paths.iter().map(|p| p.display().to_string()).collect())
    }
}
