//! Saving and loading a Unigram tokenizer as a Hugging Face tokenizer.json:
//! a `Unigram` model, `Metaspace` pre-tokenizer and decoder (replacement
//! "▁", split; prepend scheme "always", "first" or "never"; the
//! pre-tokenizer alone, or in a `Sequence` alone or after `WhitespaceSplit`
//! or `Punctuation` "isolated", as transformers 5 saves it, and written back
//! so), a normalizer
//! of those SentencePiece conversions write (`normalizer`) or none, and the
//! special tokens as special added tokens.

use std::path::Path;

use serde_json::{json, Value};

use super::metaspace::{PreTokenizer, Prepend, REPLACEMENT};
use super::normalizer::Normalizer;
use super::UnigramTokenizer;
use crate::error::{Error, Quoted, Result};
use crate::pipeline::special_split::Flags;
use crate::tokenizer::hf_json::check_root_keys_of;

/// What a pre-tokenizer may be besides Metaspace alone.
const SEQUENCE: &str = " (alone, or in a Sequence alone or after WhitespaceSplit or Punctuation \"isolated\")";

/// Whether a pre-tokenizer of a `Sequence` is `Punctuation` with the
/// behavior "isolated" (Hugging Face's default when absent), as transformers
/// writes it for DeBERTa-v2 with `split_by_punct`.
fn is_isolated_punctuation(part: &Value) -> bool {
    let Some(object) = part.as_object() else { return false };
    object.get("type").and_then(Value::as_str) == Some("Punctuation")
        && object.keys().all(|k| k == "type" || k == "behavior")
        && matches!(object.get("behavior").map(Value::as_str), None | Some(Some("Isolated")))
}

/// How many doubles on each side of a score [`as_read_back`] tries at most.
const NEIGHBOURS: u64 = 64;

/// `x` written as the shortest number that reads back as it in exact
/// arithmetic (`ryu`), read as `serde_json` without `float_roundtrip` reads
/// it (as Hugging Face's `tokenizers` does, and this crate).
fn read_back(x: f64) -> Option<f64> {
    serde_json::to_string(&x).ok().and_then(|text| serde_json::from_str::<f64>(&text).ok())
}

/// The score a saved file gives back bit for bit, to us and to Hugging
/// Face, nearest `x` (spec section 14): `x` itself if written and read back
/// it stays; else what it reads back as, if that stays; else the first
/// double that stays among those 1, 2, ... `NEIGHBOURS` places from `x`
/// (below it in bits first); else `x`. (Some small scores, near 1e-9, read
/// back as a neighbour that reads back as them.)
pub fn as_read_back(x: f64) -> f64 {
    let stays = |y: f64| y.is_finite() && read_back(y) == Some(y);
    if !x.is_finite() || stays(x) {
        return x;
    }
    if let Some(y) = read_back(x).filter(|&y| stays(y)) {
        return y;
    }
    let bits = x.to_bits();
    for d in 1..=NEIGHBOURS {
        for near in [bits.wrapping_sub(d), bits.wrapping_add(d)] {
            let y = f64::from_bits(near);
            if stays(y) {
                return y;
            }
        }
    }
    x
}

