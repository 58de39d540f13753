//! `analyze`: what a tokenizer makes of a set of texts (spec section 12).
//! Texts are encoded in parallel, without `[CLS]`/`[SEP]`.

use rayon::prelude::*;

use crate::error::Result;
use crate::pipeline::normalizer::Normalized;
use crate::threads;
use crate::tokenizer::Tokenizer;

/// Counts over the analyzed texts, for every tokenizer of the family.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    pub vocab_size: u64,
    pub texts: u64,
    /// Words: for WordPiece, after normalization and pre-tokenization (as
    /// training counts them); each other tokenizer's `analyze` says which.
    pub words: u64,
    /// Characters of those words.
    pub characters: u64,
    pub tokens: u64,
    /// Tokens that are `unk_token`.
    pub unknown: u64,
    /// Distinct vocabulary entries the encodings use.
    pub vocab_used: u64,
}

struct Partial {
    counts: Analysis,
    used: Vec<u64>,
}

impl Partial {
    fn new(vocab_size: usize) -> Self {
        Self { counts: Analysis::default(), used: vec![0; vocab_size.div_ceil(64)] }
    }

    fn merge(mut self, other: Partial) -> Partial {
        let (a, b) = (&mut self.counts, &other.counts);
        a.texts += b.texts;
        a.words += b.words;
        a.characters += b.characters;
        a.tokens += b.tokens;
        a.unknown += b.unknown;
        for (x, y) in self.used.iter_mut().zip(&other.used) {
            *x |= y;
        }
        self
    }
}

impl Tokenizer {
    /// Encodes every text (no special tokens added) and counts what came out.
    pub fn analyze<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Result<Analysis> {
        let n = self.vocab.len();
        let unk = self.model.unk_id;
        let total = threads::run(|| {
            texts
                .par_chunks(256)
                .map(|chunk| -> Result<Partial> {
                    let mut part = Partial::new(n);
                    let mut normalized = Normalized::default();
                    for text in chunk {
                        let text = text.as_ref();
                        let encoding = self.encode(text, None, false)?;
                        let c = &mut part.counts;
                        c.texts += 1;
                        c.tokens += encoding.len() as u64;
                        for &id in encoding.ids() {
                            c.unknown += u64::from(id == unk);
                            part.used[id as usize / 64] |= 1 << (id % 64);
                        }
                        self.options.for_each_word(text, &mut normalized, |w| {
                            c.words += 1;
                            c.characters += w.chars().count() as u64;
                        });
                    }
                    Ok(part)
                })
                .try_reduce(|| Partial::new(n), |a, b| Ok(a.merge(b)))
        })?;
        let mut counts = total.counts;
        counts.vocab_size = n as u64;
        counts.vocab_used = total.used.iter().map(|w| u64::from(w.count_ones())).sum();
        Ok(counts)
    }
}

impl Analysis {
    /// The counts of `texts` whose ids `encode` gives, in parallel, for the
    /// rest of the family (the seed's comparison): words are the texts'
    /// whitespace-separated words, characters the texts' own.
    pub fn of<S, F>(texts: &[S], vocab_size: usize, unk: Option<u32>, encode: F) -> Analysis
    where
        S: AsRef<str> + Sync,
        F: Fn(&str, &mut Vec<u32>) + Sync,
    {
        use rayon::prelude::*;
        let (mut c, used) = crate::threads::run(|| {
            texts
                .par_chunks(64)
                .map(|chunk| {
                    let (mut c, mut used, mut ids) =
                        (Analysis::default(), vec![0u64; vocab_size.div_ceil(64)], Vec::new());
                    for t in chunk {
                        let t = t.as_ref();
                        ids.clear();
                        encode(t, &mut ids);
                        c.texts += 1;
                        c.words += t.split_whitespace().count() as u64;
                        c.characters += t.chars().count() as u64;
                        c.tokens += ids.len() as u64;
                        for &id in &ids {
                            c.unknown += u64::from(Some(id) == unk);
                            if let Some(u) = used.get_mut(id as usize / 64) {
                                *u |= 1 << (id % 64);
                            }
                        }
                    }
                    (c, used)
                })
                .reduce(
                    || (Analysis::default(), vec![0u64; vocab_size.div_ceil(64)]),
                    |(mut a, mut ua), (b, ub)| {
                        a.texts += b.texts;
                        a.words += b.words;
                        a.characters += b.characters;
                        a.tokens += b.tokens;
                        a.unknown += b.unknown;
                        for (x, y) in ua.iter_mut().zip(&ub) {
                            *x |= y;
                        }
                        (a, ua)
                    },
                )
        });
        c.vocab_size = vocab_size as u64;
        c.vocab_used = used.iter().map(|u| u64::from(u.count_ones())).sum();
        c
    }
}

#[cfg(test)]
mod tests {
    use crate::pipeline::model::vocab::Vocab;
    use crate::tokenizer::options::Options;
    use crate::tokenizer::Tokenizer;

    #[test]
    fn counts_words_tokens_unknowns_and_used_entries() {
        let tokens = ["[UNK]", "hug", "##s", "bun", "x"].map(String::from).to_vec();
        let t = Tokenizer::new(Vocab::new(tokens).unwrap(), vec![], &["[UNK]".into()], Options::default()).unwrap();
        let a = t.analyze(&["Hugs bun", "zzz hug"]).unwrap();
        assert_eq!((a.texts, a.words, a.characters, a.tokens, a.unknown), (2, 4, 13, 5, 1));
        assert_eq!((a.vocab_size, a.vocab_used), (5, 4));
        assert_eq!(t.analyze::<&str>(&[]).unwrap().tokens, 0);
    }
}
