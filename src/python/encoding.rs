//! `Encoding`: the result of `encode`, readable like the dict of the seed
//! tutorial (`enc["ids"]`) and as attributes (`enc.ids`). Python lists are
//! built only for the fields that are read.

use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering};
use std::sync::Arc;

use pyo3::exceptions::{PyDeprecationWarning, PyKeyError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use super::args::{type_name, Given};
use super::errors::to_py;
use super::ints::{int_list, named_memory_error, offsets_list, str_list};
use crate::encoding::{Encoding, Word};
use crate::error::Error;
use crate::tokenizer::Tokenizer;

/// The warning of `Encoding.words`: `tokenizers`' text, without its "Deprecated in
/// 0.9.4: " prefix (a version of `tokenizers`, not of this package).
const WORDS_DEPRECATED: &std::ffi::CStr = c"Encoding.words is deprecated, please use Encoding.word_ids instead.";

/// What a `KeyError` for a position adds: an `Encoding` is not a list.
const POSITION_HINT: &str = " (its fields, not its tokens: the ids are encoding.ids, or \
     tokenizer(text)['input_ids'] as transformers gives them)";

const KEYS: [&str; 6] = ["ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids"];

/// The tokens of one encoded text or pair: ids, token strings, character
/// offsets into the original text, and the masks a BERT model takes.
///
/// `len(encoding)` is the number of tokens; `encoding["ids"]` (and the other
/// names `keys()` lists) reads a field as a dict would, any other key being
/// a KeyError; iterating gives those names, as `keys()` (so `dict(encoding)`
/// and `list(encoding)` agree).
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
/// `encode_batch` shares; an unpickled encoding, which has no tokenizer,
/// keeps the strings of its ids instead (a [`TokenTable`]). Counting a
/// Python reference is a plain increment (the GIL serialises it); an `Arc`
/// count is a locked instruction, which waits for every store before it,
/// and making and freeing a batch's encodings then waited on the misses of
/// their own fresh or cold memory: a twentieth of
/// `[e.ids for e in encode_batch(lines)]`, in time though not in
/// instructions.
enum Owner {
    Own(Arc<Shared>),
    Batch(Py<BatchOwner>),
    Table(Arc<TokenTable>),
}

/// The token strings of the ids an unpickled encoding (and its overflowing
/// windows) has: the ids in increasing order, and the str of each.
pub struct TokenTable {
    ids: Box<[u32]>,
    strs: Box<[Py<PyString>]>,
}

impl PyEncoding {
    /// The token ids (what `decode` reads of an encoding it is given).
    pub(super) fn token_ids(&self) -> &[u32] {
        self.inner.ids()
    }
}

impl TokenTable {
    fn get(&self, id: u32) -> Option<&Py<PyString>> {
        self.ids.binary_search(&id).ok().map(|at| &self.strs[at])
    }
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
    /// The tokenizer; None for an unpickled encoding.
    fn shared(&self) -> Option<&Shared> {
        match self {
            Owner::Own(shared) => Some(shared),
            Owner::Batch(owner) => Some(&owner.get().0),
            Owner::Table(_) => None,
        }
    }

    fn clone_ref(&self, py: Python<'_>) -> Self {
        match self {
            Owner::Own(shared) => Owner::Own(Arc::clone(shared)),
            Owner::Batch(owner) => Owner::Batch(owner.clone_ref(py)),
            Owner::Table(table) => Owner::Table(Arc::clone(table)),
        }
    }

    /// Whether both give every id the same str (the same tokenizer or table).
    fn same(&self, other: &Owner) -> bool {
        match (self, other) {
            (Owner::Table(a), Owner::Table(b)) => Arc::ptr_eq(a, b),
            _ => self.shared().zip(other.shared()).is_some_and(|(a, b)| ptr::eq(a, b)),
        }
    }

    /// The vocabulary's str of each of `ids` (`""` for an id it lacks,
    /// which encoding never makes).
    fn token_list<'py>(&self, py: Python<'py>, ids: &[u32]) -> PyResult<Bound<'py, PyList>> {
        match self {
            Owner::Table(table) => {
                let empty = super::ints::py_str(py, "")?;
                super::ints::list_with(py, ids.len(), |i| {
                    Ok(table.get(ids[i]).map_or_else(|| empty.clone(), |s| s.bind(py).clone()).into_any())
                })
            }
            _ => str_list(py, self.shared().map_or(Ok(&[][..]), |s| s.token_strs(py))?, ids),
        }
    }

    /// The vocabulary's str of `id`, as `token_list`.
    fn token_str<'py>(&self, py: Python<'py>, id: u32) -> PyResult<Bound<'py, PyString>> {
        let found = match self {
            Owner::Table(table) => table.get(id),
            Owner::Own(_) | Owner::Batch(_) => match self.shared() {
                Some(s) => s.token_strs(py)?.get(id as usize),
                None => None,
            },
        };
        found.map_or_else(|| super::ints::py_str(py, ""), |s| Ok(s.bind(py).clone()))
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

    /// The str of each token of the vocabulary, made on first use; a
    /// MemoryError (and made again on the next use) when Python has no room.
    fn token_strs(&self, py: Python<'_>) -> PyResult<&[Py<PyString>]> {
        self.token_strs
            .get_or_try_init(py, || {
                let tokens = self.tokenizer.vocab().tokens().iter().enumerate();
                tokens
                    .map(|(id, t)| Ok(super::ints::py_str(py, self.tokenizer.shown_token(id as u32, t))?.unbind()))
                    .collect()
            })
            .map(|t| &t[..])
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
            if let (true, Some(shared)) = (list.is_some(), self.tokenizer.shared()) {
                shared.note(field, false);
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
    /// batch's tokenizer, and through that tokenizer the vocabulary's strs
    /// (an unpickled one: the strs of its ids). Tracked (pyo3 makes every
    /// class a GC type), a batch's thousands of encodings were visited by
    /// every collection their own allocation set off: a seventh of the time
    /// of `[e.ids for e in encode_batch(lines)]`.
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
        if let (None, Some(shared)) = (&made, self.tokenizer.shared()) {
            shared.note(field, true);
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
                let list = self.tokenizer.token_list(py, e.ids())?;
                for (i, text) in e.shown() {
                    list.set_item(*i as usize, super::ints::py_str(py, text)?)?;
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

/// An index argument: an int, or an integer such as numpy's that Python
/// turns into one (`__index__`), but not a bool; anything else is a
/// TypeError naming the argument. An int beyond 64 bits is out of range
/// whatever the encoding, and is read as the nearest 64-bit one.
fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i64> {
    let not_int = || PyTypeError::new_err(format!("{name} must be an int, not {}", type_name(obj)));
    if obj.is_instance_of::<PyBool>() {
        return Err(not_int());
    }
    let py = obj.py();
    match obj.extract::<i64>() {
        Ok(value) => Ok(value),
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => Ok(if obj.lt(0)? { i64::MIN } else { i64::MAX }),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => Err(not_int()),
        // Another exception the object's own `__index__` raised.
        Err(e) => Err(e),
    }
}

/// A word, character or sequence index: [`int_arg`], and negative is a
/// ValueError.
fn index(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    let value = int_arg(obj, name)?;
    u64::try_from(value).map_err(|_| {
        // The int given (what `__index__` gave), as the twin shows it; beyond
        // 64 bits (`int_arg` gave i64::MIN), the object itself.
        let message = match value {
            i64::MIN => format!("{name} must be >= 0, not {obj}"),
            _ => format!("{name} must be >= 0, not {value}"),
        };
        PyValueError::new_err(message)
    })
}

/// Word or character `value`, or None when beyond any encoding's (2^32).
fn narrow(value: u64) -> Option<u32> {
    u32::try_from(value).ok()
}

/// The `sequence_index` argument ([`index`]), 0 when not given; beyond any
/// encoding's (which has 1 or 2), every token is searched, as for 2.
fn sequence(given: &Given<'_>) -> PyResult<usize> {
    given.0.as_ref().map_or(Ok(0), |obj| Ok(index(obj, "sequence_index")?.min(2) as usize))
}

/// How deep the overflowing windows of a pickled encoding may nest (those
/// of a pair nest one level below those of a text).
const MAX_NESTING: usize = 4;

/// What `Encoding.__reduce__` gives `Encoding._from_state`.
type ReduceArgs<'py> = (Bound<'py, PyBytes>, Bound<'py, PyList>, Bound<'py, PyTuple>);

/// The items of a pickled encoding's state (see [`encoding_state`]).
const STATE_ITEMS: usize = 9;

fn state_value_error(what: String) -> PyErr {
    PyValueError::new_err(format!("Encoding state: {what}"))
}

fn state_type_error(what: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!("Encoding state: {what} must be {expected}, not {}", type_name(obj)))
}

/// A bytes object of `values`, `N` bytes each (as `bytes` gives them),
/// written in place; a MemoryError that names the state of an encoding of
/// `tokens` tokens when Python has no room for it.
fn le_state<'py, const N: usize, T: Copy>(
    py: Python<'py>,
    values: &[T],
    tokens: usize,
    bytes: impl Fn(T) -> [u8; N],
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, N * values.len(), |buf| {
        for (to, &v) in buf.chunks_exact_mut(N).zip(values) {
            to.copy_from_slice(&bytes(v));
        }
        Ok(())
    })
    .map_err(|e| named_memory_error(py, e, format_args!("the state of an encoding of {tokens} tokens")))
}

