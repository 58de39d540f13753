//! Model directories, local only: `from_pretrained` reads a `tokenizer.json`,
//! or a `vocab.txt` with `tokenizer_config.json` (and `special_tokens_map.json`)
//! as `transformers` writes them for BERT; `save_pretrained` writes the four
//! files so that `transformers.AutoTokenizer.from_pretrained` gives a tokenizer
//! that encodes the same way. The hub is never contacted.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::encoding::Side;
use crate::error::{Error, Result};
use crate::io::write_atomic;
use crate::pipeline::model::vocab::Vocab;
use crate::tokenizer::batch::PAD_TOKEN;
use crate::tokenizer::options::Options;
use crate::tokenizer::Tokenizer;

/// The special tokens of a BERT directory, in `DEFAULT_SPECIAL_TOKENS` order,
/// with their defaults.
const SPECIAL_KEYS: [(&str, &str); 5] = [
    ("pad_token", "[PAD]"),
    ("unk_token", "[UNK]"),
    ("cls_token", "[CLS]"),
    ("sep_token", "[SEP]"),
    ("mask_token", "[MASK]"),
];

/// A JSON file of the directory as an object; an absent file is empty.
fn read_object(path: &Path) -> Result<Map<String, Value>> {
    if !path.is_file() {
        return Ok(Map::new());
    }
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::invalid_file(path, "expected a JSON object")),
        Err(e) => Err(Error::invalid_file(path, format!("not JSON: {e}"))),
    }
}

/// A special token's content: a string, or an object with `"content"` (as
/// `transformers` writes an `AddedToken`).
fn token_content(value: &Value) -> Option<&str> {
    value.as_str().or_else(|| value.get("content").and_then(Value::as_str))
}

/// What `transformers` keeps in `tokenizer_config.json` beside the pipeline,
/// and a caller may change on a tokenizer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallSettings {
    /// None: the model has no maximum length.
    pub model_max_length: Option<u64>,
    pub padding_side: Side,
    pub truncation_side: Side,
    /// Whether `decode` applies `transformers`' clean-up by default.
    pub clean_up_tokenization_spaces: bool,
}

/// The call settings of a model directory's `tokenizer_config.json`
/// (defaults without one): `model_max_length` None for transformers' "no
/// maximum" (1e30, or anything from 1e20 up); the sides `"right"` unless
/// the file says `"left"`; `clean_up_tokenization_spaces` false unless the
/// file says true.
pub fn call_settings(dir: &Path) -> Result<CallSettings> {
    let path = dir.join("tokenizer_config.json");
    let config = read_object(&path)?;
    let model_max_length = match config.get("model_max_length") {
        None | Some(Value::Null) => None,
        // Every u64 is below 1e20; larger numbers are floats to serde_json.
        Some(value) => match value.as_u64() {
            Some(n) => Some(n),
            None if value.as_f64().is_some_and(|v| v >= 1e20) => None,
            None => {
                return Err(Error::invalid_file(&path, format!("model_max_length: expected a length, found {value}")))
            }
        },
    };
    let side = |key: &str| match config.get(key) {
        None | Some(Value::Null) => Ok(Side::Right),
        Some(value) => value
            .as_str()
            .and_then(Side::from_name)
            .ok_or_else(|| Error::invalid_file(&path, format!("{key}: expected \"right\" or \"left\", found {value}"))),
    };
    let clean_up_tokenization_spaces = match config.get("clean_up_tokenization_spaces") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(Error::invalid_file(
                &path,
                format!("clean_up_tokenization_spaces: expected true or false, found {other}"),
            ))
        }
    };
    Ok(CallSettings {
        model_max_length,
        padding_side: side("padding_side")?,
        truncation_side: side("truncation_side")?,
        clean_up_tokenization_spaces,
    })
}

