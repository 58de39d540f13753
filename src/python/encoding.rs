//! `Encoding`: the result of `encode`, readable like the dict of the seed
//! tutorial (`enc["ids"]`) and as attributes (`enc.ids`). Python lists are
//! built only for the fields that are read.

use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering};
use std::sync::Arc;

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::IntoPyObjectExt;

use super::ints::{int_list, offsets_list, str_list};
use crate::encoding::Encoding;
use crate::tokenizer::Tokenizer;

const KEYS: [&str; 6] = ["ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids"];

/// The tokens of one encoded text or pair: ids, token strings, character
/// offsets into the original text, and the masks a BERT model takes.
///
/// `len(encoding)` is the number of tokens; `encoding["ids"]` (and the other
/// names `keys()` lists) reads a field as a dict would, any other key being
/// a KeyError.
#[pyclass(frozen, name = "Encoding", module = "fast_wordpiece")]
pub struct PyEncoding {
    /// Held in place: an encoding is 40 bytes (its columns in one
    /// allocation), so the Python object stays small (64 bytes of contents)
    /// without a box, an allocation and a free more per encoding.
    inner: Encoding,
    tokenizer: Owner,
    /// Lists `encode_batch` made while the rest of the batch was still
    /// encoding; the first read of a field takes its list, later reads build
    /// their own (every read gets a list of its own, as always).
    ahead_ids: AheadList,
    ahead_offsets: AheadList,
}

/// How an encoding keeps the tokenizer that made it: an `Arc` of its own
/// (`encode`), or a Python reference to a holder that every encoding of one
/// `encode_batch` shares. Counting a Python reference is a plain increment
/// (the GIL serialises it); an `Arc` count is a locked instruction, which
/// waits for every store before it, and making and freeing a batch's
/// encodings then waited on the misses of their own fresh or cold memory:
/// a twentieth of `[e.ids for e in encode_batch(lines)]`, in time though
/// not in instructions.
enum Owner {
    Own(Arc<Shared>),
    Batch(Py<BatchOwner>),
}

/// The tokenizer of a batch's encodings (see [`Owner`]); not exported.
#[pyclass(frozen, name = "_BatchOwner", module = "fast_wordpiece")]
pub struct BatchOwner(Arc<Shared>);

impl BatchOwner {
    pub fn new(py: Python<'_>, shared: Arc<Shared>) -> PyResult<Py<Self>> {
        Py::new(py, Self(shared))
    }
}

impl Owner {
    fn shared(&self) -> &Shared {
        match self {
            Owner::Own(shared) => shared,
            Owner::Batch(owner) => &owner.get().0,
        }
    }

    fn clone_ref(&self, py: Python<'_>) -> Self {
        match self {
            Owner::Own(shared) => Owner::Own(Arc::clone(shared)),
            Owner::Batch(owner) => Owner::Batch(owner.clone_ref(py)),
        }
    }
}

/// A list made ahead, handed out once: an owned reference, or null once
/// taken (or when none was made). Every access holds the GIL, which the
/// wheel's interpreters always have (abi3 excludes free-threaded builds, as
/// `ints::incref` also relies on), and nothing between the load and the
/// store of `take` runs Python code or lets the GIL go: so two threads
/// reading the same encoding cannot both get the list, without an atomic
/// read-modify-write (a locked instruction, which waits for every pending
/// store: see [`Owner`]). Atomic all the same, so that the type stays
/// `Sync` without unsafe code.
struct AheadList(AtomicPtr<ffi::PyObject>);

impl AheadList {
    fn new(list: Option<Bound<'_, PyList>>) -> Self {
        Self(AtomicPtr::new(list.map_or(ptr::null_mut(), Bound::into_ptr)))
    }

    fn take<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyList>> {
        let list = NonNull::new(self.0.load(Ordering::Relaxed))?;
        self.0.store(ptr::null_mut(), Ordering::Relaxed);
        // SAFETY: the pointer was an owned reference to a list (`new`), and
        // this is its only taker: the GIL is held from the load to the store
        // (see above).
        Some(unsafe { Bound::from_owned_ptr(py, list.as_ptr()).cast_into_unchecked() })
    }

    fn is_some(&mut self) -> bool {
        !self.0.get_mut().is_null()
    }
}

impl Drop for AheadList {
    fn drop(&mut self) {
        let list = *self.0.get_mut();
        if !list.is_null() {
            // SAFETY: an owned reference never taken (see `take`), released
            // once, attached to the interpreter (as it is already when an
            // `Encoding` is freed).
            Python::attach(|py| drop(unsafe { Bound::<PyAny>::from_owned_ptr(py, list) }));
        }
    }
}

