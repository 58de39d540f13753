//! `return_tensors="np"`: a batch of encodings as int64 numpy arrays, each
//! made empty by numpy and filled in Rust, rows in parallel with the GIL
//! released (no Python object per element, no pass to zero the memory).

use pyo3::buffer::PyBuffer;
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

/// `{"input_ids", "attention_mask", "token_type_ids"}` of shape n × length and
/// `"offsets"` of shape n × length × 2, all int64 and writable. The encodings
/// must all have the same length (pad them).
pub fn numpy_arrays<'py>(
    numpy: &Bound<'py, PyModule>,
    batch: &[Encoding],
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let py = numpy.py();
    let length = batch.first().map_or(0, Encoding::len);
    if let Some((i, e)) = batch.iter().enumerate().find(|(_, e)| e.len() != length) {
        return Err(PyValueError::new_err(format!(
            "return_tensors=\"np\" needs encodings of equal length, but inputs[0] has {length} tokens and \
             inputs[{i}] has {}: pass padding=\"longest\" or padding=\"max_length\"",
            e.len()
        )));
    }
    let out = PyDict::new(py);
    let empty = numpy.getattr("empty")?;
    let int64 = numpy.getattr("int64")?;
    for (key, column) in [
        ("input_ids", Column::Ids),
        ("attention_mask", Column::AttentionMask),
        ("token_type_ids", Column::TypeIds),
        ("offsets", Column::Offsets),
    ] {
        let array = if column.width() == 1 {
            empty.call1(((batch.len(), length), &int64))?
        } else {
            empty.call1(((batch.len(), length, column.width()), &int64))?
        };
        let buffer = PyBuffer::<i64>::get(&array)?;
        let size = batch.len() * length * column.width();
        if buffer.readonly() || !buffer.is_c_contiguous() || buffer.item_count() != size {
            return Err(PyValueError::new_err(format!("numpy.empty gave an array unfit for {key}")));
        }
        if size > 0 {
            // SAFETY: a new, writable, C-contiguous array of `size` (> 0, so
            // its pointer is not null) int64 that nothing else can reach yet;
            // `buffer` keeps it alive and its memory in place until it is
            // dropped, after the rows are written.
            let rows = unsafe { std::slice::from_raw_parts_mut(buffer.buf_ptr().cast::<i64>(), size) };
            py.detach(|| guard(|| column.write_rows(batch, rows, threads)))?;
        }
        drop(buffer);
        out.set_item(key, array)?;
    }
    Ok(out)
}
