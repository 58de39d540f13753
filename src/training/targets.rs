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

    /// The token whose text has hash `h` and is `text`, if any.
    fn find(&self, vocab: &[String], h: u64, text: impl Fn(&str) -> bool) -> Option<TokenId> {
        let mut t = *self.last.get(&h)?;
        while t != NONE {
            if text(&vocab[t as usize]) {
                return Some(t);
            }
            t = self.before[t as usize];
        }
        None
    }

    /// Calls `f(x, y)`, splitting the text of token `c` at each character
    /// boundary inside it from left to right, for the tokens `x` (the text
    /// before) and `y` (the continuation prefix and the text after) when
    /// both exist. The hashes of every split come from one pass over the
    /// text (a lookup per split, not a string hashed per split: a token
    /// can be as long as a word).
    pub fn splits(&self, vocab: &[String], c: TokenId, mut f: impl FnMut(TokenId, TokenId)) {
        let text = vocab[c as usize].as_str();
        let bytes = text.as_bytes();
        let (whole, _) = hash(bytes);
        let (prefix_hash, _) = hash(self.prefix.as_bytes());
        // `before`: the hash of `text[..i]`; `after`: of `text[i..]`, and
        // `power`: `BASE^(n - i)`, from `hash(text) = hash(text[..i])·BASE^(n−i) + hash(text[i..])`.
        let mut powers = Vec::with_capacity(bytes.len() + 1);
        powers.push(1u64);
        for i in 0..bytes.len() {
            powers.push(powers[i].wrapping_mul(BASE));
        }
        let mut before = 0u64;
        for i in 1..bytes.len() {
            before = before.wrapping_mul(BASE).wrapping_add(bytes[i - 1] as u64 + 1);
            if !text.is_char_boundary(i) {
                continue;
            }
            let power = powers[bytes.len() - i];
            let after = whole.wrapping_sub(before.wrapping_mul(power));
            let Some(x) = self.find(vocab, before, |t| t == &text[..i]) else { continue };
            let rest = &text[i..];
            let h = prefix_hash.wrapping_mul(power).wrapping_add(after);
            let prefix = self.prefix.as_str();
            let is_y = |t: &str| t.len() == prefix.len() + rest.len() && t.starts_with(prefix) && t.ends_with(rest);
            if let Some(y) = self.find(vocab, h, is_y) {
                f(x, y);
            }
        }
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

    #[test]
    fn splits_are_the_token_and_continuation_token_pairs_that_make_a_token() {
        let v = vocab(&["a", "ab", "abc", "##bc", "##c", "##b", "é", "##éa", "éé", "##a"]);
        let mut targets = Targets::new("##");
        targets.extend(&v);
        let id = |s: &str| v.iter().position(|t| t == s).unwrap() as TokenId;
        let splits = |t: &str| {
            let mut out = Vec::new();
            targets.splits(&v, id(t), |x, y| out.push((v[x as usize].as_str(), v[y as usize].as_str())));
            out
        };
        assert_eq!(splits("abc"), [("a", "##bc"), ("ab", "##c")]);
        assert_eq!(splits("ab"), [("a", "##b")]);
        assert_eq!(splits("a"), []);
        // Only at character boundaries.
        assert_eq!(splits("éé"), []);
    }

    proptest::proptest! {
        /// Every split whose two parts are tokens, in order, and no other.
        #[test]
        fn splits_are_found_exactly(
            words in proptest::collection::vec("(##)?[aé]{1,6}", 1..40),
            prefix in "(##|@|)",
        ) {
            let mut v: Vec<String> = Vec::new();
            for w in words {
                let w = w.replace("##", &prefix);
                if !w.is_empty() && !v.contains(&w) {
                    v.push(w);
                }
            }
            let mut targets = Targets::new(&prefix);
            targets.extend(&v);
            for (c, text) in v.iter().enumerate() {
                let mut found = Vec::new();
                targets.splits(&v, c as TokenId, |x, y| found.push((x, y)));
                let position = |s: &str| v.iter().position(|t| t == s).map(|t| t as TokenId);
                let expected: Vec<(TokenId, TokenId)> = text
                    .char_indices()
                    .skip(1)
                    .filter_map(|(i, _)| Some((position(&text[..i])?, position(&format!("{prefix}{}", &text[i..]))?)))
                    .collect();
                proptest::prop_assert_eq!(found, expected, "{}", text);
            }
        }

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
