//! The calling conventions of `transformers`' tokenizers: `tokenizer(...)`,
//! `pad`, `tokenize`, the conversions between tokens and ids, the special
//! tokens as attributes, and the settings a caller may change
//! (`model_max_length`, `padding_side`, `truncation_side`,
//! `model_input_names`).
//!
//! `__call__` and `pad` turn transformers' arguments into `encode_batch`'s
//! in `fast_wordpiece/batch_encoding.py`, which the twin shares; the work is
//! done here, by `_call_batch`, with the GIL released.

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use super::args::{self, type_name};
use super::arrays;
use super::encode::{batch_room, batch_texts, batch_word_strs, batch_words};
use super::encoding::Shared;
use super::errors::guard;
use super::tokenizer::{CallSettings, PyTokenizer};
use crate::encoding::column::Column;
use crate::encoding::{Encoding, Side};
use crate::error::Quoted;
use crate::tokenizer::Sequence;

/// transformers' `VERY_LARGE_INTEGER`: the `model_max_length` of a tokenizer
/// whose model has no maximum.
const NO_MAXIMUM: f64 = 1e30;

/// The columns of `__call__`'s numpy arrays, by transformers' names.
const CALL_COLUMNS: [(&str, Column); 5] = [
    ("input_ids", Column::Ids),
    ("token_type_ids", Column::TypeIds),
    ("attention_mask", Column::AttentionMask),
    ("special_tokens_mask", Column::SpecialTokensMask),
    ("offset_mapping", Column::Offsets),
];

/// The functions of `fast_wordpiece.batch_encoding` the bindings call.
#[derive(Clone, Copy)]
enum Helper {
    Call,
    Pad,
    TokenizeKeywords,
}

