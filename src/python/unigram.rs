//! `UnigramTokenizer` (SentencePiece-style Unigram) and its `UnigramEncoding`:
//! argument checks and the GIL released around encoding and training.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use super::args::{self, text, type_name, Given};
use super::errors::{guard, reading_files, to_py, Signals};
use super::family;
use super::ints::{self, int_list, named_memory_error, new_str_list, offsets_list};
use super::paths::FsPath;
use super::train::counting;
use crate::error::Error;
use crate::tokenizer::pretrained::{CallSettings, FileSections, GENERIC_INPUTS};
use crate::training::Progress;
use crate::unigram::sample::Sampling;
use crate::unigram::trainer::{self, UnigramConfig};
use crate::unigram::{Encoded, UnigramTokenizer, DEFAULT_SPECIAL_TOKENS};

/// A Unigram encoding: `ids`, `tokens`, `offsets` (character spans in the
/// text), `type_ids` and `special_tokens_mask`. `len(encoding)` is the
/// number of tokens.
#[pyclass(frozen, name = "UnigramEncoding", module = "fast_wordpiece")]
pub struct PyUnigramEncoding {
    ids: Vec<u32>,
    tokens: Tokens,
    offsets: Vec<(u32, u32)>,
    /// Per token, or empty when all are 0 (no template): no allocation then.
    type_ids: Vec<u32>,
    /// Per token, or empty when all are 0.
    special: Vec<u8>,
}

/// The tokens' strings, end to end in one allocation, and where each ends:
/// two allocations, reserved at once, for any number of tokens.
struct Tokens {
    text: String,
    ends: Vec<usize>,
}

impl Tokens {
    /// The `n` strs of `strs`, `bytes` long in all (as the caller counted
    /// them); MemoryError when there is no room for them.
    fn new<'a>(n: usize, bytes: usize, strs: impl Iterator<Item = &'a str>) -> PyResult<Self> {
        let (mut text, mut ends) = (String::new(), Vec::new());
        if text.try_reserve_exact(bytes).is_err() || ends.try_reserve_exact(n).is_err() {
            return Err(to_py(Error::memory(format_args!("the tokens of an encoding of {n} tokens ({bytes} bytes)"))));
        }
        for s in strs {
            text.push_str(s);
            ends.push(text.len());
        }
        Ok(Tokens { text, ends })
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.get(i))
    }
}

impl PyUnigramEncoding {
    /// A text's encoding in the tokenizer's template (if any, and when
    /// `add_special_tokens`), with `pair`'s after it.
    fn processed(t: &UnigramTokenizer, e: Encoded, pair: Option<Encoded>, add_special_tokens: bool) -> PyResult<Self> {
        let p = guard(|| t.post_process(e, pair, add_special_tokens))?;
        let mut out = Self::new(t, p.encoded)?;
        out.type_ids = p.type_ids;
        out.special = p.special_mask;
        Ok(out)
    }

    /// MemoryError when there is no room for the tokens' strings.
    fn new(t: &UnigramTokenizer, e: Encoded) -> PyResult<Self> {
        // Each token's piece (not `id_to_token`, a `normalized` added
        // token's normalized form: the model may find its piece), or the
        // text shown for an unknown token or an added token's match
        // (`unknown` is in the order of the tokens).
        let pieces = t.model().pieces();
        let strs = || {
            let mut unknown = e.unknown_texts().peekable();
            e.ids.iter().enumerate().map(move |(i, &id)| match unknown.next_if(|(k, _)| *k as usize == i) {
                Some((_, shown)) => shown,
                None => pieces.get(id as usize).map_or("", |(p, _)| p.as_str()),
            })
        };
        let bytes = strs().fold(0usize, |n, s| n.saturating_add(s.len()));
        let tokens = Tokens::new(e.ids.len(), bytes, strs())?;
        Ok(PyUnigramEncoding { ids: e.ids, tokens, offsets: e.offsets, type_ids: Vec::new(), special: Vec::new() })
    }

    /// Each token's type id (0 for all when none are kept).
    fn type_id_list(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.ids.len()).map(|i| self.type_ids.get(i).copied().unwrap_or(0))
    }

    /// Each token's special mask (0 for all when none are kept).
    fn special_list(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.ids.len()).map(|i| self.special.get(i).copied().unwrap_or(0))
    }
}

/// What `UnigramEncoding.__reduce__` gives `UnigramEncoding._from_state`.
type ReduceArgs<'py> =
    (Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyList>, Bound<'py, PyBytes>, Bound<'py, PyBytes>);

fn state_value_error(what: String) -> PyErr {
    PyValueError::new_err(format!("UnigramEncoding state: {what}"))
}

fn state_type_error(what: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!("UnigramEncoding state: {what} must be {expected}, not {}", type_name(obj)))
}

/// The little-endian `u32`s of a state's bytes.
/// MemoryError when there is no room for them.
fn state_u32s(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u32>> {
    let bytes = obj.cast::<PyBytes>().map_err(|_| state_type_error(what, "bytes", obj))?.as_bytes();
    if bytes.len() % 4 != 0 {
        return Err(state_value_error(format!("{what} must be 4 bytes per value, not {} bytes", bytes.len())));
    }
    let mut values = Vec::new();
    if values.try_reserve_exact(bytes.len() / 4).is_err() {
        let n = bytes.len() / 4;
        return Err(to_py(Error::memory(format_args!("the {what} of an encoding ({n} values)"))));
    }
    values.extend(bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    Ok(values)
}

/// A bytes object of the `n` `values` (little-endian `u32`s), written in
/// place; a MemoryError that names the state of an encoding of `tokens`
/// tokens when Python has no room for it.
fn le_bytes<'py>(
    py: Python<'py>,
    n: usize,
    tokens: usize,
    values: impl Iterator<Item = u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, 4 * n, |buf| {
        for (to, v) in buf.chunks_exact_mut(4).zip(values) {
            to.copy_from_slice(&v.to_le_bytes());
        }
        Ok(())
    })
    .map_err(|e| named_memory_error(py, e, format_args!("the state of an encoding of {tokens} tokens")))
}

