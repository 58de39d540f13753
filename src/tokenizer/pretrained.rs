//! Model directories, local only: `from_pretrained` reads a `tokenizer.json`,
//! or a `vocab.txt` with `tokenizer_config.json` (and `special_tokens_map.json`,
//! `added_tokens.json`) as `transformers` writes them for BERT, with the
//! special and added tokens they configure; `save_pretrained` writes the four
//! files so that `transformers.AutoTokenizer.from_pretrained` gives a tokenizer
//! that encodes the same way and names the same special tokens. The hub is
//! never contacted.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::encoding::Side;
use crate::error::{Error, Quoted, Result};
use crate::io::write_atomic;
use crate::pipeline::model::special_tokens::AddedToken;
use crate::pipeline::model::vocab::Vocab;
use crate::tokenizer::options::{Options, PAD_TOKEN};
use crate::tokenizer::Tokenizer;

/// transformers' named special tokens, in its order (that of
/// `all_special_tokens` and of the tokens it adds when the vocabulary lacks
/// them), with BERT's defaults.
const NAMED_KEYS: [(&str, Option<&str>); 7] = [
    ("bos_token", None),
    ("eos_token", None),
    ("unk_token", Some("[UNK]")),
    ("sep_token", Some("[SEP]")),
    ("pad_token", Some(PAD_TOKEN)),
    ("cls_token", Some("[CLS]")),
    ("mask_token", Some("[MASK]")),
];

/// The mask token of a tokenizer that is not told otherwise.
pub const MASK_TOKEN: &str = "[MASK]";

/// A JSON file of the directory as an object; an absent file is empty.
/// Every file of a directory is read by [`crate::io::read_utf8`], which
/// asks `stop` (here and in the functions below that take it) while it
/// waits for a FIFO's writer or data.
fn read_object(path: &Path, stop: &dyn Fn() -> bool) -> Result<Map<String, Value>> {
    if !path.is_file() {
        return Ok(Map::new());
    }
    let text = crate::io::read_utf8(path, stop)?;
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::invalid_file(path, "expected a JSON object")),
        Err(e) => Err(Error::invalid_file(path, format!("not JSON: {e}"))),
    }
}

/// An optional bool of a model directory's JSON `file`: absent or null is
/// None; anything but true or false is an error naming the file and `key`.
fn optional_bool(value: Option<&Value>, file: &Path, key: &str) -> Result<Option<bool>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(Error::invalid_file(file, format!("{key}: expected true or false, found {other}"))),
    }
}

/// The directory's `tokenizer_config.json` (empty when absent), with the
/// caller's `overrides` (keyword arguments of `from_pretrained`) in place of
/// its keys, as transformers' keyword arguments override the file.
fn read_config(dir: &Path, overrides: &Map<String, Value>, stop: &dyn Fn() -> bool) -> Result<Map<String, Value>> {
    let mut config = read_object(&dir.join("tokenizer_config.json"), stop)?;
    config.extend(overrides.iter().map(|(k, v)| (k.clone(), v.clone())));
    Ok(config)
}

/// The tokenizer classes of transformers 5 that rebuild BERT's pipeline
/// from the configuration (`BertTokenizer`, its aliases and subclasses that
/// keep its pipeline), without transformers' `Fast` suffix.
const BERT_CLASSES: [&str; 8] = [
    "BertTokenizer",
    "ConvBertTokenizer",
    "DistilBertTokenizer",
    "ElectraTokenizer",
    "LayoutLMTokenizer",
    "LxmertTokenizer",
    "MobileBertTokenizer",
    "SqueezeBertTokenizer",
];

/// The `model_type`s of `config.json` for which transformers 5's
/// `AutoTokenizer` picks `BertTokenizer` when no `tokenizer_class` is given.
/// (Its table also maps `nezha`, `qdqbert`, `realm` and `retribert` there,
/// but transformers 5 has no configuration class for them any more, so it
/// loads such a directory with its generic class.)
const BERT_MODEL_TYPES: [&str; 21] = [
    "align",
    "bark",
    "bert",
    "blip",
    "bros",
    "chinese_clip",
    "convbert",
    "distilbert",
    "electra",
    "ernie",
    "flava",
    "git",
    "grounding-dino",
    "layoutlm",
    "megatron-bert",
    "mm-grounding-dino",
    "nomic_bert",
    "squeezebert",
    "tvp",
    "vilt",
    "visual_bert",
];

/// The inputs a BERT model takes (`BertTokenizer`'s `model_input_names`):
/// those of a tokenizer not read from a model directory.
pub const BERT_INPUTS: [&str; 3] = ["input_ids", "token_type_ids", "attention_mask"];

/// The `model_input_names` of transformers' generic class (and of every
/// class that does not set its own): no segment ids.
pub const GENERIC_INPUTS: [&str; 2] = ["input_ids", "attention_mask"];

