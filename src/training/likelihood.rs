//! The `likelihood` objective: merge the pair whose merge most increases the
//! likelihood of the corpus under a unigram model (spec section 4):
//!
//! `ΔL = [f(c(a)−k) − f(c(a))] + [f(c(b)−k) − f(c(b))] + [f(c(ab)+k) − f(c(ab))] − [f(N−k) − f(N)]`
//!
//! with `f(x) = x·ln x`, evaluated in IEEE double in that order (one bracket
//! `f(c(a)−2k) − f(c(a))` when `a = b`); ties: larger `k`, then smaller `a`,
//! then smaller `b`.
//!
//! Lazy max-heap. A merge lowers `N`. In exact arithmetic `f(N) − f(N−k)`
//! grows with `N`, so when a pair's own counts (`k`, `c(a)`, `c(b)`,
//! `c(ab)`) did not change, its gain can only fall. After a merge of `a b`
//! into `c` the gains recomputed at once are those of the pairs whose `freq`
//! or `k` changed, of every pair holding `a` or `b` (their counts fell, so
//! their gains may rise), and of the pairs that would make `c` (its count
//! rose, so may theirs). Every other entry keeps its old gain plus a margin
//! that covers the rounding of the double evaluation (`slack`), an upper
//! bound on its current gain. `best` pops stale entries, recomputes and
//! reinserts them until the top entry is fresh; as every other entry is an
//! upper bound, that pair is the exact maximum, ties included.

use std::cmp::Ordering;

use super::indexed_heap::IndexedHeap;
use super::objective::tie_break;
use super::trainer::{merged_into, Core, Merged, Pair, PairId, Ranking, TokenId};
use crate::pipeline::model::vocab::CONTINUATION;

const NONE: TokenId = TokenId::MAX;

/// `x·ln x`, with `f(0) = 0`.
pub fn f(x: u64) -> f64 {
    if x == 0 {
        0.0
    } else {
        let x = x as f64;
        x * x.ln()
    }
}

/// `ΔL` of merging `a b` (`same`: `a = b`), counts as in the spec.
pub fn gain(ca: u64, cb: u64, cab: u64, n: u64, k: u64, same: bool) -> f64 {
    let parts = if same { f(ca - 2 * k) - f(ca) } else { (f(ca - k) - f(ca)) + (f(cb - k) - f(cb)) };
    (parts + (f(cab + k) - f(cab))) - (f(n - k) - f(n))
}

/// `gain` with `f(c(a))`, `f(c(b))`, `f(c(ab))` and `f(N)` given: the same
/// operations in the same order, so the same double.
#[allow(clippy::too_many_arguments)]
fn gain_given(ca: u64, cb: u64, cab: u64, n: u64, k: u64, same: bool, fs: [f64; 4]) -> f64 {
    let [fa, fb, fab, fnn] = fs;
    let parts = if same { f(ca - 2 * k) - fa } else { (f(ca - k) - fa) + (f(cb - k) - fb) };
    (parts + (f(cab + k) - fab)) - (f(n - k) - fnn)
}

/// More than the rounding error of any gain evaluated with a total of at
/// most `n` tokens: every term is at most `f(n)` in size, and the evaluation
/// errs by a few units in the last place of such terms.
fn slack(n: u64) -> f64 {
    f(n) * (-40f64).exp2() + f64::MIN_POSITIVE
}

#[derive(Clone, Copy, Debug)]
struct Key {
    /// The gain when fresh; an upper bound on it when stale.
    bound: f64,
    k: u64,
    a: TokenId,
    b: TokenId,
}

fn before(vocab: &[String], x: &Key, y: &Key) -> bool {
    let order = x.bound.partial_cmp(&y.bound).expect("gains are finite");
    order.then_with(|| tie_break(vocab, (x.k, x.a, x.b), (y.k, y.a, y.b))) == Ordering::Greater
}

#[derive(Default)]
pub struct LikelihoodRanking {
    heap: IndexedHeap<Key>,
    /// Per pair: its gain when last computed, and the epoch of that.
    gains: Vec<f64>,
    epochs: Vec<u32>,
    /// Per pair: the token its merge makes, if that token exists (`NONE`).
    targets: Vec<TokenId>,
    /// Per pair: whether it is in `holders` (of both its tokens).
    listed: Vec<bool>,
    /// Per token: the eligible pairs holding it (stale entries removed lazily).
    holders: Vec<Vec<PairId>>,
    /// Per token `t`: `f(c(t))`.
    token_f: Vec<f64>,
    /// Pairs whose gain was computed in the current epoch.
    fresh: Vec<PairId>,
    /// The epoch: the number of merges so far plus one.
    epoch: u32,
    /// `N` of the current epoch, and `f(N)`.
    total: u64,
    total_f: f64,
    piece: String,
}

impl LikelihoodRanking {
    fn gain_of(&self, core: &Core, p: PairId) -> f64 {
        let Pair { a, b, k, .. } = core.pairs[p as usize];
        let target = self.targets[p as usize];
        let (cab, fab) =
            if target == NONE { (0, 0.0) } else { (core.token_freq[target as usize], self.token_f[target as usize]) };
        let (ca, cb) = (core.token_freq[a as usize], core.token_freq[b as usize]);
        let fs = [self.token_f[a as usize], self.token_f[b as usize], fab, self.total_f];
        gain_given(ca, cb, cab, core.total, k, a == b, fs)
    }