/// A tokenizer as the bindings hold it: the core, which of its encodings'
/// lists are being read (see [`Shared::lists_to_make`]), and its tokens as
/// Python strings, made on the first read of `Encoding.tokens`.
pub struct Shared {
    tokenizer: Tokenizer,
    read: AtomicU8,
    /// One `str` per vocabulary token, shared by every `tokens` list (str is
    /// immutable), so that a read costs a reference count per token instead
    /// of decoding and allocating a string.
    token_strs: PyOnceLock<Box<[Py<PyString>]>>,
}

const IDS: u8 = 1;
const OFFSETS: u8 = 2;

impl Shared {
    pub fn new(tokenizer: Tokenizer) -> Self {
        Self { tokenizer, read: AtomicU8::new(IDS), token_strs: PyOnceLock::new() }
    }

    fn token_strs(&self, py: Python<'_>) -> &[Py<PyString>] {
        self.token_strs
            .get_or_init(py, || self.tokenizer.vocab().tokens().iter().map(|t| PyString::new(py, t).unbind()).collect())
    }

    /// The lists `encode_batch` makes for each encoding while the rest of
    /// the batch is still encoding, and so off the critical path: ids at
    /// first; offsets once a caller has read them from an encoding that did
    /// not have them made. A list made and dropped unread stops that list
    /// being made, so a caller who reads only ids never pays for offsets.
    fn lists_to_make(&self) -> u8 {
        self.read.load(Ordering::Relaxed)
    }

    fn note(&self, field: u8, read: bool) {
        let now = self.read.load(Ordering::Relaxed);
        if (now & field != 0) != read {
            if read {
                self.read.fetch_or(field, Ordering::Relaxed);
            } else {
                self.read.fetch_and(!field, Ordering::Relaxed);
            }
        }
    }
}

impl std::ops::Deref for Shared {
    type Target = Tokenizer;

    fn deref(&self) -> &Tokenizer {
        &self.tokenizer
    }
}

impl Drop for PyEncoding {
    fn drop(&mut self) {
        for (field, list) in [(IDS, &mut self.ahead_ids), (OFFSETS, &mut self.ahead_offsets)] {
            if list.is_some() {
                self.tokenizer.shared().note(field, false);
            }
        }
    }
}

impl PyEncoding {
    pub fn new(inner: Encoding, tokenizer: Arc<Shared>) -> Self {
        Self::owned_by(inner, Owner::Own(tokenizer))
    }

    fn owned_by(inner: Encoding, tokenizer: Owner) -> Self {
        Self { inner, tokenizer, ahead_ids: AheadList::new(None), ahead_offsets: AheadList::new(None) }
    }

    /// An encoding of a batch (whose tokenizer `owner` holds) with the
    /// lists its tokenizer's callers read made now.
    pub fn made_ahead(py: Python<'_>, inner: Encoding, owner: &Py<BatchOwner>) -> PyResult<Self> {
        let make = owner.get().0.lists_to_make();
        let ids = AheadList::new(if make & IDS != 0 { Some(int_list(py, inner.ids())?) } else { None });
        let offsets = AheadList::new(if make & OFFSETS != 0 { Some(offsets_list(py, inner.offsets())?) } else { None });
        let tokenizer = Owner::Batch(owner.clone_ref(py));
        Ok(Self { inner, tokenizer, ahead_ids: ids, ahead_offsets: offsets })
    }

