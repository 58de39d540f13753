//! The default truncation and padding of a tokenizer, which a Hugging Face
//! file gives or Hugging Face's setters change: `truncation` and `padding`
//! (as Hugging Face's Python API shows them), `enable_truncation`,
//! `enable_padding`, `no_truncation` and `no_padding`.

use std::num::NonZeroUsize;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::args::{self, Given};
use super::encoding::Shared;
use super::errors::guard;
use super::tokenizer::PyTokenizer;
use crate::encoding::Side;
use crate::error::{Error, Quoted, Result};
use crate::pipeline::padding::{PadTo, Padding};
use crate::pipeline::truncation::{Strategy, Truncation};
use crate::tokenizer::Tokenizer;

impl PyTokenizer {
    /// Replaces this tokenizer's pipeline by what `change` makes of it, under
    /// the lock, so that no other change is lost (calls running keep the one
    /// they started with).
    fn change_defaults(&self, change: impl FnOnce(&Tokenizer) -> Result<Tokenizer>) -> PyResult<()> {
        let mut slot = self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        let changed = guard(|| change(&slot))?;
        *slot = Arc::new(Shared::new(changed));
        Ok(())
    }
}

/// An optional argument's value: `default` when left out, else what
/// `convert` makes of it (None given is checked like any other value).
fn or_default<T>(given: &Given<'_>, default: T, convert: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>) -> PyResult<T> {
    given.0.as_ref().map_or(Ok(default), convert)
}

/// A truncation strategy by its Hugging Face name.
fn strategy(value: &Bound<'_, PyAny>) -> PyResult<Strategy> {
    match &*args::text(value, &|| "strategy".into())? {
        "longest_first" => Ok(Strategy::LongestFirst),
        "only_first" => Ok(Strategy::OnlyFirst),
        "only_second" => Ok(Strategy::OnlySecond),
        other => Err(PyValueError::new_err(format!(
            "strategy must be \"longest_first\", \"only_first\" or \"only_second\", not {}",
            Quoted(other)
        ))),
    }
}

/// `"left"` or `"right"`.
fn direction(value: &Bound<'_, PyAny>) -> PyResult<Side> {
    args::side(&args::text(value, &|| "direction".into())?, "direction")
}

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

    /// Truncates to `max_length` tokens by default from now on, as Hugging
    /// Face's `enable_truncation` does (a call's own `max_length` or
    /// `truncation=False` still wins). `strategy`: `"longest_first"`,
    /// `"only_first"` or `"only_second"`; `direction`: `"right"` or `"left"`;
    /// `stride`: tokens the overflowing windows repeat, at most `max_length`
    /// minus the special tokens of one text.
    #[pyo3(
        signature = (max_length, stride = Given(None), strategy = Given(None), direction = Given(None)),
        text_signature = "($self, max_length, stride=0, strategy='longest_first', direction='right')"
    )]
    fn enable_truncation(
        &self,
        max_length: &Bound<'_, PyAny>,
        stride: Given<'_>,
        strategy: Given<'_>,
        direction: Given<'_>,
    ) -> PyResult<()> {
        let max_length = usize::try_from(args::count(max_length, "max_length")?)
            .map_err(|_| PyValueError::new_err("max_length is too large"))?;
        let stride = or_default(&stride, 0, |v| args::count(v, "stride"))?;
        let stride = usize::try_from(stride).map_err(|_| PyValueError::new_err("stride is too large"))?;
        let strategy = or_default(&strategy, Strategy::LongestFirst, self::strategy)?;
        let side = or_default(&direction, Side::Right, self::direction)?;
        let truncation = Truncation { max_length, strategy, stride, side };
        self.change_defaults(|t| t.clone().with_defaults(Some(truncation), t.padding()))
    }

    /// Pads by default from now on, as Hugging Face's `enable_padding` does:
    /// to `length` tokens, or without one to the longest of the batch, then
    /// up to a multiple of `pad_to_multiple_of` (None or 0: none); on the `direction` side,
    /// with `pad_token` (the tokenizer's pad token when left out, which it
    /// then becomes). `pad_id`, when given, must be the pad token's id, and
    /// `pad_type_id` 0: padding inserts the pad token with type id 0.
    #[pyo3(
        signature = (direction = Given(None), pad_id = None, pad_type_id = Given(None), pad_token = None, length = None, pad_to_multiple_of = None),
        text_signature = "($self, direction='right', pad_id=None, pad_type_id=0, pad_token=None, length=None, pad_to_multiple_of=None)"
    )]
    fn enable_padding(
        &self,
        direction: Given<'_>,
        pad_id: Option<&Bound<'_, PyAny>>,
        pad_type_id: Given<'_>,
        pad_token: Option<&Bound<'_, PyAny>>,
        length: Option<&Bound<'_, PyAny>>,
        pad_to_multiple_of: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let side = or_default(&direction, Side::Right, self::direction)?;
        let pad_id = pad_id.map(|v| args::count(v, "pad_id")).transpose()?;
        if or_default(&pad_type_id, 0, |v| args::count(v, "pad_type_id"))? != 0 {
            return Err(PyValueError::new_err(
                "pad_type_id must be 0: padding gives the pad token type id 0, as transformers does",
            ));
        }
        let pad_token = pad_token.map(|v| args::text(v, &|| "pad_token".into()).map(|t| t.to_string())).transpose()?;
        let to = match length {
            None => PadTo::Longest,
            Some(v) => PadTo::Fixed(
                usize::try_from(args::count(v, "length")?).map_err(|_| PyValueError::new_err("length is too large"))?,
            ),
        };
        // 0 pads to no multiple, as in Hugging Face (and in a file's padding section)
        let multiple_of = pad_to_multiple_of.map(|v| args::count(v, "pad_to_multiple_of")).transpose()?;
        let multiple_of = match multiple_of.map(usize::try_from).transpose() {
            Ok(m) => m.and_then(NonZeroUsize::new),
            Err(_) => return Err(PyValueError::new_err("pad_to_multiple_of is too large")),
        };
        let padding = Padding { to, multiple_of, side };
        self.change_defaults(|t| {
            let padded = match &pad_token {
                Some(token) if *token != t.options().pad_token => t.with_pad_token(token)?,
                _ => t.clone(),
            };
            let token = &padded.options().pad_token;
            let Some(id) = padded.vocab().id(token) else {
                return Err(Error::invalid(format!(
                    "pad_token {} is not in the vocabulary: padding inserts it",
                    Quoted(token)
                )));
            };
            if let Some(given) = pad_id.filter(|&given| given != u64::from(id)) {
                return Err(Error::invalid(format!(
                    "pad_id {given} is not the id of the pad token {} ({id}): padding inserts the token with its id",
                    Quoted(token)
                )));
            }
            let truncation = padded.truncation();
            padded.with_defaults(truncation, Some(padding))
        })
    }

    /// Truncates no more by default (Hugging Face's `no_truncation`); returns
    /// this tokenizer, so that calls chain.
    fn no_truncation(slf: Bound<'_, Self>) -> PyResult<Bound<'_, Self>> {
        slf.get().change_defaults(|t| t.clone().with_defaults(None, t.padding()))?;
        Ok(slf)
    }

    /// Pads no more by default (Hugging Face's `no_padding`); returns this
    /// tokenizer, so that calls chain.
    fn no_padding(slf: Bound<'_, Self>) -> PyResult<Bound<'_, Self>> {
        slf.get().change_defaults(|t| t.clone().with_defaults(t.truncation(), None))?;
        Ok(slf)
    }
}
