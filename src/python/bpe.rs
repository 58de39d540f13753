//! `BPETokenizer`: byte-level BPE (GPT-2 style), bound to Python.

use std::sync::Mutex;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::args::{self, text, type_name, Given};
use super::errors::{guard, reading_files, to_py, Signals};
use super::family;
use super::ints::{self, int_list};
use super::train::counting;
use crate::bpe::train::{count_pieces_until, split_at_safe_newlines, train_from_counts};
use crate::bpe::{Bpe, Cache};
use crate::error::{Error, Quoted};
use crate::training::Progress;

/// Texts longer than this are encoded with the GIL released.
const DETACH_BYTES: usize = 1 << 14;

/// Byte-level BPE, GPT-2 style: the GPT-2 pre-tokenizer, each piece's UTF-8
/// bytes as characters, merges applied by rank; Hugging Face's `BPE` model
/// with the `ByteLevel` pre-tokenizer and decoder, exactly. Decoding a whole
/// encoding gives back the text. Build one from a vocabulary and merges,
/// `train` one, or `load` a `tokenizer.json`.
///
/// Calling the tokenizer, `tokenizer(text, ...)`, tokenizes as a
/// `transformers` tokenizer does and returns a `BatchEncoding`;
/// `len(tokenizer)` is the vocabulary size.
#[pyclass(name = "BPETokenizer", module = "fast_wordpiece._native", frozen)]
pub struct PyBpe {
    inner: Bpe,
    pad: family::PadToken,
}

fn special_list(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    match obj {
        None => Ok(vec!["<|endoftext|>".to_string()]),
        Some(o) => {
            let texts = family::special_tokens(o)?;
            Ok(texts.iter().map(|t| t.to_string()).collect())
        }
    }
}

/// `vocab_size` when left out, as in Hugging Face's `BpeTrainer`.
const DEFAULT_VOCAB_SIZE: usize = 30000;

/// The checked training arguments: vocab size, min frequency, special tokens.
fn train_args(
    vocab_size: &Given<'_>,
    min_frequency: Option<&Bound<'_, PyAny>>,
    special_tokens: Option<&Bound<'_, PyAny>>,
) -> PyResult<(usize, u64, Vec<String>)> {
    let vocab_size = args::vocab_size(vocab_size, DEFAULT_VOCAB_SIZE)?;
    let min_frequency = min_frequency.map_or(Ok(2), |m| args::count(m, "min_frequency"))?;
    Ok((vocab_size, min_frequency, special_list(special_tokens)?))
}

/// Learns the merges from piece counts with the GIL released (progress on
/// stderr if `show_progress`; Ctrl-C stops it).
fn train_counts(
    py: Python<'_>,
    counts: Vec<(String, u64)>,
    (vocab_size, min_frequency, specials): (usize, u64, Vec<String>),
    show_progress: bool,
) -> PyResult<PyBpe> {
    let signals = Signals::default();
    let stop = || signals.stop();
    let inner = py.detach(|| {
        guard(|| {
            let mut progress = Progress::new(show_progress, Some(&stop));
            train_from_counts(counts, vocab_size, min_frequency, &specials, &mut progress)
        })
    });
    Ok(PyBpe { inner: signals.result(inner)?, pad: Default::default() })
}

/// Counts the pieces of `texts` (`unit`s of a corpus) with the GIL released,
/// progress on stderr if `show_progress`; Ctrl-C stops it.
fn count_pieces(
    py: Python<'_>,
    texts: &[&str],
    unit: &'static str,
    show_progress: bool,
) -> PyResult<Vec<(String, u64)>> {
    let signals = Signals::default();
    let stop = || signals.stop();
    let counts = py.detach(|| {
        let mut progress = Progress::new(show_progress, None);
        guard(|| {
            counting(&mut progress, "counting pieces", unit, texts.len(), &stop, |hook| count_pieces_until(texts, hook))
        })
    });
    signals.result(counts)
}

/// `text` and `pair` (None when None) of `encode` and `tokenize`, as UTF-8.
fn text_and_pair<'py>(
    text_obj: &Bound<'py, PyAny>,
    pair: Option<&Bound<'py, PyAny>>,
) -> PyResult<(args::Text<'py>, Option<args::Text<'py>>)> {
    let t = text(text_obj, &|| "text".into())?;
    let p = pair.filter(|p| !p.is_none()).map(|p| text(p, &|| "pair".into())).transpose()?;
    Ok((t, p))
}

