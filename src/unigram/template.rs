//! Hugging Face's `TemplateProcessing` post-processor for Unigram: the
//! special tokens a template puts around one text (`single`, e.g.
//! `$A </s>`, `[CLS] $A [SEP]`, `<s> $A </s>`) or a pair of texts (`pair`,
//! e.g. `<s> $A </s> </s> $B </s>`), and the type id of every part.

use serde_json::Value;

use super::encoded::Encoded;
use super::model::Model;
use crate::error::{Error, Quoted, Result};

/// One part of a template.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// The tokens of a special token (its ids), each of type `type_id`.
    Special { name: String, ids: Vec<u32>, type_id: u32 },
    /// The first text (0, `$A`) or the second (1, `$B`), of type `type_id`.
    Text { which: usize, type_id: u32 },
}

/// A `TemplateProcessing` post-processor, and its JSON to write back.
#[derive(Clone, Debug)]
pub struct Template {
    pub single: Vec<Item>,
    pub pair: Vec<Item>,
    json: Value,
}

/// An encoding with its special tokens' mask and its type ids.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Processed {
    pub encoded: Encoded,
    /// Per token, or empty: all 0 (a single text without a template).
    pub type_ids: Vec<u32>,
    /// Per token, or empty: all 0.
    pub special_mask: Vec<u8>,
}

fn invalid(what: impl std::fmt::Display) -> Error {
    Error::invalid(format!("the TemplateProcessing post_processor: {what}"))
}

impl Template {
    /// The post-processor of a tokenizer.json's `"post_processor"` value
    /// (not null); its special tokens must be pieces of `model`, each token
    /// its piece.
    pub fn from_json(v: &Value, model: &Model) -> Result<Self> {
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        if kind != "TemplateProcessing" {
            return Err(Error::invalid(format!(
                "the {} post_processor is not supported (only TemplateProcessing)",
                Quoted(kind)
            )));
        }
        let specials = v.get("special_tokens").and_then(Value::as_object);
        let items = |key: &str, texts: usize| -> Result<Vec<Item>> {
            let list = v.get(key).and_then(Value::as_array).ok_or_else(|| invalid(format!("no {key:?} list")))?;
            let mut out = Vec::with_capacity(list.len());
            for item in list {
                let type_id = |x: &Value| {
                    x.get("type_id")
                        .and_then(Value::as_u64)
                        .and_then(|t| u32::try_from(t).ok())
                        .ok_or_else(|| invalid(format!("an item of {key:?} has no type_id")))
                };
                if let Some(seq) = item.get("Sequence") {
                    let which = match seq.get("id").and_then(Value::as_str) {
                        Some("A") => 0,
                        Some("B") if texts == 2 => 1,
                        _ => return Err(invalid(format!("a Sequence of {key:?} is neither $A nor $B (pair only)"))),
                    };
                    out.push(Item::Text { which, type_id: type_id(seq)? });
                } else if let Some(special) = item.get("SpecialToken") {
                    let name = special.get("id").and_then(Value::as_str).unwrap_or_default();
                    let entry = specials
                        .and_then(|m| m.get(name))
                        .ok_or_else(|| invalid(format!("{} is not one of its special_tokens", Quoted(name))))?;
                    let ids: Vec<u32> = entry
                        .get("ids")
                        .and_then(Value::as_array)
                        .map(|a| a.iter().filter_map(|i| i.as_u64().and_then(|i| u32::try_from(i).ok())).collect())
                        .unwrap_or_default();
                    let tokens: Vec<&str> = entry
                        .get("tokens")
                        .and_then(Value::as_array)
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    let pieces = model.pieces();
                    let matches = ids.len() == tokens.len()
                        && ids.iter().zip(&tokens).all(|(&i, t)| pieces.get(i as usize).is_some_and(|(p, _)| p == t));
                    if ids.is_empty() || !matches {
                        return Err(invalid(format!(
                            "the ids of special token {} are not the pieces of its tokens",
                            Quoted(name)
                        )));
                    }
                    out.push(Item::Special { name: name.to_string(), ids, type_id: type_id(special)? });
                } else {
                    return Err(invalid(format!("an item of {key:?} is neither a Sequence nor a SpecialToken")));
                }
            }
            Ok(out)
        };
        let single = items("single", 1)?;
        let pair = items("pair", 2)?;
        Ok(Template { single, pair, json: v.clone() })
    }

    /// The tokenizer.json value it was read from.
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// A template in Hugging Face's notation: `"[CLS]:0 $A:0 [SEP]:0"`.
    pub fn notation(items: &[Item]) -> String {
        let parts: Vec<String> = items
            .iter()
            .map(|item| match item {
                Item::Special { name, type_id, .. } => format!("{name}:{type_id}"),
                Item::Text { which, type_id } => format!("${}:{type_id}", if *which == 0 { "A" } else { "B" }),
            })
            .collect();
        parts.join(" ")
    }

    /// The number of special tokens the template adds to one text, or to a
    /// pair of texts.
    pub fn added(&self, pair: bool) -> usize {
        let items = if pair { &self.pair } else { &self.single };
        items.iter().map(|i| if let Item::Special { ids, .. } = i { ids.len() } else { 0 }).sum()
    }
}

