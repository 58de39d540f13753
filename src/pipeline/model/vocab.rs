//! The vocabulary: token strings, their ids, and the trie the WordPiece model
//! walks to find the longest matching piece.

use std::path::Path;

use rustc_hash::{FxHashMap, FxHashSet};

use super::trie::Trie;
use crate::error::{Error, Quoted, Result};

/// The ids of a vocabulary read from `{token: id}` (a Hugging Face
/// `tokenizer.json`) may skip numbers, but every id up to the largest takes
/// room: the largest must be below `GAP_BASE + GAP_PER_TOKEN * tokens`.
/// Real files skip none or a few hundred; this refuses a file whose one
/// huge id would take gigabytes.
pub const GAP_BASE: u64 = 65_536;
/// See [`GAP_BASE`].
pub const GAP_PER_TOKEN: u64 = 5;

/// Why a vocabulary of `tokens` tokens cannot have `id` (see [`GAP_BASE`]),
/// when it cannot.
pub fn id_too_large(id: u32, token: &str, tokens: usize) -> Option<String> {
    let bound = GAP_BASE + GAP_PER_TOKEN * tokens as u64;
    (u64::from(id) >= bound).then(|| {
        format!(
            "{} has id {id}, too large for {tokens} tokens: ids must be below {bound} ({GAP_BASE} + \
             {GAP_PER_TOKEN} per token; the ids no token has take room too)",
            Quoted(token)
        )
    })
}

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
    /// Token strings by id; a hole (an id no token has) is an empty string
    /// listed in `holes`.
    tokens: Vec<String>,
    /// Ids that no token has (a Hugging Face vocabulary may skip ids), in
    /// order: most vocabularies have none, so a lookup is a binary search of
    /// an empty list.
    holes: Vec<u32>,
    /// Ids of tokens that the WordPiece model does not match inside words
    /// (Hugging Face's added tokens that are not in the model's vocabulary).
    outside_model: FxHashSet<u32>,
    /// The prefix of pieces that continue a word (`##`).
    prefix: String,
    ids: FxHashMap<String, u32>,
    /// The ids of tokens of at most `SHORT` bytes, keyed by `short_key`: a
    /// lookup hashes and compares one integer, with no pointer to follow.
    short_ids: FxHashMap<u128, u32>,
    trie: Trie,
}

impl PartialEq for Vocab {
    fn eq(&self, other: &Self) -> bool {
        self.tokens == other.tokens
            && self.holes == other.holes
            && self.outside_model == other.outside_model
            && self.prefix == other.prefix
    }
}

impl Vocab {
    /// A vocabulary whose ids are the positions in `tokens`.
    pub fn new(tokens: Vec<String>) -> Result<Self> {
        Self::from_slots(tokens.into_iter().map(Some).collect(), FxHashSet::default(), CONTINUATION)
    }

    /// A vocabulary whose ids are the positions in `slots`, `None` being an
    /// id no token has; the tokens in `outside_model` are not matched inside
    /// words. `prefix` marks the pieces that continue a word.
    pub fn from_slots(slots: Vec<Option<String>>, outside_model: FxHashSet<u32>, prefix: &str) -> Result<Self> {
        if slots.len() > u32::MAX as usize {
            return Err(Error::invalid("a vocabulary holds at most 2**32 - 1 tokens"));
        }
        // Reserved at once, so that a vocabulary too large for memory is a
        // MemoryError rather than an abort. (The slots are all in memory
        // already: readers of `{token: id}` bound the holes, `id_too_large`.)
        let room = || Error::memory(format_args!("a vocabulary of {} ids", slots.len()));
        let n_holes = slots.iter().filter(|s| s.is_none()).count();
        let mut ids = FxHashMap::default();
        ids.try_reserve(slots.len() - n_holes).map_err(|_| room())?;
        let mut holes = Vec::new();
        holes.try_reserve_exact(n_holes).map_err(|_| room())?;
        let mut tokens = Vec::new();
        tokens.try_reserve_exact(slots.len()).map_err(|_| room())?;
        for (id, slot) in slots.into_iter().enumerate() {
            let Some(token) = slot else {
                holes.push(id as u32); // in order
                tokens.push(String::new());
                continue;
            };
            if let Some(first) = ids.insert(token.clone(), id as u32) {
                return Err(Error::invalid(format!("duplicate token {} at ids {first} and {id}", Quoted(&token))));
            }
            tokens.push(token);
        }
        if let Some(id) =
            outside_model.iter().find(|&&id| id as usize >= tokens.len() || holes.binary_search(&id).is_ok())
        {
            return Err(Error::invalid(format!("no token has id {id}, which is listed outside the model")));
        }
        let mut vocab = Self {
            tokens,
            holes,
            outside_model,
            prefix: String::new(),
            ids,
            short_ids: FxHashMap::default(),
            trie: Trie::new([], CONTINUATION),
        };
        vocab.set_prefix(prefix);
        Ok(vocab)
    }

