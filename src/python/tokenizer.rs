//! `PyTokenizer`: the class, its constructor from a vocabulary, and what it
//! tells about itself. Its other methods are in files by concern: `train`,
//! `encode` (and decode), `serialization` (files and pickling).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, RwLock, Weak};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::args::{self, text, type_name};
use super::encoding::Shared;
use super::errors::{guard, reading_files};
use super::ints;
use crate::error::Error;
use crate::pipeline::model::vocab::Vocab;
pub use crate::tokenizer::pretrained::CallSettings;
use crate::tokenizer::Tokenizer;

/// A WordPiece tokenizer: BERT's pipeline, trained on the true WordPiece
/// objective or loaded from a BERT `vocab.txt`.
///
/// Pipeline options (keyword arguments of every constructor): `lowercase=True`,
/// `strip_accents=None` (follows `lowercase`), `strip_all_marks=False`, `clean_text=True`,
/// `handle_chinese_chars=True`, `pre_tokenizer="bert"` (or `"whitespace"`,
/// `"regex"`, `"wordpunct"`), `unk_token="[UNK]"`, `cls_token="[CLS]"`, `sep_token="[SEP]"`,
/// `pad_token="[PAD]"` (the token padding inserts), `max_input_chars_per_word=100`, `continuing_subword_prefix="##"`,
/// `decoder_cleanup=True`, `post_processor="bert"` (or `"none"`, or a Hugging Face
/// `TemplateProcessing` dict),
/// `decoder="wordpiece"` (or `"none"`), `split_special_tokens=False`. `from_file` / `from_pretrained` read
/// Hugging Face's files, `save` / `save_pretrained` write them.
///
/// `tokenizer(text, text_pair=None, ...)` tokenizes as a `transformers`
/// tokenizer does and returns a `BatchEncoding` (see `__call__`'s arguments
/// in the README); `len(tokenizer)` is the number of tokens in the
/// vocabulary, added tokens included.
#[pyclass(frozen, name = "PyTokenizer", module = "fast_wordpiece")]
pub struct PyTokenizer {
    /// Read through [`Self::inner`]; replaced whole by `add_tokens`.
    pub(super) inner: RwLock<Arc<Shared>>,
    /// What a caller may change, as on transformers' tokenizers.
    pub(super) call: Mutex<CallSettings>,
    /// transformers' `name_or_path`: the directory `from_pretrained` read,
    /// as Python's str for it (a name that is not UTF-8 has its surrogate
    /// escapes), or the str set; None: `""`.
    pub(super) name_or_path: Mutex<Option<Py<PyString>>>,
    /// The tokenizer with the other `split_special_tokens`, made for a call
    /// that asks for it, and the tokenizer it was made from.
    pub(super) split_copy: Mutex<Option<(Weak<Shared>, Arc<Shared>)>>,
    /// Whether a call warned that a sequence is longer than
    /// `model_max_length` (transformers warns once per tokenizer).
    pub(super) warned_too_long: AtomicBool,
}

impl PyTokenizer {
    pub(super) fn wrap(tokenizer: Tokenizer) -> Self {
        Self {
            inner: RwLock::new(Arc::new(Shared::new(tokenizer))),
            call: Mutex::default(),
            name_or_path: Mutex::default(),
            split_copy: Mutex::default(),
            warned_too_long: AtomicBool::new(false),
        }
    }
}

impl PyTokenizer {
    fn add(&self, tokens: &Bound<'_, PyAny>, special: bool) -> PyResult<usize> {
        self.add_parsed(&args::added_tokens(tokens, special, "add_tokens", "new_tokens")?)
    }

    fn add_parsed(&self, tokens: &[crate::pipeline::model::special_tokens::AddedToken]) -> PyResult<usize> {
        let mut slot = self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (tokenizer, count) = guard(|| slot.add_tokens(tokens))?;
        if count > 0 {
            *slot = Arc::new(Shared::new(tokenizer));
        }
        Ok(count)
    }

    /// Pads with `token` from now on (the vocabulary does not change).
    pub(super) fn pad_with(&self, token: &str) -> PyResult<()> {
        let mut slot = self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        if slot.options().pad_token != token {
            *slot = Arc::new(Shared::new(guard(|| slot.with_pad_token(token))?));
        }
        Ok(())
    }
}

