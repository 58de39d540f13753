//! The buffer an encoding's tokens are collected in: ids, offsets and words,
//! reused from call to call so that it grows once, then copied out into an
//! [`Encoding`] at its exact size with the other columns made whole.

use crate::encoding::{Encoding, Word};

/// Ids, offsets and words of the tokens of one encoding being assembled (see
/// `BertPostProcessor::assemble`): the tokenizer keeps one per thread.
#[derive(Clone, Debug)]
pub struct Scratch {
    ids: Vec<u32>,
    offsets: Vec<(u32, u32)>,
    words: Vec<Word>,
    /// The word the next token belongs to.
    word: Word,
}

impl Default for Scratch {
    fn default() -> Self {
        Self { ids: Vec::new(), offsets: Vec::new(), words: Vec::new(), word: Word::new(0, 0) }
    }
}

/// Where a [`Scratch`] was, to go back to (see [`Scratch::rewind`]).
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    len: usize,
    word: Word,
}

impl Scratch {
    pub fn clear(&mut self) {
        self.ids.clear();
        self.offsets.clear();
        self.words.clear();
        self.word = Word::new(0, 0);
    }

    /// The next tokens belong to word 0 of `sequence`.
    pub fn start_sequence(&mut self, sequence: u8) {
        self.word = Word::new(0, sequence);
    }

    /// The next tokens belong to the next word.
    #[inline]
    pub fn end_word(&mut self) {
        self.word = self.word.next();
    }

    /// The current length and word, to [`rewind`](Self::rewind) to.
    pub fn mark(&self) -> Mark {
        Mark { len: self.len(), word: self.word }
    }

    /// Makes the tokens pushed since `mark` all word `index` of the current
    /// sequence; the next tokens belong to word `index + 1`.
    pub fn make_word_since(&mut self, mark: Mark, index: u32) {
        let word = Word::new(index, self.word.sequence().unwrap_or(0));
        self.words[mark.len..].fill(word);
        self.word = word.next();
    }

    /// Drops the tokens pushed since `mark` and goes back to its word.
    pub fn rewind(&mut self, mark: Mark) {
        self.truncate(mark.len);
        self.word = mark.word;
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Appends a token's id and its character offsets, in the current word.
    #[inline]
    pub fn push(&mut self, id: u32, offsets: (u32, u32)) {
        self.ids.push(id);
        self.offsets.push(offsets);
        self.words.push(self.word);
    }

    /// Keeps the first `n` tokens.
    pub fn truncate(&mut self, n: usize) {
        self.ids.truncate(n);
        self.offsets.truncate(n);
        self.words.truncate(n);
    }

    /// The tokens as an encoding of exactly their number: type id 0 before
    /// token `second` and 1 from it on, `special_tokens_mask` 1 at the
    /// positions in `specials` (positions past the end are ignored) where
    /// the tokens belong to no word, and attention on every token.
    pub fn to_encoding(&self, second: usize, specials: &[usize]) -> Encoding {
        let n = self.len();
        let mut type_ids = vec![0; n];
        type_ids[second.min(n)..].fill(1);
        let mut special_tokens_mask = vec![0; n];
        let mut words = self.words.to_vec();
        for &at in specials.iter().filter(|&&at| at < n) {
            special_tokens_mask[at] = 1;
            words[at] = Word::NONE;
        }
        Encoding {
            ids: self.ids.to_vec(),
            offsets: self.offsets.to_vec(),
            type_ids,
            special_tokens_mask,
            attention_mask: vec![1; n],
            words,
            pair: false,
            overflowing: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_an_encoding_with_every_column_whole() {
        let mut s = Scratch::default();
        for id in 0..6 {
            s.push(id, (id, id + 1));
            if id % 2 == 1 {
                s.end_word();
            }
        }
        s.truncate(5);
        let e = s.to_encoding(3, &[0, 2, 4, usize::MAX]);
        assert_eq!(e.ids(), [0, 1, 2, 3, 4]);
        assert_eq!(e.offsets(), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]);
        assert_eq!(e.type_ids(), [0, 0, 0, 1, 1]);
        assert_eq!(e.special_tokens_mask(), [1, 0, 1, 0, 1]);
        assert_eq!(e.attention_mask(), [1; 5]);
        let words: Vec<_> = e.words().iter().map(|w| w.index()).collect();
        assert_eq!(words, [None, Some(0), None, Some(1), None]);
        let mark = s.mark();
        s.push(9, (9, 10));
        s.end_word();
        s.rewind(mark);
        s.push(9, (9, 10));
        assert_eq!((s.len(), s.to_encoding(0, &[]).words()[5].index()), (6, Some(3)));
        let mark = s.mark();
        s.push(10, (0, 1));
        s.end_word();
        s.push(11, (2, 3));
        s.make_word_since(mark, 7);
        s.push(12, (0, 1));
        let words: Vec<_> = s.to_encoding(0, &[]).words()[6..].iter().map(|w| w.index()).collect();
        assert_eq!(words, [Some(7), Some(7), Some(8)]);
        s.clear();
        assert!(s.is_empty() && s.to_encoding(0, &[]).is_empty());
    }
}