/// The `model_input_names` class attribute of each of [`BERT_CLASSES`] in
/// transformers 5 (`DistilBertTokenizer` takes no segment ids), and of
/// DPR's classes (subclasses of `BertTokenizer` that keep the lowercasing
/// whatever `do_lower_case` says, so not among [`BERT_CLASSES`]).
const BERT_CLASS_INPUTS: [(&str, &[&str]); 11] = [
    ("BertTokenizer", &BERT_INPUTS),
    ("ConvBertTokenizer", &BERT_INPUTS),
    ("DPRContextEncoderTokenizer", &BERT_INPUTS),
    ("DPRQuestionEncoderTokenizer", &BERT_INPUTS),
    ("DPRReaderTokenizer", &GENERIC_INPUTS),
    ("DistilBertTokenizer", &GENERIC_INPUTS),
    ("ElectraTokenizer", &BERT_INPUTS),
    ("LayoutLMTokenizer", &BERT_INPUTS),
    ("LxmertTokenizer", &BERT_INPUTS),
    ("MobileBertTokenizer", &BERT_INPUTS),
    ("SqueezeBertTokenizer", &BERT_INPUTS),
];

/// The inputs of DeBERTa's models (and of the other classes of
/// [`OTHER_CLASS_INPUTS`] but FNet's): segment ids after the mask.
const MASK_THEN_TYPES: [&str; 3] = ["input_ids", "attention_mask", "token_type_ids"];

/// The classes of transformers 5 outside [`BERT_CLASS_INPUTS`] whose
/// `model_input_names` hold `token_type_ids` (every other class of its
/// tokenizer table takes `input_ids` and `attention_mask` alone), with the
/// `model_type` of `config.json` that picks each: DeBERTa-v2's and FNet's
/// Unigram models, and the others for a directory that names them.
const OTHER_CLASS_INPUTS: [(&str, &str, &[&str]); 7] = [
    ("CanineTokenizer", "canine", &MASK_THEN_TYPES),
    ("DebertaTokenizer", "deberta", &MASK_THEN_TYPES),
    ("DebertaV2Tokenizer", "deberta-v2", &MASK_THEN_TYPES),
    ("FNetTokenizer", "fnet", &["input_ids", "token_type_ids"]),
    ("LayoutLMv2Tokenizer", "layoutlmv2", &MASK_THEN_TYPES),
    ("MarkupLMTokenizer", "markuplm", &BERT_INPUTS),
    ("TapasTokenizer", "tapas", &MASK_THEN_TYPES),
];

/// Whether transformers 5's `AutoTokenizer` loads the directory with a BERT
/// class (which rebuilds the pipeline of a `tokenizer.json` from the
/// configuration): the config's `tokenizer_class`, else `config.json`'s
/// `tokenizer_class`, else `config.json`'s `model_type`. Neither (or another
/// class) is transformers' generic class, which takes the file as it is.
fn loads_as_bert(dir: &Path, config: &Map<String, Value>, stop: &dyn Fn() -> bool) -> Result<bool> {
    loads_as(dir, config, &BERT_CLASSES, &BERT_MODEL_TYPES, stop)
}

/// What transformers 5's `AutoTokenizer` goes by to pick the class of a
/// directory: a class name (without the `Fast` suffix), else a model type.
enum ClassHint {
    Class(String),
    ModelType(Option<String>),
}

/// The config's `tokenizer_class`, else `config.json`'s `tokenizer_class`
/// (either without the `Fast` suffix), else `config.json`'s `model_type`.
fn class_hint(dir: &Path, config: &Map<String, Value>, stop: &dyn Fn() -> bool) -> Result<ClassHint> {
    let model = read_object(&dir.join("config.json"), stop)?;
    let class = config
        .get("tokenizer_class")
        .and_then(Value::as_str)
        .or_else(|| model.get("tokenizer_class").and_then(Value::as_str));
    Ok(match class {
        Some(class) => ClassHint::Class(class.strip_suffix("Fast").unwrap_or(class).to_owned()),
        None => ClassHint::ModelType(model.get("model_type").and_then(Value::as_str).map(str::to_owned)),
    })
}

/// Whether transformers 5's `AutoTokenizer` loads the directory with one of
/// `classes` (without the `Fast` suffix): the config's `tokenizer_class`,
/// else `config.json`'s `tokenizer_class`, else whether `config.json`'s
/// `model_type` is one of `model_types`.
fn loads_as(
    dir: &Path,
    config: &Map<String, Value>,
    classes: &[&str],
    model_types: &[&str],
    stop: &dyn Fn() -> bool,
) -> Result<bool> {
    Ok(match class_hint(dir, config, stop)? {
        ClassHint::Class(class) => classes.contains(&class.as_str()),
        ClassHint::ModelType(t) => t.is_some_and(|t| model_types.contains(&t.as_str())),
    })
}

