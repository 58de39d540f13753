//! Training a Unigram model, SentencePiece's way (docs/spec.md, "Unigram
//! training"): seed pieces from frequent substrings of the words, then rounds
//! of EM over each word's segmentation lattice and pruning by the loss of
//! likelihood, until the target size; every single character is kept.
//!
//! Every floating-point sum runs in an order the spec fixes (words in chunks
//! of [`CHUNK`], chunks added in order), so the result does not depend on the
//! thread count, and the Python twin reproduces it exactly.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::metaspace::{segments, words, Segment, REPLACEMENT};
use super::model::{BestPath, Model, Piece};
use super::UnigramTokenizer;
use crate::error::{Error, Quoted, Result};
use crate::pipeline::special_split::SpecialSplitter;
use crate::threads;
use crate::tokenizer::batch::chunks_until;
use crate::training::Progress;

/// Words per chunk of the E-step's sums.
pub const CHUNK: usize = 1024;
/// Pieces expected fewer times than this are dropped by the M-step.
pub const MIN_EXPECTED: f64 = 0.5;

/// What training is asked for.
#[derive(Clone, Debug)]
pub struct UnigramConfig {
    pub vocab_size: usize,
    /// The special tokens, first in the vocabulary; the first is the unknown token.
    pub special_tokens: Vec<String>,
    /// The longest seed piece, in characters.
    pub max_piece_length: usize,
    /// How many substrings seed the vocabulary (characters come on top).
    pub seed_size: usize,
    /// The share of pieces a pruning round keeps.
    pub shrinking_factor: f64,
    /// EM iterations per round.
    pub num_sub_iterations: usize,
}

impl Default for UnigramConfig {
    fn default() -> Self {
        UnigramConfig {
            vocab_size: 8000,
            special_tokens: super::DEFAULT_SPECIAL_TOKENS.iter().map(|s| s.to_string()).collect(),
            max_piece_length: 16,
            seed_size: 1_000_000,
            shrinking_factor: 0.75,
            num_sub_iterations: 2,
        }
    }
}

impl UnigramConfig {
    pub fn validate(&self) -> Result<()> {
        if self.special_tokens.is_empty() {
            return Err(Error::invalid("special_tokens must hold at least the unknown token"));
        }
        for (i, t) in self.special_tokens.iter().enumerate() {
            if t.is_empty() {
                return Err(Error::invalid(format!("special_tokens[{i}] is empty")));
            }
            if self.special_tokens[..i].contains(t) {
                return Err(Error::invalid(format!("special token {} appears twice", Quoted(t))));
            }
        }
        if self.vocab_size <= self.special_tokens.len() {
            return Err(Error::invalid(format!(
                "vocab_size ({}) must exceed the number of special tokens ({})",
                self.vocab_size,
                self.special_tokens.len()
            )));
        }
        if self.max_piece_length == 0 {
            return Err(Error::invalid("max_piece_length must be positive"));
        }
        if !(self.shrinking_factor > 0.0 && self.shrinking_factor < 1.0) {
            return Err(Error::invalid(format!(
                "shrinking_factor must be between 0 and 1 (exclusive), not {}",
                self.shrinking_factor
            )));
        }
        if self.num_sub_iterations == 0 {
            return Err(Error::invalid("num_sub_iterations must be positive"));
        }
        Ok(())
    }
}

/// Counts the words of `texts` as the tokenizer sees them (each with its
/// "▁"), special tokens left out.
pub fn count_words<S: AsRef<str> + Sync>(texts: &[S], special_tokens: &[String]) -> Result<FxHashMap<String, u64>> {
    count_words_until(texts, special_tokens, |_| false)
}

/// [`count_words`] on chunks of `texts` in parallel, asking `stop` after
/// each (see [`chunks_until`]), with the number of texts counted so far,
/// whether to give up: [`Error::Interrupted`] if it says so.
pub fn count_words_until<S: AsRef<str> + Sync>(
    texts: &[S],
    special_tokens: &[String],
    mut stop: impl FnMut(usize) -> bool,
) -> Result<FxHashMap<String, u64>> {
    let specials = SpecialSplitter::new(special_tokens.iter().cloned().zip(0..).collect())?;
    let count = |chunk: &[S]| {
        let mut counts: FxHashMap<String, u64> = FxHashMap::default();
        let mut buffer = String::new();
        for t in chunk {
            segments(t.as_ref(), &specials, None, |s| {
                if let Segment::Text { text, .. } = s {
                    words(text, |w, virtual_prefix, _| {
                        word_text(w, virtual_prefix, &mut buffer);
                        match counts.get_mut(buffer.as_str()) {
                            Some(c) => *c += 1,
                            None => {
                                counts.insert(buffer.clone(), 1);
                            }
                        }
                    })
                }
            });
        }
        Ok((counts, chunk.len()))
    };
    let mut total = FxHashMap::default();
    let done = std::cell::Cell::new(0);
    let add = |_, (counts, n)| {
        total = merge_counts(std::mem::take(&mut total), counts);
        done.set(done.get() + n);
    };
    chunks_until(texts, None, count, add, || stop(done.get()))?;
    Ok(total)
}

