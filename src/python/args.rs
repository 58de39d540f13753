//! Converting and checking Python arguments, with errors that name the
//! argument: TypeError for a wrong type, ValueError for a wrong value.

use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyInt, PyString};

use super::errors::to_py;
use crate::tokenizer::batch::{EncodeArgs, EncodeOptions};
use crate::tokenizer::core::Options;
use crate::DEFAULT_SPECIAL_TOKENS;

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".into())
}

/// A `str` argument as UTF-8. Lone surrogates cannot be encoded: ValueError.
pub fn text<'a>(obj: &'a Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<&'a str> {
    let s = obj
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err(format!("{} must be str, not {}", what(), type_name(obj))))?;
    s.to_str().map_err(|e| {
        let py = obj.py();
        let at = e.value(py).getattr("start").and_then(|v| v.extract::<usize>()).unwrap_or(0);
        PyValueError::new_err(format!(
            "{} contains a lone surrogate at index {at}, which is not valid Unicode text",
            what()
        ))
    })
}

/// Rejects the things that iterate but are not collections of texts.
pub fn reject_text_as_collection(obj: &Bound<'_, PyAny>, name: &str, of: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return Err(PyTypeError::new_err(format!("{name} must be an iterable of {of}, not {}", type_name(obj))));
    }
    Ok(())
}

/// An integer argument (bool is not accepted).
fn integer(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!("{name} must be int, not {}", type_name(obj))));
    }
    obj.extract().map_err(|_| PyValueError::new_err(format!("{name} is too large")))
}

/// A non-negative integer argument.
pub fn count(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    let value = integer(obj, name)?;
    if value < 0 {
        return Err(PyValueError::new_err(format!("{name} must be >= 0, got {value}")));
    }
    u64::try_from(value).map_err(|_| PyValueError::new_err(format!("{name} is too large")))
}

/// A positive integer argument.
pub fn positive(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    let value = integer(obj, name)?;
    if value <= 0 {
        return Err(PyValueError::new_err(format!("{name} must be positive, got {value}")));
    }
    usize::try_from(value).map_err(|_| PyValueError::new_err(format!("{name} is too large")))
}

fn flag(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    obj.cast::<PyBool>()
        .map(|b| b.is_true())
        .map_err(|_| PyTypeError::new_err(format!("{name} must be bool, not {}", type_name(obj))))
}

/// The special tokens argument: a list or tuple of distinct non-empty str.
pub fn special_tokens(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(obj) = obj else {
        return Ok(DEFAULT_SPECIAL_TOKENS.iter().map(|t| t.to_string()).collect());
    };
    reject_text_as_collection(obj, "special_tokens", "str")?;
    let iter = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("special_tokens must be a list of str, not {}", type_name(obj))))?;
    let mut tokens = Vec::new();
    for (i, item) in iter.enumerate() {
        let item = item?;
        tokens.push(text(&item, &|| format!("special_tokens[{i}]"))?.to_owned());
    }
    crate::tokenizer::core::validate_special_tokens(&tokens).map_err(to_py)?;
    Ok(tokens)
}

/// The pipeline options, given as keyword arguments.
pub fn options(kwargs: Option<&Bound<'_, PyDict>>, function: &str) -> PyResult<Options> {
    let mut o = Options::default();
    let Some(kwargs) = kwargs else { return Ok(o) };
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        let v = &value;
        match key.as_str() {
            "lowercase" => o.normalizer.lowercase = flag(v, &key)?,
            "strip_accents" => o.normalizer.strip_accents = if v.is_none() { None } else { Some(flag(v, &key)?) },
            "clean_text" => o.normalizer.clean_text = flag(v, &key)?,
            "handle_chinese_chars" => o.normalizer.handle_chinese_chars = flag(v, &key)?,
            "pre_tokenizer" => o.pre_tokenizer = text(v, &|| key.clone())?.parse().map_err(to_py)?,
            "unk_token" => o.unk_token = text(v, &|| key.clone())?.to_owned(),
            "cls_token" => o.cls_token = text(v, &|| key.clone())?.to_owned(),
            "sep_token" => o.sep_token = text(v, &|| key.clone())?.to_owned(),
            "max_input_chars_per_word" => o.max_input_chars_per_word = positive(v, &key)?,
            _ => return Err(PyTypeError::new_err(format!("{function}() got an unexpected keyword argument {key:?}"))),
        }
    }
    o.validate().map_err(to_py)?;
    Ok(o)
}

