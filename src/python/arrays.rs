//! `return_tensors="np"`: a batch of encodings as int64 numpy arrays, made
//! uninitialised by `numpy.empty` and filled in Rust through numpy's C API
//! (the `numpy` crate),
//! rows in parallel with the GIL released (no Python object per element, no
//! pass to zero the memory). numpy is needed at run time only, and only here.

use numpy::ndarray::{Array2, Dimension};
use numpy::{PyArray, PyArray1, PyArray2, PyArray3, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

use super::errors::{guard, Signals};
use crate::encoding::column::Column;
use crate::encoding::ragged::{self, RaggedFields, RaggedPart};
use crate::encoding::Encoding;
use crate::error::Error;
use crate::threads;

/// numpy, imported on demand (numpy is not a dependency of fast-wordpiece)
/// and kept once imported: an import of a module already imported still
/// costs a few thousand instructions, a tenth of a small batch's call.
/// `what` names the feature that needs it in the ImportError.
pub fn import_numpy<'py>(py: Python<'py>, what: &str) -> PyResult<Bound<'py, PyModule>> {
    static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    NUMPY.get_or_try_init(py, || py.import("numpy").map(Bound::unbind)).map(|numpy| numpy.bind(py).clone()).map_err(
        |e| {
            // Only a failed import is named so: an exception raised meanwhile
            // (Ctrl-C, a signal handler's) comes back unchanged.
            if e.is_instance_of::<PyImportError>(py) {
                PyImportError::new_err(format!("{what} needs numpy, which could not be imported ({e})"))
            } else {
                e
            }
        },
    )
}

/// Arrays of more than this many bytes are written with the GIL released;
/// below it, writing them takes less than releasing and taking back the GIL.
pub(super) const DETACH_BYTES: usize = 32 << 10;

/// `work`, with the GIL released when it writes more than [`DETACH_BYTES`].
pub(super) fn detach_for<T: Send>(py: Python<'_>, bytes: usize, work: impl Send + FnOnce() -> T) -> T {
    if bytes > DETACH_BYTES {
        py.detach(work)
    } else {
        work()
    }
}

/// Sequences decoded between two looks for signals in [`decode_all`].
const DECODE_SIGNALS_EVERY: usize = 1024;

/// The texts of `batch`, each as `decode` gives it (`decode_batch`). A batch
/// of more than [`DETACH_BYTES`] of ids is decoded with the GIL
/// released (so that other Python threads run meanwhile), Python's signal
/// handlers run every [`DECODE_SIGNALS_EVERY`] sequences: what one raises
/// (Ctrl-C's KeyboardInterrupt) stops the batch and comes back unchanged.
/// A smaller batch takes less than releasing and taking back the GIL.
pub(super) fn decode_all(
    py: Python<'_>,
    batch: &[Vec<u32>],
    decode: impl Fn(&[u32]) -> crate::error::Result<String> + Sync,
) -> PyResult<Vec<String>> {
    let bytes: usize = batch.iter().map(|ids| ids.len() * 4).sum();
    if bytes <= DETACH_BYTES {
        return batch.iter().map(|ids| guard(|| decode(ids))).collect();
    }
    let signals = Signals::default();
    let done = py.detach(|| {
        guard(|| {
            let mut texts = Vec::new();
            texts.try_reserve_exact(batch.len()).map_err(|_| crate::error::Error::memory("decoding a batch"))?;
            for (i, ids) in batch.iter().enumerate() {
                if i % DECODE_SIGNALS_EVERY == DECODE_SIGNALS_EVERY - 1 && signals.stop() {
                    return Err(crate::error::Error::Interrupted);
                }
                texts.push(decode(ids)?);
            }
            Ok(texts)
        })
    });
    signals.result(done)
}

/// `Encoding.offsets_array(dtype)`: the offsets of one encoding as an n × 2
/// array of `dtype` (int64, int32 or uint32: whatever `numpy.dtype` makes of
/// the argument), written with the GIL released (no Python object per token),
/// in memory reserved fallibly. int32 and uint32 take half the memory of
/// int64; an offset int32 cannot hold is a ValueError.
pub fn offsets_array<'py>(
    py: Python<'py>,
    encoding: &Encoding,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = import_numpy(py, "offsets_array()")?;
    let name = match dtype {
        None => "int64".to_owned(),
        Some(dtype) => numpy.call_method1("dtype", (dtype,))?.getattr("name")?.extract::<String>()?,
    };
    match name.as_str() {
        "int64" => offsets_of::<i64>(py, encoding, &name),
        "int32" => offsets_of::<i32>(py, encoding, &name),
        "uint32" => offsets_of::<u32>(py, encoding, &name),
        _ => Err(PyValueError::new_err(format!("dtype must be int64, int32 or uint32, not {name}"))),
    }
}

