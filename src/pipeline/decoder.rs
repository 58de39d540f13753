//! Decoding: tokens back to text, like Hugging Face's `decoders.WordPiece`.

use crate::error::{Error, Result};
use crate::pipeline::model::vocab::CONTINUATION;

/// The clean-up rules, applied in this order to each token as it is joined.
const CLEANUP: [(&str, &str); 11] = [
    (" .", "."),
    (" ?", "?"),
    (" !", "!"),
    (" ,", ","),
    (" ' ", "'"),
    (" n't", "n't"),
    (" 'm", "'m"),
    (" do not", " don't"),
    (" 's", "'s"),
    (" 've", "'ve"),
    (" 're", "'re"),
];

/// Glues `##` pieces to the previous token, separates words by a space and
/// removes the spaces BERT's pre-tokenizer put before punctuation.
pub fn decode<'a>(tokens: impl IntoIterator<Item = &'a str>) -> String {
    decode_with(tokens, CONTINUATION, true)
}

/// [`decode`] with another continuation `prefix`, and with or without the
/// clean-up rules (Hugging Face's `decoders.WordPiece(prefix, cleanup)`).
pub fn decode_with<'a>(tokens: impl IntoIterator<Item = &'a str>, prefix: &str, cleanup: bool) -> String {
    let mut out = String::new();
    decode_into(&mut out, tokens, prefix, cleanup);
    out
}

/// How tokens are joined into text: Hugging Face's `decoders.WordPiece`
/// (`prefix`, `cleanup`), or with no decoder, with single spaces.
#[derive(Clone, Copy, Debug)]
pub enum Joining<'a> {
    WordPiece { prefix: &'a str, cleanup: bool },
    Spaces,
}

/// `tokens` joined as `joining` says, in a text reserved at once (the tokens
/// and a space before each: it never grows); `Error::Memory` when there is
/// no room for it.
pub fn try_join(tokens: &[&str], joining: Joining<'_>) -> Result<String> {
    let bytes = tokens.iter().fold(0usize, |n, t| n.saturating_add(t.len() + 1));
    let mut text = String::new();
    if text.try_reserve_exact(bytes).is_err() {
        return Err(Error::memory(format_args!("a decoded text of {bytes} bytes")));
    }
    match joining {
        Joining::WordPiece { prefix, cleanup } => decode_into(&mut text, tokens.iter().copied(), prefix, cleanup),
        Joining::Spaces => {
            for (i, token) in tokens.iter().enumerate() {
                if i > 0 {
                    text.push(' ');
                }
                text.push_str(token);
            }
        }
    }
    Ok(text)
}

/// [`decode_with`], appending to `out` (which the caller may have given
/// room for the text: a token and a space each at most).
pub fn decode_into<'a>(out: &mut String, tokens: impl IntoIterator<Item = &'a str>, prefix: &str, cleanup: bool) {
    let mut piece = String::new();
    for (i, token) in tokens.into_iter().enumerate() {
        piece.clear();
        match token.strip_prefix(prefix) {
            Some(rest) if i > 0 => piece.push_str(rest),
            _ => {
                if i > 0 {
                    piece.push(' ');
                }
                piece.push_str(token);
            }
        }
        if cleanup && piece.contains(' ') {
            for (from, to) in CLEANUP {
                if piece.contains(from) {
                    piece = piece.replace(from, to);
                }
            }
        }
        out.push_str(&piece);
    }
}

/// `transformers`' `clean_up_tokenization` (its decode's
/// `clean_up_tokenization_spaces=True`): the clean-up rules but `" do not"`,
/// in the same order, over a whole decoded text. In place: each rule
/// shortens what it replaces, so a text too large for a second copy is
/// cleaned up where it is.
pub fn clean_up_tokenization(text: &mut String) {
    for (from, to) in CLEANUP.iter().filter(|(from, _)| *from != " do not") {
        if text.contains(from) {
            replace_shorter(text, from, to);
        }
    }
}

/// `*text = text.replace(from, to)` (the same matches, left to right,
/// none overlapping) for ASCII `from` and `to` no longer than it, in place.
fn replace_shorter(text: &mut String, from: &str, to: &str) {
    debug_assert!(from.is_ascii() && to.is_ascii() && to.len() <= from.len());
    let mut bytes = std::mem::take(text).into_bytes();
    // What is read is never yet written over: `write <= read`.
    let (mut read, mut write) = (0, 0);
    let finder = memchr::memmem::Finder::new(from);
    while let Some(at) = finder.find(&bytes[read..]) {
        bytes.copy_within(read..read + at, write);
        write += at;
        bytes[write..write + to.len()].copy_from_slice(to.as_bytes());
        write += to.len();
        read += at + from.len();
    }
    let rest = bytes.len() - read;
    bytes.copy_within(read.., write);
    bytes.truncate(write + rest);
    // ASCII replaced by ASCII leaves every other byte's character whole.
    *text = String::from_utf8(bytes).expect("UTF-8 with ASCII replaced by ASCII");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transformers_clean_up_works_across_tokens() {
        let decoded = decode(["i", "do", "n", "'", "t", "know", ",", "he", "'", "s", "here", "."]);
        assert_eq!(decoded, "i do n ' t know, he ' s here.");
        let clean = |text: &str| {
            let mut text = text.to_owned();
            clean_up_tokenization(&mut text);
            text
        };
        assert_eq!(clean(&decoded), "i don't know, he's here.");
        assert_eq!(clean("a do not b ?"), "a do not b?");
        for text in ["", " .", "a . b ., ' ' c", " ' ' ", "é ,ü 's 're 've", "x n'tn't  n't"] {
            let mut expected = text.to_owned();
            for (from, to) in CLEANUP.iter().filter(|(from, _)| *from != " do not") {
                expected = expected.replace(from, to);
            }
            assert_eq!(clean(text), expected, "{text:?}");
        }
    }

    #[test]
    fn glues_pieces_and_cleans_punctuation() {
        assert_eq!(decode(["hello", "##s", "world", "!", "isn", "'", "t"]), "hellos world! isn ' t");
    }

    #[test]
    fn any_prefix_and_no_cleanup() {
        assert_eq!(decode_with(["a", "@@b", "c", "!"], "@@", false), "ab c !");
        assert_eq!(decode_with(["a", "b"], "", true), "ab");
    }

    #[test]
    fn a_leading_continuation_keeps_its_prefix() {
        assert_eq!(decode(["##a", "##b"]), "##ab");
    }

    #[test]
    fn cleanup_applies_per_token_like_hugging_face() {
        assert_eq!(decode(["a", "do not"]), "a don't");
        assert_eq!(decode(["x", "'s"]), "x's");
        assert_eq!(decode(["x", "' "]), "x'");
    }
}