/// `a` (and `b`), as a template puts them: each text's tokens with the type
/// id of its part and, when `add_special_tokens`, the special tokens (offsets
/// `(0, 0)`, mask 1). Without a template, the texts' tokens in order, the
/// second text's of type 1. `Error::Memory` when there is no room.
/// A single text without a template is passed on as it is, with empty
/// type ids and mask (all 0).
///
/// A template's special token shows its piece (even when `id_to_token` is
/// its normalized form), as Hugging Face shows the template's token.
pub fn process(
    template: Option<&Template>,
    mut texts: [Option<Encoded>; 2],
    add_special_tokens: bool,
) -> Result<Processed> {
    if template.is_none() && texts[1].is_none() {
        let encoded = texts[0].take().unwrap_or_default();
        return Ok(Processed { encoded, type_ids: Vec::new(), special_mask: Vec::new() });
    }
    let pair = texts[1].is_some();
    let default_items = [Item::Text { which: 0, type_id: 0 }, Item::Text { which: 1, type_id: 1 }];
    let items: &[Item] = match template {
        Some(t) if pair => &t.pair,
        Some(t) => &t.single,
        None if pair => &default_items,
        None => &default_items[..1],
    };
    let mut out = Processed::default();
    let n: usize = items
        .iter()
        .map(|i| match i {
            Item::Special { ids, .. } if add_special_tokens => ids.len(),
            Item::Special { .. } => 0,
            Item::Text { which, .. } => texts[*which].as_ref().map_or(0, |e| e.ids.len()),
        })
        .sum();
    let e = &mut out.encoded;
    if !e.room(n) || out.type_ids.try_reserve(n).is_err() || out.special_mask.try_reserve(n).is_err() {
        return Err(Error::memory(format_args!("an encoding of {n} tokens")));
    }
    for item in items {
        match item {
            Item::Special { ids, type_id, .. } if add_special_tokens => {
                for &id in ids {
                    e.ids.push(id);
                    e.offsets.push((0, 0));
                    out.type_ids.push(*type_id);
                    out.special_mask.push(1);
                }
            }
            Item::Special { .. } => {}
            Item::Text { which, type_id } => {
                let Some(t) = &texts[*which] else { continue };
                let base = e.ids.len() as u32;
                let text_base = e.unknown_text.len();
                if e.unknown_text.try_reserve(t.unknown_text.len()).is_err()
                    || e.unknown.try_reserve(t.unknown.len()).is_err()
                {
                    return Err(Error::memory(format_args!("the texts of the unknown tokens of an encoding")));
                }
                e.unknown_text.push_str(&t.unknown_text);
                e.unknown.extend(t.unknown.iter().map(|&(k, end)| (k + base, end + text_base)));
                e.ids.extend_from_slice(&t.ids);
                e.offsets.extend_from_slice(&t.offsets);
                out.type_ids.extend(std::iter::repeat_n(*type_id, t.ids.len()));
                out.special_mask.extend(std::iter::repeat_n(0, t.ids.len()));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn model() -> Model {
        let pieces = ["<unk>", "<s>", "</s>", "\u{2581}a", "b"];
        Model::new(pieces.iter().map(|p| (p.to_string(), 0.0)).collect(), 0).unwrap()
    }

    fn xlmr() -> Value {
        let s = |t: &str, ty: u32| json!({"SpecialToken": {"id": t, "type_id": ty}});
        let q = |t: &str, ty: u32| json!({"Sequence": {"id": t, "type_id": ty}});
        json!({
            "type": "TemplateProcessing",
            "single": [s("<s>", 0), q("A", 0), s("</s>", 0)],
            "pair": [s("<s>", 0), q("A", 0), s("</s>", 0), s("</s>", 0), q("B", 1), s("</s>", 1)],
            "special_tokens": {
                "<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]},
                "</s>": {"id": "</s>", "ids": [2], "tokens": ["</s>"]},
            },
        })
    }

    fn enc(ids: &[u32]) -> Encoded {
        Encoded { ids: ids.to_vec(), offsets: ids.iter().map(|&i| (i, i + 1)).collect(), ..Default::default() }
    }

    #[test]
    fn a_pair_in_the_template_has_its_type_ids_and_mask() {
        let t = Template::from_json(&xlmr(), &model()).unwrap();
        assert_eq!(Template::notation(&t.pair), "<s>:0 $A:0 </s>:0 </s>:0 $B:1 </s>:1");
        assert_eq!((t.added(false), t.added(true)), (2, 4));
        let p = process(Some(&t), [Some(enc(&[3])), Some(enc(&[4, 4]))], true).unwrap();
        assert_eq!(p.encoded.ids, [1, 3, 2, 2, 4, 4, 2]);
        assert_eq!(p.type_ids, [0, 0, 0, 0, 1, 1, 1]);
        assert_eq!(p.special_mask, [1, 0, 1, 1, 0, 0, 1]);
        assert_eq!(p.encoded.offsets[..3], [(0, 0), (3, 4), (0, 0)]);
        let bare = process(Some(&t), [Some(enc(&[3])), Some(enc(&[4]))], false).unwrap();
        assert_eq!((bare.encoded.ids, bare.type_ids), (vec![3, 4], vec![0, 1]));
    }

    #[test]
    fn other_post_processors_and_unknown_specials_are_named() {
        let e = Template::from_json(&json!({"type": "BertProcessing"}), &model()).unwrap_err().to_string();
        assert!(e.contains("\"BertProcessing\" post_processor is not supported"), "{e}");
        let mut v = xlmr();
        v["special_tokens"]["</s>"]["ids"] = json!([1]);
        let e = Template::from_json(&v, &model()).unwrap_err().to_string();
        assert!(e.contains("special token \"</s>\""), "{e}");
    }
}
