//! The Python bindings, and nothing else: argument conversion, the mapping of
//! core errors to Python exceptions, and releasing the GIL around heavy work.

mod args;
mod arrays;
mod encoding;
mod errors;
mod ints;
mod tokenizer;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<tokenizer::PyTokenizer>()?;
    m.add_class::<encoding::PyEncoding>()?;
    m.add("DEFAULT_SPECIAL_TOKENS", pyo3::types::PyTuple::new(m.py(), crate::DEFAULT_SPECIAL_TOKENS)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
