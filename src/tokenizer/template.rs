//! Hugging Face's `TemplateProcessing`, as a tokenizer option: the JSON
//! object read and written (`single`, `pair`, `special_tokens`), and checked
//! against the vocabulary into the pipeline's [`PostProcessor`].
//!
//! Hugging Face loads any template from a file and checks nothing; those
//! this crate cannot run the same way are refused with the JSON path of the
//! problem (docs/spec.md, "Hugging Face files"): a template whose `single`
//! does not hold `$A` once and no `$B`, or whose `pair` does not hold `$A`
//! and `$B` once each (Hugging Face fails or gives sequence ids that do not
//! match the tokens); a special token missing from `special_tokens` (Hugging
//! Face fails when it encodes); ids and tokens that differ in number; an id
//! that the vocabulary gives another token (encodings would show that
//! token), or past the vocabulary's end; a type id above 255. An id in a
//! hole of the vocabulary (no token has it) is run as Hugging Face runs
//! it: encodings show the template's token for it, and decoding leaves it
//! out (see [`Template::compile`]).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::error::{Error, Quoted, Result};
use crate::pipeline::model::vocab::Vocab;
use crate::pipeline::post_processor::{Piece, PostProcessor};

/// One piece of a template as the file gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplatePiece {
    /// `$A` (`second` false) or `$B`.
    Sequence { second: bool, type_id: u32 },
    /// The special token named `id` in `special_tokens`.
    SpecialToken { id: String, type_id: u32 },
}

/// An entry of `special_tokens`: the ids and tokens a name stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecialTokens {
    pub ids: Vec<u32>,
    pub tokens: Vec<String>,
}

/// A `TemplateProcessing` post-processor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pub single: Vec<TemplatePiece>,
    pub pair: Vec<TemplatePiece>,
    /// By name, in the order of the names (as Hugging Face writes them).
    pub special_tokens: BTreeMap<String, SpecialTokens>,
}

fn err(path: &str, message: impl std::fmt::Display) -> Error {
    Error::invalid(format!("{path}: {message}"))
}

fn field<'a>(value: &'a Value, name: &str, path: &str) -> Result<&'a Value> {
    value.get(name).ok_or_else(|| err(path, format!("missing field \"{name}\"")))
}

fn string(value: &Value, path: &str) -> Result<String> {
    value.as_str().map(str::to_owned).ok_or_else(|| err(path, format!("expected a string, found {value}")))
}

fn id(value: &Value, path: &str) -> Result<u32> {
    value
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| err(path, format!("expected an integer from 0 to 4294967295, found {value}")))
}

fn list<'a>(value: &'a Value, path: &str) -> Result<&'a Vec<Value>> {
    value.as_array().ok_or_else(|| err(path, format!("expected a list, found {value}")))
}

impl Template {
    /// The template of a `{"type": "TemplateProcessing", ...}` object at
    /// `path` (fields Hugging Face ignores are ignored).
    pub fn from_json(value: &Value, path: &str) -> Result<Self> {
        if !value.is_object() {
            return Err(err(path, "expected an object"));
        }
        let pieces = |key: &str| -> Result<Vec<TemplatePiece>> {
            let p = format!("{path}.{key}");
            let items = list(field(value, key, path)?, &p)?;
            items.iter().enumerate().map(|(i, item)| piece(item, &format!("{p}[{i}]"))).collect()
        };
        let (single, pair) = (pieces("single")?, pieces("pair")?);
        let p = format!("{path}.special_tokens");
        let Some(entries) = field(value, "special_tokens", path)?.as_object() else {
            return Err(err(&p, "expected an object"));
        };
        let mut special_tokens = BTreeMap::new();
        // By name, so that of several faults the first by name is named.
        let mut entries: Vec<(&String, &Value)> = entries.iter().collect();
        entries.sort_unstable_by_key(|&(name, _)| name);
        for (name, entry) in entries {
            let p = format!("{p}.{name}");
            if !entry.is_object() {
                return Err(err(&p, "expected an object"));
            }
            let own = string(field(entry, "id", &p)?, &format!("{p}.id"))?;
            if &own != name {
                return Err(err(
                    &format!("{p}.id"),
                    format!("{} differs from its key {}, which is not supported", Quoted(&own), Quoted(name)),
                ));
            }
            let ids = list(field(entry, "ids", &p)?, &format!("{p}.ids"))?;
            let ids =
                ids.iter().enumerate().map(|(i, v)| id(v, &format!("{p}.ids[{i}]"))).collect::<Result<Vec<_>>>()?;
            let tokens = list(field(entry, "tokens", &p)?, &format!("{p}.tokens"))?;
            let tokens = tokens
                .iter()
                .enumerate()
                .map(|(i, v)| string(v, &format!("{p}.tokens[{i}]")))
                .collect::<Result<_>>()?;
            special_tokens.insert(name.clone(), SpecialTokens { ids, tokens });
        }
        Ok(Self { single, pair, special_tokens })
    }

