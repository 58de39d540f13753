//! `PyTokenizer.encode`, `encode_batch` (as `Encoding`s or numpy arrays),
//! `decode` and `decode_batch`.

use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::args::{self, type_name, Given, ReturnTensors, Text};
use super::arrays;
use super::encoding::{BatchOwner, PyEncoding, Shared};
use super::errors::guard;
use super::ints::{list, py_str};
use super::tokenizer::PyTokenizer;
use crate::encoding::ragged::{RaggedFields, RaggedPart};
use crate::encoding::Encoding;
use crate::pipeline::decoder::clean_up_tokenization;
use crate::tokenizer::batch::{Batch, BatchInput};
use crate::tokenizer::options::EncodeOptions;
use crate::tokenizer::Sequence;

/// Texts (and batches of texts) longer than this are encoded with the GIL
/// released. Below it the work takes a few µs: releasing the GIL would cost
/// a good part of that (and the signal checks between chunks as much
/// again), and taking it back can wait for another thread's switch interval.
pub(super) const DETACH_BYTES: usize = 4096;

/// `work`, with the GIL released when `detach` (a large batch), else holding
/// it; either way it is attached again within `work` by `Python::attach`,
/// which costs next to nothing when the GIL is held.
pub(super) fn detach_if<T: Send, F: Send + FnOnce() -> T>(py: Python<'_>, detach: bool, work: F) -> T {
    if detach {
        py.detach(work)
    } else {
        work()
    }
}

/// The words of each item of a batch given as words: a list (or tuple) of
/// str, or a pair of two such lists (a tuple or, as Hugging Face accepts, a
/// list of two lists), as UTF-8.
#[allow(clippy::type_complexity)]
pub(super) fn batch_words<'py>(inputs: &Bound<'py, PyAny>) -> PyResult<Vec<(Vec<Text<'py>>, Option<Vec<Text<'py>>>)>> {
    args::reject_text_as_collection(inputs, "inputs", "list of words")?;
    args::reject_mapping(inputs, "inputs")?;
    let iter = inputs.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!("inputs must be an iterable of list of words, not {}", type_name(inputs)))
        })
    })?;
    args::collect(iter, "inputs", args::size_hint(inputs)?.unwrap_or(0), |i, item| {
        let two = match (item.cast::<PyTuple>(), item.cast::<PyList>()) {
            (Ok(t), _) if t.len() == 2 => Some((t.get_item(0)?, t.get_item(1)?)),
            (_, Ok(l)) if l.len() == 2 => Some((l.get_item(0)?, l.get_item(1)?)),
            _ => None,
        };
        match two {
            Some((a, b)) if !a.is_instance_of::<PyString>() => {
                Ok((args::words(&a, &format!("inputs[{i}][0]"))?, Some(args::words(&b, &format!("inputs[{i}][1]"))?)))
            }
            _ => Ok((args::words(&item, &format!("inputs[{i}]"))?, None)),
        }
    })
}

/// [`batch_words`]' words as `&str` (see [`args::word_strs`]).
#[allow(clippy::type_complexity)]
pub(super) fn batch_word_strs<'a>(
    held: &'a [(Vec<Text<'_>>, Option<Vec<Text<'_>>>)],
) -> PyResult<Vec<(Vec<&'a str>, Option<Vec<&'a str>>)>> {
    let mut out = batch_room(held.len())?;
    let watch = crate::memory::Watch::start();
    for (i, (a, b)) in held.iter().enumerate() {
        watch
            .check(|| format!("reading the words of a batch of {} inputs", held.len()))
            .map_err(super::errors::to_py)?;
        out.push(match b {
            None => (args::word_strs(a, &|| format!("inputs[{i}]"))?, None),
            Some(b) => (
                args::word_strs(a, &|| format!("inputs[{i}][0]"))?,
                Some(args::word_strs(b, &|| format!("inputs[{i}][1]"))?),
            ),
        });
    }
    watch.check(|| format!("reading the words of a batch of {} inputs", held.len())).map_err(super::errors::to_py)?;
    Ok(out)
}

