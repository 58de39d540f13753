//! Special tokens written literally in the input (`"... [SEP] ..."`) are kept
//! whole before normalization, as Hugging Face's added vocabulary does.

#[derive(Clone, Debug)]
pub struct SpecialTokenMatcher {
    /// `(token, id)`, longest first, so the first hit at a position is the longest.
    entries: Vec<(String, u32)>,
    first_bytes: [bool; 256],
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
        let mut first_bytes = [false; 256];
        for (t, _) in &entries {
            first_bytes[t.as_bytes()[0] as usize] = true;
        }
        Self { entries, first_bytes }
    }

    /// The leftmost, then longest, special token at or after byte `from`.
    pub fn find(&self, text: &str, from: usize) -> Option<Match> {
        if self.entries.is_empty() {
            return None;
        }
        let bytes = text.as_bytes();
        (from..bytes.len()).filter(|&i| self.first_bytes[bytes[i] as usize]).find_map(|i| {
            self.entries.iter().find(|(t, _)| bytes[i..].starts_with(t.as_bytes())).map(|(t, id)| Match {
                start: i,
                end: i + t.len(),
                id: *id,
            })
        })
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
}
