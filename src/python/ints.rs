//! Python lists of token ids, offsets, masks and token strings, built
//! straight from Rust slices. The ints below 65,536 (every id of a BERT-sized vocabulary and the
//! offsets of any text up to that many characters) come from one shared table
//! made on first use, so reading `.ids` costs a reference count per token
//! instead of an allocation. Python ints are immutable; sharing them is what
//! CPython does itself for -5..=256. Short `(start, end)` offset tuples are
//! shared the same way.
//!
//! Items are stored with `PyList_SetItem` and `PyTuple_SetItem`, the
//! functions of the stable ABI (the wheel is abi3), not the macros.
//!
//! The lists are handed over untracked by the cyclic garbage collector: they
//! hold only ints or tuples of ints, which cannot form a cycle. Left tracked,
//! a batch's thousands of lists set off collections that visited every
//! element of every list, a third of the single-threaded Python side of
//! `encode_batch`. (A caller who later puts a list inside itself makes a cycle
//! the collector cannot see; that list is then never freed. Nothing else
//! changes.) A list is untracked as soon as it exists, while its slots are
//! still empty: creating a tuple can start a collection, and Python code run
//! by that collection (`gc.callbacks`, `__del__`) must not find it through
//! `gc.get_objects()` and read an empty slot.

use std::sync::atomic::{AtomicPtr, Ordering};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::hint;

const SHARED: u32 = 1 << 16;

static TABLE: PyOnceLock<Box<[Py<PyAny>]>> = PyOnceLock::new();

/// Makes the shared ints now (at import), so that the first call that
/// returns lists does not pay for them (65,536 ints, a few milliseconds).
pub fn prepare(py: Python<'_>) -> PyResult<()> {
    table(py).map(|_| ())
}

fn table(py: Python<'_>) -> PyResult<&[Py<PyAny>]> {
    TABLE.get_or_try_init(py, || (0..SHARED).map(|v| Ok(new_int(py, v.into())?.unbind())).collect()).map(|t| &t[..])
}