/// An empty vector with room for the `n` inputs of a batch, or a
/// MemoryError naming them.
pub(super) fn batch_room<T>(n: usize) -> PyResult<Vec<T>> {
    crate::error::Error::room_for(n, format_args!("a batch of {n} inputs")).map_err(super::errors::to_py)
}

/// What a TypeError about a list of words given where a str goes adds:
/// `keyword` is the argument that takes words (`encode`'s
/// `is_pretokenized`, as in `tokenizers`; the call's `is_split_into_words`).
fn words_hint(keyword: &str) -> String {
    format!("for a list of words, pass {keyword}=True")
}

/// Whether `obj` is a list or tuple of str: words, given where a text goes.
fn is_words(obj: &Bound<'_, PyAny>) -> bool {
    match (obj.cast::<PyList>(), obj.cast::<PyTuple>()) {
        (Ok(l), _) => l.iter().all(|w| w.is_instance_of::<PyString>()),
        (_, Ok(t)) => t.iter().all(|w| w.is_instance_of::<PyString>()),
        _ => false,
    }
}

/// A text `encode` or `encode_batch` reads (`text`, `pair`, an item of a
/// batch): a str as UTF-8; words (a list or tuple of str) get a TypeError
/// that says to pass `keyword=True` ([`words_hint`]).
fn text_input<'py>(obj: &Bound<'py, PyAny>, what: &dyn Fn() -> String, keyword: &str) -> PyResult<Text<'py>> {
    if is_words(obj) {
        let hint = words_hint(keyword);
        return Err(PyTypeError::new_err(format!("{} must be str, not {} ({hint})", what(), type_name(obj))));
    }
    args::text(obj, what)
}

/// The texts of a batch: each item a str or a `(str, str)` pair, as UTF-8.
/// `keyword` takes lists of words instead ([`words_hint`]).
pub(super) fn batch_texts<'py>(
    inputs: &Bound<'py, PyAny>,
    keyword: &str,
) -> PyResult<Vec<(Text<'py>, Option<Text<'py>>)>> {
    args::reject_text_as_collection(inputs, "inputs", "str or (str, str)")?;
    args::reject_mapping(inputs, "inputs")?;
    let iter = inputs.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!("inputs must be an iterable of str, not {}", type_name(inputs)))
        })
    })?;
    // One pass: each text is taken as UTF-8 as it comes, into a vector
    // made at the batch's size.
    args::collect(iter, "inputs", args::size_hint(inputs)?.unwrap_or(0), |i, item| {
        if item.is_exact_instance_of::<PyString>() {
            // The common case, with the fewest checks.
            return Ok((args::text(&item, &|| format!("inputs[{i}]"))?, None));
        }
        // A pair is a tuple or, as Hugging Face accepts, a list of two.
        let pair = match (item.cast::<PyTuple>(), item.cast::<PyList>()) {
            (Ok(t), _) => Some((t.len(), t.get_item(0).ok(), t.get_item(1).ok())),
            (_, Ok(l)) => Some((l.len(), l.get_item(0).ok(), l.get_item(1).ok())),
            _ => None,
        };
        match pair {
            Some((2, Some(a), Some(b))) => Ok((
                text_input(&a, &|| format!("inputs[{i}][0]"), keyword)?,
                Some(text_input(&b, &|| format!("inputs[{i}][1]"), keyword)?),
            )),
            Some(_) if is_words(&item) => Err(PyTypeError::new_err(format!(
                "inputs[{i}] must be str or a (str, str) pair ({})",
                words_hint(keyword)
            ))),
            Some(_) => Err(PyTypeError::new_err(format!("inputs[{i}] must be str or a (str, str) pair"))),
            None => Ok((args::text(&item, &|| format!("inputs[{i}]"))?, None)),
        }
    })
}

/// What `encode` encodes: `text` and `pair` read as texts or, with
/// is_pretokenized=True, as lists of words.
enum EncodeInput<'py> {
    Texts(Text<'py>, Option<Text<'py>>),
    Words(Vec<Text<'py>>, Option<Vec<Text<'py>>>),
}