/// A function of `fast_wordpiece.batch_encoding`, looked up once: importing
/// a dotted module already imported, then getting its attribute, cost a
/// fifth of a small batch's `tokenizer(texts)`.
fn batch_encoding(py: Python<'_>, helper: Helper) -> PyResult<Bound<'_, PyAny>> {
    static CALL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    static PAD: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    static TOKENIZE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let (cell, name) = match helper {
        Helper::Call => (&CALL, "call"),
        Helper::Pad => (&PAD, "pad"),
        Helper::TokenizeKeywords => (&TOKENIZE, "tokenize_keywords"),
    };
    let function =
        cell.get_or_try_init(py, || py.import("fast_wordpiece.batch_encoding")?.getattr(name).map(Bound::unbind))?;
    Ok(function.bind(py).clone())
}

/// `batch_encoding.tokenize_keywords`: checks the call's keyword arguments a
/// `tokenize` takes and ignores, as transformers 5's; `family` is the class
/// name of a family tokenizer (None for `PyTokenizer`).
pub(super) fn tokenize_keywords(kwargs: Option<&Bound<'_, PyDict>>, family: Option<&str>) -> PyResult<()> {
    if let Some(kwargs) = kwargs.filter(|k| !k.is_empty()) {
        batch_encoding(kwargs.py(), Helper::TokenizeKeywords)?.call1((kwargs, family))?;
    }
    Ok(())
}

/// A side argument (`"right"` or `"left"`) named `name`.
pub(super) fn side(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Side> {
    args::side(&args::text(value, &|| name.to_owned())?, name)
}

/// `model_max_length` as Python reads it: the int, or transformers'
/// `VERY_LARGE_INTEGER` (1e30) for no maximum.
/// The int is made once: every call reads it.
pub(super) fn max_length_value(py: Python<'_>, n: Option<u64>) -> PyResult<Bound<'_, PyAny>> {
    static NO_MAXIMUM_INT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    match n {
        Some(n) => n.into_bound_py_any(py),
        None => NO_MAXIMUM_INT
            .get_or_try_init(py, || py.import("builtins")?.getattr("int")?.call1((NO_MAXIMUM,)).map(Bound::unbind))
            .map(|int| int.bind(py).clone()),
    }
}

/// A `model_max_length` set from Python: None for transformers'
/// `LARGE_INTEGER` (1e20) and beyond, which mean "no maximum".
pub(super) fn max_length_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    let unbounded = value.is_instance_of::<PyInt>() && value.ge(10u128.pow(20))?;
    Ok(if unbounded { None } else { Some(args::count(value, "model_max_length")?) })
}

impl PyTokenizer {
    pub(super) fn settings(&self) -> CallSettings {
        self.setting(CallSettings::clone)
    }

    /// One thing read from the settings, without copying the rest (the
    /// transformers-style call reads a few of them on every call).
    pub(super) fn setting<T>(&self, read: impl FnOnce(&CallSettings) -> T) -> T {
        read(&self.call.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// Whether a decode call cleans up: its `clean_up_tokenization_spaces`
    /// (a bool), or the tokenizer's when None.
    pub(super) fn cleans_up(&self, argument: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        match argument {
            Some(value) if !value.is_none() => args::flag(value, "clean_up_tokenization_spaces"),
            _ => Ok(self.setting(|s| s.clean_up_tokenization_spaces)),
        }
    }

    pub(super) fn change(&self, f: impl FnOnce(&mut CallSettings)) {
        f(&mut self.call.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    }

    fn special_id(&self, token: &str) -> Option<u32> {
        self.inner().vocab().id(token)
    }

    /// A configured special token, when it is in the vocabulary.
    fn present(&self, token: Option<String>) -> Option<String> {
        token.filter(|t| self.special_id(t).is_some())
    }

    /// The ids of `all_special`, in its order.
    fn all_special_id_vec(&self) -> Vec<u32> {
        self.all_special().iter().filter_map(|t| self.special_id(t)).collect()
    }

    /// The named special tokens that are in the vocabulary, in transformers'
    /// order (bos, eos, unk, sep, pad, cls, mask), then the extra ones, each
    /// once.
    fn all_special(&self) -> Vec<String> {
        let shared = self.inner();
        let o = shared.options();
        let settings = self.settings();
        let named = [
            settings.bos_token.as_deref(),
            settings.eos_token.as_deref(),
            Some(o.unk_token.as_str()),
            Some(o.sep_token.as_str()),
            Some(o.pad_token.as_str()),
            Some(o.cls_token.as_str()),
            settings.mask_token.as_deref(),
        ];
        let mut all: Vec<String> = Vec::new();
        for t in named.into_iter().flatten().chain(settings.extra_special_tokens.iter().map(String::as_str)) {
            if self.special_id(t).is_some() && !all.iter().any(|a| a == t) {
                all.push(t.to_owned());
            }
        }
        all
    }

    /// `add_special_tokens`' argument (see its docstring), read once; a
    /// dict's extra special tokens replace the tokenizer's when `replace`,
    /// else those it already has are left out, as they are (transformers
    /// 5 neither adds nor changes them).
    pub(super) fn special_tokens_argument(
        &self,
        tokens: &Bound<'_, PyAny>,
        replace: bool,
    ) -> PyResult<SpecialTokensArgument> {
        let Ok(dict) = tokens.cast::<PyDict>() else {
            let tokens = args::added_tokens(tokens, true, "add_special_tokens", "special_tokens_dict")?;
            let extra = tokens.iter().map(|t| t.content.clone()).collect();
            return Ok(SpecialTokensArgument { tokens, extra, ..SpecialTokensArgument::default() });
        };
        let mut out = SpecialTokensArgument { replace, ..SpecialTokensArgument::default() };
        let existing = if replace { Vec::new() } else { self.settings().extra_special_tokens.clone() };
        let shared = self.inner();
        let o = shared.options();
        for (key, value) in in_transformers_order(dict)? {
            let key: String = key.extract().map_err(|_| {
                PyTypeError::new_err(format!("add_special_tokens: the keys must be str, not {}", type_name(&key)))
            })?;
            let one = |key: &str| -> PyResult<crate::pipeline::model::special_tokens::AddedToken> {
                if !(value.is_instance_of::<PyString>() || value.hasattr("content")?) {
                    return Err(PyTypeError::new_err(format!(
                        "add_special_tokens: {key} must be a str or an AddedToken, not {}",
                        type_name(&value)
                    )));
                }
                let token = args::added_tokens(&value, true, "add_special_tokens", key)?.remove(0);
                if token.content.is_empty() {
                    return Err(PyValueError::new_err(format!("add_special_tokens: {key} must not be empty")));
                }
                Ok(token)
            };
            match key.as_str() {
                "additional_special_tokens" | "extra_special_tokens" => {
                    args::reject_text_as_collection(
                        &value,
                        &format!("add_special_tokens: {key}"),
                        "str or AddedToken",
                    )?;
                    let mut tokens = args::added_tokens(&value, true, "add_special_tokens", &key)?;
                    tokens.retain(|t| !existing.contains(&t.content));
                    out.extra.extend(tokens.iter().map(|t| t.content.clone()));
                    out.tokens.extend(tokens);
                }
                "mask_token" | "bos_token" | "eos_token" => {
                    let token = one(&key)?;
                    out.named.push((key.clone(), token.content.clone()));
                    out.tokens.push(token);
                }
                "pad_token" => {
                    let token = one(&key)?;
                    out.pad = Some(token.content.clone());
                    out.tokens.push(token);
                }
                "unk_token" | "sep_token" | "cls_token" => {
                    let token = one(&key)?;
                    let current = match key.as_str() {
                        "unk_token" => o.unk_token.as_str(),
                        "sep_token" => o.sep_token.as_str(),
                        _ => o.cls_token.as_str(),
                    };
                    if token.content != current {
                        return Err(PyValueError::new_err(format!(
                            "add_special_tokens: {key} {} is not supported: it is the pipeline's, {} \
                             (the keys that add tokens are additional_special_tokens, extra_special_tokens, \
                             mask_token, bos_token, eos_token and pad_token)",
                            Quoted(&token.content),
                            Quoted(current)
                        )));
                    }
                }
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "add_special_tokens: unknown key {} (the keys are additional_special_tokens, \
                         extra_special_tokens, mask_token, bos_token, eos_token, unk_token, sep_token, cls_token \
                         and pad_token)",
                        Quoted(&key)
                    )))
                }
            }
        }
        Ok(out)
    }

    /// After `add_special_tokens`: the named tokens it gave become the
    /// tokenizer's; its extra special tokens replace the tokenizer's (a
    /// dict, as transformers' default does, when it gives some) or extend
    /// them (a list).
    pub(super) fn note_special_tokens(&self, given: SpecialTokensArgument) {
        self.change(|c| {
            for (key, token) in given.named {
                match key.as_str() {
                    "mask_token" => c.mask_token = Some(token),
                    "bos_token" => c.bos_token = Some(token),
                    _ => c.eos_token = Some(token),
                }
            }
            if given.replace {
                if !given.extra.is_empty() {
                    c.extra_special_tokens = given.extra;
                }
            } else {
                for t in given.extra {
                    if !c.extra_special_tokens.contains(&t) {
                        c.extra_special_tokens.push(t);
                    }
                }
            }
        });
    }
}

/// The items of `add_special_tokens`' dict in the order transformers 5 adds
/// them: `additional_special_tokens` takes the place of an empty or None
/// `extra_special_tokens`, or goes last without one (its ids come after
/// the named tokens'); with a non-empty `extra_special_tokens` as well it is
/// a ValueError, as in transformers.
fn in_transformers_order<'py>(dict: &Bound<'py, PyDict>) -> PyResult<Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
    let mut items: Vec<_> = dict.iter().collect();
    let place = |name: &str| items.iter().position(|(k, _)| k.cast::<PyString>().is_ok_and(|k| k == name));
    let Some(additional) = place("additional_special_tokens") else { return Ok(items) };
    match place("extra_special_tokens") {
        Some(extra) if items[extra].1.is_truthy()? => {
            return Err(PyValueError::new_err(
                "add_special_tokens: give additional_special_tokens or extra_special_tokens, not both",
            ))
        }
        Some(extra) => {
            items[extra] = items[additional].clone();
            items.remove(additional);
        }
        None => {
            let item = items.remove(additional);
            items.push(item);
        }
    }
    Ok(items)
}