impl PyBpe {
    /// The ids of `text` (and `pair`), padded as the file's `padding` section says.
    fn ids(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        pair: Option<&Bound<'_, PyAny>>,
        add_special_tokens: bool,
    ) -> PyResult<Vec<u32>> {
        let (t, p) = text_and_pair(text, pair)?;
        let (s, q): (&str, Option<&str>) = (&t, p.as_deref());
        let model = &self.inner;
        let encode = || {
            let mut ids = [model.encode_pair_with(s, q, &mut Cache::default(), add_special_tokens)?];
            model.pad_all(&mut ids)?;
            let [ids] = ids;
            Ok::<_, Error>(ids)
        };
        if s.len() + q.map_or(0, str::len) > DETACH_BYTES {
            py.detach(encode).map_err(to_py)
        } else {
            encode().map_err(to_py)
        }
    }
}

#[pymethods]
impl PyBpe {
    /// A tokenizer from a vocabulary (token -> id, ids 0..n) and merges in
    /// rank order (pairs of tokens, or "a b" strings). `special_tokens`
    /// (default none) are split out of the text before the model;
    /// `unk_token` (default None) stands for a byte the vocabulary lacks,
    /// which is otherwise left out. ValueError for ids with a gap or a token
    /// named that is not in the vocabulary.
    #[new]
    #[pyo3(signature = (vocab, merges, *, special_tokens = None, unk_token = None))]
    fn new(
        vocab: &Bound<'_, PyAny>,
        merges: &Bound<'_, PyAny>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::unk_token)] unk_token: Option<String>,
    ) -> PyResult<Self> {
        let vocab = vocab.cast::<PyDict>().map_err(|_| {
            PyTypeError::new_err(format!("vocab must be a dict of str to int, not {}", type_name(vocab)))
        })?;
        let mut tokens: Vec<Option<String>> = vec![None; vocab.len()];
        for (k, v) in vocab.iter() {
            let token = text(&k, &|| "a vocab key".into())?.to_string();
            let id = args::count(&v, &format!("vocab[{}]", Quoted(&token)))? as usize;
            let slot = tokens.get_mut(id).ok_or_else(|| {
                to_py(Error::invalid(format!(
                    "vocab[{}] = {id}: ids must be 0..{} with no gap",
                    Quoted(&token),
                    vocab.len()
                )))
            })?;
            if slot.replace(token).is_some() {
                return Err(to_py(Error::invalid(format!("id {id} is given to two tokens"))));
            }
        }
        let tokens: Vec<String> = tokens.into_iter().map(|t| t.expect("each id set once")).collect();
        args::reject_text_as_collection(merges, "merges", "pairs of str")?;
        let iter = merges.try_iter().map_err(|e| {
            args::unless_raised(e, || {
                PyTypeError::new_err(format!("merges must be a list of pairs, not {}", type_name(merges)))
            })
        })?;
        let mut pairs = Vec::new();
        for (i, m) in iter.enumerate() {
            let m = m?;
            let what = || format!("merges[{i}]");
            let pair = if m.is_instance_of::<PyString>() {
                args::text(&m, &what)?.split_once(' ').map(|(a, b)| (a.to_string(), b.to_string()))
            } else {
                args::str_pair(&m, &what)?
            };
            pairs.push(pair.ok_or_else(|| {
                PyTypeError::new_err(format!("merges[{i}] must be a pair of str or \"a b\", not {}", type_name(&m)))
            })?);
        }
        let specials = match special_tokens {
            None => Vec::new(),
            Some(o) => family::special_tokens(o)?.iter().map(|t| t.to_string()).collect(),
        };
        let inner = guard(|| Bpe::new(tokens, &pairs, unk_token.as_deref(), &specials))?;
        Ok(PyBpe { inner, pad: Default::default() })
    }

