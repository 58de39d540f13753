//! Special tokens written literally in the input (`"... [SEP] ..."`) are kept
//! whole before normalization, as Hugging Face's added vocabulary does; so
//! are other added tokens, in the raw text or (`normalized`) in the
//! normalized text.

/// A token matched in the text before the model (Hugging Face's added
/// token): in the raw text, or in the normalized text when `normalized`.
/// `special` ones are dropped by `decode(..., skip_special_tokens=True)`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddedToken {
    pub content: String,
    pub special: bool,
    pub normalized: bool,
}

#[derive(Clone, Debug)]
pub struct SpecialTokenMatcher {
    /// `(token, id)`, longest first, so the first hit at a position is the longest.
    entries: Vec<(String, u32)>,
    /// The distinct first bytes of the tokens, searched for with `memchr`.
    first_bytes: Vec<u8>,
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
        let mut entries: Vec<(String, u32)> = tokens.into_iter().filter(|(t, _)| !t.is_empty()).collect();
        entries.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
        let mut first_bytes: Vec<u8> = entries.iter().map(|(t, _)| t.as_bytes()[0]).collect();
        first_bytes.sort_unstable();
        first_bytes.dedup();
        Self { entries, first_bytes }
    }

    /// The leftmost, then longest, special token at or after byte `from`.
    pub fn find(&self, text: &str, from: usize) -> Option<Match> {
        let bytes = text.as_bytes();
        let mut at = from;
        while at < bytes.len() {
            let i = at + self.next_candidate(&bytes[at..])?;
            let hit = self.entries.iter().find(|(t, _)| bytes[i..].starts_with(t.as_bytes()));
            if let Some((t, id)) = hit {
                return Some(Match { start: i, end: i + t.len(), id: *id });
            }
            at = i + 1;
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
}
