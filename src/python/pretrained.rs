//! `PyTokenizer.from_pretrained` and `save_pretrained`: local model
//! directories (see the core's `tokenizer::pretrained`).

use pyo3::prelude::*;

use super::args;
use super::errors::guard;
use super::tokenizer::PyTokenizer;
use crate::tokenizer::{pretrained, Tokenizer};

#[pymethods]
impl PyTokenizer {
    /// A tokenizer from a local model directory: its `tokenizer.json`, or its
    /// `vocab.txt` with `tokenizer_config.json` (and `special_tokens_map.json`);
    /// `model_max_length` from `tokenizer_config.json`.
    /// Never downloads: a name that is not a directory is a FileNotFoundError.
    #[staticmethod]
    fn from_pretrained(py: Python<'_>, directory: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dir = args::path(directory, "directory")?;
        let (tokenizer, max_length) =
            py.detach(|| guard(|| Ok((Tokenizer::from_pretrained(&dir)?, pretrained::model_max_length(&dir)?))))?;
        let out = Self::wrap(tokenizer);
        out.call.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).model_max_length = max_length;
        Ok(out)
    }

    /// Writes `tokenizer.json`, `vocab.txt`, `tokenizer_config.json` and
    /// `special_tokens_map.json` into `directory` (created if needed), for
    /// `transformers.AutoTokenizer.from_pretrained` (with `model_max_length`
    /// when set); returns their paths.
    fn save_pretrained(&self, py: Python<'_>, directory: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let dir = args::path(directory, "directory")?;
        let max_length = self.call.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).model_max_length;
        let paths = py.detach(|| guard(|| self.inner().save_pretrained(&dir, max_length)))?;
        Ok(paths.iter().map(|p| p.display().to_string()).collect())
    }
}
