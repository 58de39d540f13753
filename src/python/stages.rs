//! Stages of a tokenizer's pipeline as objects of their own
//! (`tokenizer.normalizer`, `tokenizer.pre_tokenizer`, `tokenizer.decoder`),
//! with Hugging Face `tokenizers`' `normalize_str`, `pre_tokenize_str` and
//! `decode`.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyType};

use pyo3::exceptions::PyTypeError;

use super::args::{self, named, type_name, Text};
use super::errors::{guard, to_py};
use super::ints;
use super::tokenizer::PyTokenizer;
use crate::error::Error;
use crate::pipeline::decoder::{self, Joining};
use crate::pipeline::normalizer::{Normalized, Normalizer};
use crate::pipeline::pre_tokenizer::PreTokenizer;
use crate::tokenizer::options::Options;

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
/// switches are read-only: a tokenizer's options set them, and
/// `Normalizer(...)` makes one on its own (the defaults are
/// bert-base-uncased's).
#[pyclass(frozen, eq, name = "Normalizer", module = "fast_wordpiece")]
#[derive(PartialEq)]
pub struct PyNormalizer {
    inner: Normalizer,
}

/// The normalizer's switches, in the order `Normalizer` takes them.
type Switches = (bool, bool, Option<bool>, bool, bool);

#[pymethods]
impl PyNormalizer {
    #[new]
    #[pyo3(signature = (clean_text=true, handle_chinese_chars=true, strip_accents=None, lowercase=true, strip_all_marks=false))]
    fn new(
        #[pyo3(from_py_with = named::clean_text)] clean_text: bool,
        #[pyo3(from_py_with = named::handle_chinese_chars)] handle_chinese_chars: bool,
        #[pyo3(from_py_with = named::strip_accents)] strip_accents: Option<bool>,
        #[pyo3(from_py_with = named::lowercase)] lowercase: bool,
        #[pyo3(from_py_with = named::strip_all_marks)] strip_all_marks: bool,
    ) -> Self {
        Self { inner: Normalizer { clean_text, handle_chinese_chars, strip_accents, lowercase, strip_all_marks } }
    }

    /// Pickling and copying keep the switches.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, Switches) {
        let n = slf.get().inner;
        (slf.get_type(), (n.clean_text, n.handle_chinese_chars, n.strip_accents, n.lowercase, n.strip_all_marks))
    }

    /// The normalized `sequence` (a str), as Hugging Face's
    /// `normalize_str`.
    fn normalize_str<'py>(&self, py: Python<'py>, sequence: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
        let held = args::text(sequence, &|| "sequence".into())?;
        let text: &str = &held;
        let normalizer = self.inner;
        let normalized = py.detach(|| {
            guard(|| {
                let mut out = Normalized::default();
                normalizer.try_normalize_into(text, &mut out)?;
                Ok(out.text)
            })
        })?;
        ints::py_str(py, &normalized)
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
/// tokenizer's `pre_tokenizer` option; `PreTokenizer(name)` makes one on
/// its own.
#[pyclass(frozen, eq, name = "PreTokenizer", module = "fast_wordpiece")]
#[derive(PartialEq)]
pub struct PyPreTokenizer {
    inner: PreTokenizer,
}

#[pymethods]
impl PyPreTokenizer {
    #[new]
    #[pyo3(signature = (name="bert".to_owned()), text_signature = "(name='bert')")]
    fn new(#[pyo3(from_py_with = named::name)] name: String) -> PyResult<Self> {
        Ok(Self { inner: name.parse().map_err(to_py)? })
    }

    /// Pickling and copying keep the name.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().inner.to_string(),))
    }

    /// The words of `sequence` (a str) with their character offsets in it:
    /// `[(word, (start, end)), ...]`, as Hugging Face's `pre_tokenize_str`.
    fn pre_tokenize_str<'py>(&self, py: Python<'py>, sequence: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let held = args::text(sequence, &|| "sequence".into())?;
        let text: &str = &held;
        // Counted first, then reserved at once: the list never grows.
        let mut count = 0usize;
        self.inner.split(text, |_| count += 1);
        let mut words = Vec::new();
        words
            .try_reserve_exact(count)
            .map_err(|_| to_py(Error::memory(format_args!("the list of {count} words of a text"))))?;
        self.inner.split(text, |w| words.push(w));
        ints::list_with(py, words.len(), |i| {
            let w = words[i];
            let word = ints::py_str(py, &text[w.bytes.0..w.bytes.1])?.into_any();
            let span = ints::pair(py, ints::py_int(py, w.chars.0 as u64)?, ints::py_int(py, w.chars.1 as u64)?)?;
            Ok(ints::pair(py, word, span.into_any())?.into_any())
        })
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

