//! Argument helpers shared by the bindings of the tokenizer family
//! (`BPETokenizer`, `CharTokenizer`, `UnigramTokenizer`): texts held as UTF-8
//! while the GIL is released, and id lists.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use super::analyze::analysis_dict;
use super::args::{self, text, type_name, Text};
use super::errors::{guard, Signals};
use super::ints::{int_list, py_str};
use crate::pipeline::decoder::clean_up_tokenization;
use crate::tokenizer::analysis::{Analysis, Partial};
use crate::tokenizer::batch::map_chunks_until;

/// The texts of a batch given as `name` (`texts`): [`texts`], a mapping
/// refused ([`args::reject_mapping`]: its keys are no batch of texts).
pub fn batch<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Vec<Text<'py>>> {
    args::reject_text_as_collection(obj, name, "str")?;
    args::reject_mapping(obj, name)?;
    texts(obj, name)
}

/// The texts of an iterable of str, as UTF-8 (errors name `name[i]`).
pub fn texts<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Vec<Text<'py>>> {
    args::reject_text_as_collection(obj, name, "str")?;
    let iter = obj.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!("{name} must be an iterable of str, not {}", type_name(obj)))
        })
    })?;
    args::collect(iter, name, args::size_hint(obj)?.unwrap_or(0), |i, item| text(&item, &|| format!("{name}[{i}]")))
}

/// The special tokens given (`special_tokens`): [`texts`], a mapping refused
/// ([`args::reject_token_mapping`]: its keys are no list of tokens).
pub fn special_tokens<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<Text<'py>>> {
    args::reject_text_as_collection(obj, "special_tokens", "str")?;
    args::reject_token_mapping(obj, "special_tokens")?;
    texts(obj, "special_tokens")
}

/// The texts of a family `encode_batch` that takes pairs: each item a str or
/// a pair of str (a tuple, or a list of two, as Hugging Face takes them).
#[allow(clippy::type_complexity)]
pub fn items<'py>(texts: &Bound<'py, PyAny>) -> PyResult<Vec<(Text<'py>, Option<Text<'py>>)>> {
    args::reject_text_as_collection(texts, "texts", "str or (str, str)")?;
    args::reject_mapping(texts, "texts")?;
    let iter = texts.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!("texts must be an iterable of str, not {}", type_name(texts)))
        })
    })?;
    args::collect(iter, "texts", args::size_hint(texts)?.unwrap_or(0), |i, item| {
        if item.is_exact_instance_of::<PyString>() {
            return Ok((text(&item, &|| format!("texts[{i}]"))?, None));
        }
        let pair = match (item.cast::<PyTuple>(), item.cast::<PyList>()) {
            (Ok(t), _) => Some((t.len(), t.get_item(0).ok(), t.get_item(1).ok())),
            (_, Ok(l)) => Some((l.len(), l.get_item(0).ok(), l.get_item(1).ok())),
            _ => None,
        };
        match pair {
            Some((2, Some(a), Some(b))) => {
                Ok((text(&a, &|| format!("texts[{i}][0]"))?, Some(text(&b, &|| format!("texts[{i}][1]"))?)))
            }
            Some((n, _, _)) => Err(PyTypeError::new_err(format!(
                "texts[{i}] must be str or a (str, str) pair, not a {} of {n}",
                type_name(&item)
            ))),
            None => Ok((text(&item, &|| format!("texts[{i}]"))?, None)),
        }
    })
}

/// An item of `encode_batch`: a text and its pair, if any; the chunks of a
/// batch are cut by the size of the first text.
pub struct Item<'a>(pub &'a str, pub Option<&'a str>);

impl AsRef<str> for Item<'_> {
    fn as_ref(&self) -> &str {
        self.0
    }
}

/// An optional thread count argument.
pub fn threads(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match obj {
        Some(o) if !o.is_none() => Ok(Some(args::positive(o, "num_threads")?)),
        _ => Ok(None),
    }
}

