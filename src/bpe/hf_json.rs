//! Byte-level BPE in Hugging Face's `tokenizer.json`: the GPT-2 layout (no
//! normalizer, the `ByteLevel` pre-tokenizer with `add_prefix_space` false
//! and `use_regex` true, a `BPE` model without dropout, prefixes or byte
//! fallback, the `ByteLevel` decoder; the `ByteLevel` post-processor's
//! `trim_offsets` and `add_prefix_space` are kept for the offsets), or
//! RoBERTa's (a `RobertaProcessing` post-processor, whose template `encode`
//! applies; added tokens with `lstrip` or `rstrip`; a `padding` section,
//! applied by `encode_batch` and kept to be written back), and added tokens
//! with their flags (`special` false among them; `single_word` is refused).
//! Anything else is refused with an error naming the JSON path, so that no
//! file loads and then encodes otherwise than Hugging Face would.

use serde_json::{json, Map, Value};

use super::model::{Bpe, Padding};
use crate::error::{Error, Quoted, Result};
use crate::pipeline::special_split::Flags;
use crate::tokenizer::hf_json::check_root_keys_of;

fn err(path: &str, message: impl std::fmt::Display) -> Error {
    Error::invalid(format!("{path}: {message}"))
}

fn is_null(v: Option<&Value>) -> bool {
    v.is_none_or(Value::is_null)
}

/// `v[key]` must be absent, null, or equal to `want`.
fn check(v: &Value, key: &str, want: &Value, path: &str) -> Result<()> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(()),
        Some(x) if x == want => Ok(()),
        Some(x) => Err(err(&format!("{path}.{key}"), format!("{x} is not supported (only {want})"))),
    }
}

/// `v[key]`, a bool; true when absent or null.
fn flag(v: &Value, key: &str, path: &str) -> Result<bool> {
    flag_or(v, key, path, true)
}

/// `v[key]`, a bool; `default` when absent or null.
fn flag_or(v: &Value, key: &str, path: &str, default: bool) -> Result<bool> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(x) => Err(err(&format!("{path}.{key}"), format!("{x} is not a bool"))),
    }
}

fn byte_level(v: Option<&Value>, path: &str, required: bool) -> Result<()> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return if required { Err(err(path, "a ByteLevel component is required")) } else { Ok(()) };
    };
    if v.get("type").and_then(Value::as_str) != Some("ByteLevel") {
        return Err(err(path, format!("{} is not supported (only ByteLevel)", v.get("type").unwrap_or(&Value::Null))));
    }
    Ok(())
}

/// Checks an added token with an id past the model's vocabulary: it must
/// not be a token of the model too, nor one character of the byte-level
/// alphabet (the model would read that byte as it).
fn added_beyond(vocab: &[String], content: &str, path: &str) -> Result<()> {
    let mut chars = content.chars();
    let one_byte = matches!((chars.next(), chars.next()), (Some(c), None) if super::bytes::char_byte(c).is_some());
    if one_byte || vocab.iter().any(|t| t == content) {
        return Err(err(
            path,
            format!("{} has an id past the model's vocabulary, but is a token of the model or a byte", Quoted(content)),
        ));
    }
    Ok(())
}

/// A `padding` section: `strategy` (`"BatchLongest"` or `{"Fixed": n}`),
/// `direction` (`"Right"` or `"Left"`), `pad_to_multiple_of` (null or n),
/// `pad_id`, `pad_type_id` and `pad_token`.
fn padding(p: &Value) -> Result<Padding> {
    if !p.is_object() {
        return Err(err("padding", "expected an object (or null)"));
    }
    let number = |key: &str| -> Result<Option<u64>> {
        match p.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => {
                v.as_u64().map(Some).ok_or_else(|| err(&format!("padding.{key}"), format!("{v} is not a count")))
            }
        }
    };
    let length = match p.get("strategy") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s == "BatchLongest" => None,
        Some(Value::Object(o)) if o.len() == 1 && o.get("Fixed").is_some_and(Value::is_u64) => {
            o.get("Fixed").and_then(Value::as_u64)
        }
        Some(v) => return Err(err("padding.strategy", format!("{v} is not \"BatchLongest\" or {{\"Fixed\": n}}"))),
    };
    let left = match p.get("direction") {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) if s == "Right" || s == "Left" => s == "Left",
        Some(v) => return Err(err("padding.direction", format!("{v} is not \"Right\" or \"Left\""))),
    };
    let id = |key: &str| -> Result<u32> {
        let n = number(key)?.unwrap_or(0);
        u32::try_from(n).map_err(|_| err(&format!("padding.{key}"), format!("{n} is too large")))
    };
    let pad_token = match p.get("pad_token") {
        None | Some(Value::Null) => "[PAD]".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => return Err(err("padding.pad_token", format!("{v} is not a str"))),
    };
    let size = |n: Option<u64>, key: &str| -> Result<Option<usize>> {
        n.map(|n| usize::try_from(n).map_err(|_| err(&format!("padding.{key}"), format!("{n} is too large"))))
            .transpose()
    };
    Ok(Padding {
        length: size(length, "strategy")?,
        pad_to_multiple_of: size(number("pad_to_multiple_of")?, "pad_to_multiple_of")?,
        left,
        pad_id: id("pad_id")?,
        pad_type_id: id("pad_type_id")?,
        pad_token,
    })
}