/// Counts of `(text, count)` pairs: each text's words, `count` times each.
pub fn count_pairs(pairs: &[(String, u64)], special_tokens: &[String]) -> Result<FxHashMap<String, u64>> {
    let specials = SpecialSplitter::new(special_tokens.iter().cloned().zip(0..).collect())?;
    let mut counts: FxHashMap<String, u64> = FxHashMap::default();
    let mut buffer = String::new();
    let mut overflow: Option<String> = None;
    for (t, n) in pairs {
        segments(t, &specials, None, |s| {
            if let Segment::Text { text, .. } = s {
                words(text, |w, virtual_prefix, _| {
                    word_text(w, virtual_prefix, &mut buffer);
                    let sum = counts.entry(buffer.clone()).or_insert(0);
                    match sum.checked_add(*n) {
                        Some(total) => *sum = total,
                        None => {
                            overflow.get_or_insert_with(|| buffer.clone());
                        }
                    }
                })
            }
        });
        if let Some(word) = overflow {
            return Err(Error::invalid(format!(
                "the counts of the word {} add up to more than 2**64 - 1",
                Quoted(&word)
            )));
        }
    }
    Ok(counts)
}

fn merge_counts(mut a: FxHashMap<String, u64>, b: FxHashMap<String, u64>) -> FxHashMap<String, u64> {
    if a.len() < b.len() {
        return merge_counts(b, a);
    }
    for (w, c) in b {
        *a.entry(w).or_insert(0) += c;
    }
    a
}

/// The text of a word as the model sees it: its space (or the prepended
/// "▁") as "▁".
fn word_text(word: &str, virtual_prefix: bool, out: &mut String) {
    out.clear();
    if virtual_prefix {
        out.push(REPLACEMENT);
        out.push_str(word);
    } else if let Some(rest) = word.strip_prefix(' ') {
        out.push(REPLACEMENT);
        out.push_str(rest);
    } else {
        out.push_str(word);
    }
}

/// SentencePiece's digamma approximation (the M-step's Bayesian update).
pub fn digamma(mut x: f64) -> f64 {
    let mut result = 0.0;
    while x < 7.0 {
        result -= 1.0 / x;
        x += 1.0;
    }
    x -= 1.0 / 2.0;
    let xx = 1.0 / x;
    let xx2 = xx * xx;
    let xx4 = xx2 * xx2;
    result +=
        x.ln() + (1.0 / 24.0) * xx2 - (7.0 / 960.0) * xx4 + (31.0 / 8064.0) * xx4 * xx2 - (127.0 / 30720.0) * xx4 * xx4;
    result
}

/// `log(exp(x) + exp(y))`, as SentencePiece computes it.
#[inline]
fn log_sum_exp(x: f64, y: f64) -> f64 {
    let (lo, hi) = if x < y { (x, y) } else { (y, x) };
    if hi > lo + 50.0 {
        hi
    } else {
        hi + ((lo - hi).exp() + 1.0).ln()
    }
}

fn is_char(piece: &str) -> bool {
    let mut c = piece.chars();
    c.next().is_some() && c.next().is_none()
}

/// Counts `n` more of `key` in `map`, growing the table fallibly: a table
/// that cannot grow is [`Error::Memory`] naming `what` (the substrings of
/// [`seed_pieces`] grow to hundreds of megabytes, and a failed growth of
/// the table aborted the process).
#[inline]
fn count_in<K: std::hash::Hash + Eq>(map: &mut FxHashMap<K, u64>, key: K, n: u64, what: &str) -> Result<()> {
    if map.len() == map.capacity() {
        map.try_reserve(1).map_err(|_| Error::memory(format_args!("the counts of {} {what}", map.len() + 1)))?;
    }
    *map.entry(key).or_insert(0) += n;
    Ok(())
}

