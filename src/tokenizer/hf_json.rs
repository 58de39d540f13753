//! Hugging Face's `tokenizer.json`, read and written.
//!
//! Import takes the WordPiece pipelines this crate runs exactly (docs/spec.md,
//! "Hugging Face files") and refuses anything else with an error naming the
//! component and its JSON path (`normalizer.normalizers[1]: "Replace" is not
//! supported`), so that no file is accepted and then encoded differently.
//! Export writes what `tokenizers.Tokenizer.from_file` loads and encodes the
//! same way; what Hugging Face does not store (the learned merges, the order
//! of the special tokens) goes under the extra key `model.fast_wordpiece`,
//! which Hugging Face's loader ignores (it refuses unknown top-level keys).

use rustc_hash::{FxHashMap, FxHashSet};
use serde::de::DeserializeOwned;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{json, Value};

use std::num::NonZeroUsize;

use crate::encoding::Side;
use crate::error::{Error, Quoted, Result};
use crate::pipeline::model::special_tokens::AddedToken;
use crate::pipeline::model::vocab::{id_too_large, Vocab};
use crate::pipeline::normalizer::Normalizer;
use crate::pipeline::padding::{PadTo, Padding};
use crate::pipeline::pre_tokenizer::PreTokenizer;
use crate::pipeline::truncation::{Strategy, Truncation};
use crate::tokenizer::objective::Objective;
use crate::tokenizer::options::{Decoding, Options, PostProcessing, PAD_TOKEN};
use crate::tokenizer::template::Template;
use crate::tokenizer::Tokenizer;

/// The key of the data Hugging Face does not store.
const EXTRA: &str = "fast_wordpiece";

fn err(path: &str, message: impl std::fmt::Display) -> Error {
    Error::invalid(format!("{path}: {message}"))
}

/// `value` as a `T`, a mismatch reported at `path`. An object's fields are
/// read in sorted order (serde_json keeps the file's order), so that of
/// several faults the one named is the first by name; a field of the wrong
/// type or value is named by its path (`model.unk_token: invalid type: ...`).
fn typed<T: DeserializeOwned>(value: &Value, path: &str) -> Result<T> {
    let Value::Object(map) = value else { return T::deserialize(value).map_err(|e| err(path, e)) };
    let mut fields: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
    fields.sort_unstable_by_key(|&(k, _)| k);
    let read = |fields: &[(&str, &Value)]| {
        T::deserialize(serde::de::value::MapDeserializer::<_, serde_json::Error>::new(fields.iter().copied()))
    };
    read(&fields).map_err(|e| {
        // The field at fault: the first whose reading fails with more than
        // the fields after it missing (only on this error path).
        let message = e.to_string();
        if message.starts_with("missing field") || message.starts_with("unknown field") {
            return err(path, message);
        }
        let culprit = (1..=fields.len())
            .find(|&n| read(&fields[..n]).is_err_and(|e| !e.to_string().starts_with("missing field")));
        match culprit {
            Some(n) => err(&format!("{path}.{}", fields[n - 1].0), message),
            None => err(path, message),
        }
    })
}

/// [`typed`] for a JSON object read as a struct: any other value is
/// `expected an object` (serde would read a struct from an array too).
fn record<T: DeserializeOwned>(value: &Value, path: &str) -> Result<T> {
    if !value.is_object() {
        return Err(err(path, "expected an object"));
    }
    typed(value, path)
}

/// The `"type"` of a component (`None` when absent).
fn kind<'a>(value: &'a Value, path: &str) -> Result<Option<&'a str>> {
    match value.get("type") {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(err(&format!("{path}.type"), format!("expected a string, found {other}"))),
    }
}