fn offset_bytes((start, end): (u32, u32)) -> [u8; 8] {
    let mut b = [0; 8];
    b[..4].copy_from_slice(&start.to_le_bytes());
    b[4..].copy_from_slice(&end.to_le_bytes());
    b
}

/// A token's word as 32 bits: its index, the sequence in the top bit;
/// all ones for none.
fn word_bits(w: Word) -> u32 {
    w.index().map_or(u32::MAX, |index| index | u32::from(w.sequence().unwrap_or(0)) << 31)
}

fn word_from_bits(bits: u32) -> Word {
    if bits == u32::MAX {
        Word::NONE
    } else {
        Word::new(bits & !(1 << 31), (bits >> 31) as u8)
    }
}

/// An encoding (and its overflowing windows, nested) as the tuple its
/// pickle holds: its columns as bytes (little-endian `u32`s for the ids,
/// the offsets' starts and ends and the words, a byte per token for the
/// type ids and masks), the number of sequences, the tokens shown otherwise
/// than the vocabulary's token of their id, and the windows.
fn encoding_state<'py>(py: Python<'py>, e: &Encoding) -> PyResult<Bound<'py, PyTuple>> {
    let n = e.len();
    let shown = PyTuple::new(py, e.shown().iter().map(|(at, text)| (*at, &**text)))?;
    let windows = e.overflowing().iter().map(|o| encoding_state(py, o)).collect::<PyResult<Vec<_>>>()?;
    let items: [Bound<'py, PyAny>; STATE_ITEMS] = [
        le_state(py, e.ids(), n, u32::to_le_bytes)?.into_any(),
        le_state(py, e.offsets(), n, offset_bytes)?.into_any(),
        le_state(py, e.words(), n, |w| word_bits(w).to_le_bytes())?.into_any(),
        le_state(py, e.type_ids(), n, |b| [b])?.into_any(),
        le_state(py, e.special_tokens_mask(), n, |b| [b])?.into_any(),
        le_state(py, e.attention_mask(), n, |b| [b])?.into_any(),
        e.n_sequences().into_pyobject(py)?.into_any(),
        shown.into_any(),
        PyTuple::new(py, windows)?.into_any(),
    ];
    PyTuple::new(py, items)
}