/// `add_special_tokens`' argument: the tokens to add, in order; the named
/// tokens it sets (`mask_token`, `bos_token`, `eos_token`), and the pad
/// token; its extra special tokens, and whether they replace the
/// tokenizer's (a dict, unless `replace_extra_special_tokens=False`).
#[derive(Default)]
pub(super) struct SpecialTokensArgument {
    pub(super) tokens: Vec<crate::pipeline::model::special_tokens::AddedToken>,
    pub(super) pad: Option<String>,
    named: Vec<(String, String)>,
    extra: Vec<String>,
    pub(super) replace: bool,
}

/// A list of str set by the caller (any iterable of str but a str or
/// bytes), as the setting `name`.
pub(super) fn str_list(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<String>> {
    args::reject_text_as_collection(value, name, "str")?;
    let iter = value.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!("{name} must be a list of str, not {}", type_name(value)))
        })
    })?;
    args::collect(iter, name, 0, |i, t| Ok(args::text(&t, &|| format!("{name}[{i}]"))?.to_owned()))
}

/// A special token set by the caller: a str, or None for none. An empty
/// str is a ValueError (transformers would list it with the unknown
/// token's id).
fn token_setting(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    if !value.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!("{name} must be a str or None, not {}", type_name(value))));
    }
    let token = args::text(value, &|| name.to_owned())?;
    if token.is_empty() {
        return Err(PyValueError::new_err(format!("{name} must not be empty")));
    }
    Ok(Some(token.to_owned()))
}