/// The inputs of the model a directory configures, as transformers 5 takes
/// them: `tokenizer_config.json`'s `model_input_names` (or the keyword
/// argument of that name among `overrides`), a list of str; else the class
/// attribute of the class `AutoTokenizer` picks (see [`loads_as`]): that of
/// [`BERT_CLASS_INPUTS`] or [`OTHER_CLASS_INPUTS`] (by class or model type),
/// `BertTokenizer`'s for [`BERT_MODEL_TYPES`] and for a `vocab.txt` without
/// a `tokenizer.json`, class or model type (only BERT's classes load it),
/// the generic class's (no `token_type_ids`) for any other class or none.
pub fn model_input_names(dir: &Path, overrides: &Map<String, Value>, stop: &dyn Fn() -> bool) -> Result<Vec<String>> {
    let config = read_config(dir, overrides, stop)?;
    if let Some(value) = config.get("model_input_names") {
        let names = value.as_array().and_then(|a| a.iter().map(|v| v.as_str().map(str::to_owned)).collect());
        return names.ok_or_else(|| {
            Error::invalid_file(
                &dir.join("tokenizer_config.json"),
                format!("model_input_names: expected a list of str, found {value}"),
            )
        });
    }
    let names: &[&str] = match class_hint(dir, &config, stop)? {
        ClassHint::Class(class) => BERT_CLASS_INPUTS
            .iter()
            .find(|(c, _)| *c == class)
            .map(|(_, names)| *names)
            .or_else(|| OTHER_CLASS_INPUTS.iter().find(|(c, _, _)| *c == class).map(|(_, _, names)| *names))
            .unwrap_or(&GENERIC_INPUTS),
        ClassHint::ModelType(Some(t)) if BERT_MODEL_TYPES.contains(&t.as_str()) => &BERT_INPUTS,
        ClassHint::ModelType(Some(t)) => {
            OTHER_CLASS_INPUTS.iter().find(|(_, m, _)| *m == t).map_or(&GENERIC_INPUTS, |(_, _, names)| names)
        }
        // No class and no model type: a tokenizer.json loads with the generic
        // class; a vocab.txt alone only with BERT's (AutoTokenizer cannot
        // load it), whose inputs hold the segment ids pairs need.
        ClassHint::ModelType(None) if dir.join("tokenizer.json").is_file() => &GENERIC_INPUTS,
        ClassHint::ModelType(None) => &BERT_INPUTS,
    };
    Ok(names.iter().map(|&n| n.to_owned()).collect())
}

/// The tokenizer classes of transformers 5 that pad on the left unless the
/// configuration says otherwise (their `padding_side` class attribute).
const LEFT_PADDING_CLASSES: [&str; 7] = [
    "CodeLlamaTokenizer",
    "CohereTokenizer",
    "CpmAntTokenizer",
    "GemmaTokenizer",
    "LlamaTokenizer",
    "Siglip2Tokenizer",
    "XLNetTokenizer",
];

/// The `model_type`s of `config.json` for which transformers 5's
/// `AutoTokenizer` picks one of [`LEFT_PADDING_CLASSES`] when no
/// `tokenizer_class` is given.
const LEFT_PADDING_MODEL_TYPES: [&str; 19] = [
    "aya_vision",
    "cohere",
    "cohere2",
    "cpmant",
    "diffusion_gemma",
    "gemma",
    "gemma2",
    "gemma3",
    "gemma3_text",
    "gemma3n",
    "gemma3n_text",
    "idefics",
    "idefics2",
    "recurrent_gemma",
    "shieldgemma2",
    "siglip2",
    "t5gemma",
    "xlnet",
    "zaya",
];

/// The pipeline a BERT class builds from the configuration: the
/// normalizer from `do_lower_case` (default true), `strip_accents` (default
/// null: as `lowercase`), `tokenize_chinese_chars` (default true), text
/// cleaning on; the configured unknown, classifier, separator and padding
/// tokens; `split_special_tokens` (`split_default` when absent).
fn bert_options(
    config: &Map<String, Value>,
    config_path: &Path,
    configured: &Configured,
    split_default: bool,
) -> Result<Options> {
    let flag = |key: &str| optional_bool(config.get(key), config_path, key);
    let content = |key: &str| configured.named(key).expect("the pipeline's tokens have defaults").content.clone();
    Ok(Options {
        normalizer: crate::pipeline::normalizer::Normalizer {
            lowercase: flag("do_lower_case")?.unwrap_or(true),
            strip_accents: flag("strip_accents")?,
            handle_chinese_chars: flag("tokenize_chinese_chars")?.unwrap_or(true),
            ..Default::default()
        },
        unk_token: content("unk_token"),
        cls_token: content("cls_token"),
        sep_token: content("sep_token"),
        pad_token: content("pad_token"),
        split_special_tokens: flag("split_special_tokens")?.unwrap_or(split_default),
        ..Options::default()
    })
}

/// A special token as a model directory gives it: a string, or an object
/// with `"content"` and the flags (as `transformers` writes an
/// `AddedToken`). Special, and not normalized unless the object says so.
fn special_token(value: &Value, path: &Path, key: &str) -> Result<AddedToken> {
    let bad =
        || Error::invalid_file(path, format!("{key}: expected a string or an object with \"content\", found {value}"));
    if let Some(content) = value.as_str() {
        return Ok(AddedToken { content: content.to_owned(), special: true, ..AddedToken::default() });
    }
    let content = value.get("content").and_then(Value::as_str).ok_or_else(bad)?;
    let flag =
        |name: &str| Ok::<_, Error>(optional_bool(value.get(name), path, &format!("{key}.{name}"))?.unwrap_or(false));
    Ok(AddedToken {
        content: content.to_owned(),
        special: true,
        normalized: flag("normalized")?,
        single_word: flag("single_word")?,
        lstrip: flag("lstrip")?,
        rstrip: flag("rstrip")?,
    })
}

/// A configured special token, unless it is empty: transformers would list
/// an empty one among the special tokens with the unknown token's id (and
/// pad or begin sequences with that id), so it is refused.
fn non_empty(token: AddedToken, path: &Path, key: &str) -> Result<AddedToken> {
    if token.content.is_empty() {
        return Err(Error::invalid_file(path, format!("{key}: an empty special token is not supported")));
    }
    Ok(token)
}

