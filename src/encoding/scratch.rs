//! The buffer an encoding's tokens are collected in: ids and offsets only,
//! reused from call to call so that it grows once, then copied out into an
//! [`Encoding`] at its exact size with the other columns made whole.

use crate::encoding::Encoding;

/// Ids and offsets of the tokens of one encoding being assembled (see
/// `BertPostProcessor::assemble`): the tokenizer keeps one per thread.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    ids: Vec<u32>,
    offsets: Vec<(u32, u32)>,
}

impl Scratch {
    pub fn clear(&mut self) {
        self.ids.clear();
        self.offsets.clear();
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Appends a token's id and its character offsets.
    #[inline]
    pub fn push(&mut self, id: u32, offsets: (u32, u32)) {
        self.ids.push(id);
        self.offsets.push(offsets);
    }

    /// Keeps the first `n` tokens.
    pub fn truncate(&mut self, n: usize) {
        self.ids.truncate(n);
        self.offsets.truncate(n);
    }

    /// The tokens as an encoding of exactly their number: type id 0 before
    /// token `second` and 1 from it on, `special_tokens_mask` 1 at the
    /// positions in `specials` (positions past the end are ignored), and
    /// attention on every token.
    pub fn to_encoding(&self, second: usize, specials: &[usize]) -> Encoding {
        let n = self.len();
        let mut type_ids = vec![0; n];
        type_ids[second.min(n)..].fill(1);
        let mut special_tokens_mask = vec![0; n];
        for &at in specials.iter().filter(|&&at| at < n) {
            special_tokens_mask[at] = 1;
        }
        Encoding {
            ids: self.ids.to_vec(),
            offsets: self.offsets.to_vec(),
            type_ids,
            special_tokens_mask,
            attention_mask: vec![1; n],
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
        }
        s.truncate(5);
        let e = s.to_encoding(3, &[0, 2, 4, usize::MAX]);
        assert_eq!(e.ids(), [0, 1, 2, 3, 4]);
        assert_eq!(e.offsets(), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]);
        assert_eq!(e.type_ids(), [0, 0, 0, 1, 1]);
        assert_eq!(e.special_tokens_mask(), [1, 0, 1, 0, 1]);
        assert_eq!(e.attention_mask(), [1; 5]);
        s.clear();
        assert!(s.is_empty() && s.to_encoding(0, &[]).is_empty());
    }
}
