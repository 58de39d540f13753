//! Argument helpers shared by the bindings of the tokenizer family
//! (`BPETokenizer`, `CharTokenizer`): texts held as UTF-8 while the GIL is
//! released, and the `analyze` dict.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::args::{self, text, type_name, Text};
use super::ints::int_list;
use crate::tokenizer::analysis::Counts;

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

fn ratio(x: u64, y: u64) -> f64 {
    if y == 0 {
        0.0
    } else {
        x as f64 / y as f64
    }
}

/// The `analyze` dict of counts.
pub fn analysis<'py>(py: Python<'py>, vocab_size: usize, c: &Counts) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("vocab_size", vocab_size)?;
    out.set_item("texts", c.texts)?;
    out.set_item("words", c.words)?;
    out.set_item("characters", c.characters)?;
    out.set_item("tokens", c.tokens)?;
    out.set_item("unknown", c.unknown)?;
    out.set_item("vocab_used", c.vocab_used)?;
    out.set_item("tokens_per_word", ratio(c.tokens, c.words))?;
    out.set_item("characters_per_token", ratio(c.characters, c.tokens))?;
    out.set_item("unknown_rate", ratio(c.unknown, c.tokens))?;
    out.set_item("vocab_used_share", ratio(c.vocab_used, vocab_size as u64))?;
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