    /// The template as Hugging Face writes it.
    pub fn to_json(&self) -> Value {
        let pieces = |pieces: &[TemplatePiece]| -> Value {
            pieces
                .iter()
                .map(|p| match p {
                    TemplatePiece::Sequence { second, type_id } => {
                        json!({"Sequence": {"id": if *second { "B" } else { "A" }, "type_id": type_id}})
                    }
                    TemplatePiece::SpecialToken { id, type_id } => {
                        json!({"SpecialToken": {"id": id, "type_id": type_id}})
                    }
                })
                .collect()
        };
        let mut special_tokens = Map::new();
        for (name, t) in &self.special_tokens {
            special_tokens.insert(name.clone(), json!({"id": name, "ids": t.ids, "tokens": t.tokens}));
        }
        json!({
            "type": "TemplateProcessing",
            "single": pieces(&self.single),
            "pair": pieces(&self.pair),
            "special_tokens": special_tokens,
        })
    }

    /// The post-processor this template is with `vocab`, and the ids it
    /// adds that no token of `vocab` has, each with the template's token
    /// for it (Hugging Face's encodings show that token, and its decoding
    /// leaves the id out); an error naming the JSON path (under `path`) of
    /// what cannot be run as Hugging Face runs it (see the module's
    /// documentation).
    pub fn compile(&self, vocab: &Vocab, path: &str) -> Result<(PostProcessor, Vec<(u32, String)>)> {
        let mut unassigned = Vec::new();
        let mut compile = |key: &str, pieces: &[TemplatePiece]| -> Result<Vec<Piece>> {
            let mut out = Vec::with_capacity(pieces.len());
            for (i, piece) in pieces.iter().enumerate() {
                let (kind, type_id) = match piece {
                    TemplatePiece::Sequence { type_id, .. } => ("Sequence", type_id),
                    TemplatePiece::SpecialToken { type_id, .. } => ("SpecialToken", type_id),
                };
                let at = format!("{path}.{key}[{i}].{kind}");
                let type_id = u8::try_from(*type_id)
                    .map_err(|_| err(&format!("{at}.type_id"), format!("{type_id} is not supported (at most 255)")))?;
                out.push(match piece {
                    TemplatePiece::Sequence { second, .. } => Piece::Sequence { sequence: u8::from(*second), type_id },
                    TemplatePiece::SpecialToken { id, .. } => {
                        let Some(entry) = self.special_tokens.get(id) else {
                            return Err(err(
                                &format!("{at}.id"),
                                format!(
                                    "{} is not in {path}.special_tokens (Hugging Face fails when it encodes)",
                                    Quoted(id)
                                ),
                            ));
                        };
                        Piece::Special { ids: self.checked_ids(id, entry, vocab, path, &mut unassigned)?, type_id }
                    }
                });
            }
            Ok(out)
        };
        let (single, pair) = (compile("single", &self.single)?, compile("pair", &self.pair)?);
        let processor =
            PostProcessor::new(single, pair).map_err(|(key, message)| err(&format!("{path}.{key}"), message))?;
        unassigned.sort_unstable();
        unassigned.dedup_by_key(|(id, _)| *id);
        Ok((processor, unassigned))
    }

