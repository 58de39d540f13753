//! Special tokens written literally in the input (`"... [SEP] ..."`) are kept
//! whole before normalization, as Hugging Face's added vocabulary does; so
//! are other added tokens, in the raw text or (`normalized`) in the
//! normalized text.

/// A token matched in the text before the model (Hugging Face's added
/// token): in the raw text, or in the normalized text when `normalized`.
/// `special` ones are dropped by `decode(..., skip_special_tokens=True)`.
/// `single_word`: matched only where no word character (`\w`) touches it;
/// `lstrip` / `rstrip`: the match takes in the whitespace on its left / right.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddedToken {
    pub content: String,
    pub special: bool,
    pub normalized: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub single_word: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub lstrip: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub rstrip: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// How an added token's match is checked and widened (see [`AddedToken`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchFlags {
    pub single_word: bool,
    pub lstrip: bool,
    pub rstrip: bool,
}

impl AddedToken {
    pub fn flags(&self) -> MatchFlags {
        MatchFlags { single_word: self.single_word, lstrip: self.lstrip, rstrip: self.rstrip }
    }
}

use aho_corasick::{packed, Span};

use crate::pipeline::unicode::{is_whitespace, regex_word};

/// A character of `\w` for `single_word`: the `regex` crate's, whose `^\w`
/// and `\w$` Hugging Face's added vocabulary tests the neighbours with.
fn is_word(c: char) -> bool {
    regex_word(c)
}

/// Whether a word character is just before or just after bytes
/// `start..end` of `text`: a `single_word` match there is passed over.
pub fn touches_word(text: &str, start: usize, end: usize) -> bool {
    text[..start].chars().next_back().is_some_and(is_word) || text[end..].chars().next().is_some_and(is_word)
}

/// One token of a [`SpecialTokenMatcher`].
#[derive(Clone, Debug)]
struct Entry {
    token: String,
    id: u32,
    flags: MatchFlags,
    /// The token's first (up to) 8 bytes as a little-endian word, and the
    /// mask of them: a candidate is compared in full only when they match.
    prefix: u64,
    mask: u64,
}

#[derive(Clone, Debug)]
pub struct SpecialTokenMatcher {
    /// Longest first, so the first hit at a position is the longest.
    entries: Vec<Entry>,
    /// The distinct first bytes of the tokens, searched for with `memchr`.
    first_bytes: Vec<u8>,
    /// The bytes that follow a first byte in some token, one bit each (all
    /// of them when a token is one byte long): a candidate followed by
    /// another byte is passed over at once.
    seconds: [u64; 4],
    /// The distinct tokens in a SIMD (Teddy) searcher, leftmost-longest,
    /// with the entry of each of its patterns; None where the CPU or the
    /// number of tokens does not allow one. It passes over text where a
    /// token's first byte is frequent (`[` in a dictionary) without
    /// stopping at each one, as the `memchr` search must.
    packed: Option<(packed::Searcher, Vec<usize>)>,
}

/// Up to the first 8 bytes of `b` as a little-endian word, zero-padded.
#[inline(always)]
fn head(b: &[u8]) -> u64 {
    match b.get(..8) {
        Some(w) => u64::from_le_bytes(w.try_into().unwrap_or_default()),
        None => {
            let mut w = [0u8; 8];
            w[..b.len()].copy_from_slice(b);
            u64::from_le_bytes(w)
        }
    }
}

/// A special token found in the text: byte range and id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    pub start: usize,
    pub end: usize,
    pub id: u32,
}

impl SpecialTokenMatcher {
    pub fn new(tokens: impl IntoIterator<Item = (String, u32)>) -> Self {
        Self::with_flags(tokens.into_iter().map(|(t, id)| (t, id, MatchFlags::default())))
    }

    pub fn with_flags(tokens: impl IntoIterator<Item = (String, u32, MatchFlags)>) -> Self {
        Self::build(tokens, true)
    }

