//! `return_tensors="np"`: a batch of encodings as int64 numpy arrays, made
//! uninitialised by `numpy.empty` and filled in Rust through numpy's C API
//! (the `numpy` crate),
//! rows in parallel with the GIL released (no Python object per element, no
//! pass to zero the memory). numpy is needed at run time only, and only here.

use numpy::ndarray::Dimension;
use numpy::{PyArray, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::guard;
use crate::encoding::column::Column;
use crate::encoding::Encoding;

/// numpy, imported on demand; numpy is not a dependency of fast-wordpiece.
/// `what` names the feature that needs it in the ImportError.
pub fn import_numpy<'py>(py: Python<'py>, what: &str) -> PyResult<Bound<'py, PyModule>> {
    py.import("numpy")
        .map_err(|e| PyImportError::new_err(format!("{what} needs numpy, which could not be imported ({e})")))
}

/// `Encoding.offsets_array()`: the offsets of one encoding as an n × 2 int64
/// array, written with the GIL released (no Python object per token).
pub fn offsets_array<'py>(py: Python<'py>, encoding: &Encoding) -> PyResult<Bound<'py, PyAny>> {
    let numpy = import_numpy(py, "offsets_array()")?;
    let new = numpy.call_method1("empty", ((encoding.len(), 2), "int64"))?;
    written(new.cast_into::<PyArray2<i64>>()?, Column::Offsets, std::slice::from_ref(encoding), Some(1))
}

const RETURN_TENSORS: &str = "return_tensors=\"np\"";

/// `{"input_ids", "attention_mask", "token_type_ids"}` of shape n × length and
/// `"offsets"` of shape n × length × 2, all int64 and writable. The encodings
/// must all have the same length (pad them).
pub fn numpy_arrays<'py>(py: Python<'py>, batch: &[Encoding], threads: Option<usize>) -> PyResult<Bound<'py, PyDict>> {
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
    for (key, column) in [
        ("input_ids", Column::Ids),
        ("attention_mask", Column::AttentionMask),
        ("token_type_ids", Column::TypeIds),
        ("offsets", Column::Offsets),
    ] {
        // numpy.empty: memory numpy could not reserve (the length can come
        // from max_length or pad_to_multiple_of) is its MemoryError, not an
        // abort; and no pass zeroes it, `written` writes every element.
        let shape = (batch.len(), length, column.width());
        let new = if column.width() == 1 {
            numpy.call_method1("empty", ((shape.0, shape.1), "int64"))?
        } else {
            numpy.call_method1("empty", (shape, "int64"))?
        };
        let array = if column.width() == 1 {
            written(new.cast_into::<PyArray2<i64>>()?, column, batch, threads)?
        } else {
            written(new.cast_into::<PyArray3<i64>>()?, column, batch, threads)?
        };
        out.set_item(key, array)?;
    }
    Ok(out)
}

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
    array.py().detach(|| guard(|| column.write_rows(batch, rows, threads)))?;
    Ok(array.into_any())
}
