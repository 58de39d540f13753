//! `PyTokenizer`: training, encoding, decoding, saving and loading.

use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::args::{self, text, type_name, ReturnTensors};
use super::arrays;
use super::encoding::{PyEncoding, Shared};
use super::errors::{guard, to_py};
use crate::tokenizer::batch::EncodeOptions;
use crate::tokenizer::core::{Options, Tokenizer};
use crate::tokenizer::vocab::Vocab;
use crate::training::{train_tokenizer, Progress, TrainerConfig, Utf8Errors, WordCounter};

/// Texts pulled from a Python iterable per batch, so that a generator over a
/// huge corpus streams through bounded memory.
const BATCH_TEXTS: usize = 8192;
const BATCH_BYTES: usize = 8 << 20;
/// Texts longer than this are encoded with the GIL released.
const DETACH_BYTES: usize = 4096;

/// A WordPiece tokenizer: BERT's pipeline, trained on the true WordPiece
/// objective or loaded from a BERT `vocab.txt`.
///
/// Pipeline options (keyword arguments of every constructor): `lowercase=True`,
/// `strip_accents=None` (follows `lowercase`), `clean_text=True`,
/// `handle_chinese_chars=True`, `pre_tokenizer="bert"` (or `"whitespace"`,
/// `"regex"`), `unk_token="[UNK]"`, `cls_token="[CLS]"`, `sep_token="[SEP]"`,
/// `max_input_chars_per_word=100`.
#[pyclass(frozen, name = "PyTokenizer", module = "fast_wordpiece")]
pub struct PyTokenizer {
    inner: Arc<Shared>,
}

impl PyTokenizer {
    fn wrap(tokenizer: Tokenizer) -> Self {
        Self { inner: Arc::new(Shared::new(tokenizer)) }
    }

    fn encoding(&self, inner: crate::Encoding) -> PyEncoding {
        PyEncoding::new(inner, Arc::clone(&self.inner))
    }