/// A new int `value`, or a MemoryError (pyo3's conversions of ints panic
/// when Python has no room for one).
fn new_int(py: Python<'_>, value: u64) -> PyResult<Bound<'_, PyAny>> {
    // SAFETY: the GIL is held (`py`); the call gives a new reference or
    // NULL with an error set.
    unsafe {
        Bound::from_owned_ptr_or_err(py, ffi::PyLong_FromUnsignedLongLong(value))
            .map_err(|e| named_memory_error(py, e, format_args!("an int")))
    }
}

/// The int `value` (shared below 65,536, as the lists' ids); a MemoryError,
/// not a panic, when Python has no room for it.
pub fn py_int(py: Python<'_>, value: u64) -> PyResult<Bound<'_, PyAny>> {
    match u32::try_from(value) {
        Ok(v) if v < SHARED => Ok(table(py)?[v as usize].bind(py).clone()),
        _ => new_int(py, value),
    }
}

/// The float `value`; a MemoryError, not a panic (pyo3's conversion),
/// when Python has no room for it.
pub fn py_float(py: Python<'_>, value: f64) -> PyResult<Bound<'_, PyAny>> {
    // SAFETY: the GIL is held (`py`); the call gives a new reference or
    // NULL with an error set.
    unsafe {
        Bound::from_owned_ptr_or_err(py, ffi::PyFloat_FromDouble(value))
            .map_err(|e| named_memory_error(py, e, format_args!("a float")))
    }
}

/// A new empty dict; a MemoryError, not a panic (pyo3's `PyDict::new`),
/// when Python has no room for it.
pub fn new_dict(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    // SAFETY: the GIL is held (`py`); the call gives a new reference or
    // NULL with an error set.
    unsafe {
        Bound::from_owned_ptr_or_err(py, ffi::PyDict_New())
            .map(|d| d.cast_into_unchecked())
            .map_err(|e| named_memory_error(py, e, format_args!("a dict")))
    }
}

/// `dict[key] = value` for a str `key` made here; a MemoryError, not a
/// panic, when Python has no room for the key or the dict's growth.
pub fn set_str_item<'py>(dict: &Bound<'py, PyDict>, key: &str, value: Bound<'py, PyAny>) -> PyResult<()> {
    dict.set_item(py_str(dict.py(), key)?, value)
}

/// The tuple `(a, b)`; a MemoryError, not a panic (pyo3's `PyTuple::new`),
/// when Python has no room for it.
pub fn pair<'py>(py: Python<'py>, a: Bound<'py, PyAny>, b: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    // SAFETY: the GIL is held (`py`); `tuple` is a new tuple of two slots
    // that only this function can reach until it returns it, each set once
    // with a new reference (`into_ptr`); `PyTuple_SetItem` steals it, and
    // cannot fail for a new tuple and a slot < 2.
    unsafe {
        let tuple = Bound::from_owned_ptr_or_err(py, ffi::PyTuple_New(2))
            .map_err(|e| named_memory_error(py, e, format_args!("a tuple")))?;
        for (slot, item) in [a, b].into_iter().enumerate() {
            if ffi::PyTuple_SetItem(tuple.as_ptr(), slot as ffi::Py_ssize_t, item.into_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(tuple.cast_into_unchecked())
    }
}

/// `Py_INCREF` as CPython's own headers define it for the stable ABI of
/// Python 3.9, the wheel's: one increment of the count in the object's
/// header, which is part of that ABI. (pyo3-ffi calls `Py_IncRef` under the
/// stable ABI, a function call per token; inlined, `encode_batch` reading
/// ids and offsets took 2 to 5% less time, benches/compare_builds.py.)
/// The objects Python 3.12+ makes immortal take the increment
/// unharmed: their count is chosen so that stable-ABI extensions built
/// with older headers, which increment it directly, stay correct (PEP 683).
/// No abi3 wheel runs on a free-threaded build. This stops compiling if the
/// minimum ABI moves to 3.12, where the header changed: revisit it then.
///
/// # Safety
/// The GIL is held and `op` is a live object.
#[inline(always)]
unsafe fn incref(op: *mut ffi::PyObject) {
    // SAFETY: `op` is live (the caller's promise), so its header may be
    // written, and the GIL serialises every access to the count.
    unsafe { (*op).ob_refcnt += 1 };
}

/// A new reference to the int `value`, or NULL with a Python error set.
///
/// # Safety
/// The GIL is held (`table` came from a `Python` token).
unsafe fn int(table: &[Py<PyAny>], value: u32) -> *mut ffi::PyObject {
    match table.get(value as usize) {
        Some(shared) => {
            let ptr = shared.as_ptr();
            // SAFETY: the GIL is held and the table keeps the int alive.
            unsafe { incref(ptr) };
            ptr
        }
        // SAFETY: the GIL is held.
        None => unsafe { ffi::PyLong_FromUnsignedLong(value.into()) },
    }
}

/// A new list of `n` items, untracked from its birth (see above);
/// `item(i)` gives a new reference to item `i`, or NULL with a Python error
/// set, which frees what was built and is the error.
///
/// # Safety
/// The GIL is held, and `item` returns what it promises.
unsafe fn untracked_list<'py>(
    py: Python<'py>,
    n: usize,
    mut item: impl FnMut(usize) -> *mut ffi::PyObject,
) -> PyResult<Bound<'py, PyList>> {
    // SAFETY: the GIL is held (the caller's promise); `list` is a new list
    // of `n` slots that only this function can reach until it returns it,
    // each slot set once with a new reference (or left NULL on an error).
    unsafe {
        let list = Bound::from_owned_ptr_or_err(py, ffi::PyList_New(n as ffi::Py_ssize_t))
            .map_err(|e| named_memory_error(py, e, format_args!("a list of {n} items")))?;
        ffi::PyObject_GC_UnTrack(list.as_ptr().cast()); // before anything can start a collection
        for i in 0..n {
            // An error leaves the later slots NULL, which freeing the list skips.
            let item = Bound::from_owned_ptr_or_err(py, item(i))?;
            // Steals the reference; cannot fail for a new list and `i < n`.
            if ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, item.into_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(list.cast_into_unchecked())
    }
}

/// A MemoryError of `what` that could not be made, as one that says so
/// (Python's says nothing); any other error unchanged.
pub(super) fn named_memory_error(py: Python<'_>, e: PyErr, what: std::fmt::Arguments<'_>) -> PyErr {
    if e.is_instance_of::<pyo3::exceptions::PyMemoryError>(py) {
        super::errors::to_py(crate::error::Error::memory(what))
    } else {
        e
    }
}

/// `text` as a str; a MemoryError that names its size when Python has no
/// room for it (pyo3's own conversion panics then).
pub fn py_str<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    // SAFETY: the GIL is held (`py`); `text` is valid UTF-8 of that many
    // bytes; the call gives a new reference or NULL with an error set.
    unsafe {
        let ptr = ffi::PyUnicode_FromStringAndSize(text.as_ptr().cast(), text.len() as ffi::Py_ssize_t);
        Bound::from_owned_ptr_or_err(py, ptr)
            .map(|s| s.cast_into_unchecked())
            .map_err(|e| named_memory_error(py, e, format_args!("a str of {} bytes", text.len())))
    }
}

/// `data` as bytes; a MemoryError that names its size when Python has no
/// room for it (pyo3's `PyBytes::new` panics then).
pub fn py_bytes<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    // SAFETY: the GIL is held (`py`); `data` is that many bytes; the call
    // gives a new reference or NULL with an error set.
    unsafe {
        let ptr = ffi::PyBytes_FromStringAndSize(data.as_ptr().cast(), data.len() as ffi::Py_ssize_t);
        Bound::from_owned_ptr_or_err(py, ptr)
            .map(|b| b.cast_into_unchecked())
            .map_err(|e| named_memory_error(py, e, format_args!("bytes of {} bytes", data.len())))
    }
}

