//! `CharTokenizer`: one token per character, bound to Python.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::args::{self, text, type_name};
use super::errors::{guard, reading_files, to_py, Signals};
use super::family;
use super::ints::{self, int_list};
use super::train::counting;
use crate::chars::{count_chars_until, parts, Chars};
use crate::error::{Error, Quoted};
use crate::training::Progress;

/// One token per character: the special tokens, then the characters kept in
/// training; a character the vocabulary lacks is `unk_token`. No
/// normalization. Build one from a vocabulary, `train` one, or `load` one.
///
/// Calling the tokenizer, `tokenizer(text, ...)`, tokenizes as a
/// `transformers` tokenizer does and returns a `BatchEncoding`;
/// `len(tokenizer)` is the vocabulary size.
#[pyclass(name = "CharTokenizer", module = "fast_wordpiece._native", frozen)]
pub struct PyChars {
    inner: Chars,
    pad: family::PadToken,
}

fn specials(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    match obj {
        None => Ok(vec!["[UNK]".to_string()]),
        Some(o) => Ok(family::special_tokens(o)?.iter().map(|t| t.to_string()).collect()),
    }
}

fn optional_size(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match obj {
        Some(o) if !o.is_none() => Ok(Some(args::positive(o, "vocab_size")?)),
        _ => Ok(None),
    }
}

/// Counts the characters of `texts` (`unit`s of a corpus) with the GIL
/// released, progress on stderr if `show_progress`; Ctrl-C stops it.
fn count_chars(py: Python<'_>, texts: &[&str], unit: &'static str, show_progress: bool) -> PyResult<Vec<(char, u64)>> {
    let signals = Signals::default();
    let stop = || signals.stop();
    let counts = py.detach(|| {
        let mut progress = Progress::new(show_progress, None);
        guard(|| {
            counting(&mut progress, "counting characters", unit, texts.len(), &stop, |hook| {
                count_chars_until(texts, hook)
            })
        })
    });
    signals.result(counts)
}

#[pymethods]
impl PyChars {
    /// A tokenizer from its vocabulary (token -> id, ids 0..n): the special
    /// tokens (`special_tokens`, default `["[UNK]"]`) and single characters.
    /// `unk_token` (default `"[UNK]"`) must be one of the special tokens.
    /// ValueError for ids with a gap or a token that is neither one
    /// character nor a special token.
    #[new]
    #[pyo3(signature = (vocab, *, special_tokens = None, unk_token = String::from("[UNK]")), text_signature = "(vocab, *, special_tokens=None, unk_token='[UNK]')")]
    fn new(
        vocab: &Bound<'_, PyAny>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::unk_token)] unk_token: String,
    ) -> PyResult<Self> {
        let vocab = vocab.cast::<PyDict>().map_err(|_| {
            PyTypeError::new_err(format!("vocab must be a dict of str to int, not {}", type_name(vocab)))
        })?;
        let mut tokens: Vec<Option<String>> = vec![None; vocab.len()];
        for (k, v) in vocab.iter() {
            let token = text(&k, &|| "a vocab key".into())?.to_string();
            let id = args::count(&v, &format!("vocab[{}]", Quoted(&token)))? as usize;
            let slot = tokens.get_mut(id).ok_or_else(|| {
                super::errors::to_py(Error::invalid(format!(
                    "vocab[{}] = {id}: ids must be 0..{} with no gap",
                    Quoted(&token),
                    vocab.len()
                )))
            })?;
            if slot.replace(token).is_some() {
                return Err(super::errors::to_py(Error::invalid(format!("id {id} is given to two tokens"))));
            }
        }
        let tokens: Vec<String> = tokens.into_iter().map(|t| t.expect("each id set once")).collect();
        let specials = specials(special_tokens)?;
        Ok(PyChars { inner: guard(|| Chars::new(tokens, &specials, &unk_token))?, pad: Default::default() })
    }

    /// Learns the characters of `corpus`, an iterable of str (or of batches
    /// of str: a list of str is read as its texts): those counted
    /// at least `min_frequency` times (None: 1), and with `vocab_size` only
    /// the `vocab_size - len(special_tokens)` most frequent (ties: smaller
    /// code point; None: all). The vocabulary is `special_tokens` (default
    /// `["[UNK]"]`, `unk_token` among them) in order, then the characters in
    /// code point order. A corpus without a character is a ValueError.
    /// Progress goes to stderr unless `show_progress=False`; Ctrl-C stops
    /// training. Returns the new tokenizer.
    #[staticmethod]
    #[pyo3(signature = (corpus, vocab_size = None, min_frequency = None, *, special_tokens = None, unk_token = String::from("[UNK]"), show_progress = true), text_signature = "(corpus, vocab_size=None, min_frequency=None, *, special_tokens=None, unk_token='[UNK]', show_progress=True)")]
    fn train(
        py: Python<'_>,
        corpus: &Bound<'_, PyAny>,
        vocab_size: Option<&Bound<'_, PyAny>>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::unk_token)] unk_token: String,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
    ) -> PyResult<Self> {
        let held = args::corpus_texts(corpus, "corpus")?;
        let strs = args::strs(&held)?;
        let size = optional_size(vocab_size)?;
        let min = min_frequency.map_or(Ok(1), |m| args::count(m, "min_frequency"))?;
        let specials = specials(special_tokens)?;
        let counts = count_chars(py, &strs, "texts", show_progress)?;
        let inner = guard(|| Chars::train_from_counts(counts, size, min, &specials, &unk_token))?;
        Ok(PyChars { inner, pad: Default::default() })
    }