impl<'py> EncodeInput<'py> {
    fn read(text: &Bound<'py, PyAny>, pair: Option<&Bound<'py, PyAny>>, pretokenized: bool) -> PyResult<Self> {
        if pretokenized {
            let a = args::words(text, "text")?;
            Ok(Self::Words(a, pair.map(|p| args::words(p, "pair")).transpose()?))
        } else {
            let a = text_input(text, &|| "text".into(), "is_pretokenized")?;
            Ok(Self::Texts(a, pair.map(|p| text_input(p, &|| "pair".into(), "is_pretokenized")).transpose()?))
        }
    }
}

impl PyTokenizer {
    /// The tokenizer as it is now: one atomic load, and encodings keep the
    /// tokenizer that made them even if tokens are added later.
    pub(super) fn inner(&self) -> Arc<Shared> {
        Arc::clone(&self.inner.read().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// `inner` as a Python `Encoding` (untracked, see
    /// [`PyEncoding::into_untracked`]).
    pub(super) fn encoding<'py>(
        py: Python<'py>,
        shared: &Arc<Shared>,
        inner: Encoding,
    ) -> PyResult<Bound<'py, PyEncoding>> {
        PyEncoding::new(inner, Arc::clone(shared)).into_untracked(py)
    }

    /// The whole batch encoded with the GIL released (padding needs all of
    /// it), asking Python between chunks whether Ctrl-C (or another signal
    /// handler) wants it stopped.
    pub(super) fn encode_whole_batch<I: BatchInput>(
        shared: &Shared,
        py: Python<'_>,
        texts: &[I],
        options: &EncodeOptions,
    ) -> PyResult<Vec<Encoding>> {
        let mut failure = None;
        let batch = Batch::new(texts);
        let encodings = detach_if(py, batch.bytes() > DETACH_BYTES, || {
            guard(|| {
                shared.encode_batch_until(batch, options, || {
                    Python::attach(|py| py.check_signals()).map_err(|e| failure = Some(e)).is_err()
                })
            })
        });
        match failure {
            Some(e) => Err(e),
            None => encodings,
        }
    }

    /// The batch encoded into flat columns with the GIL released, asking
    /// Python between chunks whether Ctrl-C wants it stopped.
    fn encode_ragged<I: BatchInput>(
        shared: &Shared,
        py: Python<'_>,
        texts: &[I],
        options: &EncodeOptions,
        fields: RaggedFields,
    ) -> PyResult<Vec<RaggedPart>> {
        let mut failure = None;
        let batch = Batch::new(texts);
        let parts = detach_if(py, batch.bytes() > DETACH_BYTES, || {
            guard(|| {
                shared.encode_batch_ragged(batch, options, fields, || {
                    Python::attach(|py| py.check_signals()).map_err(|e| failure = Some(e)).is_err()
                })
            })
        });
        match failure {
            Some(e) => Err(e),
            None => parts,
        }
    }

