//! Sampled segmentations (subword regularization, SentencePiece's
//! `enable_sampling`): with every segmentation's probability raised to the
//! power `alpha`, draw one from all of them (forward filtering, backward
//! sampling) or from the `nbest` best. A seeded generator makes the draw
//! repeatable.

use super::model::{utf8_len, Model, Piece};
use super::{push_pieces, Encoded, UnigramTokenizer};

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

/// One of the `k` best segmentations of `word`, drawn with probability
/// proportional to `exp(alpha * score)`, appended to `out`.
fn sample_nbest(model: &Model, word: &str, k: usize, alpha: f64, rng: &mut Rng, out: &mut Vec<Piece>) {
    let mut nodes = Vec::new();
    lattice(model, word, &mut nodes);
    let n = word.len();
    // Per end position, the k best paths: (score, node index, rank of the path at its start).
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
    let first = out.len();
    while end > 0 {
        let (_, i, r) = best[end][rank];
        let node = nodes[i];
        out.push(Piece { id: node.id, start: node.start, end: node.end });
        end = node.start;
        rank = r;
    }
    out[first..].reverse();
}

impl UnigramTokenizer {
    /// A sampled encoding of `text`.
    pub fn sample(&self, text: &str, sampling: &Sampling) -> Encoded {
        let mut rng = Rng::new(sampling.seed);
        let mut buffer = String::new();
        let mut pieces: Vec<Piece> = Vec::new();
        let out = std::cell::RefCell::new(Encoded::default());
        let model = self.model();
        self.walk(
            text,
            &mut buffer,
            |word, char_start, virtual_prefix| {
                pieces.clear();
                match sampling.nbest {
                    None => sample_all(model, word, sampling.alpha, &mut rng, &mut pieces),
                    Some(k) => sample_nbest(model, word, k, sampling.alpha, &mut rng, &mut pieces),
                }
                model.fuse_unknown(word, &mut pieces, 0);
                push_pieces(&mut out.borrow_mut(), word, &pieces, char_start, virtual_prefix, model.unk_id());
            },
            |id, s, e| {
                let mut o = out.borrow_mut();
                o.ids.push(id);
                o.offsets.push((s, e));
            },
        );
        out.into_inner()
    }
}