#[pymethods]
impl PyTokenizer {
    /// Tokenizes like a `transformers` tokenizer: `tokenizer(text=None,
    /// text_pair=None, text_target=None, text_pair_target=None, *,
    /// add_special_tokens=True, padding=False,
    /// truncation=None, max_length=None, stride=0, pad_to_multiple_of=None,
    /// padding_side=None, return_tensors=None, return_token_type_ids=None,
    /// return_attention_mask=None, return_overflowing_tokens=False,
    /// return_special_tokens_mask=False, return_offsets_mapping=False,
    /// return_length=False, split_special_tokens=None,
    /// max_target_length=None)` with transformers' meanings, returning a
    /// `BatchEncoding` (the target's `input_ids` as `labels`). `text` is a
    /// str, a list of str, or a list of `(text, pair)`; a single str gives
    /// unbatched lists.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let call = batch_encoding(slf.py(), Helper::Call)?;
        let all = PyTuple::new(slf.py(), std::iter::once(slf.as_any().clone()).chain(args.iter()).collect::<Vec<_>>())?;
        call.call(all, kwargs)
    }

    /// Pads encoded inputs (a dict of lists, a `BatchEncoding`, or a list of
    /// dicts, as `datasets` and the data collators give them) like
    /// transformers' `tokenizer.pad`: `padding=True`, `max_length=None`,
    /// `pad_to_multiple_of=None`, `padding_side=None`,
    /// `return_attention_mask=None`, `return_tensors=None`.
    #[pyo3(signature = (*args, **kwargs))]
    fn pad<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pad = batch_encoding(slf.py(), Helper::Pad)?;
        let all = PyTuple::new(slf.py(), std::iter::once(slf.as_any().clone()).chain(args.iter()).collect::<Vec<_>>())?;
        pad.call(all, kwargs)
    }

    /// The work of `__call__`: encodes `inputs` (str or `(str, str)` items)
    /// with `encode_batch`'s keyword arguments, with the GIL released, and
    /// returns the rows (each input's encoding, followed by its overflowing
    /// windows when `overflowing`), the rows as int64 numpy arrays keyed by
    /// transformers' names when `tensors` and the rows have one length (else
    /// None), the input each row comes from, and the length of the longest
    /// row (0 without rows). `split_special_tokens`
    /// (None: the tokenizer's) applies to this call only.
    #[pyo3(signature = (inputs, add_special_tokens, overflowing, tensors, split_into_words = false, split_special_tokens = None, **kwargs))]
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn _call_batch<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        #[pyo3(from_py_with = args::named::return_overflowing_tokens)] overflowing: bool,
        tensors: bool,
        #[pyo3(from_py_with = args::named::is_split_into_words)] split_into_words: bool,
        split_special_tokens: Option<&Bound<'py, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(Bound<'py, PyList>, Option<Bound<'py, PyDict>>, Vec<usize>, usize)> {
        let (options, _, _, _) = args::encode_batch_options(add_special_tokens, kwargs, || None)?;
        let shared = self.inner_for(super::compat::split_argument(split_special_tokens)?);
        if tensors {
            arrays::import_numpy(py, "return_tensors")?;
        }
        let encodings = if split_into_words {
            let held = batch_words(inputs)?;
            let words = batch_word_strs(&held)?;
            let mut inputs: Vec<(Sequence<'_>, Option<Sequence<'_>>)> = batch_room(words.len())?;
            inputs.extend(words.iter().map(|(a, b)| (Sequence::Words(a), b.as_deref().map(Sequence::Words))));
            Self::encode_whole_batch(&shared, py, &inputs, &options)?
        } else {
            let utf8 = batch_texts(inputs, "is_split_into_words")?;
            let mut texts: Vec<(&str, Option<&str>)> = batch_room(utf8.len())?;
            texts.extend(utf8.iter().map(|(a, b)| (&**a, b.as_deref())));
            Self::encode_whole_batch(&shared, py, &texts, &options)?
        };
        let (rows, sample) = rows_of(encodings, overflowing);
        let longest = rows.iter().map(Encoding::len).max().unwrap_or(0);
        let length = rows.first().map_or(0, Encoding::len);
        let arrays = if tensors && rows.iter().all(|e| e.len() == length) {
            Some(arrays::numpy_arrays(py, &rows, &CALL_COLUMNS, options.num_threads)?)
        } else {
            None
        };
        let encodings = rows.into_iter().map(|e| Self::encoding(py, &shared, e)).collect::<PyResult<Vec<_>>>()?;
        let list = super::ints::list(py, encodings)?;
        Ok((list, arrays, sample, longest))
    }

    /// The token strings of `text` (and `pair`; an empty one is none, as in
    /// transformers), without the special tokens post-processing adds unless
    /// `add_special_tokens`. With
    /// `split_special_tokens=True` special tokens written in the text are
    /// plain text, with False they are matched (None: the tokenizer's
    /// setting), for this call only, as in transformers. The call's other
    /// keyword arguments (`truncation`, `max_length`, `padding`, ...) are
    /// accepted and change nothing, as in transformers 5
    /// (`batch_encoding.tokenize_keywords`).
    #[pyo3(signature = (text, pair = None, add_special_tokens = false, *, split_special_tokens = None, **kwargs))]
    fn tokenize<'py>(
        &self,
        text: &Bound<'py, PyAny>,
        pair: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        split_special_tokens: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        tokenize_keywords(kwargs, None)?;
        let a = args::text(text, &|| "text".into())?;
        let b = pair.map(|p| args::text(p, &|| "pair".into())).transpose()?;
        let shared = self.inner_for(super::compat::split_argument(split_special_tokens)?);
        // an empty pair is none, as transformers' `tokenize` has it
        let b = b.as_deref().filter(|b| !b.is_empty());
        let encoding = guard(|| shared.encode(&a, b, add_special_tokens))?;
        // Every id has a token: the vocabulary's, or the template's for an id no token has.
        let vocab = shared.vocab();
        let mut tokens: Vec<String> = encoding
            .ids()
            .iter()
            .map(|&id| shared.shown_token(id, vocab.token(id).unwrap_or_default()).to_owned())
            .collect();
        for (i, text) in encoding.shown() {
            tokens[*i as usize] = text.to_string();
        }
        super::ints::text_list(text.py(), &tokens)
    }

    /// The id of a token (the unknown token's id for a token not in the
    /// vocabulary), or a list of ids for a list of tokens.
    fn convert_tokens_to_ids<'py>(&self, tokens: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = tokens.py();
        let unk = self.special_id(&self.inner().options().unk_token);
        let id = |t: &str| self.inner().vocab().id(t).or(unk);
        if tokens.is_instance_of::<PyString>() {
            return match id(&args::text(tokens, &|| "tokens".into())?) {
                Some(id) => super::ints::py_int(py, id.into()),
                None => Ok(py.None().into_bound(py)),
            };
        }
        let wrong =
            || PyTypeError::new_err(format!("tokens must be a str or a list of str, not {}", type_name(tokens)));
        if tokens.is_instance_of::<PyBytes>() || tokens.is_instance_of::<PyByteArray>() {
            return Err(wrong());
        }
        let iter = tokens.try_iter().map_err(|e| args::unless_raised(e, wrong))?;
        let ids = args::collect(iter, "tokens", 0, |i, t| Ok(id(&args::text(&t, &|| format!("tokens[{i}]"))?)))?;
        Ok(super::ints::list_with(py, ids.len(), |i| match ids[i] {
            Some(id) => super::ints::py_int(py, id.into()),
            None => Ok(py.None().into_bound(py)),
        })?
        .into_any())
    }

    /// The token of an id, or a list of tokens for a list of ids (without
    /// those of `all_special_ids` when `skip_special_tokens`, as in
    /// transformers). An id no token has (past the vocabulary, or in a
    /// hole of it) gives None, as transformers' `id_to_token` does; a
    /// negative id or one of 2**32 or more is a ValueError.
    /// `skip_special_tokens` is read as true or false (`if`), as
    /// transformers reads it, and only for a list.
    #[pyo3(signature = (ids, skip_special_tokens = None), text_signature = "($self, ids, skip_special_tokens=False)")]
    fn convert_ids_to_tokens<'py>(
        &self,
        ids: &Bound<'py, PyAny>,
        skip_special_tokens: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = ids.py();
        let shared = self.inner();
        if args::is_one_id(ids)? {
            let id = args::any_id(ids, &|| "ids".to_owned())?;
            return token_or_none(py, shared.id_to_token(id));
        }
        // As in transformers: the ids of `all_special_ids` are skipped (the
        // flag's truth read before the ids, as there).
        let skipped = if args::truthy(skip_special_tokens)? { self.all_special_id_vec() } else { Vec::new() };
        let ids = args::any_ids(ids, "ids")?;
        let tokens: Vec<Option<&str>> =
            ids.iter().filter(|id| !skipped.contains(id)).map(|&id| shared.id_to_token(id)).collect();
        Ok(super::ints::list_with(py, tokens.len(), |i| token_or_none(py, tokens[i]))?.into_any())
    }

    /// Tokens joined back into text by the decoder, as transformers'
    /// `convert_tokens_to_string` (with `decoder="none"`, joined with spaces).
    fn convert_tokens_to_string<'py>(&self, tokens: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
        let held = super::stages::token_texts(tokens)?;
        let shared = self.inner();
        super::stages::joined(tokens.py(), &held, shared.options().joining())
    }

    /// `decode` for each sequence of ids (transformers' name for
    /// `decode_batch`). As in transformers 5, one sequence (a list of ids, a
    /// 1-D array, or an `Encoding`) is decoded as one text, giving a list of
    /// that text, with a FutureWarning (call `decode` for one sequence).
    /// `spaces_between_special_tokens` is taken as `decode` takes it.
    #[pyo3(signature = (sequences, skip_special_tokens = false, clean_up_tokenization_spaces = None, spaces_between_special_tokens = true))]
    fn batch_decode<'py>(
        &self,
        sequences: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::skip_special_tokens)] skip_special_tokens: bool,
        clean_up_tokenization_spaces: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::spaces_between_special_tokens)] spaces_between_special_tokens: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        // Another iterable (a range, a deque, a generator, ...) as the list
        // of its items, which tell one sequence from a batch as a list's do.
        let listed;
        let sequences = if is_other_iterable(sequences)? {
            listed = sequences.py().get_type::<PyList>().call1((sequences,))?;
            &listed
        } else {
            sequences
        };
        if super::compat::is_one_sequence(sequences)? {
            super::compat::warn_one_sequence(sequences.py())?;
            let text = self.decode(
                sequences,
                skip_special_tokens,
                clean_up_tokenization_spaces,
                spaces_between_special_tokens,
            )?;
            return super::ints::list(sequences.py(), vec![text.cast_into::<PyString>()?]);
        }
        // transformers decodes one id among the sequences alone.
        self.decode_sequences(sequences, skip_special_tokens, clean_up_tokenization_spaces, true)
    }

    /// 1 for each special token: with `already_has_special_tokens`, marks the
    /// ids of `all_special_ids` among `token_ids_0` (as transformers does); otherwise the mask of the
    /// `[CLS] A [SEP] (B [SEP])` that post-processing would make of them.
    #[pyo3(signature = (token_ids_0, token_ids_1 = None, already_has_special_tokens = false))]
    fn get_special_tokens_mask(
        &self,
        token_ids_0: &Bound<'_, PyAny>,
        token_ids_1: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::already_has_special_tokens)] already_has_special_tokens: bool,
    ) -> PyResult<Vec<u32>> {
        let n = self.inner().vocab().len();
        let a = args::ids(token_ids_0, "token_ids_0", n)?;
        // The template's ids that no token has are taken, as encodings hold them (not special ids: 0).
        let shared = self.inner();
        assigned(&shared, a.iter().copied().filter(|&id| !shared.is_unassigned(id)))?;
        if already_has_special_tokens {
            if token_ids_1.is_some() {
                return Err(PyValueError::new_err(
                    "token_ids_1 must be None when already_has_special_tokens=True: the ids already hold the pair",
                ));
            }
            let specials = self.all_special_id_vec();
            return Ok(a.iter().map(|id| u32::from(specials.contains(id))).collect());
        }
        let mut mask = vec![1];
        mask.extend(std::iter::repeat_n(0, a.len()));
        mask.push(1);
        if let Some(b) = token_ids_1 {
            let b = args::ids(b, "token_ids_1", n)?;
            assigned(&shared, b.iter().copied().filter(|&id| !shared.is_unassigned(id)))?;
            mask.extend(std::iter::repeat_n(0, b.len()));
            mask.push(1);
        }
        Ok(mask)
    }

    /// Restores what `__reduce__` saved of the settings.
    fn __setstate__(slf: &Bound<'_, Self>, state: &Bound<'_, PyDict>) -> PyResult<()> {
        for (key, value) in state.iter() {
            slf.setattr(key.cast::<PyString>()?, value)?;
        }
        Ok(())
    }

    /// The number of tokens, added ones included (transformers' `len()`,
    /// Hugging Face's `get_vocab_size()`; ids no token has are not counted).
    fn __len__(&self) -> usize {
        self.inner().vocab().count()
    }

    /// Whether the call had already warned that a sequence is longer than
    /// `model_max_length`; the call's warning comes once per tokenizer, as
    /// in transformers, so this marks it as given.
    fn _warned_too_long(&self) -> bool {
        self.warned_too_long.swap(true, std::sync::atomic::Ordering::Relaxed)
    }

    /// Always True: this is a fast (Rust) tokenizer.
    #[getter]
    fn is_fast(&self) -> bool {
        true
    }

    /// The inputs the model takes, as transformers' `model_input_names`:
    /// the call returns `token_type_ids` (and `attention_mask`, which `pad`
    /// adds too) when they are among them, unless it says otherwise. BERT's
    /// `["input_ids", "token_type_ids", "attention_mask"]`, unless read from
    /// a model directory (its `tokenizer_config.json`, else its class:
    /// `["input_ids", "attention_mask"]` for DistilBERT's and the generic
    /// one). A new list each time: set it (a list of str) to change it.
    #[getter]
    fn model_input_names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        super::ints::text_list(py, &self.setting(|s| s.model_input_names.clone()))
    }

    #[setter]
    fn set_model_input_names(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let names = str_list(value, "model_input_names")?;
        self.change(|c| c.model_input_names = names);
        Ok(())
    }

    /// The longest input the model takes: `padding="max_length"` and
    /// truncation without `max_length` use it. 1e30 (transformers'
    /// `VERY_LARGE_INTEGER`) when the model has no maximum; set it to an int.
    #[getter]
    fn model_max_length<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        max_length_value(py, self.setting(|s| s.model_max_length))
    }

    #[setter]
    fn set_model_max_length(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = max_length_arg(value)?;
        self.change(|s| s.model_max_length = n);
        Ok(())
    }

    /// Whether `decode` applies transformers' clean-up (`" n't"` to `"n't"`,
    /// `" ."` to `"."`, ...) when the call does not say: False, unless the
    /// model directory's `tokenizer_config.json` says true.
    #[getter]
    fn clean_up_tokenization_spaces(&self) -> bool {
        self.setting(|s| s.clean_up_tokenization_spaces)
    }

    #[setter]
    fn set_clean_up_tokenization_spaces(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let on = args::flag(value, "clean_up_tokenization_spaces")?;
        self.change(|c| c.clean_up_tokenization_spaces = on);
        Ok(())
    }

    /// Whether special tokens written in the text are plain text (the
    /// pipeline option `split_special_tokens`, as transformers' attribute):
    /// setting it changes how every later call, `tokenize` and `encode`
    /// read them, as in transformers, where a call's
    /// `split_special_tokens` argument defaults to it.
    #[getter]
    fn split_special_tokens(&self) -> bool {
        self.inner().options().split_special_tokens
    }

    #[setter]
    fn set_split_special_tokens(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.split_special(args::flag(value, "split_special_tokens")?);
        Ok(())
    }

    /// Where padding goes by default: `"right"` or `"left"`.
    #[getter]
    fn padding_side(&self) -> String {
        self.setting(|s| s.padding_side).to_string()
    }

    #[setter]
    fn set_padding_side(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let s = side(value, "padding_side")?;
        self.change(|c| c.padding_side = s);
        Ok(())
    }

    /// Where truncation cuts: `"right"` or `"left"`.
    #[getter]
    fn truncation_side(&self) -> String {
        self.setting(|s| s.truncation_side).to_string()
    }

    #[setter]
    fn set_truncation_side(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let s = side(value, "truncation_side")?;
        self.change(|c| c.truncation_side = s);
        Ok(())
    }

    /// How many special tokens post-processing adds to one text, or to a
    /// pair with `pair=True` (0 when BERT's are missing from the
    /// vocabulary); `is_pair=True`, Hugging Face `tokenizers`' name, says
    /// the same.
    #[pyo3(signature = (pair = false, *, is_pair = None))]
    fn num_special_tokens_to_add(
        &self,
        #[pyo3(from_py_with = args::named::pair)] pair: bool,
        #[pyo3(from_py_with = args::named::is_pair)] is_pair: Option<bool>,
    ) -> usize {
        self.inner().added_tokens_count(is_pair.unwrap_or(pair))
    }

    /// The unknown token (None when it is not in the vocabulary).
    #[getter]
    fn unk_token<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        let t = self.inner().options().unk_token.clone();
        token_str(py, self.special_id(&t).map(|_| t))
    }

    /// The unknown token's id (None when it is not in the vocabulary).
    #[getter]
    fn unk_token_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        token_id(py, self.special_id(&self.inner().options().unk_token))
    }

    /// The separator token (None when it is not in the vocabulary).
    #[getter]
    fn sep_token<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        let t = self.inner().options().sep_token.clone();
        token_str(py, self.special_id(&t).map(|_| t))
    }

    /// The separator token's id (None when it is not in the vocabulary).
    #[getter]
    fn sep_token_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        token_id(py, self.special_id(&self.inner().options().sep_token))
    }

    /// The classifier token (None when it is not in the vocabulary).
    #[getter]
    fn cls_token<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        let t = self.inner().options().cls_token.clone();
        token_str(py, self.special_id(&t).map(|_| t))
    }

    /// The classifier token's id (None when it is not in the vocabulary).
    #[getter]
    fn cls_token_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        token_id(py, self.special_id(&self.inner().options().cls_token))
    }

    /// The token padding inserts: `[PAD]` unless the model directory,
    /// `add_special_tokens` or the caller names another (None when it is not
    /// in the vocabulary). Settable (a non-empty str), as in transformers:
    /// the vocabulary does not change; padding then needs the token in it
    /// (with the default padding on, a token not in it is a ValueError).
    #[getter]
    fn pad_token<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        token_str(py, self.present(Some(self.inner().options().pad_token.clone())))
    }

    #[setter]
    fn set_pad_token(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if !value.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!("pad_token must be a str, not {}", type_name(value))));
        }
        let token = token_setting(value, "pad_token")?.expect("a str");
        let inner = self.inner();
        if inner.padding().is_some() && inner.vocab().id(&token).is_none() {
            return Err(PyValueError::new_err(format!(
                "pad_token {} is not in the vocabulary, and the default padding (enable_padding) inserts it",
                crate::error::Quoted(&token)
            )));
        }
        self.pad_with(&token)
    }

    /// The padding token's id (None when it is not in the vocabulary).
    #[getter]
    fn pad_token_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        token_id(py, self.special_id(&self.inner().options().pad_token))
    }

    /// The padding token's type id: 0.
    #[getter]
    fn pad_token_type_id(&self) -> u8 {
        0
    }

    /// The mask token: `[MASK]` unless the model directory or the caller
    /// names another (None when it is not in the vocabulary). Settable (a
    /// str or None), as in transformers: the vocabulary does not change.
    #[getter]
    fn mask_token<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        token_str(py, self.present(self.setting(|s| s.mask_token.clone())))
    }

    #[setter]
    fn set_mask_token(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let token = token_setting(value, "mask_token")?;
        self.change(|c| c.mask_token = token);
        Ok(())
    }

    /// The mask token's id (None when it is not in the vocabulary).
    #[getter]
    fn mask_token_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        token_id(py, self.setting(|s| s.mask_token.clone()).and_then(|t| self.special_id(&t)))
    }

    /// The beginning-of-sequence token: None (BERT has none) unless the
    /// model directory or the caller names one that is in the vocabulary.
    /// Settable (a str or None).
    #[getter]
    fn bos_token<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        token_str(py, self.present(self.setting(|s| s.bos_token.clone())))
    }

    #[setter]
    fn set_bos_token(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let token = token_setting(value, "bos_token")?;
        self.change(|c| c.bos_token = token);
        Ok(())
    }

    /// The beginning-of-sequence token's id (None without one).
    #[getter]
    fn bos_token_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        token_id(py, self.setting(|s| s.bos_token.clone()).and_then(|t| self.special_id(&t)))
    }

    /// The end-of-sequence token: None (BERT has none) unless the model
    /// directory or the caller names one that is in the vocabulary.
    /// Settable (a str or None).
    #[getter]
    fn eos_token<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        token_str(py, self.present(self.setting(|s| s.eos_token.clone())))
    }

    #[setter]
    fn set_eos_token(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let token = token_setting(value, "eos_token")?;
        self.change(|c| c.eos_token = token);
        Ok(())
    }

    /// The end-of-sequence token's id (None without one).
    #[getter]
    fn eos_token_id<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        token_id(py, self.setting(|s| s.eos_token.clone()).and_then(|t| self.special_id(&t)))
    }

    /// transformers' extra special tokens (those without a name of their
    /// own) that are in the vocabulary: a model directory's
    /// `extra_special_tokens` (or `additional_special_tokens`), and those
    /// given to `add_special_tokens`. Settable (a list of str), as in
    /// transformers: the vocabulary does not change.
    #[getter]
    fn extra_special_tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let tokens: Vec<String> =
            self.settings().extra_special_tokens.into_iter().filter(|t| self.special_id(t).is_some()).collect();
        super::ints::text_list(py, &tokens)
    }

    #[setter]
    fn set_extra_special_tokens(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let tokens = str_list(value, "extra_special_tokens")?;
        self.change(|c| c.extra_special_tokens = tokens);
        Ok(())
    }

    /// The special tokens in the vocabulary, as transformers lists them: the
    /// named ones (bos, eos, unk, sep, pad, cls, mask), then the extra ones,
    /// each once.
    #[getter]
    fn all_special_tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        super::ints::text_list(py, &self.all_special())
    }

    /// Their ids, in the same order.
    #[getter]
    fn all_special_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        super::ints::int_list(py, &self.all_special_id_vec())
    }
}