/// Whether post-processor `p` is a `TemplateProcessing` that changes
/// nothing: single `$A:0`, pair `$A:0 $B:1`, no special tokens (as
/// transformers 5 writes GPT-2's). It reads as no post-processor, which
/// gives a pair the same type ids and trims no offsets.
fn is_identity_template(p: &Value) -> bool {
    let sequence = |id: &str, type_id: u64| json!({"Sequence": {"id": id, "type_id": type_id}});
    p.as_object().is_some_and(|o| o.len() == 4)
        && p.get("type").and_then(Value::as_str) == Some("TemplateProcessing")
        && p.get("single") == Some(&json!([sequence("A", 0)]))
        && p.get("pair") == Some(&json!([sequence("A", 0), sequence("B", 1)]))
        && p.get("special_tokens").and_then(Value::as_object).is_some_and(|o| o.is_empty())
}

impl Bpe {
    /// A model from a Hugging Face `tokenizer.json`.
    pub fn from_hf_json(text: &str) -> Result<Bpe> {
        check_root_keys_of(text)?;
        let root: Value = serde_json::from_str(text).map_err(|e| Error::invalid(format!("not valid JSON: {e}")))?;
        if !root.is_object() {
            return Err(Error::invalid("a tokenizer.json must be a JSON object"));
        }
        if !is_null(root.get("normalizer")) {
            return Err(err("normalizer", "a normalizer is not supported with byte-level BPE"));
        }
        byte_level(root.get("pre_tokenizer"), "pre_tokenizer", true)?;
        let pre = &root["pre_tokenizer"];
        check(pre, "add_prefix_space", &json!(false), "pre_tokenizer")?;
        check(pre, "use_regex", &json!(true), "pre_tokenizer")?;
        byte_level(root.get("decoder"), "decoder", false)?;
        let post = root.get("post_processor").filter(|v| !v.is_null() && !is_identity_template(v));
        // Without a post-processor nothing is trimmed; a ByteLevel or a
        // RobertaProcessing one trims unless it says otherwise (Hugging
        // Face's defaults are true).
        let (mut trim, mut keeps_prefix_space) = (false, false);
        let mut roberta = None;
        if let Some(p) = post {
            match p.get("type").and_then(Value::as_str) {
                Some("ByteLevel") => {}
                Some("RobertaProcessing") => {
                    let token = |key: &str| -> Result<(String, u64)> {
                        let path = format!("post_processor.{key}");
                        match p.get(key).and_then(Value::as_array).map(Vec::as_slice) {
                            Some([Value::String(t), id]) if id.is_u64() => Ok((t.clone(), id.as_u64().unwrap_or(0))),
                            _ => Err(err(&path, "expected [token, id]")),
                        }
                    };
                    roberta = Some((token("cls")?, token("sep")?));
                }
                _ => return Err(err("post_processor", "only ByteLevel, RobertaProcessing (or none) is supported")),
            }
            trim = flag(p, "trim_offsets", "post_processor")?;
            keeps_prefix_space = flag(p, "add_prefix_space", "post_processor")?;
        }
        if !is_null(root.get("truncation")) {
            return Err(err("truncation", "not supported with byte-level BPE"));
        }
        let padding = match root.get("padding").filter(|v| !v.is_null()) {
            None => None,
            Some(p) => Some((padding(p)?, p.clone())),
        };
        let model = root.get("model").ok_or_else(|| err("model", "missing"))?;
        if let Some(t) = model.get("type") {
            if t != "BPE" {
                return Err(err("model.type", format!("{t} is not supported (only \"BPE\")")));
            }
        }
        for key in ["dropout", "continuing_subword_prefix", "end_of_word_suffix"] {
            if !is_null(model.get(key)) && model.get(key) != Some(&json!("")) {
                return Err(err(&format!("model.{key}"), "not supported"));
            }
        }
        for key in ["fuse_unk", "byte_fallback", "ignore_merges"] {
            check(model, key, &json!(false), "model")?;
        }
        let vocab_obj =
            model.get("vocab").and_then(Value::as_object).ok_or_else(|| err("model.vocab", "expected an object"))?;
        let mut vocab: Vec<Option<String>> = vec![None; vocab_obj.len()];
        for (token, id) in vocab_obj {
            let id = id
                .as_u64()
                .ok_or_else(|| err("model.vocab", format!("{}: id {id} is not an integer", Quoted(token))))?;
            let slot = vocab.get_mut(id as usize).ok_or_else(|| {
                err(
                    "model.vocab",
                    format!("{}: id {id} leaves a gap (ids must be 0..{})", Quoted(token), vocab_obj.len()),
                )
            })?;
            if slot.replace(token.clone()).is_some() {
                return Err(err("model.vocab", format!("id {id} is given twice")));
            }
        }
        let mut vocab: Vec<String> = vocab.into_iter().map(|t| t.expect("ids 0..n each set once")).collect();
        let merges_v =
            model.get("merges").and_then(Value::as_array).ok_or_else(|| err("model.merges", "expected a list"))?;
        let mut merges = Vec::with_capacity(merges_v.len());
        for (i, m) in merges_v.iter().enumerate() {
            let pair = match m {
                Value::String(s) => s.split_once(' ').map(|(a, b)| (a.to_string(), b.to_string())),
                Value::Array(a) if a.len() == 2 => match (&a[0], &a[1]) {
                    (Value::String(x), Value::String(y)) => Some((x.clone(), y.clone())),
                    _ => None,
                },
                _ => None,
            };
            merges.push(pair.ok_or_else(|| err(&format!("model.merges[{i}]"), "expected \"a b\" or [a, b]"))?);
        }
        let unk = match model.get("unk_token") {
            None | Some(Value::Null) => None,
            Some(Value::String(unk)) => Some(unk.as_str()),
            Some(other) => return Err(err("model.unk_token", format!("expected a string or null, found {other}"))),
        };
        let mut specials = Vec::new();
        let mut added_flags = Vec::new();
        let mut special_before = std::collections::HashSet::new();
        let added = match root.get("added_tokens") {
            None | Some(Value::Null) => None,
            Some(Value::Array(added)) => Some(added),
            Some(_) => return Err(err("added_tokens", "expected a list")),
        };
        if let Some(added) = added {
            for (i, t) in added.iter().enumerate() {
                let path = format!("added_tokens[{i}]");
                let content = t.get("content").and_then(Value::as_str).ok_or_else(|| err(&path, "no content"))?;
                let id = t.get("id").and_then(Value::as_u64).ok_or_else(|| err(&path, "no id"))?;
                if id as usize == vocab.len() && id >= vocab_obj.len() as u64 {
                    // Beyond the model's vocabulary, as Hugging Face's added vocabulary
                    // has it (`add_special_tokens` then `save`): the next id.
                    added_beyond(&vocab, content, &path)?;
                    vocab.push(content.to_string());
                }
                if vocab.get(id as usize).map(String::as_str) != Some(content) {
                    return Err(err(
                        &path,
                        format!("{} must be in the model's vocabulary with id {id}", Quoted(content)),
                    ));
                }
                // Without a normalizer, `normalized` only puts the token's search after the
                // others' (GPT-2's own file has it true). `special` false: split out of the
                // text as the others, kept by `decode` with `skip_special_tokens`; a token
                // listed twice is special when any of its entries is, as Hugging Face's
                // added vocabulary keeps it. `single_word` is refused: the call's offsets
                // do not yet tell a passed-over match from the model's same token.
                check(t, "single_word", &json!(false), &path)?;
                let flags = Flags {
                    lstrip: flag_or(t, "lstrip", &path, false)?,
                    rstrip: flag_or(t, "rstrip", &path, false)?,
                    single_word: false,
                    normalized: flag_or(t, "normalized", &path, false)?,
                };
                let special = flag(t, "special", &path)? || special_before.contains(content);
                if special {
                    special_before.insert(content.to_string());
                }
                added_flags.push((content.to_string(), flags, special));
                specials.push(content.to_string());
            }
        }
        let template = match roberta {
            None => None,
            Some(((cls, cls_id), (sep, sep_id))) => {
                for (key, token, id) in [("cls", &cls, cls_id), ("sep", &sep, sep_id)] {
                    if vocab.get(id as usize) != Some(token) {
                        return Err(err(
                            &format!("post_processor.{key}"),
                            format!("{} must be in the vocabulary with id {id}", Quoted(token)),
                        ));
                    }
                }
                Some((cls_id as u32, sep_id as u32))
            }
        };
        if let Some((p, _)) = &padding {
            if p.pad_id as usize >= vocab.len() {
                return Err(err("padding.pad_id", format!("id {} is not in the vocabulary", p.pad_id)));
            }
        }
        Ok(Bpe::new(vocab, &merges, unk, &specials)?
            .with_trim_offsets(trim, keeps_prefix_space)
            .with_added_flags(&added_flags)
            .with_template(template)
            .with_padding(padding))
    }