    /// The encoding as a Python object, untracked by the cyclic garbage
    /// collector. No cycle can pass through an `Encoding`: the only Python
    /// objects it holds are the lists made ahead (of ints, or tuples of
    /// ints, never handed out while it holds them), the holder of its
    /// batch's tokenizer, and through that tokenizer the vocabulary's strs. Tracked (pyo3 makes every class a
    /// GC type), a batch's thousands of encodings were visited by every
    /// collection their own allocation set off: a seventh of the time of
    /// `[e.ids for e in encode_batch(lines)]`.
    pub fn into_untracked(self, py: Python<'_>) -> PyResult<Bound<'_, PyEncoding>> {
        let object = Bound::new(py, self)?;
        // SAFETY: the GIL is held and `object` is live; untracking an object
        // is allowed whenever it cannot be part of a cycle (see above), and
        // pyo3's dealloc untracks only if tracked.
        unsafe { ffi::PyObject_GC_UnTrack(object.as_ptr().cast()) };
        Ok(object)
    }

    /// The list made ahead for `field`, if any (taken: it is handed out once).
    fn take_ahead<'py>(&self, py: Python<'py>, field: u8) -> Option<Bound<'py, PyList>> {
        let made = if field == IDS { self.ahead_ids.take(py) } else { self.ahead_offsets.take(py) };
        if made.is_none() {
            self.tokenizer.shared().note(field, true);
        }
        made
    }

    /// Token `token_index`'s position, counting from the end when negative.
    fn token_at(&self, token_index: i64) -> Option<usize> {
        let n = self.inner.len() as i64;
        let at = if token_index < 0 { token_index + n } else { token_index };
        (0..n).contains(&at).then_some(at as usize)
    }

    fn word_at(&self, token_index: i64) -> Option<crate::encoding::Word> {
        self.token_at(token_index).map(|at| self.inner.words()[at])
    }

    /// The list of ids: the one made ahead, else a new one.
    #[inline]
    fn ids_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        match self.take_ahead(py, IDS) {
            Some(ids) => Ok(ids),
            None => int_list(py, self.inner.ids()),
        }
    }

    fn field<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyList>> {
        let e = &self.inner;
        match key {
            "ids" => self.ids_list(py),
            "tokens" => {
                let list = str_list(py, self.tokenizer.shared().token_strs(py), e.ids())?;
                for (i, text) in e.shown() {
                    list.set_item(*i as usize, &**text)?;
                }
                Ok(list)
            }
            "offsets" => match self.take_ahead(py, OFFSETS) {
                Some(offsets) => Ok(offsets),
                None => offsets_list(py, e.offsets()),
            },
            "attention_mask" => int_list(py, e.attention_mask()),
            "special_tokens_mask" => int_list(py, e.special_tokens_mask()),
            "type_ids" => int_list(py, e.type_ids()),
            _ => Err(PyKeyError::new_err(format!("{key:?}: an Encoding has the keys {KEYS:?}"))),
        }
    }
}

/// A word, character or sequence index from Python: negative is a ValueError.
fn index(value: i64, name: &str) -> PyResult<usize> {
    usize::try_from(value).map_err(|_| PyValueError::new_err(format!("{name} must be >= 0, not {value}")))
}

