//! BERT's greedy longest-match-first over the vocabulary.

use super::vocab::Vocab;

/// A piece of a word: its id and its character range within the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub id: u32,
    pub start: u32,
    pub end: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordPiece {
    pub unk_id: u32,
    pub max_input_chars_per_word: usize,
}

impl WordPiece {
    /// Appends the pieces of `word` to `out`. A word that is too long, or that
    /// has a part no token matches, becomes one unknown token.
    pub fn tokenize(&self, vocab: &Vocab, word: &str, out: &mut Vec<Piece>) {
        if word.is_ascii() {
            self.tokenize_ascii(vocab, word.as_bytes(), out);
            return;
        }
        let chars = word.chars().count();
        self.pieces(vocab, word.as_bytes(), chars, out, |pos, len| word[pos..pos + len].chars().count() as u32);
    }

    /// The id of the ASCII word of `len` bytes whose key is `key` (see
    /// `word_cache::key_of`) when the word is a token itself (the case of
    /// most words); None when the word needs [`Self::tokenize_ascii`].
    #[inline]
    pub fn whole_ascii_word(&self, vocab: &Vocab, key: u128, len: usize) -> Option<u32> {
        if len > self.max_input_chars_per_word {
            return None;
        }
        vocab.short_id_of_key(key)
    }

    /// `tokenize` for a word known to be ASCII, where characters are bytes.
    #[inline]
    pub fn tokenize_ascii(&self, vocab: &Vocab, word: &[u8], out: &mut Vec<Piece>) {
        debug_assert!(word.is_ascii());
        self.pieces(vocab, word, word.len(), out, |_, len| len as u32);
    }

    /// Greedy longest-match-first over `bytes`; `char_len(pos, len)` counts the
    /// characters of a matched piece.
    #[inline(always)]
    fn pieces(
        &self,
        vocab: &Vocab,
        bytes: &[u8],
        chars: usize,
        out: &mut Vec<Piece>,
        char_len: impl Fn(usize, usize) -> u32,
    ) {
        let whole = Piece { id: self.unk_id, start: 0, end: chars as u32 };
        if chars > self.max_input_chars_per_word {
            out.push(whole);
            return;
        }
        // Most words are tokens themselves: one hash lookup instead of a trie walk.
        if let Some(id) = vocab.short_token_id(bytes) {
            out.push(Piece { id, start: 0, end: chars as u32 });
            return;
        }
        let first = out.len();
        let (mut pos, mut char_pos) = (0usize, 0u32);
        while pos < bytes.len() {
            let Some((id, len)) = vocab.longest_piece(&bytes[pos..], pos > 0) else {
                out.truncate(first);
                out.push(whole);
                return;
            };
            let n = char_len(pos, len);
            out.push(Piece { id, start: char_pos, end: char_pos + n });
            pos += len;
            char_pos += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(vocab: &[&str], word: &str, max: usize) -> Vec<(String, u32, u32)> {
        let v = Vocab::new(vocab.iter().map(|t| t.to_string()).collect()).unwrap();
        let model = WordPiece { unk_id: 0, max_input_chars_per_word: max };
        let mut out = Vec::new();
        model.tokenize(&v, word, &mut out);
        out.iter().map(|p| (v.token(p.id).unwrap().to_owned(), p.start, p.end)).collect()
    }

    #[test]
    fn longest_match_first_with_continuations() {
        let v = ["[UNK]", "un", "una", "##aff", "##able", "##a", "##ffable"];
        assert_eq!(pieces(&v, "unaffable", 100), [("una".into(), 0, 3), ("##ffable".into(), 3, 9)]);
    }

    #[test]
    fn an_unmatched_part_makes_the_whole_word_unknown() {
        assert_eq!(pieces(&["[UNK]", "ab", "##c"], "abd", 100), [("[UNK]".into(), 0, 3)]);
    }

    #[test]
    fn words_longer_than_the_limit_are_unknown() {
        assert_eq!(pieces(&["[UNK]", "a", "##a"], "aaaa", 3), [("[UNK]".into(), 0, 4)]);
        assert_eq!(pieces(&["[UNK]", "a", "##a"], "aaa", 3).len(), 3);
    }

    #[test]
    fn ranges_count_characters() {
        assert_eq!(pieces(&["[UNK]", "é", "##ü"], "éü", 100), [("é".into(), 0, 1), ("##ü".into(), 1, 2)]);
    }
}
