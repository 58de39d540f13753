//! Argument helpers shared by the bindings of the tokenizer family
//! (`BPETokenizer`, `CharTokenizer`, `UnigramTokenizer`): texts held as UTF-8
//! while the GIL is released, and id lists.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::args::{self, text, type_name, Text};
use super::ints::int_list;

/// The texts of an iterable of str, as UTF-8 (errors name `name[i]`).
pub fn texts<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Vec<Text<'py>>> {
    args::reject_text_as_collection(obj, name, "str")?;
    let iter = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("{name} must be an iterable of str, not {}", type_name(obj))))?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        let item = item?;
        out.push(text(&item, &|| format!("{name}[{i}]"))?);
    }
    Ok(out)
}

/// An optional thread count argument.
pub fn threads(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match obj {
        Some(o) if !o.is_none() => Ok(Some(args::positive(o, "num_threads")?)),
        _ => Ok(None),
    }
}

/// A list of id lists (the inner lists untracked by the garbage collector,
/// their ints shared: see `ints`).
pub fn id_lists<'py>(py: Python<'py>, rows: &[Vec<u32>]) -> PyResult<Bound<'py, PyList>> {
    let lists = rows.iter().map(|r| int_list(py, r)).collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, lists)
}
