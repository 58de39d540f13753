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
    /// `vocab.txt` with `tokenizer_config.json` (and `special_tokens_map.json`,
    /// `added_tokens.json`), with the added and special tokens the directory
    /// configures (those the vocabulary lacks get the next ids, as in
    /// transformers); `model_max_length`, `padding_side` and
    /// `truncation_side` from `tokenizer_config.json`.
    /// Never downloads: a name that is not a directory is a FileNotFoundError.
    #[staticmethod]
    fn from_pretrained(py: Python<'_>, directory: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dir = args::path(directory, "directory")?;
        let (tokenizer, settings) =
            py.detach(|| guard(|| Ok((Tokenizer::from_pretrained(&dir)?, pretrained::call_settings(&dir)?))))?;
        let out = Self::wrap(tokenizer);
        *out.call.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = settings;
        *out.name_or_path.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = dir.to_string_lossy().into_owned();
        Ok(out)
    }

    /// Writes `tokenizer.json`, `vocab.txt`, `tokenizer_config.json` and
    /// `special_tokens_map.json` into `directory` (created if needed), for
    /// `transformers.AutoTokenizer.from_pretrained` (with `model_max_length`
    /// when set, `padding_side`, `truncation_side` and the special tokens,
    /// `extra_special_tokens` among them); returns their paths.
    fn save_pretrained(&self, py: Python<'_>, directory: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let dir = args::path(directory, "directory")?;
        let settings = self.settings();
        let paths = py.detach(|| guard(|| self.inner().save_pretrained(&dir, &settings)))?;
        Ok(paths.iter().map(|p| p.display().to_string()).collect())
    }
}
