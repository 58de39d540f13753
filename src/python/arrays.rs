//! `return_tensors="np"`: a batch of encodings as int64 numpy arrays, each
//! built from one `bytearray` filled in Rust (no Python object per element).

use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict};

use crate::tokenizer::encoding::Encoding;

/// numpy, imported on demand; numpy is not a dependency of fast-wordpiece.
pub fn import_numpy(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("numpy").map_err(|e| {
        PyImportError::new_err(format!("return_tensors=\"np\" needs numpy, which could not be imported ({e})"))
    })
}

/// `{"input_ids", "attention_mask", "token_type_ids"}` of shape n × length and
/// `"offsets"` of shape n × length × 2, all int64 and writable. The encodings
/// must all have the same length (pad them).
pub fn numpy_arrays<'py>(numpy: &Bound<'py, PyModule>, batch: &[Encoding]) -> PyResult<Bound<'py, PyDict>> {
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
    let int64 = numpy.getattr("int64")?;
    let add = |key: &str, width: usize, fill: &dyn Fn(&Encoding, &mut [u8])| -> PyResult<()> {
        let row_bytes = length * width * 8;
        let bytes = PyByteArray::new_with(py, batch.len() * row_bytes, |buf| {
            if row_bytes > 0 {
                for (e, row) in batch.iter().zip(buf.chunks_exact_mut(row_bytes)) {
                    fill(e, row);
                }
            }
            Ok(())
        })?;
        let flat = numpy.call_method1("frombuffer", (bytes, &int64))?;
        let array = if width == 1 {
            flat.call_method1("reshape", (batch.len(), length))?
        } else {
            flat.call_method1("reshape", (batch.len(), length, width))?
        };
        out.set_item(key, array)
    };
    add("input_ids", 1, &|e, row| write(row, e.ids.iter().map(|&v| v as i64)))?;
    add("attention_mask", 1, &|e, row| write(row, e.attention_mask.iter().map(|&v| v as i64)))?;
    add("token_type_ids", 1, &|e, row| write(row, e.type_ids.iter().map(|&v| v as i64)))?;
    add("offsets", 2, &|e, row| write(row, e.offsets.iter().flat_map(|&(s, t)| [s as i64, t as i64])))?;
    Ok(out)
}

/// Writes `values` as native-endian int64 into `row`.
fn write(row: &mut [u8], values: impl Iterator<Item = i64>) {
    for (slot, v) in row.chunks_exact_mut(8).zip(values) {
        slot.copy_from_slice(&v.to_ne_bytes());
    }
}