    /// `encode_batch` without padding, as a list of `Encoding`s whose lists
    /// (those the caller reads, see `Shared::lists_to_make`) are made on this
    /// thread, holding the GIL, while the pool is still encoding the rest of
    /// the batch. Ctrl-C stops it between chunks.
    fn encode_batch_streamed<'py, I: BatchInput>(
        shared: &Arc<Shared>,
        py: Python<'py>,
        texts: &[I],
        options: &EncodeOptions,
    ) -> PyResult<Bound<'py, PyList>> {
        let owner = BatchOwner::new(py, Arc::clone(shared))?;
        // The batch's list, made at its size and filled as chunks arrive
        // (in the order they finish): no vector of slots to fill first and
        // copy after. Untracked by the collector while it has empty slots,
        // which Python code run meanwhile (a signal handler, `gc.callbacks`)
        // must not find through `gc.get_objects()`; tracked again once full.
        // SAFETY: the GIL is held; the new list is untracked before anything
        // can start a collection.
        let list: Py<PyList> = unsafe {
            let list = Bound::from_owned_ptr_or_err(py, ffi::PyList_New(texts.len() as ffi::Py_ssize_t))?;
            ffi::PyObject_GC_UnTrack(list.as_ptr().cast());
            list.cast_into_unchecked::<PyList>().unbind()
        };
        let mut filled = 0;
        let mut failure = None;
        let batch = Batch::new(texts);
        detach_if(py, batch.bytes() > DETACH_BYTES, || {
            guard(|| {
                shared.encode_batch_streamed(batch, options, |start, chunk| {
                    let made = Python::attach(|py| {
                        for (i, encoding) in (start..).zip(chunk) {
                            let encoding = PyEncoding::made_ahead(py, encoding, &owner)?.into_untracked(py)?;
                            // SAFETY: the GIL is held; each slot is set once
                            // (an index past the end is an error), stealing
                            // the reference.
                            if unsafe { ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, encoding.into_ptr()) }
                                != 0
                            {
                                return Err(PyErr::fetch(py));
                            }
                            filled += 1;
                        }
                        py.check_signals()
                    });
                    made.map_err(|e| failure = Some(e)).is_ok()
                })
            })
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
        // Every slot is filled unless the batch stopped, and then it failed.
        if filled != texts.len() {
            return Err(PyRuntimeError::new_err(
                "internal error in fast_wordpiece (please report): an encoding was lost",
            ));
        }
        let list = list.into_bound(py);
        // SAFETY: the GIL is held; the list is untracked (above) and now
        // full, so the collector may see it again.
        unsafe { ffi::PyObject_GC_Track(list.as_ptr().cast()) };
        Ok(list)
    }

    /// `encode_batch`'s work on inputs read already (texts, or lists of
    /// words): a list of `Encoding`, numpy arrays (`numpy`, with padding) or
    /// a `RaggedBatch` (`numpy`, without).
    fn encode_batch_of<'py, I: BatchInput>(
        shared: &Arc<Shared>,
        py: Python<'py>,
        inputs: &[I],
        options: &EncodeOptions,
        numpy: bool,
        fields: RaggedFields,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !numpy && options.padding.is_none() {
            return Self::encode_batch_streamed(shared, py, inputs, options).map(Bound::into_any);
        }
        if options.padding.is_none() {
            let parts = Self::encode_ragged(shared, py, inputs, options, fields)?;
            return arrays::ragged_batch(py, parts, fields, options.num_threads);
        }
        let encodings = Self::encode_whole_batch(shared, py, inputs, options)?;
        if numpy {
            // Padded arrays hold every column but the special-tokens mask,
            // which comes on request.
            let mask = fields.special_tokens_mask.then_some(arrays::SPECIAL_TOKENS_MASK_COLUMN);
            let columns: Vec<_> = arrays::ENCODE_BATCH_COLUMNS.into_iter().chain(mask).collect();
            arrays::numpy_arrays(py, &encodings, &columns, options.num_threads).map(Bound::into_any)
        } else {
            let encodings = encodings.into_iter().map(|e| Self::encoding(py, shared, e));
            list(py, encodings.collect::<PyResult<Vec<_>>>()?).map(Bound::into_any)
        }
    }
}

