//! `return_tensors="np"`: a batch of encodings as int64 numpy arrays, made
//! uninitialised through numpy's C API (the `numpy` crate) and filled in Rust,
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
pub fn import_numpy(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("numpy").map_err(|e| {
        PyImportError::new_err(format!("return_tensors=\"np\" needs numpy, which could not be imported ({e})"))
    })
}

/// The columns `encode_batch(return_tensors="np")` gives, by name.
pub const ENCODE_BATCH_COLUMNS: [(&str, Column); 4] = [
    ("input_ids", Column::Ids),
    ("attention_mask", Column::AttentionMask),
    ("token_type_ids", Column::TypeIds),
    ("offsets", Column::Offsets),
];

/// `{name: array}` for each `(name, column)`: n × length for one value per
/// token, `offsets` n × length × 2, all int64 and writable. The encodings
/// must all have the same length (pad them). Call [`import_numpy`] first.
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
    let out = PyDict::new(py);
    for &(key, column) in columns {
        let array = if column.width() == 1 {
            // SAFETY: a new array, uninitialised; `written` writes every
            // element before anything else can see it.
            let new = unsafe { PyArray2::<i64>::new(py, [batch.len(), length], false) };
            written(new, column, batch, threads)?
        } else {
            let shape = [batch.len(), length, column.width()];
            // SAFETY: as above.
            let new = unsafe { PyArray3::<i64>::new(py, shape, false) };
            written(new, column, batch, threads)?
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