    /// `with_flags`, with the SIMD searcher when `packed` (and the CPU has it).
    fn build(tokens: impl IntoIterator<Item = (String, u32, MatchFlags)>, packed: bool) -> Self {
        let mut entries: Vec<Entry> = tokens
            .into_iter()
            .filter(|(t, ..)| !t.is_empty())
            .map(|(token, id, flags)| {
                let n = token.len().min(8);
                let (prefix, mask) = (head(&token.as_bytes()[..n]), u64::MAX >> (8 * (8 - n)));
                Entry { token, id, flags, prefix, mask }
            })
            .collect();
        entries.sort_by_key(|e| std::cmp::Reverse(e.token.len()));
        let mut first_bytes: Vec<u8> = entries.iter().map(|e| e.token.as_bytes()[0]).collect();
        first_bytes.sort_unstable();
        first_bytes.dedup();
        let mut seconds = [0u64; 4];
        for e in &entries {
            match e.token.as_bytes().get(1) {
                Some(&b) => seconds[usize::from(b >> 6)] |= 1 << (b & 63),
                None => seconds = [u64::MAX; 4],
            }
        }
        let packed = packed.then(|| Self::packed(&entries)).flatten();
        Self { entries, first_bytes, seconds, packed }
    }

    /// The SIMD searcher of the distinct tokens of `entries` (the first
    /// entry of a token repeated), if one can be built.
    fn packed(entries: &[Entry]) -> Option<(packed::Searcher, Vec<usize>)> {
        let mut builder = packed::Config::new().match_kind(packed::MatchKind::LeftmostLongest).builder();
        let mut of_pattern = Vec::new();
        for (k, e) in entries.iter().enumerate() {
            if !entries[..k].iter().any(|f| f.token == e.token) {
                builder.add(&e.token);
                of_pattern.push(k);
            }
        }
        // None, too, when the builder took too many patterns to search.
        Some((builder.build()?, of_pattern))
    }

    /// The leftmost, then longest, special token at or after byte `from`.
    pub fn find(&self, text: &str, from: usize) -> Option<Match> {
        self.find_flagged(text, from).map(|(m, _)| m)
    }

    fn find_flagged(&self, text: &str, from: usize) -> Option<(Match, MatchFlags)> {
        let bytes = text.as_bytes();
        let mut at = from;
        while at < bytes.len() {
            let i = at + self.next_candidate(&bytes[at..])?;
            if let Some(hit) = self.at(bytes, i) {
                return Some(hit);
            }
            // A candidate that is none (a `[` in a dictionary): more may
            // follow, and the SIMD searcher, slower than `memchr` over text
            // without any, takes the rest in one pass.
            if let Some((searcher, of_pattern)) = &self.packed {
                if i + 1 >= bytes.len() {
                    return None;
                }
                let m = searcher.find_in(bytes, Span { start: i + 1, end: bytes.len() })?;
                let e = &self.entries[of_pattern[m.pattern().as_usize()]];
                return Some((Match { start: m.start(), end: m.end(), id: e.id }, e.flags));
            }
            at = i + 1;
        }
        None
    }

    /// The longest token at byte `i`, if any.
    #[inline]
    fn at(&self, bytes: &[u8], i: usize) -> Option<(Match, MatchFlags)> {
        if let Some(&b) = bytes.get(i + 1) {
            if self.seconds[usize::from(b >> 6)] >> (b & 63) & 1 == 0 {
                return None;
            }
        }
        let word = head(&bytes[i..]);
        let e =
            self.entries.iter().find(|e| word & e.mask == e.prefix && bytes[i..].starts_with(e.token.as_bytes()))?;
        Some((Match { start: i, end: i + e.token.len(), id: e.id }, e.flags))
    }