    /// The ids of special token `name`, each the vocabulary's id of its
    /// token or a hole of the vocabulary, an id no token has (added to
    /// `unassigned` with the token; the same id with two tokens is an error).
    fn checked_ids(
        &self,
        name: &str,
        entry: &SpecialTokens,
        vocab: &Vocab,
        path: &str,
        unassigned: &mut Vec<(u32, String)>,
    ) -> Result<Vec<u32>> {
        let p = format!("{path}.special_tokens.{name}");
        if entry.ids.len() != entry.tokens.len() {
            return Err(err(
                &p,
                format!(
                    "{} ids but {} tokens: they must be as many (Hugging Face fails)",
                    entry.ids.len(),
                    entry.tokens.len()
                ),
            ));
        }
        for (token, &id) in entry.tokens.iter().zip(&entry.ids) {
            if vocab.id(token) == Some(id) {
                continue;
            }
            if let Some(other) = vocab.token(id) {
                return Err(err(
                    &format!("{p}.ids"),
                    format!(
                        "{} has id {id} here but the vocabulary gives id {id} to {}, which is not supported",
                        Quoted(token),
                        Quoted(other)
                    ),
                ));
            }
            if id as usize >= vocab.len() {
                return Err(err(
                    &format!("{p}.ids"),
                    format!(
                        "{} has id {id} here, past the end of the vocabulary's {} ids, which is not supported",
                        Quoted(token),
                        vocab.len()
                    ),
                ));
            }
            match unassigned.iter().find(|(i, _)| *i == id) {
                Some((_, shown)) if shown != token => {
                    return Err(err(
                        &format!("{p}.ids"),
                        format!(
                            "id {id} stands for {} here and for {} elsewhere in the template, which is not supported",
                            Quoted(token),
                            Quoted(shown)
                        ),
                    ))
                }
                Some(_) => {}
                None => unassigned.push((id, token.clone())),
            }
        }
        Ok(entry.ids.clone())
    }

    /// The `[CLS]` and `[SEP]` of a template that is BERT's
    /// (`C $A:0 S:0` and `C $A:0 S:0 $B:1 S:1`, each a single token named
    /// as itself), else None.
    pub fn as_bert(&self) -> Option<(&str, &str)> {
        // One token named as itself, with one id (a count of ids that is
        // not the count of tokens is refused as any template's is).
        let one = |name: &str| {
            self.special_tokens
                .get(name)
                .is_some_and(|t| t.tokens.len() == 1 && t.ids.len() == 1 && t.tokens[0] == name)
        };
        fn special<'a>(p: &'a TemplatePiece, type_id: u32, one: &dyn Fn(&str) -> bool) -> Option<&'a str> {
            match p {
                TemplatePiece::SpecialToken { id, type_id: t } if *t == type_id && one(id) => Some(id.as_str()),
                _ => None,
            }
        }
        let special = |p, type_id| special(p, type_id, &one);
        let seq = |p: &TemplatePiece, second: bool, type_id: u32| *p == TemplatePiece::Sequence { second, type_id };
        let ([c, a, s], [c2, a2, s2, b, s3]) = (self.single.as_slice(), self.pair.as_slice()) else {
            return None;
        };
        let (cls, sep) = (special(c, 0)?, special(s, 0)?);
        let same = special(c2, 0) == Some(cls) && special(s2, 0) == Some(sep) && special(s3, 1) == Some(sep);
        (seq(a, false, 0) && seq(a2, false, 0) && seq(b, true, 1) && same).then_some((cls, sep))
    }

    /// The first and last special tokens of `single` when it is
    /// `X $A Y` with single-token X and Y (RoBERTa's `<s>` and `</s>`):
    /// the tokens a transformers-style `cls_token` and `sep_token` name.
    pub fn cls_and_sep(&self) -> Option<(&str, &str)> {
        let token = |p: &TemplatePiece| match p {
            TemplatePiece::SpecialToken { id, .. } => {
                self.special_tokens.get(id).filter(|t| t.tokens.len() == 1).map(|t| t.tokens[0].as_str())
            }
            TemplatePiece::Sequence { .. } => None,
        };
        match self.single.as_slice() {
            [c, TemplatePiece::Sequence { second: false, .. }, s] => Some((token(c)?, token(s)?)),
            _ => None,
        }
    }
}