    /// The model as a Hugging Face `tokenizer.json` (GPT-2 layout).
    pub fn to_hf_json(&self) -> Result<String> {
        let added: Vec<Value> = self
            .added_tokens()
            .into_iter()
            .map(|(t, f, special)| {
                json!({"id": self.token_to_id(&t), "content": t, "single_word": f.single_word, "lstrip": f.lstrip,
                       "rstrip": f.rstrip, "normalized": f.normalized, "special": special})
            })
            .collect();
        let byte_level =
            json!({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true});
        // The vocabulary in id order, written by hand (one string, not a
        // map of 50,000 entries).
        let mut vocab = String::from("{");
        for (id, t) in self.vocab().iter().enumerate() {
            if id > 0 {
                vocab.push(',');
            }
            vocab.push_str(&serde_json::to_string(t).map_err(|e| Error::invalid(e.to_string()))?);
            vocab.push(':');
            vocab.push_str(&id.to_string());
        }
        vocab.push('}');
        let merges: Vec<Value> = self.merges().into_iter().map(|(a, b)| json!([a, b])).collect();
        let mut model = Map::new();
        model.insert("type".into(), json!("BPE"));
        model.insert("dropout".into(), Value::Null);
        model.insert("unk_token".into(), json!(self.unk_token()));
        model.insert("continuing_subword_prefix".into(), Value::Null);
        model.insert("end_of_word_suffix".into(), Value::Null);
        model.insert("fuse_unk".into(), json!(false));
        model.insert("byte_fallback".into(), json!(false));
        model.insert("ignore_merges".into(), json!(false));
        model.insert("vocab".into(), json!("@VOCAB@"));
        model.insert("merges".into(), Value::Array(merges));
        let post_processor = match self.template() {
            Some((cls, sep)) => json!({"type": "RobertaProcessing",
                "sep": [self.vocab()[sep as usize], sep], "cls": [self.vocab()[cls as usize], cls],
                "trim_offsets": self.trim_offsets(), "add_prefix_space": self.trim_keeps_prefix_space()}),
            None => json!({"type": "ByteLevel", "add_prefix_space": self.trim_keeps_prefix_space(),
                           "trim_offsets": self.trim_offsets(), "use_regex": true}),
        };
        let root = json!({
            "version": "1.0",
            "truncation": null,
            "padding": self.padding_json(),
            "added_tokens": added,
            "normalizer": null,
            "pre_tokenizer": byte_level.clone(),
            "post_processor": post_processor,
            "decoder": byte_level,
            "model": Value::Object(model),
        });
        let text = serde_json::to_string(&root).map_err(|e| Error::invalid(e.to_string()))?;
        Ok(text.replacen("\"@VOCAB@\"", &vocab, 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpe::bytes::byte_char;
    use crate::bpe::Cache;

    #[test]
    fn export_then_import_gives_the_same_model() {
        let mut vocab: Vec<String> = vec!["<|endoftext|>".into()];
        vocab.extend((0..=255u8).map(|b| byte_char(b).to_string()));
        vocab.push("Ġt".into());
        let m = Bpe::new(vocab, &[("Ġ".into(), "t".into())], None, &["<|endoftext|>".into()]).unwrap();
        let back = Bpe::from_hf_json(&m.to_hf_json().unwrap()).unwrap();
        assert!(back == m);
    }

    #[test]
    fn the_post_processors_trimming_is_read_and_written_back() {
        let mut vocab: Vec<String> = (0..=255u8).map(|b| byte_char(b).to_string()).collect();
        vocab.push("Ġt".into());
        let m = Bpe::new(vocab, &[("Ġ".into(), "t".into())], None, &[]).unwrap();
        let text = m.to_hf_json().unwrap();
        assert!(!Bpe::from_hf_json(&text).unwrap().trim_offsets());
        let mut root: Value = serde_json::from_str(&text).unwrap();
        root["post_processor"] = json!({"type": "ByteLevel"});
        let trimmed = Bpe::from_hf_json(&root.to_string()).unwrap();
        assert!(trimmed.trim_offsets() && trimmed.trim_keeps_prefix_space() && trimmed != m);
        assert!(Bpe::from_hf_json(&trimmed.to_hf_json().unwrap()).unwrap() == trimmed);
        root["post_processor"] = Value::Null;
        assert!(Bpe::from_hf_json(&root.to_string()).unwrap() == m);
        root["post_processor"] = json!({"type": "ByteLevel", "trim_offsets": 1});
        let e = Bpe::from_hf_json(&root.to_string()).unwrap_err();
        assert!(e.to_string().starts_with("post_processor.trim_offsets:"), "{e}");
    }

    #[test]
    fn robertas_template_strip_and_padding_are_read_and_written_back() {
        let mut vocab: Vec<String> = vec!["<s>".into(), "<pad>".into(), "</s>".into()];
        vocab.extend((0..=255u8).map(|b| byte_char(b).to_string()));
        let m = Bpe::new(vocab, &[], None, &["<s>".into(), "<pad>".into(), "</s>".into()]).unwrap();
        let mut root: Value = serde_json::from_str(&m.to_hf_json().unwrap()).unwrap();
        root["post_processor"] = json!({"type": "RobertaProcessing", "cls": ["<s>", 0], "sep": ["</s>", 2]});
        root["added_tokens"][1]["lstrip"] = json!(true);
        root["padding"] = json!({"strategy": {"Fixed": 6}, "direction": "Left", "pad_id": 1, "pad_token": "<pad>"});
        let r = Bpe::from_hf_json(&root.to_string()).unwrap();
        assert_eq!(r.template(), Some((0, 2)));
        assert!(r.trim_offsets() && r.trim_keeps_prefix_space());
        let mut rows = [r.encode_with("a <pad>", &mut Cache::default(), true).unwrap()];
        assert_eq!(rows[0], [0, 3 + u32::from(b'a'), 1, 2]);
        r.pad_all(&mut rows).unwrap();
        assert_eq!(rows[0], [1, 1, 0, 3 + u32::from(b'a'), 1, 2]);
        assert!(Bpe::from_hf_json(&r.to_hf_json().unwrap()).unwrap() == r);
        root["post_processor"]["sep"] = json!(["</s>", 1]);
        let e = Bpe::from_hf_json(&root.to_string()).unwrap_err();
        assert!(e.to_string().starts_with("post_processor.sep:"), "{e}");
    }

    #[test]
    fn special_is_read_and_written_back_and_single_word_refused() {
        let mut vocab: Vec<String> = vec!["<s>".into(), "ab".into()];
        vocab.extend((0..=255u8).map(|b| byte_char(b).to_string()));
        let m = Bpe::new(vocab, &[], None, &["<s>".into(), "ab".into()]).unwrap();
        let mut root: Value = serde_json::from_str(&m.to_hf_json().unwrap()).unwrap();
        root["added_tokens"][1]["special"] = json!(false);
        let r = Bpe::from_hf_json(&root.to_string()).unwrap();
        assert_eq!(r.special_tokens(), ["<s>"]);
        assert!(r.is_added(1) && !r.is_special(1) && r.is_special(0));
        assert_eq!(r.decode(&[0, 1], true).unwrap(), "ab");
        assert!(Bpe::from_hf_json(&r.to_hf_json().unwrap()).unwrap() == r && r != m);
        // Listed again as special: special, whichever entry comes last.
        let mut twice = root.clone();
        let again = twice["added_tokens"][1].clone();
        twice["added_tokens"][1]["special"] = json!(true);
        twice["added_tokens"].as_array_mut().unwrap().push(again);
        assert!(Bpe::from_hf_json(&twice.to_string()).unwrap().is_special(1));
        root["added_tokens"][1]["special"] = json!(1);
        let e = Bpe::from_hf_json(&root.to_string()).unwrap_err();
        assert!(e.to_string().starts_with("added_tokens[1].special:"), "{e}");
        root["added_tokens"][1]["single_word"] = json!(true);
        let e = Bpe::from_hf_json(&root.to_string()).unwrap_err();
        assert_eq!(e.to_string(), "added_tokens[1].single_word: true is not supported (only false)");
    }

    #[test]
    fn other_pipelines_are_refused_with_their_path() {
        let e = Bpe::from_hf_json(r#"{"pre_tokenizer": {"type": "Whitespace"}, "model": {}}"#).unwrap_err();
        assert!(e.to_string().starts_with("pre_tokenizer:"), "{e}");
    }
}