/// A list of id lists (the inner lists untracked by the garbage collector,
/// their ints shared: see `ints`).
pub fn id_lists<'py>(py: Python<'py>, rows: &[Vec<u32>]) -> PyResult<Bound<'py, PyList>> {
    let n = rows.len();
    let mut lists = crate::error::Error::room_for(n, format_args!("the id lists of a batch of {n} texts"))
        .map_err(super::errors::to_py)?;
    for r in rows {
        lists.push(int_list(py, r)?);
    }
    super::ints::list(py, lists)
}

/// `{token: id}` of tokens given in id order (`get_vocab`).
pub fn vocab_dict<'py, S: AsRef<str>>(
    py: Python<'py>,
    tokens: impl IntoIterator<Item = S>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = super::ints::new_dict(py)?;
    for (i, t) in tokens.into_iter().enumerate() {
        super::ints::set_str_item(&d, t.as_ref(), super::ints::py_int(py, i as u64)?)?;
    }
    Ok(d)
}

/// `decode_batch`: the text of each sequence of ids in `sequences`, as
/// `decode` (as `decode_batch`, without clean-up) gives it. The ids of every
/// sequence are read first (errors naming it `token_ids`, as `decode`'s),
/// then all are decoded by `decode` (see [`super::arrays::decode_all`]).
pub fn decode_each<'py>(
    sequences: &Bound<'py, PyAny>,
    vocab_size: usize,
    decode: impl Fn(&[u32]) -> crate::error::Result<String> + Sync,
) -> PyResult<Bound<'py, PyList>> {
    args::reject_text_as_collection(sequences, "sequences", "sequences of int")?;
    let py = sequences.py();
    let iter = args::sequences_iter(sequences)?;
    let batch = args::collect(iter, "sequences", 0, |i, s| {
        // A sequence may be long: Ctrl-C stops the batch between two.
        py.check_signals()?;
        // tokenizers' `decode_batch([5, 6])` refuses ids where sequences go.
        if args::is_one_id(&s)? {
            return Err(PyTypeError::new_err(format!(
                "sequences[{i}] must be a sequence of int, not {} (decode one sequence with decode)",
                type_name(&s)
            )));
        }
        args::ids(&s, "token_ids", vocab_size)
    })?;
    let texts = super::arrays::decode_all(py, &batch, decode)?;
    super::ints::text_list(py, &texts)
}

/// `work` on chunks of `texts` in parallel with the GIL released (see
/// `map_chunks_until`), the chunks' results in order. Between chunks Python
/// runs its signal handlers: what one raises (KeyboardInterrupt for Ctrl-C)
/// stops the work and is the error; so is the first error of `work` (of
/// the chunks done).
pub fn in_chunks<S: AsRef<str> + Sync, T: Send>(
    py: Python<'_>,
    texts: &[S],
    threads: Option<usize>,
    work: impl Fn(&[S]) -> crate::error::Result<T> + Sync + Send,
) -> PyResult<Vec<T>> {
    let signals = Signals::default();
    let done = py.detach(|| guard(|| map_chunks_until(texts, threads, work, || signals.stop())));
    signals.result(done)
}

/// `encode` of each text by `encode`, on chunks of `texts` (see [`in_chunks`]).
pub fn encode_each<T: Send>(
    py: Python<'_>,
    texts: &[&str],
    threads: Option<usize>,
    encode: impl Fn(&str) -> crate::error::Result<T> + Sync + Send,
) -> PyResult<Vec<T>> {
    let chunks = in_chunks(py, texts, threads, |chunk| each_of_chunk(chunk.iter().map(|t| encode(t))))?;
    joined(chunks, texts.len())
}

/// The results of a chunk's items, `Ok` each, in a vector reserved at once:
/// a MemoryError naming the chunk when there is no room (a vector growing
/// past the allocator's spare would abort the process).
pub fn each_of_chunk<T>(
    results: impl ExactSizeIterator<Item = crate::error::Result<T>>,
) -> crate::error::Result<Vec<T>> {
    let n = results.len();
    let mut out = crate::error::Error::room_for(n, format_args!("the encodings of a chunk of {n} texts"))?;
    for r in results {
        out.push(r?);
    }
    Ok(out)
}