/// An element type of [`offsets_array`].
trait Offset: numpy::Element + TryFrom<u32> + Copy + Send + Sync {
    /// `v`, which the caller has checked fits (`TryFrom` succeeds on the
    /// largest offset).
    fn narrow(v: u32) -> Self;
}

impl Offset for i64 {
    fn narrow(v: u32) -> Self {
        v.into()
    }
}

impl Offset for u32 {
    fn narrow(v: u32) -> Self {
        v
    }
}

impl Offset for i32 {
    fn narrow(v: u32) -> Self {
        v as i32
    }
}

/// [`offsets_array`] for one element type. The buffer is a Rust vector that
/// the array takes over, written in parallel chunks: on a long text the time
/// goes into the first touch of each page of it, which threads share.
fn offsets_of<'py, T: Offset>(py: Python<'py>, encoding: &Encoding, dtype: &str) -> PyResult<Bound<'py, PyAny>> {
    const CHUNK: usize = 1 << 16;
    let offsets = encoding.offsets();
    let n = offsets.len();
    let values = py.detach(|| {
        guard(|| {
            // Every start is at most its end: the largest end is the largest offset.
            let largest = offsets.iter().map(|&(_, end)| end).max().unwrap_or(0);
            if T::try_from(largest).is_err() {
                return Err(Error::invalid(format!("dtype {dtype} cannot hold the offset {largest}: use int64")));
            }
            let mut values: Vec<T> = Vec::new();
            let len = n.checked_mul(2).filter(|&len| values.try_reserve_exact(len).is_ok());
            let len = len.ok_or_else(|| Error::memory(format_args!("an array of {n} offsets")))?;
            let slots = &mut values.spare_capacity_mut()[..len];
            let jobs: Vec<_> = slots.chunks_mut(2 * CHUNK).zip(offsets.chunks(CHUNK)).collect();
            threads::for_each(None, len * std::mem::size_of::<T>(), jobs, |(slots, offsets)| {
                for (pair, &(start, end)) in slots.chunks_exact_mut(2).zip(offsets) {
                    pair[0].write(T::narrow(start));
                    pair[1].write(T::narrow(end));
                }
            })?;
            // SAFETY: the capacity is at least `len` (reserved above), and
            // every one of the first `len` slots was written: the chunks of
            // `slots` and `offsets` pair up one to one, two values per offset.
            unsafe { values.set_len(len) };
            Ok(values)
        })
    })?;
    let array = Array2::from_shape_vec((n, 2), values)
        .map_err(|e| PyValueError::new_err(format!("offsets of {n} tokens do not make an n x 2 array: {e}")))?;
    Ok(PyArray2::from_owned_array(py, array).into_any())
}

const RETURN_TENSORS: &str = "return_tensors=\"np\"";

/// The columns `encode_batch(return_tensors="np")` gives, by name.
pub const ENCODE_BATCH_COLUMNS: [(&str, Column); 4] = [
    ("input_ids", Column::Ids),
    ("attention_mask", Column::AttentionMask),
    ("token_type_ids", Column::TypeIds),
    ("offsets", Column::Offsets),
];

/// The column `encode_batch(return_tensors="np", return_special_tokens_mask=True)`
/// adds to the padded arrays.
pub const SPECIAL_TOKENS_MASK_COLUMN: (&str, Column) = ("special_tokens_mask", Column::SpecialTokensMask);