    /// Trains on `corpus`, an iterable of str (or of batches of str: a list
    /// of str is read as its texts): the vocabulary starts with
    /// `special_tokens` (default `["<|endoftext|>"]`) and the 256 byte
    /// characters, then takes merges (the most frequent pair; ties broken
    /// by the pair's strings, so the result never depends on the thread
    /// count) until it has `vocab_size` tokens (default 30,000) or no pair
    /// is seen `min_frequency` times (None: 2). A corpus without a word is
    /// a ValueError. Progress goes to stderr unless `show_progress=False`;
    /// Ctrl-C stops training. Returns the new tokenizer.
    #[staticmethod]
    #[pyo3(signature = (corpus, vocab_size = Given(None), min_frequency = None, *, special_tokens = None, show_progress = true), text_signature = "(corpus, vocab_size=30000, min_frequency=None, *, special_tokens=None, show_progress=True)")]
    fn train(
        py: Python<'_>,
        corpus: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
    ) -> PyResult<Self> {
        let checked = train_args(&vocab_size, min_frequency, special_tokens)?;
        let texts = args::corpus_texts(corpus, "corpus")?;
        let strs = args::strs(&texts)?;
        let counts = count_pieces(py, &strs, "texts", show_progress)?;
        train_counts(py, counts, checked, show_progress)
    }

    /// `train` on UTF-8 text files (read whole; bytes that are not UTF-8 are
    /// a ValueError, a file that cannot be read an OSError).
    #[staticmethod]
    #[pyo3(signature = (paths, vocab_size = Given(None), min_frequency = None, *, special_tokens = None, show_progress = true), text_signature = "(paths, vocab_size=30000, min_frequency=None, *, special_tokens=None, show_progress=True)")]
    fn train_from_files(
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
    ) -> PyResult<Self> {
        let paths = args::paths(paths)?;
        let checked = train_args(&vocab_size, min_frequency, special_tokens)?;
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
        let parts: Vec<&str> = files.iter().flat_map(|t| split_at_safe_newlines(t, 1 << 16)).collect();
        let counts = count_pieces(py, &parts, "parts", show_progress)?;
        train_counts(py, counts, checked, show_progress)
    }

    /// `train` on counted pre-tokenized pieces: a mapping `{piece: count}` or
    /// an iterable of `(piece, count)` pairs, pieces as byte-level strings
    /// (`Ġthe`; ValueError for a character that shows no byte).
    #[staticmethod]
    #[pyo3(signature = (counts, vocab_size = Given(None), min_frequency = None, *, special_tokens = None, show_progress = true), text_signature = "(counts, vocab_size=30000, min_frequency=None, *, special_tokens=None, show_progress=True)")]
    fn train_from_counts(
        py: Python<'_>,
        counts: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
    ) -> PyResult<Self> {
        let mut out = args::text_counts(counts, "counts", args::TEXT_COUNTS, 0)?;
        if let Some(i) = out.iter().position(|(w, _)| w.chars().any(|ch| crate::bpe::bytes::char_byte(ch).is_none())) {
            return Err(to_py(Error::invalid(format!(
                "counts[{i}]: {} is not a byte-level string (every character must show a byte)",
                Quoted(&out.swap_remove(i).0)
            ))));
        }
        let checked = train_args(&vocab_size, min_frequency, special_tokens)?;
        train_counts(py, out, checked, show_progress)
    }