/// Calls `f` with every id of `e` and of its windows.
fn each_id(e: &Encoding, f: &mut impl FnMut(u32)) {
    e.ids().iter().for_each(|&id| f(id));
    for o in e.overflowing() {
        each_id(o, f);
    }
}

/// The distinct ids of `e` and of its windows, increasing: found in a set
/// of bits up to the largest (a bit per entry of the vocabulary), not in a
/// copy of the ids; a MemoryError when there is no room for the set.
fn distinct_ids(e: &Encoding) -> PyResult<Vec<u32>> {
    let mut top = None;
    each_id(e, &mut |id| top = top.max(Some(id)));
    let Some(top) = top else { return Ok(Vec::new()) };
    let words = top as usize / 64 + 1;
    let mut seen: Vec<u64> = Vec::new();
    if seen.try_reserve_exact(words).is_err() {
        return Err(to_py(Error::memory(format_args!("a set of {} ids", u64::from(top) + 1))));
    }
    seen.resize(words, 0);
    each_id(e, &mut |id| seen[id as usize / 64] |= 1 << (id % 64));
    let ids = seen
        .iter()
        .enumerate()
        .flat_map(|(k, &bits)| (0..64).filter(move |b| bits >> b & 1 == 1).map(move |b| (64 * k + b) as u32));
    Ok(ids.collect())
}