/// The special tokens a model directory configures, as `transformers` reads
/// them (`special_tokens_map.json` wins over `tokenizer_config.json`, unless
/// that has an `added_tokens_decoder`).
#[derive(Debug, Default)]
struct Configured {
    /// `NAMED_KEYS`' tokens, in their order: absent ones take the default,
    /// null ones are None. With whether the file gave flags (an object).
    named: Vec<(&'static str, Option<AddedToken>, bool)>,
    /// `extra_special_tokens` (`additional_special_tokens` before
    /// transformers 5).
    extra: Vec<AddedToken>,
    /// Whether the directory names a pad token.
    pad_given: bool,
}

impl Configured {
    fn read(dir: &Path, overrides: &Map<String, Value>, stop: &dyn Fn() -> bool) -> Result<Self> {
        Self::read_with(dir, overrides, true, stop)
    }

    /// `read`; without BERT's defaults unless `defaults` (a token the
    /// directory does not name is then None).
    fn read_with(dir: &Path, overrides: &Map<String, Value>, defaults: bool, stop: &dyn Fn() -> bool) -> Result<Self> {
        let config_path = dir.join("tokenizer_config.json");
        let map_path = dir.join("special_tokens_map.json");
        let config = read_config(dir, overrides, stop)?;
        // transformers reads special_tokens_map.json only for directories
        // whose tokenizer_config.json has no added_tokens_decoder.
        let mut map = if config.get("added_tokens_decoder").is_some_and(|v| !v.is_null()) {
            Map::new()
        } else {
            read_object(&map_path, stop)?
        };
        map.retain(|key, _| !overrides.contains_key(key));
        let lookup = |key: &str| match map.get(key) {
            Some(v) => Some((v, &map_path)),
            None => config.get(key).map(|v| (v, &config_path)),
        };
        let mut named = Vec::new();
        let mut pad_given = false;
        for (key, default) in NAMED_KEYS {
            let default = default.filter(|_| defaults).map(|d| AddedToken {
                content: d.into(),
                special: true,
                ..AddedToken::default()
            });
            let (token, flagged) = match lookup(key) {
                None => (default, false),
                // The pipeline needs an unknown, classifier, separator and padding token.
                Some((Value::Null, _)) if key != "mask_token" => (default, false),
                Some((Value::Null, _)) => (None, false),
                Some((v, path)) => {
                    pad_given |= key == "pad_token";
                    (Some(non_empty(special_token(v, path, key)?, path, key)?), v.is_object())
                }
            };
            named.push((key, token, flagged));
        }
        // tokenizer_config.json's extra_special_tokens (or, without them, its
        // additional_special_tokens), extended by special_tokens_map.json's
        // extra_special_tokens; its additional_special_tokens only when the
        // config has none.
        let list = |file: &Map<String, Value>, path: &Path, key: &str| -> Result<Vec<AddedToken>> {
            let items: Vec<&Value> = match file.get(key) {
                None | Some(Value::Null) => return Ok(Vec::new()),
                Some(Value::Array(items)) => items.iter().collect(),
                // transformers also takes a mapping of names to tokens.
                Some(Value::Object(entries)) => entries.values().collect(),
                Some(other) => {
                    return Err(Error::invalid_file(path, format!("{key}: expected a list of tokens, found {other}")))
                }
            };
            let mut tokens = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                let key = format!("{key}[{i}]");
                tokens.push(non_empty(special_token(item, path, &key)?, path, &key)?);
            }
            Ok(tokens)
        };
        let mut extra = list(&config, &config_path, "extra_special_tokens")?;
        if extra.is_empty() {
            extra = list(&config, &config_path, "additional_special_tokens")?;
        }
        if extra.is_empty() {
            extra = list(&map, &map_path, "additional_special_tokens")?;
        }
        for t in list(&map, &map_path, "extra_special_tokens")? {
            if !extra.iter().any(|e| e.content == t.content) {
                extra.push(t);
            }
        }
        Ok(Self { named, extra, pad_given })
    }

    fn named(&self, key: &str) -> Option<&AddedToken> {
        self.named.iter().find(|(k, _, _)| *k == key).and_then(|(_, t, _)| t.as_ref())
    }

    /// The named tokens (in `NAMED_KEYS` order), then the extra ones.
    fn all(&self) -> impl Iterator<Item = &AddedToken> {
        self.named.iter().filter_map(|(_, t, _)| t.as_ref()).chain(&self.extra)
    }
}