/// The tokens of `ids` (as `id_to_token` gives them); an id in a hole of
/// the vocabulary (a file whose ids skip some) is a ValueError, as decoding
/// it is.
fn assigned(shared: &Shared, ids: impl IntoIterator<Item = u32>) -> PyResult<Vec<&str>> {
    ids.into_iter()
        .map(|id| {
            shared
                .id_to_token(id)
                .ok_or_else(|| PyValueError::new_err(crate::tokenizer::no_token_message(id, shared.vocab().len())))
        })
        .collect()
}

/// A token as a str, or None for none (`convert_ids_to_tokens`' items).
pub(super) fn token_or_none<'py>(py: Python<'py>, token: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    match token {
        Some(token) => Ok(super::ints::py_str(py, token)?.into_any()),
        None => Ok(py.None().into_bound(py)),
    }
}

/// Each encoding, followed by its overflowing windows when `overflowing`
/// (copies, as rows of their own), and the input each row comes from. Every
/// row keeps its own windows, as transformers' rows (`[encoding] +
/// encoding.overflowing`) do: an encoding still has its windows, and a
/// window of a pair its nested ones.
fn rows_of(encodings: Vec<Encoding>, overflowing: bool) -> (Vec<Encoding>, Vec<usize>) {
    let mut rows = Vec::with_capacity(encodings.len());
    let mut sample = Vec::with_capacity(encodings.len());
    for (i, e) in encodings.into_iter().enumerate() {
        let windows = if overflowing { e.overflowing().to_vec() } else { Vec::new() };
        sample.extend(std::iter::repeat_n(i, 1 + windows.len()));
        rows.push(e);
        rows.extend(windows);
    }
    (rows, sample)
}