    /// `train` on UTF-8 text files (bytes that are not UTF-8 are a
    /// ValueError, a file that cannot be read an OSError).
    #[staticmethod]
    #[pyo3(signature = (paths, vocab_size = None, min_frequency = None, *, special_tokens = None, unk_token = String::from("[UNK]"), show_progress = true), text_signature = "(paths, vocab_size=None, min_frequency=None, *, special_tokens=None, unk_token='[UNK]', show_progress=True)")]
    #[allow(clippy::too_many_arguments)]
    fn train_from_files(
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        vocab_size: Option<&Bound<'_, PyAny>>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::unk_token)] unk_token: String,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
    ) -> PyResult<Self> {
        let paths = args::paths(paths)?;
        let size = optional_size(vocab_size)?;
        let min = min_frequency.map_or(Ok(1), |m| args::count(m, "min_frequency"))?;
        let specials = specials(special_tokens)?;
        // Ctrl-C (or another signal handler's exception) stops the reading
        // between two files and the counting between two chunks.
        let signals = Signals::default();
        let files = py.detach(|| {
            guard(|| {
                let mut files = Vec::new();
                for p in &paths {
                    if signals.stop() {
                        return Err(Error::Interrupted);
                    }
                    files.push(crate::io::read_utf8(p, &|| signals.stop())?);
                }
                Ok(files)
            })
        });
        let files = signals.result(files)?;
        let parts: Vec<&str> = files.iter().flat_map(|t| parts(t, 1 << 16)).collect();
        let counts = count_chars(py, &parts, "parts", show_progress)?;
        let inner = guard(|| Chars::train_from_counts(counts, size, min, &specials, &unk_token))?;
        Ok(PyChars { inner, pad: Default::default() })
    }

    /// `train` on character counts: a mapping `{character: count}` or an
    /// iterable of `(character, count)` pairs; a str of another length is a
    /// ValueError. `show_progress` is taken as by `train`, but nothing here
    /// takes long enough to show.
    #[staticmethod]
    #[pyo3(signature = (counts, vocab_size = None, min_frequency = None, *, special_tokens = None, unk_token = String::from("[UNK]"), show_progress = true), text_signature = "(counts, vocab_size=None, min_frequency=None, *, special_tokens=None, unk_token='[UNK]', show_progress=True)")]
    fn train_from_counts(
        counts: &Bound<'_, PyAny>,
        vocab_size: Option<&Bound<'_, PyAny>>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::unk_token)] unk_token: String,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
    ) -> PyResult<Self> {
        let _ = show_progress; // checked: no phase here is long
        let mut out = Vec::new();
        for (i, (c, n)) in args::text_counts(counts, "counts", args::TEXT_COUNTS, 0)?.into_iter().enumerate() {
            let mut cs = c.chars();
            let (Some(ch), None) = (cs.next(), cs.next()) else {
                return Err(super::errors::to_py(Error::invalid(format!(
                    "counts[{i}]: {} is not one character",
                    Quoted(&c)
                ))));
            };
            out.push((ch, n));
        }
        let size = optional_size(vocab_size)?;
        let min = min_frequency.map_or(Ok(1), |m| args::count(m, "min_frequency"))?;
        let specials = specials(special_tokens)?;
        Ok(PyChars {
            inner: guard(|| Chars::train_from_counts(out, size, min, &specials, &unk_token))?,
            pad: Default::default(),
        })
    }

