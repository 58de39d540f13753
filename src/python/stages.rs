//! The first two stages of a tokenizer's pipeline as objects of their own
//! (`tokenizer.normalizer`, `tokenizer.pre_tokenizer`), with Hugging Face
//! `tokenizers`' `normalize_str` and `pre_tokenize_str`.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::args;
use super::errors::guard;
use super::tokenizer::PyTokenizer;
use crate::pipeline::normalizer::{Normalized, Normalizer};
use crate::pipeline::pre_tokenizer::PreTokenizer;

/// Python's spelling of a bool.
fn shown(on: bool) -> &'static str {
    if on {
        "True"
    } else {
        "False"
    }
}

/// A tokenizer's normalizer (stage 1, Hugging Face's `BertNormalizer`):
/// `normalize_str(text)` gives the text the pre-tokenizer splits. Its
/// switches are read-only; the tokenizer's options set them.
#[pyclass(frozen, eq, name = "Normalizer", module = "fast_wordpiece")]
#[derive(PartialEq)]
pub struct PyNormalizer {
    inner: Normalizer,
}

#[pymethods]
impl PyNormalizer {
    /// The normalized `sequence` (a str), as Hugging Face's
    /// `normalize_str`.
    fn normalize_str(&self, py: Python<'_>, sequence: &Bound<'_, PyAny>) -> PyResult<String> {
        let held = args::text(sequence, &|| "sequence".into())?;
        let text: &str = &held;
        let normalizer = self.inner;
        py.detach(|| {
            guard(|| {
                let mut out = Normalized::default();
                normalizer.try_normalize_into(text, &mut out)?;
                Ok(out.text)
            })
        })
    }

    /// Drops NUL, U+FFFD, control and format characters, and makes
    /// whitespace a space.
    #[getter]
    fn clean_text(&self) -> bool {
        self.inner.clean_text
    }

    /// Puts spaces around CJK ideographs.
    #[getter]
    fn handle_chinese_chars(&self) -> bool {
        self.inner.handle_chinese_chars
    }

    /// Strips accents (None: when it lowercases).
    #[getter]
    fn strip_accents(&self) -> Option<bool> {
        self.inner.strip_accents
    }

    /// Lowercases every character.
    #[getter]
    fn lowercase(&self) -> bool {
        self.inner.lowercase
    }

    /// Accent stripping drops every combining mark, as Hugging Face's `NFD`
    /// and `StripAccents` do, not only the non-spacing ones.
    #[getter]
    fn strip_all_marks(&self) -> bool {
        self.inner.strip_all_marks
    }

    fn __repr__(&self) -> String {
        let n = &self.inner;
        format!(
            "Normalizer(clean_text={}, handle_chinese_chars={}, strip_accents={}, lowercase={}, strip_all_marks={})",
            shown(n.clean_text),
            shown(n.handle_chinese_chars),
            n.strip_accents.map_or("None", shown),
            shown(n.lowercase),
            shown(n.strip_all_marks)
        )
    }
}

/// A tokenizer's pre-tokenizer (stage 2): `pre_tokenize_str(text)` splits
/// (normalized) text into the words the model encodes. `name` is the
/// tokenizer's `pre_tokenizer` option.
#[pyclass(frozen, eq, name = "PreTokenizer", module = "fast_wordpiece")]
#[derive(PartialEq)]
pub struct PyPreTokenizer {
    inner: PreTokenizer,
}

#[pymethods]
impl PyPreTokenizer {
    /// The words of `sequence` (a str) with their character offsets in it:
    /// `[(word, (start, end)), ...]`, as Hugging Face's `pre_tokenize_str`.
    fn pre_tokenize_str<'py>(&self, py: Python<'py>, sequence: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let held = args::text(sequence, &|| "sequence".into())?;
        let text: &str = &held;
        let mut words = Vec::new();
        self.inner.split(text, |w| words.push(w));
        let items = words.iter().map(|w| {
            let word = PyString::new(py, &text[w.bytes.0..w.bytes.1]);
            let span = PyTuple::new(py, [w.chars.0, w.chars.1])?;
            PyTuple::new(py, [word.into_any(), span.into_any()])
        });
        PyList::new(py, items.collect::<PyResult<Vec<_>>>()?)
    }

    /// `"bert"`, `"whitespace"`, `"regex"` or `"wordpunct"`.
    #[getter]
    fn name(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("PreTokenizer('{}')", self.inner)
    }
}

#[pymethods]
impl PyTokenizer {
    /// The normalizer (a `Normalizer`, read-only), as Hugging Face's
    /// `Tokenizer.normalizer`.
    #[getter]
    fn normalizer(&self) -> PyNormalizer {
        PyNormalizer { inner: self.inner().options().normalizer }
    }

    /// The pre-tokenizer (a `PreTokenizer`, read-only), as Hugging Face's
    /// `Tokenizer.pre_tokenizer`.
    #[getter]
    fn pre_tokenizer(&self) -> PyPreTokenizer {
        PyPreTokenizer { inner: self.inner().options().pre_tokenizer }
    }
}