/// A list of `items`, whatever their number: a MemoryError that names its
/// length when Python has no room for it (pyo3's `PyList::new`, and its
/// conversion of a returned `Vec`, panic then, and the panic reached Python
/// as a `PanicException`).
pub fn list<'py, T: IntoPyObject<'py>>(py: Python<'py>, items: Vec<T>) -> PyResult<Bound<'py, PyList>> {
    let mut items = items.into_iter();
    list_with(py, items.len(), |_| match items.next() {
        Some(item) => item.into_bound_py_any(py),
        None => Err(PyErr::fetch(py)), // `list_with` asks for exactly `len` items
    })
}

/// `[item(0), ..., item(n - 1)]`, whatever `n`: a MemoryError that names
/// its length when Python has no room for the list, and `item`'s error (a
/// MemoryError from the functions here) when it fails. The list is hidden
/// from the garbage collector while it is filled: `item` may allocate,
/// which may start a collection, and a collector hook (`gc.callbacks`,
/// `gc.get_objects`) must not see its empty slots.
pub fn list_with<'py>(
    py: Python<'py>,
    n: usize,
    mut item: impl FnMut(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let len = ffi::Py_ssize_t::try_from(n)
        .map_err(|_| super::errors::to_py(crate::error::Error::memory(format_args!("a list of {n} items"))))?;
    // SAFETY: the GIL is held (`py`); `list` is a new list of `n` slots that
    // only this function can reach until it returns it, untracked until it
    // is full, each slot set once with a new reference (an error leaves the
    // later slots NULL, which freeing the list, tracked or not, skips).
    unsafe {
        let list = Bound::from_owned_ptr_or_err(py, ffi::PyList_New(len))
            .map_err(|e| named_memory_error(py, e, format_args!("a list of {n} items")))?;
        ffi::PyObject_GC_UnTrack(list.as_ptr().cast());
        for i in 0..n {
            let item = item(i)?;
            // Steals the reference; cannot fail for a new list and `i < n`.
            if ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, item.into_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        ffi::PyObject_GC_Track(list.as_ptr().cast());
        Ok(list.cast_into_unchecked())
    }
}

/// `[(a, b), ...]` of strs (merges); a MemoryError, not a panic, when
/// Python has no room for the list or an item.
pub fn str_pair_list<'py, S: AsRef<str>>(py: Python<'py>, pairs: &[(S, S)]) -> PyResult<Bound<'py, PyList>> {
    list_with(py, pairs.len(), |i| {
        let (a, b) = &pairs[i];
        Ok(pair(py, py_str(py, a.as_ref())?.into_any(), py_str(py, b.as_ref())?.into_any())?.into_any())
    })
}

/// A list of the strs of `texts` (see [`list`] and [`py_str`]: no room is a
/// MemoryError, not a panic).
pub fn text_list<'py, S: AsRef<str>>(py: Python<'py>, texts: &[S]) -> PyResult<Bound<'py, PyList>> {
    let mut strs = Vec::new();
    strs.try_reserve_exact(texts.len()).map_err(|_| {
        super::errors::to_py(crate::error::Error::memory(format_args!("a list of {} strs", texts.len())))
    })?;
    for t in texts {
        strs.push(py_str(py, t.as_ref())?);
    }
    list(py, strs)
}

/// Asks the CPU to bring the shared ints of `values` into its cache,
/// without waiting for them. Their counts are then incremented one after
/// another, each in a call to `PyList_SetItem`'s loop, and a count not in
/// the cache (the 30,000 ints of a BERT vocabulary are a megabyte) stalled
/// the loop: asked for together first, the misses overlap.
#[inline]
fn prefetch(table: &[Py<PyAny>], values: impl Iterator<Item = u32>) {
    for value in values {
        if let Some(shared) = table.get(value as usize) {
            hint::prefetch(shared.as_ptr());
        }
    }
}