#[pymethods]
impl PyUnigramEncoding {
    /// Token ids.
    #[getter]
    fn ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        int_list(py, &self.ids)
    }
    /// Token strings: each token's piece, or for an unknown token its text.
    #[getter]
    fn tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        new_str_list(py, self.tokens.len(), |i| self.tokens.get(i))
    }
    /// `(start, end)` character offsets of each token in the text.
    #[getter]
    fn offsets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        offsets_list(py, &self.offsets)
    }
    /// The type id of each token: 0, or the template's type id of its part
    /// (a pair's second text: 1 without a template).
    #[getter]
    fn type_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let type_ids: Vec<u32> = self.type_id_list().collect();
        int_list(py, &type_ids)
    }
    /// 1 for each special token the template added, 0 for the others.
    #[getter]
    fn special_tokens_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mask: Vec<u32> = self.special_list().map(u32::from).collect();
        int_list(py, &mask)
    }
    fn __len__(&self) -> usize {
        self.ids.len()
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Self>().is_ok_and(|o| {
            let o = o.get();
            o.ids == self.ids
                && o.offsets == self.offsets
                && o.type_id_list().eq(self.type_id_list())
                && o.special_list().eq(self.special_list())
        })
    }
    /// `UnigramEncoding(ids=[...], tokens=[...])`, the lists as Python shows them.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let tokens = new_str_list(py, self.tokens.len(), |i| self.tokens.get(i))?;
        Ok(format!("UnigramEncoding(ids={:?}, tokens={})", self.ids, tokens.repr()?))
    }

    /// Pickling (and `copy`): the ids and offsets as bytes (little-endian
    /// `u32`s), the distinct token strings and which of them each token is,
    /// and each token's type id and special mask (`2 * type_id + mask`),
    /// rebuilt by `_from_state` into an equal encoding.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, ReduceArgs<'py>)> {
        let py = slf.py();
        let this = slf.get();
        let mut strs: Vec<&str> = Vec::new();
        let mut seen = rustc_hash::FxHashMap::default();
        let which = this.tokens.iter().map(|t| {
            *seen.entry(t).or_insert_with(|| {
                strs.push(t);
                strs.len() as u32 - 1
            })
        });
        let n = this.ids.len();
        let which = le_bytes(py, n, n, which)?;
        let strs = super::ints::text_list(py, &strs)?;
        let ids = le_bytes(py, n, n, this.ids.iter().copied())?;
        let offsets = le_bytes(py, 2 * n, n, this.offsets.iter().flat_map(|&(s, e)| [s, e]))?;
        let kinds = this.type_id_list().zip(this.special_list()).map(|(t, m)| t.wrapping_mul(2) | m as u32);
        let kinds = le_bytes(py, n, n, kinds)?;
        Ok((py.get_type::<Self>().getattr("_from_state")?, (ids, offsets, strs, which, kinds)))
    }

    /// The encoding `__reduce__` saved. Not for direct use; a state that is
    /// not one `__reduce__` makes is a TypeError or ValueError.
    #[staticmethod]
    #[pyo3(signature = (ids, offsets, strs, which, kinds = None))]
    fn _from_state(
        ids: &Bound<'_, PyAny>,
        offsets: &Bound<'_, PyAny>,
        strs: &Bound<'_, PyAny>,
        which: &Bound<'_, PyAny>,
        kinds: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let ids = state_u32s(ids, "ids")?;
        let offsets = state_u32s(offsets, "offsets")?;
        let which = state_u32s(which, "which")?;
        let n = ids.len();
        let kinds = match kinds.filter(|k| !k.is_none()) {
            Some(k) => state_u32s(k, "kinds")?,
            None => vec![0; n],
        };
        if kinds.len() != n {
            return Err(state_value_error(format!("{} kinds for {n} ids", kinds.len())));
        }
        if offsets.len() != 2 * n || which.len() != n {
            return Err(state_value_error(format!(
                "{} offsets and {} token indices for {n} ids (want {} and {n})",
                offsets.len(),
                which.len(),
                2 * n
            )));
        }
        let items: Vec<Bound<'_, PyAny>> = match (strs.cast::<PyList>(), strs.cast::<PyTuple>()) {
            (Ok(list), _) => list.iter().collect(),
            (_, Ok(tuple)) => tuple.iter().collect(),
            _ => return Err(state_type_error("strs", "a list of str", strs)),
        };
        let strs = items
            .iter()
            .map(|s| match s.cast::<PyString>() {
                Ok(s) => Ok(s.to_cow()?.into_owned()),
                Err(_) => Err(state_type_error("strs", "a list of str", s)),
            })
            .collect::<PyResult<Vec<String>>>()?;
        if which.iter().any(|&w| w as usize >= strs.len()) {
            return Err(state_value_error(format!("a token index is not below the {} strs", strs.len())));
        }
        let bytes = which.iter().fold(0usize, |n, &w| n.saturating_add(strs[w as usize].len()));
        let tokens = Tokens::new(n, bytes, which.iter().map(|&w| strs[w as usize].as_str()))?;
        let mut pairs = Vec::new();
        if pairs.try_reserve_exact(n).is_err() {
            return Err(to_py(Error::memory(format_args!("the offsets of an encoding of {n} tokens"))));
        }
        pairs.extend(offsets.chunks_exact(2).map(|p| (p[0], p[1])));
        // All 0 (no template): none kept, as `new` keeps none.
        let plain = kinds.iter().all(|&k| k == 0);
        let type_ids = if plain { Vec::new() } else { kinds.iter().map(|k| k >> 1).collect() };
        let special = if plain { Vec::new() } else { kinds.iter().map(|k| (k & 1) as u8).collect() };
        Ok(PyUnigramEncoding { ids, tokens, offsets: pairs, type_ids, special })
    }
}

/// A Unigram tokenizer, SentencePiece style: spaces become "▁" that starts
/// each word (Hugging Face's `Metaspace`), and words are cut into the pieces
/// of highest total log-probability. Build one from `[(piece, score), ...]`,
/// train one, or load a Hugging Face `tokenizer.json`.
///
/// `UnigramTokenizer(vocab, *, unk_token="<unk>", special_tokens=None)`:
/// `vocab` is `[(piece, score), ...]` in id order; `special_tokens` (None:
/// `[unk_token]`) are pieces split out of the text before the model. Calling
/// the tokenizer, `tokenizer(text, ...)`, tokenizes as a `transformers`
/// tokenizer does and returns a `BatchEncoding`; `len(tokenizer)` is the
/// vocabulary size.
#[pyclass(frozen, name = "UnigramTokenizer", module = "fast_wordpiece")]
pub struct PyUnigramTokenizer {
    inner: UnigramTokenizer,
    pad: family::PadToken,
    /// What a model directory said beside the pipeline (`from_pretrained`).
    directory: Mutex<Directory>,
    /// Whether a call warned that a sequence is longer than
    /// `model_max_length` (transformers warns once per tokenizer).
    warned_too_long: AtomicBool,
}

