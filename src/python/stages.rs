//! Stages of a tokenizer's pipeline as objects of their own
//! (`tokenizer.normalizer`, `tokenizer.pre_tokenizer`, `tokenizer.decoder`),
//! with Hugging Face `tokenizers`' `normalize_str`, `pre_tokenize_str` and
//! `decode`.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use pyo3::exceptions::PyTypeError;

use super::args::{self, type_name};
use super::errors::guard;
use super::tokenizer::PyTokenizer;
use crate::pipeline::decoder;
use crate::pipeline::normalizer::{Normalized, Normalizer};
use crate::pipeline::pre_tokenizer::PreTokenizer;
use crate::tokenizer::options::{Decoding, Options};

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

/// A tokenizer's decoder (Hugging Face's `decoders.WordPiece(prefix,
/// cleanup)`): `decode(tokens)` joins tokens into text, gluing the pieces
/// that start with `prefix` to the token before them.
#[pyclass(frozen, eq, name = "Decoder", module = "fast_wordpiece")]
#[derive(PartialEq)]
pub struct PyDecoder {
    prefix: String,
    cleanup: bool,
}

impl PyDecoder {
    /// The decoder `options` give, or None for `decoder="none"`.
    fn of(options: &Options) -> Option<Self> {
        match options.decoder {
            Decoding::WordPiece => {
                Some(Self { prefix: options.continuing_subword_prefix.clone(), cleanup: options.decoder_cleanup })
            }
            Decoding::Off => None,
        }
    }
}

/// The tokens of `tokens` (an iterable of str, not a str).
pub fn token_strs(tokens: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    args::reject_text_as_collection(tokens, "tokens", "str")?;
    tokens
        .try_iter()
        .map_err(|e| {
            args::unless_raised(e, || {
                PyTypeError::new_err(format!("tokens must be an iterable of str, not {}", type_name(tokens)))
            })
        })?
        .enumerate()
        .map(|(i, t)| Ok(args::text(&t?, &|| format!("tokens[{i}]"))?.to_owned()))
        .collect()
}

/// `tokens` joined as `options`' decoder joins them: with a `Decoder`, else
/// (`decoder="none"`) with single spaces, as transformers'
/// `convert_tokens_to_string` does.
pub fn tokens_to_string(options: &Options, tokens: &[String]) -> String {
    match PyDecoder::of(options) {
        Some(d) => decoder::decode_with(tokens.iter().map(String::as_str), &d.prefix, d.cleanup),
        None => tokens.join(" "),
    }
}

#[pymethods]
impl PyDecoder {
    /// `tokens` (an iterable of str) joined into text, as Hugging Face's
    /// `decode`.
    fn decode(&self, tokens: &Bound<'_, PyAny>) -> PyResult<String> {
        let tokens = token_strs(tokens)?;
        Ok(decoder::decode_with(tokens.iter().map(String::as_str), &self.prefix, self.cleanup))
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
