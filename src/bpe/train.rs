//! Training byte-level BPE: count the pre-tokenized pieces (as byte
//! characters), then run the shared merge loop with the `frequency`
//! objective, no continuation prefix and all 256 byte characters in the
//! alphabet.

use rustc_hash::FxHashMap;

use super::bytes::{byte_char, show_bytes};
use super::model::Bpe;
use super::pre_tokenizer::pieces;
use crate::error::{Error, Quoted, Result};
use crate::tokenizer::batch::chunks_until;
use crate::training::{self, Objective, Progress, TrainerConfig};

/// Piece counts: pieces of at most 15 bytes packed into one integer (their
/// bytes, then the length in the top byte), so that the common case hashes
/// and compares one `u128`; longer pieces as byte slices.
#[derive(Default)]
struct PieceCounts<'a> {
    short: FxHashMap<u128, u64>,
    long: FxHashMap<&'a [u8], u64>,
}

const SHORT: usize = 15;

fn pack(piece: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    b[..piece.len()].copy_from_slice(piece);
    b[15] = piece.len() as u8;
    u128::from_le_bytes(b)
}

fn unpack(key: u128) -> ([u8; 16], usize) {
    let b = key.to_le_bytes();
    (b, b[15] as usize)
}

impl<'a> PieceCounts<'a> {
    fn add(&mut self, piece: &'a [u8], n: u64) {
        if piece.len() <= SHORT {
            *self.short.entry(pack(piece)).or_default() += n;
        } else {
            *self.long.entry(piece).or_default() += n;
        }
    }

    fn merge(mut self, other: PieceCounts<'a>) -> PieceCounts<'a> {
        if self.short.len() + self.long.len() < other.short.len() + other.long.len() {
            return other.merge(self);
        }
        for (k, n) in other.short {
            *self.short.entry(k).or_default() += n;
        }
        for (k, n) in other.long {
            *self.long.entry(k).or_default() += n;
        }
        self
    }
}

/// The pieces of `texts` and how often each occurs, as byte-level strings,
/// sorted.
pub fn count_pieces<S: AsRef<str> + Sync>(texts: &[S]) -> Vec<(String, u64)> {
    count_pieces_until(texts, |_| false).expect("counting stops only when asked to")
}

/// [`count_pieces`] on chunks of `texts` in parallel, asking `stop` after
/// each (see [`chunks_until`]), with the number of texts counted so far,
/// whether to give up: [`Error::Interrupted`] if it says so.
pub fn count_pieces_until<S: AsRef<str> + Sync>(
    texts: &[S],
    mut stop: impl FnMut(usize) -> bool,
) -> Result<Vec<(String, u64)>> {
    let mut counts = PieceCounts::default();
    let done = std::cell::Cell::new(0);
    chunks_until(
        texts,
        None,
        |chunk| Ok((count_chunk(chunk), chunk.len())),
        |_, (m, n)| {
            counts = std::mem::take(&mut counts).merge(m);
            done.set(done.get() + n);
        },
        || stop(done.get()),
    )?;
    let shown = |bytes: &[u8]| {
        let mut s = String::with_capacity(bytes.len() * 2);
        show_bytes(bytes, &mut s);
        s
    };
    let mut out: Vec<(String, u64)> = Vec::with_capacity(counts.short.len() + counts.long.len());
    for (k, c) in counts.short {
        let (b, n) = unpack(k);
        out.push((shown(&b[..n]), c));
    }
    out.extend(counts.long.into_iter().map(|(k, c)| (shown(k), c)));
    out.sort_unstable();
    Ok(out)
}

/// The pieces of `texts`, counted.
fn count_chunk<S: AsRef<str>>(texts: &[S]) -> PieceCounts<'_> {
    let mut m = PieceCounts::default();
    for t in texts {
        let t = t.as_ref();
        for (a, b) in pieces(t) {
            m.add(&t.as_bytes()[a..b], 1);
        }
    }
    m
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
            return Err(Error::invalid(format!("special token {} is empty or given twice", Quoted(t))));
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
    fn short_and_long_pieces_are_counted_alike() {
        let long = "x".repeat(40);
        let texts = [format!("ab ab {long} {long} \u{1F600}\u{1F600}\u{1F600}\u{1F600}"), "ab".into()];
        let counts = count_pieces(&texts);
        let get = |p: &str| {
            let mut s = String::new();
            show_bytes(p.as_bytes(), &mut s);
            counts.iter().find(|(w, _)| *w == s).map(|x| x.1)
        };
        assert_eq!(get("ab"), Some(2));
        assert_eq!(get(" ab"), Some(1));
        assert_eq!(get(&format!(" {long}")), Some(2));
        assert_eq!(get(" \u{1F600}\u{1F600}\u{1F600}\u{1F600}"), Some(1)); // 17 bytes: a long piece
        assert_eq!(counts.iter().map(|x| x.1).sum::<u64>(), 6);
    }

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
        let ids = m.encode("the cat", &mut Default::default()).unwrap();
        assert!(ids.len() <= 3, "{ids:?}");
        assert_eq!(m.decode(&ids, false).unwrap(), "the cat");
    }
}