/// The chunks' results of a batch of `n` texts as one vector, reserved at
/// once (a MemoryError naming the batch when there is no room).
pub fn joined<T>(chunks: Vec<Vec<T>>, n: usize) -> PyResult<Vec<T>> {
    let mut out = crate::error::Error::room_for(n, format_args!("the encodings of a batch of {n} texts"))
        .map_err(super::errors::to_py)?;
    out.extend(chunks.into_iter().flatten());
    Ok(out)
}

/// `analyze`: the texts held as UTF-8, chunks of them counted by `count`
/// with the GIL released (see [`in_chunks`]), as the family's dict.
pub fn analyze<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    vocab_size: usize,
    count: impl Fn(&[&str]) -> crate::error::Result<Partial> + Sync + Send,
) -> PyResult<Bound<'py, PyDict>> {
    let held = self::batch(texts, "texts")?;
    let strs = args::strs(&held)?;
    let parts = in_chunks(py, &strs, None, count)?;
    analysis_dict(py, &Analysis::merged(vocab_size, parts))
}

/// Calls `fast_wordpiece.batch_encoding.<function>(tokenizer, *args,
/// **kwargs)`: the family's transformers calling conventions, shared with the
/// twin (the encoding they ask for is `encode_batch`'s, GIL released).
pub fn delegate<'py>(
    tokenizer: &Bound<'py, PyAny>,
    function: &str,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = tokenizer.py();
    let f = py.import("fast_wordpiece.batch_encoding")?.getattr(function)?;
    let all = PyTuple::new(py, std::iter::once(tokenizer.clone()).chain(args.iter()).collect::<Vec<_>>())?;
    f.call(all, kwargs)
}

/// What a family tokenizer's `__reduce__` gives: the function that rebuilds
/// it, its arguments, and the settings its file does not hold (the state
/// `__setstate__` sets; None: nothing to set).
pub type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyTuple>, Option<State>);

/// The state of [`Reduced`]: `(pad_token, clean_up_tokenization_spaces)`,
/// the padding token set (None: the one by name) and the clean-up flag.
pub type State = (Option<String>, bool);

/// The transformers settings of a family tokenizer that its file has no
/// place for: the `pad_token` set (None: the padding token by name,
/// `fast_wordpiece.batch_encoding.family_pad_token`) and
/// `clean_up_tokenization_spaces` (False unless set, as transformers has it
/// for a tokenizer.json). Pickling and copying keep them (`__reduce__`'s
/// state); `to_json` does not.
#[derive(Default)]
pub struct PadToken {
    token: std::sync::Mutex<Option<String>>,
    clean_up: std::sync::atomic::AtomicBool,
}

impl PadToken {
    /// The state `__reduce__` keeps: None when nothing is set.
    pub fn get(&self) -> Option<State> {
        let token = self.token_set();
        let clean_up = self.clean_up();
        (token.is_some() || clean_up).then_some((token, clean_up))
    }

    /// The padding token set, or None.
    fn token_set(&self) -> Option<String> {
        self.token.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Sets `value` (None or a str) on `tokenizer` after
    /// `fast_wordpiece.batch_encoding.<check>(tokenizer, value)` checked it
    /// (its TypeError or ValueError) and gave the token to keep.
    pub fn set<'py>(&self, tokenizer: &Bound<'py, PyAny>, check: &str, value: &Bound<'py, PyAny>) -> PyResult<()> {
        let args = PyTuple::new(tokenizer.py(), [value])?;
        let token: Option<String> = delegate(tokenizer, check, &args, None)?.extract()?;
        *self.token.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = token;
        Ok(())
    }