/// The seed pieces: every character, and the `seed_size` substrings of 2 to
/// `max_piece_length` characters seen at least twice with the highest
/// `count * length`; each scored `ln(score) - ln(sum of scores)`. The
/// tables of characters and substrings, and the substrings kept, that there
/// is no memory for are [`Error::Memory`].
///
/// Gives up (with a meaningless result) between two chunks of [`CHUNK`]
/// words once `stopped` is set, as do [`expected_counts`] and [`prune`].
pub fn seed_pieces(
    words: &[(String, u64)],
    config: &UnigramConfig,
    stopped: &AtomicBool,
) -> Result<Vec<(String, f64)>> {
    let max_len = config.max_piece_length;
    let stop = || stopped.load(Ordering::Relaxed);
    let (chars, subs) = threads::run(|| {
        words
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut chars: FxHashMap<char, u64> = FxHashMap::default();
                let mut subs: FxHashMap<&str, u64> = FxHashMap::default();
                if stop() {
                    return Ok((chars, subs));
                }
                let mut bounds: Vec<usize> = Vec::new();
                for (w, n) in chunk {
                    bounds.clear();
                    let room = w.chars().count() + 1;
                    bounds
                        .try_reserve(room)
                        .map_err(|_| Error::memory(format_args!("the text of a word of {room} characters")))?;
                    bounds.extend(w.char_indices().map(|(i, _)| i).chain([w.len()]));
                    for (k, c) in w.chars().enumerate() {
                        count_in(&mut chars, c, *n, "characters")?;
                        for l in 2..=max_len.min(bounds.len() - 1 - k) {
                            count_in(&mut subs, &w[bounds[k]..bounds[k + l]], *n, "substrings")?;
                        }
                    }
                }
                Ok((chars, subs))
            })
            .try_reduce(
                || (FxHashMap::default(), FxHashMap::default()),
                |(mut ca, mut sa), (cb, mut sb)| {
                    for (c, n) in cb {
                        count_in(&mut ca, c, n, "characters")?;
                    }
                    // The smaller into the larger; the last merges are
                    // large, so they too look at `stopped` now and then.
                    if sa.len() < sb.len() {
                        std::mem::swap(&mut sa, &mut sb);
                    }
                    for (k, (s, n)) in sb.into_iter().enumerate() {
                        if k % CHUNK == 0 && stop() {
                            break;
                        }
                        count_in(&mut sa, s, n, "substrings")?;
                    }
                    Ok((ca, sa))
                },
            )
    })?;
    if stop() {
        return Ok(Vec::new());
    }
    let seen_twice = subs.values().filter(|&&n| n >= 2).count();
    let mut kept: Vec<(u128, &str)> = Vec::new();
    kept.try_reserve_exact(seen_twice)
        .map_err(|_| Error::memory(format_args!("the counts of {seen_twice} substrings seen twice")))?;
    kept.extend(subs.into_iter().filter(|&(_, n)| n >= 2).map(|(s, n)| (u128::from(n) * s.chars().count() as u128, s)));
    let mut subs = kept;
    subs.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    subs.truncate(config.seed_size);
    let mut all: Vec<(u128, String)> = chars.into_iter().map(|(c, n)| (n.into(), c.to_string())).collect();
    all.extend(subs.into_iter().map(|(n, s)| (n, s.to_string())));
    all.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let total: f64 = all.iter().fold(0.0, |acc, &(n, _)| acc + n as f64);
    let log_total = total.ln();
    Ok(all.into_iter().map(|(n, s)| (s, (n as f64).ln() - log_total)).collect())
}

/// One node of a word's lattice.
#[derive(Clone, Copy)]
struct Node {
    start: usize,
    end: usize,
    id: u32,
    score: f64,
}

