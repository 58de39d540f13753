//! `PyTokenizer.from_pretrained` and `save_pretrained`: local model
//! directories (see the core's `tokenizer::pretrained`).

use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

use super::args;
use super::errors::{guard, reading_files};
use super::paths::{path_str, FsPath};
use super::tokenizer::PyTokenizer;
use crate::error::Quoted;
use crate::tokenizer::{pretrained, Tokenizer};

#[pymethods]
impl PyTokenizer {
    /// A tokenizer from a local model directory
    /// (`pretrained_model_name_or_path`, transformers' name): its `tokenizer.json`, or its
    /// `vocab.txt` with `tokenizer_config.json` (and `special_tokens_map.json`,
    /// `added_tokens.json`), with the added and special tokens the directory
    /// configures (those the vocabulary lacks get the next ids, as in
    /// transformers); `model_max_length`, `padding_side` and
    /// `truncation_side` from `tokenizer_config.json`. A directory that
    /// transformers loads with a BERT class rebuilds the pipeline of its
    /// `tokenizer.json` from `do_lower_case`, `strip_accents` and
    /// `tokenize_chinese_chars`, as transformers does. Keyword arguments
    /// override the config's keys, as in transformers: those keys, the
    /// special tokens, `model_max_length`, `padding_side`,
    /// `truncation_side`, `clean_up_tokenization_spaces`,
    /// `split_special_tokens`, `model_input_names` (a list of str: the
    /// inputs the call returns by default; without it, those of
    /// transformers' class for the directory, `token_type_ids` left out for
    /// DistilBERT's and the generic one); `subfolder` reads the directory's
    /// subdirectory of that name (a model repository's `tokenizer/`); the
    /// hub's (`use_fast`, `local_files_only`, `revision`, `cache_dir`, ...)
    /// are ignored. Never downloads: a name that is not a directory is a
    /// FileNotFoundError.
    #[staticmethod]
    #[pyo3(signature = (pretrained_model_name_or_path, **kwargs))]
    fn from_pretrained(
        py: Python<'_>,
        pretrained_model_name_or_path: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let given = args::path(pretrained_model_name_or_path, "pretrained_model_name_or_path")?;
        let dir = model_dir(&given, kwargs)?;
        let overrides = match kwargs {
            Some(kwargs) => overrides(kwargs)?,
            None => Map::new(),
        };
        let (tokenizer, settings) = reading_files(py, |stop| {
            let mut settings = pretrained::call_settings_with(&dir, &overrides, stop)?;
            settings.model_input_names = pretrained::model_input_names(&dir, &overrides, stop)?;
            Ok((Tokenizer::from_pretrained_with(&dir, &overrides, stop)?, settings))
        })?;
        let out = Self::wrap(tokenizer);
        *out.call.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = settings;
        *out.name_or_path.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) =
            Some(path_str(py, &given)?.unbind());
        Ok(out)
    }

    /// Writes `tokenizer.json`, `vocab.txt` (unless the ids have holes, the
    /// continuation prefix is not `"##"`, which readers of a vocab.txt assume,
    /// or a token holds a line break),
    /// `tokenizer_config.json` and
    /// `special_tokens_map.json` into `save_directory` (created if needed), for
    /// `transformers.AutoTokenizer.from_pretrained` (with `model_max_length`
    /// when set, `padding_side`, `truncation_side`, `model_input_names` and
    /// the special tokens, `extra_special_tokens` among them); returns their
    /// paths. transformers' `legacy_format` is taken and ignored (a None or
    /// a bool: transformers 5's fast tokenizers ignore it too); a
    /// `filename_prefix` other than None or `""` and `push_to_hub=True` are
    /// ValueErrors.
    #[pyo3(
        signature = (save_directory, legacy_format=None, filename_prefix=None, push_to_hub=None, save_format=None),
        text_signature = "($self, save_directory, legacy_format=None, filename_prefix=None, push_to_hub=False, save_format=None)"
    )]
    fn save_pretrained(
        &self,
        py: Python<'_>,
        save_directory: &Bound<'_, PyAny>,
        legacy_format: Option<&Bound<'_, PyAny>>,
        filename_prefix: Option<&Bound<'_, PyAny>>,
        push_to_hub: Option<&Bound<'_, PyAny>>,
        save_format: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<FsPath>> {
        let dir = args::path(save_directory, "save_directory")?;
        save_keywords(legacy_format, filename_prefix, push_to_hub, save_format)?;
        let settings = self.settings();
        let paths = py.detach(|| guard(|| self.inner().save_pretrained(&dir, &settings)))?;
        Ok(paths.into_iter().map(FsPath).collect())
    }
}

