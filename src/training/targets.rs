//! The token that merging a pair makes, if it exists, found without
//! building the merged string: a merge creates a few pairs, and building
//! each one's string and hashing it in the vocabulary's map read both
//! tokens' strings and the map's keys, all out of cache.
//!
//! Each token keeps a polynomial hash of its string and of its string
//! without the continuation prefix (what it adds when it is a pair's
//! second token), and that part's length as a power of the base: the hash
//! of `a + b'` is then `h(a)·B^|b'| + h(b')`, from three numbers per token.
//! A hash is only a hint: a token found under it is compared as text, and
//! tokens whose hashes collide are all kept (a chain), so the answer is
//! exactly the token whose text is the merge's.

use rustc_hash::FxHashMap;

use super::reserve::reserve_total;
use super::trainer::{merged_into, TokenId};

const NONE: TokenId = TokenId::MAX;

/// The base of the hash (odd, so that powers of it never vanish mod 2^64).
const BASE: u64 = 0x100_0000_01b3;

/// The hash of `bytes` and `BASE^len`.
fn hash(bytes: &[u8]) -> (u64, u64) {
    bytes
        .iter()
        .fold((0u64, 1u64), |(h, p), &c| (h.wrapping_mul(BASE).wrapping_add(c as u64 + 1), p.wrapping_mul(BASE)))
}

pub struct Targets {
    /// The continuation prefix that a pair's second token loses.
    prefix: String,
    /// Per token: the hash of its text, the hash of its text without the
    /// continuation prefix, and `BASE` to the length of the latter.
    whole: Vec<u64>,
    tail: Vec<u64>,
    shift: Vec<u64>,
    /// The last token of each hash, and per token the one before it with
    /// the same hash (or `NONE`).
    last: FxHashMap<u64, TokenId>,
    before: Vec<TokenId>,
}

impl Targets {
    /// No token yet; merges strip `prefix` from their second token.
    pub fn new(prefix: &str) -> Self {
        Self {
            prefix: prefix.to_owned(),
            whole: Vec::new(),
            tail: Vec::new(),
            shift: Vec::new(),
            last: FxHashMap::default(),
            before: Vec::new(),
        }
    }

    /// Makes room for `tokens` tokens (see `reserve_total`).
    pub fn reserve(&mut self, tokens: usize) {
        for v in [&mut self.whole, &mut self.tail, &mut self.shift] {
            reserve_total(v, tokens);
        }
        reserve_total(&mut self.before, tokens);
        let _ = self.last.try_reserve(tokens.saturating_sub(self.last.len()));
    }

    /// Adds the tokens of `vocab` past those already known.
    pub fn extend(&mut self, vocab: &[String]) {
        for (t, text) in vocab.iter().enumerate().skip(self.whole.len()) {
            let (whole, _) = hash(text.as_bytes());
            let (tail, shift) = hash(text.strip_prefix(self.prefix.as_str()).unwrap_or(text).as_bytes());
            self.whole.push(whole);
            self.tail.push(tail);
            self.shift.push(shift);
            self.before.push(self.last.insert(whole, t as TokenId).unwrap_or(NONE));
        }
    }

    /// The token whose text is that of `a` and `b` merged ([`merged_into`]),
    /// or `NONE`; `piece` is scratch.
    pub fn of(&self, vocab: &[String], a: TokenId, b: TokenId, piece: &mut String) -> TokenId {
        let (a, b) = (a as usize, b as usize);
        let h = self.whole[a].wrapping_mul(self.shift[b]).wrapping_add(self.tail[b]);
        let Some(&first) = self.last.get(&h) else { return NONE };
        merged_into(&vocab[a], &vocab[b], &self.prefix, piece);
        let mut t = first;
        while t != NONE {
            if vocab[t as usize] == *piece {
                return t;
            }
            t = self.before[t as usize];
        }
        NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_target_is_the_token_with_the_merged_text() {
        let v = vocab(&["a", "##b", "ab", "##ab", "b", "##a", "##abb"]);
        let mut targets = Targets::new("##");
        targets.extend(&v);
        let mut piece = String::new();
        let id = |s: &str| v.iter().position(|t| t == s).unwrap() as TokenId;
        assert_eq!(targets.of(&v, id("a"), id("##b"), &mut piece), id("ab"));
        assert_eq!(targets.of(&v, id("##a"), id("##b"), &mut piece), id("##ab"));
        assert_eq!(targets.of(&v, id("a"), id("b"), &mut piece), id("ab"));
        assert_eq!(targets.of(&v, id("b"), id("##a"), &mut piece), NONE);
        assert_eq!(targets.of(&v, id("##ab"), id("##b"), &mut piece), id("##abb"));
        assert_eq!(targets.of(&v, id("##abb"), id("##a"), &mut piece), NONE);
    }

    #[test]
    fn tokens_with_the_same_hash_are_told_apart_by_their_text() {
        // Force every token under one hash: the chain still finds the right one.
        let v = vocab(&["x", "##y", "xy", "zz", "##q"]);
        let mut targets = Targets::new("##");
        targets.extend(&v);
        for t in 0..v.len() {
            targets.whole[t] = 7;
        }
        targets.last.clear();
        targets.before.clear();
        for t in 0..v.len() {
            targets.before.push(targets.last.insert(7, t as TokenId).unwrap_or(NONE));
        }
        // Make the pair's hash 7 too.
        targets.shift.iter_mut().for_each(|s| *s = 1);
        targets.tail.iter_mut().for_each(|s| *s = 0);
        let mut piece = String::new();
        assert_eq!(targets.of(&v, 0, 1, &mut piece), 2);
        assert_eq!(targets.of(&v, 0, 4, &mut piece), NONE);
    }

    proptest::proptest! {
        /// Whatever the tokens, the answer is the token whose text is the merge's.
        #[test]
        fn the_target_is_found_exactly(
            words in proptest::collection::vec("(##)?[ab]{1,4}", 1..30),
            pairs in proptest::collection::vec((0usize..30, 0usize..30), 1..20),
        ) {
            let mut v: Vec<String> = Vec::new();
            for w in words {
                if !v.contains(&w) {
                    v.push(w);
                }
            }
            let mut targets = Targets::new("##");
            targets.extend(&v);
            let mut piece = String::new();
            for (a, b) in pairs {
                let (a, b) = (a % v.len(), b % v.len());
                let mut merged = String::new();
                merged_into(&v[a], &v[b], "##", &mut merged);
                let expected = v.iter().position(|t| *t == merged).map_or(NONE, |t| t as TokenId);
                proptest::prop_assert_eq!(targets.of(&v, a as TokenId, b as TokenId, &mut piece), expected);
            }
        }
    }
}