/// A piece `{"SpecialToken": {"id", "type_id"}}` or `{"Sequence": {"id", "type_id"}}`.
fn piece(item: &Value, path: &str) -> Result<TemplatePiece> {
    let obj =
        item.as_object().filter(|o| o.len() == 1).ok_or_else(|| err(path, "expected one SpecialToken or Sequence"))?;
    let (key, inner) = obj.iter().next().expect("one entry");
    let p = format!("{path}.{key}");
    if !inner.is_object() {
        return Err(err(&p, "expected an object"));
    }
    let type_id = id(field(inner, "type_id", &p)?, &format!("{p}.type_id"))?;
    let name = string(field(inner, "id", &p)?, &format!("{p}.id"))?;
    match key.as_str() {
        "Sequence" => match name.as_str() {
            "A" => Ok(TemplatePiece::Sequence { second: false, type_id }),
            "B" => Ok(TemplatePiece::Sequence { second: true, type_id }),
            other => Err(err(&format!("{p}.id"), format!("expected \"A\" or \"B\", found {}", Quoted(other)))),
        },
        "SpecialToken" => Ok(TemplatePiece::SpecialToken { id: name, type_id }),
        other => Err(err(path, format!("expected SpecialToken or Sequence, found {}", Quoted(other)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roberta() -> Value {
        json!({
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "</s>", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "</s>", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 1}}, {"SpecialToken": {"id": "</s>", "type_id": 1}}],
            "special_tokens": {"</s>": {"id": "</s>", "ids": [2], "tokens": ["</s>"]},
                               "<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}},
        })
    }

    fn vocab() -> Vocab {
        Vocab::new(["[UNK]", "<s>", "</s>", "a"].iter().map(|t| t.to_string()).collect()).unwrap()
    }

    #[test]
    fn reads_writes_and_compiles() {
        let t = Template::from_json(&roberta(), "post_processor").unwrap();
        assert_eq!(t.to_json(), roberta());
        assert_eq!(t.as_bert(), None);
        assert_eq!(t.cls_and_sep(), Some(("<s>", "</s>")));
        let (p, unassigned) = t.compile(&vocab(), "post_processor").unwrap();
        assert_eq!((p.added(false), p.added(true)), (2, 4));
        assert!(unassigned.is_empty());
    }

    #[test]
    fn an_id_no_token_has_is_kept_with_the_template_token() {
        // A vocabulary without `</s>`, and a hole at 2.
        let vocab = Vocab::from_slots(
            vec![Some("[UNK]".into()), Some("<s>".into()), None, Some("a".into())],
            Default::default(),
            "##",
        )
        .unwrap();
        let (p, unassigned) = Template::from_json(&roberta(), "post_processor").unwrap().compile(&vocab, "p").unwrap();
        assert_eq!(unassigned, vec![(2, "</s>".to_string())]);
        assert_eq!(p.added(true), 4);
        // One hole for two tokens is refused.
        let mut v = roberta();
        v["special_tokens"]["<s>"]["ids"] = json!([2]);
        let e = Template::from_json(&v, "p").unwrap().compile(&vocab, "p").unwrap_err().to_string();
        assert!(
            e.starts_with("p.special_tokens.</s>.ids: id 2 stands for \"</s>\" here and for \"<s>\" elsewhere"),
            "{e}"
        );
        // An id past the end is refused.
        let mut v = roberta();
        v["special_tokens"]["</s>"]["ids"] = json!([9]);
        let e = Template::from_json(&v, "p").unwrap().compile(&vocab, "p").unwrap_err().to_string();
        assert_eq!(
            e,
            "p.special_tokens.</s>.ids: \"</s>\" has id 9 here, past the end of the vocabulary's 4 ids, which is not supported"
        );
    }

    #[test]
    fn refuses_what_it_cannot_run_by_path() {
        let check = |edit: &dyn Fn(&mut Value), want: &str| {
            let mut v = roberta();
            edit(&mut v);
            let e = Template::from_json(&v, "post_processor")
                .and_then(|t| t.compile(&vocab(), "post_processor").map(|_| ()))
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{e}");
        };
        check(&|v| v["single"][1]["Sequence"]["id"] = json!("B"), "post_processor.single: must hold $A once");
        check(&|v| v["pair"][4]["Sequence"]["id"] = json!("A"), "post_processor.pair: must hold $A once and $B once");
        check(
            &|v| v["pair"][0]["SpecialToken"]["id"] = json!("<x>"),
            "post_processor.pair[0].SpecialToken.id: \"<x>\"",
        );
        check(
            &|v| v["single"][0]["SpecialToken"]["type_id"] = json!(256),
            "post_processor.single[0].SpecialToken.type_id",
        );
        check(
            &|v| v["special_tokens"]["<s>"]["ids"] = json!([2]),
            "post_processor.special_tokens.<s>.ids: \"<s>\" has id 2 here but the vocabulary gives id 2 to \"</s>\"",
        );
        check(&|v| v["special_tokens"]["<s>"]["ids"] = json!([1, 2]), "post_processor.special_tokens.<s>: 2 ids but 1");
        check(
            &|v| v["special_tokens"]["<s>"]["id"] = json!("s"),
            "post_processor.special_tokens.<s>.id: \"s\" differs",
        );
        check(&|v| v["pair"][1] = json!({"Sequence": {"id": "C", "type_id": 0}}), "post_processor.pair[1].Sequence.id");
        check(&|v| v["pair"][1] = json!({"Sequence": {"id": "A"}}), "post_processor.pair[1].Sequence: missing field");
    }
}