fn unsupported(path: &str, what: &str, supported: &str) -> Error {
    err(path, format!("{} is not supported (supported: {supported})", Quoted(what)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BertNormalizerJson {
    #[serde(rename = "type")]
    _type: String,
    clean_text: bool,
    handle_chinese_chars: bool,
    strip_accents: Option<bool>,
    lowercase: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelJson {
    #[serde(rename = "type", default)]
    _type: Option<String>,
    #[serde(default = "default_unk")]
    unk_token: String,
    #[serde(default = "default_prefix")]
    continuing_subword_prefix: String,
    #[serde(default = "default_max_chars")]
    max_input_chars_per_word: usize,
    vocab: FxHashMap<String, u32>,
    /// Our extra data (see `Extra`).
    #[serde(default, rename = "fast_wordpiece")]
    extra: Option<Value>,
}

fn default_unk() -> String {
    "[UNK]".into()
}
fn default_prefix() -> String {
    "##".into()
}
fn default_max_chars() -> usize {
    100
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AddedTokenJson {
    id: u32,
    content: String,
    single_word: bool,
    lstrip: bool,
    rstrip: bool,
    normalized: bool,
    special: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecoderJson {
    #[serde(rename = "type")]
    _type: String,
    prefix: String,
    cleanup: bool,
}

/// What Hugging Face does not store.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Extra {
    version: u32,
    merges: Vec<(String, String)>,
    special_tokens: Vec<String>,
    /// The training objective (none for a vocabulary that was loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    objective: Option<Objective>,
    /// Hugging Face keeps `encode_special_tokens` out of the file.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    split_special_tokens: bool,
    /// The pad token, when it is not `[PAD]` (Hugging Face keeps it in the
    /// `padding` section only, which may be null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pad_token: Option<String>,
}

/// The normalizer: a `BertNormalizer`, or `Lowercase` / `Strip` / `NFD` /
/// `StripAccents` / `Sequence`s of them that equal a BERT setting: BERT's
/// order is BertNormalizer, then NFD with StripAccents, then Lowercase; a
/// Lowercase step may also come before NFD or between NFD and StripAccents
/// (the same text and offsets on every input), not a lowercasing
/// BertNormalizer. `Strip` removes only whitespace at
/// the ends, which every supported pre-tokenizer drops anyway (offsets are
/// unchanged).
fn normalizer(value: &Value, path: &str) -> Result<Normalizer> {
    let off = Normalizer {
        clean_text: false,
        handle_chinese_chars: false,
        strip_accents: Some(false),
        lowercase: false,
        strip_all_marks: false,
    };
    if value.is_null() {
        return Ok(off);
    }
    let mut steps = Vec::new();
    flatten_normalizers(value, path.to_owned(), &mut steps)?;
    steps.retain(|(step, _)| kind(step, "").ok().flatten() != Some("Strip") || !strip_ok(step));
    let mut out: Option<Normalizer> = None;
    let mut lowercase_after = false;
    let mut strip_marks = false;
    let mut i = 0;
    while i < steps.len() {
        let (step, path) = (steps[i].0, steps[i].1.as_str());
        match kind(step, path)? {
            Some("BertNormalizer") => {
                if out.is_some() || lowercase_after || strip_marks {
                    return Err(err(
                        path,
                        "a BertNormalizer after another normalizer (other than Strip) is not supported",
                    ));
                }
                let b: BertNormalizerJson = record(step, path)?;
                out = Some(Normalizer {
                    clean_text: b.clean_text,
                    handle_chinese_chars: b.handle_chinese_chars,
                    strip_accents: b.strip_accents,
                    lowercase: b.lowercase,
                    strip_all_marks: false,
                });
            }
            Some("Lowercase") => lowercase_after = true,
            Some("Strip") => record::<StripJson>(step, path).map(|_| ())?,
            Some("NFD") => {
                // Lowercase steps between NFD and StripAccents (or before NFD)
                // give the same text and offsets as lowercasing after them.
                let mut j = i + 1;
                while steps.get(j).is_some_and(|(s, p)| matches!(kind(s, p), Ok(Some("Lowercase")))) {
                    j += 1;
                }
                let next = steps.get(j).map(|(s, p)| (kind(s, p), p));
                if !matches!(next, Some((Ok(Some("StripAccents")), _))) {
                    return Err(err(
                        path,
                        "\"NFD\" is supported only before StripAccents, with at most Lowercase steps between them \
                         (BERT decomposes only to strip accents)",
                    ));
                }
                let n = out.unwrap_or(off);
                if strip_marks || n.lowercase || n.strips_accents() {
                    return Err(err(
                        path,
                        "\"NFD\" is not supported after a BertNormalizer that lowercases or strips accents, or \
                         after another NFD",
                    ));
                }
                strip_marks = true;
                lowercase_after |= j > i + 1;
                i = j;
            }
            Some(other) => {
                let why = match other {
                    "StripAccents" => " without an NFD right before it",
                    _ => "",
                };
                return Err(err(
                    path,
                    format!(
                        "{} is not supported{why} (supported: BertNormalizer, NFD then StripAccents, \
                         Lowercase, Strip, Sequence of them)",
                        Quoted(other)
                    ),
                ));
            }
            None => return Err(err(path, "a normalizer needs a \"type\"")),
        }
        i += 1;
    }
    let mut n = out.unwrap_or(off);
    if strip_marks {
        n.strip_accents = Some(true);
        n.strip_all_marks = true;
    }
    if lowercase_after && !n.lowercase {
        n.strip_accents = Some(n.strips_accents());
        n.lowercase = true;
    }
    Ok(n)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StripJson {
    #[serde(rename = "type")]
    _type: String,
    strip_left: bool,
    strip_right: bool,
}

/// The ends a normalizer's `Strip` steps trim (left, right): dropped from
/// the text's normalization, but Hugging Face also strips the normalized
/// form of a `normalized` added token with them, so such a token whose form
/// they would change is refused ([`refuse_stripped_added_tokens`]).
fn strip_sides(value: &Value) -> (bool, bool) {
    let mut steps = Vec::new();
    if flatten_normalizers(value, String::new(), &mut steps).is_err() {
        return (false, false);
    }
    steps
        .iter()
        .filter_map(|(step, _)| serde_json::from_value::<StripJson>((*step).clone()).ok())
        .fold((false, false), |(left, right), s| (left || s.strip_left, right || s.strip_right))
}

/// A `normalized` added token whose normalized form starts (ends) with
/// whitespace, under a normalizer with a `Strip` of that end: Hugging Face
/// matches the stripped form, which this pipeline (which drops `Strip`)
/// would not; refused rather than matched otherwise.
fn refuse_stripped_added_tokens(
    normalizer: &Normalizer,
    (left, right): (bool, bool),
    added: &[(String, AddedToken)],
) -> Result<()> {
    if !(left || right) {
        return Ok(());
    }
    for (path, token) in added.iter().filter(|(_, t)| t.normalized) {
        let form = normalizer.normalize(&token.content);
        if (left && form.starts_with(char::is_whitespace)) || (right && form.ends_with(char::is_whitespace)) {
            return Err(err(
                path,
                format!(
                    "the normalized added token {} (normalized: {}) is not supported with the normalizer's \
                     \"Strip\", which Hugging Face applies to it",
                    Quoted(&token.content),
                    Quoted(&form)
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a `Strip` step is well formed (a malformed one stays in the steps
/// to be reported).
fn strip_ok(step: &Value) -> bool {
    serde_json::from_value::<StripJson>(step.clone()).is_ok()
}

fn flatten_normalizers<'a>(value: &'a Value, path: String, out: &mut Vec<(&'a Value, String)>) -> Result<()> {
    if kind(value, &path)? != Some("Sequence") {
        out.push((value, path));
        return Ok(());
    }
    let Some(items) = value.get("normalizers").and_then(Value::as_array) else {
        return Err(err(&format!("{path}.normalizers"), "expected a list of normalizers"));
    };
    for (i, item) in items.iter().enumerate() {
        flatten_normalizers(item, format!("{path}.normalizers[{i}]"), out)?;
    }
    Ok(())
}

/// The pre-tokenizers a file may name (in `unsupported` errors).
const PRE_TOKENIZERS: &str = "BertPreTokenizer, Whitespace, WhitespaceSplit, Sequence equivalent to one of them";

fn pre_tokenizer(value: &Value) -> Result<PreTokenizer> {
    pre_tokenizer_at(value, "pre_tokenizer")
}

/// The pre-tokenizer at JSON path `path`.
fn pre_tokenizer_at(value: &Value, path: &str) -> Result<PreTokenizer> {
    match kind(value, path)? {
        Some("BertPreTokenizer") => Ok(PreTokenizer::Bert),
        Some("WhitespaceSplit") => Ok(PreTokenizer::Whitespace),
        Some("Whitespace") => Ok(PreTokenizer::WordPunct),
        Some("Sequence") => pre_tokenizer_sequence(value, path),
        Some(other) => Err(unsupported(path, other, PRE_TOKENIZERS)),
        None if value.is_null() => Err(err(path, "null (no pre-tokenizer) is not supported")),
        None => Err(err(path, "a pre-tokenizer needs a \"type\"")),
    }
}

/// A `Sequence` of pre-tokenizers that splits exactly as one supported here:
/// a single supported pre-tokenizer, or `[WhitespaceSplit, Punctuation]`
/// (in either order) with `behavior` `"Isolated"` (its default), which is `BertPreTokenizer`
/// (both split on the same whitespace and isolate the same punctuation).
fn pre_tokenizer_sequence(value: &Value, path: &str) -> Result<PreTokenizer> {
    let items_path = format!("{path}.pretokenizers");
    let Some(items) = value.get("pretokenizers").and_then(Value::as_array) else {
        return Err(err(&items_path, "expected a list of pre-tokenizers"));
    };
    let isolated_punctuation = |step: &Value| {
        step.as_object().is_some_and(|o| {
            o.get("type").and_then(Value::as_str) == Some("Punctuation")
                && o.get("behavior").is_none_or(|b| b.as_str() == Some("Isolated"))
                && o.keys().all(|k| k == "type" || k == "behavior")
        })
    };
    let whitespace_split = |step: &Value| {
        step.as_object()
            .is_some_and(|o| o.len() == 1 && o.get("type").and_then(Value::as_str) == Some("WhitespaceSplit"))
    };
    match items.as_slice() {
        [one] => pre_tokenizer_at(one, &format!("{items_path}[0]")),
        // Either order: no punctuation character is whitespace.
        [first, second]
            if (whitespace_split(first) && isolated_punctuation(second))
                || (isolated_punctuation(first) && whitespace_split(second)) =>
        {
            Ok(PreTokenizer::Bert)
        }
        _ => Err(err(
            path,
            "this Sequence of pre-tokenizers is not supported (supported: a Sequence of one supported \
             pre-tokenizer, or [WhitespaceSplit, Punctuation with behavior \"Isolated\"], which is BertPreTokenizer)",
        )),
    }
}

/// What the post-processor adds, and for BERT's the `[CLS]` and `[SEP]`
/// tokens with the ids the file gives them (checked against the vocabulary
/// later).
type SpecialId = (String, u32, String);

fn post_processor(value: &Value) -> Result<(PostProcessing, Option<[SpecialId; 2]>)> {
    let path = "post_processor";
    match kind(value, path)? {
        None if value.is_null() => Ok((PostProcessing::Off, None)),
        Some("BertProcessing") => {
            let pair = |key: &str| -> Result<SpecialId> {
                let p = format!("{path}.{key}");
                let (token, id): (String, u32) = typed(value.get(key).unwrap_or(&Value::Null), &p)?;
                Ok((token, id, p))
            };
            Ok((PostProcessing::Bert, Some([pair("cls")?, pair("sep")?])))
        }
        Some("TemplateProcessing") => {
            let template = Template::from_json(value, path)?;
            // BERT's own template stays BERT's (the `cls_token` and
            // `sep_token` options); any other is kept as it is.
            let Some((cls, sep)) = template.as_bert() else {
                return Ok((PostProcessing::Template(Box::new(template)), None));
            };
            let id_of = |token: &str| -> SpecialId {
                let id = template.special_tokens[token].ids[0];
                (token.to_owned(), id, format!("{path}.special_tokens.{token}.ids"))
            };
            Ok((PostProcessing::Bert, Some([id_of(cls), id_of(sep)])))
        }
        Some(other) => Err(unsupported(path, other, "BertProcessing, TemplateProcessing, null")),
        None => Err(err(path, "a post-processor needs a \"type\"")),
    }
}

fn side(value: Option<&Value>, path: &str) -> Result<Side> {
    match value.and_then(Value::as_str) {
        None if value.is_none_or(Value::is_null) => Ok(Side::Right),
        Some("Right") => Ok(Side::Right),
        Some("Left") => Ok(Side::Left),
        _ => Err(err(path, format!("expected \"Left\" or \"Right\", found {}", value.unwrap_or(&Value::Null)))),
    }
}

fn side_json(side: Side) -> &'static str {
    if side == Side::Left {
        "Left"
    } else {
        "Right"
    }
}

/// A `truncation` section (`null`: none).
pub(crate) fn truncation_from_json(value: &Value, path: &str) -> Result<Option<Truncation>> {
    if value.is_null() {
        return Ok(None);
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct TruncationJson {
        #[serde(default)]
        direction: Option<Value>,
        max_length: usize,
        strategy: String,
        stride: usize,
    }
    let t: TruncationJson = record(value, path)?;
    let strategy = match t.strategy.as_str() {
        "LongestFirst" => Strategy::LongestFirst,
        "OnlyFirst" => Strategy::OnlyFirst,
        "OnlySecond" => Strategy::OnlySecond,
        other => return Err(unsupported(&format!("{path}.strategy"), other, "LongestFirst, OnlyFirst, OnlySecond")),
    };
    let side = side(t.direction.as_ref(), &format!("{path}.direction"))?;
    Ok(Some(Truncation { max_length: t.max_length, strategy, stride: t.stride, side }))
}

pub(crate) fn truncation_json(t: Option<Truncation>) -> Value {
    let Some(t) = t else { return Value::Null };
    let strategy = match t.strategy {
        Strategy::LongestFirst => "LongestFirst",
        Strategy::OnlyFirst => "OnlyFirst",
        Strategy::OnlySecond => "OnlySecond",
    };
    json!({"direction": side_json(t.side), "max_length": t.max_length, "strategy": strategy, "stride": t.stride})
}

/// A `padding` section (`null`: none), with its pad token: any token of the
/// vocabulary, given with its id, and type id 0.
pub(crate) fn padding_from_json(value: &Value, path: &str, vocab: &Vocab) -> Result<Option<(Padding, String)>> {
    if value.is_null() {
        return Ok(None);
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct PaddingJson {
        strategy: Value,
        direction: Value,
        pad_to_multiple_of: Option<usize>,
        pad_id: u32,
        pad_type_id: u32,
        pad_token: String,
    }
    let p: PaddingJson = record(value, path)?;
    let to = match &p.strategy {
        Value::String(s) if s == "BatchLongest" => PadTo::Longest,
        other => match other.get("Fixed").and_then(Value::as_u64) {
            Some(n) => PadTo::Fixed(n as usize),
            None => {
                return Err(err(
                    &format!("{path}.strategy"),
                    format!("{other} is not supported (\"BatchLongest\" or {{\"Fixed\": n}})"),
                ))
            }
        },
    };
    match vocab.id(&p.pad_token) {
        None => {
            return Err(err(&format!("{path}.pad_token"), format!("{} is not in the vocabulary", Quoted(&p.pad_token))))
        }
        Some(id) if id != p.pad_id => {
            return Err(err(
                &format!("{path}.pad_id"),
                format!("{} is not the id of {}, which is {id}", p.pad_id, Quoted(&p.pad_token)),
            ))
        }
        Some(_) => {}
    }
    if p.pad_type_id != 0 {
        return Err(err(&format!("{path}.pad_type_id"), format!("{} is not supported (only 0)", p.pad_type_id)));
    }
    let side = side(Some(&p.direction), &format!("{path}.direction"))?;
    Ok(Some((Padding { to, multiple_of: p.pad_to_multiple_of.and_then(NonZeroUsize::new), side }, p.pad_token)))
}

/// A `padding` section that pads with `pad_token`.
pub(crate) fn padding_json(p: Option<Padding>, vocab: &Vocab, pad_token: &str) -> Value {
    let Some(p) = p else { return Value::Null };
    let strategy = match p.to {
        PadTo::Longest => json!("BatchLongest"),
        PadTo::Fixed(n) => json!({"Fixed": n}),
    };
    json!({
        "strategy": strategy,
        "direction": side_json(p.side),
        "pad_to_multiple_of": p.multiple_of.map(NonZeroUsize::get),
        "pad_id": vocab.id(pad_token),
        "pad_type_id": 0,
        "pad_token": pad_token,
    })
}

/// The top level of a `tokenizer.json`, the model typed at once (its
/// vocabulary is most of the file), the other components checked by path.
/// Another key is refused, as Hugging Face refuses it: a misspelt
/// `"normaliser"` would otherwise leave the file's normalizer out.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Root {
    /// Absent (Hugging Face reads a file without one) or the value given,
    /// null included.
    #[serde(default, deserialize_with = "present")]
    version: Option<Value>,
    #[serde(default)]
    truncation: Value,
    #[serde(default)]
    padding: Value,
    #[serde(default)]
    added_tokens: Value,
    #[serde(default)]
    normalizer: Value,
    #[serde(default)]
    pre_tokenizer: Value,
    #[serde(default)]
    post_processor: Value,
    #[serde(default)]
    decoder: Value,
    model: ModelJson,
}

/// A field's value when the file has the field, null included (a plain
/// `Option<Value>` would read null as absent).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// The file's `version`: `"1.0"`, or none at all, as Hugging Face reads it.
fn check_version(version: Option<&Value>) -> Result<()> {
    match version {
        None => Ok(()),
        Some(Value::String(v)) if v == "1.0" => Ok(()),
        Some(other) => Err(err("version", format!("{other} is not supported (expected \"1.0\")"))),
    }
}

/// The keys of a [`Root`], in Hugging Face's order.
const ROOT_KEYS: [&str; 9] = [
    "version",
    "truncation",
    "padding",
    "added_tokens",
    "normalizer",
    "pre_tokenizer",
    "post_processor",
    "decoder",
    "model",
];

/// A ValueError for a top-level key of a tokenizer.json that Hugging Face's
/// has not (the first by name), which it refuses: of every reader of the
/// family, so that a misspelt `"normaliser"` never leaves a stage out.
pub fn check_root_keys<'a>(keys: impl IntoIterator<Item = &'a String>) -> Result<()> {
    match keys.into_iter().filter(|k| !ROOT_KEYS.contains(&k.as_str())).min() {
        Some(key) => Err(Error::invalid(format!(
            "a tokenizer.json has no key {} (its keys: {})",
            Quoted(key),
            ROOT_KEYS.join(", ")
        ))),
        None => Ok(()),
    }
}

/// [`check_root_keys`] of the text of a tokenizer.json, read first with the
/// values skipped unread (a number too large for a double under an unknown
/// key is that key's error, not the number's); no error for a text that is
/// not a JSON object (the reader's own checks name it).
pub fn check_root_keys_of(json: &str) -> Result<()> {
    match serde_json::from_str::<FxHashMap<String, serde::de::IgnoredAny>>(json) {
        Ok(top) => check_root_keys(top.keys()),
        Err(_) => Ok(()),
    }
}

/// The error of a file that does not parse as a [`Root`], by JSON path.
fn diagnose(json: &str, error: serde_json::Error) -> Error {
    if let Err(e) = check_root_keys_of(json) {
        return e;
    }
    let value: Value = match serde_json::from_str(json) {
        Ok(value) => value,
        Err(e) => return Error::invalid(format!("not JSON: {e}")),
    };
    let Some(obj) = value.as_object() else { return Error::invalid("a tokenizer.json must be a JSON object") };
    let found = (|| {
        check_version(obj.get("version"))?;
        let model = obj.get("model").ok_or_else(|| err("model", "missing"))?;
        match kind(model, "model")? {
            None | Some("WordPiece") => {}
            Some(other) => return Err(unsupported("model", other, "WordPiece")),
        }
        // An id that is no u32, named with its token (the first in order).
        if let Some(vocab) = model.get("vocab").and_then(Value::as_object) {
            if let Some((token, id)) = vocab
                .iter()
                .filter(|(_, id)| id.as_u64().is_none_or(|id| id > u64::from(u32::MAX)))
                .min_by_key(|&(token, _)| token)
            {
                return Err(err("model.vocab", format!("invalid id {id} for {}", Quoted(token))));
            }
        }
        record::<ModelJson>(model, "model").map(|_| ())
    })();
    found.err().unwrap_or_else(|| Error::invalid(error.to_string()))
}

impl Tokenizer {
    /// A tokenizer from a Hugging Face `tokenizer.json` (or one this crate
    /// wrote, with its extra data).
    pub fn from_hf_json(json: &str) -> Result<Self> {
        let room_for_ids = |size: usize| Error::memory(format_args!("a vocabulary of ids 0 to {}", size - 1));
        let root: Root = serde_json::from_str(json).map_err(|e| diagnose(json, e))?;
        let field = |key: &str| match key {
            "truncation" => &root.truncation,
            "padding" => &root.padding,
            "added_tokens" => &root.added_tokens,
            "normalizer" => &root.normalizer,
            "pre_tokenizer" => &root.pre_tokenizer,
            "post_processor" => &root.post_processor,
            _ => &root.decoder,
        };
        check_version(root.version.as_ref())?;
        let model = &root.model;
        match model._type.as_deref() {
            None | Some("WordPiece") => {}
            Some(other) => return Err(unsupported("model", other, "WordPiece")),
        }
        // One slot per id up to the largest: ids with holes between them
        // take room for the holes too, so the largest is bounded by the
        // number of tokens (of two tokens with that id, the first by UTF-8).
        if let Some((token, &id)) = model.vocab.iter().max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0))) {
            if let Some(why) = id_too_large(id, token, model.vocab.len()) {
                return Err(err("model.vocab", why));
            }
        }
        let size = model.vocab.values().map(|&id| id as usize + 1).max().unwrap_or(0);
        let mut slots: Vec<Option<String>> = Vec::new();
        slots.try_reserve_exact(size).map_err(|_| room_for_ids(size))?;
        slots.resize(size, None);
        for (token, &id) in &model.vocab {
            if let Some(other) = &slots[id as usize] {
                let (a, b) = if other < token { (other, token) } else { (token, other) };
                return Err(err("model.vocab", format!("{} and {} have the same id {id}", Quoted(a), Quoted(b))));
            }
            slots[id as usize] = Some(token.clone());
        }
        if model.max_input_chars_per_word == 0 {
            return Err(err("model.max_input_chars_per_word", "must be >= 1, got 0"));
        }
        // Added tokens: ids as Hugging Face gives them when it loads the file
        // (the token's id in the model, else the next id after the model's).
        // Every flag is required, as in Hugging Face (no serde default).
        let Some(items) = field("added_tokens").as_array() else {
            return Err(err("added_tokens", "expected a list"));
        };
        let added: Vec<AddedTokenJson> =
            items.iter().enumerate().map(|(i, t)| record(t, &format!("added_tokens[{i}]"))).collect::<Result<_>>()?;
        let mut next_id = model.vocab.len() as u32;
        let mut outside_model = FxHashSet::default();
        let mut specials = Vec::new();
        let mut extra_added = Vec::new();
        let mut added_ids: FxHashMap<String, u32> = FxHashMap::default();
        for (i, t) in added.iter().enumerate() {
            let path = format!("added_tokens[{i}]");
            if t.content.is_empty() || added_ids.contains_key(&t.content) {
                continue; // Hugging Face ignores these
            }
            let id = match model.vocab.get(&t.content) {
                Some(&id) => id,
                None => {
                    let id = next_id;
                    next_id += 1;
                    if slots.get(id as usize).is_some_and(Option::is_some) {
                        return Err(err(
                            &path,
                            format!("{} would get id {id}, which the model's vocabulary uses", Quoted(&t.content)),
                        ));
                    }
                    if slots.len() <= id as usize {
                        slots.try_reserve(id as usize + 1 - slots.len()).map_err(|_| room_for_ids(id as usize + 1))?;
                        slots.resize(id as usize + 1, None);
                    }
                    slots[id as usize] = Some(t.content.clone());
                    outside_model.insert(id);
                    id
                }
            };
            added_ids.insert(t.content.clone(), id);
            if t.special && !t.normalized && !(t.single_word || t.lstrip || t.rstrip) {
                specials.push(t.content.clone());
            } else {
                let token = AddedToken {
                    content: t.content.clone(),
                    special: t.special,
                    normalized: t.normalized,
                    single_word: t.single_word,
                    lstrip: t.lstrip,
                    rstrip: t.rstrip,
                };
                extra_added.push((path, token));
            }
        }
        let vocab = Vocab::from_slots(slots, outside_model, &model.continuing_subword_prefix)?;
        // The pipeline.
        let normalizer = normalizer(field("normalizer"), "normalizer")?;
        refuse_stripped_added_tokens(&normalizer, strip_sides(field("normalizer")), &extra_added)?;
        let pre_tokenizer = pre_tokenizer(field("pre_tokenizer"))?;
        let (post, cls_sep) = post_processor(field("post_processor"))?;
        let decoder = field("decoder");
        let decoding = match kind(decoder, "decoder")? {
            Some("WordPiece") => Decoding::WordPiece,
            Some(other) => return Err(unsupported("decoder", other, "WordPiece, null")),
            None if decoder.is_null() => Decoding::Off,
            None => return Err(err("decoder", "a decoder needs a \"type\"")),
        };
        let decoder_cleanup = match decoding {
            Decoding::Off => true,
            Decoding::WordPiece => {
                let decoder: DecoderJson = record(decoder, "decoder")?;
                if decoder.prefix != model.continuing_subword_prefix {
                    return Err(err(
                        "decoder.prefix",
                        format!(
                            "{} differs from model.continuing_subword_prefix {}, which is not supported",
                            Quoted(&decoder.prefix),
                            Quoted(&model.continuing_subword_prefix)
                        ),
                    ));
                }
                decoder.cleanup
            }
        };
        let mut options = Options {
            normalizer,
            pre_tokenizer,
            unk_token: model.unk_token.clone(),
            max_input_chars_per_word: model.max_input_chars_per_word,
            continuing_subword_prefix: model.continuing_subword_prefix.clone(),
            decoder_cleanup,
            decoder: decoding,
            post_processor: post,
            ..Options::default()
        };
        // BERT's template with ids the vocabulary does not give its tokens is
        // run as any other template (which checks its ids).
        let template = field("post_processor").get("type").and_then(Value::as_str) == Some("TemplateProcessing");
        let cls_sep = match cls_sep {
            Some([cls, sep]) if template && [&cls, &sep].iter().any(|(t, id, _)| vocab.id(t) != Some(*id)) => {
                options.post_processor =
                    PostProcessing::Template(Box::new(Template::from_json(field("post_processor"), "post_processor")?));
                None
            }
            other => other,
        };
        if let Some([cls, sep]) = cls_sep {
            for (token, id, path) in [&cls, &sep] {
                let actual = vocab.id(token);
                if actual != Some(*id) {
                    let actual = actual.map_or("no id".into(), |i| format!("id {i}"));
                    return Err(err(
                        path,
                        format!(
                            "{} has id {id} here but {actual} in the vocabulary, which is not supported",
                            Quoted(token)
                        ),
                    ));
                }
            }
            options.cls_token = cls.0;
            options.sep_token = sep.0;
        }
        if let PostProcessing::Template(t) = &options.post_processor {
            // The tokens a transformers-style cls_token and sep_token name.
            if let Some((cls, sep)) = t.cls_and_sep() {
                (options.cls_token, options.sep_token) = (cls.to_owned(), sep.to_owned());
            }
        }
        // Our own data, when we wrote the file.
        let (merges, specials, objective) = match &model.extra {
            None => (Vec::new(), specials, None),
            Some(extra) => {
                let path = format!("model.{EXTRA}");
                let extra: Extra = record(extra, &path)?;
                if extra.version != 1 {
                    return Err(err(
                        &format!("{path}.version"),
                        format!("{} is not supported (expected 1)", extra.version),
                    ));
                }
                let given: FxHashSet<&String> = specials.iter().collect();
                if !extra.special_tokens.iter().all(|t| given.contains(t)) {
                    return Err(err(&format!("{path}.special_tokens"), "differ from the special added_tokens"));
                }
                // The other special tokens were added by `add_special_tokens`.
                let listed: FxHashSet<&String> = extra.special_tokens.iter().collect();
                for t in specials.iter().filter(|t| !listed.contains(t)) {
                    let token = AddedToken { content: t.clone(), special: true, ..AddedToken::default() };
                    extra_added.push(("added_tokens".to_owned(), token));
                }
                options.split_special_tokens = extra.split_special_tokens;
                if let Some(pad) = extra.pad_token {
                    options.pad_token = pad;
                }
                (extra.merges, extra.special_tokens, extra.objective)
            }
        };
        let truncation = truncation_from_json(field("truncation"), "truncation")?;
        let padding = padding_from_json(field("padding"), "padding", &vocab)?.map(|(padding, pad_token)| {
            options.pad_token = pad_token;
            padding
        });
        let mut tokenizer = Tokenizer::new(vocab, merges, &specials, options).map_err(|e| match e {
            Error::InvalidArgument(m) if m.starts_with("unk_token") => err("model.unk_token", m),
            other => other,
        })?;
        if extra_added.is_empty() {
            // Nothing can fail: no copy to fall back on.
            tokenizer = tokenizer.with_added_tokens(Vec::new())?;
        } else {
            let all: Vec<AddedToken> = extra_added.iter().map(|(_, t)| t.clone()).collect();
            // A copy, so that the tokens can be added one by one to find the
            // one at fault (for its path) if adding them all fails.
            tokenizer = match tokenizer.clone().with_added_tokens(all) {
                Ok(t) => t,
                Err(e) => {
                    for (path, token) in extra_added {
                        tokenizer = tokenizer.with_added_tokens(vec![token]).map_err(|e| err(&path, e))?;
                    }
                    return Err(e);
                }
            };
        }
        Ok(tokenizer.with_defaults(truncation, padding).map_err(|e| err("truncation", e))?.with_objective(objective))
    }

    /// The tokenizer as a Hugging Face `tokenizer.json`.
    pub fn to_hf_json(&self) -> Result<String> {
        self.to_hf_json_as(true)
    }

    /// [`Self::to_hf_json`], indented (`pretty`, as `save` writes it) or
    /// on one line (as Hugging Face's `to_str()` gives it).
    pub fn to_hf_json_as(&self, pretty: bool) -> Result<String> {
        let o = self.options();
        let pre_tokenizer = match o.pre_tokenizer {
            PreTokenizer::Bert => json!({"type": "BertPreTokenizer"}),
            PreTokenizer::Whitespace => json!({"type": "WhitespaceSplit"}),
            PreTokenizer::WordPunct => json!({"type": "Whitespace"}),
            PreTokenizer::Regex => {
                return Err(Error::invalid(
                    "pre_tokenizer=\"regex\" has no Hugging Face equivalent: save this tokenizer with to_json()",
                ))
            }
        };
        let vocab = self.vocab();
        let plain = self.plain_special_tokens();
        let special_ids: Vec<(u32, AddedToken)> = {
            let plain = plain.iter().map(|t| AddedToken { content: t.clone(), special: true, ..AddedToken::default() });
            let all = plain.chain(self.added_tokens().iter().cloned());
            let mut v: Vec<(u32, AddedToken)> =
                all.map(|t| (vocab.id(&t.content).expect("added tokens are in the vocabulary"), t)).collect();
            v.sort_unstable_by_key(|(id, _)| *id);
            v
        };
        // Hugging Face gives a token outside the model the next id after the
        // model's vocabulary, in the order of `added_tokens`.
        let model_len = vocab.model_count() as u32;
        let mut next_id = model_len;
        for (id, token) in &special_ids {
            let (id, token) = (*id, &token.content);
            if !vocab.in_model(id) {
                if id != next_id {
                    return Err(Error::invalid(format!(
                        "added token {} has id {id}, which Hugging Face would renumber to {next_id} (it numbers \
                         the tokens outside the model from the count of the model's, holes left out): save with \
                         to_json() instead",
                        Quoted(token)
                    )));
                }
                next_id += 1;
            }
        }
        let added: Vec<AddedTokenJson> = special_ids
            .iter()
            .map(|(id, t)| AddedTokenJson {
                id: *id,
                content: t.content.clone(),
                single_word: t.single_word,
                lstrip: t.lstrip,
                rstrip: t.rstrip,
                normalized: t.normalized,
                special: t.special,
            })
            .collect();
        let n = &o.normalizer;
        let post_processor = match (&o.post_processor, vocab.id(&o.cls_token), vocab.id(&o.sep_token)) {
            (PostProcessing::Template(t), _, _) => t.to_json(),
            (PostProcessing::Bert, Some(cls), Some(sep)) => {
                let special = |t: &str, type_id: u32| json!({"SpecialToken": {"id": t, "type_id": type_id}});
                let seq = |s: &str, type_id: u32| json!({"Sequence": {"id": s, "type_id": type_id}});
                let (c, s) = (o.cls_token.as_str(), o.sep_token.as_str());
                json!({
                    "type": "TemplateProcessing",
                    "single": [special(c, 0), seq("A", 0), special(s, 0)],
                    "pair": [special(c, 0), seq("A", 0), special(s, 0), seq("B", 1), special(s, 1)],
                    "special_tokens": {
                        c: {"id": c, "ids": [cls], "tokens": [c]},
                        s: {"id": s, "ids": [sep], "tokens": [s]},
                    },
                })
            }
            _ => Value::Null,
        };
        let file = HfFile {
            version: "1.0",
            truncation: truncation_json(self.truncation()),
            padding: padding_json(self.padding(), vocab, &self.options().pad_token),
            added_tokens: added,
            normalizer: if n.strip_all_marks && n.strips_accents() {
                // Hugging Face's StripAccents drops every mark: BERT's order
                // with the accents stripped, then lowercased, outside.
                let mut steps = vec![json!({
                    "type": "BertNormalizer",
                    "clean_text": n.clean_text,
                    "handle_chinese_chars": n.handle_chinese_chars,
                    "strip_accents": false,
                    "lowercase": false,
                })];
                steps.extend([json!({"type": "NFD"}), json!({"type": "StripAccents"})]);
                if n.lowercase {
                    steps.push(json!({"type": "Lowercase"}));
                }
                json!({"type": "Sequence", "normalizers": steps})
            } else {
                json!({
                    "type": "BertNormalizer",
                    "clean_text": n.clean_text,
                    "handle_chinese_chars": n.handle_chinese_chars,
                    "strip_accents": n.strip_accents,
                    "lowercase": n.lowercase,
                })
            },
            pre_tokenizer,
            post_processor,
            decoder: match o.decoder {
                Decoding::WordPiece => {
                    json!({"type": "WordPiece", "prefix": o.continuing_subword_prefix, "cleanup": o.decoder_cleanup})
                }
                Decoding::Off => Value::Null,
            },
            model: ModelOut {
                kind: "WordPiece",
                unk_token: &o.unk_token,
                continuing_subword_prefix: &o.continuing_subword_prefix,
                max_input_chars_per_word: o.max_input_chars_per_word,
                vocab: VocabOut(vocab),
                extra: Extra {
                    version: 1,
                    merges: self.merges().to_vec(),
                    special_tokens: plain,
                    objective: self.objective(),
                    split_special_tokens: o.split_special_tokens,
                    pad_token: (o.pad_token != PAD_TOKEN).then(|| o.pad_token.clone()),
                },
            },
        };
        let text = if pretty { serde_json::to_string_pretty(&file) } else { serde_json::to_string(&file) };
        Ok(text.expect("a tokenizer always serializes"))
    }
}

#[derive(Serialize)]
struct HfFile<'a> {
    version: &'a str,
    truncation: Value,
    padding: Value,
    added_tokens: Vec<AddedTokenJson>,
    normalizer: Value,
    pre_tokenizer: Value,
    post_processor: Value,
    decoder: Value,
    model: ModelOut<'a>,
}

#[derive(Serialize)]
struct ModelOut<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    unk_token: &'a str,
    continuing_subword_prefix: &'a str,
    max_input_chars_per_word: usize,
    vocab: VocabOut<'a>,
    /// Hugging Face's loader ignores unknown fields of the model (but not
    /// at the top level).
    #[serde(rename = "fast_wordpiece")]
    extra: Extra,
}

/// The model's tokens as `{token: id}`, in id order.
struct VocabOut<'a>(&'a Vocab);

impl Serialize for VocabOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (id, token) in self.0.entries().filter(|&(id, _)| self.0.in_model(id)) {
            map.serialize_entry(token, &id)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(normalizer: &str, post: &str) -> String {
        format!(
            r#"{{"version": "1.0", "truncation": null, "padding": null,
            "added_tokens": [{{"id": 1, "content": "[UNK]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}}],
            "normalizer": {normalizer}, "pre_tokenizer": {{"type": "BertPreTokenizer"}}, "post_processor": {post},
            "decoder": {{"type": "WordPiece", "prefix": "@@", "cleanup": false}},
            "model": {{"unk_token": "[UNK]", "continuing_subword_prefix": "@@", "max_input_chars_per_word": 100,
                      "vocab": {{"[CLS]": 0, "[UNK]": 1, "[SEP]": 2, "ab": 3, "@@c": 4, "a": 7}}}}}}"#
        )
    }

    #[test]
    fn imports_a_sparse_vocabulary_with_another_prefix() {
        let t = Tokenizer::from_hf_json(&file("null", "null")).unwrap();
        let e = t.encode("abc A", None, true).unwrap();
        assert_eq!(e.ids(), [3, 4, 1]);
        assert_eq!(t.vocab().token(5), None);
        assert_eq!(t.decode(&[3, 4, 7], false).unwrap(), "abc a");
    }

    #[test]
    fn sequences_that_equal_a_bert_normalizer() {
        let seq = r#"{"type": "Sequence", "normalizers": [{"type": "Strip", "strip_left": true, "strip_right": true}, {"type": "Lowercase"}]}"#;
        let t = Tokenizer::from_hf_json(&file(seq, "null")).unwrap();
        assert_eq!(
            t.options().normalizer,
            Normalizer {
                clean_text: false,
                handle_chinese_chars: false,
                strip_accents: Some(false),
                lowercase: true,
                strip_all_marks: false
            }
        );
    }

    #[test]
    fn errors_name_the_component_and_path() {
        let seq = r#"{"type": "Sequence", "normalizers": [{"type": "Lowercase"}, {"type": "Replace"}]}"#;
        let e = Tokenizer::from_hf_json(&file(seq, "null")).unwrap_err().to_string();
        assert!(e.starts_with("normalizer.normalizers[1]: \"Replace\" is not supported"), "{e}");
        let bert = r#"{"type": "BertProcessing", "cls": ["[CLS]", 0], "sep": ["[SEP]", 9]}"#;
        let e = Tokenizer::from_hf_json(&file("null", bert)).unwrap_err().to_string();
        assert!(e.starts_with("post_processor.sep: \"[SEP]\" has id 9 here but id 2"), "{e}");
    }

    #[test]
    fn a_missing_version_is_read_and_a_null_one_refused() {
        let without = file("null", "null").replacen(r#""version": "1.0", "#, "", 1);
        assert!(!without.contains("version"));
        assert!(Tokenizer::from_hf_json(&without).is_ok());
        let null = file("null", "null").replacen(r#""1.0""#, "null", 1);
        let e = Tokenizer::from_hf_json(&null).unwrap_err().to_string();
        assert_eq!(e, "version: null is not supported (expected \"1.0\")");
    }

    #[test]
    fn an_id_far_past_the_tokens_is_refused_before_room_is_taken() {
        // Six tokens: ids below 65,536 + 30.
        let at = |id: u32| file("null", "null").replacen(r#""a": 7"#, &format!(r#""a": {id}"#), 1);
        assert!(Tokenizer::from_hf_json(&at(65_565)).is_ok());
        for id in [65_566, 1_000_000_000, u32::MAX] {
            let e = Tokenizer::from_hf_json(&at(id)).unwrap_err().to_string();
            let said = format!(
                "model.vocab: \"a\" has id {id}, too large for 6 tokens: ids must be below 65566 \
                 (65536 + 5 per token; the ids no token has take room too)"
            );
            assert_eq!(e, said);
        }
    }

    #[test]
    fn export_round_trips() {
        let bert = r#"{"type": "BertProcessing", "cls": ["[CLS]", 0], "sep": ["[SEP]", 2]}"#;
        let t = Tokenizer::from_hf_json(&file("null", bert)).unwrap();
        let back = Tokenizer::from_hf_json(&t.to_hf_json().unwrap()).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.encode("ab", Some("abc"), true).unwrap(), t.encode("ab", Some("abc"), true).unwrap());
    }
}
