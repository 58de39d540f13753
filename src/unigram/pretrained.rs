//! Model directories for Unigram, as for the WordPiece tokenizer
//! (`tokenizer::pretrained`): `from_pretrained` reads a directory's
//! `tokenizer.json` with the call settings and special tokens of its
//! `tokenizer_config.json` (and `special_tokens_map.json`);
//! `save_pretrained` writes the three files so that
//! `transformers.AutoTokenizer.from_pretrained` gives a tokenizer that
//! encodes, pads and decodes the same way.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::UnigramTokenizer;
use crate::error::{Error, Result};
use crate::pipeline::model::special_tokens::AddedToken;
use crate::tokenizer::pretrained::{self, CallSettings};

/// What a model directory gives a Unigram tokenizer.
#[derive(Clone, Debug)]
pub struct Pretrained {
    pub tokenizer: UnigramTokenizer,
    /// `model_max_length`, the sides, `clean_up_tokenization_spaces`; the
    /// special tokens named there (`bos_token`, `eos_token`, `mask_token`)
    /// and the extra ones, without BERT's defaults.
    pub call: CallSettings,
    /// The named special tokens the directory gives, `(key, token)`, in
    /// transformers' order.
    pub named: Vec<(&'static str, String)>,
}

impl Pretrained {
    /// The padding token the directory names, if any.
    pub fn pad_token(&self) -> Option<&str> {
        self.named.iter().find(|(k, _)| *k == "pad_token").map(|(_, t)| t.as_str())
    }
}

/// The entry of `added_tokens` in a tokenizer.json for a configured special
/// token the file does not list: special, not normalized, with its flags.
fn added_entry(id: u64, t: &AddedToken) -> Value {
    json!({
        "id": id,
        "content": t.content,
        "single_word": t.single_word,
        "lstrip": t.lstrip,
        "rstrip": t.rstrip,
        "normalized": t.normalized,
        "special": true,
    })
}

impl UnigramTokenizer {
    /// The tokenizer of a local model directory, with `overrides`
    /// (transformers' keyword arguments of `from_pretrained`) in place of
    /// `tokenizer_config.json`'s keys: its `tokenizer.json`, with the special
    /// tokens the directory names (`tokenizer_config.json`,
    /// `special_tokens_map.json`) made special, as transformers makes them:
    /// a piece of the vocabulary keeps its id, a token the file lacks gets
    /// the next one; and the call settings of `tokenizer_config.json`
    /// ([`pretrained::call_settings_with`]).
    ///
    /// The directory's files are read by [`crate::io::read_utf8`], which asks
    /// `stop` while it waits for a FIFO's writer or data.
    pub fn from_pretrained_with(
        dir: &Path,
        overrides: &Map<String, Value>,
        stop: &dyn Fn() -> bool,
    ) -> Result<Pretrained> {
        pretrained::check_directory(dir)?;
        let path = dir.join("tokenizer.json");
        if !path.is_file() {
            return Err(Error::io(
                &path,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "a Unigram model directory needs its tokenizer.json (a SentencePiece model alone is not \
                     read: transformers' save_pretrained writes the tokenizer.json)",
                ),
            ));
        }
        let (named, extra) = pretrained::named_special_tokens(dir, overrides, stop)?;
        let text = crate::io::read_utf8(&path, stop)?;
        let mut doc: Value =
            serde_json::from_str(&text).map_err(|e| Error::invalid_file(&path, format!("not valid JSON: {e}")))?;
        if !doc.is_object() {
            // As `from_file` says it (nothing is added to a file that is not an object).
            return Err(Error::invalid_file(&path, "no \"model\" object"));
        }
        let pieces: Vec<&str> = doc
            .pointer("/model/vocab")
            .and_then(Value::as_array)
            .map(|v| v.iter().map(|e| e.get(0).and_then(Value::as_str).unwrap_or_default()).collect())
            .unwrap_or_default();
        let listed = doc.get("added_tokens").and_then(Value::as_array).cloned().unwrap_or_default();
        let mut next = listed
            .iter()
            .filter_map(|t| t.get("id").and_then(Value::as_u64))
            .map(|id| id + 1)
            .chain([pieces.len() as u64])
            .max()
            .unwrap_or_default();
        let mut added = Vec::new();
        for t in named.iter().map(|(_, t)| t).chain(&extra) {
            let content = Value::String(t.content.clone());
            if listed.iter().chain(&added).any(|a| a.get("content") == Some(&content)) {
                continue;
            }
            let id = match pieces.iter().position(|p| *p == t.content) {
                Some(id) => id as u64,
                None => {
                    next += 1;
                    next - 1
                }
            };
            added.push(added_entry(id, t));
        }
        if !added.is_empty() {
            // Ids beyond the vocabulary are read in order of the ids.
            added.sort_by_key(|a| a.get("id").and_then(Value::as_u64));
            let mut all = listed;
            all.extend(added);
            doc["added_tokens"] = Value::Array(all);
        }
        let tokenizer = Self::from_json(&doc.to_string()).map_err(|e| match e {
            Error::InvalidArgument(m) => Error::invalid_file(&path, m),
            e => e,
        })?;
        let mut call = pretrained::call_settings_with(dir, overrides, stop)?;
        call.model_input_names = pretrained::model_input_names(dir, overrides, stop)?;
        let named: Vec<(&'static str, String)> = named.into_iter().map(|(k, t)| (k, t.content)).collect();
        let named_token = |key: &str| named.iter().find(|(k, _)| *k == key).map(|(_, t)| t.clone());
        call.bos_token = named_token("bos_token");
        call.eos_token = named_token("eos_token");
        call.mask_token = named_token("mask_token");
        call.extra_special_tokens = extra.into_iter().map(|t| t.content).collect();
        Ok(Pretrained { tokenizer, call, named })
    }

    /// Writes `tokenizer.json`, `tokenizer_config.json` and
    /// `special_tokens_map.json` into `dir` (created if needed); returns
    /// their paths. The config names transformers' generic class (which
    /// takes the `tokenizer.json` as it is), the call settings
    /// (`model_max_length` when set, the sides, `clean_up_tokenization_spaces`),
    /// the model's inputs (`call.model_input_names`), and the
    /// special tokens `named` and `call`'s extra ones that are in the
    /// vocabulary.
    pub fn save_pretrained(&self, dir: &Path, call: &CallSettings, named: &[(&str, &str)]) -> Result<Vec<PathBuf>> {
        crate::io::create_dir_all(dir)?;
        let path = dir.join("tokenizer.json");
        self.save(&path)?;
        let known = |t: &&str| self.token_to_id(t).is_some();
        let named: Vec<(&str, &str)> = named.iter().copied().filter(|(_, t)| known(t)).collect();
        let extra: Vec<&str> = call.extra_special_tokens.iter().map(String::as_str).filter(known).collect();
        let mut config = json!({
            "tokenizer_class": "PreTrainedTokenizerFast",
            "clean_up_tokenization_spaces": call.clean_up_tokenization_spaces,
            "padding_side": call.padding_side.to_string(),
            "truncation_side": call.truncation_side.to_string(),
            "model_input_names": call.model_input_names,
        });
        if let Some(n) = call.model_max_length {
            config.as_object_mut().expect("an object").insert("model_max_length".into(), json!(n));
        }
        let mut written = vec![path];
        written.extend(pretrained::write_config_files(dir, config, &named, &extra)?);
        Ok(written)
    }
}