#[pymethods]
impl PyTokenizer {
    /// A tokenizer over `vocab` (token strings; id = position).
    #[new]
    #[pyo3(signature = (vocab, *, merges = None, special_tokens = None, **options))]
    fn new(
        vocab: &Bound<'_, PyAny>,
        merges: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        args::reject_text_as_collection(vocab, "vocab", "str")?;
        let tokens = vocab
            .try_iter()
            .map_err(|e| {
                args::unless_raised(e, || {
                    PyTypeError::new_err(format!("vocab must be a list of str, not {}", type_name(vocab)))
                })
            })?
            .enumerate()
            .map(|(i, t)| Ok(text(&t?, &|| format!("vocab[{i}]"))?.to_owned()))
            .collect::<PyResult<Vec<String>>>()?;
        let merges = match merges {
            None => Vec::new(),
            Some(m) => {
                args::reject_text_as_collection(m, "merges", "pairs")?;
                m.try_iter()
                    .map_err(|e| {
                        args::unless_raised(e, || {
                            PyTypeError::new_err(format!("merges must be an iterable of pairs, not {}", type_name(m)))
                        })
                    })?
                    .enumerate()
                    .map(|(i, pair)| args::text_pair(&pair?, &|| format!("merges[{i}]")))
                    .collect::<PyResult<_>>()?
            }
        };
        let specials = args::special_tokens(special_tokens)?;
        let options = args::options(options, "PyTokenizer")?;
        guard(|| Tokenizer::new(Vocab::new(tokens)?, merges, &specials, options)).map(Self::wrap)
    }

    /// Loads a BERT `vocab.txt` (one token per line, id = line number). With
    /// BERT's post-processing (the default), a vocabulary without its
    /// `cls_token` or `sep_token` is a ValueError at once.
    #[staticmethod]
    #[pyo3(signature = (path, *, special_tokens = None, **options))]
    fn from_vocab_file(
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        let specials = args::special_tokens(special_tokens)?;
        let options = args::options(options, "from_vocab_file")?;
        let tokenizer = reading_files(py, |stop| {
            let vocab = Vocab::from_file_with_stop(&path, stop)?;
            let lacks_unk = vocab.id(&options.unk_token).is_none();
            // The unk_token the file lacks is named by the file, as its other errors.
            Tokenizer::new(vocab, Vec::new(), &specials, options).map_err(|e| match e {
                Error::InvalidArgument(message) if lacks_unk && message.starts_with("unk_token ") => {
                    Error::invalid_file(&path, message)
                }
                other => other,
            })
        })?;
        // A vocab.txt is BERT's: the tokens its post-processing adds are needed at once.
        if let Some(token) = tokenizer.missing_special_token() {
            return Err(PyValueError::new_err(format!(
                "{}: {} is not in the vocabulary, and BERT's post-processing adds it \
                 (pass post_processor=\"none\" to load the vocabulary without it)",
                path.display(),
                crate::error::Quoted(token)
            )));
        }
        Ok(Self::wrap(tokenizer))
    }