/// `from_pretrained`'s keyword arguments that only say where to find a model
/// on the hub (or how to run its code), and mean nothing for a local
/// directory: accepted and ignored, as transformers 5 ignores `use_fast`.
pub const LOADER_KEYWORDS: [&str; 13] = [
    "use_fast",
    "local_files_only",
    "revision",
    "trust_remote_code",
    "cache_dir",
    "force_download",
    "token",
    "proxies",
    "use_auth_token",
    "resume_download",
    "_from_auto",
    "_from_pipeline",
    "_commit_hash",
];

/// `from_pretrained`'s directory: `given`, or its subdirectory named by
/// the `subfolder` keyword (a str or os.PathLike; None or `""`: none), as
/// transformers reads a model repository's `tokenizer/`. A subfolder
/// missing from a directory that exists is a FileNotFoundError saying so.
pub(super) fn model_dir(given: &Path, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<PathBuf> {
    let Some(sub) = kwargs.map(|k| k.get_item("subfolder")).transpose()?.flatten() else {
        return Ok(given.to_path_buf());
    };
    if sub.is_none() {
        return Ok(given.to_path_buf());
    }
    if sub.is_instance_of::<pyo3::types::PyString>() {
        args::text(&sub, &|| "subfolder".to_owned())?; // a lone surrogate: the ValueError naming it
    }
    let sub = args::path(&sub, "subfolder")?;
    if sub.as_os_str().is_empty() {
        return Ok(given.to_path_buf());
    }
    let dir = given.join(&sub);
    if given.is_dir() && !dir.exists() {
        let message =
            format!("{} has no subfolder {}", Quoted(&given.to_string_lossy()), Quoted(&sub.to_string_lossy()));
        // 2: ENOENT, as Python's own FileNotFoundError has it.
        return Err(PyFileNotFoundError::new_err((2, message, FsPath(dir))));
    }
    Ok(dir)
}

/// `save_pretrained`'s transformers keywords: `legacy_format` (None or a
/// bool, ignored), `filename_prefix` (None or `""`: transformers would
/// write `prefix-tokenizer.json`, which no loader reads back) and
/// `push_to_hub` (None or a bool; nothing is uploaded) and `save_format`
/// (None or `"hf"`; transformers' `"mistral"` is a ValueError).
pub(super) fn save_keywords(
    legacy_format: Option<&Bound<'_, PyAny>>,
    filename_prefix: Option<&Bound<'_, PyAny>>,
    push_to_hub: Option<&Bound<'_, PyAny>>,
    save_format: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    if let Some(value) = legacy_format.filter(|v| !v.is_none()) {
        args::flag(value, "legacy_format")?;
    }
    if let Some(value) = filename_prefix.filter(|v| !v.is_none()) {
        let prefix = args::text(value, &|| "filename_prefix".to_owned())?;
        if !prefix.is_empty() {
            return Err(PyValueError::new_err(format!(
                "filename_prefix {} is not supported: from_pretrained (ours and transformers') reads the files \
                 without a prefix; save into a directory of its own instead",
                Quoted(&prefix)
            )));
        }
    }
    if let Some(value) = push_to_hub {
        if args::flag(value, "push_to_hub")? {
            return Err(PyValueError::new_err(
                "push_to_hub=True is not supported: save_pretrained never uploads; upload the directory with \
                 huggingface_hub.upload_folder(repo_id=..., folder_path=directory)",
            ));
        }
    }
    if let Some(value) = save_format.filter(|v| !v.is_none()) {
        if !value.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "save_format must be str or None, not {}",
                args::type_name(value)
            )));
        }
        let format = args::text(value, &|| "save_format".to_owned())?;
        match &*format {
            "hf" => {}
            "mistral" => {
                return Err(PyValueError::new_err(
                    "save_format \"mistral\" is not supported: save_pretrained writes Hugging Face's files (\"hf\")",
                ))
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "save_format must be \"hf\" (or transformers' \"mistral\"), not {}",
                    Quoted(&format)
                )))
            }
        }
    }
    Ok(())
}

