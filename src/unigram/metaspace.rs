//! Pre-tokenization for Unigram, Hugging Face's `Metaspace` (replacement "▁",
//! split): every space becomes "▁", a "▁" is put before the text unless it
//! starts with one (as the prepend scheme says), and the text is cut before
//! every "▁" (each "▁" begins a word). Special tokens are split out first,
//! and each piece of text between them is normalized and pre-tokenized on
//! its own (`UnigramTokenizer::walk`).

use crate::pipeline::special_split::{Piece, SpecialSplitter};
pub use crate::pipeline::unicode::is_punctuation;

/// The character that stands for a space.
pub const REPLACEMENT: char = '\u{2581}';

/// A piece of the text: a special token or the text between them.
pub enum Segment<'a> {
    /// A special token: its id, its characters, and its text (with the
    /// whitespace its `lstrip` or `rstrip` took in).
    Special {
        id: u32,
        chars: (u32, u32),
        text: &'a str,
    },
    Text {
        text: &'a str,
        char_start: u32,
    },
}

/// Calls `f` with the segments of `text` in order: the special tokens
/// `specials` finds (the earliest, then the longest) and the text between
/// them, with their offsets in characters.
/// `normalized`, when given, splits the text between them again (the
/// `normalized` added tokens, matched in the text when there is no
/// normalizer: [`SpecialSplitter::split_both`]).
pub fn segments<'a>(
    text: &'a str,
    specials: &SpecialSplitter,
    normalized: Option<&SpecialSplitter>,
    mut f: impl FnMut(Segment<'a>),
) {
    // Where the previous piece ended, in bytes and in characters: a special
    // token may start before it (in the whitespace an `rstrip` took in).
    let (mut at, mut chars) = (0usize, 0u32);
    let count = |s: &str| s.chars().count() as u32;
    specials.split_both(normalized, text, |piece| match piece {
        Piece::Text { text: t, start } => {
            f(Segment::Text { text: t, char_start: chars });
            (at, chars) = (start + t.len(), chars + count(t));
        }
        Piece::Special { id, start, end } => {
            let from = if start >= at { chars + count(&text[at..start]) } else { chars - count(&text[start..at]) };
            let to = from + count(&text[start..end]);
            f(Segment::Special { id, chars: (from, to), text: &text[start..end] });
            (at, chars) = (end, to);
        }
    });
}

/// Calls `f(word, virtual_prefix, char_offset)` for every word of `text`
/// (non-empty, no special tokens): `word` is the original text of the word,
/// starting with its space or "▁" unless `virtual_prefix` (the "▁" put before
/// the text), and `char_offset` is where it starts, in characters. These
/// are training's words: no normalizer, prepend scheme "always".
pub fn words(text: &str, mut f: impl FnMut(&str, bool, u32)) {
    let virtual_prefix = !text.starts_with([' ', REPLACEMENT]);
    let (mut start, mut start_char, mut chars) = (0usize, 0u32, 0u32);
    for (i, c) in text.char_indices() {
        if (c == ' ' || c == REPLACEMENT) && i > 0 {
            f(&text[start..i], virtual_prefix && start == 0, start_char);
            start = i;
            start_char = chars;
        }
        chars += 1;
    }
    if start < text.len() {
        f(&text[start..], virtual_prefix && start == 0, start_char);
    }
}

/// Calls `f(run, char_offset)` for every run of characters other than
/// Unicode White_Space in `text` (Hugging Face's `WhitespaceSplit`, which
/// drops the whitespace), with where the run starts, in characters.
pub fn white_space_runs(text: &str, mut f: impl FnMut(&str, u32)) {
    let (mut start, mut start_char, mut chars) = (None, 0u32, 0u32);
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                f(&text[s..i], start_char);
                start = None;
            }
            (false, None) => (start, start_char) = (Some(i), chars),
            _ => {}
        }
        chars += 1;
    }
    if let Some(s) = start {
        f(&text[s..], start_char);
    }
}

/// How a file writes the pre-tokenizer: `Metaspace` alone, in a `Sequence`
/// alone, in a `Sequence` after `WhitespaceSplit` (what transformers 5
/// saves for SentencePiece models), which first cuts the text at White_Space
/// and drops it, so that each run of other characters gets its own "▁", or
/// in a `Sequence` after `Punctuation` (behavior "isolated": what
/// transformers saves for DeBERTa-v2 and -v3 with `split_by_punct`), which
/// first cuts every punctuation character ([`is_punctuation`]) out as a part
/// of its own, so that each part (a punctuation character, or a run of other
/// characters, spaces kept) gets its own "▁".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreTokenizer {
    Metaspace,
    Sequence,
    WhitespaceSplit,
    Punctuation,
}

/// When `Metaspace` puts a "▁" before a piece of text (one between special
/// tokens) that does not start with one: `Always`; `First`, only before the
/// piece that starts the text; `Never`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prepend {
    Always,
    First,
    Never,
}

impl Prepend {
    /// The tokenizer.json name.
    pub fn name(self) -> &'static str {
        match self {
            Prepend::Always => "always",
            Prepend::First => "first",
            Prepend::Never => "never",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_space_runs_drop_unicode_white_space() {
        let mut out = Vec::new();
        white_space_runs(" a\tbc\u{3000}\u{1c}d\u{85}é  ", |run, at| out.push((run.to_string(), at)));
        assert_eq!(
            out,
            [("a".to_string(), 1), ("bc".to_string(), 3), ("\u{1c}d".to_string(), 6), ("é".to_string(), 9)]
        );
    }

    #[test]
    fn special_tokens_are_split_out_longest_first() {
        let specials = SpecialSplitter::new(vec![("<s>x".to_string(), 1), ("<s>".to_string(), 0)]).unwrap();
        let mut out = Vec::new();
        segments("a<s>é<s>xb<s>", &specials, None, |s| {
            out.push(match s {
                Segment::Special { id, chars, .. } => format!("S{id}{chars:?}"),
                Segment::Text { text, char_start } => format!("T{text}@{char_start}"),
            })
        });
        assert_eq!(out, ["Ta@0", "S0(1, 4)", "Té@4", "S1(5, 9)", "Tb@9", "S0(10, 13)"]);
    }
}