    /// This vocabulary with another continuation prefix.
    pub fn with_prefix(mut self, prefix: &str) -> Self {
        if prefix != self.prefix {
            self.set_prefix(prefix);
        }
        self
    }

    /// Builds the lookup structures of the model's tokens for `prefix`.
    fn set_prefix(&mut self, prefix: &str) {
        let (holes, outside_model) = (&self.holes, &self.outside_model);
        let in_model = |id: usize| {
            (holes.is_empty() || holes.binary_search(&(id as u32)).is_err()) && !outside_model.contains(&(id as u32))
        };
        // Room for the model's tokens only: not for the holes between ids.
        let in_model_count = self.tokens.len().saturating_sub(self.holes.len() + self.outside_model.len());
        let mut short_ids = FxHashMap::with_capacity_and_hasher(in_model_count, Default::default());
        short_ids.extend(
            self.tokens
                .iter()
                .enumerate()
                .filter(|&(id, _)| in_model(id))
                .filter_map(|(id, t)| short_key(t.as_bytes()).map(|key| (key, id as u32))),
        );
        self.short_ids = short_ids;
        // Tokens outside the model stand in the trie as empty strings, which
        // no walk reports (a match is at least one byte long).
        let trie_tokens = self.tokens.iter().enumerate().map(|(id, t)| if in_model(id) { t.as_str() } else { "" });
        self.trie = Trie::new(trie_tokens, prefix);
        self.prefix = prefix.to_owned();
    }

    /// The prefix of pieces that continue a word.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The ids no token has, in order.
    pub fn holes(&self) -> Vec<u32> {
        self.holes.clone()
    }

    /// Whether no token has `id`, below `len()`.
    #[inline]
    fn is_hole(&self, id: u32) -> bool {
        !self.holes.is_empty() && self.holes.binary_search(&id).is_ok()
    }

    /// The ids of the tokens outside the model, in order.
    pub fn outside_model(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.outside_model.iter().copied().collect();
        v.sort_unstable();
        v
    }

    /// Whether some id below `len()` has no token.
    pub fn has_holes(&self) -> bool {
        !self.holes.is_empty()
    }

    /// Whether the WordPiece model matches token `id` inside words (false
    /// for holes and for tokens outside the model).
    pub fn in_model(&self, id: u32) -> bool {
        (id as usize) < self.tokens.len() && !self.is_hole(id) && !self.outside_model.contains(&id)
    }

    /// This vocabulary with `tokens` appended after its last id, outside the
    /// model (Hugging Face's `add_tokens` of tokens it does not have).
    pub fn with_appended(&self, tokens: &[String]) -> Result<Self> {
        let mut slots: Vec<Option<String>> =
            self.tokens.iter().enumerate().map(|(id, t)| (!self.is_hole(id as u32)).then(|| t.clone())).collect();
        let mut outside_model = self.outside_model.clone();
        for t in tokens {
            outside_model.insert(slots.len() as u32);
            slots.push(Some(t.clone()));
        }
        Self::from_slots(slots, outside_model, &self.prefix)
    }