#[pymethods]
impl PyTokenizer {
    /// Encodes `text` (and `pair`, for a pair of sequences). With
    /// `add_special_tokens`, the result is `[CLS] text [SEP] pair [SEP]`.
    ///
    /// Keyword arguments, as in Hugging Face `tokenizers`: `max_length`
    /// (None: no truncation) with `truncation` (`"longest_first"`,
    /// `"only_first"`, `"only_second"` or `"do_not_truncate"`; or, as in
    /// transformers, True for `"longest_first"`, to `model_max_length` when
    /// there is no `max_length`, and False for `"do_not_truncate"`, which
    /// also turns the tokenizer's default truncation off), `stride` (tokens
    /// shared by consecutive windows in `Encoding.overflowing`) and
    /// `truncation_side` (`"right"` or `"left"`); `padding` (None,
    /// `"longest"` or `"max_length"`) with `pad_to_multiple_of` and
    /// `padding_side`; `is_pretokenized`: `text` (and `pair`) are lists of
    /// words, each encoded on its own, with offsets into the word. For
    /// transformers' `return_tensors`, call the tokenizer: `tok(text, ...)`.
    #[pyo3(signature = (text, pair = None, add_special_tokens = Given(None), **kwargs), text_signature = "($self, text, pair=None, add_special_tokens=True, *, is_pretokenized=False, max_length=None, truncation='longest_first', stride=0, truncation_side='right', padding=None, pad_to_multiple_of=None, padding_side='right')")]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
        pair: Option<&Bound<'py, PyAny>>,
        add_special_tokens: Given<'_>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Bound<'py, PyEncoding>> {
        // The arguments are checked in order, the positional ones first:
        // `text` and `pair` (as words with is_pretokenized=True), then
        // add_special_tokens, then the other keywords. An is_pretokenized
        // that is no bool leaves the texts unread until its error.
        let early = match args::given_flag(kwargs, "is_pretokenized") {
            Some(pretokenized) => Some(EncodeInput::read(text, pair, pretokenized)?),
            None => None,
        };
        let add_special_tokens = add_special_tokens.0.map_or(Ok(true), |v| args::flag(&v, "add_special_tokens"))?;
        let (options, asked) =
            args::encode_options(add_special_tokens, kwargs, || self.setting(|s| s.model_max_length))?;
        let input = match early {
            Some(input) => input,
            None => EncodeInput::read(text, pair, asked.pretokenized)?,
        };
        let shared = self.inner();
        let options = asked.resolve(options, |o| shared.defaults_for(o));
        let encoding = match input {
            EncodeInput::Words(a, b) => {
                let a = args::word_strs(&a, &|| "text".into())?;
                let b = b.as_deref().map(|b| args::word_strs(b, &|| "pair".into())).transpose()?;
                let (a, b) = (Sequence::Words(&a), b.as_deref().map(Sequence::Words));
                let bytes = a.len_bytes() + b.map_or(0, |b| b.len_bytes());
                let work = || guard(|| shared.encode_sequences_with(a, b, &options));
                if bytes > DETACH_BYTES {
                    py.detach(work)?
                } else {
                    work()?
                }
            }
            EncodeInput::Texts(a, b) => {
                let (a, b) = (&*a, b.as_deref());
                let work = || guard(|| shared.encode_with(a, b, &options));
                if a.len() + b.map_or(0, str::len) > DETACH_BYTES {
                    py.detach(work)?
                } else {
                    work()?
                }
            }
        };
        Self::encoding(py, &shared, encoding)
    }