impl Tokenizer {
    /// A tokenizer from a local model directory.
    pub fn from_pretrained(dir: &Path) -> Result<Self> {
        if !dir.is_dir() {
            return Err(Error::io(
                dir,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "not a local directory: from_pretrained never downloads; fetch the model first, e.g. \
                     huggingface_hub.snapshot_download(repo_id), and pass its directory",
                ),
            ));
        }
        let json = dir.join("tokenizer.json");
        if json.is_file() {
            return Self::load(&json);
        }
        let config_path = dir.join("tokenizer_config.json");
        let config = read_object(&config_path)?;
        let map = read_object(&dir.join("special_tokens_map.json"))?;
        let flag = |key: &str, default: bool| -> Result<bool> {
            match config.get(key) {
                None | Some(Value::Null) => Ok(default),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => {
                    Err(Error::invalid_file(&config_path, format!("{key}: expected true or false, found {other}")))
                }
            }
        };
        let lowercase = flag("do_lower_case", true)?;
        let strip_accents = match config.get("strip_accents") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                return Err(Error::invalid_file(
                    &config_path,
                    format!("strip_accents: expected true, false or null, found {other}"),
                ))
            }
        };
        let handle_chinese_chars = flag("tokenize_chinese_chars", true)?;
        let split_special_tokens = flag("split_special_tokens", false)?;
        // special_tokens_map.json wins over tokenizer_config.json, as in transformers.
        let mut specials = Vec::new();
        for (key, default) in SPECIAL_KEYS {
            let token = match map.get(key).or_else(|| config.get(key)) {
                None | Some(Value::Null) => default.to_owned(),
                Some(v) => token_content(v)
                    .ok_or_else(|| Error::invalid_file(&config_path, format!("{key}: expected a string, found {v}")))?
                    .to_owned(),
            };
            if key == "pad_token" && token != PAD_TOKEN {
                return Err(Error::invalid_file(
                    &config_path,
                    format!("pad_token {token:?} is not supported (padding inserts {PAD_TOKEN:?})"),
                ));
            }
            specials.push(token);
        }
        let options = Options {
            normalizer: crate::pipeline::normalizer::Normalizer {
                lowercase,
                strip_accents,
                handle_chinese_chars,
                ..Default::default()
            },
            unk_token: specials[1].clone(),
            cls_token: specials[2].clone(),
            sep_token: specials[3].clone(),
            split_special_tokens,
            ..Options::default()
        };
        Tokenizer::new(Vocab::from_file(&dir.join("vocab.txt"))?, Vec::new(), &specials, options)
    }

    /// Writes `tokenizer.json`, `vocab.txt` (unless the ids have holes),
    /// `tokenizer_config.json` and `special_tokens_map.json` into `dir`
    /// (created if needed); returns their paths.
    /// `tokenizer_config.json` holds the call settings (`model_max_length`,
    /// else the default truncation's length, if there is one) and the
    /// model's inputs, `token_type_ids` among them: without them
    /// `transformers`' generic class leaves out the segment ids of pairs.
    pub fn save_pretrained(&self, dir: &Path, call: &CallSettings) -> Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let mut written = Vec::new();
        let path = dir.join("tokenizer.json");
        self.save_hf(&path)?;
        written.push(path);
        if !self.vocab().has_holes() {
            let path = dir.join("vocab.txt");
            self.save_vocab(&path)?;
            written.push(path);
        }
        let o = self.options();
        let mut map = Map::new();
        for (key, token) in [
            ("pad_token", PAD_TOKEN),
            ("unk_token", o.unk_token.as_str()),
            ("cls_token", o.cls_token.as_str()),
            ("sep_token", o.sep_token.as_str()),
            ("mask_token", "[MASK]"),
        ] {
            if self.vocab().id(token).is_some() {
                map.insert(key.to_owned(), json!(token));
            }
        }
        // PreTrainedTokenizerFast takes the pipeline from tokenizer.json as it
        // is; the BERT keys are for readers that look for them.
        let mut config = json!({
            "tokenizer_class": "PreTrainedTokenizerFast",
            "do_lower_case": o.normalizer.lowercase,
            "strip_accents": o.normalizer.strip_accents,
            "tokenize_chinese_chars": o.normalizer.handle_chinese_chars,
            "clean_up_tokenization_spaces": call.clean_up_tokenization_spaces,
            "split_special_tokens": o.split_special_tokens,
            "padding_side": call.padding_side.to_string(),
            "truncation_side": call.truncation_side.to_string(),
            "model_input_names": ["input_ids", "token_type_ids", "attention_mask"],
        });
        let obj = config.as_object_mut().expect("an object");
        if let Some(n) = call.model_max_length.or(self.truncation().map(|t| t.max_length as u64)) {
            obj.insert("model_max_length".into(), json!(n));
        }
        obj.extend(map.clone());
        for (name, value) in [("tokenizer_config.json", config), ("special_tokens_map.json", Value::Object(map))] {
            let path = dir.join(name);
            let text = serde_json::to_string_pretty(&value).expect("JSON serializes");
            write_atomic(&path, text.as_bytes())?;
            written.push(path);
        }
        Ok(written)
    }
}