fn state_bytes<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a [u8]> {
    obj.cast::<PyBytes>().map(|b| b.as_bytes()).map_err(|_| state_type_error(what, "bytes", obj))
}

/// Little-endian `u32`s, read in the bytes that hold them (a state's are
/// as large as the encoding: not copied).
#[derive(Clone, Copy)]
struct LeU32s<'a>(&'a [u8]);

impl<'a> LeU32s<'a> {
    fn len(self) -> usize {
        self.0.len() / 4
    }

    fn get(self, i: usize) -> u32 {
        let b = &self.0[4 * i..4 * i + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    fn iter(self) -> impl Iterator<Item = u32> + 'a {
        self.0.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The little-endian `u32`s of a state's bytes.
fn state_u32s<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<LeU32s<'a>> {
    let bytes = state_bytes(obj, what)?;
    if bytes.len() % 4 != 0 {
        return Err(state_value_error(format!("{what} must be 4 bytes per value, not {} bytes", bytes.len())));
    }
    Ok(LeU32s(bytes))
}

/// The items of a tuple or list in a state.
fn state_items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        Ok(tuple.iter().collect())
    } else if let Ok(list) = obj.cast::<PyList>() {
        Ok(list.iter().collect())
    } else {
        Err(state_type_error(what, "a tuple", obj))
    }
}

/// An int of a state (not a bool): the value, or None outside `u32`.
fn state_int(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<u32>> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(state_type_error(what, "an int", obj));
    }
    let value: i128 = obj.extract().unwrap_or(i128::MAX);
    Ok(u32::try_from(value).ok())
}