/// The settings of a model directory that a Unigram tokenizer keeps for
/// transformers' calls and `save_pretrained`: `model_max_length`, the
/// sides, the named special tokens `(key, token)` and the extra ones
/// (`call.extra_special_tokens`). `clean_up_tokenization_spaces` and the
/// padding token are the family's (`PadToken`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Directory {
    call: CallSettings,
    named: Vec<(String, String)>,
}

impl Default for Directory {
    fn default() -> Self {
        let model_input_names = GENERIC_INPUTS.iter().map(|&n| n.to_owned()).collect();
        let call = CallSettings { mask_token: None, model_input_names, ..CallSettings::default() };
        Directory { call, named: Vec::new() }
    }
}

/// What `__reduce__` gives `_from_directory_state` for a tokenizer with
/// directory settings: its tokenizer.json, `model_max_length`, the padding
/// and truncation sides, the named and the extra special tokens, the
/// model's inputs.
type DirectoryState = (String, Option<u64>, String, String, Vec<(String, String)>, Vec<String>, Vec<String>);

/// Seeds for sampled encodings made without one: consecutive numbers from a
/// random start (SplitMix64 makes unrelated streams of them), drawn again by
/// each process ([`unseeded`]).
static NEXT_SEED: AtomicU64 = AtomicU64::new(0);
/// The process that drew [`NEXT_SEED`]'s start; 0 before the first draw.
static SEED_OWNER: AtomicU32 = AtomicU32::new(0);

/// The seed of a sampled encoding made without one. Each process starts
/// from a fresh random number, so separate runs differ, and so do a child
/// of `fork()` (a DataLoader worker, say) and its parent and siblings, whose
/// copies of the sequence would otherwise repeat one another's draws.
fn unseeded() -> u64 {
    let pid = std::process::id();
    if SEED_OWNER.load(Ordering::Acquire) != pid {
        // `RandomState` keys come from the OS's random source, once per
        // thread; a forked child copies them, so the process id and the time
        // tell it apart from its parent and siblings.
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        NEXT_SEED.store(RandomState::new().hash_one((pid, now)), Ordering::Relaxed);
        SEED_OWNER.store(pid, Ordering::Release);
    }
    NEXT_SEED.fetch_add(1, Ordering::Relaxed)
}

fn pieces_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(String, f64)>> {
    args::reject_text_as_collection(obj, "vocab", "(str, float) pairs")?;
    let iter = obj.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!("vocab must be a list of (str, float) pairs, not {}", type_name(obj)))
        })
    })?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        let item = item?;
        let pair: (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract().map_err(|_| {
            PyTypeError::new_err(format!("vocab[{i}] must be a (str, float) pair, not {}", type_name(&item)))
        })?;
        let piece = text(&pair.0, &|| format!("vocab[{i}][0]"))?.to_owned();
        if pair.1.is_instance_of::<pyo3::types::PyBool>() {
            return Err(PyTypeError::new_err(format!("vocab[{i}][1] must be float, not bool")));
        }
        let score: f64 = pair
            .1
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("vocab[{i}][1] must be float, not {}", type_name(&pair.1))))?;
        out.push((piece, score));
    }
    Ok(out)
}

fn str_list(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<String>> {
    args::reject_text_as_collection(obj, name, "str")?;
    args::reject_token_mapping(obj, name)?;
    let iter = obj.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!("{name} must be an iterable of str, not {}", type_name(obj)))
        })
    })?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        out.push(text(&item?, &|| format!("{name}[{i}]"))?.to_owned());
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
/// `vocab_size` when left out, as in Hugging Face's `UnigramTrainer`.
const DEFAULT_VOCAB_SIZE: usize = 8000;

/// The parameters of a training method whose first is `first`: the names
/// its keyword arguments may have.
fn train_keywords(first: &str) -> [&str; 8] {
    [
        first,
        "vocab_size",
        "special_tokens",
        "max_piece_length",
        "seed_size",
        "shrinking_factor",
        "num_sub_iterations",
        "show_progress",
    ]
}

fn config(
    vocab_size: &Given<'_>,
    special_tokens: Option<&Bound<'_, PyAny>>,
    max_piece_length: Option<&Bound<'_, PyAny>>,
    seed_size: Option<&Bound<'_, PyAny>>,
    shrinking_factor: Option<&Bound<'_, PyAny>>,
    num_sub_iterations: Option<&Bound<'_, PyAny>>,
) -> PyResult<UnigramConfig> {
    let d = UnigramConfig::default();
    fn given<'a, 'py>(o: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
        o.filter(|v| !v.is_none())
    }
    let positive = |o: Option<&Bound<'_, PyAny>>, name: &str, default: usize| match given(o) {
        Some(v) => args::positive(v, name),
        None => Ok(default),
    };
    let special_tokens = match special_tokens {
        Some(s) if !s.is_none() => str_list(s, "special_tokens")?,
        _ => DEFAULT_SPECIAL_TOKENS.iter().map(|s| s.to_string()).collect(),
    };
    let shrinking_factor = match given(shrinking_factor) {
        None => d.shrinking_factor,
        Some(v) => args::real(v, "shrinking_factor")?,
    };
    let c = UnigramConfig {
        vocab_size: args::vocab_size(vocab_size, DEFAULT_VOCAB_SIZE)?,
        special_tokens,
        max_piece_length: positive(max_piece_length, "max_piece_length", d.max_piece_length)?,
        seed_size: positive(seed_size, "seed_size", d.seed_size)?,
        shrinking_factor,
        num_sub_iterations: positive(num_sub_iterations, "num_sub_iterations", d.num_sub_iterations)?,
    };
    c.validate().map_err(super::errors::to_py)?;
    Ok(c)
}

/// The `nbest` argument, -1 when not given: an integer (`args::index`: an
/// int or a numpy integer, not a bool), -1 or 1..=10000 (spec section 14),
/// whatever its size.
fn nbest_of(given: &Given<'_>) -> PyResult<i64> {
    let Some(obj) = &given.0 else { return Ok(-1) };
    let int = args::index(obj, "nbest")?;
    match int.extract::<i64>() {
        Ok(n) if n == -1 || (1..=10_000).contains(&n) => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "nbest must be -1 (sample from every segmentation) or between 1 and 10000, not {int}"
        ))),
    }
}