/// One path, or an iterable of paths (str or os.PathLike).
pub fn paths(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(path) = obj.extract::<PathBuf>() {
        return Ok(vec![path]);
    }
    let not_paths = || PyTypeError::new_err(format!("paths must be a path or a list of paths, not {}", type_name(obj)));
    let iter = obj.try_iter().map_err(|_| not_paths())?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        let item = item?;
        out.push(item.extract::<PathBuf>().map_err(|_| {
            PyTypeError::new_err(format!("paths[{i}] must be str or os.PathLike, not {}", type_name(&item)))
        })?);
    }
    Ok(out)
}

/// A path argument (str or os.PathLike).
pub fn path(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<PathBuf> {
    obj.extract::<PathBuf>()
        .map_err(|_| PyTypeError::new_err(format!("{name} must be str or os.PathLike, not {}", type_name(obj))))
}

/// Token ids: ints in `0..vocab_size`; anything else is named in the error.
pub fn ids(obj: &Bound<'_, PyAny>, name: &str, vocab_size: usize) -> PyResult<Vec<u32>> {
    reject_text_as_collection(obj, name, "int")?;
    let iter = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("{name} must be a sequence of int, not {}", type_name(obj))))?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        let item = item?;
        if item.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!("{name}[{i}] must be int, not bool")));
        }
        let id: i128 = item
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("{name}[{i}] must be int, not {}", type_name(&item))))?;
        if id < 0 || id >= vocab_size as i128 {
            return Err(PyValueError::new_err(format!(
                "{name}[{i}] = {id} is out of range for a vocabulary of {vocab_size} tokens"
            )));
        }
        out.push(id as u32);
    }
    Ok(out)
}

/// What `encode_batch(..., return_tensors=...)` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnTensors {
    /// A list of `Encoding`.
    List,
    /// A dict of int64 numpy arrays.
    Numpy,
}

/// The keyword arguments of `encode` and `encode_batch` (truncation, padding
/// and, for `encode_batch`, `return_tensors`), checked together by the core.
pub fn encode_options(
    add_special_tokens: bool,
    kwargs: Option<&Bound<'_, PyDict>>,
    function: &str,
) -> PyResult<(EncodeOptions, ReturnTensors)> {
    let mut args = EncodeArgs { add_special_tokens, ..EncodeArgs::default() };
    let mut return_tensors = ReturnTensors::List;
    let mut threads = None;
    let mut strings: Vec<(String, Bound<'_, PyAny>)> = Vec::new();
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let key: String = key.extract()?;
        let v = &value;
        match key.as_str() {
            "max_length" => args.max_length = optional(v, |v| count(v, &key))?.map(|n| n as usize),
            "stride" => args.stride = count(v, &key)? as usize,
            "pad_to_multiple_of" => args.pad_to_multiple_of = optional(v, |v| positive(v, &key))?,
            "truncation" | "truncation_side" | "padding_side" => strings.push((key, value)),
            "padding" if !v.is_none() => strings.push((key, value)),
            "padding" => {}
            "num_threads" if function == "encode_batch" => {
                threads = optional(v, |v| positive(v, &key))?;
            }
            "return_tensors" if function == "encode_batch" => {
                return_tensors = if v.is_none() {
                    ReturnTensors::List
                } else if text(v, &|| key.clone())? == "np" {
                    ReturnTensors::Numpy
                } else {
                    return Err(PyValueError::new_err(format!(
                        "return_tensors must be None or \"np\", not {}",
                        v.repr()?
                    )));
                }
            }
            _ => return Err(PyTypeError::new_err(format!("{function}() got an unexpected keyword argument {key:?}"))),
        }
    }
    for (key, value) in &strings {
        let s = text(value, &|| key.clone())?;
        match key.as_str() {
            "truncation" => args.truncation = s,
            "truncation_side" => args.truncation_side = s,
            "padding_side" => args.padding_side = s,
            _ => args.padding = Some(s),
        }
    }
    let mut options = args.check().map_err(to_py)?;
    options.threads = threads;
    Ok((options, return_tensors))
}

/// None, or what `convert` makes of the value.
fn optional<T>(obj: &Bound<'_, PyAny>, convert: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>) -> PyResult<Option<T>> {
    if obj.is_none() {
        Ok(None)
    } else {
        convert(obj).map(Some)
    }
}
