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

/// The clean-up rules whose only space is their first character, in
/// [`CLEANUP`]'s order: the only ones that can match a token without a
/// space once a space is put before it (and only at its start).
const SPACE_LED: [(&str, &str); 9] = [
    (" .", "."),
    (" ?", "?"),
    (" !", "!"),
    (" ,", ","),
    (" n't", "n't"),
    (" 'm", "'m"),
    (" 's", "'s"),
    (" 've", "'ve"),
    (" 're", "'re"),
];

/// [`decode_with`], appending to `out` (which the caller may have given
/// room for the text: a token and a space each at most).
pub fn decode_into<'a>(out: &mut String, tokens: impl IntoIterator<Item = &'a str>, prefix: &str, cleanup: bool) {
    let mut piece = String::new();
    for (i, token) in tokens.into_iter().enumerate() {
        let glued = if i > 0 { token.strip_prefix(prefix) } else { Some(token) };
        match glued {
            // Without a space the clean-up rules match nothing.
            Some(text) if !(cleanup && text.contains(' ')) => out.push_str(text),
            Some(text) => {
                piece.clear();
                piece.push_str(text);
                clean_up_piece(&mut piece);
                out.push_str(&piece);
            }
            None if !cleanup => {
                out.push(' ');
                out.push_str(token);
            }
            // " token" with no other space: a rule can match only at its
            // start, and once one has, no space is left for the others.
            None if !token.contains(' ') => match SPACE_LED.iter().find(|(from, _)| token.starts_with(&from[1..])) {
                Some((from, to)) => {
                    out.push_str(to);
                    out.push_str(&token[from.len() - 1..]);
                }
                None => {
                    out.push(' ');
                    out.push_str(token);
                }
            },
            None => {
                piece.clear();
                piece.push(' ');
                piece.push_str(token);
                clean_up_piece(&mut piece);
                out.push_str(&piece);
            }
        }
    }
}

/// The clean-up rules applied in order to one piece, as Hugging Face's
/// decoder applies them to each token.
fn clean_up_piece(piece: &mut String) {
    for (from, to) in CLEANUP {
        if piece.contains(from) {
            *piece = piece.replace(from, to);
        }
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

    /// Hugging Face's `decoders.WordPiece`, token by token: the prefix
    /// stripped or a space put before, then every clean-up rule replaced in
    /// the piece in order.
    fn piece_by_piece(tokens: &[String], prefix: &str, cleanup: bool) -> String {
        let mut out = String::new();
        for (i, token) in tokens.iter().enumerate() {
            let mut piece = match token.strip_prefix(prefix) {
                Some(rest) if i > 0 => rest.to_owned(),
                _ if i > 0 => format!(" {token}"),
                _ => token.clone(),
            };
            if cleanup {
                for (from, to) in CLEANUP {
                    piece = piece.replace(from, to);
                }
            }
            out.push_str(&piece);
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn decoding_equals_the_rules_applied_piece_by_piece(
            tokens in proptest::collection::vec("(##)?[ .?!,'nt'msvrdoé]{0,6}", 0..12),
            prefix in "(##|@@| #|)",
            cleanup: bool,
        ) {
            proptest::prop_assert_eq!(decode_with(tokens.iter().map(String::as_str), &prefix, cleanup),
                piece_by_piece(&tokens, &prefix, cleanup));
        }
    }

    #[test]
    fn every_rule_at_the_start_of_a_token() {
        let tokens: Vec<String> = ["a", ".", "?x", "!", ",,", "n't", "'m", "'s", "'ve", "'re", "' ", "do not", "'t"]
            .into_iter()
            .map(String::from)
            .collect();
        for cleanup in [false, true] {
            assert_eq!(
                decode_with(tokens.iter().map(String::as_str), "##", cleanup),
                piece_by_piece(&tokens, "##", cleanup)
            );
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
