//! The character tokenizer: every character seen (at least `min_frequency`
//! times, the most frequent up to `vocab_size`) is a token, after the special
//! tokens; any other character is the unknown token (docs/spec.md, section 16).

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::{json, Value};

use crate::error::{Error, Quoted, Result};
use crate::pipeline::special_split::{Piece, SpecialSplitter};
use crate::tokenizer::analysis::{Analysis, Partial};
use crate::tokenizer::batch::chunks_until;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chars {
    vocab: Vec<String>,
    ids: FxHashMap<char, u32>,
    /// Special tokens (longest first, then smaller) with their ids.
    specials: SpecialSplitter,
    unk: u32,
}

impl Chars {
    /// A tokenizer from the vocabulary in id order: the special tokens (any
    /// strings) and single characters. `unk_token` must be a special token.
    pub fn new(vocab: Vec<String>, special_tokens: &[String], unk_token: &str) -> Result<Self> {
        let mut ids = FxHashMap::default();
        let mut specials = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (id, t) in vocab.iter().enumerate() {
            if !seen.insert(t.as_str()) {
                return Err(Error::invalid(format!("token {} is twice in the vocabulary", Quoted(t))));
            }
            if special_tokens.contains(t) {
                specials.push((t.clone(), id as u32));
                continue;
            }
            let mut cs = t.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => {
                    ids.insert(c, id as u32);
                }
                _ => {
                    return Err(Error::invalid(format!(
                        "token {} is neither one character nor a special token",
                        Quoted(t)
                    )))
                }
            }
        }
        for t in special_tokens {
            if t.is_empty() {
                return Err(Error::invalid("a special token must not be empty"));
            }
            if !seen.contains(t.as_str()) {
                return Err(Error::invalid(format!("special token {} is not in the vocabulary", Quoted(t))));
            }
        }
        specials.sort_by(|x, y| y.0.len().cmp(&x.0.len()).then(x.0.cmp(&y.0)));
        let unk = specials.iter().find(|(t, _)| t == unk_token).map(|s| s.1).ok_or_else(|| {
            Error::invalid(format!("unk_token {} must be one of the special tokens", Quoted(unk_token)))
        })?;
        Ok(Chars { vocab, ids, specials: SpecialSplitter::new(specials)?, unk })
    }

    /// Learns the vocabulary: the special tokens in order, then the characters
    /// seen at least `min_frequency` times (at most `vocab_size` tokens in all,
    /// the most frequent characters kept, ties by smaller code point), in
    /// code point order.
    pub fn train<S: AsRef<str> + Sync>(
        texts: &[S],
        vocab_size: Option<usize>,
        min_frequency: u64,
        special_tokens: &[String],
        unk_token: &str,
    ) -> Result<Self> {
        let counts = count_chars_until(texts, |_| false)?;
        Self::train_from_counts(counts, vocab_size, min_frequency, special_tokens, unk_token)
    }

    /// [`Chars::train`] from character counts.
    pub fn train_from_counts(
        counts: Vec<(char, u64)>,
        vocab_size: Option<usize>,
        min_frequency: u64,
        special_tokens: &[String],
        unk_token: &str,
    ) -> Result<Self> {
        if !special_tokens.iter().any(|t| t == unk_token) {
            return Err(Error::invalid(format!("unk_token {} must be one of the special tokens", Quoted(unk_token))));
        }
        let mut vocab: Vec<String> = Vec::new();
        for t in special_tokens {
            if vocab.contains(t) {
                return Err(Error::invalid(format!("special token {} is given twice", Quoted(t))));
            }
            vocab.push(t.clone());
        }
        let mut total: FxHashMap<char, u64> = FxHashMap::default();
        for (c, n) in counts {
            let sum = total.entry(c).or_default();
            *sum = sum.checked_add(n).ok_or_else(|| {
                Error::invalid(format!("the counts of {} add up to more than 2**64 - 1", Quoted(&c.to_string())))
            })?;
        }
        if !total.values().any(|&n| n > 0) {
            return Err(Error::invalid("the corpus has no characters to train on"));
        }
        let mut kept: Vec<(char, u64)> = total
            .into_iter()
            .filter(|&(c, n)| n > 0 && n >= min_frequency && !vocab.contains(&c.to_string()))
            .collect();
        if let Some(size) = vocab_size {
            kept.sort_unstable_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
            kept.truncate(size.saturating_sub(vocab.len()));
        }
        kept.sort_unstable_by_key(|x| x.0);
        vocab.extend(kept.into_iter().map(|(c, _)| c.to_string()));
        Self::new(vocab, special_tokens, unk_token)
    }

    pub fn vocab(&self) -> &[String] {
        &self.vocab
    }

    pub fn unk_id(&self) -> u32 {
        self.unk
    }

    pub fn token_to_id(&self, token: &str) -> Option<u32> {
        let mut cs = token.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) if self.ids.contains_key(&c) => self.ids.get(&c).copied(),
            _ => self.specials.tokens().iter().find(|s| s.0 == token).map(|s| s.1),
        }
    }

    /// The special tokens in id order.
    pub fn special_tokens(&self) -> Vec<String> {
        let mut s = self.specials.tokens().to_vec();
        s.sort_by_key(|x| x.1);
        s.into_iter().map(|x| x.0).collect()
    }

    pub fn unk_token(&self) -> &str {
        &self.vocab[self.unk as usize]
    }

    /// The ids of `text`, appended to `out`: special tokens found first (the
    /// earliest, then the longest), every other character its id or `unk`.
    pub fn encode_into(&self, text: &str, out: &mut Vec<u32>) {
        self.specials.split(text, |piece| match piece {
            Piece::Special { id, .. } => out.push(id),
            Piece::Text { text, .. } => out.extend(text.chars().map(|c| self.ids.get(&c).copied().unwrap_or(self.unk))),
        });
    }

    /// The ids of `text`; `Error::Memory` when there is no room for them
    /// (an id per byte of text at most, reserved at once).
    pub fn encode(&self, text: &str) -> Result<Vec<u32>> {
        let mut out = Error::room_for_ids(text.len())?;
        self.encode_into(text, &mut out);
        Ok(out)
    }

    pub fn encode_batch<S: AsRef<str> + Sync>(&self, texts: &[S], threads: Option<usize>) -> Result<Vec<Vec<u32>>> {
        crate::threads::install(threads, || texts.par_iter().map(|t| self.encode(t.as_ref())).collect())?
    }

    /// The tokens of `ids` joined (special tokens, `unk_token` included,
    /// left out with `skip_special_tokens`); `Error::Memory` when there is
    /// no room for the text (reserved at once).
    pub fn decode(&self, ids: &[u32], skip_special_tokens: bool) -> Result<String> {
        let skipped = |id: u32| skip_special_tokens && self.specials.tokens().iter().any(|x| x.1 == id);
        let mut size = 0usize;
        for &id in ids {
            let token = self.vocab.get(id as usize).ok_or_else(|| {
                Error::invalid(format!("id {id} is not in the vocabulary (size {})", self.vocab.len()))
            })?;
            if !skipped(id) {
                size = size.saturating_add(token.len());
            }
        }
        let mut s = Error::room_for_text(size)?;
        for &id in ids {
            if !skipped(id) {
                s.push_str(&self.vocab[id as usize]);
            }
        }
        Ok(s)
    }

    pub fn analyze<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Analysis {
        let part = |chunk: &[S]| Ok(self.analyze_part(chunk));
        Analysis::in_chunks_until(texts, self.vocab.len(), None, part, || false).expect("counting cannot fail")
    }

    /// The counts of [`Chars::analyze`] for a chunk of the texts.
    pub fn analyze_part<S: AsRef<str>>(&self, texts: &[S]) -> Partial {
        let part = Analysis::part_of(texts, self.vocab.len(), Some(self.unk), |t, ids| {
            self.encode_into(t, ids);
            Ok(())
        });
        part.expect("encoding characters cannot fail")
    }

    /// The tokenizer as JSON: `{"special_tokens": [...], "type":
    /// "CharTokenizer", "unk_token": ..., "vocab": [...]}` (keys sorted, as
    /// this format has always been written).
    pub fn to_json(&self) -> String {
        json!({"special_tokens": self.special_tokens(), "type": "CharTokenizer", "unk_token": self.unk_token(),
               "vocab": self.vocab})
        .to_string()
    }

    pub fn from_json(text: &str) -> Result<Self> {
        let v: Value = serde_json::from_str(text).map_err(|e| Error::invalid(format!("not valid JSON: {e}")))?;
        if v.get("type").and_then(Value::as_str) != Some("CharTokenizer") {
            return Err(Error::invalid("type: expected \"CharTokenizer\""));
        }
        let strings = |key: &str| -> Result<Vec<String>> {
            serde_json::from_value(v.get(key).cloned().unwrap_or(Value::Null))
                .map_err(|_| Error::invalid(format!("{key}: expected a list of str")))
        };
        let unk = v.get("unk_token").and_then(Value::as_str).ok_or_else(|| Error::invalid("unk_token: missing"))?;
        Self::new(strings("vocab")?, &strings("special_tokens")?, unk)
    }
}