    /// Sets the state `__reduce__` gave ([`State`]; a str or None alone is
    /// the padding token, the state of earlier versions).
    pub fn restore<'py>(&self, tokenizer: &Bound<'py, PyAny>, state: &Bound<'py, PyAny>) -> PyResult<()> {
        match state.cast::<PyTuple>() {
            Ok(t) if t.len() == 2 => {
                let clean_up = args::flag(&t.get_item(1)?, "clean_up_tokenization_spaces")?;
                self.set(tokenizer, "family_checked_pad_token", &t.get_item(0)?)?;
                self.set_clean_up(clean_up);
                Ok(())
            }
            _ => self.set(tokenizer, "family_checked_pad_token", state),
        }
    }

    /// Forgets the token set.
    pub fn clear(&self) {
        *self.token.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }

    /// `pad_token`: the token set, else the padding token by name.
    pub fn token<'py>(&self, tokenizer: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = tokenizer.py();
        match self.token_set() {
            Some(t) => t.into_bound_py_any(py),
            None => delegate(tokenizer, "family_pad_token", &PyTuple::empty(py), None),
        }
    }

    /// `clean_up_tokenization_spaces`: whether `decode` cleans up when the
    /// call does not say.
    pub fn clean_up(&self) -> bool {
        self.clean_up.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Sets `clean_up_tokenization_spaces`.
    pub fn set_clean_up(&self, on: bool) {
        self.clean_up.store(on, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The token of an id, and the text of ids, of a family tokenizer, for
/// [`transformers_methods`].
pub trait TokenOf {
    /// The token of `id`, which is below the vocabulary size.
    fn token_of(&self, id: u32) -> &str;

    /// The text of `ids`, each below the vocabulary size (the tokenizer's
    /// `decode`).
    fn text_of(&self, ids: &[u32], skip_special_tokens: bool) -> crate::error::Result<String>;

    /// Whether `decode(..., clean_up_tokenization_spaces=True)` cleans up:
    /// transformers 5 ignores it for a BPE model (the spaces before
    /// punctuation are the text's own there).
    const CLEANS_UP: bool = true;
}

/// `decode`'s `clean_up_tokenization_spaces`: a bool (or a numpy bool);
/// None (or not given) is `default`, the tokenizer's
/// `clean_up_tokenization_spaces` (False for `decode_batch`, as tokenizers'
/// `decode_batch` has no clean-up).
pub fn clean_up_flag(obj: Option<&Bound<'_, PyAny>>, default: bool) -> PyResult<bool> {
    match obj {
        Some(value) if !value.is_none() => args::flag(value, "clean_up_tokenization_spaces").map_err(|_| {
            PyTypeError::new_err(format!(
                "clean_up_tokenization_spaces must be a bool or None, not {}",
                type_name(value)
            ))
        }),
        _ => Ok(default),
    }
}

/// The text of one sequence of ids: `ids` ([`args::ids`], each below
/// `vocab_size`) or one id ([`args::is_one_id`], as transformers'
/// `decode(5)`), errors naming it `name`, as `tokenizer` decodes them, then
/// cleaned up as transformers' `clean_up_tokenization` when `clean_up` (and
/// [`TokenOf::CLEANS_UP`]).
pub fn decode<'py, T: TokenOf + Sync>(
    tokenizer: &T,
    ids: &Bound<'py, PyAny>,
    name: &str,
    vocab_size: usize,
    skip_special_tokens: bool,
    clean_up: bool,
) -> PyResult<Bound<'py, PyString>> {
    let py = ids.py();
    let ids = args::one_or_more_ids(ids, name, vocab_size)?;
    // A long sequence with the GIL released.
    let text = super::arrays::detach_for(py, ids.len() * 4, || {
        guard(|| cleaned_text(tokenizer, &ids, skip_special_tokens, clean_up))
    })?;
    py_str(py, &text)
}

/// The text of `ids` (`TokenOf::text_of`), cleaned up as transformers does
/// when `clean_up` and the tokenizer cleans up.
fn cleaned_text<T: TokenOf>(
    tokenizer: &T,
    ids: &[u32],
    skip_special_tokens: bool,
    clean_up: bool,
) -> crate::error::Result<String> {
    let mut text = tokenizer.text_of(ids, skip_special_tokens)?;
    if clean_up && T::CLEANS_UP {
        clean_up_tokenization(&mut text);
    }
    Ok(text)
}

/// `decode`, as transformers 5's: the text of one sequence of ids (see
/// [`decode`]), or, for a batch ([`args::is_batch`]), the list of the texts of its
/// sequences (`token_ids[i]` in errors; one id among them is a sequence of one);
/// a dict or a `BatchEncoding` of one text, its `"input_ids"` ([`args::input_ids_of`]).
pub fn decode_any<'py, T: TokenOf + Sync>(
    tokenizer: &T,
    ids: &Bound<'py, PyAny>,
    vocab_size: usize,
    skip_special_tokens: bool,
    clean_up: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = ids.py();
    if let Some(input_ids) = args::input_ids_of(ids)? {
        let name = "token_ids[\"input_ids\"]";
        return Ok(decode(tokenizer, &input_ids, name, vocab_size, skip_special_tokens, clean_up)?.into_any());
    }
    if !args::is_batch(ids, |_| false)? {
        return Ok(decode(tokenizer, ids, "token_ids", vocab_size, skip_special_tokens, clean_up)?.into_any());
    }
    // The ids read holding the GIL, then decoded as `decode_batch` decodes them
    // (a large batch with the GIL released).
    let batch = args::collect(ids.try_iter()?, "token_ids", args::size_hint(ids)?.unwrap_or(0), |i, row| {
        // A sequence may be long: Ctrl-C stops the batch between two.
        py.check_signals()?;
        args::one_or_more_ids(&row, &format!("token_ids[{i}]"), vocab_size)
    })?;
    let texts =
        super::arrays::decode_all(py, &batch, |ids| cleaned_text(tokenizer, ids, skip_special_tokens, clean_up))?;
    Ok(super::ints::text_list(py, &texts)?.into_any())
}