    /// Encodes many texts in parallel with the GIL released. Items are str,
    /// or `(text, pair)` tuples; with `is_pretokenized`, lists of words, or
    /// pairs of them. Takes `encode`'s keyword arguments (padding
    /// `"longest"` pads to the longest of the batch), and `return_tensors`:
    /// None for a list of `Encoding`; `"np"` with padding (in the call or the
    /// tokenizer's) for a dict of int64 numpy arrays `input_ids`,
    /// `attention_mask`, `token_type_ids` (n × length) and `offsets` (n ×
    /// length × 2), and `special_tokens_mask` (n × length) with
    /// `return_special_tokens_mask=True`; `"np"` without padding for
    /// a `RaggedBatch`: the rows end to end in flat int64 arrays, `input_ids`
    /// and `row_offsets` (n + 1 values: row i is
    /// `input_ids[row_offsets[i]:row_offsets[i + 1]]`), and on request
    /// (`return_offsets`, `return_token_type_ids`,
    /// `return_special_tokens_mask`) the other columns, filled in parallel
    /// with the GIL released, no Python object per token.
    /// `num_threads` sets how many threads work on this call; None uses
    /// `RAYON_NUM_THREADS`, else one per CPU. Without padding, the calling
    /// thread is one of them: it makes each finished encoding's list of ids
    /// (and of offsets, once you read offsets) while the others encode the
    /// rest, so reading them afterwards costs nothing; Ctrl-C stops it.
    #[pyo3(signature = (inputs, add_special_tokens = true, **kwargs), text_signature = "($self, inputs, add_special_tokens=True, *, is_pretokenized=False, max_length=None, truncation='longest_first', stride=0, truncation_side='right', padding=None, pad_to_multiple_of=None, padding_side='right', return_tensors=None, num_threads=None, return_offsets=False, return_token_type_ids=False, return_special_tokens_mask=False)")]
    fn encode_batch<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (options, return_tensors, fields, asked) =
            args::encode_batch_options(add_special_tokens, kwargs, || self.setting(|s| s.model_max_length))?;
        let shared = self.inner();
        let options = asked.resolve(options, |o| shared.defaults_for(o));
        let numpy = return_tensors == ReturnTensors::Numpy;
        if numpy {
            arrays::import_numpy(py, "return_tensors=\"np\"")?;
        }
        if asked.pretokenized {
            let held = batch_words(inputs)?;
            let words = batch_word_strs(&held)?;
            let mut inputs: Vec<(Sequence<'_>, Option<Sequence<'_>>)> = batch_room(words.len())?;
            inputs.extend(words.iter().map(|(a, b)| (Sequence::Words(a), b.as_deref().map(Sequence::Words))));
            return Self::encode_batch_of(&shared, py, &inputs, &options, numpy, fields);
        }
        let utf8 = batch_texts(inputs, "is_pretokenized")?;
        let mut texts: Vec<(&str, Option<&str>)> = batch_room(utf8.len())?;
        texts.extend(utf8.iter().map(|(a, b)| (&**a, b.as_deref())));
        Self::encode_batch_of(&shared, py, &texts, &options, numpy, fields)
    }

    /// `encode_batch` with Hugging Face's `encode_batch_fast` signature
    /// (`is_pretokenized` before `add_special_tokens`), for code written for
    /// `tokenizers`: a list of `Encoding`, with the tokenizer's default
    /// truncation and padding. Hugging Face's leaves out the offsets (all
    /// `(0, 0)`) and the tokens to go faster; ours are whole, as
    /// `encode_batch` makes them, since its lists are only made when read.
    #[pyo3(signature = (inputs, is_pretokenized = false, add_special_tokens = true))]
    fn encode_batch_fast<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::is_pretokenized)] is_pretokenized: bool,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("is_pretokenized", is_pretokenized)?;
        self.encode_batch(py, inputs, add_special_tokens, Some(&kwargs))
    }

    /// Turns ids back into text (`##` pieces glued, spaces before punctuation
    /// removed). Ids outside the vocabulary raise ValueError. As in
    /// transformers, `token_ids` may also be one int, or a batch (a list of
    /// sequences, or a 2-D array: then a list of texts, as `decode_batch`);
    /// an `Encoding` (what `encode` returns) is decoded as its ids, a dict
    /// or a `BatchEncoding` of one text as its `"input_ids"`;
    /// `clean_up_tokenization_spaces` applies transformers' clean-up to the
    /// whole text (`" n't"` to `"n't"`, ...; None: the tokenizer's
    /// `clean_up_tokenization_spaces`, False unless its model directory says
    /// otherwise). `spaces_between_special_tokens` (a bool, for code written
    /// for transformers' slow tokenizers) changes nothing, as in
    /// transformers 5's fast tokenizers.
    #[pyo3(signature = (token_ids, skip_special_tokens = false, clean_up_tokenization_spaces = None, spaces_between_special_tokens = true))]
    pub(super) fn decode<'py>(
        &self,
        token_ids: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::skip_special_tokens)] skip_special_tokens: bool,
        clean_up_tokenization_spaces: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::spaces_between_special_tokens)] spaces_between_special_tokens: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = spaces_between_special_tokens;
        let ids = token_ids;
        let py = ids.py();
        if let Some(input_ids) = args::input_ids_of(ids)? {
            let shared = self.inner();
            let ids = ids_of(&input_ids, "token_ids[\"input_ids\"]", shared.vocab().len())?;
            let clean_up = self.cleans_up(clean_up_tokenization_spaces)?;
            let text = decode_ids(py, &shared, &ids, skip_special_tokens, clean_up)?;
            return Ok(py_str(py, &text)?.into_any());
        }
        if args::is_batch(ids, |row| row.is_instance_of::<PyEncoding>())? {
            return Ok(self.decode_sequences(ids, skip_special_tokens, clean_up_tokenization_spaces, true)?.into_any());
        }
        let shared = self.inner();
        let n = shared.vocab().len();
        let ids = ids_of(ids, "token_ids", n)?;
        let clean_up = self.cleans_up(clean_up_tokenization_spaces)?;
        let text = decode_ids(py, &shared, &ids, skip_special_tokens, clean_up)?;
        Ok(py_str(py, &text)?.into_any())
    }

    /// `decode` for each sequence of ids (or `Encoding`) of `sequences`. One
    /// id where a sequence goes is a TypeError, as in Hugging Face
    /// `tokenizers` (`decode_batch([5, 6])` is refused: decode one sequence
    /// with `decode`).
    #[pyo3(signature = (sequences, skip_special_tokens = false, clean_up_tokenization_spaces = None))]
    pub(super) fn decode_batch<'py>(
        &self,
        sequences: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::skip_special_tokens)] skip_special_tokens: bool,
        clean_up_tokenization_spaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        self.decode_sequences(sequences, skip_special_tokens, clean_up_tokenization_spaces, false)
    }
}

