//! The vocabulary: token strings, their ids, and the lookup tables the
//! WordPiece model probes without allocating.

use std::path::Path;

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};

/// The prefix that marks a piece continuing a word.
pub const CONTINUATION: &str = "##";

#[derive(Clone, Debug)]
pub struct Vocab {
    tokens: Vec<String>,
    ids: FxHashMap<String, u32>,
    /// Tokens starting with `##`, keyed without the prefix.
    continuations: FxHashMap<String, u32>,
    /// Longest token, in characters, of `ids` and of `continuations`.
    max_chars: usize,
    max_continuation_chars: usize,
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
            return Err(Error::invalid(
                "a vocabulary holds at most 2**32 - 1 tokens",
            ));
        }
        let mut ids = FxHashMap::with_capacity_and_hasher(tokens.len(), Default::default());
        let mut continuations = FxHashMap::default();
        let (mut max_chars, mut max_continuation_chars) = (0, 0);
        for (id, token) in tokens.iter().enumerate() {
            if let Some(first) = ids.insert(token.clone(), id as u32) {
                return Err(Error::invalid(format!(
                    "duplicate token {token:?} at ids {first} and {id}"
                )));
            }
            max_chars = max_chars.max(token.chars().count());
            if let Some(rest) = token.strip_prefix(CONTINUATION) {
                continuations.insert(rest.to_owned(), id as u32);
                max_continuation_chars = max_continuation_chars.max(rest.chars().count());
            }
        }
        Ok(Self {
            tokens,
            ids,
            continuations,
            max_chars,
            max_continuation_chars,
        })
    }

    /// Reads a BERT `vocab.txt`: one token per line, id = line number,
    /// trailing whitespace removed (as Hugging Face does).
    pub fn from_file(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            Error::invalid_file(
                path,
                format!(
                    "not UTF-8 text (invalid byte at offset {})",
                    e.valid_up_to()
                ),
            )
        })?;
        let tokens: Vec<String> = text.lines().map(|l| l.trim_end().to_owned()).collect();
        if tokens.is_empty() {
            return Err(Error::invalid_file(path, "empty vocabulary file"));
        }
        Self::new(tokens)
            .map_err(|e| Error::invalid_file(path, format!("{e} (ids are line numbers from 0)")))
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

    /// The id of `piece` at the start of a word, or of `##piece` inside one.
    #[inline]
    pub fn piece_id(&self, piece: &str, continues_word: bool) -> Option<u32> {
        if continues_word {
            self.continuations.get(piece).copied()
        } else {
            self.ids.get(piece).copied()
        }
    }

    /// The longest piece worth probing, in characters.
    #[inline]
    pub fn max_piece_chars(&self, continues_word: bool) -> usize {
        if continues_word {
            self.max_continuation_chars
        } else {
            self.max_chars
        }
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
        assert_eq!(v.piece_id("aff", true), Some(2));
        assert_eq!(v.piece_id("aff", false), None);
        assert_eq!(v.piece_id("##aff", false), Some(2));
        assert_eq!(v.max_piece_chars(true), 4);
    }

    #[test]
    fn duplicates_are_rejected() {
        let err = vocab(&["a", "b", "a"]).unwrap_err().to_string();
        assert!(
            err.contains("duplicate token \"a\" at ids 0 and 2"),
            "{err}"
        );
    }
}
