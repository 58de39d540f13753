//! The vocabulary: token strings, their ids, and the trie the WordPiece model
//! walks to find the longest matching piece.

use std::path::Path;

use rustc_hash::FxHashMap;

use super::trie::Trie;
use crate::error::{Error, Result};

/// The prefix that marks a piece continuing a word.
pub const CONTINUATION: &str = "##";

/// Tokens up to this many bytes have a `short_key`.
pub const SHORT: usize = 15;

/// A token of at most `SHORT` bytes as one integer: its bytes, zero-padded,
/// then its length in the last byte.
#[inline]
fn short_key(bytes: &[u8]) -> Option<u128> {
    if bytes.is_empty() || bytes.len() > SHORT {
        return None;
    }
    let mut key = [0u8; 16];
    key[..bytes.len()].copy_from_slice(bytes);
    key[15] = bytes.len() as u8;
    Some(u128::from_le_bytes(key))
}

#[derive(Clone, Debug)]
pub struct Vocab {
    tokens: Vec<String>,
    ids: FxHashMap<String, u32>,
    /// The ids of tokens of at most `SHORT` bytes, keyed by `short_key`: a
    /// lookup hashes and compares one integer, with no pointer to follow.
    short_ids: FxHashMap<u128, u32>,
    trie: Trie,
}

impl PartialEq for Vocab {
    fn eq(&self, other: &Self) -> bool {
        self.tokens == other.tokens
    }
}

impl Vocab {
    /// A vocabulary whose ids are the positions in `tokens`.
    pub fn new(tokens: Vec<String>) -> Result<Self> {
        if tokens.len() > u32::MAX as usize {
            return Err(Error::invalid("a vocabulary holds at most 2**32 - 1 tokens"));
        }
        let mut ids = FxHashMap::with_capacity_and_hasher(tokens.len(), Default::default());
        for (id, token) in tokens.iter().enumerate() {
            if let Some(first) = ids.insert(token.clone(), id as u32) {
                return Err(Error::invalid(format!("duplicate token {token:?} at ids {first} and {id}")));
            }
        }
        let short_ids = tokens
            .iter()
            .enumerate()
            .filter_map(|(id, t)| short_key(t.as_bytes()).map(|key| (key, id as u32)))
            .collect();
        let trie = Trie::new(tokens.iter().map(String::as_str), CONTINUATION);
        Ok(Self { tokens, ids, short_ids, trie })
    }

    /// Reads a BERT `vocab.txt`: one token per line, id = line number,
    /// trailing whitespace removed (as Hugging Face does).
    pub fn from_file(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            Error::invalid_file(path, format!("not UTF-8 text (invalid byte at offset {})", e.valid_up_to()))
        })?;
        let tokens: Vec<String> = text.lines().map(|l| l.trim_end().to_owned()).collect();
        if tokens.is_empty() {
            return Err(Error::invalid_file(path, "empty vocabulary file"));
        }
        Self::new(tokens).map_err(|e| Error::invalid_file(path, format!("{e} (ids are line numbers from 0)")))
    }

    /// The `vocab.txt` form: one token per line in id order.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.tokens.iter().map(|t| t.len() + 1).sum());
        for token in &self.tokens {
            out.push_str(token);
            out.push('\n');
        }
        out
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }

    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The id of the token spelled by these bytes, when it is at most
    /// `SHORT` bytes long (longer ones: `None`, as if absent).
    #[inline]
    pub fn short_token_id(&self, token: &[u8]) -> Option<u32> {
        self.short_ids.get(&short_key(token)?).copied()
    }

    /// The longest token that `text` starts with: `(id, length in bytes)`.
    /// Inside a word (`continues_word`) only `##` tokens count, matched
    /// without their prefix.
    #[inline]
    pub fn longest_piece(&self, text: &[u8], continues_word: bool) -> Option<(u32, usize)> {
        self.trie.longest_prefix(text, continues_word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(tokens: &[&str]) -> Result<Vocab> {
        Vocab::new(tokens.iter().map(|t| t.to_string()).collect())
    }

    #[test]
    fn continuation_tokens_are_found_without_their_prefix() {
        let v = vocab(&["[UNK]", "un", "##aff", "##able"]).unwrap();
        assert_eq!(v.longest_piece(b"affable", true), Some((2, 3)));
        assert_eq!(v.longest_piece(b"affable", false), None);
        assert_eq!(v.longest_piece(b"##affable", false), Some((2, 5)));
    }

    #[test]
    fn short_tokens_are_found_by_their_bytes() {
        let v = vocab(&["a", "a\0", "abcdefghijklmno", "abcdefghijklmnop"]).unwrap();
        assert_eq!(v.short_token_id(b"a"), Some(0));
        assert_eq!(v.short_token_id(b"a\0"), Some(1));
        assert_eq!(v.short_token_id(b"abcdefghijklmno"), Some(2));
        assert_eq!(v.short_token_id(b"abcdefghijklmnop"), None, "longer than SHORT");
        assert_eq!(v.short_token_id(b"b"), None);
        assert_eq!(v.short_token_id(b""), None);
    }

    #[test]
    fn duplicates_are_rejected() {
        let err = vocab(&["a", "b", "a"]).unwrap_err().to_string();
        assert!(err.contains("duplicate token \"a\" at ids 0 and 2"), "{err}");
    }
}