/// The added tokens of a `vocab.txt` directory, in id order, with the ids
/// the directory gives them: `tokenizer_config.json`'s
/// `added_tokens_decoder` (with their flags), else `added_tokens.json`
/// (normalized, not special, as `transformers` reads them).
fn directory_added_tokens(
    dir: &Path,
    config: &Map<String, Value>,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<(u64, AddedToken, PathBuf)>> {
    let config_path = dir.join("tokenizer_config.json");
    let mut out = Vec::new();
    if let Some(decoder) = config.get("added_tokens_decoder").filter(|v| !v.is_null()) {
        let entries = decoder.as_object().ok_or_else(|| {
            Error::invalid_file(&config_path, format!("added_tokens_decoder: expected an object, found {decoder}"))
        })?;
        for (id, entry) in entries {
            let what = format!("added_tokens_decoder[{}]", Quoted(id));
            let id = id
                .parse::<u64>()
                .map_err(|_| Error::invalid_file(&config_path, format!("{what}: the key is not an id")))?;
            let mut token = special_token(entry, &config_path, &what)?;
            token.special =
                optional_bool(entry.get("special"), &config_path, &format!("{what}.special"))?.unwrap_or(false);
            if entry.get("normalized").is_none_or(Value::is_null) {
                token.normalized = !token.special;
            }
            out.push((id, token, config_path.clone()));
        }
    } else {
        let path = dir.join("added_tokens.json");
        for (content, id) in read_object(&path, stop)? {
            let id = id.as_u64().ok_or_else(|| {
                Error::invalid_file(&path, format!("{}: expected an id, found {id}", Quoted(&content)))
            })?;
            out.push((id, AddedToken { content, normalized: true, ..AddedToken::default() }, path.clone()));
        }
    }
    // An empty token is never added (transformers and add_tokens skip it).
    out.retain(|(_, t, _)| !t.content.is_empty());
    out.sort_by_key(|(id, _, _)| *id);
    Ok(out)
}

/// The special tokens a model directory names, as `transformers` reads them
/// (see `Configured`), without BERT's defaults: the named ones given, as
/// `(key, token)` in transformers' order (`bos_token`, `eos_token`,
/// `unk_token`, `sep_token`, `pad_token`, `cls_token`, `mask_token`), and
/// the extra ones (`extra_special_tokens`).
#[allow(clippy::type_complexity)]
pub fn named_special_tokens(
    dir: &Path,
    overrides: &Map<String, Value>,
    stop: &dyn Fn() -> bool,
) -> Result<(Vec<(&'static str, AddedToken)>, Vec<AddedToken>)> {
    let configured = Configured::read_with(dir, overrides, false, stop)?;
    let named = configured.named.into_iter().filter_map(|(key, t, _)| t.map(|t| (key, t))).collect();
    Ok((named, configured.extra))
}

/// Fails unless `dir` is a local directory: `from_pretrained` never
/// downloads (a FileNotFoundError, or NotADirectoryError for a file, that
/// says how to fetch a model).
pub fn check_directory(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    // A file there is not a directory; nothing there is not found.
    let kind = if dir.exists() { std::io::ErrorKind::NotADirectory } else { std::io::ErrorKind::NotFound };
    Err(Error::io(
        dir,
        std::io::Error::new(
            kind,
            "not a local directory: from_pretrained never downloads; fetch the model first, e.g. \
             huggingface_hub.snapshot_download(repo_id), and pass its directory",
        ),
    ))
}

/// Writes `tokenizer_config.json` (`config`, an object, with the `named`
/// special tokens `(key, token)` and the `extra` ones as
/// `extra_special_tokens`) and `special_tokens_map.json` (the same tokens,
/// the extra ones as `additional_special_tokens`) into `dir`; returns
/// their paths.
pub fn write_config_files(
    dir: &Path,
    mut config: Value,
    named: &[(&str, &str)],
    extra: &[&str],
) -> Result<Vec<PathBuf>> {
    let mut map = Map::new();
    for (key, token) in named {
        map.insert((*key).to_owned(), json!(token));
    }
    let obj = config.as_object_mut().expect("the config is an object");
    obj.extend(map.clone());
    if !extra.is_empty() {
        obj.insert("extra_special_tokens".into(), json!(extra));
        map.insert("additional_special_tokens".into(), json!(extra));
    }
    let mut written = Vec::new();
    for (name, mut value) in [("tokenizer_config.json", config), ("special_tokens_map.json", Value::Object(map))] {
        // Keys sorted, as transformers writes these files (`sort_keys=True`).
        value.sort_all_objects();
        let path = dir.join(name);
        let text = serde_json::to_string_pretty(&value).expect("JSON serializes");
        write_atomic(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// What `transformers` keeps in `tokenizer_config.json` beside the pipeline,
/// and a caller may change on a tokenizer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSettings {
    /// None: the model has no maximum length.
    pub model_max_length: Option<u64>,
    pub padding_side: Side,
    pub truncation_side: Side,
    /// Whether `decode` applies `transformers`' clean-up by default.
    pub clean_up_tokenization_spaces: bool,
    /// The named special tokens other than the pipeline's (its unknown,
    /// classifier, separator and padding tokens): None for none.
    pub bos_token: Option<String>,
    pub eos_token: Option<String>,
    /// `"[MASK]"` unless the model directory (or the caller) says otherwise.
    pub mask_token: Option<String>,
    /// `transformers`' `extra_special_tokens`: special tokens without a name
    /// of their own, listed by `all_special_tokens` after the named ones.
    pub extra_special_tokens: Vec<String>,
    /// The inputs the model takes (`transformers`' `model_input_names`):
    /// whether the call returns `token_type_ids` and `attention_mask` when
    /// it does not say. [`BERT_INPUTS`] unless a model directory (see
    /// [`model_input_names`]) or the caller says otherwise; the family's
    /// tokenizers keep their own.
    pub model_input_names: Vec<String>,
}

impl Default for CallSettings {
    fn default() -> Self {
        Self {
            model_max_length: None,
            padding_side: Side::Right,
            truncation_side: Side::Right,
            clean_up_tokenization_spaces: false,
            bos_token: None,
            eos_token: None,
            mask_token: Some(MASK_TOKEN.to_owned()),
            extra_special_tokens: Vec::new(),
            model_input_names: BERT_INPUTS.iter().map(|&n| n.to_owned()).collect(),
        }
    }
}

/// What the `padding` and `truncation` sections of a tokenizer.json say
/// that transformers' `PreTrainedTokenizerFast` takes for its calls: the
/// sides (each section's `direction`) and the padding token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileSections {
    pub padding_side: Option<Side>,
    pub truncation_side: Option<Side>,
    pub pad_token: Option<String>,
}

impl FileSections {
    /// The sections of tokenizer.json text, each field read on its own (a
    /// section that is not an object, a direction that is not `"left"` or
    /// `"right"` in any case, a padding token that is not a string: none);
    /// none from text that is not a JSON object (reading the file says what
    /// is wrong).
    pub fn read(text: &[u8]) -> Self {
        let Ok(doc) = serde_json::from_slice::<Value>(text) else { return Self::default() };
        let field = |section: &str, key: &str| doc.get(section).and_then(|s| s.get(key)).and_then(Value::as_str);
        let side = |section: &str| field(section, "direction").and_then(|d| Side::from_name(&d.to_ascii_lowercase()));
        FileSections {
            padding_side: side("padding"),
            truncation_side: side("truncation"),
            pad_token: field("padding", "pad_token").map(str::to_owned),
        }
    }
}

/// The sections of a model directory's tokenizer.json, where it has them:
/// transformers 5 takes the sides from there when tokenizer_config.json
/// does not give them. A file that cannot be read gives none (loading it
/// says what is wrong); a read that `stop` stopped is `Error::Interrupted`.
fn file_sides(dir: &Path, stop: &dyn Fn() -> bool) -> Result<(Option<Side>, Option<Side>)> {
    let path = dir.join("tokenizer.json");
    if !path.is_file() {
        return Ok((None, None)); // (not loaded either: a FIFO there is no tokenizer.json)
    }
    let text = match crate::io::read_bytes(&path, stop) {
        Ok(text) => text,
        Err(Error::Interrupted) => return Err(Error::Interrupted),
        Err(_) => return Ok((None, None)),
    };
    let sections = FileSections::read(&text);
    Ok((sections.padding_side, sections.truncation_side))
}

/// The call settings of a model directory's `tokenizer_config.json`
/// (defaults without one): `model_max_length` None for transformers' "no
/// maximum" (1e30, or anything from 1e20 up); each side as the file says
/// (null is an error, as in transformers), else as tokenizer.json's
/// `padding` or `truncation` section says, else `"right"` (the padding side
/// `"left"` when transformers loads the directory with a class that pads on
/// the left, XLNet's among them: [`LEFT_PADDING_CLASSES`]);
/// `clean_up_tokenization_spaces` false unless the file says true; the
/// special tokens the directory configures (with `special_tokens_map.json`).
pub fn call_settings(dir: &Path) -> Result<CallSettings> {
    call_settings_with(dir, &Map::new(), &|| false)
}

/// `call_settings`, with `from_pretrained`'s keyword arguments in place of
/// the config's keys; the files read by [`crate::io::read_utf8`], which
/// asks `stop` while it waits for a FIFO's writer or data.
pub fn call_settings_with(dir: &Path, overrides: &Map<String, Value>, stop: &dyn Fn() -> bool) -> Result<CallSettings> {
    let path = dir.join("tokenizer_config.json");
    let config = read_config(dir, overrides, stop)?;
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
    let left = loads_as(dir, &config, &LEFT_PADDING_CLASSES, &LEFT_PADDING_MODEL_TYPES, stop)?;
    let file_sides = file_sides(dir, stop)?;
    let side = |key: &str| match config.get(key) {
        None => Ok(match (key, &file_sides) {
            ("padding_side", (Some(side), _)) | ("truncation_side", (_, Some(side))) => *side,
            ("padding_side", _) if left => Side::Left,
            _ => Side::Right,
        }),
        Some(value) => value
            .as_str()
            .and_then(Side::from_name)
            .ok_or_else(|| Error::invalid_file(&path, format!("{key}: expected \"right\" or \"left\", found {value}"))),
    };
    let key = "clean_up_tokenization_spaces";
    let clean_up_tokenization_spaces = optional_bool(config.get(key), &path, key)?.unwrap_or(false);
    let configured = Configured::read(dir, overrides, stop)?;
    let named = |key: &str| configured.named(key).map(|t| t.content.clone());
    Ok(CallSettings {
        model_max_length,
        padding_side: side("padding_side")?,
        truncation_side: side("truncation_side")?,
        clean_up_tokenization_spaces,
        bos_token: named("bos_token"),
        eos_token: named("eos_token"),
        mask_token: named("mask_token"),
        extra_special_tokens: configured.extra.iter().map(|t| t.content.clone()).collect(),
        ..CallSettings::default()
    })
}

impl Tokenizer {
    /// A tokenizer from a local model directory, with the added tokens and
    /// special tokens it configures, as `transformers` reads them: those the
    /// vocabulary lacks get the next ids (the directory's added tokens in id
    /// order, then the named special tokens in `NAMED_KEYS` order, then the
    /// extra ones).
    pub fn from_pretrained(dir: &Path) -> Result<Self> {
        Self::from_pretrained_with(dir, &Map::new(), &|| false)
    }

    /// `from_pretrained`, with `overrides` (transformers' keyword arguments
    /// of `from_pretrained`) in place of `tokenizer_config.json`'s keys; the
    /// files read by [`crate::io::read_utf8`], which asks `stop` while it
    /// waits for a FIFO's writer or data.
    pub fn from_pretrained_with(dir: &Path, overrides: &Map<String, Value>, stop: &dyn Fn() -> bool) -> Result<Self> {
        check_directory(dir)?;
        let configured = Configured::read(dir, overrides, stop)?;
        let json = dir.join("tokenizer.json");
        if json.is_file() {
            let config_path = dir.join("tokenizer_config.json");
            let config = read_config(dir, overrides, stop)?;
            let mut tokenizer = Self::load_with_stop(&json, stop)?;
            if loads_as_bert(dir, &config, stop)? {
                // transformers' BERT classes keep the file's vocabulary, added
                // tokens and default truncation and padding, and build the
                // rest as BertTokenizer does, from the configuration.
                let split_default = tokenizer.options().split_special_tokens;
                tokenizer = tokenizer.with_options(bert_options(&config, &config_path, &configured, split_default)?)?;
            }
            // As transformers does: the directory's added tokens (in id order,
            // with the next ids) and the configured special tokens that the
            // file lacks among its added tokens are added (a token its
            // vocabulary has keeps its id, and is then matched in raw text
            // as a special token, as transformers' `add_tokens` makes it).
            let mut missing: Vec<AddedToken> =
                directory_added_tokens(dir, &config, stop)?.into_iter().map(|(_, t, _)| t).collect();
            for t in configured.all() {
                let added = tokenizer.added_tokens().iter().any(|a| a.content == t.content)
                    || tokenizer.special_tokens().contains(&t.content);
                if !added && !missing.iter().any(|m| m.content == t.content) {
                    missing.push(t.clone());
                }
            }
            let tokenizer = if missing.is_empty() { tokenizer } else { tokenizer.add_tokens(&missing)?.0 };
            return match configured.named("pad_token") {
                Some(pad) if configured.pad_given => tokenizer.with_pad_token(&pad.content),
                _ => Ok(tokenizer),
            };
        }
        let config_path = dir.join("tokenizer_config.json");
        let config = read_config(dir, overrides, stop)?;
        let options = bert_options(&config, &config_path, &configured, false)?;
        let added = directory_added_tokens(dir, &config, stop)?;
        let vocab = dir.join("vocab.txt");
        if !vocab.exists() {
            if json.is_dir() {
                let why = "a model directory's tokenizer.json must be a file, and this one is a directory \
                           (and there is no vocab.txt)";
                return Err(Error::io(&json, std::io::Error::new(std::io::ErrorKind::IsADirectory, why)));
            }
            let why = "a model directory needs a tokenizer.json or a vocab.txt, and this one has neither";
            return Err(Error::io(&vocab, std::io::Error::new(std::io::ErrorKind::NotFound, why)));
        }
        let base = Vocab::from_file_with_stop(&vocab, stop)?;
        // transformers appends what the vocabulary lacks: the added tokens in
        // id order, then the named special tokens, then the extra ones.
        let mut appended: Vec<String> = Vec::new();
        for t in added.iter().map(|(_, t, _)| t).chain(configured.all()) {
            if base.id(&t.content).is_none() && !appended.contains(&t.content) {
                appended.push(t.content.clone());
            }
        }
        // Named tokens the vocabulary has, given as plain strings, are the
        // plain special tokens (in the order pad, unk, cls, sep, mask, bos, eos).
        let mut plain: Vec<String> = Vec::new();
        for key in ["pad_token", "unk_token", "cls_token", "sep_token", "mask_token", "bos_token", "eos_token"] {
            if let Some((_, Some(t), false)) = configured.named.iter().find(|(k, _, _)| *k == key) {
                if base.id(&t.content).is_some() && !plain.contains(&t.content) {
                    plain.push(t.content.clone());
                }
            }
        }
        // The directory's added tokens keep their flags; the other configured
        // tokens become special added tokens, unless they are plain.
        let to_add: Vec<AddedToken> = added
            .iter()
            .map(|(_, t, _)| t.clone())
            .chain(
                configured
                    .all()
                    .filter(|t| !plain.contains(&t.content) && !added.iter().any(|(_, a, _)| a.content == t.content))
                    .cloned(),
            )
            .collect();
        let vocab = if appended.is_empty() { base } else { base.with_appended(&appended)? };
        let tokenizer = Tokenizer::new(vocab, Vec::new(), &plain, options)?;
        let tokenizer = if to_add.is_empty() { tokenizer } else { tokenizer.add_tokens(&to_add)?.0 };
        for (id, t, path) in &added {
            let got = tokenizer.vocab().id(&t.content).expect("added");
            if u64::from(got) != *id {
                return Err(Error::invalid_file(
                    path,
                    format!(
                        "added token {} has id {id}, but the vocabulary and the added tokens before it give it {got}",
                        Quoted(&t.content)
                    ),
                ));
            }
        }
        Ok(tokenizer)
    }

    /// Writes `tokenizer.json`, `vocab.txt` (unless the ids have holes, the
    /// continuation prefix is not `##` or a token holds a line break: see
    /// [`Self::save_vocab`]),
    /// `tokenizer_config.json` and `special_tokens_map.json` into `dir`
    /// (created if needed); returns their paths.
    /// `tokenizer_config.json` holds the call settings (`model_max_length`,
    /// else the default truncation's length, if there is one; the named and
    /// extra special tokens in the vocabulary) and the model's inputs
    /// (`call.model_input_names`): without them `transformers`' generic
    /// class would leave out the segment ids of a BERT model.
    pub fn save_pretrained(&self, dir: &Path, call: &CallSettings) -> Result<Vec<PathBuf>> {
        crate::io::create_dir_all(dir)?;
        let mut written = Vec::new();
        let path = dir.join("tokenizer.json");
        self.save_hf(&path)?;
        written.push(path);
        if !self.vocab().has_holes() && self.vocab_text_is_enough() {
            let path = dir.join("vocab.txt");
            self.save_vocab(&path)?;
            written.push(path);
        }
        let o = self.options();
        let mut named = Vec::new();
        for (key, token) in [
            ("pad_token", Some(o.pad_token.as_str())),
            ("unk_token", Some(o.unk_token.as_str())),
            ("cls_token", Some(o.cls_token.as_str())),
            ("sep_token", Some(o.sep_token.as_str())),
            ("mask_token", call.mask_token.as_deref()),
            ("bos_token", call.bos_token.as_deref()),
            ("eos_token", call.eos_token.as_deref()),
        ] {
            if let Some(token) = token.filter(|t| self.vocab().id(t).is_some()) {
                named.push((key, token));
            }
        }
        let extra: Vec<&str> =
            call.extra_special_tokens.iter().map(String::as_str).filter(|t| self.vocab().id(t).is_some()).collect();
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
            "model_input_names": call.model_input_names,
        });
        if let Some(n) = call.model_max_length.or(self.truncation().map(|t| t.max_length as u64)) {
            config.as_object_mut().expect("an object").insert("model_max_length".into(), json!(n));
        }
        written.extend(write_config_files(dir, config, &named, &extra)?);
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model directory with the given `tokenizer_config.json` and `config.json` (None: none).
    fn directory(name: &str, config: Option<Value>, model: Option<Value>) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fwp-inputs-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (file, value) in [("tokenizer_config.json", config), ("config.json", model)] {
            if let Some(value) = value {
                std::fs::write(dir.join(file), value.to_string()).unwrap();
            }
        }
        dir
    }

    #[test]
    fn every_bert_class_has_its_inputs() {
        let classes: Vec<&str> = BERT_CLASS_INPUTS.iter().map(|(c, _)| *c).collect();
        assert!(BERT_CLASSES.iter().all(|c| classes.contains(c)), "{classes:?}");
        // The others are DPR's, which keep BERT's pipeline in their own way.
        assert!(classes.iter().all(|c| BERT_CLASSES.contains(c) || c.starts_with("DPR")), "{classes:?}");
    }

    #[test]
    fn model_input_names_follow_the_config_then_the_class() {
        let names = |name: &str, config: Option<Value>, model: Option<Value>, overrides: Value| {
            let dir = directory(name, config, model);
            let got = model_input_names(&dir, overrides.as_object().unwrap(), &|| false);
            std::fs::remove_dir_all(&dir).unwrap();
            got
        };
        let none = json!({});
        let distil = Some(json!({"tokenizer_class": "DistilBertTokenizerFast"}));
        assert_eq!(names("distil", distil.clone(), None, none.clone()).unwrap(), GENERIC_INPUTS);
        assert_eq!(
            names("bert", Some(json!({"tokenizer_class": "BertTokenizer"})), None, none.clone()).unwrap(),
            BERT_INPUTS
        );
        // The model type distilbert is BertTokenizer's; nezha has no configuration class in transformers 5.
        assert_eq!(names("type", None, Some(json!({"model_type": "distilbert"})), none.clone()).unwrap(), BERT_INPUTS);
        assert_eq!(names("nezha", None, Some(json!({"model_type": "nezha"})), none.clone()).unwrap(), GENERIC_INPUTS);
        // An empty directory reads vocab.txt (BERT's inputs); with a tokenizer.json, the generic class's.
        assert_eq!(names("empty", None, None, none.clone()).unwrap(), BERT_INPUTS);
        let deberta = Some(json!({"tokenizer_class": "DebertaV2TokenizerFast"}));
        assert_eq!(names("deberta", deberta, None, none.clone()).unwrap(), MASK_THEN_TYPES);
        let fnet = names("fnet", None, Some(json!({"model_type": "fnet"})), none.clone()).unwrap();
        assert_eq!(fnet, ["input_ids", "token_type_ids"]);
        assert_eq!(names("t5", None, Some(json!({"model_type": "t5"})), none.clone()).unwrap(), GENERIC_INPUTS);
        let key = Some(json!({"tokenizer_class": "DistilBertTokenizer", "model_input_names": ["input_ids"]}));
        assert_eq!(names("key", key, None, none.clone()).unwrap(), ["input_ids"]);
        let given = json!({"model_input_names": BERT_INPUTS});
        assert_eq!(names("given", distil, None, given).unwrap(), BERT_INPUTS);
        let bad = names("bad", Some(json!({"model_input_names": ["input_ids", 1]})), None, none).unwrap_err();
        let message = bad.to_string();
        assert!(message.contains("tokenizer_config.json") && message.contains("model_input_names"), "{message}");
    }
}