#[pymethods]
impl PyEncoding {
    /// Token ids.
    #[getter]
    fn ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.ids_list(py)
    }

    /// Token strings.
    #[getter]
    fn tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.field(py, "tokens")
    }

    /// `(start, end)` character offsets into the original text; `(0, 0)` for
    /// the special tokens added by post-processing.
    #[getter]
    fn offsets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.field(py, "offsets")
    }

    /// The offsets as a numpy array of shape (n, 2): int64 (as in
    /// `encode_batch(..., return_tensors="np")`), or int32 or uint32, half
    /// the memory. For bulk work on a long text, where the list of `offsets`
    /// costs a tuple per token.
    #[pyo3(signature = (dtype = None))]
    fn offsets_array<'py>(&self, py: Python<'py>, dtype: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        super::arrays::offsets_array(py, &self.inner, dtype)
    }

    /// 1 for every real token.
    #[getter]
    fn attention_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.field(py, "attention_mask")
    }

    /// 1 for the `[CLS]`/`[SEP]` tokens added by post-processing.
    #[getter]
    fn special_tokens_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.field(py, "special_tokens_mask")
    }

    /// 0 for the first sequence, 1 for the second.
    #[getter]
    fn type_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.field(py, "type_ids")
    }

    /// The windows that truncation cut off (with `stride` tokens of overlap),
    /// each a complete, post-processed and padded encoding; empty unless
    /// truncated. For a pair, Hugging Face's combinations of the windows of
    /// both texts (some nested one level deeper).
    #[getter]
    fn overflowing<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyEncoding>>> {
        let window = |e: &Encoding| PyEncoding::owned_by(e.clone(), self.tokenizer.clone_ref(py)).into_untracked(py);
        self.inner.overflowing().iter().map(window).collect()
    }

    /// Each token's word within its sequence, counted from 0 (a special token
    /// written in the text is a word of its own); None for the tokens that
    /// post-processing and padding add.
    #[getter]
    fn word_ids(&self) -> Vec<Option<u32>> {
        self.inner.words().iter().map(|w| w.index()).collect()
    }

    /// Each token's sequence, 0 or 1; None for the tokens that
    /// post-processing and padding add.
    #[getter]
    fn sequence_ids(&self) -> Vec<Option<u8>> {
        self.inner.words().iter().map(|w| w.sequence()).collect()
    }

    /// 2 for a pair of texts, else 1.
    #[getter]
    fn n_sequences(&self) -> usize {
        self.inner.n_sequences()
    }

    /// The sequence of token `token_index` (negative counts from the end);
    /// None for an added token or an index out of range.
    fn token_to_sequence(&self, token_index: i64) -> Option<u8> {
        self.word_at(token_index).and_then(|w| w.sequence())
    }

    /// The word of token `token_index` within its sequence; None for an
    /// added token or an index out of range.
    fn token_to_word(&self, token_index: i64) -> Option<u32> {
        self.word_at(token_index).and_then(|w| w.index())
    }

    /// The `(start, end)` offsets of token `token_index`; None for an added
    /// token or an index out of range.
    fn token_to_chars(&self, token_index: i64) -> Option<(u32, u32)> {
        let at = self.token_at(token_index)?;
        self.inner.words()[at].sequence().map(|_| self.inner.offsets()[at])
    }

    /// The tokens `(start, end)` of word `word_index` of sequence
    /// `sequence_index`; None when no token belongs to it.
    #[pyo3(signature = (word_index, sequence_index = 0))]
    fn word_to_tokens(&self, word_index: i64, sequence_index: i64) -> PyResult<Option<(usize, usize)>> {
        let (word, sequence) = (index(word_index, "word_index")?, index(sequence_index, "sequence_index")?);
        Ok(u32::try_from(word).ok().and_then(|w| self.inner.word_to_tokens(w, sequence)))
    }

    /// The characters `(start, end)` of word `word_index` of sequence
    /// `sequence_index`; None when no token belongs to it.
    #[pyo3(signature = (word_index, sequence_index = 0))]
    fn word_to_chars(&self, word_index: i64, sequence_index: i64) -> PyResult<Option<(u32, u32)>> {
        let (word, sequence) = (index(word_index, "word_index")?, index(sequence_index, "sequence_index")?);
        Ok(u32::try_from(word).ok().and_then(|w| self.inner.word_to_chars(w, sequence)))
    }

    /// The first token of sequence `sequence_index` whose offsets hold
    /// character `char_pos`; None when none does.
    #[pyo3(signature = (char_pos, sequence_index = 0))]
    fn char_to_token(&self, char_pos: i64, sequence_index: i64) -> PyResult<Option<usize>> {
        let (pos, sequence) = (index(char_pos, "char_pos")?, index(sequence_index, "sequence_index")?);
        Ok(u32::try_from(pos).ok().and_then(|p| self.inner.char_to_token(p, sequence)))
    }

    /// The word of sequence `sequence_index` that holds character `char_pos`;
    /// None when none does.
    #[pyo3(signature = (char_pos, sequence_index = 0))]
    fn char_to_word(&self, char_pos: i64, sequence_index: i64) -> PyResult<Option<u32>> {
        Ok(self.char_to_token(char_pos, sequence_index)?.and_then(|t| self.inner.words()[t].index()))
    }

    /// A field by its name; any other key (a str that is not a field name,
    /// not valid text, or not a str at all) is a KeyError, as for a dict.
    fn __getitem__<'py>(&self, py: Python<'py>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        match key.cast::<PyString>().ok().and_then(|k| k.to_cow().ok()) {
            Some(name) if KEYS.contains(&&*name) => self.field(py, &name),
            _ => {
                let keys: Vec<String> = KEYS.iter().map(|k| format!("'{k}'")).collect();
                Err(PyKeyError::new_err(format!("{}: an Encoding has the keys [{}]", key.repr()?, keys.join(", "))))
            }
        }
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> bool {
        key.cast::<PyString>().ok().and_then(|k| k.to_cow().ok()).is_some_and(|k| KEYS.contains(&&*k))
    }

    /// The six field names, as for a dict.
    fn keys(&self) -> Vec<&'static str> {
        KEYS.to_vec()
    }

    /// The fields as a plain dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for key in KEYS {
            dict.set_item(key, self.field(py, key)?)?;
        }
        Ok(dict)
    }

    /// The number of tokens.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(other) = other.cast::<PyEncoding>() {
            let o = other.get();
            let same_tokens = ptr::eq(self.tokenizer.shared(), o.tokenizer.shared())
                || self.field(py, "tokens")?.eq(o.field(py, "tokens")?)?;
            return (self.inner == o.inner && same_tokens).into_py_any(py);
        }
        match (other.getattr("to_dict"), other.getattr("overflowing")) {
            (Ok(to_dict), Ok(overflowing)) => (self.to_dict(py)?.eq(to_dict.call0()?)?
                && self.overflowing(py)?.into_pyobject(py)?.eq(overflowing)?)
            .into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let tokens = self.field(py, "tokens")?;
        let more = if self.inner.len() > 8 { ", ..." } else { "" };
        let shown = tokens.get_slice(0, 8).repr()?.to_string();
        Ok(format!("Encoding(n_tokens={}, tokens={}{}])", self.inner.len(), shown.trim_end_matches(']'), more))
    }
}