/// `convert_ids_to_tokens`: the token of one id ([`args::is_one_id`]), or the
/// tokens of a sequence of ids ([`args::any_ids`]) but the ids in `skipped`,
/// as `PyTokenizer.convert_ids_to_tokens` reads them; `token` gives the token
/// of an id below `vocab_size`, and an id past it gives None. Skipped by id, as transformers skips its
/// `all_special_ids`: in a vocabulary that lists a special token twice
/// (CamemBERT's `<unk>`), the other entry is kept.
pub fn ids_to_tokens<'py, 'a>(
    ids: &Bound<'py, PyAny>,
    vocab_size: usize,
    skipped: &[u32],
    token: impl Fn(u32) -> &'a str,
) -> PyResult<Bound<'py, PyAny>> {
    let py = ids.py();
    let token = |id: u32| ((id as usize) < vocab_size).then(|| token(id));
    if args::is_one_id(ids)? {
        return super::call::token_or_none(py, token(args::any_id(ids, &|| "ids".to_owned())?));
    }
    let tokens: Vec<Option<&str>> =
        args::any_ids(ids, "ids")?.into_iter().filter(|id| !skipped.contains(id)).map(token).collect();
    Ok(super::ints::list_with(py, tokens.len(), |i| super::call::token_or_none(py, tokens[i]))?.into_any())
}