/// The E-step: each piece's expected count, `sum over words of count *
/// posterior` (forward-backward over each word's lattice).
pub fn expected_counts(model: &Model, words: &[(String, u64)], stopped: &AtomicBool) -> Vec<f64> {
    let chunks: Vec<FxHashMap<u32, f64>> = threads::run(|| {
        words
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut local: FxHashMap<u32, f64> = FxHashMap::default();
                let mut nodes: Vec<Node> = Vec::new();
                let (mut alpha, mut beta): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
                if stopped.load(Ordering::Relaxed) {
                    return local;
                }
                for (w, count) in chunk {
                    lattice(model, w, &mut nodes);
                    let n = w.len();
                    alpha.clear();
                    alpha.resize(n + 1, f64::NAN);
                    beta.clear();
                    beta.resize(n + 1, f64::NAN);
                    alpha[0] = 0.0;
                    for node in &nodes {
                        let v = alpha[node.start] + node.score;
                        let a = &mut alpha[node.end];
                        *a = if a.is_nan() { v } else { log_sum_exp(*a, v) };
                    }
                    beta[n] = 0.0;
                    for node in nodes.iter().rev() {
                        let v = node.score + beta[node.end];
                        let b = &mut beta[node.start];
                        *b = if b.is_nan() { v } else { log_sum_exp(*b, v) };
                    }
                    let z = alpha[n];
                    let c = *count as f64;
                    for node in &nodes {
                        let p = (alpha[node.start] + node.score + beta[node.end] - z).exp();
                        *local.entry(node.id).or_insert(0.0) += c * p;
                    }
                }
                local
            })
            .collect()
    });
    let mut expected = vec![0.0; model.len()];
    for local in chunks {
        for (id, v) in local {
            expected[id as usize] += v;
        }
    }
    expected
}

/// The nodes of `word`'s lattice, by start, shortest first.
fn lattice(model: &Model, word: &str, nodes: &mut Vec<Node>) {
    nodes.clear();
    let bytes = word.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        model.for_each_node(word, start, |id, end, score| nodes.push(Node { start, end, id, score }));
        start += super::model::utf8_len(bytes[start]);
    }
}

/// The M-step: pieces expected fewer than [`MIN_EXPECTED`] times are dropped
/// (single characters never: theirs is raised to it), and each kept piece
/// scores `digamma(expected) - digamma(sum of expected)`.
pub fn maximize(pieces: &[(String, f64)], expected: &[f64]) -> Vec<(String, f64)> {
    let mut kept: Vec<(&str, f64)> = Vec::with_capacity(pieces.len());
    for ((p, _), &e) in pieces.iter().zip(expected) {
        if e < MIN_EXPECTED {
            if is_char(p) {
                kept.push((p, MIN_EXPECTED));
            }
        } else {
            kept.push((p, e));
        }
    }
    let total = kept.iter().fold(0.0, |acc, &(_, e)| acc + e);
    let log_total = digamma(total);
    kept.into_iter().map(|(p, e)| (p.to_string(), digamma(e) - log_total)).collect()
}

/// The Viterbi segmentation of `text` by `model`, without piece `skip`.
fn best_without(model: &Model, text: &str, skip: u32, best: &mut Vec<(f64, usize, u32)>) -> Vec<u32> {
    let n = text.len();
    best.clear();
    best.resize(n + 1, (0.0, usize::MAX, 0));
    best[0] = (0.0, 0, 0);
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < n {
        let here = best[start].0;
        if best[start].1 != usize::MAX {
            model.for_each_node(text, start, |id, end, score| {
                if id != skip {
                    let v = score + here;
                    let t = &mut best[end];
                    if t.1 == usize::MAX || v > t.0 {
                        *t = (v, start, id);
                    }
                }
            });
        }
        start += super::model::utf8_len(bytes[start]);
    }
    let mut out = Vec::new();
    let mut end = n;
    while end > 0 && best[end].1 != usize::MAX {
        out.push(best[end].2);
        end = best[end].1;
    }
    out.reverse();
    out
}