    /// Recomputes the gain of `p` now: it becomes fresh (or leaves the heap).
    fn refresh(&mut self, core: &Core, p: PairId) {
        let vocab = &core.vocab;
        let before = |x: &Key, y: &Key| before(vocab, x, y);
        if !core.eligible(p) {
            self.heap.remove(p, &before);
            return;
        }
        let g = self.gain_of(core, p);
        let Pair { a, b, k, .. } = core.pairs[p as usize];
        self.gains[p as usize] = g;
        if self.epochs[p as usize] != self.epoch {
            self.epochs[p as usize] = self.epoch;
            self.fresh.push(p);
        }
        self.heap.upsert(p, Key { bound: g, k, a, b }, &before);
    }

    /// Registers the pairs created since the last update.
    fn add_new_pairs(&mut self, core: &Core) {
        for p in self.targets.len()..core.pairs.len() {
            let Pair { a, b, .. } = core.pairs[p];
            merged_into(&core.vocab[a as usize], &core.vocab[b as usize], &mut self.piece);
            self.targets.push(core.ids.get(self.piece.as_str()).copied().unwrap_or(NONE));
            self.gains.push(0.0);
            self.epochs.push(0);
            self.listed.push(false);
        }
    }

    /// The existing pairs whose merge makes token `c`: every split of its
    /// string into a token and a continuation token.
    fn makers_of(&mut self, core: &Core, c: TokenId, out: &mut Vec<PairId>) {
        let text = &core.vocab[c as usize];
        for (i, _) in text.char_indices().skip(1) {
            let Some(&x) = core.ids.get(&text[..i]) else { continue };
            self.piece.clear();
            self.piece.push_str(CONTINUATION);
            self.piece.push_str(&text[i..]);
            let Some(&y) = core.ids.get(self.piece.as_str()) else { continue };
            if let Some(p) = core.pair_of(x, y) {
                self.targets[p as usize] = c;
                out.push(p);
            }
        }
    }
}

impl Ranking for LikelihoodRanking {
    fn update(&mut self, core: &Core, changed: &[PairId], merged: Option<Merged>) {
        self.holders.resize_with(core.vocab.len(), Vec::new);
        match merged {
            None => self.token_f = core.token_freq.iter().map(|&c| f(c)).collect(),
            Some(Merged { a, b, c }) => {
                self.token_f.resize(core.vocab.len(), 0.0);
                for t in [a, b, c] {
                    self.token_f[t as usize] = f(core.token_freq[t as usize]);
                }
            }
        }
        self.add_new_pairs(core);
        // Entries computed in the last epoch become upper bounds.
        let margin = slack(self.total);
        let vocab = &core.vocab;
        for p in std::mem::take(&mut self.fresh) {
            if self.heap.contains(p) {
                let Pair { a, b, k, .. } = core.pairs[p as usize];
                let key = Key { bound: self.gains[p as usize] + margin, k, a, b };
                self.heap.upsert(p, key, &|x: &Key, y: &Key| before(vocab, x, y));
            }
        }
        self.epoch += 1;
        self.total = core.total;
        self.total_f = f(core.total);
        let mut stale: Vec<PairId> = changed.to_vec();
        for &p in changed {
            let Pair { a, b, .. } = core.pairs[p as usize];
            if core.eligible(p) && !self.listed[p as usize] {
                self.listed[p as usize] = true;
                self.holders[a as usize].push(p);
                if b != a {
                    self.holders[b as usize].push(p);
                }
            }
        }
        if let Some(Merged { a, b, c }) = merged {
            for t in if a == b { vec![a] } else { vec![a, b] } {
                let mut list = std::mem::take(&mut self.holders[t as usize]);
                // A pair that is not eligible only becomes so through a
                // change of its own counts, which lists it again.
                list.retain(|&p| {
                    let live = core.eligible(p);
                    self.listed[p as usize] &= live;
                    live
                });
                stale.extend_from_slice(&list);
                self.holders[t as usize] = list;
            }
            self.makers_of(core, c, &mut stale);
        }
        stale.sort_unstable();
        stale.dedup();
        for p in stale {
            self.refresh(core, p);
        }
    }

    fn best(&mut self, core: &Core) -> Option<PairId> {
        loop {
            let top = self.heap.peek()?;
            if self.epochs[top as usize] == self.epoch {
                return Some(top);
            }
            self.refresh(core, top);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_follows_the_formula() {
        // Merging the 3 occurrences of "a b" in a corpus of 10 tokens where
        // c(a) = 4, c(b) = 3 and "ab" is new.
        let expected = (f(1) - f(4)) + (f(0) - f(3)) + (f(3) - f(0)) - (f(7) - f(10));
        assert_eq!(gain(4, 3, 0, 10, 3, false), expected);
        let ln = |x: f64| x.ln();
        assert!(
            (expected - (-4.0 * ln(4.0) - 3.0 * ln(3.0) + 3.0 * ln(3.0) - 7.0 * ln(7.0) + 10.0 * ln(10.0))).abs()
                < 1e-9
        );
        // a = b: one bracket with 2k.
        assert_eq!(gain(5, 5, 0, 9, 2, true), ((f(1) - f(5)) + (f(2) - f(0))) - (f(7) - f(9)));
    }

    #[test]
    fn a_stale_gain_plus_slack_bounds_the_gain_at_a_smaller_total() {
        // Same pair counts, N falling one token at a time.
        for &(ca, cb, cab, k) in &[(5000u64, 7000u64, 0u64, 300u64), (40, 40, 3, 17), (1 << 40, 1 << 41, 5, 1 << 30)] {
            let mut n = ca + cb + cab + (1 << 20);
            let mut old = gain(ca, cb, cab, n, k, false) + slack(n);
            for _ in 0..2000 {
                n -= 1;
                let now = gain(ca, cb, cab, n, k, false);
                assert!(now <= old, "{now} > {old} at N = {n}");
                old = now + slack(n);
            }
        }
    }
}