/// The methods that a family tokenizer shares (`decode`, whose docstring
/// each tokenizer gives, and the transformers methods `__call__`,
/// `convert_ids_to_tokens`, `convert_tokens_to_ids`, `__len__`), as a
/// `#[pymethods]` block for `$class`.
macro_rules! transformers_methods {
    ($class:ty, decode: $(#[$decode_doc:meta])*) => {
        #[pymethods]
        impl $class {
            $(#[$decode_doc])*
            ///
            /// As in transformers, `token_ids` may also be one int, or a batch (a
            /// list of sequences, or a 2-D array: then a list of texts);
            /// `clean_up_tokenization_spaces` None is the tokenizer's
            /// `clean_up_tokenization_spaces`; `spaces_between_special_tokens`
            /// (a bool, for code written for transformers' slow tokenizers)
            /// changes nothing, as in transformers 5's fast tokenizers.
            #[pyo3(name = "decode", signature = (token_ids, skip_special_tokens = false, clean_up_tokenization_spaces = None, spaces_between_special_tokens = true))]
            fn decode_ids<'py>(
                &self,
                token_ids: &Bound<'py, PyAny>,
                #[pyo3(from_py_with = super::args::named::skip_special_tokens)] skip_special_tokens: bool,
                clean_up_tokenization_spaces: Option<&Bound<'py, PyAny>>,
                #[pyo3(from_py_with = super::args::named::spaces_between_special_tokens)]
                spaces_between_special_tokens: bool,
            ) -> PyResult<Bound<'py, PyAny>> {
                let _ = spaces_between_special_tokens;
                let clean_up = super::family::clean_up_flag(clean_up_tokenization_spaces, self.pad.clean_up())?;
                super::family::decode_any(self, token_ids, self.vocab_size(), skip_special_tokens, clean_up)
            }

            /// Whether `decode` and `batch_decode` apply transformers' clean-up
            /// (`" ."` to `"."`, `" n't"` to `"n't"`, ...) when the call does
            /// not say: False unless set (a tokenizer.json does not say, and
            /// transformers' default is False). A BPE tokenizer never cleans up,
            /// as transformers 5 ignores it there. Pickling and copying keep
            /// it; `to_json` and `save` do not. Setting anything but a bool
            /// is a TypeError.
            #[getter]
            fn get_clean_up_tokenization_spaces(&self) -> bool {
                self.pad.clean_up()
            }

            #[setter]
            fn set_clean_up_tokenization_spaces(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
                self.pad.set_clean_up(super::args::flag(value, "clean_up_tokenization_spaces")?);
                Ok(())
            }

            /// Tokenizes like a `transformers` tokenizer: `tokenizer(text, *,
            /// padding=False, truncation=None, max_length=None,
            /// pad_to_multiple_of=None, padding_side=None, return_tensors=None,
            /// return_attention_mask=None, ...)` for a str or a list of str,
            /// returning a `BatchEncoding` of `input_ids` and `attention_mask`.
            #[pyo3(signature = (*args, **kwargs))]
            fn __call__<'py>(
                slf: &Bound<'py, Self>,
                args: &Bound<'py, pyo3::types::PyTuple>,
                kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                super::family::delegate(slf.as_any(), "family_call", args, kwargs)
            }

            /// The token of an id, or the tokens of a sequence of ids (a
            /// list, a tuple, a range, a numpy array: what
            /// `PyTokenizer.convert_ids_to_tokens` takes), without the special
            /// tokens when `skip_special_tokens` (read as true or false, as
            /// transformers reads it, and only for a sequence). An id
            /// past the vocabulary gives None, as in transformers.
            #[pyo3(signature = (ids, skip_special_tokens = None), text_signature = "($self, ids, skip_special_tokens=False)")]
            fn convert_ids_to_tokens<'py>(
                &self,
                ids: &Bound<'py, PyAny>,
                skip_special_tokens: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let skip = !super::args::is_one_id(ids)? && super::args::truthy(skip_special_tokens)?;
                let skipped: Vec<u32> = if skip {
                    self.inner.special_tokens().iter().filter_map(|t| self.inner.token_to_id(t)).collect()
                } else {
                    Vec::new()
                };
                super::family::ids_to_tokens(ids, self.vocab_size(), &skipped, |id| {
                    <Self as super::family::TokenOf>::token_of(self, id)
                })
            }

            /// The id of a token, or the ids of an iterable of tokens (the
            /// unknown token's id, or None without one, for a token not in the
            /// vocabulary).
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, tokens)")]
            fn convert_tokens_to_ids<'py>(
                slf: &Bound<'py, Self>,
                args: &Bound<'py, pyo3::types::PyTuple>,
                kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                super::family::delegate(slf.as_any(), "family_convert_tokens_to_ids", args, kwargs)
            }

            /// The number of tokens in the vocabulary.
            fn __len__(&self) -> usize {
                self.vocab_size()
            }

            /// The padding token of `tokenizer(..., padding=...)`: the one
            /// set (a token of the vocabulary; TypeError unless a str,
            /// ValueError if not in the vocabulary), else the first special
            /// token named `<pad>`, `[PAD]`, `<|pad|>` or `<|padding|>`, else
            /// None. Setting None (or deleting it) goes back to the name
            /// rule. Pickling and copying keep it; `to_json` and `save` do not
            /// (a tokenizer.json has no place for it).
            #[getter]
            fn get_pad_token<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
                slf.get().pad.token(slf.as_any())
            }

            #[setter]
            fn set_pad_token<'py>(slf: &Bound<'py, Self>, value: &Bound<'py, PyAny>) -> PyResult<()> {
                slf.get().pad.set(slf.as_any(), "family_checked_pad_token", value)
            }

            #[deleter(pad_token)]
            fn delete_pad_token(&self) {
                self.pad.clear();
            }

            /// The id of `pad_token`, or None; setting an id sets `pad_token`
            /// to its token (an id outside the vocabulary: ValueError).
            #[getter]
            fn get_pad_token_id<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
                let py = slf.py();
                super::family::delegate(slf.as_any(), "family_pad_token_id", &pyo3::types::PyTuple::empty(py), None)
            }

            #[setter]
            fn set_pad_token_id<'py>(slf: &Bound<'py, Self>, value: &Bound<'py, PyAny>) -> PyResult<()> {
                slf.get().pad.set(slf.as_any(), "family_checked_pad_token_id", value)
            }

            #[deleter(pad_token_id)]
            fn delete_pad_token_id(&self) {
                self.pad.clear();
            }

            /// Pads encoded inputs (a dict of lists, a `BatchEncoding`, or a
            /// list of dicts, as `tokenizer(text)`, `datasets` and
            /// `DataCollatorWithPadding` give them) like transformers'
            /// `tokenizer.pad`: `padding=True`, `max_length=None`,
            /// `pad_to_multiple_of=None`, `padding_side=None` (right),
            /// `return_attention_mask=None`, `return_tensors=None`; with the
            /// `pad_token` (asking to pad without one: ValueError).
            #[pyo3(
                signature = (*args, **kwargs),
                text_signature = "($self, encoded_inputs, padding=True, max_length=None, pad_to_multiple_of=None, \
                                  padding_side=None, return_attention_mask=None, return_tensors=None, verbose=True)"
            )]
            fn pad<'py>(
                slf: &Bound<'py, Self>,
                args: &Bound<'py, pyo3::types::PyTuple>,
                kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                super::family::delegate(slf.as_any(), "family_pad", args, kwargs)
            }

            /// transformers' `batch_decode(sequences, skip_special_tokens=False,
            /// clean_up_tokenization_spaces=None)`: `decode` of each sequence
            /// of ids (a list of lists, a 2-D numpy array or torch tensor).
            #[pyo3(
                signature = (*args, **kwargs),
                text_signature = "($self, sequences, skip_special_tokens=False, clean_up_tokenization_spaces=None, \
                                  spaces_between_special_tokens=True)"
            )]
            fn batch_decode<'py>(
                slf: &Bound<'py, Self>,
                args: &Bound<'py, pyo3::types::PyTuple>,
                kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                super::family::delegate(slf.as_any(), "family_batch_decode", args, kwargs)
            }

            /// Sets the `pad_token` and `clean_up_tokenization_spaces` that
            /// `__reduce__` saved.
            fn __setstate__<'py>(slf: &Bound<'py, Self>, state: &Bound<'py, PyAny>) -> PyResult<()> {
                slf.get().pad.restore(slf.as_any(), state)
            }
        }
    };
}
pub(crate) use transformers_methods;