    /// The token ids of `text` (special tokens in it split out first) and,
    /// when `pair` is given, of `pair` after them: in the template of a
    /// file's `RobertaProcessing` (`<s> A </s>`, `<s> A </s></s> B </s>`
    /// for a pair) unless `add_special_tokens=False` (without one, the
    /// pair's ids follow the text's), padded as the file's `padding`
    /// section says (see `padding`).
    #[pyo3(signature = (text, pair = None, *, add_special_tokens = true))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
        pair: Option<&Bound<'py, PyAny>>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        int_list(py, &self.ids(py, text, pair, add_special_tokens)?)
    }

    /// The tokens (byte-level strings) of `text` and of `pair` when given
    /// (an empty one is none), as transformers' `tokenize`: without the special tokens of a file's
    /// template unless `add_special_tokens`, and never padded. A special
    /// token split out of the text shows the whitespace its `lstrip` or
    /// `rstrip` took in (RoBERTa's `<mask>` as `" <mask>"`), as
    /// transformers shows it. The call's other keyword arguments
    /// (`truncation`, `max_length`, `padding`, ...) are accepted and change
    /// nothing, as in transformers 5 (`batch_encoding.tokenize_keywords`).
    #[pyo3(signature = (text, pair = None, *, add_special_tokens = false, **kwargs))]
    fn tokenize<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'_, PyAny>,
        pair: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        super::call::tokenize_keywords(kwargs, Some("BPETokenizer"))?;
        let (t, p) = text_and_pair(text, pair)?;
        // an empty pair is none, as transformers' `tokenize` has it
        let (s, q): (&str, Option<&str>) = (&t, p.as_deref().filter(|p| !p.is_empty()));
        let model = &self.inner;
        let tokens = || model.tokens(s, q, &mut Cache::default(), add_special_tokens);
        let tokens = if s.len() + q.map_or(0, str::len) > DETACH_BYTES {
            py.detach(tokens).map_err(to_py)?
        } else {
            tokens().map_err(to_py)?
        };
        super::ints::text_list(py, &tokens)
    }

    /// `encode` of every item of `texts` (an iterable of str, and of pairs
    /// of str: a tuple, or a list of two), in parallel with the GIL
    /// released, on `num_threads` threads (None: all); with the file's
    /// `padding` section (its `padding` property), each padded to the
    /// longest (or to its fixed length), as Hugging Face's `encode_batch`,
    /// unless `padding=False`.
    #[pyo3(signature = (texts, *, add_special_tokens = true, padding = true, num_threads = None))]
    fn encode_batch<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        #[pyo3(from_py_with = args::named::padding)] padding: bool,
        num_threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let threads = family::threads(num_threads)?;
        let held = family::items(texts)?;
        let n = held.len();
        let mut strs = Error::room_for(n, format_args!("a batch of {n} texts")).map_err(to_py)?;
        strs.extend(held.iter().map(|(a, b)| family::Item(a, b.as_deref())));
        let model = &self.inner;
        // The pieces' cache passes from chunk to chunk, as a thread's did
        // over a whole batch: a fresh one per chunk missed a few percent more.
        let caches = Mutex::new(Vec::<Cache>::new());
        let ids = family::in_chunks(py, &strs, threads, |chunk| {
            let mut cache = caches.lock().ok().and_then(|mut c| c.pop()).unwrap_or_default();
            let ids = family::each_of_chunk(
                chunk.iter().map(|&family::Item(t, p)| model.encode_pair_with(t, p, &mut cache, add_special_tokens)),
            );
            if let Ok(mut c) = caches.lock() {
                c.push(cache);
            }
            ids
        })?;
        let mut ids = family::joined(ids, n)?;
        if padding {
            guard(|| self.inner.pad_all(&mut ids))?;
        }
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
        family::analyze(py, texts, self.inner.vocab_size(), |chunk| self.inner.analyze_part(chunk))
    }

    /// `{token: id}` for the whole vocabulary.
    fn get_vocab<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        family::vocab_dict(py, self.inner.vocab())
    }

    /// The number of tokens in the vocabulary.
    #[getter]
    fn vocab_size(&self) -> usize {
        self.inner.vocab_size()
    }

    /// The merges `(a, b)`, in rank order (the order training made them).
    #[getter]
    fn merges<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        ints::str_pair_list(py, &self.inner.merges())
    }

    /// The special tokens, in id order (not a file's added tokens whose
    /// `special` is false: split out of the text as the others, they are
    /// kept by `decode` and `convert_ids_to_tokens` with
    /// `skip_special_tokens`).
    #[getter(special_tokens)]
    fn special_token_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        ints::text_list(py, &self.inner.special_tokens())
    }

    /// `{token: id}` of the added tokens, special or not (what transformers'
    /// `get_added_vocab` gives): the tokens split out of the text before the
    /// model sees it.
    fn get_added_vocab<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (t, _, _) in self.inner.added_tokens() {
            let id = self.inner.token_to_id(&t);
            out.set_item(t, id)?;
        }
        Ok(out)
    }

    /// The token for bytes the vocabulary lacks, or None.
    #[getter]
    fn unk_token(&self) -> Option<String> {
        self.inner.unk_token().map(str::to_string)
    }

    /// Whether `return_offsets_mapping` leaves out the spaces at either end of
    /// a token, as the `ByteLevel` post-processor of the file it was loaded
    /// from says (`trim_offsets`; true when the file leaves it out). False
    /// for a tokenizer built or trained here; `to_json` and `save` write it.
    #[getter]
    fn trim_offsets(&self) -> bool {
        self.inner.trim_offsets()
    }

    /// Whether trimmed offsets keep the single leading space of the first
    /// token, as the `ByteLevel` post-processor's `add_prefix_space` says
    /// (true when the file leaves it out). Always False without
    /// `trim_offsets`.
    #[getter]
    fn trim_keeps_prefix_space(&self) -> bool {
        self.inner.trim_keeps_prefix_space()
    }

    /// The tokens RoBERTa's template puts before and after each text,
    /// `(cls, sep)` (`<s> A </s>`), from the `RobertaProcessing`
    /// post-processor of the file it was loaded from; None otherwise.
    #[getter]
    fn template(&self) -> Option<(String, String)> {
        let vocab = self.inner.vocab();
        self.inner.template().map(|(c, s)| (vocab[c as usize].clone(), vocab[s as usize].clone()))
    }

    /// `{token: (lstrip, rstrip)}` for the added tokens that take in the
    /// whitespace on their left or right when split out of the text (the
    /// `lstrip` and `rstrip` of the file's added tokens, as RoBERTa's
    /// `<mask>` has); empty for a tokenizer built or trained here.
    #[getter]
    fn special_tokens_strip<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (t, f, _) in self.inner.added_tokens() {
            if f.lstrip || f.rstrip {
                out.set_item(t, (f.lstrip, f.rstrip))?;
            }
        }
        Ok(out)
    }

    /// The file's `padding` section, as `tokenizers`' `Tokenizer.padding`
    /// shows it (`length` None for `BatchLongest`; `direction` "right" or
    /// "left"), or None. `encode` and `encode_batch` apply it (`tokenize`
    /// does not); the call pads as its own `padding=` says.
    #[getter]
    fn padding<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(p) = self.inner.padding() else { return Ok(None) };
        let out = PyDict::new(py);
        out.set_item("length", p.length)?;
        out.set_item("pad_to_multiple_of", p.pad_to_multiple_of)?;
        out.set_item("pad_id", p.pad_id)?;
        out.set_item("pad_token", &p.pad_token)?;
        out.set_item("pad_type_id", p.pad_type_id)?;
        out.set_item("direction", if p.left { "left" } else { "right" })?;
        Ok(Some(out))
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
        u32::try_from(id).ok().and_then(|i| self.inner.id_to_token(i)).map(|t| ints::py_str(py, t)).transpose()
    }

    /// The tokenizer as Hugging Face `tokenizer.json` text.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        ints::py_str(py, &guard(|| self.inner.to_hf_json())?)
    }

    /// A tokenizer from `tokenizer.json` text (what `to_json` writes): a
    /// byte-level BPE model; ValueError naming what is not supported.
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let json = text(json, &|| "json".into())?;
        Ok(PyBpe { inner: guard(|| Bpe::from_hf_json(&json))?, pad: Default::default() })
    }

    /// Saves a Hugging Face `tokenizer.json` (written atomically).
    fn save(&self, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = args::path(path, "path")?;
        guard(|| crate::io::write_atomic(&path, self.inner.to_hf_json()?.as_bytes()))
    }

    /// Loads a Hugging Face `tokenizer.json` with a byte-level BPE model
    /// (see `from_json`); OSError if the file cannot be read.
    #[staticmethod]
    fn load(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        let text = reading_files(py, |stop| crate::io::read_utf8(&path, stop))?;
        Ok(PyBpe {
            inner: guard(|| {
                Bpe::from_hf_json(&text).map_err(|e| Error::InvalidFile { path: path.clone(), message: e.to_string() })
            })?,
            pad: Default::default(),
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<family::Reduced<'py>> {
        let py = slf.py();
        let from_json = py.get_type::<PyBpe>().getattr("from_json")?;
        let json = slf.get().to_json(py)?;
        Ok((from_json, PyTuple::new(py, [json])?, slf.get().pad.get()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyBpe>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __repr__(&self) -> String {
        format!("BPETokenizer(vocab_size={}, merges={})", self.inner.vocab_size(), self.inner.merges().len())
    }
}

impl super::family::TokenOf for PyBpe {
    const CLEANS_UP: bool = false;

    fn token_of(&self, id: u32) -> &str {
        self.inner.id_to_token(id).unwrap_or_default()
    }

    fn text_of(&self, ids: &[u32], skip_special_tokens: bool) -> crate::error::Result<String> {
        self.inner.decode(ids, skip_special_tokens)
    }
}

super::family::transformers_methods!(PyBpe, decode:
    /// The text of `token_ids` (exactly the encoded text for a whole encoding;
    /// bytes that are not valid UTF-8 become U+FFFD), without the special
    /// tokens when `skip_special_tokens`. `clean_up_tokenization_spaces`
    /// is checked and changes nothing, as transformers 5 ignores it for
    /// BPE. An id out of range: ValueError.
);