/// The sampling `encode` asks for: None without `alpha`. `nbest` (from
/// [`nbest_of`]) is checked with or without it (spec section 14).
fn sampling(
    alpha: Option<&Bound<'_, PyAny>>,
    nbest: i64,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Sampling>> {
    let Some(alpha) = alpha.filter(|a| !a.is_none()) else { return Ok(None) };
    let alpha = args::real(alpha, "alpha")?;
    if !(alpha.is_finite() && alpha > 0.0) {
        return Err(PyValueError::new_err(format!("alpha must be a positive finite number, not {alpha}")));
    }
    let seed = match seed.filter(|s| !s.is_none()) {
        Some(s) => args::count(s, "seed")?,
        None => unseeded(),
    };
    Ok(Some(Sampling { alpha, nbest: if nbest < 0 { None } else { Some(nbest as usize) }, seed }))
}

impl PyUnigramTokenizer {
    fn train_counts(
        py: Python<'_>,
        counts: rustc_hash::FxHashMap<String, u64>,
        c: UnigramConfig,
        show_progress: bool,
    ) -> PyResult<Self> {
        let signals = Signals::default();
        let stop = || signals.stop();
        let trained = py.detach(|| {
            let mut progress = Progress::new(show_progress, None);
            guard(|| trainer::train_with(counts, &c, &stop, &mut progress))
        });
        signals.result(trained).map(PyUnigramTokenizer::wrap)
    }

    /// Counts the words of `texts` (`unit`s of a corpus) with the GIL
    /// released, progress on stderr if `show_progress`; Ctrl-C stops it.
    fn count_words(
        py: Python<'_>,
        texts: &[&str],
        unit: &'static str,
        c: &UnigramConfig,
        show_progress: bool,
    ) -> PyResult<rustc_hash::FxHashMap<String, u64>> {
        let signals = Signals::default();
        let stop = || signals.stop();
        let counts = py.detach(|| {
            let mut progress = Progress::new(show_progress, None);
            guard(|| {
                counting(&mut progress, "counting words", unit, texts.len(), &stop, |hook| {
                    trainer::count_words_until(texts, &c.special_tokens, hook)
                })
            })
        });
        signals.result(counts)
    }
}

#[pymethods]
impl PyUnigramTokenizer {
    #[new]
    #[pyo3(signature = (vocab, *, unk_token = String::from("<unk>"), special_tokens = None), text_signature = "(vocab, *, unk_token='<unk>', special_tokens=None)")]
    fn new(
        vocab: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::named::unk_token)] unk_token: String,
        special_tokens: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let pieces = pieces_arg(vocab)?;
        let special = match special_tokens {
            Some(s) if !s.is_none() => str_list(s, "special_tokens")?,
            _ => vec![unk_token.to_string()],
        };
        guard(|| UnigramTokenizer::new(pieces, &unk_token, &special)).map(PyUnigramTokenizer::wrap)
    }

    /// Trains on `corpus` (an iterable of str, or of batches of str: a list
    /// of str is read as its texts) to `vocab_size` pieces (default 8,000),
    /// `special_tokens` first (None: `["<unk>", "<s>", "</s>"]`; the first is
    /// the unknown token). The other options, None meaning the default:
    /// `max_piece_length` (16 characters), `seed_size` (1,000,000 seed
    /// substrings), `shrinking_factor` (0.75 of the pieces kept per pruning
    /// round, in (0, 1)), `num_sub_iterations` (2 EM iterations per round).
    /// A corpus without a word is a ValueError. Progress goes to stderr
    /// unless `show_progress=False`; Ctrl-C stops training
    /// (KeyboardInterrupt).
    #[staticmethod]
    #[pyo3(signature = (corpus, vocab_size = Given(None), *, special_tokens = None, max_piece_length = None, seed_size = None, shrinking_factor = None, num_sub_iterations = None, show_progress = Given(None), **kwargs), text_signature = "(corpus, vocab_size=8000, *, special_tokens=None, max_piece_length=None, seed_size=None, shrinking_factor=None, num_sub_iterations=None, show_progress=True)")]
    #[allow(clippy::too_many_arguments)]
    fn train(
        py: Python<'_>,
        corpus: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        max_piece_length: Option<&Bound<'_, PyAny>>,
        seed_size: Option<&Bound<'_, PyAny>>,
        shrinking_factor: Option<&Bound<'_, PyAny>>,
        num_sub_iterations: Option<&Bound<'_, PyAny>>,
        show_progress: Given<'_>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        args::no_other_keywords(kwargs, "UnigramTokenizer.train", &train_keywords("corpus"))?;
        // Converted after the keyword check, so that an unexpected keyword is
        // reported first, as Python binds arguments.
        let show_progress = show_progress.0.as_ref().map_or(Ok(true), args::named::show_progress)?;
        let c = config(&vocab_size, special_tokens, max_piece_length, seed_size, shrinking_factor, num_sub_iterations)?;
        let held = args::corpus_texts(corpus, "corpus")?;
        let texts = args::strs(&held)?;
        let counts = Self::count_words(py, &texts, "texts", &c, show_progress)?;
        Self::train_counts(py, counts, c, show_progress)
    }

    /// `train` on the lines of text files (UTF-8; a file that cannot be read
    /// is an OSError).
    #[staticmethod]
    #[pyo3(signature = (paths, vocab_size = Given(None), *, special_tokens = None, max_piece_length = None, seed_size = None, shrinking_factor = None, num_sub_iterations = None, show_progress = Given(None), **kwargs), text_signature = "(paths, vocab_size=8000, *, special_tokens=None, max_piece_length=None, seed_size=None, shrinking_factor=None, num_sub_iterations=None, show_progress=True)")]
    #[allow(clippy::too_many_arguments)]
    fn train_from_files(
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        max_piece_length: Option<&Bound<'_, PyAny>>,
        seed_size: Option<&Bound<'_, PyAny>>,
        shrinking_factor: Option<&Bound<'_, PyAny>>,
        num_sub_iterations: Option<&Bound<'_, PyAny>>,
        show_progress: Given<'_>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        args::no_other_keywords(kwargs, "UnigramTokenizer.train_from_files", &train_keywords("paths"))?;
        // Converted after the keyword check, so that an unexpected keyword is
        // reported first, as Python binds arguments.
        let show_progress = show_progress.0.as_ref().map_or(Ok(true), args::named::show_progress)?;
        let c = config(&vocab_size, special_tokens, max_piece_length, seed_size, shrinking_factor, num_sub_iterations)?;
        let paths = args::paths(paths)?;
        // Ctrl-C (or another signal handler's exception) stops the reading
        // between two files and the counting between two chunks.
        let signals = Signals::default();
        let files = py.detach(|| {
            guard(|| {
                let mut files = Vec::new();
                for p in &paths {
                    if signals.stop() {
                        return Err(crate::error::Error::Interrupted);
                    }
                    files.push(crate::io::read_utf8(p, &|| signals.stop())?);
                }
                Ok(files)
            })
        });
        let files = signals.result(files)?;
        let lines: Vec<&str> = files.iter().flat_map(|s| s.lines()).collect();
        let counts = Self::count_words(py, &lines, "lines", &c, show_progress)?;
        Self::train_counts(py, counts, c, show_progress)
    }

    /// `train` on counted texts: a mapping `{text: count}` or an iterable of
    /// `(text, count)` pairs (each text's words counted `count` times).
    #[staticmethod]
    #[pyo3(signature = (counts, vocab_size = Given(None), *, special_tokens = None, max_piece_length = None, seed_size = None, shrinking_factor = None, num_sub_iterations = None, show_progress = Given(None), **kwargs), text_signature = "(counts, vocab_size=8000, *, special_tokens=None, max_piece_length=None, seed_size=None, shrinking_factor=None, num_sub_iterations=None, show_progress=True)")]
    #[allow(clippy::too_many_arguments)]
    fn train_from_counts(
        py: Python<'_>,
        counts: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        max_piece_length: Option<&Bound<'_, PyAny>>,
        seed_size: Option<&Bound<'_, PyAny>>,
        shrinking_factor: Option<&Bound<'_, PyAny>>,
        num_sub_iterations: Option<&Bound<'_, PyAny>>,
        show_progress: Given<'_>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        args::no_other_keywords(kwargs, "UnigramTokenizer.train_from_counts", &train_keywords("counts"))?;
        // Converted after the keyword check, so that an unexpected keyword is
        // reported first, as Python binds arguments.
        let show_progress = show_progress.0.as_ref().map_or(Ok(true), args::named::show_progress)?;
        let c = config(&vocab_size, special_tokens, max_piece_length, seed_size, shrinking_factor, num_sub_iterations)?;
        let pairs = args::text_counts(counts, "counts", args::TEXT_COUNTS, 0)?;
        let counted = py.detach(|| guard(|| trainer::count_pairs(&pairs, &c.special_tokens)))?;
        Self::train_counts(py, counted, c, show_progress)
    }

    /// Encodes `text` (and `pair` after it) into a `UnigramEncoding`, in the
    /// `TemplateProcessing` template of a loaded file (its special tokens
    /// unless `add_special_tokens=False`; its type ids always): the Viterbi
    /// segmentation, or with `alpha` (a positive float) a sampled one
    /// (subword regularization): from every segmentation (`nbest=-1`) or
    /// from the `nbest` best, with probability proportional to
    /// `P(segmentation) ** alpha`; `seed` (an int) makes the draw repeatable
    /// (the pair's is drawn with `seed + 1`; None: a fresh draw, different in
    /// every call and every process, forked ones included). `nbest` other
    /// than -1 or 1..10000 is a ValueError, with or without `alpha`.
    #[pyo3(signature = (text, pair = None, *, add_special_tokens = true, alpha = None, nbest = Given(None), seed = None), text_signature = "($self, text, pair=None, *, add_special_tokens=True, alpha=None, nbest=-1, seed=None)")]
    #[allow(clippy::too_many_arguments)]
    fn encode(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        pair: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        alpha: Option<&Bound<'_, PyAny>>,
        nbest: Given<'_>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyUnigramEncoding> {
        let nbest = nbest_of(&nbest)?;
        let s = args::text(text, &|| "text".into())?;
        let p = match pair.filter(|p| !p.is_none()) {
            Some(p) => Some(args::text(p, &|| "pair".into())?),
            None => None,
        };
        let sampling = sampling(alpha, nbest, seed)?;
        let t = &self.inner;
        let s: &str = &s;
        // A long n-best search stops at Ctrl-C (or another signal
        // handler's exception, which is then the error).
        let signals = Signals::default();
        let one = |text: &str, k: u64| match &sampling {
            None => guard(|| t.encode(text)),
            Some(sm) => {
                let sm = Sampling { seed: sm.seed.wrapping_add(k), ..*sm };
                guard(|| t.sample_until(text, &sm, &mut || signals.stop()))
            }
        };
        let p: Option<&str> = p.as_deref();
        let both = py.detach(|| {
            let e = one(s, 0)?;
            Ok((e, p.map(|p| one(p, 1)).transpose()?))
        });
        let (e, b) = signals.result(both)?;
        PyUnigramEncoding::processed(t, e, b, add_special_tokens)
    }

    /// `encode` (Viterbi) of every item of `texts` (str, and pairs of str: a
    /// tuple, or a list of two), in parallel with the GIL released, on
    /// `num_threads` threads (None: all); in the template (its pair template
    /// for a pair) unless `add_special_tokens=False`.
    #[pyo3(signature = (texts, *, add_special_tokens = true, num_threads = None))]
    fn encode_batch<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::named::add_special_tokens)] add_special_tokens: bool,
        num_threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let num_threads = family::threads(num_threads)?;
        let held = family::items(texts)?;
        let n = held.len();
        let mut items = Error::room_for(n, format_args!("a batch of {n} texts")).map_err(to_py)?;
        items.extend(held.iter().map(|(a, b)| family::Item(a, b.as_deref())));
        let t = &self.inner;
        // The template applied on the threads too, not after them with the GIL held.
        let chunks = family::in_chunks(py, &items, num_threads, |chunk| {
            family::each_of_chunk(chunk.iter().map(|&family::Item(a, b)| {
                let pair = b.map(|b| t.encode(b)).transpose()?;
                t.post_process(t.encode(a)?, pair, add_special_tokens)
            }))
        })?;
        let mut out = Error::room_for(n, format_args!("the encodings of a batch of {n} texts")).map_err(to_py)?;
        for p in chunks.into_iter().flatten() {
            let mut e = PyUnigramEncoding::new(t, p.encoded)?;
            (e.type_ids, e.special) = (p.type_ids, p.special_mask);
            out.push(e);
        }
        // Not pyo3's conversion of a returned `Vec`: it panics when Python
        // has no room for the list.
        ints::list(py, out)
    }

    /// `{piece: id}` for the whole vocabulary.
    fn get_vocab<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        family::vocab_dict(py, self.inner.model().pieces().iter().map(|(p, _)| p))
    }

    /// `{token: id}` of the added tokens, special or not, in id order (what
    /// transformers' `get_added_vocab` gives): the tokens split out of the
    /// text before the model sees it.
    fn get_added_vocab<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut ids = self.inner.special_ids().to_vec();
        ids.sort_unstable();
        ids.dedup();
        let pieces = self.inner.model().pieces();
        let out = PyDict::new(py);
        for id in ids {
            out.set_item(ints::py_str(py, &pieces[id as usize].0)?, ints::py_int(py, id.into())?)?;
        }
        Ok(out)
    }

    /// The pieces and their scores (log-probabilities), in id order.
    fn get_pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pieces = self.inner.model().pieces();
        ints::list_with(py, pieces.len(), |i| {
            let (piece, score) = &pieces[i];
            Ok(ints::pair(py, ints::py_str(py, piece)?.into_any(), ints::py_float(py, *score)?)?.into_any())
        })
    }

    /// The number of pieces in the vocabulary.
    #[getter(vocab_size)]
    fn vocab_size_of<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        ints::py_int(py, self.inner.vocab_size() as u64)
    }

    /// The piece of text no other piece covers.
    #[getter]
    fn unk_token<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        ints::py_str(py, self.inner.unk_token())
    }

    /// The special tokens, in the order they were given.
    #[getter]
    fn special_tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        ints::text_list(py, &self.inner.special_tokens())
    }

    /// The `TemplateProcessing` post-processor of a loaded file, as
    /// `(single, pair)` in Hugging Face's notation (`("<s>:0 $A:0 </s>:0",
    /// "<s>:0 $A:0 </s>:0 </s>:0 $B:1 </s>:1")`), or None without one.
    #[getter]
    fn template<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        use crate::unigram::template::Template;
        let Some(t) = self.inner.template() else { return Ok(None) };
        let single = ints::py_str(py, &Template::notation(&t.single))?.into_any();
        let pair = ints::py_str(py, &Template::notation(&t.pair))?.into_any();
        ints::pair(py, single, pair).map(Some)
    }

    /// The id of `token`, or None.
    fn token_to_id<'py>(&self, token: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let id = self.inner.token_to_id(&text(token, &|| "token".into())?);
        id.map(|id| ints::py_int(token.py(), id.into())).transpose()
    }

    /// The piece with id `id`, or None beyond the vocabulary. A negative id
    /// is a ValueError, as for every tokenizer.
    fn id_to_token<'py>(&self, id: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyString>>> {
        let py = id.py();
        let id = args::count(id, "id")?;
        u32::try_from(id).ok().and_then(|i| self.inner.id_to_token(i)).map(|t| ints::py_str(py, t)).transpose()
    }

    /// For each of `texts` (an iterable of str), the word each token of
    /// `encode(text, add_special_tokens=False)` comes from: Hugging Face's
    /// word ids (every word of the pre-tokenizer, and every special token
    /// found in the text, is the next word, from 0). In parallel with the
    /// GIL released, on `num_threads` threads (None: all).
    #[pyo3(signature = (texts, *, num_threads = None))]
    fn word_ids<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        num_threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let num_threads = family::threads(num_threads)?;
        let held = family::batch(texts, "texts")?;
        let strs: Vec<&str> = held.iter().map(|t| t.as_ref()).collect();
        let rows = family::encode_each(py, &strs, num_threads, |t| self.inner.encode_words(t).map(|(_, w)| w))?;
        family::id_lists(py, &rows)
    }

    /// Encodes `texts` (an iterable of str, in parallel with the GIL
    /// released) and returns the dict of `PyTokenizer.analyze`, with
    /// `words` the runs of non-whitespace characters and `characters` the
    /// code points of the texts.
    fn analyze<'py>(&self, py: Python<'py>, texts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        family::analyze(py, texts, self.inner.vocab_size(), |chunk| self.inner.analyze_part(chunk))
    }

    /// Writes a Hugging Face `tokenizer.json`, atomically.
    fn save(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = args::path(path, "path")?;
        py.detach(|| guard(|| self.inner.save(&path)))
    }

    /// Reads a Hugging Face `tokenizer.json` with a Unigram model and the
    /// Metaspace pipeline: one this class saved, or one transformers
    /// converted from a SentencePiece model (its `Precompiled` charsmap,
    /// `Replace`, `Strip`, `NFC` and `NFKD` normalizers, DeBERTa-v2's and
    /// Barthez's whitespace regex, any prepend scheme, and the
    /// `WhitespaceSplit` then `Metaspace` pre-tokenizer of transformers 5).
    ///
    /// The file's `padding` and `truncation` sections give `padding_side`,
    /// `truncation_side` and `pad_token` (when it is a token of the
    /// vocabulary), as transformers' `PreTrainedTokenizerFast` of the file
    /// takes them for its calls; `encode` and `encode_batch` do not pad or
    /// truncate.
    #[staticmethod]
    fn from_file<'py>(py: Python<'py>, path: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let path = args::path(path, "path")?;
        let (tokenizer, sections) = reading_files(py, |stop| {
            let text = crate::io::read_utf8(&path, stop)?;
            let tokenizer = UnigramTokenizer::from_json(&text).map_err(|e| match e {
                crate::error::Error::InvalidArgument(m) => crate::error::Error::invalid_file(&path, m),
                e => e,
            })?;
            Ok((tokenizer, FileSections::read(text.as_bytes())))
        })?;
        Self::with_sections(py, tokenizer, sections)
    }

    /// The same as `from_file`.
    #[staticmethod]
    fn load<'py>(py: Python<'py>, path: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        Self::from_file(py, path)
    }

    /// The `tokenizer.json` text that `save` writes.
    fn to_str<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        ints::py_str(py, &self.inner.to_json())
    }

    /// A tokenizer from `tokenizer.json` text (what `to_str` returns), as
    /// `from_file` reads it (with the call settings of its `padding` and
    /// `truncation` sections).
    #[staticmethod]
    fn from_str<'py>(json: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let text = text(json, &|| "json".into())?;
        let tokenizer = guard(|| UnigramTokenizer::from_json(&text))?;
        Self::with_sections(json.py(), tokenizer, FileSections::read(text.as_bytes()))
    }

    /// Pickling (and `copy`): the tokenizer.json text, with the settings
    /// of a model directory (`model_max_length`, the sides, the special
    /// tokens it names) when there are any, and the family's state (the
    /// padding token set, `clean_up_tokenization_spaces`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<family::Reduced<'py>> {
        let py = slf.py();
        let this = slf.get();
        // The text made here (pyo3's conversion of a String panics when Python
        // has no room for it); the tuple of one item by pyo3 still panics.
        let json = ints::py_str(py, &this.inner.to_json())?;
        let directory = this.directory().clone();
        if directory == Directory::default() {
            return Ok((py.get_type::<Self>().getattr("from_str")?, PyTuple::new(py, [json])?, this.pad.get()));
        }
        let c = &directory.call;
        let state = (
            json,
            c.model_max_length,
            c.padding_side.to_string(),
            c.truncation_side.to_string(),
            directory.named.clone(),
            c.extra_special_tokens.clone(),
            c.model_input_names.clone(),
        );
        let args = PyTuple::new(py, [state.into_pyobject(py)?.into_any()])?;
        Ok((py.get_type::<Self>().getattr("_from_directory_state")?, args, this.pad.get()))
    }

    /// The tokenizer `__reduce__` saved with a model directory's settings.
    /// Not for direct use.
    #[staticmethod]
    fn _from_directory_state(state: DirectoryState) -> PyResult<Self> {
        let (json, model_max_length, padding_side, truncation_side, named, extra, model_input_names) = state;
        let out = Self::wrap(guard(|| UnigramTokenizer::from_json(&json))?);
        *out.directory() = Directory {
            call: CallSettings {
                model_max_length,
                padding_side: args::side(&padding_side, "padding_side")?,
                truncation_side: args::side(&truncation_side, "truncation_side")?,
                extra_special_tokens: extra,
                mask_token: None,
                model_input_names,
                ..CallSettings::default()
            },
            named,
        };
        Ok(out)
    }

    /// A tokenizer from a local model directory
    /// (`pretrained_model_name_or_path`), as transformers 5 reads it: its `tokenizer.json` (with any pre-tokenizer `from_file`
    /// reads), the special tokens that `tokenizer_config.json` and
    /// `special_tokens_map.json` name made special (a token the file lacks
    /// gets the next id, as in transformers), the `pad_token` they name,
    /// `model_max_length`, `padding_side` (`"left"` for XLNet's class, as
    /// transformers pads it, unless the config says otherwise),
    /// `truncation_side`, `clean_up_tokenization_spaces` and
    /// `model_input_names` (see that property). Keyword
    /// arguments override the config's keys, as for
    /// `PyTokenizer.from_pretrained` (`subfolder` too); the hub's are
    /// ignored. Never
    /// downloads: a name that is not a directory is a FileNotFoundError, and
    /// so is a directory without a `tokenizer.json`.
    #[staticmethod]
    #[pyo3(signature = (pretrained_model_name_or_path, **kwargs))]
    fn from_pretrained<'py>(
        py: Python<'py>,
        pretrained_model_name_or_path: &Bound<'py, PyAny>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, Self>> {
        let dir = super::pretrained::model_dir(
            &args::path(pretrained_model_name_or_path, "pretrained_model_name_or_path")?,
            kwargs,
        )?;
        let overrides = match kwargs {
            Some(kwargs) => super::pretrained::overrides(kwargs)?,
            None => serde_json::Map::new(),
        };
        if let Some(key) = super::pretrained::BERT_PIPELINE_KEYWORDS.iter().find(|k| overrides.contains_key(**k)) {
            return Err(super::pretrained::not_for_unigram(key));
        }
        let loaded = reading_files(py, |stop| UnigramTokenizer::from_pretrained_with(&dir, &overrides, stop))?;
        let pad = loaded.pad_token().map(str::to_owned);
        let out = Self::wrap(loaded.tokenizer);
        out.pad.set_clean_up(loaded.call.clean_up_tokenization_spaces);
        // The named tokens are kept in `named` alone (as pickling keeps them).
        let call = CallSettings {
            bos_token: None,
            eos_token: None,
            mask_token: None,
            clean_up_tokenization_spaces: false,
            ..loaded.call
        };
        let named = loaded.named.into_iter().map(|(k, t)| (k.to_owned(), t)).collect();
        *out.directory() = Directory { call, named };
        let out = Bound::new(py, out)?;
        if let Some(pad) = pad {
            out.get().pad.set(out.as_any(), "family_checked_pad_token", &PyString::new(py, &pad))?;
        }
        Ok(out)
    }

    /// Writes `tokenizer.json`, `tokenizer_config.json` and
    /// `special_tokens_map.json` into `save_directory` (created if needed), for
    /// `transformers.AutoTokenizer.from_pretrained` (transformers' generic
    /// class, which takes the tokenizer.json as it is), with
    /// `model_max_length` when set, `padding_side`, `truncation_side`,
    /// `clean_up_tokenization_spaces`, the `pad_token` and the special
    /// tokens `from_pretrained` read; returns their paths. transformers'
    /// `legacy_format`, `filename_prefix` and `push_to_hub` as for
    /// `PyTokenizer.save_pretrained`.
    #[pyo3(
        signature = (save_directory, legacy_format=None, filename_prefix=None, push_to_hub=None, save_format=None),
        text_signature = "($self, save_directory, legacy_format=None, filename_prefix=None, push_to_hub=False, save_format=None)"
    )]
    fn save_pretrained(
        slf: &Bound<'_, Self>,
        save_directory: &Bound<'_, PyAny>,
        legacy_format: Option<&Bound<'_, PyAny>>,
        filename_prefix: Option<&Bound<'_, PyAny>>,
        push_to_hub: Option<&Bound<'_, PyAny>>,
        save_format: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<FsPath>> {
        let py = slf.py();
        let dir = args::path(save_directory, "save_directory")?;
        super::pretrained::save_keywords(legacy_format, filename_prefix, push_to_hub, save_format)?;
        let this = slf.get();
        let Directory { mut call, mut named } = this.directory().clone();
        call.clean_up_tokenization_spaces = this.pad.clean_up();
        // The padding token as it is now (set, or by name).
        let pad: Option<String> = this.pad.token(slf.as_any())?.extract()?;
        named.retain(|(k, _)| k != "pad_token");
        named.extend(pad.map(|pad| ("pad_token".to_owned(), pad)));
        let pairs: Vec<(&str, &str)> = named.iter().map(|(k, t)| (k.as_str(), t.as_str())).collect();
        let paths = py.detach(|| guard(|| this.inner.save_pretrained(&dir, &call, &pairs)))?;
        Ok(paths.into_iter().map(FsPath).collect())
    }

    /// Where padding goes when the call does not say: `"right"` or
    /// `"left"` (`from_pretrained` reads it from the model directory;
    /// XLNet's pads on the left). Setting anything else is a ValueError.
    #[getter]
    fn padding_side(&self) -> String {
        self.directory().call.padding_side.to_string()
    }

    #[setter]
    fn set_padding_side(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let side = super::call::side(value, "padding_side")?;
        self.directory().call.padding_side = side;
        Ok(())
    }

    /// Where the call's truncation cuts a text that is too long: `"right"`
    /// (its last tokens go) or `"left"` (its first ones go), as
    /// transformers' `truncation_side`. `from_pretrained` reads it from the
    /// model directory (tokenizer_config.json, else the `direction` of
    /// tokenizer.json's `truncation` section). Setting anything else is a
    /// ValueError.
    #[getter]
    fn truncation_side(&self) -> String {
        self.directory().call.truncation_side.to_string()
    }

    #[setter]
    fn set_truncation_side(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let side = super::call::side(value, "truncation_side")?;
        self.directory().call.truncation_side = side;
        Ok(())
    }

    /// The inputs the model takes, as transformers' `model_input_names`:
    /// the call returns `token_type_ids` and `attention_mask` by default
    /// when they are listed. `["input_ids", "attention_mask"]` (transformers'
    /// generic class) unless `from_pretrained` read otherwise: the
    /// config's `model_input_names`, else those of the class transformers
    /// picks (DeBERTa-v2's and FNet's take `token_type_ids`; FNet's no
    /// `attention_mask`). Set it to a list of str.
    #[getter]
    fn model_input_names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let names = self.directory().call.model_input_names.clone();
        super::ints::text_list(py, &names)
    }

    #[setter]
    fn set_model_input_names(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let names = super::call::str_list(value, "model_input_names")?;
        self.directory().call.model_input_names = names;
        Ok(())
    }

    /// The longest input the model takes: `padding="max_length"` and
    /// truncation without `max_length` use it. 1e30 (transformers'
    /// `VERY_LARGE_INTEGER`) when the model has no maximum, as without a
    /// model directory; set it to an int.
    #[getter]
    fn model_max_length<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.directory().call.model_max_length;
        super::call::max_length_value(py, n)
    }

    #[setter]
    fn set_model_max_length(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = super::call::max_length_arg(value)?;
        self.directory().call.model_max_length = n;
        Ok(())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Self>().is_ok_and(|o| {
            let o = &o.get().inner;
            o.model().pieces() == self.inner.model().pieces()
                && o.model().unk_id() == self.inner.model().unk_id()
                && o.model().vocab_len() == self.inner.model().vocab_len()
                && o.special_ids() == self.inner.special_ids()
                && o.added_flags() == self.inner.added_flags()
                && o.special_tokens() == self.inner.special_tokens()
        })
    }

    fn __repr__(&self) -> String {
        format!("UnigramTokenizer(vocab_size={}, unk_token={:?})", self.inner.vocab_size(), self.inner.unk_token())
    }

    /// Whether the call had already warned that a sequence is longer than
    /// `model_max_length`; the call's warning comes once per tokenizer, as
    /// in transformers, so this marks it as given.
    fn _warned_too_long(&self) -> bool {
        self.warned_too_long.swap(true, Ordering::Relaxed)
    }
}