    /// The token ids of `text`: special tokens in it split out first, then
    /// one id per character (`unk_token`'s for a character not in the
    /// vocabulary). There is no template, so `add_special_tokens` (checked:
    /// a bool) adds nothing, as in tokenizers and transformers for a
    /// tokenizer.json without a post-processor.
    #[pyo3(signature = (text, *, add_special_tokens = true))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let _ = add_special_tokens; // no template: nothing to add
        let t = args::text(text, &|| "text".into())?;
        int_list(py, &self.inner.encode(&t).map_err(to_py)?)
    }

    /// The tokens of `text` (see `encode`; `add_special_tokens`, as
    /// transformers' `tokenize` takes it, adds nothing). The call's other
    /// keyword arguments (`truncation`, `max_length`, `padding`, ...) are
    /// accepted and change nothing, as in transformers 5
    /// (`batch_encoding.tokenize_keywords`).
    #[pyo3(signature = (text, *, add_special_tokens = false, **kwargs))]
    fn tokenize(
        &self,
        text: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<String>> {
        let _ = add_special_tokens; // no template: nothing to add
        super::call::tokenize_keywords(kwargs, Some("CharTokenizer"))?;
        let t = args::text(text, &|| "text".into())?;
        Ok(self.inner.encode(&t).map_err(to_py)?.iter().map(|&i| self.inner.vocab()[i as usize].clone()).collect())
    }

    /// `encode` of every text of `texts` (an iterable of str), in parallel
    /// with the GIL released, on `num_threads` threads (None: all);
    /// `add_special_tokens` adds nothing, as in `encode`.
    #[pyo3(signature = (texts, *, add_special_tokens = true, num_threads = None))]
    fn encode_batch<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        num_threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let _ = add_special_tokens; // no template: nothing to add
        let threads = family::threads(num_threads)?;
        let held = family::batch(texts, "texts")?;
        let strs = args::strs(&held)?;
        let model = &self.inner;
        let ids = family::encode_each(py, &strs, threads, |t| model.encode(t))?;
        family::id_lists(py, &ids)
    }

    /// `decode` of each sequence of ids in `sequences`: a list of str.
    #[pyo3(signature = (sequences, skip_special_tokens = false))]
    fn decode_batch<'py>(
        &self,
        sequences: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::skip_special_tokens)] skip_special_tokens: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let model = &self.inner;
        family::decode_each(sequences, self.vocab_size(), |ids| model.decode(ids, skip_special_tokens))
    }

    /// Encodes `texts` (an iterable of str) and returns the dict of
    /// `PyTokenizer.analyze`, with `words` the runs of non-whitespace
    /// characters and `characters` the code points of the texts.
    fn analyze<'py>(&self, py: Python<'py>, texts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        family::analyze(py, texts, self.inner.vocab().len(), |chunk| Ok(self.inner.analyze_part(chunk)))
    }

    /// `{token: id}` for the whole vocabulary.
    fn get_vocab<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        family::vocab_dict(py, self.inner.vocab())
    }

    /// The number of tokens in the vocabulary.
    #[getter]
    fn vocab_size(&self) -> usize {
        self.inner.vocab().len()
    }

    /// The special tokens, in id order.
    #[getter(special_tokens)]
    fn special_token_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        ints::text_list(py, &self.inner.special_tokens())
    }

    /// The token of characters the vocabulary lacks.
    #[getter]
    fn unk_token(&self) -> String {
        self.inner.unk_token().to_string()
    }

    /// The id of `token`, or None.
    fn token_to_id<'py>(&self, token: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let id = self.inner.token_to_id(&text(token, &|| "token".into())?);
        id.map(|id| ints::py_int(token.py(), id.into())).transpose()
    }

    /// The token with id `id`, or None past the vocabulary. Negative: ValueError.
    fn id_to_token<'py>(&self, id: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyString>>> {
        let py = id.py();
        let id = args::count(id, "id")?;
        usize::try_from(id).ok().and_then(|i| self.inner.vocab().get(i)).map(|t| ints::py_str(py, t)).transpose()
    }

    /// The tokenizer as JSON text: `{"type": "CharTokenizer", "vocab": [...],
    /// "special_tokens": [...], "unk_token": ...}` (Hugging Face has no
    /// character model).
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        ints::py_str(py, &self.inner.to_json())
    }

    /// A tokenizer from the text `to_json` writes; ValueError if it is not one.
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let json = text(json, &|| "json".into())?;
        Ok(PyChars { inner: guard(|| Chars::from_json(&json))?, pad: Default::default() })
    }

    /// Writes `to_json`'s text to `path`, atomically (never half-written).
    fn save(&self, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = args::path(path, "path")?;
        guard(|| crate::io::write_atomic(&path, self.inner.to_json().as_bytes()))
    }

    /// Reads a file `save` wrote: OSError if it cannot be read, ValueError
    /// if it is not a character tokenizer's JSON.
    #[staticmethod]
    fn load(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        let inner = reading_files(py, |stop| {
            let text = crate::io::read_utf8(&path, stop)?;
            Chars::from_json(&text).map_err(|e| Error::InvalidFile { path: path.clone(), message: e.to_string() })
        })?;
        Ok(PyChars { inner, pad: Default::default() })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<family::Reduced<'py>> {
        let py = slf.py();
        let from_json = py.get_type::<PyChars>().getattr("from_json")?;
        Ok((from_json, PyTuple::new(py, [slf.get().inner.to_json()])?, slf.get().pad.get()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyChars>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __repr__(&self) -> String {
        format!("CharTokenizer(vocab_size={})", self.inner.vocab().len())
    }
}

impl super::family::TokenOf for PyChars {
    fn token_of(&self, id: u32) -> &str {
        &self.inner.vocab()[id as usize]
    }

    fn text_of(&self, ids: &[u32], skip_special_tokens: bool) -> crate::error::Result<String> {
        self.inner.decode(ids, skip_special_tokens)
    }
}

super::family::transformers_methods!(PyChars, decode:
    /// The text of `token_ids`: their tokens joined, without the special tokens
    /// (`unk_token` among them) when `skip_special_tokens`; with
    /// `clean_up_tokenization_spaces=True`, transformers' clean-up (" ." to
    /// ".", " n't" to "n't", ...). An id out of range: ValueError.
);
