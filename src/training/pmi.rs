//! The `pmi` objective: merge the pair with the highest
//! `freq(ab) / (freq(a) * freq(b))`, compared exactly (integers, see
//! `score`); ties: larger pair frequency, then smaller `a`, then smaller `b`.
//!
//! Ranking structure. A merge lowers `freq(a)` and `freq(b)`, which raises the
//! score of every pair holding `a` or `b`; frequent tokens such as `##s` sit in
//! thousands of pairs. So each pair is filed in the group of one of its two
//! tokens, the one with more pairs (its "hub"). Within a group every score
//! shares the factor `1 / freq(hub)`, so the group is ordered by
//! `pair_freq / freq(other)` and a change of `freq(hub)` moves only the
//! group's entry in the global heap. A change of `freq(t)` re-ranks only the
//! pairs filed under another hub whose other token is `t`.

use std::cmp::Ordering;

use super::group_heaps::GroupHeaps;
use super::indexed_heap::IndexedHeap;
use super::objective::tie_break;
use super::score::Score;
use super::trainer::{Core, Merged, Pair, PairId, Ranking, TokenId};

#[derive(Clone, Copy)]
struct Filing {
    /// The token whose group holds this pair.
    hub: TokenId,
    /// The other token: its count is part of the order within the group.
    other: TokenId,
    /// Whether the pair is in `dependents[other]`.
    listed: bool,
}

/// What a group is ranked by in the global heap: its best pair's full key.
#[derive(Clone, Copy, Debug)]
struct RankKey {
    score: Score,
    freq: u64,
    a: TokenId,
    b: TokenId,
}

/// The order within a hub's group: `pair_freq / freq(other)`, then `pair_freq`.
#[derive(Clone, Copy, Debug)]
struct GroupKey {
    score: Score,
    freq: u64,
}

#[derive(Default)]
pub struct PmiRanking {
    filings: Vec<Filing>,
    group_keys: Vec<GroupKey>,
    /// Per token `t`: live pairs whose group order depends on `freq(t)`.
    dependents: Vec<Vec<PairId>>,
    groups: GroupHeaps,
    /// Groups (by hub token), ranked by their best pair.
    heap: IndexedHeap<RankKey>,
}

/// Whether key `x` ranks above key `y`: higher score, then higher pair
/// frequency, then smaller `a`, then smaller `b` (code point order).
fn ranks_before(vocab: &[String], x: &RankKey, y: &RankKey) -> bool {
    x.score.cmp(&y.score).then_with(|| tie_break(vocab, (x.freq, x.a, x.b), (y.freq, y.a, y.b))) == Ordering::Greater
}

/// The same order as `ranks_before`, for two pairs of one group.
fn group_before(vocab: &[String], pairs: &[Pair], keys: &[GroupKey], x: PairId, y: PairId) -> bool {
    let (kx, ky) = (keys[x as usize], keys[y as usize]);
    let (px, py) = (pairs[x as usize], pairs[y as usize]);
    kx.score.cmp(&ky.score).then_with(|| tie_break(vocab, (kx.freq, px.a, px.b), (ky.freq, py.a, py.b)))
        == Ordering::Greater
}

impl PmiRanking {
    fn rank_key(core: &Core, p: PairId) -> RankKey {
        let Pair { a, b, freq, .. } = core.pairs[p as usize];
        RankKey { score: Score::new(freq, core.token_freq[a as usize], core.token_freq[b as usize]), freq, a, b }
    }
}

impl Ranking for PmiRanking {
    fn update(&mut self, core: &Core, changed: &[PairId], merged: Option<Merged>) {
        self.dependents.resize_with(core.vocab.len(), Vec::new);
        // File new pairs under the token with more pairs.
        for p in self.filings.len()..core.pairs.len() {
            let Pair { a, b, .. } = core.pairs[p];
            let (hub, other) = if core.degree[a as usize] >= core.degree[b as usize] { (a, b) } else { (b, a) };
            self.filings.push(Filing { hub, other, listed: false });
            self.group_keys.push(GroupKey { score: Score::new(0, 1, 1), freq: 0 });
        }
        let mut touched: Vec<PairId> = Vec::with_capacity(changed.len());
        for &p in changed {
            let filing = &mut self.filings[p as usize];
            if core.pairs[p as usize].freq > 0 && !filing.listed {
                filing.listed = true;
                self.dependents[filing.other as usize].push(p);
            }
            touched.push(p);
        }
        let retokened: &[TokenId] = match &merged {
            Some(m) => &[m.a, m.b, m.c],
            None => &[],
        };
        let mut dirty: Vec<TokenId> = retokened.to_vec();
        for &t in retokened {
            let mut list = std::mem::take(&mut self.dependents[t as usize]);
            list.retain(|&p| {
                let filing = &mut self.filings[p as usize];
                filing.listed = core.pairs[p as usize].freq > 0;
                filing.listed
            });
            touched.extend_from_slice(&list);
            self.dependents[t as usize] = list;
        }
        touched.sort_unstable();
        touched.dedup();
        for p in touched {
            let Filing { hub, other, .. } = self.filings[p as usize];
            let freq = core.pairs[p as usize].freq;
            let eligible = core.eligible(p);
            if eligible {
                self.group_keys[p as usize] =
                    GroupKey { score: Score::new(freq, core.token_freq[other as usize], 1), freq };
            }
            let (vocab, pairs, keys) = (&core.vocab, &core.pairs, &self.group_keys);
            let before = |x: PairId, y: PairId| group_before(vocab, pairs, keys, x, y);
            if eligible {
                self.groups.upsert(hub, p, &before);
            } else {
                self.groups.remove(hub, p, &before);
            }
            dirty.push(hub);
        }
        dirty.sort_unstable();
        dirty.dedup();
        for hub in dirty {
            let vocab = &core.vocab;
            let before = |x: &(u32, RankKey), y: &(u32, RankKey)| ranks_before(vocab, &x.1, &y.1);
            match self.groups.top(hub) {
                Some(p) => {
                    let key = Self::rank_key(core, p);
                    self.heap.upsert(hub, key, &before);
                }
                None => self.heap.remove(hub, &before),
            }
        }
    }

    fn best(&mut self, _core: &Core) -> Option<PairId> {
        self.heap.peek().and_then(|hub| self.groups.top(hub))
    }
}
