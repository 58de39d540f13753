//! `PyTokenizer.analyze`: encode texts in parallel (GIL released) and report
//! what the tokenizer makes of them.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::args::{self, text, type_name};
use super::errors::{guard, Signals};
use super::ints;
use super::tokenizer::PyTokenizer;
use crate::tokenizer::analysis::Analysis;
use crate::tokenizer::batch::map_chunks_until;

/// `x / y`, or 0.0 when `y` is 0.
fn ratio(x: u64, y: u64) -> f64 {
    if y == 0 {
        0.0
    } else {
        x as f64 / y as f64
    }
}

#[pymethods]
impl PyTokenizer {
    /// Encodes `texts` (an iterable of str; no special tokens added) and
    /// returns a dict: `vocab_size`, `texts`, `words` and `characters` (after
    /// normalization and pre-tokenization), `tokens`, `unknown` (tokens that
    /// are `unk_token`), `vocab_used` (distinct entries used), and the ratios
    /// `tokens_per_word`, `characters_per_token`, `unknown_rate` and
    /// `vocab_used_share`. Runs in parallel with the GIL released.
    fn analyze<'py>(&self, py: Python<'py>, texts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        args::reject_text_as_collection(texts, "texts", "str")?;
        args::reject_mapping(texts, "texts")?;
        let iter = texts.try_iter().map_err(|e| {
            args::unless_raised(e, || {
                PyTypeError::new_err(format!("texts must be an iterable of str, not {}", type_name(texts)))
            })
        })?;
        let held = args::collect(iter, "texts", args::size_hint(texts)?.unwrap_or(0), |_, t| Ok(t))?;
        let mut utf8 = super::encode::batch_room(held.len())?;
        for (i, t) in held.iter().enumerate() {
            utf8.push(text(t, &|| format!("texts[{i}]"))?);
        }
        let strs = super::args::strs(&utf8)?;
        let tokenizer = &self.inner();
        // Chunks with the GIL released; Ctrl-C (or another signal handler's
        // exception) stops the work between two.
        let signals = Signals::default();
        let parts = py.detach(|| {
            guard(|| map_chunks_until(&strs, None, |chunk| tokenizer.analyze_part(chunk), || signals.stop()))
        });
        let parts = signals.result(parts)?;
        analysis_dict(py, &Analysis::merged(tokenizer.vocab().len(), parts))
    }
}

/// The `analyze` dict of every tokenizer of the family: the counts and the
/// seed's ratios.
pub fn analysis_dict<'py>(py: Python<'py>, a: &Analysis) -> PyResult<Bound<'py, PyDict>> {
    let out = ints::new_dict(py)?;
    let counts = [
        ("vocab_size", a.vocab_size),
        ("texts", a.texts),
        ("words", a.words),
        ("characters", a.characters),
        ("tokens", a.tokens),
        ("unknown", a.unknown),
        ("vocab_used", a.vocab_used),
    ];
    for (key, n) in counts {
        ints::set_str_item(&out, key, ints::py_int(py, n)?)?;
    }
    let ratios = [
        ("tokens_per_word", ratio(a.tokens, a.words)),
        ("characters_per_token", ratio(a.characters, a.tokens)),
        ("unknown_rate", ratio(a.unknown, a.tokens)),
        ("vocab_used_share", ratio(a.vocab_used, a.vocab_size)),
    ];
    for (key, r) in ratios {
        ints::set_str_item(&out, key, ints::py_float(py, r)?)?;
    }
    Ok(out)
}