/// A tokenizer's decoder (Hugging Face's `decoders.WordPiece(prefix,
/// cleanup)`): `decode(tokens)` joins tokens into text, gluing the pieces
/// that start with `prefix` to the token before them. `Decoder(prefix,
/// cleanup)` makes one on its own.
#[pyclass(frozen, eq, name = "Decoder", module = "fast_wordpiece")]
#[derive(PartialEq)]
pub struct PyDecoder {
    prefix: String,
    cleanup: bool,
}

impl PyDecoder {
    /// The decoder `options` give, or None for `decoder="none"`.
    fn of(options: &Options) -> Option<Self> {
        match options.joining() {
            Joining::WordPiece { prefix, cleanup } => Some(Self { prefix: prefix.to_owned(), cleanup }),
            Joining::Spaces => None,
        }
    }
}

/// The tokens of `tokens` (an iterable of str, not a str), held as UTF-8.
pub fn token_texts<'py>(tokens: &Bound<'py, PyAny>) -> PyResult<Vec<Text<'py>>> {
    args::reject_text_as_collection(tokens, "tokens", "str")?;
    let iter = tokens.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!("tokens must be an iterable of str, not {}", type_name(tokens)))
        })
    })?;
    args::collect(iter, "tokens", args::size_hint(tokens)?.unwrap_or(0), |i, t| {
        args::text(&t, &|| format!("tokens[{i}]"))
    })
}

/// `tokens` joined as `joining` says, as a Python str; a MemoryError when
/// there is no room for the text.
pub fn joined<'py>(py: Python<'py>, tokens: &[Text<'_>], joining: Joining<'_>) -> PyResult<Bound<'py, PyString>> {
    let strs = args::strs(tokens)?;
    let text = guard(|| decoder::try_join(&strs, joining))?;
    ints::py_str(py, &text)
}

#[pymethods]
impl PyDecoder {
    #[new]
    #[pyo3(signature = (prefix="##".to_owned(), cleanup=true), text_signature = "(prefix='##', cleanup=True)")]
    fn new(
        #[pyo3(from_py_with = named::prefix)] prefix: String,
        #[pyo3(from_py_with = named::cleanup)] cleanup: bool,
    ) -> Self {
        Self { prefix, cleanup }
    }

    /// Pickling and copying keep the prefix and the clean-up switch.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, bool)) {
        (slf.get_type(), (slf.get().prefix.clone(), slf.get().cleanup))
    }

    /// `tokens` (an iterable of str) joined into text, as Hugging Face's
    /// `decode`.
    fn decode<'py>(&self, tokens: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
        let held = token_texts(tokens)?;
        joined(tokens.py(), &held, Joining::WordPiece { prefix: &self.prefix, cleanup: self.cleanup })
    }

    /// The prefix of the pieces that continue a word.
    #[getter]
    fn prefix(&self) -> String {
        self.prefix.clone()
    }

    /// Whether the clean-up rules remove the spaces before punctuation and
    /// in English contractions.
    #[getter]
    fn cleanup(&self) -> bool {
        self.cleanup
    }

    fn __repr__(&self) -> String {
        format!("Decoder(prefix={}, cleanup={})", crate::error::Quoted(&self.prefix), shown(self.cleanup))
    }
}

#[pymethods]
impl PyTokenizer {
    /// The decoder (a `Decoder`, read-only), or None for `decoder="none"`
    /// (the tokens joined with spaces), as Hugging Face's
    /// `Tokenizer.decoder`.
    #[getter]
    fn decoder(&self) -> Option<PyDecoder> {
        PyDecoder::of(self.inner().options())
    }

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
