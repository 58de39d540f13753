//! Special tokens split out of text before any other stage, for the
//! tokenizers of the family (byte-level BPE, characters, Unigram): at the
//! earliest position where one starts, the longest one that starts there
//! (docs/spec.md §14). One Aho-Corasick automaton finds them in a single pass
//! over the text, however many special tokens there are.

use aho_corasick::{AhoCorasick, MatchKind};

use crate::error::{Error, Result};
use crate::pipeline::model::special_tokens::touches_word;

/// An added token's flags, as Hugging Face's `AddedToken` has them:
/// `lstrip` / `rstrip`, a match takes in the whitespace on its left / right;
/// `single_word`, a match touched by a word character is passed over;
/// `normalized`, the token is matched in the normalized text (by its
/// normalized form), after the others were split out of the raw text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub lstrip: bool,
    pub rstrip: bool,
    pub single_word: bool,
    pub normalized: bool,
}

/// A piece of text as the splitter cuts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text with no special token in it, starting at byte `start`.
    Text { text: &'a str, start: usize },
    /// Special token `id`, at bytes `start..end` (with the whitespace its
    /// `lstrip` or `rstrip` took in; it may start in the whitespace the
    /// previous token's `rstrip` took in).
    Special { id: u32, start: usize, end: usize },
}

/// The special tokens of a tokenizer, and the automaton that finds them.
#[derive(Clone, Debug, Default)]
pub struct SpecialSplitter {
    tokens: Vec<(String, u32)>,
    /// Per token, its [`Flags`]; empty when no token has any.
    flags: Vec<Flags>,
    /// The tokens that are not `normalized`, searched in the raw text; None
    /// when there are none.
    automaton: Option<AhoCorasick>,
    /// The token of each pattern of the automaton, when some tokens are
    /// `normalized` (left out of it); empty when it holds every token.
    of_pattern: Vec<usize>,
}

/// Two splitters are equal when they split out the same tokens.
impl PartialEq for SpecialSplitter {
    fn eq(&self, other: &Self) -> bool {
        self.tokens == other.tokens && self.flags() == other.flags()
    }
}

impl Eq for SpecialSplitter {}

impl SpecialSplitter {
    /// A splitter of `tokens` (text, id), kept in the order given; a token
    /// must not be empty.
    pub fn new(tokens: Vec<(String, u32)>) -> Result<Self> {
        Self::with_flags(tokens, Vec::new())
    }

    /// A splitter of `tokens` (text, id) with each one's [`Flags`] (none
    /// given: no flags). A token with `lstrip` takes in the whitespace
    /// (Unicode White_Space) before its match, back to the previous match at
    /// most; one with `rstrip` the whitespace after it; a `single_word` one
    /// is passed over where a word character touches it; a `normalized`
    /// one is left to [`Self::normalized`]. As Hugging Face's added tokens.
    pub fn with_flags(tokens: Vec<(String, u32)>, flags: Vec<Flags>) -> Result<Self> {
        if tokens.iter().any(|(t, _)| t.is_empty()) {
            return Err(Error::invalid("a special token must not be empty"));
        }
        debug_assert!(flags.is_empty() || flags.len() == tokens.len());
        let flags = if flags.iter().any(|f| *f != Flags::default()) { flags } else { Vec::new() };
        let raw: Vec<usize> = (0..tokens.len()).filter(|&k| !flags.get(k).is_some_and(|f| f.normalized)).collect();
        let automaton = if raw.is_empty() {
            None
        } else {
            let built = AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(raw.iter().map(|&k| tokens[k].0.as_bytes()))
                .map_err(|e| Error::invalid(format!("cannot search for the special tokens: {e}")))?;
            Some(built)
        };
        let of_pattern = if raw.len() == tokens.len() { Vec::new() } else { raw };
        Ok(Self { tokens, flags, automaton, of_pattern })
    }