    /// The next added token to keep at or after byte `*pos`, as Hugging
    /// Face's added vocabulary finds it: the leftmost-longest match, passed
    /// over when `skip(id)` or when `single_word` and a word character
    /// touches it; then widened over the whitespace on its left (`lstrip`,
    /// but not before `done`, the end of the last kept match) and on its
    /// right (`rstrip`). The search goes on after the match itself (`*pos`),
    /// not after the whitespace `rstrip` took in, so no shorter token inside
    /// a passed-over one is found, and the next match may start inside that
    /// whitespace: it then overlaps the last kept one, as in Hugging Face.
    /// A match that `lstrip`'s limit leaves empty is passed over.
    pub fn next_kept(&self, text: &str, pos: &mut usize, done: usize, skip: impl Fn(u32) -> bool) -> Option<Match> {
        while let Some((m, flags)) = self.find_flagged(text, *pos) {
            *pos = m.end;
            if skip(m.id) {
                continue;
            }
            if flags.single_word && touches_word(text, m.start, m.end) {
                continue;
            }
            let mut start = m.start;
            let mut end = m.end;
            if flags.lstrip {
                let before = &text[..start];
                let spaces: usize = before.chars().rev().take_while(|&c| is_whitespace(c)).map(char::len_utf8).sum();
                start = (start - spaces).max(done);
            }
            if flags.rstrip {
                end += text[end..].chars().take_while(|&c| is_whitespace(c)).map(char::len_utf8).sum::<usize>();
            }
            if start >= end {
                continue;
            }
            return Some(Match { start, end, id: m.id });
        }
        None
    }

    /// The position of the first byte that may start a special token.
    #[inline]
    fn next_candidate(&self, haystack: &[u8]) -> Option<usize> {
        match *self.first_bytes.as_slice() {
            [] => None,
            [a] => memchr::memchr(a, haystack),
            [a, b] => memchr::memchr2(a, b, haystack),
            [a, b, c] => memchr::memchr3(a, b, c, haystack),
            ref many => haystack.iter().position(|b| many.binary_search(b).is_ok()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_leftmost_then_longest() {
        let m = SpecialTokenMatcher::new([("[A]".to_string(), 1), ("[A][B]".to_string(), 2), ("[B]".to_string(), 3)]);
        assert_eq!(m.find("x[B][A][B]", 0), Some(Match { start: 1, end: 4, id: 3 }));
        assert_eq!(m.find("x[B][A][B]", 4), Some(Match { start: 4, end: 10, id: 2 }));
        assert_eq!(m.find("[a]", 0), None);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("ssse3") {
            assert!(m.packed.is_some(), "the SIMD searcher is built where the CPU has it");
        }
    }

    #[test]
    fn any_number_of_distinct_first_bytes() {
        for n in 1..=6u8 {
            let tokens = (0..n).map(|k| (format!("{}x", char::from(b'a' + k)), k as u32));
            let m = SpecialTokenMatcher::new(tokens);
            let last = char::from(b'a' + n - 1);
            let text = format!("zzax{last}{last}x");
            assert_eq!(m.find(&text, 1), Some(Match { start: 2, end: 4, id: 0 }));
            assert_eq!(m.find(&text, 3), Some(Match { start: 5, end: 7, id: n as u32 - 1 }));
        }
        assert_eq!(SpecialTokenMatcher::new([]).find("abc", 0), None);
    }

    /// The leftmost, then longest, token at or after `from`, found naively.
    fn naive(tokens: &[(String, u32)], text: &str, from: usize) -> Option<Match> {
        (from..text.len()).find_map(|i| {
            let best = tokens
                .iter()
                .filter(|(t, _)| text.as_bytes()[i..].starts_with(t.as_bytes()))
                .max_by_key(|(t, _)| t.len())?;
            Some(Match { start: i, end: i + best.0.len(), id: best.1 })
        })
    }

    proptest::proptest! {
        /// Tokens shorter and longer than the 8-byte prefix checked first,
        /// sharing prefixes, found near the text's end too, in short texts
        /// and longer ones.
        #[test]
        fn finds_as_the_naive_search_does(
            tokens in proptest::collection::btree_set("[ab\\[\\]]{1,12}", 1..6),
            text in "[ab\\[\\] ]{0,40}|[ab\\[\\] ]{60,150}",
        ) {
            let tokens: Vec<(String, u32)> = tokens.into_iter().zip(0..).collect();
            let flagged = || tokens.iter().map(|(t, id)| (t.clone(), *id, MatchFlags::default()));
            let (fast, plain) = (SpecialTokenMatcher::build(flagged(), true), SpecialTokenMatcher::build(flagged(), false));
            proptest::prop_assert!(plain.packed.is_none());
            for from in 0..=text.len() {
                let expected = naive(&tokens, &text, from);
                proptest::prop_assert_eq!(fast.find(&text, from), expected);
                proptest::prop_assert_eq!(plain.find(&text, from), expected);
            }
        }
    }
}