    /// `{token: id}` for the whole vocabulary; without `with_added_tokens`,
    /// only the model's (as Hugging Face `tokenizers`' `get_vocab`).
    #[pyo3(signature = (with_added_tokens = true))]
    fn get_vocab<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::named::with_added_tokens)] with_added_tokens: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = ints::new_dict(py)?;
        let shared = self.inner();
        let vocab = shared.vocab();
        for (id, token) in vocab.entries().filter(|&(id, _)| with_added_tokens || vocab.in_model(id)) {
            ints::set_str_item(&dict, token, ints::py_int(py, id.into())?)?;
        }
        Ok(dict)
    }

    /// The number of tokens, as Hugging Face `tokenizers`' `get_vocab_size`:
    /// with `with_added_tokens` (the default) every token of `get_vocab()`;
    /// without, only the model's vocabulary (not the added tokens outside
    /// it, such as those `add_tokens` appends).
    #[pyo3(signature = (with_added_tokens = true))]
    fn get_vocab_size(&self, #[pyo3(from_py_with = args::named::with_added_tokens)] with_added_tokens: bool) -> usize {
        let shared = self.inner();
        let vocab = shared.vocab();
        if with_added_tokens {
            vocab.count()
        } else {
            vocab.model_count()
        }
    }

    /// The number of tokens in the model's vocabulary, as transformers'
    /// `vocab_size`: the added tokens outside it (those `add_tokens`
    /// appends) are left out, and so are ids no token has. `len()` counts
    /// every token.
    #[getter(vocab_size)]
    fn vocab_len<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::ints::py_int(py, self.inner().vocab().model_count() as u64)
    }

    /// Whether encoding looks chunks up in the cache of chunks already
    /// encoded (raw text between whitespace bytes -> tokens), one per
    /// thread, bounded in size. On by default (it wins on every
    /// benchmark set, benches/RESULTS.md); the output is the same either
    /// way. Not saved with the tokenizer.
    #[getter]
    fn word_cache(&self) -> bool {
        self.inner().word_cache()
    }

    #[setter]
    fn set_word_cache(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let on = args::flag(value, "word_cache")?;
        self.inner().set_word_cache(on);
        Ok(())
    }

    /// The learned merges `(a, b)`, in the order training made them.
    #[getter]
    fn merges<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        ints::str_pair_list(py, self.inner().merges())
    }

    /// The training objective that made the vocabulary, or None if it was
    /// not trained here (loaded from a vocab.txt).
    #[getter]
    fn objective(&self) -> Option<&'static str> {
        self.inner().objective().map(|o| o.name())
    }

    /// The special tokens present in the vocabulary.
    #[getter]
    fn special_tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        ints::text_list(py, self.inner().special_tokens())
    }

    /// The pipeline options, as keyword arguments for the constructors.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = serde_json::to_string(self.inner().options()).expect("options serialize");
        py.import("json")?.call_method1("loads", (json,))
    }

    /// The id of `token`, or None.
    fn token_to_id<'py>(&self, token: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let id = self.inner().vocab().id(&text(token, &|| "token".into())?);
        id.map(|id| ints::py_int(token.py(), id.into())).transpose()
    }

    /// The token with id `id`, or None past the vocabulary. Negative: ValueError.
    /// An added token the normalizer changes is given in its normalized
    /// form, as encodings show it (and as Hugging Face's `id_to_token` does).
    fn id_to_token<'py>(&self, id: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyString>>> {
        let py = id.py();
        let id = args::count(id, "id")?;
        let shared = self.inner();
        u32::try_from(id).ok().and_then(|id| shared.id_to_token(id)).map(|t| ints::py_str(py, t)).transpose()
    }

    /// Adds `new_tokens` as Hugging Face's `add_tokens` does: each a str or an
    /// `AddedToken`; one the vocabulary lacks gets the next id (and is not
    /// matched inside words by the model), one it has keeps its id. Added
    /// tokens are found in the text before the model, leftmost-longest.
    /// Returns how many were added (not those already added alike).
    /// `special_tokens=True` (transformers' argument) makes them special.
    #[pyo3(signature = (new_tokens, special_tokens = false))]
    fn add_tokens(
        &self,
        new_tokens: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::named::special_tokens)] special_tokens: bool,
    ) -> PyResult<usize> {
        self.add(new_tokens, special_tokens)
    }

    /// `add_tokens` with every token of `special_tokens_dict` special (a str is not normalized;
    /// an `AddedToken` made without `normalized` is not either); a list
    /// extends `extra_special_tokens`. Also takes transformers' dict:
    /// `"additional_special_tokens"` / `"extra_special_tokens"` (a list,
    /// which replaces `extra_special_tokens` as in transformers),
    /// `"mask_token"`, `"bos_token"`, `"eos_token"`, `"pad_token"` (a token,
    /// which becomes that token: padding inserts the pad token), and the
    /// pipeline's `"unk_token"`, `"sep_token"`, `"cls_token"` only as they
    /// are. An empty named token is a ValueError.
    /// `replace_extra_special_tokens=False` (transformers 5's keyword) makes
    /// a dict's list extend `extra_special_tokens` instead, leaving out (not
    /// adding again, flags and all) the tokens already among them.
    #[pyo3(signature = (special_tokens_dict, replace_extra_special_tokens = true))]
    fn add_special_tokens(
        &self,
        special_tokens_dict: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::named::replace_extra_special_tokens)] replace_extra_special_tokens: bool,
    ) -> PyResult<usize> {
        // Read once: it may be an iterator.
        let given = self.special_tokens_argument(special_tokens_dict, replace_extra_special_tokens)?;
        let count = self.add_parsed(&given.tokens)?;
        if let Some(pad) = &given.pad {
            self.pad_with(pad)?;
        }
        self.note_special_tokens(given);
        Ok(count)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Self>().is_ok_and(|o| **o.get().inner() == **self.inner())
    }

    fn __repr__(&self) -> String {
        let shared = self.inner();
        let o = shared.options();
        let py_bool = |b: bool| if b { "True" } else { "False" };
        format!(
            "PyTokenizer(vocab_size={}, lowercase={}, strip_accents={}, pre_tokenizer='{}', merges={}, objective={})",
            self.inner().vocab().model_count(),
            py_bool(o.normalizer.lowercase),
            o.normalizer.strip_accents.map_or("None", py_bool),
            o.pre_tokenizer,
            self.inner().merges().len(),
            self.inner().objective().map_or("None".to_owned(), |o| format!("'{}'", o.name()))
        )
    }
}