    /// The splitter with each token's `(lstrip, rstrip)`, in the order of
    /// the tokens (its other flags kept).
    pub fn with_strip(self, strip: Vec<(bool, bool)>) -> Self {
        debug_assert_eq!(strip.len(), self.tokens.len());
        let flags = self.flags().into_iter().zip(strip).map(|(f, (lstrip, rstrip))| Flags { lstrip, rstrip, ..f });
        let flags = flags.collect();
        Self::with_flags(self.tokens, flags).expect("the same tokens")
    }

    /// Each token's `(lstrip, rstrip)`, in the order of the tokens.
    pub fn strip(&self) -> Vec<(bool, bool)> {
        self.flags().iter().map(|f| (f.lstrip, f.rstrip)).collect()
    }

    /// Each token's [`Flags`], in the order of the tokens.
    pub fn flags(&self) -> Vec<Flags> {
        if self.flags.is_empty() {
            vec![Flags::default(); self.tokens.len()]
        } else {
            self.flags.clone()
        }
    }

    /// The splitter of the `normalized` tokens, each as `normalize` makes
    /// its text (one it makes empty is left out), to split the normalized
    /// text between the matches of [`Self::split`] with; None when no token
    /// is `normalized`. Of two tokens that normalize alike, the first wins
    /// (Hugging Face's choice between them varies from run to run: its
    /// order comes from a hash map).
    pub fn normalized(&self, normalize: impl Fn(&str) -> String) -> Option<SpecialSplitter> {
        let mut tokens = Vec::new();
        let mut flags = Vec::new();
        for ((t, id), f) in self.tokens.iter().zip(&self.flags) {
            if f.normalized {
                let n = normalize(t);
                if !n.is_empty() {
                    tokens.push((n, *id));
                    flags.push(Flags { normalized: false, ..*f });
                }
            }
        }
        if tokens.is_empty() {
            return None;
        }
        Some(Self::with_flags(tokens, flags).expect("no empty token"))
    }

    /// [`Self::split`], then each piece of text split again by `normalized`
    /// (the splitter of the `normalized` tokens, [`Self::normalized`]), as
    /// Hugging Face's added vocabulary splits text when there is no
    /// normalizer (the normalized text is the raw text).
    pub fn split_both<'a>(&self, normalized: Option<&SpecialSplitter>, text: &'a str, mut f: impl FnMut(Piece<'a>)) {
        let Some(normalized) = normalized else {
            return self.split(text, f);
        };
        self.split(text, |piece| match piece {
            Piece::Text { text: t, start } => normalized.split(t, |p| {
                f(match p {
                    Piece::Text { text, start: s } => Piece::Text { text, start: start + s },
                    Piece::Special { id, start: s, end } => Piece::Special { id, start: start + s, end: start + end },
                })
            }),
            special => f(special),
        });
    }

    /// The special tokens (text, id), in the order given.
    pub fn tokens(&self) -> &[(String, u32)] {
        &self.tokens
    }