/// A special token's getter value: its str, or None; a MemoryError, not a
/// panic (pyo3's conversion of a returned `String`), when Python has no
/// room for the str.
fn token_str(py: Python<'_>, token: Option<String>) -> PyResult<Option<Bound<'_, PyString>>> {
    token.map(|t| super::ints::py_str(py, &t)).transpose()
}

/// A special token's id getter value: the int, or None (see [`token_str`]).
fn token_id(py: Python<'_>, id: Option<u32>) -> PyResult<Option<Bound<'_, PyAny>>> {
    id.map(|id| super::ints::py_int(py, id.into())).transpose()
}

impl PyTokenizer {
    /// Reads special tokens written in the text as plain text (`on`) or
    /// matches them, from now on (`split_special_tokens`'s setter).
    pub(super) fn split_special(&self, on: bool) {
        let mut slot = self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        if slot.options().split_special_tokens != on {
            *slot = Arc::new(Shared::new(slot.with_split_special_tokens(on)));
        }
    }
}

/// Whether `batch_decode` reads `obj` as the list of its items: an iterable
/// other than a list, a tuple, an array, an `Encoding`, a dict, text or
/// bytes (whose own rules apply).
fn is_other_iterable(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if obj.is_instance_of::<PyList>()
        || obj.is_instance_of::<PyTuple>()
        || obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<pyo3::types::PyMemoryView>()
        || obj.is_instance_of::<super::encoding::PyEncoding>()
        || obj.hasattr("ndim")?
        || args::is_dict(obj)?
    {
        return Ok(false);
    }
    Ok(obj.try_iter().is_ok())
}