/// `{name: array}` for each `(name, column)`: n × length for one value per
/// token, `offsets` n × length × 2, all int64 and writable. The encodings
/// must all have the same length (pad them).
pub fn numpy_arrays<'py>(
    py: Python<'py>,
    batch: &[Encoding],
    columns: &[(&str, Column)],
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let length = batch.first().map_or(0, Encoding::len);
    if let Some((i, e)) = batch.iter().enumerate().find(|(_, e)| e.len() != length) {
        return Err(PyValueError::new_err(format!(
            "return_tensors=\"np\" needs encodings of equal length, but inputs[0] has {length} tokens and \
             inputs[{i}] has {}: pass padding=\"longest\" or padding=\"max_length\"",
            e.len()
        )));
    }
    let numpy = import_numpy(py, RETURN_TENSORS)?;
    let out = PyDict::new(py);
    for &(key, column) in columns {
        // No pass zeroes the memory: `written` writes every element.
        let shape = (batch.len(), length, column.width());
        let bytes = shape.0.checked_mul(shape.1).and_then(|n| n.checked_mul(shape.2)).and_then(|n| n.checked_mul(8));
        let array = if bytes.is_some_and(|b| b <= SMALL_ARRAY_BYTES) {
            // Through numpy's C API: a tenth of the time of a call to
            // numpy.empty (its arguments parsed, its dtype looked up).
            if column.width() == 1 {
                // SAFETY: `written` writes every element before the array is handed out.
                let new = unsafe { PyArray2::<i64>::new(py, [shape.0, shape.1], false) };
                written(new, column, batch, threads)?
            } else {
                // SAFETY: as above.
                let new = unsafe { PyArray3::<i64>::new(py, [shape.0, shape.1, shape.2], false) };
                written(new, column, batch, threads)?
            }
        } else if column.width() == 1 {
            // numpy.empty: memory numpy could not reserve (the length can
            // come from max_length or pad_to_multiple_of) is its
            // MemoryError, not an abort.
            let new = numpy.call_method1("empty", ((shape.0, shape.1), "int64"))?;
            written(new.cast_into::<PyArray2<i64>>()?, column, batch, threads)?
        } else {
            let new = numpy.call_method1("empty", (shape, "int64"))?;
            written(new.cast_into::<PyArray3<i64>>()?, column, batch, threads)?
        };
        out.set_item(key, array)?;
    }
    Ok(out)
}

/// Padded arrays up to this size are made through numpy's C API, larger ones
/// by `numpy.empty` (see [`numpy_arrays`]).
const SMALL_ARRAY_BYTES: usize = 1 << 20;

/// `array`, a new C-contiguous array of the batch's shape for `column`, with
/// every element written by [`Column::write_rows`].
fn written<'py, D: Dimension>(
    array: Bound<'py, PyArray<i64, D>>,
    column: Column,
    batch: &[Encoding],
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: the array was just made and nothing else refers to it, so this
    // is the only view of its memory while the rows are written (with the
    // GIL released, no Python code can reach it either).
    let rows = unsafe { array.as_slice_mut() }
        .map_err(|e| PyValueError::new_err(format!("numpy made an array unfit for {column:?}: {e}")))?;
    detach_for(array.py(), std::mem::size_of_val(rows), || guard(|| column.write_rows(batch, rows, threads)))?;
    Ok(array.into_any())
}

