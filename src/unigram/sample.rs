//! Sampled segmentations (subword regularization, SentencePiece's
//! `enable_sampling`): with every segmentation's probability raised to the
//! power `alpha`, draw one from all of them (forward filtering, backward
//! sampling) or from the `nbest` best. A seeded generator makes the draw
//! repeatable.

use super::model::{utf8_len, Model, Piece};
use super::{push_pieces, Encoded, UnigramTokenizer};
use crate::error::{Error, Result};

/// How to sample.
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    /// The sharpness: large values approach the Viterbi segmentation.
    pub alpha: f64,
    /// Sample among the `n` best segmentations; `None`: among all of them.
    pub nbest: Option<usize>,
    pub seed: u64,
}

/// SplitMix64: a small, fast, seeded generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[derive(Clone, Copy)]
struct Node {
    start: usize,
    end: usize,
    id: u32,
    score: f64,
}

fn lattice(model: &Model, word: &str, nodes: &mut Vec<Node>) {
    nodes.clear();
    let bytes = word.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        model.for_each_node(word, start, |id, end, score| nodes.push(Node { start, end, id, score }));
        start += utf8_len(bytes[start]);
    }
}

/// `log(exp(a) + exp(b))`.
fn lse(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// Index drawn with probability proportional to `exp(weights[i])`.
fn draw(weights: &[f64], rng: &mut Rng) -> usize {
    let top = weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = weights.iter().map(|w| (w - top).exp()).sum();
    let mut u = rng.uniform() * total;
    for (i, w) in weights.iter().enumerate() {
        u -= (w - top).exp();
        if u < 0.0 {
            return i;
        }
    }
    weights.len() - 1
}

/// A segmentation of `word` drawn from every one (forward filtering,
/// backward sampling), appended to `out`.
fn sample_all(model: &Model, word: &str, alpha: f64, rng: &mut Rng, out: &mut Vec<Piece>) {
    let mut nodes = Vec::new();
    lattice(model, word, &mut nodes);
    let n = word.len();
    let mut fwd = vec![f64::NEG_INFINITY; n + 1];
    fwd[0] = 0.0;
    for node in &nodes {
        fwd[node.end] = lse(fwd[node.end], fwd[node.start] + alpha * node.score);
    }
    // The nodes by end (in lattice order within an end), so that stepping
    // back costs only the nodes ending there.
    let mut by_end: Vec<usize> = (0..nodes.len()).collect();
    by_end.sort_by_key(|&i| nodes[i].end);
    let mut from = vec![0usize; n + 2];
    for &i in &by_end {
        from[nodes[i].end + 1] += 1;
    }
    for e in 1..n + 2 {
        from[e] += from[e - 1];
    }
    let first = out.len();
    let mut end = n;
    let mut weights: Vec<f64> = Vec::new();
    while end > 0 {
        let ending = &by_end[from[end]..from[end + 1]];
        weights.clear();
        weights.extend(ending.iter().map(|&i| fwd[nodes[i].start] + alpha * nodes[i].score));
        let node = nodes[ending[draw(&weights, rng)]];
        out.push(Piece { id: node.id, start: node.start, end: node.end });
        end = node.start;
    }
    out[first..].reverse();
}

/// How much work (paths kept) [`sample_nbest`] does between two questions
/// to its `stop`.
const CHECK_EVERY: usize = 1 << 20;

/// One of the `k` best segmentations of `word`, drawn with probability
/// proportional to `exp(alpha * score)`, appended to `out`; with nothing
/// appended, [`Error::Interrupted`] if `stop` (asked every so often) said to
/// give up, or `Error::Memory`, before the search, if the paths it keeps
/// cannot fit in memory.
///
/// The `k` best paths to each end position, best first, are those of the
/// nodes ending there (in lattice order), each node extending the `k` best
/// paths to its start (in their order): a new path goes after the paths
/// already kept whose score is at least its own, so ties go to the earlier
/// candidate. The paths a node adds are in order already, so they are merged
/// into the kept ones in one pass: O(k) per node.
fn sample_nbest(
    model: &Model,
    word: &str,
    k: usize,
    alpha: f64,
    rng: &mut Rng,
    out: &mut Vec<Piece>,
    stop: &mut dyn FnMut() -> bool,
) -> Result<()> {
    let mut nodes = Vec::new();
    lattice(model, word, &mut nodes);
    let n = word.len();
    let kept = kept_paths(&nodes, n, k);
    room_for_paths(kept.iter().fold(0, |all: usize, &p| all.saturating_add(p)), n, k)?;
    // Per end position, the k best paths: (score, node index, rank of the path at its start).
    let mut best: Vec<Vec<(f64, usize, usize)>> = Vec::new();
    best.try_reserve_exact(n + 1).map_err(|_| Error::memory(format_args!("a lattice of {} positions", n + 1)))?;
    best.resize(n + 1, Vec::new());
    best[0].push((0.0, usize::MAX, 0));
    let mut merged: Vec<(f64, usize, usize)> = Vec::new();
    let mut work = 0;
    for (i, node) in nodes.iter().enumerate() {
        merged.clear();
        // Exactly the paths this end keeps (see `kept_paths`).
        if merged.try_reserve_exact(kept[node.end]).is_err() {
            return Err(Error::memory(format_args!("{} paths to one position of a word", kept[node.end])));
        }
        let (from, kept) = (&best[node.start], &best[node.end]);
        let (mut a, mut b) = (0, 0);
        while merged.len() < k {
            let new = from.get(b).map(|p| (p.0 + node.score, i, b));
            match (kept.get(a), new) {
                (Some(&old), Some(new)) if new.0 > old.0 => {
                    merged.push(new);
                    b += 1;
                }
                (Some(&old), _) => {
                    merged.push(old);
                    a += 1;
                }
                (None, Some(new)) => {
                    merged.push(new);
                    b += 1;
                }
                (None, None) => break,
            }
        }
        std::mem::swap(&mut best[node.end], &mut merged);
        work += k.min(best[node.end].len()) + 1;
        if work >= CHECK_EVERY {
            work = 0;
            if stop() {
                return Err(Error::Interrupted);
            }
        }
    }
    let weights: Vec<f64> = best[n].iter().map(|e| alpha * e.0).collect();
    let (mut end, mut rank) = (n, draw(&weights, rng));
    let first = out.len();
    while end > 0 {
        let (_, i, r) = best[end][rank];
        let node = nodes[i];
        out.push(Piece { id: node.id, start: node.start, end: node.end });
        end = node.start;
        rank = r;
    }
    out[first..].reverse();
    Ok(())
}

/// The number of paths [`sample_nbest`] keeps to each end position of a
/// word of `n` bytes whose lattice is `nodes` (in order of their starts):
/// the number of paths there, at most `k`.
fn kept_paths(nodes: &[Node], n: usize, k: usize) -> Vec<usize> {
    let mut paths = vec![0usize; n + 1];
    paths[0] = 1;
    for node in nodes {
        paths[node.end] = paths[node.end].saturating_add(paths[node.start]).min(k);
    }
    paths
}

/// `Error::Memory` unless `paths` kept paths (at most `k` per position of a
/// word of `bytes` bytes) can have room: one allocation of their size,
/// freed at once and never written, must succeed.
fn room_for_paths(paths: usize, bytes: usize, k: usize) -> Result<()> {
    let size = paths.checked_mul(std::mem::size_of::<(f64, usize, usize)>());
    if size.is_some_and(|size| Vec::<u8>::new().try_reserve_exact(size).is_ok()) {
        return Ok(());
    }
    Err(Error::memory(format_args!("nbest={k} on a word of {bytes} bytes ({paths} paths kept)")))
}

impl UnigramTokenizer {
    /// A sampled encoding of `text`.
    pub fn sample(&self, text: &str, sampling: &Sampling) -> Encoded {
        self.sample_until(text, sampling, &mut || false).expect("sampling stops only when asked to")
    }

    /// [`UnigramTokenizer::sample`], asking `stop` every so often during a
    /// long `nbest` search whether to give up: [`Error::Interrupted`] if it
    /// says so.
    pub fn sample_until(&self, text: &str, sampling: &Sampling, stop: &mut dyn FnMut() -> bool) -> Result<Encoded> {
        let mut rng = Rng::new(sampling.seed);
        let mut buffer = String::new();
        let mut pieces: Vec<Piece> = Vec::new();
        let out = std::cell::RefCell::new(Encoded::default());
        let mut stopped = Ok(());
        let model = self.model();
        // The tokens a special token found no room after, if any.
        let full = std::cell::Cell::new(None);
        let walked = self.walk(
            text,
            &mut buffer,
            |word, spans| {
                if stopped.is_err() || full.get().is_some() {
                    return;
                }
                pieces.clear();
                match sampling.nbest {
                    None => sample_all(model, word, sampling.alpha, &mut rng, &mut pieces),
                    Some(k) => {
                        stopped = sample_nbest(model, word, k, sampling.alpha, &mut rng, &mut pieces, stop);
                        if stopped.is_err() {
                            return;
                        }
                    }
                }
                model.fuse_unknown(word, &mut pieces, 0);
                let mut o = out.borrow_mut();
                if !o.room(pieces.len()) {
                    stopped = Err(Error::memory(format_args!("an encoding of {} tokens", o.ids.len() + pieces.len())));
                    return;
                }
                if let Err(what) = push_pieces(&mut o, word, &pieces, spans, model.unk_id()) {
                    stopped = Err(Error::memory(what));
                }
            },
            |id, s, e, shown| {
                let mut o = out.borrow_mut();
                if full.get().is_none() && !o.push_special(id, (s, e), self.shown(id, shown)) {
                    full.set(Some(o.ids.len() + 1));
                }
            },
        );
        walked?;
        stopped?;
        if let Some(tokens) = full.get() {
            return Err(Error::memory(format_args!("an encoding of {tokens} tokens")));
        }
        Ok(out.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The k best paths kept by inserting each candidate in turn (what the
    /// spec describes), then one drawn as `sample_nbest` draws.
    fn by_insertion(model: &Model, word: &str, k: usize, alpha: f64, rng: &mut Rng) -> Vec<Piece> {
        let mut nodes = Vec::new();
        lattice(model, word, &mut nodes);
        let n = word.len();
        let mut best: Vec<Vec<(f64, usize, usize)>> = vec![Vec::new(); n + 1];
        best[0].push((0.0, usize::MAX, 0));
        for (i, node) in nodes.iter().enumerate() {
            for r in 0..best[node.start].len() {
                let v = best[node.start][r].0 + node.score;
                let list = &mut best[node.end];
                let at = list.iter().position(|e| v > e.0).unwrap_or(list.len());
                if at < k {
                    list.insert(at, (v, i, r));
                    list.truncate(k);
                }
            }
        }
        let weights: Vec<f64> = best[n].iter().map(|e| alpha * e.0).collect();
        let (mut end, mut rank) = (n, draw(&weights, rng));
        let mut out = Vec::new();
        while end > 0 {
            let (_, i, r) = best[end][rank];
            out.push(Piece { id: nodes[i].id, start: nodes[i].start, end: nodes[i].end });
            end = nodes[i].start;
            rank = r;
        }
        out.reverse();
        out
    }

    #[test]
    fn merging_keeps_the_paths_that_insertion_keeps_ties_included() {
        let tied = ["<unk>", "a", "b", "ab", "ba", "aa", "aba", "bab"];
        for spread in [0.0, 0.37] {
            let pieces: Vec<(String, f64)> =
                tied.iter().enumerate().map(|(i, p)| (p.to_string(), -(p.len() as f64) - spread * i as f64)).collect();
            let model = Model::new(pieces, 0).unwrap();
            let mut letters = Rng::new(9);
            for len in [1, 2, 5, 13, 40] {
                let word: String = (0..len).map(|_| if letters.next_u64() % 2 == 0 { 'a' } else { 'b' }).collect();
                for k in [1, 2, 3, 8, 100, 300] {
                    for seed in 0..4 {
                        let mut out = Vec::new();
                        sample_nbest(&model, &word, k, 0.5, &mut Rng::new(seed), &mut out, &mut || false).unwrap();
                        let expected = by_insertion(&model, &word, k, 0.5, &mut Rng::new(seed));
                        let pieces = |p: &[Piece]| p.iter().map(|p| (p.id, p.start, p.end)).collect::<Vec<_>>();
                        assert_eq!(pieces(&out), pieces(&expected), "{word} k={k} seed={seed} spread={spread}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_long_nbest_search_stops_when_told() {
        let pieces: Vec<(String, f64)> =
            ["<unk>", "a", "b", "ab", "ba"].iter().map(|p| (p.to_string(), -(p.len() as f64))).collect();
        let model = Model::new(pieces, 0).unwrap();
        let word = "ab".repeat(300);
        let mut asked = 0;
        let mut out = Vec::new();
        let mut stop = || {
            asked += 1;
            true
        };
        assert!(matches!(
            sample_nbest(&model, &word, 10_000, 0.5, &mut Rng::new(1), &mut out, &mut stop),
            Err(Error::Interrupted)
        ));
        assert_eq!(asked, 1);
        assert!(out.is_empty());
    }

    #[test]
    fn paths_beyond_memory_are_an_error_before_the_search() {
        let pieces: Vec<(String, f64)> =
            ["<unk>", "a", "aa"].iter().map(|p| (p.to_string(), -(p.len() as f64))).collect();
        let model = Model::new(pieces, 0).unwrap();
        let word = "a".repeat(2000);
        let mut nodes = Vec::new();
        lattice(&model, &word, &mut nodes);
        // Fibonacci many paths: 1, 1, 2, 3, 5, 8, ... kept up to k.
        assert_eq!(kept_paths(&nodes, word.len(), 6)[..7], [1, 1, 2, 3, 5, 6, 6]);
        for k in [usize::MAX, 1 << 60] {
            let mut out = Vec::new();
            let mut asked = false;
            let result = sample_nbest(&model, &word, k, 0.5, &mut Rng::new(1), &mut out, &mut || {
                asked = true;
                false
            });
            let Err(Error::Memory(message)) = result else { panic!("k={k}: {result:?}") };
            assert!(message.starts_with(&format!("nbest={k} on a word of 2000 bytes")), "{message}");
            assert!(out.is_empty() && !asked);
        }
    }
}