    /// `encode_batch` without padding, as a list of `Encoding`s whose lists
    /// (those the caller reads, see `Shared::lists_to_make`) are made on this
    /// thread, holding the GIL, while the pool is still encoding the rest of
    /// the batch. Ctrl-C stops it between chunks.
    fn encode_batch_streamed<'py>(
        &self,
        py: Python<'py>,
        texts: &[(&str, Option<&str>)],
        options: &EncodeOptions,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut slots: Vec<Option<Py<PyEncoding>>> = Vec::with_capacity(texts.len());
        slots.resize_with(texts.len(), || None);
        let mut failure = None;
        py.detach(|| {
            guard(|| {
                self.inner.encode_batch_streamed(texts, options, |start, chunk| {
                    let made = Python::attach(|py| {
                        for (slot, encoding) in slots[start..].iter_mut().zip(chunk) {
                            let encoding = PyEncoding::made_ahead(py, encoding, Arc::clone(&self.inner))?;
                            *slot = Some(Py::new(py, encoding)?);
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
        let lost = || PyRuntimeError::new_err("internal error in fast_wordpiece (please report): an encoding was lost");
        PyList::new(py, slots.into_iter().map(|slot| slot.ok_or_else(lost)).collect::<PyResult<Vec<_>>>()?)
    }
}

/// Interrupt hook: true once Python has a pending signal such as Ctrl-C.
fn python_interrupted() -> bool {
    Python::attach(|py| py.check_signals().is_err())
}

fn trainer_config(
    vocab_size: &Bound<'_, PyAny>,
    min_frequency: Option<&Bound<'_, PyAny>>,
    special_tokens: Option<&Bound<'_, PyAny>>,
) -> PyResult<TrainerConfig> {
    Ok(TrainerConfig {
        vocab_size: args::positive(vocab_size, "vocab_size")?,
        min_frequency: min_frequency.map_or(Ok(2), |m| args::count(m, "min_frequency"))?,
        special_tokens: args::special_tokens(special_tokens)?,
    })
}

/// Learns the vocabulary from word counts with the GIL released.
fn learn(
    py: Python<'_>,
    counts: Vec<(String, u64)>,
    config: TrainerConfig,
    options: Options,
    show_progress: bool,
) -> PyResult<PyTokenizer> {
    py.detach(|| {
        let mut progress = Progress::new(show_progress, Some(&python_interrupted));
        guard(|| train_tokenizer(counts, &config, options, &mut progress))
    })
    .map(PyTokenizer::wrap)
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
            .map_err(|_| PyTypeError::new_err(format!("vocab must be a list of str, not {}", type_name(vocab))))?
            .enumerate()
            .map(|(i, t)| Ok(text(&t?, &|| format!("vocab[{i}]"))?.to_owned()))
            .collect::<PyResult<Vec<String>>>()?;
        let merges = match merges {
            None => Vec::new(),
            Some(m) => m
                .try_iter()?
                .enumerate()
                .map(|(i, pair)| {
                    pair?
                        .extract::<(String, String)>()
                        .map_err(|_| PyTypeError::new_err(format!("merges[{i}] must be a pair of str")))
                })
                .collect::<PyResult<_>>()?,
        };
        let specials = args::special_tokens(special_tokens)?;
        let options = args::options(options, "PyTokenizer")?;
        guard(|| Tokenizer::new(Vocab::new(tokens)?, merges, &specials, options)).map(Self::wrap)
    }

    /// Trains a tokenizer on `corpus`, an iterable of str (a list or a
    /// generator, pulled in batches), to `vocab_size` tokens.
    ///
    /// Merges maximise `freq(ab) / (freq(a) * freq(b))` exactly; ties go to the
    /// larger pair frequency, then the smaller `a`, then the smaller `b`.
    /// Pairs seen fewer than `min_frequency` times are never merged. The
    /// vocabulary starts with `special_tokens`, then the alphabet; if those
    /// alone exceed `vocab_size`, they are all kept. Progress goes to stderr
    /// unless `show_progress=False`; Ctrl-C stops training.
    #[staticmethod]
    #[pyo3(signature = (corpus, vocab_size, min_frequency = None, *, special_tokens = None, show_progress = true, **options))]
    fn train(
        py: Python<'_>,
        corpus: &Bound<'_, PyAny>,
        vocab_size: &Bound<'_, PyAny>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        show_progress: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        args::reject_text_as_collection(corpus, "corpus", "str")?;
        let iter = corpus.try_iter().map_err(|_| {
            PyTypeError::new_err(format!("corpus must be an iterable of str, not {}", type_name(corpus)))
        })?;
        let config = trainer_config(vocab_size, min_frequency, special_tokens)?;
        let options = args::options(options, "train")?;
        let mut counter = WordCounter::new(&options);
        let mut progress = Progress::new(show_progress, None);
        progress.start("counting words", "texts", corpus.len().ok().map(|n| n as u64));
        let mut iter = iter.enumerate();
        loop {
            let (mut items, mut bytes, mut first) = (Vec::with_capacity(BATCH_TEXTS), 0, None);
            for (i, item) in iter.by_ref() {
                let item = item?;
                bytes += item.cast::<PyString>().map_or(0, |s| s.len().unwrap_or(0));
                first.get_or_insert(i);
                items.push(item);
                if items.len() >= BATCH_TEXTS || bytes >= BATCH_BYTES {
                    break;
                }
            }
            let Some(first) = first else { break };
            let texts = items
                .iter()
                .enumerate()
                .map(|(j, item)| text(item, &|| format!("corpus[{}]", first + j)))
                .collect::<PyResult<Vec<&str>>>()?;
            py.detach(|| {
                guard(|| {
                    counter.add_texts(&texts);
                    Ok(())
                })
            })?;
            py.check_signals()?;
            progress.advance(texts.len() as u64).map_err(to_py)?;
        }
        progress.finish();
        learn(py, counter.into_counts(), config, options, show_progress)
    }

    /// Trains on text files, streamed in chunks of whole lines (a file larger
    /// than memory is fine). Every file is opened before work starts.
    /// `errors="strict"` fails on bytes that are not UTF-8, naming the file and
    /// offset; `errors="replace"` replaces them with U+FFFD.
    #[staticmethod]
    #[pyo3(signature = (paths, vocab_size, min_frequency = None, *, errors = "strict", special_tokens = None, show_progress = true, **options))]
    #[allow(clippy::too_many_arguments)]
    fn train_from_files(
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        vocab_size: &Bound<'_, PyAny>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        errors: &str,
        special_tokens: Option<&Bound<'_, PyAny>>,
        show_progress: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let paths = args::paths(paths)?;
        let errors = match errors {
            "strict" => Utf8Errors::Strict,
            "replace" => Utf8Errors::Replace,
            other => {
                return Err(PyValueError::new_err(format!("errors must be \"strict\" or \"replace\", not {other:?}")))
            }
        };
        let config = trainer_config(vocab_size, min_frequency, special_tokens)?;
        let options = args::options(options, "train_from_files")?;
        let counts = py.detach(|| {
            let mut progress = Progress::new(show_progress, Some(&python_interrupted));
            let mut counter = WordCounter::new(&options);
            guard(|| counter.add_files(&paths, errors, &mut progress)).map(|_| counter.into_counts())
        })?;
        learn(py, counts, config, options, show_progress)
    }

    /// Trains on precomputed word counts (`{word: count}`, words already
    /// normalized and pre-tokenized), e.g. counted elsewhere at scale.
    #[staticmethod]
    #[pyo3(signature = (counts, vocab_size, min_frequency = None, *, special_tokens = None, show_progress = true, **options))]
    fn train_from_counts(
        py: Python<'_>,
        counts: &Bound<'_, PyAny>,
        vocab_size: &Bound<'_, PyAny>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        show_progress: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let items = counts.call_method0("items").map_err(|_| {
            PyTypeError::new_err(format!("counts must be a dict of str to int, not {}", type_name(counts)))
        })?;
        let mut words = Vec::new();
        for pair in items.try_iter()? {
            let pair = pair?;
            let (word, count): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair.extract()?;
            let word = text(&word, &|| "counts keys".into())?.to_owned();
            let n = args::positive(&count, &format!("counts[{word:?}]"))? as u64;
            words.push((word, n));
        }
        words.sort_unstable();
        let config = trainer_config(vocab_size, min_frequency, special_tokens)?;
        let options = args::options(options, "train_from_counts")?;
        learn(py, words, config, options, show_progress)
    }

    /// Loads a BERT `vocab.txt` (one token per line, id = line number).
    #[staticmethod]
    #[pyo3(signature = (path, *, special_tokens = None, **options))]
    fn from_vocab_file(
        path: &Bound<'_, PyAny>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        let specials = args::special_tokens(special_tokens)?;
        let options = args::options(options, "from_vocab_file")?;
        guard(|| Tokenizer::new(Vocab::from_file(&path)?, Vec::new(), &specials, options)).map(Self::wrap)
    }

    /// Encodes `text` (and `pair`, for a pair of sequences). With
    /// `add_special_tokens`, the result is `[CLS] text [SEP] pair [SEP]`.
    ///
    /// Keyword arguments, as in Hugging Face `tokenizers`: `max_length`
    /// (None: no truncation) with `truncation` (`"longest_first"`,
    /// `"only_first"`, `"only_second"` or `"do_not_truncate"`), `stride`
    /// (tokens shared by consecutive windows in `Encoding.overflowing`) and
    /// `truncation_side` (`"right"` or `"left"`); `padding` (None, `"longest"`
    /// or `"max_length"`) with `pad_to_multiple_of` and `padding_side`.
    #[pyo3(signature = (text, pair = None, add_special_tokens = true, **kwargs), text_signature = "(self, text, pair=None, add_special_tokens=True, *, max_length=None, truncation='longest_first', stride=0, truncation_side='right', padding=None, pad_to_multiple_of=None, padding_side='right')")]
    fn encode(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        pair: Option<&Bound<'_, PyAny>>,
        add_special_tokens: bool,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyEncoding> {
        let a = args::text(text, &|| "text".into())?;
        let b = pair.map(|p| args::text(p, &|| "pair".into())).transpose()?;
        let (options, _) = args::encode_options(add_special_tokens, kwargs, "encode")?;
        let work = || guard(|| self.inner.encode_with(a, b, &options));
        let encoding = if a.len() + b.map_or(0, str::len) > DETACH_BYTES { py.detach(work)? } else { work()? };
        Ok(self.encoding(encoding))
    }

    /// Encodes many texts in parallel with the GIL released. Items are str,
    /// or `(text, pair)` tuples. Takes `encode`'s keyword arguments (padding
    /// `"longest"` pads to the longest of the batch), and `return_tensors`:
    /// None for a list of `Encoding`, `"np"` for a dict of int64 numpy arrays
    /// `input_ids`, `attention_mask`, `token_type_ids` (n × length) and
    /// `offsets` (n × length × 2), which needs encodings of equal length.
    /// `num_threads` sets how many threads work on this call; None uses
    /// `RAYON_NUM_THREADS`, else one per CPU. Without padding, the calling
    /// thread is one of them: it makes each finished encoding's list of ids
    /// (and of offsets, once you read offsets) while the others encode the
    /// rest, so reading them afterwards costs nothing; Ctrl-C stops it.
    #[pyo3(signature = (inputs, add_special_tokens = true, **kwargs), text_signature = "(self, inputs, add_special_tokens=True, *, max_length=None, truncation='longest_first', stride=0, truncation_side='right', padding=None, pad_to_multiple_of=None, padding_side='right', return_tensors=None, num_threads=None)")]
    fn encode_batch<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyAny>,
        add_special_tokens: bool,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        args::reject_text_as_collection(inputs, "inputs", "str or (str, str)")?;
        let iter = inputs
            .try_iter()
            .map_err(|_| PyTypeError::new_err(format!("inputs must be a list of str, not {}", type_name(inputs))))?;
        let (options, return_tensors) = args::encode_options(add_special_tokens, kwargs, "encode_batch")?;
        let numpy = match return_tensors {
            ReturnTensors::List => None,
            ReturnTensors::Numpy => Some(arrays::import_numpy(py)?),
        };
        let mut held: Vec<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> = Vec::new();
        for (i, item) in iter.enumerate() {
            let item = item?;
            if let Ok(t) = item.cast::<PyTuple>() {
                if t.len() != 2 {
                    return Err(PyTypeError::new_err(format!("inputs[{i}] must be str or a (str, str) pair")));
                }
                held.push((t.get_item(0)?, Some(t.get_item(1)?)));
            } else {
                held.push((item, None));
            }
        }
        let texts = held
            .iter()
            .enumerate()
            .map(|(i, (a, b))| {
                let a = args::text(a, &|| format!("inputs[{i}]"))?;
                let b = b.as_ref().map(|b| args::text(b, &|| format!("inputs[{i}][1]"))).transpose()?;
                Ok((a, b))
            })
            .collect::<PyResult<Vec<_>>>()?;
        if numpy.is_none() && options.padding.is_none() {
            return self.encode_batch_streamed(py, &texts, &options).map(Bound::into_any);
        }
        // Padding needs the whole batch: encode it all, asking Python between
        // chunks whether Ctrl-C (or another signal handler) wants it stopped.
        let mut failure = None;
        let encodings = py.detach(|| {
            guard(|| {
                self.inner.encode_batch_until(&texts, &options, || {
                    Python::attach(|py| py.check_signals()).map_err(|e| failure = Some(e)).is_err()
                })
            })
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let encodings = encodings?;
        match numpy {
            Some(numpy) => arrays::numpy_arrays(&numpy, &encodings, options.threads).map(Bound::into_any),
            None => PyList::new(py, encodings.into_iter().map(|e| self.encoding(e))).map(Bound::into_any),
        }
    }

    /// Turns ids back into text (`##` pieces glued, spaces before punctuation
    /// removed). Ids outside the vocabulary raise ValueError.
    #[pyo3(signature = (ids, skip_special_tokens = false))]
    fn decode(&self, ids: &Bound<'_, PyAny>, skip_special_tokens: bool) -> PyResult<String> {
        let ids = args::ids(ids, "ids", self.inner.vocab().len())?;
        guard(|| self.inner.decode(&ids, skip_special_tokens))
    }

    /// `decode` for each sequence of ids.
    #[pyo3(signature = (sequences, skip_special_tokens = false))]
    fn decode_batch(&self, sequences: &Bound<'_, PyAny>, skip_special_tokens: bool) -> PyResult<Vec<String>> {
        args::reject_text_as_collection(sequences, "sequences", "sequences of int")?;
        sequences
            .try_iter()?
            .enumerate()
            .map(|(i, ids)| {
                let ids = args::ids(&ids?, &format!("sequences[{i}]"), self.inner.vocab().len())?;
                guard(|| self.inner.decode(&ids, skip_special_tokens))
            })
            .collect()
    }

    /// `{token: id}` for the whole vocabulary.
    fn get_vocab<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (id, token) in self.inner.vocab().tokens().iter().enumerate() {
            dict.set_item(token, id)?;
        }
        Ok(dict)
    }

    /// The number of tokens in the vocabulary.
    #[getter]
    fn vocab_size(&self) -> usize {
        self.inner.vocab().len()
    }

    /// The learned merges `(a, b)`, in the order training made them.
    #[getter]
    fn merges(&self) -> Vec<(String, String)> {
        self.inner.merges().to_vec()
    }

    /// The special tokens present in the vocabulary.
    #[getter]
    fn special_tokens(&self) -> Vec<String> {
        self.inner.special_tokens().to_vec()
    }

    /// The pipeline options, as keyword arguments for the constructors.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = serde_json::to_string(self.inner.options()).expect("options serialize");
        py.import("json")?.call_method1("loads", (json,))
    }

    /// The id of `token`, or None.
    fn token_to_id(&self, token: &str) -> Option<u32> {
        self.inner.vocab().id(token)
    }

    /// The token with id `id`, or None past the vocabulary. Negative: ValueError.
    fn id_to_token(&self, id: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let id = args::count(id, "id")?;
        Ok(u32::try_from(id).ok().and_then(|id| self.inner.vocab().token(id)).map(str::to_owned))
    }

    /// Writes the tokenizer (vocabulary, merges, options) as one JSON file,
    /// atomically.
    fn save(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = args::path(path, "path")?;
        py.detach(|| guard(|| self.inner.save(&path)))
    }

    /// Reads a file written by `save`.
    #[staticmethod]
    fn load(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        py.detach(|| guard(|| Tokenizer::load(&path))).map(Self::wrap)
    }

    /// Writes the vocabulary as a BERT `vocab.txt`, atomically.
    fn save_vocab(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = args::path(path, "path")?;
        py.detach(|| guard(|| self.inner.save_vocab(&path)))
    }

    /// The tokenizer file's content, as a str.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// A tokenizer from the content of a tokenizer file.
    #[staticmethod]
    fn from_json(json: &str) -> PyResult<Self> {
        guard(|| Tokenizer::from_json(json)).map(Self::wrap)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<Self>().getattr("from_json")?, (self.inner.to_json(),)))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Self>().is_ok_and(|o| **o.get().inner == **self.inner)
    }

    fn __repr__(&self) -> String {
        let o = self.inner.options();
        let py_bool = |b: bool| if b { "True" } else { "False" };
        format!(
            "PyTokenizer(vocab_size={}, lowercase={}, strip_accents={}, pre_tokenizer='{}', merges={})",
            self.inner.vocab().len(),
            py_bool(o.normalizer.lowercase),
            o.normalizer.strip_accents.map_or("None", py_bool),
            o.pre_tokenizer,
            self.inner.merges().len()
        )
    }
}
