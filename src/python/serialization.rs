//! `PyTokenizer.save`, `load`, `save_vocab`, `to_json`, `from_json` and
//! pickling: the tokenizer file (see the core's `tokenizer::serialization`).

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::args;
use super::errors::{guard, reading_files};
use super::tokenizer::PyTokenizer;
use crate::tokenizer::Tokenizer;

impl PyTokenizer {
    /// A tokenizer read from a file: the call pads and truncates on the
    /// side (`direction`) of the file's `padding` and `truncation` sections,
    /// else on the right, as transformers takes them from a tokenizer file.
    fn loaded(tokenizer: Tokenizer) -> Self {
        let sides = (tokenizer.padding().map(|p| p.side), tokenizer.truncation().map(|t| t.side));
        let loaded = Self::wrap(tokenizer);
        loaded.change(|call| {
            call.padding_side = sides.0.unwrap_or(call.padding_side);
            call.truncation_side = sides.1.unwrap_or(call.truncation_side);
        });
        loaded
    }
}

#[pymethods]
impl PyTokenizer {
    /// Writes the tokenizer as a Hugging Face `tokenizer.json`, atomically
    /// (our merges go under the extra key `fast_wordpiece`); indented
    /// unless `pretty=False`, as Hugging Face's `save`.
    #[pyo3(signature = (path, pretty = true))]
    fn save(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::named::pretty)] pretty: bool,
    ) -> PyResult<()> {
        let path = args::path(path, "path")?;
        py.detach(|| guard(|| self.inner().save_hf_as(&path, pretty)))
    }

    /// Reads a Hugging Face `tokenizer.json` or a file in our own format;
    /// `padding_side` and `truncation_side` are the `direction` of its
    /// `padding` and `truncation` sections, else `"right"`.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        reading_files(py, |stop| Tokenizer::load_with_stop(&path, stop)).map(Self::loaded)
    }

    /// `from_file`, the older name.
    #[staticmethod]
    fn load(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::from_file(py, path)
    }

    /// The Hugging Face `tokenizer.json` that `save` writes, as a str: on
    /// one line unless `pretty=True`, as Hugging Face's `to_str`.
    #[pyo3(signature = (pretty = false))]
    fn to_str<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::named::pretty)] pretty: bool,
    ) -> PyResult<Bound<'py, PyString>> {
        super::ints::py_str(py, &guard(|| self.inner().to_hf_json_as(pretty))?)
    }

    /// A tokenizer from the content of a `tokenizer.json` (either format).
    #[staticmethod]
    fn from_str(json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let json = args::text(json, &|| "json".into())?;
        guard(|| Tokenizer::from_any_json(&json)).map(Self::loaded)
    }

    /// Writes the vocabulary as a BERT `vocab.txt`, atomically. The file
    /// holds the tokens only: a `continuing_subword_prefix` other than
    /// `"##"` is read back by `from_vocab_file(path,
    /// continuing_subword_prefix=...)`.
    fn save_vocab(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = args::path(path, "path")?;
        py.detach(|| guard(|| self.inner().save_vocab(&path)))
    }

    /// The tokenizer in our own format (every option, any pre-tokenizer), as a str.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        super::ints::py_str(py, &self.inner().to_json())
    }

    /// A tokenizer from the content of a tokenizer file (either format).
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let json = args::text(json, &|| "json".into())?;
        guard(|| Tokenizer::from_any_json(&json)).map(Self::loaded)
    }

    /// Pickles as the tokenizer file and the settings a caller may change
    /// (`model_max_length`, `padding_side`, `truncation_side`,
    /// `clean_up_tokenization_spaces`, the bos, eos, mask and extra special
    /// tokens, `model_input_names`, `name_or_path`, `word_cache`).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String,), Bound<'py, pyo3::types::PyDict>)> {
        let py = slf.py();
        let state = pyo3::types::PyDict::new(py);
        for key in [
            "model_max_length",
            "padding_side",
            "truncation_side",
            "clean_up_tokenization_spaces",
            "bos_token",
            "eos_token",
            "mask_token",
            "extra_special_tokens",
            "model_input_names",
            "name_or_path",
            "word_cache",
        ] {
            state.set_item(key, slf.getattr(key)?)?;
        }
        Ok((py.get_type::<Self>().getattr("from_json")?, (slf.get().inner().to_json(),), state))
    }
}
