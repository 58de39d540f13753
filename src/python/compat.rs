//! The attributes of transformers' tokenizers that training code reads
//! beside the calls of `call.rs`: `special_tokens_map`, the added
//! vocabulary (`added_tokens_decoder`, `added_tokens_encoder`,
//! `get_added_vocab`), `vocab`, `name_or_path`, the longest inputs without
//! special tokens (`max_len_single_sentence`, `max_len_sentences_pair`) and
//! `save_vocabulary`; and `batch_decode` of one sequence, as transformers 5
//! takes it.

use std::sync::Arc;

use pyo3::exceptions::{PyFileNotFoundError, PyFutureWarning, PyNotADirectoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::args::{self, type_name};
use super::encoding::{PyEncoding, Shared};
use super::ints;
use super::paths::{path_str, FsPath};
use super::tokenizer::PyTokenizer;
use crate::pipeline::model::special_tokens::AddedToken;

/// transformers' `SPECIAL_TOKENS_ATTRIBUTES`, in its order.
const NAMED_TOKENS: [&str; 7] =
    ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"];

/// What `batch_decode` says when it is given one sequence of ids.
const ONE_SEQUENCE: &std::ffi::CStr = c"batch_decode was given one sequence of ids, not a list of sequences: it is \
decoded as one text, as transformers 5 does (transformers deprecates this); call decode for one sequence";

impl PyTokenizer {
    /// The added vocabulary as Hugging Face's has it: the special tokens
    /// given to the constructor (special, not normalized) and the added
    /// tokens, with their ids, in id order.
    fn added_vocabulary(&self) -> Vec<(u32, AddedToken)> {
        let shared = self.inner();
        let plain = shared.plain_special_tokens().into_iter().map(|content| AddedToken {
            content,
            special: true,
            ..AddedToken::default()
        });
        let mut all: Vec<(u32, AddedToken)> = plain
            .chain(shared.added_tokens().iter().cloned())
            .filter_map(|t| shared.vocab().id(&t.content).map(|id| (id, t)))
            .collect();
        all.sort_by_key(|(id, _)| *id);
        all
    }
}

impl PyTokenizer {
    /// The tokenizer a call encodes with: the current one, or, when the
    /// call's `split_special_tokens` (None: the tokenizer's) differs from
    /// its own, a copy with it (kept for the next such call until tokens
    /// are added).
    pub(super) fn inner_for(&self, split_special_tokens: Option<bool>) -> Arc<Shared> {
        let shared = self.inner();
        let Some(split) = split_special_tokens.filter(|&s| s != shared.options().split_special_tokens) else {
            return shared;
        };
        let mut slot = self.split_copy.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((base, copy)) = slot.as_ref() {
            if base.upgrade().is_some_and(|b| Arc::ptr_eq(&b, &shared)) {
                return Arc::clone(copy);
            }
        }
        let copy = Arc::new(Shared::new(shared.with_split_special_tokens(split)));
        *slot = Some((Arc::downgrade(&shared), Arc::clone(&copy)));
        copy
    }
}

/// A call's `split_special_tokens`: None (the tokenizer's own) or a bool.
pub(super) fn split_argument(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<bool>> {
    match value {
        Some(v) if !v.is_none() => Ok(Some(args::flag(v, "split_special_tokens")?)),
        _ => Ok(None),
    }
}

/// Whether `batch_decode` was given one sequence rather than a batch: an
/// `Encoding`, a dict or a `BatchEncoding` (its `"input_ids"`), a non-empty
/// list or tuple whose first item is one id, or a non-empty array of one
/// dimension (transformers 5 decodes these as one text). Another iterable
/// is read as the list of its items first (see `batch_decode`).
pub(super) fn is_one_sequence(sequences: &Bound<'_, PyAny>) -> PyResult<bool> {
    if sequences.is_instance_of::<PyEncoding>() || args::is_dict(sequences)? {
        return Ok(true);
    }
    if sequences.is_instance_of::<PyList>() || sequences.is_instance_of::<PyTuple>() {
        return Ok(sequences.len()? > 0 && args::is_one_id(&sequences.get_item(0)?)?);
    }
    Ok(sequences.hasattr("ndim")?
        && sequences.getattr("ndim")?.extract::<usize>().is_ok_and(|n| n == 1)
        && sequences.len().is_ok_and(|n| n > 0))
}

/// `batch_decode`'s warning for one sequence, as a Python `FutureWarning`.
pub(super) fn warn_one_sequence(py: Python<'_>) -> PyResult<()> {
    PyErr::warn(py, &py.get_type::<PyFutureWarning>(), ONE_SEQUENCE, 1)
}

#[pymethods]
impl PyTokenizer {
    /// The named special tokens that are set, as transformers 5's
    /// `special_tokens_map`: `{"unk_token": "[UNK]", ...}` in transformers'
    /// order (bos, eos, unk, sep, pad, cls, mask), without the extra ones.
    #[getter]
    fn special_tokens_map<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let map = PyDict::new(slf.py());
        for name in NAMED_TOKENS {
            let token = slf.getattr(name)?;
            if !token.is_none() {
                map.set_item(name, token.str()?)?;
            }
        }
        Ok(map)
    }

    /// `{id: AddedToken}` for the added vocabulary, in id order, as
    /// transformers' `added_tokens_decoder`: the special tokens (special,
    /// not normalized) and the tokens `add_tokens` / `add_special_tokens`
    /// added, with their flags. A new dict of new `AddedToken`s each time.
    #[getter(added_tokens_decoder)]
    fn added_tokens_by_id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let class = args::python_class(py, "fast_wordpiece.added_token", "AddedToken")?;
        let out = ints::new_dict(py)?;
        let flag = |on: bool| pyo3::types::PyBool::new(py, on).to_owned().into_any();
        for (id, t) in self.added_vocabulary() {
            let flags = ints::new_dict(py)?;
            ints::set_str_item(&flags, "single_word", flag(t.single_word))?;
            ints::set_str_item(&flags, "lstrip", flag(t.lstrip))?;
            ints::set_str_item(&flags, "rstrip", flag(t.rstrip))?;
            ints::set_str_item(&flags, "normalized", flag(t.normalized))?;
            ints::set_str_item(&flags, "special", flag(t.special))?;
            let token = class.call((ints::py_str(py, &t.content)?,), Some(&flags))?;
            out.set_item(ints::py_int(py, id.into())?, token)?;
        }
        Ok(out)
    }

    /// `{id: AddedToken}` for the added vocabulary: `added_tokens_decoder`,
    /// under Hugging Face `tokenizers`' name.
    fn get_added_tokens_decoder<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.added_tokens_by_id(py)
    }

    /// `{token: id}` for the added vocabulary (`added_tokens_decoder`), in
    /// id order, as transformers' `added_tokens_encoder`.
    #[getter]
    fn added_tokens_encoder<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.get_added_vocab(py)
    }

    /// `{token: id}` for the added vocabulary (`added_tokens_decoder`), in
    /// id order, as transformers' `get_added_vocab()`.
    fn get_added_vocab<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = ints::new_dict(py)?;
        for (id, t) in self.added_vocabulary() {
            ints::set_str_item(&out, &t.content, ints::py_int(py, id.into())?)?;
        }
        Ok(out)
    }

    /// The tokenizer under Hugging Face `tokenizers`' defaults, as
    /// transformers' `backend_tokenizer` (a `BackendTokenizer`: `decode`
    /// drops special tokens unless told otherwise, `encode` takes
    /// `is_pretokenized` second by position; the rest is this tokenizer's).
    #[getter]
    fn backend_tokenizer<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        args::python_class(slf.py(), "fast_wordpiece.backend", "BackendTokenizer")?.call1((slf,))
    }

    /// `text` with transformers' clean-up rules applied (`" ."` to `"."`,
    /// `" n't"` to `"n't"`, ...), as transformers' `clean_up_tokenization`:
    /// what `decode(..., clean_up_tokenization_spaces=True)` does to its text.
    fn clean_up_tokenization(&self, text: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut text = args::text(text, &|| "text".to_owned())?.to_owned();
        crate::pipeline::decoder::clean_up_tokenization(&mut text);
        Ok(text)
    }

    /// `{token: id}` for the whole vocabulary: `get_vocab()`, as
    /// transformers' `vocab` property.
    #[getter(vocab)]
    fn vocab_property<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.call_method0("get_vocab")
    }

    /// The directory `from_pretrained` read (as given, as `os.fsdecode`
    /// gives it), else `""`, as transformers' `name_or_path`. Settable (any
    /// str, surrogate escapes too); pickling keeps it.
    #[getter]
    fn name_or_path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        match &*self.name_or_path.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) {
            Some(name) => Ok(name.bind(py).clone()),
            None => ints::py_str(py, ""),
        }
    }

    #[setter]
    fn set_name_or_path(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if !value.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!("name_or_path must be a str, not {}", type_name(value))));
        }
        // Any str, as it is: the one from_pretrained gave for a directory whose name is not
        // UTF-8 has surrogate escapes, and pickling sets it back.
        let name = value.cast::<PyString>()?.clone().unbind();
        *self.name_or_path.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(name);
        Ok(())
    }

    /// Whether the normalizer lowercases (the `lowercase` option), as
    /// transformers' BERT tokenizers' `do_lower_case`.
    #[getter]
    fn do_lower_case(&self) -> bool {
        self.inner().options().normalizer.lowercase
    }

    /// Whether the normalizer strips accents (the `strip_accents` option;
    /// None: when it lowercases), as transformers' BERT tokenizers'
    /// `strip_accents`.
    #[getter]
    fn strip_accents(&self) -> Option<bool> {
        self.inner().options().normalizer.strip_accents
    }

    /// Whether the normalizer puts spaces around CJK ideographs (the
    /// `handle_chinese_chars` option), as transformers' BERT tokenizers'
    /// `tokenize_chinese_chars`.
    #[getter]
    fn tokenize_chinese_chars(&self) -> bool {
        self.inner().options().normalizer.handle_chinese_chars
    }

    /// `split_special_tokens` under Hugging Face `tokenizers`' name: whether
    /// special tokens written in the text are plain text. Settable (a bool).
    #[getter]
    fn encode_special_tokens(&self) -> bool {
        self.inner().options().split_special_tokens
    }

    #[setter]
    fn set_encode_special_tokens(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.split_special(args::flag(value, "encode_special_tokens")?);
        Ok(())
    }

    /// `model_max_length` minus the special tokens one text gets
    /// (`num_special_tokens_to_add()`), as in transformers.
    #[getter]
    fn max_len_single_sentence<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let added = slf.get().inner().added_tokens_count(false);
        slf.getattr("model_max_length")?.sub(added)
    }

    /// `model_max_length` minus the special tokens a pair of texts gets
    /// (`num_special_tokens_to_add(pair=True)`), as in transformers.
    #[getter]
    fn max_len_sentences_pair<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let added = slf.get().inner().added_tokens_count(true);
        slf.getattr("model_max_length")?.sub(added)
    }

    /// Writes the vocabulary (every token, added ones too, one a line in id
    /// order, as `save_vocab`) to `vocab.txt` in `save_directory`, or
    /// `{filename_prefix}-vocab.txt`; returns a tuple of that one path. The
    /// directory must exist (NotADirectoryError or FileNotFoundError
    /// otherwise, where transformers logs an error and returns None).
    #[pyo3(signature = (save_directory, filename_prefix = None))]
    fn save_vocabulary<'py>(
        slf: &Bound<'py, Self>,
        save_directory: &Bound<'py, PyAny>,
        filename_prefix: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let dir = args::path(save_directory, "save_directory")?;
        let name = match filename_prefix {
            Some(p) if !p.is_none() => {
                if !p.is_instance_of::<PyString>() {
                    return Err(PyTypeError::new_err(format!(
                        "filename_prefix must be a str or None, not {}",
                        type_name(p)
                    )));
                }
                let prefix = args::text(p, &|| "filename_prefix".to_owned())?;
                if prefix.is_empty() {
                    "vocab.txt".to_owned()
                } else {
                    format!("{}-vocab.txt", &*prefix)
                }
            }
            _ => "vocab.txt".to_owned(),
        };
        // OSError(errno, message, filename), as the twin raises: `str(e)` is
        // "[Errno 2] save_directory does not exist: '<dir>'". Another failure
        // to look at it (EACCES, ELOOP) is the OS's own error.
        match std::fs::metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(PyNotADirectoryError::new_err((20, "save_directory is not a directory", FsPath(dir))));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(PyFileNotFoundError::new_err((2, "save_directory does not exist", FsPath(dir))));
            }
            Err(e) => return Err(super::errors::to_py(crate::error::Error::io(&dir, e))),
        }
        let path = path_str(slf.py(), &dir.join(name))?;
        slf.call_method1("save_vocab", (&path,))?;
        PyTuple::new(slf.py(), [path])
    }
}