/// `encode_batch(return_tensors="np")` without padding: a
/// `fast_wordpiece.ragged.RaggedBatch` of the parts' rows, its columns flat
/// int64 arrays (`offsets` n × 2) made through numpy's C API and filled from
/// the parts with the GIL released (in parallel unless small); the columns
/// not in `fields` are None. A single part merged for ids alone
/// (`RaggedPart::merged`) hands its int64 ids to the array without a copy.
pub fn ragged_batch<'py>(
    py: Python<'py>,
    mut parts: Vec<RaggedPart>,
    fields: RaggedFields,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    // For its error when numpy is missing: the arrays are made through numpy's C API.
    import_numpy(py, RETURN_TENSORS)?;
    if let [part] = &mut parts[..] {
        if let Some(wide) = part.wide_ids.take() {
            return merged_batch(py, wide, &part.lengths);
        }
    }
    let parts = &parts[..];
    let (rows, tokens) = ragged::totals(parts);
    let empty = |shape: Vec<usize>| -> PyResult<Bound<'py, PyArrayDyn<i64>>> {
        // SAFETY: every element is written below, before the array is handed out.
        Ok(unsafe { PyArrayDyn::<i64>::new(py, shape, false) })
    };
    let ids = empty(vec![tokens])?;
    let row_offsets = empty(vec![rows + 1])?;
    let type_ids = fields.type_ids.then(|| empty(vec![tokens])).transpose()?;
    let offsets = fields.offsets.then(|| empty(vec![tokens, 2])).transpose()?;
    let special = fields.special_tokens_mask.then(|| empty(vec![tokens])).transpose()?;
    {
        /// The memory of `a`, to write.
        ///
        /// # Safety
        /// No other view of `a`'s memory may exist while the slice lives
        /// (numpy's `as_slice_mut` has the same contract, hence the lint).
        #[allow(clippy::mut_from_ref)]
        unsafe fn slice<'a>(a: &'a Bound<'_, PyArrayDyn<i64>>) -> PyResult<&'a mut [i64]> {
            // SAFETY: the caller's promise.
            unsafe { a.as_slice_mut() }
                .map_err(|e| PyValueError::new_err(format!("numpy made an array unfit for {RETURN_TENSORS}: {e}")))
        }
        // SAFETY: the arrays were just made and nothing else refers to them,
        // so these are the only views of their memory while they are written
        // (with the GIL released, no Python code can reach them either).
        let (ids_out, starts_out) = unsafe { (slice(&ids)?, slice(&row_offsets)?) };
        // SAFETY: as above.
        let type_out = type_ids.as_ref().map(|a| unsafe { slice(a) }).transpose()?;
        // SAFETY: as above.
        let offsets_out = offsets.as_ref().map(|a| unsafe { slice(a) }).transpose()?;
        // SAFETY: as above.
        let special_out = special.as_ref().map(|a| unsafe { slice(a) }).transpose()?;
        // int64 values written: each token's fields, each row's start.
        let per_token = 1 + usize::from(fields.type_ids) + usize::from(fields.special_tokens_mask);
        let bytes = 8 * (tokens * (per_token + 2 * usize::from(fields.offsets)) + rows);
        detach_for(py, bytes, || {
            guard(|| {
                // Each part's first row starts where the parts before it end.
                let (mut row, mut token) = (0usize, 0i64);
                let mut firsts = Vec::with_capacity(parts.len());
                for p in parts {
                    firsts.push(token);
                    row += p.rows();
                    token += p.tokens() as i64;
                }
                debug_assert_eq!(row, rows);
                starts_out[rows] = token;
                let ids_slices = ragged::split_for(ids_out, parts, 1, false);
                let row_slices = ragged::split_for(&mut starts_out[..rows], parts, 1, true);
                fn optional<'a>(
                    out: Option<&'a mut [i64]>,
                    parts: &[RaggedPart],
                    width: usize,
                ) -> Vec<Option<&'a mut [i64]>> {
                    match out {
                        Some(out) => ragged::split_for(out, parts, width, false).into_iter().map(Some).collect(),
                        None => parts.iter().map(|_| None).collect(),
                    }
                }
                let (types, pairs, specials) =
                    (optional(type_out, parts, 1), optional(offsets_out, parts, 2), optional(special_out, parts, 1));
                let jobs: Vec<_> = parts
                    .iter()
                    .zip(firsts)
                    .zip(ids_slices)
                    .zip(row_slices)
                    .zip(types)
                    .zip(pairs)
                    .zip(specials)
                    .map(|((((((p, first), ids), rows), types), pairs), specials)| {
                        (p, first, ids, rows, types, pairs, specials)
                    })
                    .collect();
                threads::for_each(threads, bytes, jobs, |(p, first, ids, rows, types, pairs, specials)| {
                    widen(ids, &p.ids);
                    let mut at = first;
                    for (slot, &n) in rows.iter_mut().zip(&p.lengths) {
                        *slot = at;
                        at += i64::from(n);
                    }
                    if let Some(out) = types {
                        widen(out, &p.type_ids);
                    }
                    if let Some(out) = specials {
                        widen(out, &p.special_tokens_mask);
                    }
                    if let Some(out) = pairs {
                        for (pair, &(start, end)) in out.chunks_exact_mut(2).zip(&p.offsets) {
                            pair[0] = start.into();
                            pair[1] = end.into();
                        }
                    }
                })
            })
        })?;
    }
    ragged_class(py)?.call1((ids, row_offsets, type_ids, offsets, special))
}

/// `fast_wordpiece.ragged.RaggedBatch`, looked up once.
fn ragged_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let class =
        CLASS.get_or_try_init(py, || py.import("fast_wordpiece.ragged")?.getattr("RaggedBatch").map(Bound::unbind))?;
    Ok(class.bind(py))
}

/// [`ragged_batch`] of a merged part (see `RaggedPart::merged`): its int64
/// ids taken over by the array, no copy; `lengths`, each row's tokens.
fn merged_batch<'py>(py: Python<'py>, ids: Vec<i64>, lengths: &[u32]) -> PyResult<Bound<'py, PyAny>> {
    let mut starts = Vec::with_capacity(lengths.len() + 1);
    let mut at = 0i64;
    starts.push(at);
    for &n in lengths {
        at += i64::from(n);
        starts.push(at);
    }
    debug_assert_eq!(at as usize, ids.len());
    let (ids, starts) = (PyArray1::from_vec(py, ids), PyArray1::from_vec(py, starts));
    ragged_class(py)?.call1((ids, starts, py.None(), py.None(), py.None()))
}

fn widen<T: Copy + Into<i64>>(out: &mut [i64], values: &[T]) {
    for (slot, &v) in out.iter_mut().zip(values) {
        *slot = v.into();
    }
}