/// A pruning round: drops the pieces whose removal costs the corpus least
/// likelihood, down to `max(target, floor(shrinking_factor * pieces))`;
/// pieces no word's Viterbi segmentation uses go first.
pub fn prune(
    model: &Model,
    words: &[(String, u64)],
    target: usize,
    shrinking_factor: f64,
    stopped: &AtomicBool,
) -> Vec<(String, f64)> {
    let pieces = model.pieces();
    let stop = || stopped.load(Ordering::Relaxed);
    // Viterbi counts: a vector of them (and the buffers of a search) per
    // fold of chunks, which rayon makes about once per thread, not per chunk.
    let freq: Vec<u64> = threads::run(|| {
        words
            .par_chunks(CHUNK)
            .fold(
                || (vec![0u64; pieces.len()], Vec::<BestPath>::new(), Vec::<Piece>::new()),
                |(mut freq, mut best, mut out), chunk| {
                    if !stop() {
                        for (w, n) in chunk {
                            out.clear();
                            model.viterbi(w, &mut best, &mut out);
                            for p in &out {
                                freq[p.id as usize] += n;
                            }
                        }
                    }
                    (freq, best, out)
                },
            )
            .map(|(freq, ..)| freq)
            .reduce(
                || vec![0u64; pieces.len()],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                    a
                },
            )
    });
    let sum: u128 = freq.iter().map(|&f| u128::from(f)).sum();
    let total_words: u64 = words.iter().map(|(_, n)| n).sum();
    let log_sum = (sum as f64).ln();
    if stop() {
        return Vec::new();
    }
    // Per piece: kept always (a character, +inf), or a candidate with its
    // loss (-inf: unused, kept only to reach the size).
    let decide = |best: &mut Vec<(f64, usize, u32)>, i: usize| {
        let (piece, _) = &pieces[i];
        if is_char(piece) {
            return f64::INFINITY;
        }
        let f = freq[i];
        if f == 0 {
            return f64::NEG_INFINITY;
        }
        let alt = best_without(model, piece, i as u32, best);
        let alt_score: f64 = alt.iter().fold(0.0, |acc, &id| acc + model.score(id));
        // Ties go to the piece itself (tried first): it is its own best segmentation.
        if alt_score > model.score(i as u32) {
            return f64::NEG_INFINITY;
        }
        let logsum_alt = ((sum + u128::from(f) * (alt.len() as u128 - 1)) as f64).ln();
        let logprob_sp = (f as f64).ln() - log_sum;
        let logprob_alt = alt
            .iter()
            .fold(0.0, |acc, &n| acc + (((u128::from(freq[n as usize]) + u128::from(f)) as f64).ln() - logsum_alt));
        let share = f as f64 / total_words as f64;
        share * (logprob_sp - logprob_alt)
    };
    // In chunks of pieces, in order.
    let decided: Vec<Vec<f64>> = threads::run(|| {
        (0..pieces.len().div_ceil(CHUNK))
            .into_par_iter()
            .map_init(Vec::new, |best, c| match stop() {
                true => Vec::new(),
                false => (c * CHUNK..pieces.len().min((c + 1) * CHUNK)).map(|i| decide(best, i)).collect(),
            })
            .collect()
    });
    if stop() {
        return Vec::new();
    }
    let decisions: Vec<f64> = decided.concat();
    let size = ((shrinking_factor * pieces.len() as f64).floor() as usize).max(target);
    let mut keep: Vec<usize> = (0..pieces.len()).filter(|&i| decisions[i] == f64::INFINITY).collect();
    let mut candidates: Vec<(f64, usize)> =
        (0..pieces.len()).filter(|&i| decisions[i] != f64::INFINITY).map(|i| (decisions[i], i)).collect();
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, i) in candidates {
        if keep.len() >= size {
            break;
        }
        keep.push(i);
    }
    keep.sort_unstable();
    keep.into_iter().map(|i| pieces[i].clone()).collect()
}

/// Trains on `(word, count)` pairs (words as the model sees them, with "▁").
pub fn train(counts: FxHashMap<String, u64>, config: &UnigramConfig) -> Result<UnigramTokenizer> {
    train_with(counts, config, &|| false, &mut Progress::disabled())
}

