//! Stage 2: pre-tokenization, splitting normalized text into words.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::unicode::{is_punctuation, is_regex_word_char, is_whitespace, is_word_char};
use crate::error::{Error, Quoted};

/// How normalized text is split into words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PreTokenizer {
    /// Hugging Face's `BertPreTokenizer`: split on whitespace and isolate
    /// every punctuation character.
    #[default]
    Bert,
    /// Split on whitespace only.
    Whitespace,
    /// The seed tutorial's `\w+|[^\w\s]`: runs of letters, digits and `_`,
    /// and every other non-space character alone.
    Regex,
    /// Hugging Face's `Whitespace` (NLTK's wordpunct), `\w+|[^\w\s]+` with
    /// Unicode's `\w`: runs of word characters, and runs of other non-space
    /// characters.
    WordPunct,
}

/// A word: its byte range and its character range in the normalized text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    pub bytes: (usize, usize),
    pub chars: (usize, usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Space,
    /// Joins with neighbours of the same class into one word.
    Run,
    /// A second kind of run: joins other `PunctRun`s, not `Run`s.
    PunctRun,
    /// Always a word of its own.
    Alone,
}

impl PreTokenizer {
    pub const NAMES: [&'static str; 4] = ["bert", "whitespace", "regex", "wordpunct"];

    #[inline]
    pub(crate) fn class(self, c: char) -> Class {
        if is_whitespace(c) {
            return Class::Space;
        }
        match self {
            PreTokenizer::Bert if is_punctuation(c) => Class::Alone,
            PreTokenizer::Regex if !is_word_char(c) => Class::Alone,
            PreTokenizer::WordPunct if !is_regex_word_char(c) => Class::PunctRun,
            _ => Class::Run,
        }
    }

    /// Calls `f` with every word of `text`, in order.
    pub fn split(self, text: &str, mut f: impl FnMut(Word)) {
        // The open word: its start and its class.
        let mut start: Option<(usize, usize, Class)> = None;
        let mut ci = 0;
        for (bi, c) in text.char_indices() {
            let class = self.class(c);
            match start {
                Some((_, _, open)) if open == class && class != Class::Alone => {}
                _ => {
                    if let Some((sb, sc, _)) = start.take() {
                        f(Word { bytes: (sb, bi), chars: (sc, ci) });
                    }
                    match class {
                        Class::Space => {}
                        Class::Alone => f(Word { bytes: (bi, bi + c.len_utf8()), chars: (ci, ci + 1) }),
                        _ => start = Some((bi, ci, class)),
                    }
                }
            }
            ci += 1;
        }
        if let Some((sb, sc, _)) = start {
            f(Word { bytes: (sb, text.len()), chars: (sc, ci) });
        }
    }

    /// The words of `text` as string slices.
    pub fn words(self, text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        self.split(text, |w| out.push(&text[w.bytes.0..w.bytes.1]));
        out
    }
}

impl FromStr for PreTokenizer {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "bert" => Ok(PreTokenizer::Bert),
            "whitespace" => Ok(PreTokenizer::Whitespace),
            "regex" => Ok(PreTokenizer::Regex),
            "wordpunct" => Ok(PreTokenizer::WordPunct),
            _ => Err(Error::invalid(format!(
                "unknown pre_tokenizer {}: expected one of {}",
                Quoted(s),
                Self::NAMES.map(|n| Quoted(n).to_string()).join(", ")
            ))),
        }
    }
}

impl fmt::Display for PreTokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PreTokenizer::Bert => "bert",
            PreTokenizer::Whitespace => "whitespace",
            PreTokenizer::Regex => "regex",
            PreTokenizer::WordPunct => "wordpunct",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bert_isolates_punctuation_and_drops_spaces() {
        assert_eq!(PreTokenizer::Bert.words("hello, world!! a$b"), ["hello", ",", "world", "!", "!", "a", "$", "b"]);
    }

    #[test]
    fn whitespace_keeps_punctuation_inside_words() {
        assert_eq!(PreTokenizer::Whitespace.words(" don't  stop\u{3000}x"), ["don't", "stop", "x"]);
    }

    #[test]
    fn regex_splits_runs_of_word_characters() {
        assert_eq!(PreTokenizer::Regex.words("snake_case+42€ ü"), ["snake_case", "+", "42", "€", "ü"]);
    }

    #[test]
    fn wordpunct_joins_punctuation_runs_and_marks() {
        assert_eq!(
            PreTokenizer::WordPunct.words("don't!! a_b-42€$ e\u{301}x ‿"),
            ["don", "'", "t", "!!", "a_b", "-", "42", "€$", "e\u{301}x", "‿"]
        );
    }

    #[test]
    fn char_ranges_count_characters_not_bytes() {
        let mut words = Vec::new();
        PreTokenizer::Bert.split("é, b", |w| words.push(w));
        assert_eq!(words[1], Word { bytes: (2, 3), chars: (1, 2) });
        assert_eq!(words[2], Word { bytes: (4, 5), chars: (3, 4) });
    }

    #[test]
    fn unknown_names_are_rejected_with_the_choices() {
        let err = "bpe".parse::<PreTokenizer>().unwrap_err().to_string();
        assert!(err.contains("\"bert\", \"whitespace\", \"regex\", \"wordpunct\""), "{err}");
    }
}
