//! Training byte-level BPE: count the pre-tokenized pieces (as byte
//! characters), then run the shared merge loop with the `frequency`
//! objective, no continuation prefix and all 256 byte characters in the
//! alphabet.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::bytes::{byte_char, show_bytes};
use super::model::Bpe;
use super::pre_tokenizer::pieces;
use crate::error::{Error, Result};
use crate::training::{self, Objective, Progress, TrainerConfig};

/// The pieces of `texts` and how often each occurs, as byte-level strings,
/// sorted.
pub fn count_pieces<S: AsRef<str> + Sync>(texts: &[S]) -> Vec<(String, u64)> {
    let counts = texts
        .par_iter()
        .fold(FxHashMap::<&[u8], u64>::default, |mut m, t| {
            let t = t.as_ref();
            for (a, b) in pieces(t) {
                *m.entry(&t.as_bytes()[a..b]).or_default() += 1;
            }
            m
        })
        .reduce(FxHashMap::default, |x, y| {
            if x.len() < y.len() {
                return merge_into(y, x);
            }
            merge_into(x, y)
        });
    let mut out: Vec<(String, u64)> = counts
        .into_iter()
        .map(|(k, c)| {
            let mut s = String::with_capacity(k.len() * 2);
            show_bytes(k, &mut s);
            (s, c)
        })
        .collect();
    out.sort_unstable();
    out
}

/// `text` cut into parts of about `size` bytes where the GPT-2 pieces are
/// the same whole or cut: just before a newline that a character other than
/// whitespace follows. That newline is a piece of its own in the whole text
/// (the last character of a whitespace run before a non-space), and the run
/// before it, at the end of a part, is one piece either way.
pub fn split_at_safe_newlines(text: &str, size: usize) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    while text.len() - start > size {
        let mut cut = None;
        let mut from = start + size;
        while let Some(p) = memchr::memchr(b'\n', &text.as_bytes()[from..]) {
            let at = from + p + 1;
            if at - 1 > start && text[at..].chars().next().is_some_and(|c| !c.is_whitespace()) {
                cut = Some(at - 1);
                break;
            }
            from = at;
        }
        let Some(cut) = cut else { break };
        parts.push(&text[start..cut]);
        start = cut;
    }
    parts.push(&text[start..]);
    parts
}

fn merge_into<'a>(mut x: FxHashMap<&'a [u8], u64>, y: FxHashMap<&'a [u8], u64>) -> FxHashMap<&'a [u8], u64> {
    for (k, c) in y {
        *x.entry(k).or_default() += c;
    }
    x
}

/// Learns a byte-level BPE model from `(piece, count)` pairs, pieces given
/// as byte-level strings (as [`count_pieces`] makes them).
pub fn train_from_counts(
    counts: Vec<(String, u64)>,
    vocab_size: usize,
    min_frequency: u64,
    special_tokens: &[String],
    progress: &mut Progress,
) -> Result<Bpe> {
    for (i, t) in special_tokens.iter().enumerate() {
        if t.is_empty() || special_tokens[..i].contains(t) {
            return Err(Error::invalid(format!("special token {t:?} is empty or given twice")));
        }
    }
    let config = TrainerConfig {
        objective: Objective::Frequency,
        continuation: false,
        initial_alphabet: (0..=255u8).map(byte_char).collect(),
        ..TrainerConfig::new(vocab_size, min_frequency, special_tokens.to_vec())
    };
    let trained = training::train(counts, &config, progress)?;
    Bpe::new(trained.vocab, &trained.merges, None, special_tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_splits_count_the_same_pieces() {
        let text = "a\n  b\nc d\n\n\ne \n f\ng \nh\r\ni\n".repeat(7);
        let whole = count_pieces(&[text.as_str()]);
        for size in 1..40 {
            let parts = split_at_safe_newlines(&text, size);
            assert!(parts.len() > 3);
            assert_eq!(parts.concat(), text);
            assert_eq!(count_pieces(&parts), whole, "size {size}");
        }
    }

    #[test]
    fn training_learns_frequent_pairs_and_encodes_its_corpus_compactly() {
        let texts = vec!["the cat sat on the mat"; 5];
        let counts = count_pieces(&texts);
        let m = train_from_counts(counts, 256 + 10, 2, &["<|endoftext|>".into()], &mut Progress::disabled()).unwrap();
        assert_eq!(m.vocab()[0], "<|endoftext|>");
        assert_eq!(m.vocab_size(), 266);
        let ids = m.encode("the cat", &mut Default::default());
        assert!(ids.len() <= 3, "{ids:?}");
        assert_eq!(m.decode(&ids, false).unwrap(), "the cat");
    }
}