impl PyUnigramTokenizer {
    /// `tokenizer` with the sides and padding token of its file's sections
    /// (a padding token the vocabulary lacks is left out, as one that
    /// cannot pad).
    fn with_sections<'py>(
        py: Python<'py>,
        tokenizer: UnigramTokenizer,
        sections: FileSections,
    ) -> PyResult<Bound<'py, Self>> {
        let out = Self::wrap(tokenizer);
        {
            let mut directory = out.directory();
            directory.call.padding_side = sections.padding_side.unwrap_or_default();
            directory.call.truncation_side = sections.truncation_side.unwrap_or_default();
        }
        let pad = sections.pad_token.filter(|t| out.inner.token_to_id(t).is_some());
        let out = Bound::new(py, out)?;
        if let Some(pad) = pad {
            out.get().pad.set(out.as_any(), "family_checked_pad_token", &PyString::new(py, &pad))?;
        }
        Ok(out)
    }

    /// The number of pieces (the `vocab_size` getter's, for the shared methods).
    fn vocab_size(&self) -> usize {
        self.inner.vocab_size()
    }

    fn wrap(inner: UnigramTokenizer) -> Self {
        PyUnigramTokenizer {
            inner,
            pad: Default::default(),
            directory: Default::default(),
            warned_too_long: AtomicBool::new(false),
        }
    }

    fn directory(&self) -> std::sync::MutexGuard<'_, Directory> {
        self.directory.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl super::family::TokenOf for PyUnigramTokenizer {
    fn token_of(&self, id: u32) -> &str {
        self.inner.id_to_token(id).unwrap_or_default()
    }

    fn text_of(&self, ids: &[u32], skip_special_tokens: bool) -> crate::error::Result<String> {
        self.inner.decode(ids, skip_special_tokens)
    }
}

super::family::transformers_methods!(PyUnigramTokenizer, decode:
    /// The text of `token_ids`: the pieces joined, the first one's leading "▁"
    /// dropped and every other "▁" a space; without the special tokens when
    /// `skip_special_tokens`; with `clean_up_tokenization_spaces=True`,
    /// transformers' clean-up (" ." to ".", " n't" to "n't", ...). An id
    /// out of range: ValueError.
);
