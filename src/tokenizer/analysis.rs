//! `analyze`: what a tokenizer makes of a set of texts (spec section 12).
//! Texts are encoded in parallel, without `[CLS]`/`[SEP]`.

use crate::error::Result;
use crate::pipeline::normalizer::Normalized;
use crate::tokenizer::batch::map_chunks_until;
use crate::tokenizer::{Sequence, Tokenizer};

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

/// The counts of a chunk of the texts, with the vocabulary entries used as
/// bits: what [`Analysis::merged`] sums up.
pub struct Partial {
    pub counts: Analysis,
    used: Vec<u64>,
}

impl Partial {
    pub fn new(vocab_size: usize) -> Self {
        Self { counts: Analysis::default(), used: vec![0; vocab_size.div_ceil(64)] }
    }

    /// Counts `id` as used (an id past the vocabulary is not counted).
    pub fn use_id(&mut self, id: u32) {
        if let Some(u) = self.used.get_mut(id as usize / 64) {
            *u |= 1 << (id % 64);
        }
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

impl Analysis {
    /// The counts of `parts`, chunks of the texts of a tokenizer with
    /// `vocab_size` entries.
    pub fn merged(vocab_size: usize, parts: impl IntoIterator<Item = Partial>) -> Analysis {
        let total = parts.into_iter().fold(Partial::new(vocab_size), Partial::merge);
        let mut counts = total.counts;
        counts.vocab_size = vocab_size as u64;
        counts.vocab_used = total.used.iter().map(|w| u64::from(w.count_ones())).sum();
        counts
    }

    /// `part` of chunks of `texts`, in parallel on `threads` threads (see
    /// [`map_chunks_until`]: `stop` is asked after each chunk whether to give
    /// up), merged.
    pub fn in_chunks_until<S: AsRef<str> + Sync>(
        texts: &[S],
        vocab_size: usize,
        threads: Option<usize>,
        part: impl Fn(&[S]) -> Result<Partial> + Sync,
        stop: impl FnMut() -> bool,
    ) -> Result<Analysis> {
        Ok(Analysis::merged(vocab_size, map_chunks_until(texts, threads, part, stop)?))
    }
}

impl Tokenizer {
    /// Encodes every text (no special tokens added) and counts what came out.
    pub fn analyze<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Result<Analysis> {
        Analysis::in_chunks_until(texts, self.vocab.len(), None, |chunk| self.analyze_part(chunk), || false)
    }

    /// The counts of `analyze` for a chunk of the texts.
    pub fn analyze_part<S: AsRef<str>>(&self, texts: &[S]) -> Result<Partial> {
        let unk = self.model.unk_id;
        let mut part = Partial::new(self.vocab.len());
        let mut normalized = Normalized::default();
        for text in texts {
            let text = text.as_ref();
            // The ids alone: as `encode` gives them, in less room.
            self.with_encoded_as(Sequence::Text(text), None, false, true, |scratch| {
                part.counts.tokens += scratch.ids().len() as u64;
                for &id in scratch.ids() {
                    part.counts.unknown += u64::from(id == unk);
                    part.use_id(id);
                }
                Ok(())
            })?;
            part.counts.texts += 1;
            let c = &mut part.counts;
            self.options.try_for_each_word(text, &mut normalized, |w| {
                c.words += 1;
                c.characters += w.chars().count() as u64;
            })?;
        }
        Ok(part)
    }
}

impl Analysis {
    /// The counts of a chunk of `texts` whose ids `encode` gives, for the
    /// rest of the family: words are the texts'
    /// whitespace-separated words, characters the texts' own. An error of
    /// `encode` is the error.
    pub fn part_of<S: AsRef<str>>(
        texts: &[S],
        vocab_size: usize,
        unk: Option<u32>,
        mut encode: impl FnMut(&str, &mut Vec<u32>) -> Result<()>,
    ) -> Result<Partial> {
        let mut part = Partial::new(vocab_size);
        let mut ids = Vec::new();
        for t in texts {
            let t = t.as_ref();
            ids.clear();
            encode(t, &mut ids)?;
            let c = &mut part.counts;
            c.texts += 1;
            c.words += t.split_whitespace().count() as u64;
            c.characters += t.chars().count() as u64;
            c.tokens += ids.len() as u64;
            for &id in &ids {
                part.counts.unknown += u64::from(Some(id) == unk);
                part.use_id(id);
            }
        }
        Ok(part)
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