    /// `(id, token)` for every token, in id order (holes left out).
    pub fn entries(&self) -> impl Iterator<Item = (u32, &str)> {
        self.tokens
            .iter()
            .enumerate()
            .filter(|&(id, _)| !self.is_hole(id as u32))
            .map(|(id, t)| (id as u32, t.as_str()))
    }

    /// Reads a BERT `vocab.txt`: one token per line, id = line number,
    /// trailing whitespace removed (as Hugging Face does).
    pub fn from_file(path: &Path) -> Result<Self> {
        Self::from_file_with_stop(path, &|| false)
    }

    /// [`Self::from_file`], the file read by [`crate::io::read_utf8`]
    /// (`stop` asked as there, while it waits for a FIFO's writer or data).
    pub fn from_file_with_stop(path: &Path, stop: &dyn Fn() -> bool) -> Result<Self> {
        let text = crate::io::read_utf8(path, stop)?;
        let tokens: Vec<String> = text.lines().map(|l| l.trim_end().to_owned()).collect();
        if tokens.is_empty() {
            return Err(Error::invalid_file(path, "empty vocabulary file"));
        }
        Self::new(tokens).map_err(|e| Error::invalid_file(path, format!("{e} (ids are line numbers from 0)")))
    }

    /// The id of the first token that a line of a `vocab.txt` cannot hold:
    /// one with a line break (`\n`, or `\r`, which Python's text files also
    /// break at). (A token ending in whitespace is written as it is:
    /// transformers reads it back so, Hugging Face's `WordPiece.from_file`
    /// and [`Self::from_file`] trim it, as they do bert-base-chinese's
    /// `"\u{2028}"`.)
    pub fn unwritable_line(&self) -> Option<usize> {
        self.tokens.iter().position(|t| t.contains(['\n', '\r']))
    }

    /// The `vocab.txt` form: one token per line in id order. A vocabulary
    /// with holes has none (its ids would shift), nor one with a token that
    /// a line cannot hold ([`Self::unwritable_line`]).
    pub fn to_text(&self) -> Result<String> {
        if let Some(hole) = self.holes.first() {
            return Err(Error::invalid(format!(
                "no token has id {hole}: a vocab.txt cannot skip ids (save the tokenizer.json instead)"
            )));
        }
        if let Some(id) = self.unwritable_line() {
            return Err(Error::invalid(format!(
                "token {id} ({}) holds a line break: a line of a vocab.txt cannot hold it (save the tokenizer.json \
                 instead)",
                Quoted(&self.tokens[id])
            )));
        }
        let mut out = String::with_capacity(self.tokens.iter().map(|t| t.len() + 1).sum());
        for token in &self.tokens {
            out.push_str(token);
            out.push('\n');
        }
        Ok(out)
    }

    /// One more than the largest id (holes included).
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// How many tokens there are, holes not counted (Hugging Face's
    /// `get_vocab_size(with_added_tokens=True)`, transformers' `len()`).
    pub fn count(&self) -> usize {
        self.tokens.len() - self.holes.len()
    }

    /// How many tokens the model matches: [`Vocab::count`] without the
    /// tokens outside the model (Hugging Face's
    /// `get_vocab_size(with_added_tokens=False)`, transformers' `vocab_size`).
    pub fn model_count(&self) -> usize {
        self.count() - self.outside_model.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// The token with this id; None past the end and for a hole.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).filter(|_| !self.is_hole(id)).map(String::as_str)
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

    /// The id of the token whose short key (see `word_cache::key_of`, the
    /// same key) is `key`.
    #[inline]
    pub fn short_id_of_key(&self, key: u128) -> Option<u32> {
        self.short_ids.get(&key).copied()
    }

    /// The longest token that `text` starts with: `(id, length in bytes)`.
    /// Inside a word (`continues_word`) only prefixed tokens count, matched
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