/// `[v, ...]` for a slice of unsigned values.
pub fn int_list<'py, T: Copy + Into<u32>>(py: Python<'py>, values: &[T]) -> PyResult<Bound<'py, PyList>> {
    let table = table(py)?;
    prefetch(table, values.iter().map(|&v| v.into()));
    // SAFETY: the GIL is held; `int` gives a new reference or NULL.
    unsafe { untracked_list(py, values.len(), |i| int(table, values[i].into())) }
}

/// The `(start, end)` tuples of tokens that start in the first 8,192
/// characters and span fewer than 32, made on first use and then shared like
/// the ints: a list of offsets then costs no allocation per token, and nothing
/// for the cyclic garbage collector to count or visit (the shared tuples are
/// untracked; a tuple of two ints can never be part of a cycle).
const TUPLE_STARTS: u32 = 1 << 13;
const TUPLE_SPANS: u32 = 32;

static TUPLES: PyOnceLock<Box<[AtomicPtr<ffi::PyObject>]>> = PyOnceLock::new();

/// A new, untracked `(start, end)` tuple, or NULL with a Python error set.
///
/// # Safety
/// The GIL is held.
unsafe fn new_tuple(ints: &[Py<PyAny>], start: u32, end: u32) -> *mut ffi::PyObject {
    // SAFETY: the GIL is held (the caller's promise); `tuple` is new and
    // only this function can reach it until it returns it.
    unsafe {
        let tuple = ffi::PyTuple_New(2);
        if tuple.is_null() {
            return tuple;
        }
        for (slot, value) in [start, end].into_iter().enumerate() {
            let item = int(ints, value);
            if item.is_null() {
                ffi::Py_DECREF(tuple);
                return item;
            }
            // Steals the reference; cannot fail for a new tuple and a slot < 2.
            if ffi::PyTuple_SetItem(tuple, slot as ffi::Py_ssize_t, item) != 0 {
                ffi::Py_DECREF(tuple);
                return std::ptr::null_mut();
            }
        }
        ffi::PyObject_GC_UnTrack(tuple.cast());
        tuple
    }
}

/// `[(start, end), ...]` for a slice of character offsets.
pub fn offsets_list<'py>(py: Python<'py>, offsets: &[(u32, u32)]) -> PyResult<Bound<'py, PyList>> {
    let ints = table(py)?;
    let tuples = &TUPLES
        .get_or_init(py, || (0..TUPLE_STARTS * TUPLE_SPANS).map(|_| AtomicPtr::new(std::ptr::null_mut())).collect())[..];
    // SAFETY: the GIL is held; each item is a new reference or NULL. The
    // shared tuples are only read and written with the GIL held; the table
    // keeps one reference to each forever.
    unsafe {
        untracked_list(py, offsets.len(), |i| {
            let (start, end) = offsets[i];
            let span = end.wrapping_sub(start);
            if start >= TUPLE_STARTS || span >= TUPLE_SPANS {
                return new_tuple(ints, start, end);
            }
            let slot = &tuples[(span * TUPLE_STARTS + start) as usize];
            let mut shared = slot.load(Ordering::Relaxed);
            if shared.is_null() {
                shared = new_tuple(ints, start, end);
                if shared.is_null() {
                    return shared;
                }
                slot.store(shared, Ordering::Relaxed); // the table's reference
            }
            incref(shared);
            shared
        })
    }
}

/// `[str_of(0), ..., str_of(n - 1)]`, each a new str; a MemoryError that
/// names what did not fit when Python has no room for the list or a str.
pub fn new_str_list<'py, 'a>(
    py: Python<'py>,
    n: usize,
    str_of: impl Fn(usize) -> &'a str,
) -> PyResult<Bound<'py, PyList>> {
    // SAFETY: the GIL is held; each item is a new reference or NULL with
    // an error set.
    unsafe {
        untracked_list(py, n, |i| {
            let s = str_of(i);
            let item = ffi::PyUnicode_FromStringAndSize(s.as_ptr().cast(), s.len() as ffi::Py_ssize_t);
            if item.is_null() {
                let e = named_memory_error(py, PyErr::fetch(py), format_args!("a list of {n} strs"));
                e.restore(py);
            }
            item
        })
    }
}

/// `[strs[id], ...]` for a slice of token ids: the shared strings of a
/// vocabulary (`""` for an id outside it, which encoding never makes).
pub fn str_list<'py>(py: Python<'py>, strs: &[Py<PyString>], ids: &[u32]) -> PyResult<Bound<'py, PyList>> {
    let empty = PyString::new(py, "");
    // SAFETY: the GIL is held; each item is a borrowed str, increfed here.
    unsafe {
        untracked_list(py, ids.len(), |i| {
            let item = strs.get(ids[i] as usize).map_or(empty.as_ptr(), |s| s.as_ptr());
            incref(item);
            item
        })
    }
}