/// The encoding of a state made by [`encoding_state`], its ids checked to
/// be among `vocab` (sorted); any inconsistency is a ValueError, a wrong
/// type a TypeError.
fn encoding_from_state(obj: &Bound<'_, PyAny>, vocab: &[u32], depth: usize) -> PyResult<Encoding> {
    let items = state_items(obj, "an encoding")?;
    if items.len() != STATE_ITEMS {
        return Err(state_value_error(format!("an encoding is {STATE_ITEMS} items, not {}", items.len())));
    }
    let ids = state_u32s(&items[0], "ids")?;
    let n = ids.len();
    let offsets = state_u32s(&items[1], "offsets")?;
    let words = state_u32s(&items[2], "words")?;
    let type_ids = state_bytes(&items[3], "type_ids")?;
    let special = state_bytes(&items[4], "special_tokens_mask")?;
    let attention = state_bytes(&items[5], "attention_mask")?;
    for (what, len) in [
        ("offsets", offsets.len() / 2),
        ("words", words.len()),
        ("type_ids", type_ids.len()),
        ("special_tokens_mask", special.len()),
        ("attention_mask", attention.len()),
    ] {
        if len != n || (what == "offsets" && offsets.len() % 2 != 0) {
            return Err(state_value_error(format!("{what} do not have one entry for each of the {n} ids")));
        }
    }
    for (what, mask) in [("special_tokens_mask", special), ("attention_mask", attention)] {
        if let Some(bad) = mask.iter().find(|&&b| b > 1) {
            return Err(state_value_error(format!("{what} must be 0 or 1, not {bad}")));
        }
    }
    if let Some(id) = ids.iter().find(|id| vocab.binary_search(id).is_err()) {
        return Err(state_value_error(format!("id {id} has no token string")));
    }
    let pair = match state_int(&items[6], "n_sequences")? {
        Some(1) => false,
        Some(2) => true,
        _ => return Err(state_value_error(format!("n_sequences must be 1 or 2, not {}", items[6]))),
    };
    let mut shown = Vec::new();
    for item in state_items(&items[7], "shown")? {
        let pair = state_items(&item, "a shown token")?;
        let [at, text] = pair.as_slice() else {
            return Err(state_value_error(format!("a shown token is (position, str), not {} items", pair.len())));
        };
        let at = state_int(at, "a shown token's position")?.filter(|&at| (at as usize) < n);
        let previous = shown.last().map(|&(p, _)| p);
        let Some(at) = at.filter(|&at| previous.is_none_or(|p| p < at)) else {
            return Err(state_value_error(format!("the shown tokens' positions must increase below {n}")));
        };
        let text = text.cast::<PyString>().map_err(|_| state_type_error("a shown token's text", "a str", text))?;
        shown.push((at, text.to_cow()?.into_owned()));
    }
    let windows = state_items(&items[8], "overflowing")?;
    if !windows.is_empty() && depth >= MAX_NESTING {
        return Err(state_value_error(format!("overflowing windows nest deeper than {MAX_NESTING} levels")));
    }
    let windows = windows.iter().map(|w| encoding_from_state(w, vocab, depth + 1)).collect::<PyResult<Vec<_>>>()?;
    let mut e = Encoding::try_with_capacity(n).map_err(to_py)?;
    for i in 0..n {
        let masks = (special[i] == 1, attention[i] == 1);
        let span = (offsets.get(2 * i), offsets.get(2 * i + 1));
        e.push_token(ids.get(i), span, type_ids[i], masks, word_from_bits(words.get(i)));
    }
    e.set_pair(pair);
    for (at, text) in shown {
        e.set_shown(at as usize, &text);
    }
    e.set_overflowing(windows);
    Ok(e)
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
    fn overflowing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let window = |e: &Encoding| PyEncoding::owned_by(e.clone(), self.tokenizer.clone_ref(py)).into_untracked(py);
        super::ints::list(py, self.inner.overflowing().iter().map(window).collect::<PyResult<Vec<_>>>()?)
    }

    /// Each token's word within its sequence, counted from 0 (a special token
    /// written in the text is a word of its own); None for the tokens that
    /// post-processing and padding add.
    #[getter]
    fn word_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let words = self.inner.words();
        super::ints::list_with(py, words.len(), |i| match words[i].index() {
            Some(w) => super::ints::py_int(py, w.into()),
            None => Ok(py.None().into_bound(py)),
        })
    }

    /// The deprecated name of `word_ids`, kept as Hugging Face `tokenizers`
    /// keeps it: a DeprecationWarning, then the same list.
    #[getter]
    fn words<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyErr::warn(py, &py.get_type::<PyDeprecationWarning>(), WORDS_DEPRECATED, 1)?;
        self.word_ids(py)
    }

    /// Each token's sequence, 0 or 1; None for the tokens that
    /// post-processing and padding add.
    #[getter]
    fn sequence_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let words = self.inner.words();
        super::ints::list_with(py, words.len(), |i| match words[i].sequence() {
            Some(s) => super::ints::py_int(py, s.into()),
            None => Ok(py.None().into_bound(py)),
        })
    }

    /// 2 for a pair of texts, else 1.
    #[getter]
    fn n_sequences(&self) -> usize {
        self.inner.n_sequences()
    }

    /// The sequence of token `token_index` (negative counts from the end);
    /// None for an added token or an index out of range.
    fn token_to_sequence(&self, token_index: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        Ok(self.word_at(int_arg(token_index, "token_index")?).and_then(|w| w.sequence()))
    }

    /// The word of token `token_index` within its sequence; None for an
    /// added token or an index out of range.
    fn token_to_word(&self, token_index: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        Ok(self.word_at(int_arg(token_index, "token_index")?).and_then(|w| w.index()))
    }

    /// The `(start, end)` offsets of token `token_index`; None for an added
    /// token or an index out of range.
    fn token_to_chars(&self, token_index: &Bound<'_, PyAny>) -> PyResult<Option<(u32, u32)>> {
        let Some(at) = self.token_at(int_arg(token_index, "token_index")?) else { return Ok(None) };
        Ok(self.inner.words()[at].sequence().map(|_| self.inner.offsets()[at]))
    }

    /// The tokens `(start, end)` of word `word_index` of sequence
    /// `sequence_index`; None when no token belongs to it.
    #[pyo3(signature = (word_index, sequence_index = Given(None)), text_signature = "($self, word_index, sequence_index=0)")]
    fn word_to_tokens(
        &self,
        word_index: &Bound<'_, PyAny>,
        sequence_index: Given<'_>,
    ) -> PyResult<Option<(usize, usize)>> {
        let (word, sequence) = (index(word_index, "word_index")?, sequence(&sequence_index)?);
        Ok(narrow(word).and_then(|w| self.inner.word_to_tokens(w, sequence)))
    }

    /// The characters `(start, end)` of word `word_index` of sequence
    /// `sequence_index`; None when no token belongs to it.
    #[pyo3(signature = (word_index, sequence_index = Given(None)), text_signature = "($self, word_index, sequence_index=0)")]
    fn word_to_chars(&self, word_index: &Bound<'_, PyAny>, sequence_index: Given<'_>) -> PyResult<Option<(u32, u32)>> {
        let (word, sequence) = (index(word_index, "word_index")?, sequence(&sequence_index)?);
        Ok(narrow(word).and_then(|w| self.inner.word_to_chars(w, sequence)))
    }

    /// The first token of sequence `sequence_index` whose offsets hold
    /// character `char_pos`; None when none does.
    #[pyo3(signature = (char_pos, sequence_index = Given(None)), text_signature = "($self, char_pos, sequence_index=0)")]
    fn char_to_token(&self, char_pos: &Bound<'_, PyAny>, sequence_index: Given<'_>) -> PyResult<Option<usize>> {
        let (pos, sequence) = (index(char_pos, "char_pos")?, sequence(&sequence_index)?);
        Ok(narrow(pos).and_then(|p| self.inner.char_to_token(p, sequence)))
    }

    /// The word of sequence `sequence_index` that holds character `char_pos`;
    /// None when none does.
    #[pyo3(signature = (char_pos, sequence_index = Given(None)), text_signature = "($self, char_pos, sequence_index=0)")]
    fn char_to_word(&self, char_pos: &Bound<'_, PyAny>, sequence_index: Given<'_>) -> PyResult<Option<u32>> {
        Ok(self.char_to_token(char_pos, sequence_index)?.and_then(|t| self.inner.words()[t].index()))
    }

    /// A field by its name; any other key (a str that is not a field name,
    /// not valid text, or not a str at all) is a KeyError, as for a dict.
    fn __getitem__<'py>(&self, py: Python<'py>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        match key.cast::<PyString>().ok().and_then(|k| k.to_cow().ok()) {
            Some(name) if KEYS.contains(&&*name) => self.field(py, &name),
            _ => {
                let keys: Vec<String> = KEYS.iter().map(|k| format!("'{k}'")).collect();
                let mut message = format!("{}: an Encoding has the keys [{}]", key.repr()?, keys.join(", "));
                if key.is_instance_of::<pyo3::types::PyInt>() || key.is_instance_of::<pyo3::types::PySlice>() {
                    message.push_str(POSITION_HINT);
                }
                Err(PyKeyError::new_err(message))
            }
        }
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> bool {
        key.cast::<PyString>().ok().and_then(|k| k.to_cow().ok()).is_some_and(|k| KEYS.contains(&&*k))
    }

    /// The six field names, as for a dict.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        super::ints::text_list(py, &KEYS)
    }

    /// The six field names, in the order of `keys()`, as iterating over a
    /// dict gives its keys (`len` stays the number of tokens, as in Hugging
    /// Face `tokenizers`).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        super::ints::text_list(py, &KEYS)?.as_any().try_iter()
    }

    /// The fields as a plain dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = super::ints::new_dict(py)?;
        for key in KEYS {
            super::ints::set_str_item(&dict, key, self.field(py, key)?.into_any())?;
        }
        Ok(dict)
    }

    /// The number of tokens.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Pickling (and `copy`): the encoding's columns and the strings of the
    /// ids it has, rebuilt by `_from_state`; the copy is equal to it and
    /// needs no tokenizer.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, ReduceArgs<'py>)> {
        let py = slf.py();
        let this = slf.get();
        let ids = distinct_ids(&this.inner)?;
        let strs = super::ints::list(
            py,
            ids.iter().map(|&id| this.tokenizer.token_str(py, id)).collect::<PyResult<Vec<_>>>()?,
        )?;
        let vocab = le_state(py, &ids, this.inner.len(), u32::to_le_bytes)?;
        let state = encoding_state(py, &this.inner)?;
        Ok((py.get_type::<Self>().getattr("_from_state")?, (vocab, strs, state)))
    }

    /// The encoding `__reduce__` saved: `vocab_ids` (little-endian `u32`s,
    /// increasing), the str of each, and the encoding's state. Not for
    /// direct use; a state that is not one `__reduce__` makes is a
    /// TypeError or ValueError.
    #[staticmethod]
    fn _from_state<'py>(
        py: Python<'py>,
        vocab_ids: &Bound<'py, PyAny>,
        vocab_tokens: &Bound<'py, PyAny>,
        state: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyEncoding>> {
        let ids: Vec<u32> = state_u32s(vocab_ids, "vocab_ids")?.iter().collect();
        if ids.windows(2).any(|w| w[0] >= w[1]) {
            return Err(state_value_error("vocab_ids must increase".into()));
        }
        let tokens = state_items(vocab_tokens, "vocab_tokens")?;
        if tokens.len() != ids.len() {
            let (t, i) = (tokens.len(), ids.len());
            return Err(state_value_error(format!("{t} vocab_tokens for {i} vocab_ids")));
        }
        let strs = tokens
            .iter()
            .map(|t| {
                t.cast::<PyString>().map(|s| s.clone().unbind()).map_err(|_| state_type_error("vocab_tokens", "str", t))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let inner = encoding_from_state(state, &ids, 0)?;
        let table = TokenTable { ids: ids.into(), strs: strs.into() };
        PyEncoding::owned_by(inner, Owner::Table(Arc::new(table))).into_untracked(py)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(other) = other.cast::<PyEncoding>() {
            let o = other.get();
            let same_tokens =
                self.tokenizer.same(&o.tokenizer) || self.field(py, "tokens")?.eq(o.field(py, "tokens")?)?;
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
