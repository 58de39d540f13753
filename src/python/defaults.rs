//! The default truncation and padding a Hugging Face file gives a tokenizer:
//! `truncation` and `padding` (as Hugging Face's Python API shows them), and
//! copies without them, `no_truncation()` and `no_padding()`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::guard;
use super::tokenizer::PyTokenizer;
use crate::pipeline::padding::PadTo;

#[pymethods]
impl PyTokenizer {
    /// The truncation used when a call gives none: `{"max_length", "stride",
    /// "strategy", "direction"}`, or None.
    #[getter]
    fn truncation<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(t) = self.inner().truncation() else { return Ok(None) };
        let dict = PyDict::new(py);
        dict.set_item("max_length", t.max_length)?;
        dict.set_item("stride", t.stride)?;
        dict.set_item("strategy", t.strategy.to_string())?;
        dict.set_item("direction", t.side.to_string())?;
        Ok(Some(dict))
    }

    /// The padding used when a call gives none: `{"length" (None: the
    /// longest of the batch), "pad_to_multiple_of", "pad_id", "pad_token",
    /// "pad_type_id", "direction"}`, or None.
    #[getter]
    fn padding<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(p) = self.inner().padding() else { return Ok(None) };
        let dict = PyDict::new(py);
        dict.set_item("length", if let PadTo::Fixed(n) = p.to { Some(n) } else { None })?;
        dict.set_item("pad_to_multiple_of", p.multiple_of.map(|m| m.get()))?;
        let shared = self.inner();
        let pad = &shared.options().pad_token;
        dict.set_item("pad_id", shared.vocab().id(pad))?;
        dict.set_item("pad_token", pad)?;
        dict.set_item("pad_type_id", 0)?;
        dict.set_item("direction", p.side.to_string())?;
        Ok(Some(dict))
    }

    /// A copy of this tokenizer without default truncation.
    fn no_truncation(&self) -> PyResult<Self> {
        let shared = self.inner();
        let t = &**shared;
        guard(|| t.clone().with_defaults(None, t.padding())).map(Self::wrap)
    }

    /// A copy of this tokenizer without default padding.
    fn no_padding(&self) -> PyResult<Self> {
        let shared = self.inner();
        let t = &**shared;
        guard(|| t.clone().with_defaults(t.truncation(), None)).map(Self::wrap)
    }
}