/// `from_pretrained`'s keyword arguments that rebuild BERT's pipeline (and
/// transformers' XLNet, ALBERT and DeBERTa-v2 normalizers): a
/// `UnigramTokenizer` keeps its file's pipeline, so it refuses them rather
/// than ignore them.
pub const BERT_PIPELINE_KEYWORDS: [&str; 4] =
    ["do_lower_case", "strip_accents", "tokenize_chinese_chars", "split_special_tokens"];

/// The TypeError of `UnigramTokenizer.from_pretrained` for one of
/// [`BERT_PIPELINE_KEYWORDS`].
pub fn not_for_unigram(key: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "UnigramTokenizer.from_pretrained() does not take {key}: it keeps the normalizer and pre-tokenizer of \
         the directory's tokenizer.json (change them there)"
    ))
}

/// The special-token keyword arguments (a str, an `AddedToken` or None).
const TOKEN_KEYWORDS: [&str; 7] =
    ["unk_token", "sep_token", "pad_token", "cls_token", "mask_token", "bos_token", "eos_token"];

/// `from_pretrained`'s keyword arguments as `tokenizer_config.json` values.
pub(super) fn overrides(kwargs: &Bound<'_, PyDict>) -> PyResult<Map<String, Value>> {
    let mut out = Map::new();
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        let converted = match key.as_str() {
            k if LOADER_KEYWORDS.contains(&k) || k == "subfolder" => continue,
            "do_lower_case" | "tokenize_chinese_chars" | "clean_up_tokenization_spaces" | "split_special_tokens" => {
                Value::Bool(args::flag(&value, &key)?)
            }
            "strip_accents" if value.is_none() => Value::Null,
            "strip_accents" => Value::Bool(args::flag(&value, &key)?),
            "model_max_length" if value.is_none() => Value::Null,
            "model_max_length" => json!(args::count(&value, &key)?),
            "padding_side" | "truncation_side" => {
                let side = args::text(&value, &|| key.clone())?.to_owned();
                if side != "left" && side != "right" {
                    return Err(PyValueError::new_err(format!(
                        "{key} must be \"right\" or \"left\", got {}",
                        Quoted(&side)
                    )));
                }
                json!(side)
            }
            "model_input_names" => json!(super::call::str_list(&value, "model_input_names")?),
            k if TOKEN_KEYWORDS.contains(&k) => token_value(&value, &key)?,
            "additional_special_tokens" | "extra_special_tokens" => {
                if value.is_instance_of::<PyString>() {
                    return Err(PyTypeError::new_err(format!("{key} must be a list of str or AddedToken, not str")));
                }
                let items = value.try_iter().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "{key} must be a list of str or AddedToken, not {}",
                        value.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                    ))
                })?;
                let mut tokens = Vec::new();
                for (i, item) in items.enumerate() {
                    tokens.push(token_value(&item?, &format!("{key}[{i}]"))?);
                }
                Value::Array(tokens)
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "from_pretrained() got an unexpected keyword argument {}",
                    pyo3::types::PyString::new(kwargs.py(), &key).repr()?
                )))
            }
        };
        out.insert(key, converted);
    }
    Ok(out)
}

/// A special token keyword argument as `tokenizer_config.json` gives it: a
/// string, an object with the flags of an `AddedToken`, or null.
fn token_value(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    if value.is_none() {
        return Ok(Value::Null);
    }
    let t = args::added_token(value, true, &|| name.to_owned())?;
    if value.is_instance_of::<PyString>() {
        return Ok(json!(t.content));
    }
    Ok(json!({
        "content": t.content,
        "normalized": t.normalized,
        "single_word": t.single_word,
        "lstrip": t.lstrip,
        "rstrip": t.rstrip,
    }))
}