impl UnigramTokenizer {
    /// The tokenizer.json text.
    pub fn to_json(&self) -> String {
        let metaspace = json!({
            "type": "Metaspace",
            "replacement": REPLACEMENT.to_string(),
            "prepend_scheme": self.prepend().name(),
            "split": true,
        });
        let pre_tokenizer = match self.pre_tokenizer() {
            PreTokenizer::Metaspace => metaspace.clone(),
            PreTokenizer::Sequence => json!({"type": "Sequence", "pretokenizers": [metaspace]}),
            PreTokenizer::WhitespaceSplit => {
                json!({"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, metaspace]})
            }
            PreTokenizer::Punctuation => json!({
                "type": "Sequence",
                "pretokenizers": [{"type": "Punctuation", "behavior": "Isolated"}, metaspace]
            }),
        };
        let added: Vec<Value> = self
            .special_ids()
            .iter()
            .zip(self.added_flags())
            .map(|(&id, f)| {
                json!({
                    "id": id,
                    "content": self.model().pieces()[id as usize].0,
                    "single_word": f.single_word,
                    "lstrip": f.lstrip,
                    "rstrip": f.rstrip,
                    "normalized": f.normalized,
                    "special": self.is_special(id),
                })
            })
            .collect();
        let own = &self.model().pieces()[..self.model().vocab_len()];
        let vocab: Vec<Value> = own.iter().map(|(p, s)| json!([p, s])).collect();
        let doc = json!({
            "version": "1.0",
            "truncation": null,
            "padding": null,
            "added_tokens": added,
            "normalizer": self.normalizer().map(|n| n.json().clone()),
            "pre_tokenizer": pre_tokenizer,
            "post_processor": self.template().map(|t| t.json().clone()),
            "decoder": metaspace,
            "model": {
                "type": "Unigram",
                "unk_id": self.model().unk_id(),
                "vocab": vocab,
                "byte_fallback": false,
            },
        });
        serde_json::to_string_pretty(&doc).expect("a JSON value always serializes")
    }

    /// Saves the tokenizer.json atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::io::write_atomic(path, self.to_json().as_bytes())
    }

    /// Loads a tokenizer.json written by [`save`](Self::save) or by Hugging
    /// Face with the same pipeline.
    pub fn load(path: &Path) -> Result<Self> {
        Self::load_with_stop(path, &|| false)
    }

    /// [`Self::load`], the file read by [`crate::io::read_utf8`] (`stop`
    /// asked as there, while it waits for a FIFO's writer or data).
    pub fn load_with_stop(path: &Path, stop: &dyn Fn() -> bool) -> Result<Self> {
        let text = crate::io::read_utf8(path, stop)?;
        Self::from_json(&text).map_err(|e| match e {
            Error::InvalidArgument(m) => Error::invalid_file(path, m),
            e => e,
        })
    }

    /// Reads tokenizer.json text.
    pub fn from_json(text: &str) -> Result<Self> {
        check_root_keys_of(text)?;
        let doc: Value = serde_json::from_str(text).map_err(|e| Error::invalid(format!("not valid JSON: {e}")))?;
        let model = doc.get("model").filter(|m| m.is_object()).ok_or_else(|| Error::invalid("no \"model\" object"))?;
        match model.get("type") {
            Some(Value::String(kind)) if kind == "Unigram" => {}
            Some(Value::String(kind)) => {
                return Err(Error::invalid(format!("the model is {}, not \"Unigram\"", Quoted(kind))))
            }
            None | Some(Value::Null) => return Err(Error::invalid("the model has no \"type\" (expected \"Unigram\")")),
            Some(_) => return Err(Error::invalid("the model's \"type\" is not a str (expected \"Unigram\")")),
        }
        if model.get("byte_fallback").and_then(Value::as_bool) == Some(true) {
            return Err(Error::invalid("byte_fallback is not supported"));
        }
        let vocab =
            model.get("vocab").and_then(Value::as_array).ok_or_else(|| Error::invalid("no model.vocab list"))?;
        let mut pieces = Vec::with_capacity(vocab.len());
        for (i, entry) in vocab.iter().enumerate() {
            let pair = entry.as_array().filter(|a| a.len() == 2);
            let (piece, score) = match pair.map(|a| (a[0].as_str(), a[1].as_f64())) {
                Some((Some(p), Some(s))) => (p, s),
                _ => return Err(Error::invalid(format!("model.vocab[{i}] is not a [piece, score] pair"))),
            };
            pieces.push((piece.to_string(), score));
        }
        let unk_id = match model.get("unk_id") {
            Some(Value::Number(n)) => {
                n.as_u64().filter(|&u| u < u32::MAX as u64).ok_or_else(|| Error::invalid("model.unk_id is invalid"))?
                    as u32
            }
            _ => return Err(Error::invalid("model.unk_id is missing (a Unigram model without one is not supported)")),
        };
        let normalizer = match doc.get("normalizer") {
            None | Some(Value::Null) => None,
            Some(v) => Some(Normalizer::from_json(v)?),
        };
        let mut prepend = Prepend::Always;
        let mut pre_tokenizer = PreTokenizer::Metaspace;
        for key in ["pre_tokenizer", "decoder"] {
            let mut part = doc.get(key).unwrap_or(&Value::Null);
            let inner = match part.get("type").and_then(Value::as_str) {
                Some("Sequence") if key == "pre_tokenizer" => part.get("pretokenizers").and_then(Value::as_array),
                _ => None,
            };
            match inner.map(Vec::as_slice) {
                Some([metaspace]) => (pre_tokenizer, part) = (PreTokenizer::Sequence, metaspace),
                Some([first, metaspace]) if *first == json!({"type": "WhitespaceSplit"}) => {
                    (pre_tokenizer, part) = (PreTokenizer::WhitespaceSplit, metaspace)
                }
                Some([first, metaspace]) if is_isolated_punctuation(first) => {
                    (pre_tokenizer, part) = (PreTokenizer::Punctuation, metaspace)
                }
                _ => {}
            }
            let scheme = match part.get("prepend_scheme").and_then(Value::as_str) {
                Some("always") => Some(Prepend::Always),
                Some("first") => Some(Prepend::First),
                Some("never") => Some(Prepend::Never),
                Some(_) => None,
                None => match part.get("add_prefix_space").and_then(Value::as_bool) {
                    Some(false) => Some(Prepend::Never),
                    _ => Some(Prepend::Always),
                },
            };
            let ok = part.get("type").and_then(Value::as_str) == Some("Metaspace")
                && part.get("replacement").and_then(Value::as_str) == Some("\u{2581}")
                && part.get("split").and_then(Value::as_bool).unwrap_or(true);
            let (true, Some(scheme)) = (ok, scheme) else {
                let sequence = if key == "pre_tokenizer" { SEQUENCE } else { "" };
                return Err(Error::invalid(format!(
                    "{key} must be Metaspace{sequence} with replacement \"\u{2581}\", split, and prepend_scheme \"always\", \"first\" or \"never\""
                )));
            };
            if key == "pre_tokenizer" {
                prepend = scheme;
            } else if scheme != prepend {
                return Err(Error::invalid(format!(
                    "the decoder's prepend_scheme {:?} is not the pre_tokenizer's {:?}",
                    scheme.name(),
                    prepend.name()
                )));
            }
        }
        let mut special = Vec::new();
        let mut strip = Vec::new();
        if let Some(added) = doc.get("added_tokens").and_then(Value::as_array) {
            for (i, t) in added.iter().enumerate() {
                let content = t.get("content").and_then(Value::as_str);
                let id = t.get("id").and_then(Value::as_u64);
                let (Some(content), Some(id)) = (content, id) else {
                    return Err(Error::invalid(format!("added_tokens[{i}] has no content or id")));
                };
                if id as usize == pieces.len() && id >= vocab.len() as u64 && pieces.iter().all(|(p, _)| p != content) {
                    // Beyond the model's vocabulary, as Hugging Face's added vocabulary has
                    // it (`add_special_tokens` then `save`): a piece of the lowest score
                    // (the unknown token's score is unchanged), never matched, since the
                    // text's special tokens are split out before the model.
                    let lowest = pieces.iter().map(|(_, s)| *s).fold(f64::INFINITY, f64::min);
                    pieces.push((content.to_string(), if lowest.is_finite() { lowest } else { 0.0 }));
                }
                if pieces.get(id as usize).map(|(p, _)| p.as_str()) != Some(content) {
                    return Err(Error::invalid(format!(
                        "added token {} is not piece {id} of the vocabulary",
                        Quoted(content)
                    )));
                }
                let flag = |key: &str| match t.get(key) {
                    None | Some(Value::Null) => Ok(false),
                    Some(Value::Bool(b)) => Ok(*b),
                    Some(x) => Err(Error::invalid(format!("added_tokens[{i}].{key}: {x} is not a bool"))),
                };
                special.push(id as u32);
                let (lstrip, rstrip) = (flag("lstrip")?, flag("rstrip")?);
                let (single_word, normalized) = (flag("single_word")?, flag("normalized")?);
                strip
                    .push((Flags { lstrip, rstrip, single_word, normalized }, t.get("special") != Some(&json!(false))));
            }
        }
        let model = super::Model::with_added(pieces, unk_id, vocab.len())?;
        // In a vocabulary that lists a piece twice, an added token has the id
        // the model gives its text (the last entry), whichever entry the file
        // names, as Hugging Face's added vocabulary does.
        if model.has_duplicates() {
            for id in &mut special {
                let text = &model.pieces()[*id as usize].0;
                *id = model.id(text).unwrap_or(*id);
            }
        }
        // A token listed twice takes the flags of its last entry, as Hugging Face's.
        let last: std::collections::HashMap<u32, (Flags, bool)> = special.iter().copied().zip(strip.clone()).collect();
        let (flags, is_special): (Vec<Flags>, Vec<bool>) = special.iter().map(|id| last[id]).unzip();
        let template = match doc.get("post_processor") {
            None | Some(Value::Null) => None,
            Some(v) => Some(super::template::Template::from_json(v, &model)?),
        };
        Ok(UnigramTokenizer::with_model(model, special)?
            .with_pipeline(normalizer, prepend)
            .with_added_flags(flags, &is_special)
            .with_pre_tokenizer(pre_tokenizer)
            .with_template(template))
    }
}