    /// Calls `f` with the pieces of `text` in order: the text between
    /// special tokens (only when not empty) and each special token found
    /// (of those that are not `normalized`).
    ///
    /// Linear in the text, also when whitespace special tokens with `lstrip`
    /// or `rstrip` match many times in one run of whitespace: an `lstrip`
    /// looks back no further than the previous match, and the end of the
    /// run an `rstrip` found is remembered for the matches inside it. (The
    /// pieces themselves may add up to more than the text: overlapping
    /// `rstrip` matches each take in the rest of a run, as Hugging Face's.)
    pub fn split<'a>(&self, text: &'a str, mut f: impl FnMut(Piece<'a>)) {
        let mut done = 0;
        // Bytes `run.0..run.1` are whitespace, and `run.1` is the end of the text or not whitespace.
        let mut run = (0, 0);
        if let Some(automaton) = &self.automaton {
            for m in automaton.find_iter(text) {
                let k = m.pattern().as_usize();
                let k = self.of_pattern.get(k).copied().unwrap_or(k);
                let (mut start, mut end) = (m.start(), m.end());
                // As Hugging Face: a match may start in the whitespace the
                // previous one's rstrip took in; it is kept (overlapping it).
                if let Some(&Flags { lstrip, rstrip, single_word, .. }) = self.flags.get(k) {
                    if single_word && touches_word(text, start, end) {
                        continue;
                    }
                    if lstrip && done < start {
                        start = done + text[done..start].trim_end_matches(char::is_whitespace).len();
                    } else if lstrip {
                        start = done;
                    }
                    if rstrip {
                        if !(run.0..=run.1).contains(&end) {
                            run = (end, text.len() - text[end..].trim_start_matches(char::is_whitespace).len());
                        }
                        end = run.1;
                    }
                }
                if start >= end {
                    // Wholly inside the whitespace the previous match's rstrip
                    // took in (an lstrip match then starts at its end): no
                    // piece, as Hugging Face drops its empty split.
                    continue;
                }
                if done < start {
                    f(Piece::Text { text: &text[done..start], start: done });
                }
                f(Piece::Special { id: self.tokens[k].1, start, end });
                done = end;
            }
        }
        if done < text.len() {
            f(Piece::Text { text: &text[done..], start: done });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(splitter: &SpecialSplitter, text: &str) -> Vec<String> {
        let mut out = vec![];
        splitter.split(text, |p| {
            out.push(match p {
                Piece::Text { text, start } => format!("T{text}@{start}"),
                Piece::Special { id, start, end } => format!("S{id}@{start}..{end}"),
            })
        });
        out
    }

    /// The rule, written out: at each byte, the longest token starting there.
    fn naive(tokens: &[(String, u32)], text: &str) -> Vec<String> {
        let (mut out, mut i, mut done) = (vec![], 0, 0);
        while i < text.len() {
            let found = tokens.iter().filter(|(t, _)| text[i..].starts_with(t.as_str())).max_by_key(|(t, _)| t.len());
            match found {
                Some((t, id)) => {
                    if done < i {
                        out.push(format!("T{}@{done}", &text[done..i]));
                    }
                    out.push(format!("S{id}@{i}..{}", i + t.len()));
                    i += t.len();
                    done = i;
                }
                None => i += text[i..].chars().next().map_or(1, char::len_utf8),
            }
        }
        if done < text.len() {
            out.push(format!("T{}@{done}", &text[done..]));
        }
        out
    }

    #[test]
    fn the_earliest_then_the_longest_token_is_split_out() {
        let tokens = vec![("<s>".to_string(), 0), ("<s>x".to_string(), 1), ("s>x<".to_string(), 2)];
        let s = SpecialSplitter::new(tokens).unwrap();
        assert_eq!(pieces(&s, "a<s>é<s>xb<s"), ["Ta@0", "S0@1..4", "Té@4", "S1@6..10", "Tb<s@10"]);
        assert_eq!(pieces(&s, "<s>x<"), ["S1@0..4", "T<@4"]);
        assert_eq!(pieces(&SpecialSplitter::default(), "abc"), ["Tabc@0"]);
        assert!(pieces(&s, "").is_empty());
    }

    #[test]
    fn lstrip_and_rstrip_take_in_the_whitespace_around_a_match() {
        let tokens = vec![("<m>".to_string(), 0), ("<r>".to_string(), 1), ("<x>".to_string(), 2)];
        let s = SpecialSplitter::new(tokens).unwrap().with_strip(vec![(true, false), (true, true), (false, false)]);
        assert_eq!(pieces(&s, "a \u{3000}<m> b"), ["Ta@0", "S0@1..8", "T b@8"]);
        assert_eq!(pieces(&s, "<r>  <m>"), ["S1@0..5", "S0@5..8"]);
        assert_eq!(pieces(&s, "a <x> <r>\n"), ["Ta @0", "S2@2..5", "S1@5..10"]);
        assert_eq!(s.strip()[1], (true, true));
        // a token starting with whitespace, in the whitespace an rstrip took in, is kept (as Hugging Face)
        let tokens = vec![("<r>".to_string(), 0), (" <y>".to_string(), 1)];
        let s = SpecialSplitter::new(tokens).unwrap().with_strip(vec![(false, true), (false, false)]);
        assert_eq!(pieces(&s, "<r>  <y> a"), ["S0@0..5", "S1@4..8", "T a@8"]);
        assert!(s != SpecialSplitter::new(s.tokens().to_vec()).unwrap());
        // with lstrip too, it starts where the previous match ended (as Hugging Face)
        let s = SpecialSplitter::new(vec![(" x".to_string(), 0)]).unwrap().with_strip(vec![(true, true)]);
        assert_eq!(pieces(&s, " x x"), ["S0@0..3", "S0@3..4"]);
        assert_eq!(pieces(&s, " x  x x"), ["S0@0..4", "S0@4..6", "S0@6..7"]);
    }

    #[test]
    fn normalized_tokens_are_split_out_of_the_text_between_the_others() {
        let tokens = vec![("\u{b}".to_string(), 0), ("<m>".to_string(), 1), ("B".to_string(), 2)];
        let lstrip = Flags { lstrip: true, ..Flags::default() };
        let normalized = Flags { normalized: true, ..Flags::default() };
        let s = SpecialSplitter::with_flags(tokens, vec![normalized, lstrip, normalized]).unwrap();
        assert_eq!(pieces(&s, "a\u{b}<m>\u{b}B"), ["Ta@0", "S1@1..5", "T\u{b}B@5"]);
        let n = s.normalized(|t| t.to_lowercase()).unwrap();
        assert_eq!(n.tokens(), [("\u{b}".to_string(), 0), ("b".to_string(), 2)]);
        let mut both = vec![];
        s.split_both(Some(&n), "a\u{b}<m>\u{b}b", |p| both.push(p));
        let expected = [
            Piece::Text { text: "a", start: 0 },
            Piece::Special { id: 1, start: 1, end: 5 },
            Piece::Special { id: 0, start: 5, end: 6 },
            Piece::Special { id: 2, start: 6, end: 7 },
        ];
        assert_eq!(both, expected);
        assert!(SpecialSplitter::new(vec![("x".to_string(), 0)]).unwrap().normalized(str::to_string).is_none());
    }

    #[test]
    fn a_single_word_match_touched_by_a_word_character_is_passed_over() {
        let tokens = vec![("ab".to_string(), 0), ("b".to_string(), 1)];
        let single = Flags { single_word: true, ..Flags::default() };
        let s = SpecialSplitter::with_flags(tokens, vec![single, Flags::default()]).unwrap();
        // passed over, the search goes on after it (the "b" inside it is not found)
        assert_eq!(pieces(&s, "xab b"), ["Txab @0", "S1@4..5"]);
        assert_eq!(pieces(&s, "ab-é ab"), ["S0@0..2", "T-é @2", "S0@6..8"]);
    }

    #[test]
    fn an_empty_token_is_refused() {
        assert!(SpecialSplitter::new(vec![(String::new(), 0)]).is_err());
    }

    #[test]
    fn splits_as_the_rule_says_on_random_text() {
        let alphabet = ["a", "b", "<", ">", "é", "ab", "<a"];
        let tokens: Vec<(String, u32)> =
            ["<a", "<a>", "a>", "b", "é<", "<a>b>"].iter().zip(0..).map(|(t, i)| (t.to_string(), i)).collect();
        let s = SpecialSplitter::new(tokens.clone()).unwrap();
        let mut seed = 11u64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..seed % 13 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(alphabet[(seed >> 33) as usize % alphabet.len()]);
            }
            assert_eq!(pieces(&s, &text), naive(&tokens, &text), "{text:?}");
        }
    }
}