impl PyTokenizer {
    /// The texts of `sequences`, each decoded as `decode` decodes it; with
    /// `one_ids`, an item may be one id (transformers' `decode` of a batch
    /// decodes it alone), else that is a TypeError (`decode_batch`).
    pub(super) fn decode_sequences<'py>(
        &self,
        sequences: &Bound<'py, PyAny>,
        skip_special_tokens: bool,
        clean_up_tokenization_spaces: Option<&Bound<'_, PyAny>>,
        one_ids: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        args::reject_text_as_collection(sequences, "sequences", "sequences of int")?;
        let shared = self.inner();
        let clean_up = self.cleans_up(clean_up_tokenization_spaces)?;
        let iter = args::sequences_iter(sequences)?;
        let batch = args::collect(iter, "sequences", 0, |i, ids| {
            // A sequence may be long: Ctrl-C stops the batch between two.
            ids.py().check_signals()?;
            if !one_ids && args::is_one_id(&ids)? {
                return Err(PyTypeError::new_err(format!(
                    "sequences[{i}] must be a sequence of int, not {} (decode one sequence with decode)",
                    args::type_name(&ids)
                )));
            }
            ids_of(&ids, &format!("sequences[{i}]"), shared.vocab().len())
        })?;
        let py = sequences.py();
        let texts = decode_all(py, &shared, &batch, skip_special_tokens, clean_up)?;
        let strs = texts.iter().map(|text| py_str(py, text)).collect::<PyResult<Vec<_>>>()?;
        list(py, strs)
    }
}

/// The texts of `batch`, each as [`decode_ids`] gives it, all with the GIL
/// released when the batch is large (see [`arrays::decode_all`]).
fn decode_all(
    py: Python<'_>,
    shared: &Shared,
    batch: &[Vec<u32>],
    skip_special_tokens: bool,
    clean_up: bool,
) -> PyResult<Vec<String>> {
    arrays::decode_all(py, batch, |ids| {
        let mut text = shared.decode(ids, skip_special_tokens)?;
        if clean_up {
            clean_up_tokenization(&mut text);
        }
        Ok(text)
    })
}

/// The text of `ids` (checked), cleaned up as transformers does when
/// `clean_up`; a long sequence with the GIL released.
fn decode_ids(
    py: Python<'_>,
    shared: &Shared,
    ids: &[u32],
    skip_special_tokens: bool,
    clean_up: bool,
) -> PyResult<String> {
    super::arrays::detach_for(py, ids.len() * 4, || {
        let mut text = guard(|| shared.decode(ids, skip_special_tokens))?;
        if clean_up {
            clean_up_tokenization(&mut text);
        }
        Ok(text)
    })
}

/// The ids `decode` reads of `obj`: an `Encoding`'s ids (as transformers
/// users pass what `encode` gives), one id, or a sequence of ids.
pub(super) fn ids_of(obj: &Bound<'_, PyAny>, name: &str, vocab_size: usize) -> PyResult<Vec<u32>> {
    match obj.cast::<PyEncoding>() {
        Ok(encoding) => {
            let ids = encoding.get().token_ids();
            match ids.iter().find(|&&id| id as usize >= vocab_size) {
                Some(id) => Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "{name}: id {id} is out of range for a vocabulary of {vocab_size} tokens"
                ))),
                None => Ok(ids.to_vec()),
            }
        }
        Err(_) => args::one_or_more_ids(obj, name, vocab_size),
    }
}