/// [`train`], asking `stop` between steps and, on the calling thread, every
/// few milliseconds during each (see [`threads::run_until`]): when it says
/// true, training ends with `Error::Interrupted`. `progress` counts the EM
/// iterations.
pub fn train_with(
    counts: FxHashMap<String, u64>,
    config: &UnigramConfig,
    stop: &(dyn Fn() -> bool + Sync),
    progress: &mut Progress,
) -> Result<UnigramTokenizer> {
    config.validate()?;
    let mut words: Vec<(String, u64)> = counts.into_iter().filter(|(w, n)| !w.is_empty() && *n > 0).collect();
    words.sort_unstable();
    // Within this, no count below wraps; their sums and products are u128.
    crate::training::occurrences::check(words.iter().map(|(w, n)| (w.as_str(), *n)))?;
    let desired = config.vocab_size - config.special_tokens.len();
    let target = desired * 11 / 10;
    let mut pieces = threads::run_until(stop, |stopped| seed_pieces(&words, config, stopped))??;
    let chars = pieces.iter().filter(|(p, _)| is_char(p)).count();
    if chars > desired {
        return Err(Error::invalid(format!(
            "vocab_size ({}) is too small for the {chars} characters of the corpus and {} special tokens",
            config.vocab_size,
            config.special_tokens.len()
        )));
    }
    if pieces.is_empty() {
        return Err(Error::invalid("the corpus has no words to train on"));
    }
    progress.start("training (EM)", "iterations", None);
    loop {
        for _ in 0..config.num_sub_iterations {
            if stop() {
                return Err(Error::Interrupted);
            }
            let model = Model::new(pieces, 0)?;
            let expected = threads::run_until(stop, |stopped| expected_counts(&model, &words, stopped))?;
            pieces = maximize(model.pieces(), &expected);
            progress.advance(1)?;
        }
        if pieces.len() <= target {
            break;
        }
        if stop() {
            return Err(Error::Interrupted);
        }
        let model = Model::new(pieces, 0)?;
        let pruned =
            threads::run_until(stop, |stopped| prune(&model, &words, target, config.shrinking_factor, stopped))?;
        let stuck = pruned.len() == model.len();
        pieces = pruned;
        if stuck {
            break;
        }
    }
    progress.finish();
    // The scores as a saved file gives them back (to Hugging Face too).
    for (_, score) in &mut pieces {
        *score = super::hf_json::as_read_back(*score);
    }
    // Finalize: every character, then the best-scored other pieces.
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    order.sort_by(|&a, &b| {
        let (ca, cb) = (is_char(&pieces[a].0), is_char(&pieces[b].0));
        cb.cmp(&ca).then(pieces[b].1.total_cmp(&pieces[a].1)).then(a.cmp(&b))
    });
    let mut chosen: Vec<(String, f64)> = Vec::with_capacity(desired.min(pieces.len()));
    for i in order {
        if chosen.len() == desired {
            break;
        }
        if !config.special_tokens.contains(&pieces[i].0) {
            chosen.push(pieces[i].clone());
        }
    }
    chosen.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut vocab: Vec<(String, f64)> = config.special_tokens.iter().map(|t| (t.clone(), 0.0)).collect();
    vocab.extend(chosen);
    let special: Vec<u32> = (0..config.special_tokens.len() as u32).collect();
    UnigramTokenizer::with_model(Model::new(vocab, 0)?, special)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of words made of random syllables (a fixed xorshift stream).
    fn corpus() -> Vec<String> {
        let syllables = ["ka", "to", "ri", "men", "sa", "lo", "pu", "ne", "dí", "gor", "e", "i"];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as usize
        };
        (0..200)
            .map(|_| {
                let words: Vec<String> = (0..8)
                    .map(|_| (0..1 + next(3)).map(|_| syllables[next(6) + next(7)]).collect::<String>())
                    .collect();
                words.join(" ")
            })
            .collect()
    }

    #[test]
    fn trains_to_the_asked_size_with_every_character() {
        let config = UnigramConfig { vocab_size: 60, ..UnigramConfig::default() };
        let counts = count_words(&corpus(), &config.special_tokens).unwrap();
        let t = train(counts, &config).unwrap();
        assert_eq!(t.vocab_size(), 60);
        for c in corpus().concat().chars().filter(|&c| c != ' ') {
            assert!(t.token_to_id(&c.to_string()).is_some(), "{c:?}");
        }
        let e = t.encode(&corpus()[0]).unwrap();
        assert_eq!(t.decode(&e.ids, false).unwrap(), corpus()[0]);
    }

    #[test]
    fn training_does_not_depend_on_the_thread_count() {
        let config = UnigramConfig { vocab_size: 50, ..UnigramConfig::default() };
        let one = threads::install(Some(1), || train(count_words(&corpus(), &config.special_tokens).unwrap(), &config));
        let three =
            threads::install(Some(3), || train(count_words(&corpus(), &config.special_tokens).unwrap(), &config));
        assert_eq!(one.unwrap().unwrap().model().pieces(), three.unwrap().unwrap().model().pieces());
    }

    #[test]
    fn stops_when_asked() {
        let config = UnigramConfig { vocab_size: 50, ..UnigramConfig::default() };
        let counts = count_words(&corpus(), &config.special_tokens).unwrap();
        assert!(matches!(train_with(counts, &config, &|| true, &mut Progress::disabled()), Err(Error::Interrupted)));
    }

    #[test]
    fn digamma_matches_known_values() {
        assert!((digamma(1.0) + 0.577_215_664_901_532_9).abs() < 1e-9);
        assert!((digamma(10.0) - 2.251_752_589_066_721).abs() < 1e-9);
    }
}