/// How often each character occurs in `texts`, counted on chunks of them in
/// parallel, asking `stop` after each chunk (see [`chunks_until`]), with the
/// number of texts counted so far, whether to give up:
/// [`Error::Interrupted`] if it says so.
pub fn count_chars_until<S: AsRef<str> + Sync>(
    texts: &[S],
    mut stop: impl FnMut(usize) -> bool,
) -> Result<Vec<(char, u64)>> {
    let count = |chunk: &[S]| {
        let mut m = FxHashMap::<char, u64>::default();
        for t in chunk {
            for c in t.as_ref().chars() {
                *m.entry(c).or_default() += 1;
            }
        }
        Ok((m, chunk.len()))
    };
    let mut total = FxHashMap::<char, u64>::default();
    let done = std::cell::Cell::new(0);
    let add = |_, (m, n): (FxHashMap<char, u64>, usize)| {
        for (c, n) in m {
            *total.entry(c).or_default() += n;
        }
        done.set(done.get() + n);
    };
    chunks_until(texts, None, count, add, || stop(done.get()))?;
    Ok(total.into_iter().collect())
}

/// `text` cut at character boundaries into parts of about `size` bytes
/// (what a count of characters may take in chunks).
pub fn parts(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::with_capacity(text.len() / size.max(1) + 1);
    let mut rest = text;
    while rest.len() > size {
        let mut cut = size.max(1);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (part, tail) = rest.split_at(cut);
        out.push(part);
        rest = tail;
    }
    out.push(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_by_code_point_after_the_specials_and_unknown_ones_as_unk() {
        let specials = vec!["[UNK]".to_string(), "<s>".to_string()];
        let t = Chars::train(&["abca<s>", "bz"], None, 2, &specials, "[UNK]").unwrap();
        // Training counts every character of the texts, those of special tokens too.
        assert_eq!(t.vocab()[..2], ["[UNK]", "<s>"]);
        assert!(t.vocab().contains(&"a".to_string()) && !t.vocab().contains(&"z".to_string()));
        let ids = t.encode("az<s>").unwrap();
        assert_eq!(ids, [t.token_to_id("a").unwrap(), 0, 1]);
        assert_eq!(t.decode(&ids, true).unwrap(), "a");
        assert_eq!(Chars::from_json(&t.to_json()).unwrap(), t);
    }
}
